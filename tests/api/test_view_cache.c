/* test_view_cache.c: a non-owned query's view reuses its list of matches while none of the
 * query's components changed, and only then.
 *
 * On the kitchen schema, `moving` (pos, vel without hidden, marked) mixes a sparse pool
 * (pos, owned by the query `visible`) with slot storage (vel, marked), and `linked` (link,
 * marked) mixes a sparse pool with a slot tag. After each kind of structural change, one at
 * a time, the next view must list exactly the matches, each with its values at its row: a
 * change the list missed (a slot removal, a row moved by another query's group, a load)
 * would leave a stale list here. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kit_ecs.h"

/* pos.x of row i, in either layout (tests/layout builds this file in "layout": "struct"). */
#ifdef KIT_STRUCT_LAYOUT
#define POS_X(i) w->components.pos.rows[i].x
#else
#define POS_X(i) w->components.pos.x[i]
#endif

#define MAX 64

static ecs_entity_t ids[MAX];
static size_t id_count;
static const char *stage; /* the change just made, for failure messages */

/* CHECK and CHECK_EQ, naming the stage on failure. */
#define EXPECT(cond) EXPECT_(CHECK(cond))
#define EXPECT_EQ(a, b) EXPECT_(CHECK_EQ(a, b))
#define EXPECT_(check)                                                     \
    do {                                                                   \
        int failures_ = check_failures;                                    \
        check;                                                             \
        if (check_failures != failures_) fprintf(stderr, "  after %s\n", stage); \
    } while (0)

static bool moving_match(kit_world_t *w, ecs_entity_t e) {
    return kit_alive(w, e) && kit_has_pos(w, e) && kit_has_vel(w, e) && !kit_has_hidden(w, e) &&
           !kit_has_marked(w, e);
}

static bool linked_match(kit_world_t *w, ecs_entity_t e) {
    return kit_alive(w, e) && kit_has_link(w, e) && kit_has_marked(w, e);
}

/* steering (vel, state without marked) and picked (marked) have slot storage only: their
 * views find the matches by the slot masks. */
static bool steering_match(kit_world_t *w, ecs_entity_t e) {
    return kit_alive(w, e) && kit_has_vel(w, e) && kit_has_state(w, e) && !kit_has_marked(w, e);
}

static bool picked_match(kit_world_t *w, ecs_entity_t e) {
    return kit_alive(w, e) && kit_has_marked(w, e);
}

/* A view's list: each entity once, every one a match, as many as the ids that match. */
static void check_list(kit_world_t *w, const ecs_entity_t *list, size_t count,
                       bool (*match)(kit_world_t *, ecs_entity_t)) {
    size_t expected = 0;
    for (size_t k = 0; k < id_count; k++) expected += match(w, ids[k]);
    EXPECT_EQ(count, expected);
    for (size_t i = 0; i < count; i++) {
        EXPECT(match(w, list[i]));
        for (size_t j = 0; j < i; j++) EXPECT(list[j] != list[i]);
    }
}

/* Each view's list, and each match's values through FIELD. */
static void check_moving(kit_world_t *w) {
    kit_moving_view_t v = kit_query_moving(w);
    check_list(w, v.entity, v.count, moving_match);
    for (size_t i = 0; i < v.count; i++) {
        ecs_entity_t e = v.entity[i];
        if (!moving_match(w, e)) continue;
        kit_pos_t p = kit_get_pos(w, e);
        kit_vel_t d = kit_get_vel(w, e);
        EXPECT(KIT_MOVING_FIELD(v, pos, x, i) == p.x && KIT_MOVING_FIELD(v, pos, y, i) == p.y);
        EXPECT(KIT_MOVING_FIELD(v, vel, dx, i) == d.dx && KIT_MOVING_FIELD(v, vel, dy, i) == d.dy);
    }
}

static void check_linked(kit_world_t *w) {
    kit_linked_view_t v = kit_query_linked(w);
    check_list(w, v.entity, v.count, linked_match);
    for (size_t i = 0; i < v.count; i++)
        if (linked_match(w, v.entity[i]))
            EXPECT(KIT_LINKED_FIELD(v, link, other, i) == kit_get_link(w, v.entity[i]).other);
}

static void check_steering(kit_world_t *w) {
    kit_steering_view_t v = kit_query_steering(w);
    check_list(w, v.entity, v.count, steering_match);
    for (size_t i = 0; i < v.count; i++) {
        ecs_entity_t e = v.entity[i];
        if (!steering_match(w, e)) continue;
        EXPECT(KIT_STEERING_FIELD(v, vel, dx, i) == kit_get_vel(w, e).dx);
        EXPECT(KIT_STEERING_FIELD(v, state, mode, i) == kit_get_state(w, e).mode);
    }
    kit_picked_view_t p = kit_query_picked(w);
    check_list(w, p.entity, p.count, picked_match);
}

static void check_all(kit_world_t *w, const char *after) {
    stage = after;
    check_moving(w);
    check_linked(w);
    check_steering(w);
}

static ecs_entity_t spawn(kit_world_t *w, int k, bool link) {
    kit_pos_t p = { .x = k, .y = -k };
    kit_vel_t d = { .dx = 10 * k, .dy = k };
    kit_link_t l = { .other = ECS_NULL };
    kit_state_t st = { .mode = (kit_state_mode_t)(k % 3) };
    ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &p, .vel = &d, .link = link ? &l : NULL,
                                                       .state = k % 4 != 1 ? &st : NULL });
    CHECK(e != ECS_NULL);
    if (id_count < MAX) ids[id_count++] = e;
    return e;
}

/* Entities spawned in order with pos and vel: every match's row is its place in the list,
 * the case whose loop runs over plain arrays; one out of order, and the rows are looked up. */
static void in_place(void) {
    kit_world_t *w = kit_world_new();
    id_count = 0;
    for (int k = 0; k < 8; k++) spawn(w, k, false);
    stage = "spawns in order";
    check_moving(w);
    CHECK(w->scratch.moving.listed && w->scratch.moving.in_place);
    kit_moving_view_t v = kit_query_moving(w);
    for (size_t i = 0; i < v.count; i++) CHECK(&KIT_MOVING_FIELD(v, pos, x, i) == &POS_X(i));
    CHECK(kit_remove_pos(w, ids[2]) && kit_add_pos(w, ids[2], (kit_pos_t){ 2, -2 }));
    stage = "pos removed and added again";
    check_moving(w);
    CHECK(!w->scratch.moving.in_place);
    for (int k = 0; k < 8; k++) CHECK(kit_has_state(w, ids[k]) || kit_add_state(w, ids[k], KIT_STATE_DEFAULT));
    stage = "every entity with vel and state";
    check_steering(w);
    CHECK(w->scratch.steering.listed && w->scratch.steering.in_place);
    CHECK(kit_add_marked(w, ids[3]));
    stage = "a slot in the middle marked";
    check_steering(w);
    CHECK(!w->scratch.steering.in_place);
    kit_world_free(w);
}

int main(void) {
    in_place();
    kit_world_t *w = kit_world_new();
    id_count = 0;
    for (int k = 0; k < 12; k++) spawn(w, k, k % 3 == 0);
    check_all(w, "spawn");
    check_all(w, "nothing (the list reused)");
    CHECK(kit_remove_vel(w, ids[1])); /* slot storage */
    check_all(w, "remove vel");
    CHECK(kit_add_vel(w, ids[1], (kit_vel_t){ 7, 8 }));
    check_all(w, "add vel");
    CHECK(kit_add_marked(w, ids[3])); /* a slot tag the query excludes */
    check_all(w, "add marked");
    CHECK(kit_remove_marked(w, ids[3]));
    check_all(w, "remove marked");
    CHECK(kit_remove_state(w, ids[2]));
    check_all(w, "remove state");
    CHECK(kit_add_state(w, ids[5], KIT_STATE_DEFAULT) || kit_has_state(w, ids[5]));
    check_all(w, "add state");
    CHECK(kit_remove_pos(w, ids[4])); /* sparse */
    check_all(w, "remove pos");
    CHECK(kit_set_pos(w, ids[4], (kit_pos_t){ 4, 4 })); /* set that adds */
    check_all(w, "set adding pos");
    /* hidden leaves `visible`'s group at the next view or loop of it, which moves pos rows:
     * moving's rows of pos are stale unless it notices. */
    CHECK(kit_add_hidden(w, ids[0]) && kit_add_hidden(w, ids[5]));
    check_all(w, "add hidden");
    CHECK(kit_query_visible(w).count > 0);
    check_all(w, "visible's group updated");
    CHECK(kit_remove_hidden(w, ids[5]));
    check_all(w, "remove hidden");
    CHECK(kit_destroy(w, ids[6]));
    check_all(w, "destroy");
    spawn(w, 99, true); /* reuses the slot, a new generation */
    check_all(w, "spawn into a freed slot");
    CHECK(kit_defer_destroy(w, ids[7]) && kit_defer_remove_vel(w, ids[8]) && kit_apply_deferred(w));
    check_all(w, "deferred destroy and remove");

    /* A load replaces every pool: the list is rebuilt from the loaded world. */
    char *saved = kit_world_to_json(w);
    CHECK(saved != NULL);
    CHECK(kit_remove_vel(w, ids[9]) && kit_destroy(w, ids[10]));
    check_all(w, "changes before the load");
    ecs_error_t err;
    CHECK(kit_world_from_json(w, saved, &err));
    check_all(w, "load");
    free(saved);
    kit_world_free(w);
    return check_finish("test_view_cache");
}
