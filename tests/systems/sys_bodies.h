/* sys_bodies.h: the bodies of tests/systems/systems.json's systems that call the world's API
 * (fire spawns, chase reads its target's position), shared by the tests; sys_bodies.c has the
 * others. Each touches only what its system declares, treats each match on its own, and
 * counts its calls (atomically: bodies run on several threads). */
#ifndef SYS_BODIES_H
#define SYS_BODIES_H

#include <stdatomic.h>

#include "sys_ecs.h"

extern atomic_uint calls_move, calls_glow, calls_heal; /* sys_bodies.c */

void sys_system_fire(sys_fire_t *s) {
    for (size_t i = 0; i < s->count; i++) {
        if (--SYS_FIRE_FIELD(s, gun, cooldown, i) > 0) continue;
        SYS_FIRE_FIELD(s, gun, cooldown, i) = SYS_FIRE_FIELD(s, gun, rate, i);
        sys_position_t p = { SYS_FIRE_FIELD(s, position, x, i), SYS_FIRE_FIELD(s, position, y, i) };
        sys_velocity_t v = { 2.0f, (float)(SYS_FIRE_FIELD(s, clock, frame, 0) % 5u) - 2.0f };
        sys_lifetime_t l = { 30 };
        sys_defer_spawn(s->world, &(sys_spawn_desc_t){ .position = &p, .velocity = &v, .lifetime = &l });
    }
}

void sys_system_chase(sys_chase_t *s) {
    for (size_t i = 0; i < s->count; i++) {
        ecs_entity_t t = SYS_CHASE_FIELD(s, target, entity, i);
        if (!sys_has_position(s->world, t) || sys_has_velocity(s->world, s->entity[i])) continue;
        sys_position_t at = sys_get_position(s->world, t);
        sys_defer_add_velocity(s->world, s->entity[i], (sys_velocity_t){
            (at.x - SYS_CHASE_FIELD(s, position, x, i)) * 0.01f, (at.y - SYS_CHASE_FIELD(s, position, y, i)) * 0.01f });
    }
}

/* A population with every kind of match, the same for every seed of the same value. */
static inline void sys_populate(sys_world_t *w, uint32_t n, uint64_t seed) {
    ecs_entity_t *ids = malloc(n * sizeof *ids);
    for (uint32_t k = 0; k < n; k++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        sys_position_t p = { (float)(seed % 64u), (float)(seed / 64u % 16u) };
        sys_velocity_t v = { (float)(seed / 1024u % 7u) - 3.0f, (float)(seed / 8192u % 5u) - 2.0f };
        sys_health_t h = { (int32_t)(seed / 65536u % 100u), 100 };
        sys_lifetime_t l = { (int32_t)(50u + seed / 3u % 900u) };
        sys_gun_t g = { (int32_t)(seed % 7u), 5 + (int32_t)(seed % 4u) };
        sys_target_t t = { k ? ids[seed / 5u % k] : ECS_NULL };
        sys_light_t li = { 0.0f };
        ids[k] = sys_spawn(w, &(sys_spawn_desc_t){
            .position = &p,
            .velocity = k % 4u ? &v : NULL,
            .health = k % 3u ? &h : NULL,
            .lifetime = k % 5u == 1u ? &l : NULL,
            .gun = k % 50u == 7u ? &g : NULL,
            .target = k % 10u == 3u ? &t : NULL,
            .light = k % 3u == 2u ? &li : NULL,
            .frozen = k % 7u == 0u,
            .burning = k % 11u == 0u,
        });
    }
    free(ids);
}

#endif
