/* sys_bodies.c: the bodies of tests/systems/systems.json's systems that use only their
 * context, each system's header alone included (sys_ecs is generated with --system-headers
 * and --split-c, docs/systems.md "A header per system"): this file must compile without the
 * world's API, and the step runs these bodies from the split .c. */
#include <stdatomic.h>

#include "sys_system_age.h"
#include "sys_system_burn.h"
#include "sys_system_glow.h"
#include "sys_system_heal.h"
#include "sys_system_ignite.h"
#include "sys_system_move.h"
#include "sys_system_tally.h"
#include "sys_system_thaw.h"
#include "sys_system_tick.h"

#ifdef SYS_ECS_H
#error "a system's own header included sys_ecs.h: it must not hold the world"
#endif

atomic_uint calls_move, calls_glow, calls_heal;

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

void sys_system_thaw(sys_thaw_t *s) {
    for (size_t i = 0; i < s->count; i++)
        if (SYS_THAW_FIELD(s, position, y, i) > 10.0f) sys_defer_remove_frozen(s->world, s->entity[i]);
}

void sys_system_glow(sys_glow_t *s) {
    atomic_fetch_add(&calls_glow, 1u);
    for (size_t i = 0; i < s->count; i++)
        SYS_GLOW_FIELD(s, light, level, i) += 0.5f * SYS_GLOW_FIELD(s, clock, dt, 0);
}
