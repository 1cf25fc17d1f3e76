/* sys_bodies.h: the bodies of tests/systems/systems.json's systems, shared by the tests. Each
 * touches only what its system declares, treats each match on its own, and counts its calls
 * (atomically: bodies run on several threads). */
#ifndef SYS_BODIES_H
#define SYS_BODIES_H

#include <stdatomic.h>

#include "sys_ecs.h"

static atomic_uint calls_move, calls_glow, calls_heal;

void sys_system_tick(sys_tick_t *s) {
    SYS_TICK_FIELD(s, clock, frame, 0)++;
    SYS_TICK_FIELD(s, clock, dt, 0) = s->dt;
}

void sys_system_move(sys_move_t *s) {
    atomic_fetch_add(&calls_move, 1u);
    float dt = SYS_MOVE_FIELD(s, clock, dt, 0);
    for (size_t i = 0; i < s->count; i++) {
        SYS_MOVE_FIELD(s, position, x, i) += SYS_MOVE_FIELD(s, velocity, x, i) * dt;
        SYS_MOVE_FIELD(s, position, y, i) += SYS_MOVE_FIELD(s, velocity, y, i) * dt;
    }
}

void sys_system_age(sys_age_t *s) {
    for (size_t i = 0; i < s->count; i++)
        if (--SYS_AGE_FIELD(s, lifetime, ticks, i) <= 0) sys_defer_destroy(s->world, s->entity[i]);
}

void sys_system_ignite(sys_ignite_t *s) {
    for (size_t i = 0; i < s->count; i++)
        if (SYS_IGNITE_FIELD(s, position, x, i) > 40.0f) sys_defer_add_burning(s->world, s->entity[i]);
}

void sys_system_burn(sys_burn_t *s) {
    for (size_t i = 0; i < s->count; i++) {
        SYS_BURN_FIELD(s, health, current, i) -= 3;
        if (SYS_BURN_FIELD(s, health, current, i) < 20) sys_defer_remove_burning(s->world, s->entity[i]);
    }
}

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

void sys_system_tally(sys_tally_t *s) {
    uint32_t healthy = 0;
    int64_t total = 0;
    for (size_t i = 0; i < s->count; i++) {
        healthy += SYS_TALLY_FIELD(s, health, current, i) > 50;
        total += SYS_TALLY_FIELD(s, health, current, i);
    }
    SYS_TALLY_FIELD(s, census, healthy, 0) = healthy;
    SYS_TALLY_FIELD(s, census, total, 0) = total;
}

void sys_system_heal(sys_heal_t *s) {
    atomic_fetch_add(&calls_heal, 1u);
    int gain = SYS_HEAL_FIELD(s, census, healthy, 0) % 3u == 0 ? 2 : 1;
    for (size_t i = 0; i < s->count; i++)
        if (SYS_HEAL_FIELD(s, health, current, i) < SYS_HEAL_FIELD(s, health, max, i))
            SYS_HEAL_FIELD(s, health, current, i) += gain;
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

void sys_system_thaw(sys_thaw_t *s) {
    for (size_t i = 0; i < s->count; i++)
        if (SYS_THAW_FIELD(s, position, y, i) > 10.0f) sys_defer_remove_frozen(s->world, s->entity[i]);
}

void sys_system_glow(sys_glow_t *s) {
    atomic_fetch_add(&calls_glow, 1u);
    for (size_t i = 0; i < s->count; i++)
        SYS_GLOW_FIELD(s, light, level, i) += 0.5f * SYS_GLOW_FIELD(s, clock, dt, 0);
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
