/* save_v1.c: writes a world of schema evolve_v1/evo.json (version 1) to the file argv[1],
 * and the same world with a narrow.v that does not fit version 2's i8 to argv[2]: the saves
 * test_evolve loads under version 2. */
#include <stdio.h>

#include "evo_ecs.h"

static ecs_entity_t add(evo_world_t *w, int k) {
    return evo_spawn(w, &(evo_spawn_desc_t){
        .stats = &(evo_stats_t){ .hp = (int16_t)(-300 - k), .mana = 50 + k, .armor = (uint8_t)(200 + k), .speed = 0.1f + (float)k, .ratio = 70000 + k },
        .pos = &(evo_pos_t){ 1.5f * (float)k, -2.0f },
        .legacy = k % 2 ? &(evo_legacy_t){ 4000000000u } : NULL,
        .narrow = &(evo_narrow_t){ -100 + k },
        .old_tag = k % 3 == 0,
    });
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: save_v1 OUT.json OUT_NARROWING.json\n");
        return 2;
    }
    evo_world_t *w = evo_world_new();
    ecs_error_t err;
    for (int k = 0; k < 4; k++)
        if (add(w, k) == ECS_NULL) return 1;
    evo_singleton_clock(w)->ticks = 4000000000u;
    evo_singleton_clock(w)->old_dt = 0.5f;
    if (!evo_world_save(w, argv[1], &err)) {
        fprintf(stderr, "save_v1: %s\n", err.message);
        return 1;
    }
    ecs_entity_t e = add(w, 4);
    evo_set_narrow(w, e, (evo_narrow_t){ 1000 }); /* i8 cannot hold it */
    if (!evo_world_save(w, argv[2], &err)) {
        fprintf(stderr, "save_v1: %s\n", err.message);
        return 1;
    }
    evo_world_free(w);
    return 0;
}
