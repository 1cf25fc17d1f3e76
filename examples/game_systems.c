/* game_systems.c: the demo's per-frame logic, one function per system of schema/game.json.
 *
 * game_step(w, dt) calls these in the schedule the generator computed from each system's
 * declared access (the stages are in game_ecs.h, above game_step). A body sees its matches
 * through GAME_<S>_FIELD, changes only what its system "writes", and records structural
 * changes with the game_defer_ calls, applied at the stage's sync point. A body may be called
 * several times per step on disjoint ranges of its matches (game_set_threads), so it treats
 * each match on its own. See docs/systems.md.
 */
#include <math.h>

#include "game_systems.h"

#define BULLET_SPEED 250.0f

static uint64_t rng_state;

void demo_seed(uint64_t seed) { rng_state = 0x9E3779B97F4A7C15ull ^ seed; }

float demo_rnd(float lo, float hi) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    uint64_t r = rng_state * 2685821657736338717ull;
    return lo + (hi - lo) * (float)(r >> 40) / (float)(1u << 24);
}

game_spawn_desc_t demo_asteroid(game_position_t *p, game_velocity_t *v, game_radius_t *r, game_health_t *h) {
    *p = (game_position_t){ demo_rnd(0, DEMO_ARENA), demo_rnd(0, DEMO_ARENA) };
    *v = (game_velocity_t){ demo_rnd(-20, 20), demo_rnd(-20, 20) };
    *r = (game_radius_t){ 5.0f };
    *h = (game_health_t){ 30, 30 };
    return (game_spawn_desc_t){ .position = p, .velocity = v, .radius = r, .health = h, .asteroid = true };
}

static float wrap(float v) {
    return v < 0 ? v + DEMO_ARENA : v >= DEMO_ARENA ? v - DEMO_ARENA : v;
}

/* Every few frames each ship fires a bullet along its heading. */
void game_system_fire(game_fire_t *restrict s) {
    if (GAME_FIRE_FIELD(s, clock, frame, 0) % DEMO_FIRE_EVERY != 0) return;
    for (size_t i = 0; i < s->count; i++) {
        float vx = GAME_FIRE_FIELD(s, velocity, x, i), vy = GAME_FIRE_FIELD(s, velocity, y, i);
        float len = sqrtf(vx * vx + vy * vy);
        if (len < 1e-3f) continue;
        game_position_t p = { GAME_FIRE_FIELD(s, position, x, i), GAME_FIRE_FIELD(s, position, y, i) };
        game_velocity_t v = { vx / len * BULLET_SPEED, vy / len * BULLET_SPEED };
        game_lifetime_t life = GAME_LIFETIME_DEFAULT;
        game_radius_t r = { 0.2f };
        game_target_t shooter = { s->entity[i] };
        ecs_entity_t b = game_defer_spawn(s->world, &(game_spawn_desc_t){
            .position = &p, .velocity = &v, .lifetime = &life, .radius = &r, .target = &shooter, .bullet = true });
        if (b != ECS_NULL) GAME_FIRE_FIELD(s, stats, spawned, 0)++;
    }
}

void game_system_move(game_move_t *restrict s) {
    for (size_t i = 0; i < s->count; i++) {
        GAME_MOVE_FIELD(s, position, x, i) = wrap(GAME_MOVE_FIELD(s, position, x, i) + GAME_MOVE_FIELD(s, velocity, x, i) * s->dt);
        GAME_MOVE_FIELD(s, position, y, i) = wrap(GAME_MOVE_FIELD(s, position, y, i) + GAME_MOVE_FIELD(s, velocity, y, i) * s->dt);
    }
}

void game_system_expire(game_expire_t *restrict s) {
    for (size_t i = 0; i < s->count; i++) {
        if ((GAME_EXPIRE_FIELD(s, lifetime, seconds, i) -= s->dt) > 0) continue;
        game_defer_destroy(s->world, s->entity[i]);
        GAME_EXPIRE_FIELD(s, stats, destroyed, 0)++;
        GAME_EXPIRE_FIELD(s, stats, expired, 0)++;
    }
}

/* Each bullet against every asteroid. collide spawns, so it runs alone in its stage, whole, on
 * the calling thread: it may read the rocks query's view of the world (docs/systems.md). */
void game_system_collide(game_collide_t *restrict s) {
    game_rocks_view_t rocks = game_query_rocks(s->world);
    for (size_t i = 0; i < s->count; i++) {
        float bx = GAME_COLLIDE_FIELD(s, position, x, i), by = GAME_COLLIDE_FIELD(s, position, y, i);
        float br = GAME_COLLIDE_FIELD(s, radius, metres, i);
        for (size_t k = 0; k < rocks.count; k++) {
            float dx = GAME_ROCKS_FIELD(rocks, position, x, k) - bx;
            float dy = GAME_ROCKS_FIELD(rocks, position, y, k) - by;
            float r = GAME_ROCKS_FIELD(rocks, radius, metres, k) + br;
            if (dx * dx + dy * dy > r * r) continue;
            int32_t *hp = &GAME_ROCKS_FIELD(rocks, health, current, k);
            if (*hp > 0 && (*hp -= 10) <= 0) { /* destroyed: a new one takes its place */
                game_defer_destroy(s->world, rocks.entity[k]);
                game_position_t p;
                game_velocity_t v;
                game_radius_t rr;
                game_health_t h;
                game_spawn_desc_t d = demo_asteroid(&p, &v, &rr, &h);
                if (game_defer_spawn(s->world, &d) != ECS_NULL) GAME_COLLIDE_FIELD(s, stats, spawned, 0)++;
                GAME_COLLIDE_FIELD(s, stats, destroyed, 0)++;
            }
            game_defer_destroy(s->world, s->entity[i]);
            GAME_COLLIDE_FIELD(s, stats, destroyed, 0)++;
            GAME_COLLIDE_FIELD(s, stats, hits, 0)++;
            break;
        }
    }
}
