// test_cpp_slots.cpp: the kitchen schema's header from C++ (slot and sparse pools mixed, fixed
// storage): the inline insert and erase of both kinds, reached through spawn's desc, add,
// set and remove, each checked with the C tests' assertions (tests/check.h is valid C++).
#include "check.h"
#include "kit_ecs.h"

int main() {
    kit_world_t *w = kit_world_new();
    CHECK(w != nullptr);
    kit_vel_t vel = { 1, 2 };
    kit_pos_t pos = { 3.0, 4.0 };
    kit_spawn_desc_t desc = {};
    desc.vel = &vel;
    desc.pos = &pos;
    ecs_entity_t e = kit_spawn(w, &desc);
    CHECK(e != ECS_NULL);
    CHECK(kit_get_vel(w, e).dy == 2 && kit_get_pos(w, e).y == 4.0);
    // slot: add refuses a present component, set overwrites, remove then add
    CHECK(!kit_add_vel(w, e, kit_vel_t{ 5, 6 }));
    CHECK(kit_set_vel(w, e, kit_vel_t{ 5, 6 }) && kit_get_vel(w, e).dx == 5);
    CHECK(kit_remove_vel(w, e) && !kit_has_vel(w, e) && !kit_remove_vel(w, e));
    CHECK(kit_add_vel(w, e, kit_vel_t{ 7, 8 }) && kit_get_vel(w, e).dy == 8);
    // slot tag and sparse data
    CHECK(kit_add_marked(w, e) && kit_has_marked(w, e) && kit_remove_marked(w, e));
    CHECK(kit_remove_pos(w, e) && !kit_has_pos(w, e));
    CHECK(kit_add_pos(w, e, kit_pos_t{ 9.0, 10.0 }) && kit_ref_pos(w, e).x != nullptr && *kit_ref_pos(w, e).x == 9.0);
    // Views from C++: a non-owned one (slot storage only) and an owned one, through FIELD.
    CHECK(kit_add_state(w, e, KIT_STATE_DEFAULT));
    kit_steering_view_t sv = kit_query_steering(w);
    CHECK(!KIT_STEERING_OWNED && sv.count == 1 && sv.entity[0] == e);
    for (size_t i = 0; i < sv.count; i++) KIT_STEERING_FIELD(sv, vel, dx, i) += 1;
    CHECK(kit_get_vel(w, e).dx == 8);
    kit_labelled_view_t lv = kit_query_labelled(w);
    CHECK(KIT_LABELLED_OWNED && lv.count == 0);
    // A default by address in a spawn desc.
    kit_spawn_desc_t more = {};
    more.pos = &KIT_POS_DEFAULT;
    more.label = &KIT_LABEL_DEFAULT;
    ecs_entity_t f = kit_spawn(w, &more);
    CHECK(kit_get_pos(w, f).y == KIT_POS_DEFAULT.y && kit_query_labelled(w).count == 1);
    CHECK(kit_destroy(w, e) && !kit_alive(w, e));
    kit_world_free(w);
    return check_finish("test_cpp_slots");
}
