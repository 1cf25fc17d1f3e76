/* test_add_joins.c: an add that completes an owned group (tests/views/nested.json: move_data
 * nested in move) takes the entity into the group at once when its rows are the group's
 * next rows in every pool the group owns, and queues it for the next view otherwise. Either
 * way each view then lists exactly the matching entities with their values. A group the
 * entity lacks a pool of never queues it: spawn-then-add in order leaves the pending list
 * empty. */
#include "check.h"
#include "nested_ecs.h"

enum { N = 300 };

static ecs_entity_t ids[N];

/* Each view lists exactly the entities that have its components (ids[k] has data when
 * has_data(k)), each once, with position.x == k and velocity.x == 2k. */
static void check_views(nested_world_t *w, bool (*has_data)(uint32_t)) {
    size_t with_data = 0;
    for (uint32_t k = 0; k < N; k++) with_data += has_data(k);
    nested_move_view_t v = nested_query_move(w);
    CHECK_EQ(v.count, (size_t)N);
    static unsigned char seen[N];
    for (uint32_t k = 0; k < N; k++) seen[k] = 0;
    for (size_t i = 0; i < v.count; i++) {
        uint32_t k = (uint32_t)NESTED_MOVE_FIELD(v, position, x, i);
        CHECK(k < N && ecs_entity_index(v.entity[i]) == ecs_entity_index(ids[k]));
        CHECK(NESTED_MOVE_FIELD(v, velocity, x, i) == 2.0f * (float)k);
        if (k < N) seen[k]++;
    }
    for (uint32_t k = 0; k < N; k++) CHECK_EQ(seen[k], 1);
    nested_move_data_view_t d = nested_query_move_data(w);
    CHECK_EQ(d.count, with_data);
    for (size_t i = 0; i < d.count; i++) {
        uint32_t k = (uint32_t)NESTED_MOVE_DATA_FIELD(d, position, x, i);
        CHECK(k < N && has_data(k) && NESTED_MOVE_DATA_FIELD(d, data, value, i) == (float)k);
    }
}

static bool none(uint32_t k) { (void)k; return false; }
static bool every_third(uint32_t k) { return k % 3 == 0; }
static bool all(uint32_t k) { (void)k; return true; }

/* Spawned empty, then position and velocity added, in order: each joins move at once. */
static void test_spawn_then_add_in_order(void) {
    nested_world_t *w = nested_world_new();
    for (uint32_t k = 0; k < N; k++) {
        ids[k] = nested_spawn(w, NULL);
        CHECK(nested_add_position(w, ids[k], (nested_position_t){ (float)k, 0 }));
        CHECK(nested_add_velocity(w, ids[k], (nested_velocity_t){ 2.0f * (float)k, 0 }));
        CHECK_EQ(w->groups.g0, k + 1u); /* joined now, no view needed */
    }
    CHECK_EQ(w->pending.count, 0u);
    check_views(w, none);
    /* data for every third: not at move_data's next rows (they sit in move's rows), so queued */
    for (uint32_t k = 0; k < N; k += 3) CHECK(nested_add_data(w, ids[k], (nested_data_t){ (float)k }));
    CHECK(w->pending.count > 0u);
    check_views(w, every_third);
    nested_world_free(w);
}

/* velocity before position, and all three one entity at a time: still at once, both groups. */
static void test_other_orders(void) {
    nested_world_t *w = nested_world_new();
    for (uint32_t k = 0; k < N; k++) {
        ids[k] = nested_spawn(w, NULL);
        CHECK(nested_add_data(w, ids[k], (nested_data_t){ (float)k }));
        CHECK(nested_add_velocity(w, ids[k], (nested_velocity_t){ 2.0f * (float)k, 0 }));
        CHECK(nested_add_position(w, ids[k], (nested_position_t){ (float)k, 0 }));
        CHECK_EQ(w->groups.g0, k + 1u);
        CHECK_EQ(w->groups.g1, k + 1u);
    }
    CHECK_EQ(w->pending.count, 0u);
    check_views(w, all);
    nested_world_free(w);
}

/* Another entity's rows in between: the add cannot join at once and queues; the views agree. */
static void test_interleaved(void) {
    nested_world_t *w = nested_world_new();
    for (uint32_t k = 0; k < N; k++) {
        ids[k] = nested_spawn(w, NULL);
        CHECK(nested_add_position(w, ids[k], (nested_position_t){ (float)k, 0 }));
    }
    for (uint32_t k = N; k-- > 0;) /* velocity in the reverse order: rows differ from position's */
        CHECK(nested_add_velocity(w, ids[k], (nested_velocity_t){ 2.0f * (float)k, 0 }));
    CHECK(w->pending.count > 0u);
    check_views(w, none);
    nested_world_free(w);
}

int main(void) {
    test_spawn_then_add_in_order();
    test_other_orders();
    test_interleaved();
    return check_finish("test_add_joins");
}
