/* frame_bench.c: ecs_benchmark's 7-system frame (movement, data, more-complex, health, damage,
 * sprite, render over a mixed population) declared as systems (bench/frame.json) and run by
 * fr_step, beside the same per-entity work called by hand: a view loop per system, in the
 * schedule's order (docs/performance.md, "Systems"). Both worlds must end with the same
 * fr_world_hash. Rows at 10k, 100k and 1M entities; fr_step with 1 thread against the hand
 * loops, and with T threads (--threads T, default 2) against 1 thread.
 * Each figure is the median of R timed runs (--runs R, default 7), the two sides alternating.
 *     frame_bench [--quick] [--threads T] [--runs R] */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fr_ecs.h"
#include "timing.h"

/* The per-entity work, shared by the bodies and the hand loops. */
static inline void k_move(float *px, float *py, float vx, float vy, float dt) { *px += vx * dt, *py += vy * dt; }
static inline uint32_t k_rng(uint32_t *seed) {
    uint32_t x = *seed;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return *seed = x;
}
static inline void k_data(int32_t *thingy, double *dingy, bool *mingy, uint32_t *seed, uint32_t *numgy, float dt) {
    *thingy = (*thingy + 1) % 1000000;
    *dingy += 0.0001 * (double)dt;
    *mingy = !*mingy;
    *numgy = k_rng(seed) % 1000u;
}
static inline void k_complex(float px, float py, int32_t thingy, uint32_t numgy, float *vx, float *vy) {
    if (thingy % 10 != 0) return;
    if (px > py) *vx = (float)(numgy % 17u) - 8.0f, *vy = (float)(numgy % 5u) - 2.0f;
    else *vx = (float)(numgy % 5u) - 2.0f, *vy = (float)(numgy % 17u) - 8.0f;
}
enum { DEAD, ALIVE, SPAWN };
static inline void k_health(int32_t *hp, int32_t maxhp, uint8_t *status) {
    if (*hp <= 0 && *status != DEAD) *hp = 0, *status = DEAD;
    else if (*status == DEAD && *hp == 0) *hp = maxhp, *status = SPAWN;
    else if (*hp >= maxhp && *status != ALIVE) *hp = maxhp, *status = ALIVE;
    else if (*hp > maxhp) *hp = maxhp;
}
static inline void k_damage(int32_t *hp, int32_t atk, int32_t def) {
    int32_t total = atk - def;
    if (*hp > 0 && total > 0) *hp = *hp > total ? *hp - total : 0;
}
static inline void k_sprite(uint8_t type, uint8_t status, uint8_t *ch) {
    *ch = status == DEAD ? 'x' : status == SPAWN ? '+' : type == 0 ? '@' : type == 1 ? 'M' : 'N';
}
static inline uint64_t k_render(float px, float py, uint8_t ch) {
    uint32_t col = (uint32_t)px & 255u, row = (uint32_t)py & 127u;
    return (uint64_t)ch * (row * 256u + col + 1u);
}

/* The systems' bodies. */
void fr_system_move_sys(fr_move_sys_t *restrict s) {
    for (size_t i = 0; i < s->count; i++)
        k_move(&FR_MOVE_SYS_FIELD(s, position, x, i), &FR_MOVE_SYS_FIELD(s, position, y, i),
               FR_MOVE_SYS_FIELD(s, velocity, x, i), FR_MOVE_SYS_FIELD(s, velocity, y, i), s->dt);
}
void fr_system_data_sys(fr_data_sys_t *restrict s) {
    for (size_t i = 0; i < s->count; i++)
        k_data(&FR_DATA_SYS_FIELD(s, data, thingy, i), &FR_DATA_SYS_FIELD(s, data, dingy, i), &FR_DATA_SYS_FIELD(s, data, mingy, i),
               &FR_DATA_SYS_FIELD(s, data, seed, i), &FR_DATA_SYS_FIELD(s, data, numgy, i), s->dt);
}
void fr_system_complex_sys(fr_complex_sys_t *restrict s) {
    for (size_t i = 0; i < s->count; i++)
        k_complex(FR_COMPLEX_SYS_FIELD(s, position, x, i), FR_COMPLEX_SYS_FIELD(s, position, y, i),
                  FR_COMPLEX_SYS_FIELD(s, data, thingy, i), FR_COMPLEX_SYS_FIELD(s, data, numgy, i),
                  &FR_COMPLEX_SYS_FIELD(s, velocity, x, i), &FR_COMPLEX_SYS_FIELD(s, velocity, y, i));
}
void fr_system_health_sys(fr_health_sys_t *restrict s) {
    for (size_t i = 0; i < s->count; i++)
        k_health(&FR_HEALTH_SYS_FIELD(s, health, hp, i), FR_HEALTH_SYS_FIELD(s, health, maxhp, i), &FR_HEALTH_SYS_FIELD(s, health, status, i));
}
void fr_system_damage_sys(fr_damage_sys_t *restrict s) {
    for (size_t i = 0; i < s->count; i++)
        k_damage(&FR_DAMAGE_SYS_FIELD(s, health, hp, i), FR_DAMAGE_SYS_FIELD(s, damage, atk, i), FR_DAMAGE_SYS_FIELD(s, damage, def, i));
}
void fr_system_sprite_sys(fr_sprite_sys_t *restrict s) {
    for (size_t i = 0; i < s->count; i++)
        k_sprite(FR_SPRITE_SYS_FIELD(s, player, type, i), FR_SPRITE_SYS_FIELD(s, health, status, i), &FR_SPRITE_SYS_FIELD(s, sprite, character, i));
}
void fr_system_render_sys(fr_render_sys_t *restrict s) {
    uint64_t sum = 0;
    for (size_t i = 0; i < s->count; i++)
        sum += k_render(FR_RENDER_SYS_FIELD(s, position, x, i), FR_RENDER_SYS_FIELD(s, position, y, i), FR_RENDER_SYS_FIELD(s, sprite, character, i));
    FR_RENDER_SYS_FIELD(s, screen, sum, 0) += sum;
}

/* The same frame by hand: a view loop per system, in the schedule's order. */
#define F(Q, v, c, f, i) FR_##Q##__QUERY_FIELD(v, c, f, i)
static void hand_frame(fr_world_t *w, float dt) {
    fr_move_sys__query_view_t mv = fr_query_move_sys__query(w);
    for (size_t i = 0; i < mv.count; i++)
        k_move(&F(MOVE_SYS, mv, position, x, i), &F(MOVE_SYS, mv, position, y, i),
               F(MOVE_SYS, mv, velocity, x, i), F(MOVE_SYS, mv, velocity, y, i), dt);
    fr_data_sys__query_view_t dv = fr_query_data_sys__query(w);
    for (size_t i = 0; i < dv.count; i++)
        k_data(&F(DATA_SYS, dv, data, thingy, i), &F(DATA_SYS, dv, data, dingy, i), &F(DATA_SYS, dv, data, mingy, i),
               &F(DATA_SYS, dv, data, seed, i), &F(DATA_SYS, dv, data, numgy, i), dt);
    fr_health_sys__query_view_t hv = fr_query_health_sys__query(w);
    for (size_t i = 0; i < hv.count; i++)
        k_health(&F(HEALTH_SYS, hv, health, hp, i), F(HEALTH_SYS, hv, health, maxhp, i), &F(HEALTH_SYS, hv, health, status, i));
    fr_complex_sys__query_view_t cv = fr_query_complex_sys__query(w);
    for (size_t i = 0; i < cv.count; i++)
        k_complex(F(COMPLEX_SYS, cv, position, x, i), F(COMPLEX_SYS, cv, position, y, i), F(COMPLEX_SYS, cv, data, thingy, i),
                  F(COMPLEX_SYS, cv, data, numgy, i), &F(COMPLEX_SYS, cv, velocity, x, i), &F(COMPLEX_SYS, cv, velocity, y, i));
    fr_damage_sys__query_view_t gv = fr_query_damage_sys__query(w);
    for (size_t i = 0; i < gv.count; i++)
        k_damage(&F(DAMAGE_SYS, gv, health, hp, i), F(DAMAGE_SYS, gv, damage, atk, i), F(DAMAGE_SYS, gv, damage, def, i));
    fr_sprite_sys__query_view_t sv = fr_query_sprite_sys__query(w);
    for (size_t i = 0; i < sv.count; i++)
        k_sprite(F(SPRITE_SYS, sv, player, type, i), F(SPRITE_SYS, sv, health, status, i), &F(SPRITE_SYS, sv, sprite, character, i));
    fr_render_sys__query_view_t rv = fr_query_render_sys__query(w);
    uint64_t sum = 0;
    for (size_t i = 0; i < rv.count; i++)
        sum += k_render(F(RENDER_SYS, rv, position, x, i), F(RENDER_SYS, rv, position, y, i), F(RENDER_SYS, rv, sprite, character, i));
    fr_singleton_screen(w)->sum += sum;
}

/* ecs_benchmark's mixed population: every entity has position, sprite, player, health and
 * damage; 3 in 4 velocity; 1 in 2 data. */
static fr_world_t *populate(size_t n) {
    fr_world_t *w = fr_world_new();
    if (!w) exit(1);
    for (size_t k = 0; k < n; k++) {
        fr_position_t p = { (float)(k % 1000u), (float)(k / 1000u % 1000u) };
        fr_velocity_t v = { 1.0f, (float)(k % 3u) };
        fr_data_t d = { (int32_t)k, 0.0, false, (uint32_t)k * 2654435761u | 1u, 0 };
        fr_health_t h = { (int32_t)(k % 120u), 100, (uint8_t)(k % 3u) };
        fr_damage_t g = { (int32_t)(k % 7u), (int32_t)(k % 5u) };
        fr_sprite_t s = { ' ' };
        fr_player_t pl = { (uint8_t)(k % 3u) };
        if (fr_spawn(w, &(fr_spawn_desc_t){ .position = &p, .velocity = k % 4u ? &v : NULL, .data = k % 2u ? NULL : &d,
                                            .health = &h, .damage = &g, .sprite = &s, .player = &pl }) == ECS_NULL) exit(1);
    }
    return w;
}

/* ns per entity per frame of `frames` frames: by hand (threads 0) or fr_step on `threads`. */
static double run(fr_world_t *w, size_t n, int frames, unsigned threads) {
    double t0 = now_ns();
    for (int f = 0; f < frames; f++) {
        if (threads) fr_step(w, 1.0f / 60);
        else hand_frame(w, 1.0f / 60);
    }
    return (now_ns() - t0) / (double)frames / (double)n;
}

int main(int argc, char **argv) {
    int quick = 0, runs = 7;
    unsigned threads = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: frame_bench [--quick] [--threads T] [--runs R]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > 99 || threads < 2) return 2;
    if (quick) runs = 1;
    printf("ecs_benchmark's 7-system frame, ns per entity per frame, median of %d runs\n", runs);
    printf("| entities | by hand | fr_step, 1 thread | ratio | fr_step, %u threads | speed-up |\n", threads);
    printf("| --- | --- | --- | --- | --- | --- |\n");
    for (size_t n = 10000; n <= (quick ? 10000u : 1000000u); n *= 10) {
        int frames = quick ? 3 : (int)(2000000 / n) + 2;
        fr_world_t *hand = populate(n), *one = populate(n), *many = populate(n);
        fr_set_threads(many, threads);
        double th[99], t1[99], tn[99];
        run(hand, n, 1, 0), run(one, n, 1, 1), run(many, n, 1, threads); /* warm */
        for (int r = 0; r < runs; r++) {
            th[r] = run(hand, n, frames, 0);
            t1[r] = run(one, n, frames, 1);
            tn[r] = run(many, n, frames, threads);
        }
        if (fr_world_hash(hand) != fr_world_hash(one) || fr_world_hash(one) != fr_world_hash(many)) {
            fprintf(stderr, "frame_bench: the worlds differ after the same frames\n");
            return 1;
        }
        double mh = median(th, runs), m1 = median(t1, runs), mn = median(tn, runs);
        printf("| %zu | %.2f | %.2f | %.3f | %.2f (%u running) | %.2f |\n", n, mh, m1, m1 / mh, mn, fr_threads(many), m1 / mn);
        fr_world_free(hand), fr_world_free(one), fr_world_free(many);
    }
    return 0;
}
