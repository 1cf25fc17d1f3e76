/* demo.c: a headless space game on the ECS generated from schema/game.json.
 *
 * Ships fly about and shoot; bullets expire or hit asteroids; destroyed asteroids are
 * replaced. Every simulated second it prints a line of counts.
 *
 *     demo [--seconds N] [--seed S] [--save FILE]
 *
 * --save FILE writes the final world as JSON (game_world_save); examples/inspect reads it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_ecs.h"

#define ARENA 1000.0f
#define FPS 60
#define SHIPS 8
#define ASTEROIDS 300
#define BULLET_SPEED 250.0f
#define FIRE_EVERY 6 /* frames */

typedef struct stats {
    unsigned spawned, destroyed, hits, expired;
} stats_t;

static uint64_t rng_state;

static float rnd(float lo, float hi) { /* xorshift64*: reproducible per seed */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    uint64_t r = rng_state * 2685821657736338717ull;
    return lo + (hi - lo) * (float)(r >> 40) / (float)(1u << 24);
}

static float wrap(float v) {
    return v < 0 ? v + ARENA : v >= ARENA ? v - ARENA : v;
}

static void spawn_asteroid(game_world_t *w, stats_t *st) {
    ecs_entity_t a = game_spawn_asteroid(w);
    if (a == ECS_NULL) return;
    game_set_position(w, a, (game_position_t){ rnd(0, ARENA), rnd(0, ARENA) });
    game_set_velocity(w, a, (game_velocity_t){ rnd(-20, 20), rnd(-20, 20) });
    st->spawned++;
}

static void setup(game_world_t *w, stats_t *st) {
    for (int i = 0; i < SHIPS; i++) {
        ecs_entity_t s = game_spawn_ship(w);
        game_name_t name = GAME_NAME_DEFAULT;
        snprintf(name.value, sizeof name.value, "ship-%d", i + 1);
        game_set_name(w, s, name);
        game_set_position(w, s, (game_position_t){ rnd(0, ARENA), rnd(0, ARENA) });
        game_set_velocity(w, s, (game_velocity_t){ rnd(-60, 60), rnd(-60, 60) });
        st->spawned++;
    }
    for (int i = 0; i < ASTEROIDS; i++) spawn_asteroid(w, st);
}

/* Ships fire along their heading; spawning inside the loop is safe (not visited). */
static void fire(game_world_t *w, stats_t *st) {
    GAME_EACH(w, it, player, position, velocity) {
        float px = GAME_FIELD(it, position, x), py = GAME_FIELD(it, position, y);
        float vx = GAME_FIELD(it, velocity, x), vy = GAME_FIELD(it, velocity, y);
        float len = sqrtf(vx * vx + vy * vy);
        if (len < 1e-3f) continue;
        ecs_entity_t b = game_spawn_bullet(w);
        if (b == ECS_NULL) continue;
        game_set_position(w, b, (game_position_t){ px, py });
        game_set_velocity(w, b, (game_velocity_t){ vx / len * BULLET_SPEED, vy / len * BULLET_SPEED });
        game_set_target(w, b, (game_target_t){ it.id }); /* who fired it */
        st->spawned++;
    }
}

/* The declared query's view: a plain loop over its matches. GAME_MOVEMENT_FIELD is right
 * whether or not the query owns its pools (docs/iteration.md). */
static void move(game_world_t *w, float dt) {
    game_movement_view_t v = game_query_movement(w);
    for (size_t i = 0; i < v.count; i++) {
        float *x = &GAME_MOVEMENT_FIELD(v, position, x, i), *y = &GAME_MOVEMENT_FIELD(v, position, y, i);
        *x = wrap(*x + GAME_MOVEMENT_FIELD(v, velocity, x, i) * dt);
        *y = wrap(*y + GAME_MOVEMENT_FIELD(v, velocity, y, i) * dt);
    }
}

/* Destroying the current entity inside the loop is safe. */
static void expire(game_world_t *w, float dt, stats_t *st) {
    GAME_EACH_EXPIRING(w, it) {
        if ((GAME_FIELD(it, lifetime, seconds) -= dt) <= 0) {
            game_destroy(w, it.id);
            st->destroyed++;
            st->expired++;
        }
    }
}

/* Bullets against asteroids. Asteroids to destroy are collected and destroyed after the
 * loop: destroying entities other than the current one inside a loop is not safe. */
static void collide(game_world_t *w, stats_t *st) {
    static ecs_entity_t dead[ASTEROIDS * 2];
    size_t ndead = 0;
    GAME_EACH(w, b, bullet, position, radius) {
        float bx = GAME_FIELD(b, position, x), by = GAME_FIELD(b, position, y);
        float br = GAME_FIELD(b, radius, metres);
        GAME_EACH(w, a, asteroid, position, radius, health) {
            float dx = GAME_FIELD(a, position, x) - bx;
            float dy = GAME_FIELD(a, position, y) - by;
            float r = GAME_FIELD(a, radius, metres) + br;
            if (dx * dx + dy * dy > r * r) continue;
            int32_t *hp = &GAME_FIELD(a, health, current);
            if (*hp > 0 && (*hp -= 10) <= 0 && ndead < sizeof dead / sizeof dead[0]) dead[ndead++] = a.id;
            game_destroy(w, b.id); /* the outer loop's current entity: safe */
            st->destroyed++;
            st->hits++;
            break;
        }
    }
    for (size_t i = 0; i < ndead; i++) {
        if (game_destroy(w, dead[i])) {
            st->destroyed++;
            spawn_asteroid(w, st);
        }
    }
}

static int parse_count(const char *flag, const char *text, long *out) {
    char *end;
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    if (!text || errno || *end || v < 0 || v > 1000000) {
        fprintf(stderr, "demo: %s needs a whole number from 0 to 1000000, got '%s'\n", flag, text ? text : "");
        return 0;
    }
    *out = v;
    return 1;
}

int main(int argc, char **argv) {
    long seconds = 10, seed = 1;
    const char *save = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && parse_count("--seconds", argv[i + 1], &seconds)) i++;
        else if (!strcmp(argv[i], "--seed") && parse_count("--seed", argv[i + 1], &seed)) i++;
        else if (!strcmp(argv[i], "--save") && argv[i + 1] && argv[i + 1][0]) save = argv[++i];
        else {
            fprintf(stderr, "usage: demo [--seconds N] [--seed S] [--save FILE]\n");
            return 2;
        }
    }
    rng_state = 0x9E3779B97F4A7C15ull ^ (uint64_t)seed;
    game_world_t *w = game_world_new();
    if (!w) {
        fprintf(stderr, "demo: out of memory\n");
        return 1;
    }
    stats_t total = { 0 }, st = { 0 };
    setup(w, &st);
    game_clock_t *clock = game_singleton_clock(w);
    for (long frame = 1; frame <= seconds * FPS; frame++) {
        clock->frame++;
        if (frame % FIRE_EVERY == 0) fire(w, &st);
        move(w, clock->dt);
        expire(w, clock->dt, &st);
        collide(w, &st);
        if (frame % FPS == 0) {
            printf("t=%3lds entities=%5zu ships=%u asteroids=%u bullets=%4u | spawned=%4u destroyed=%4u hits=%3u expired=%3u\n",
                   frame / FPS, game_count(w), w->components.player.set.count, w->components.asteroid.set.count,
                   w->components.bullet.set.count, st.spawned, st.destroyed, st.hits, st.expired);
            total.spawned += st.spawned, total.destroyed += st.destroyed, total.hits += st.hits;
            st = (stats_t){ 0 };
        }
    }
    printf("done: %ld frames, %u spawned, %u destroyed, %u hits, %zu entities alive\n", seconds * FPS,
           total.spawned, total.destroyed, total.hits, game_count(w));
    int status = 0;
    ecs_error_t err;
    if (save && !game_world_save(w, save, &err)) {
        fprintf(stderr, "demo: %s\n", err.message);
        status = 1;
    } else if (save) {
        printf("saved the world to %s\n", save);
    }
    game_world_free(w);
    return status;
}
