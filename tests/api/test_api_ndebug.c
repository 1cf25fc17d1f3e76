/* test_api_ndebug.c: get on a stale id or a missing component, built with NDEBUG (meson
 * passes -DNDEBUG for this file alone): no assert, a zeroed value, nothing touched. Debug
 * builds assert instead, which this suite does not exercise. Slot rows without their
 * component read as zeros (get does not test the mask under NDEBUG): after remove, destroy,
 * reuse and load (test_slot_wide.c: after a spawn that ran out of memory). */
#ifndef NDEBUG
#error "test_api_ndebug.c must be compiled with -DNDEBUG"
#endif

#include <string.h>

#include "check.h"
#include "kit_ecs.h"

int main(void) {
    kit_world_t *w = kit_world_new();
    ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){
        .pos = &(kit_pos_t){ 1, 2 }, .scalars = &KIT_SCALARS_DEFAULT, .label = &KIT_LABEL_DEFAULT });
    ecs_entity_t other = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &(kit_pos_t){ 3, 4 } });

    /* Missing component on a live entity. */
    kit_vel_t v = kit_get_vel(w, e);
    CHECK(v.dx == 0 && v.dy == 0);
    kit_arrays_t a = kit_get_arrays(w, e);
    CHECK(a.ints[0] == 0 && a.wide[1] == 0 && !a.flags[0]);

    /* Stale id (its slot reused by a live entity with the same components) and ECS_NULL. */
    CHECK(kit_destroy(w, e));
    ecs_entity_t reuse = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &(kit_pos_t){ 5, 6 } });
    CHECK_EQ(ecs_entity_index(reuse), ecs_entity_index(e));
    kit_pos_t p = kit_get_pos(w, e);
    CHECK(p.x == 0 && p.y == 0);
    kit_scalars_t s = kit_get_scalars(w, e);
    CHECK(!s.flag && s.s64 == 0 && s.u64 == 0 && s.who == ECS_NULL);
    kit_label_t l = kit_get_label(w, e);
    CHECK_EQ(strlen(l.text), 0);
    p = kit_get_pos(w, ECS_NULL);
    CHECK(p.x == 0 && p.y == 0);
    p = kit_get_pos(w, ecs_entity_make(100000, 0));
    CHECK(p.x == 0);

    /* The live entities' values are untouched. */
    CHECK(kit_get_pos(w, reuse).x == 5);
    CHECK(kit_get_pos(w, other).y == 4);

    /* Slot storage (vel, state): get reads the slot's row without testing the mask, so a row
     * left by a remove or a destroy must read as zeros. */
    CHECK(kit_add_vel(w, other, (kit_vel_t){ 7, -7 }));
    CHECK(kit_add_state(w, other, (kit_state_t){ .mode = KIT_STATE_MODE_WARMING, .phase = KIT_STATE_PHASE_SECOND }));
    CHECK(kit_remove_vel(w, other));
    v = kit_get_vel(w, other);
    CHECK(v.dx == 0 && v.dy == 0);
    CHECK(kit_get_state(w, other).mode == KIT_STATE_MODE_WARMING);
    CHECK(kit_destroy(w, other));
    CHECK(kit_get_state(w, other).mode == 0 && kit_get_state(w, other).phase == 0); /* stale */
    ecs_entity_t again = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &(kit_pos_t){ 8, 9 } });
    CHECK_EQ(ecs_entity_index(again), ecs_entity_index(other));
    kit_state_t st = kit_get_state(w, again); /* live, without state: its old row was cleared */
    CHECK(st.mode == 0 && st.phase == 0);
    CHECK(kit_get_vel(w, again).dx == 0);
    CHECK(kit_set_vel(w, again, (kit_vel_t){ 1, 2 }) && kit_get_vel(w, again).dy == 2);

    /* A load restores the free slots below its highest id (here 0 to 4) in new pools: their
     * rows read as zeros too (meson's MALLOC_PERTURB_ fills new memory with garbage). */
    ecs_error_t err;
    CHECK(kit_world_from_json(w, "{\"schema\": \"kit\", \"version\": 7, \"entities\": "
                                 "[{\"id\": \"5v0\", \"vel\": {\"dx\": 4, \"dy\": 4}}]}", &err));
    ecs_entity_t restored = kit_spawn(w, NULL);
    CHECK_EQ(ecs_entity_index(restored), 0);
    CHECK(kit_get_vel(w, restored).dx == 0 && kit_get_vel(w, restored).dy == 0);
    CHECK(kit_get_state(w, restored).mode == 0);
    CHECK(kit_get_vel(w, ecs_entity_make(5, 0)).dx == 4);
    kit_world_free(w);
    return check_finish("test_api_ndebug");
}
