/* test_each_slot_runs.c: EACH over slot components only (vel, state of the kitchen schema)
 * walks runs of slots whose masks hold every term. When every slot handed out is live and
 * has every term, slots 0..used-1 are taken as one run without reading the masks; each case
 * below is one where that shortcut must not be taken (a slot lacking one term, a free slot,
 * a slot without components) or where the loop changes the world under it. The loop must
 * visit exactly the entities that match, once each, at their own slot. */
#include <string.h>

#include "check.h"
#include "kit_ecs.h"

enum { N = 40 };

static ecs_entity_t ids[N];

static ecs_entity_t spawn_moving(kit_world_t *w, int32_t k) {
    return kit_spawn(w, &(kit_spawn_desc_t){ .vel = &(kit_vel_t){ k, -k }, .state = &(kit_state_t){ 0 } });
}

static kit_world_t *world_of_movers(void) {
    kit_world_t *w = kit_world_new();
    for (int k = 0; k < N; k++) CHECK((ids[k] = spawn_moving(w, k)) != ECS_NULL);
    return w;
}

/* Runs EACH(vel, state) and checks each visit against has/get: the number of visits, or
 * -1 when one was wrong (a non-match, a repeat, a row that is not the entity's slot). */
static int visits(kit_world_t *w) {
    static unsigned char seen[N + 8];
    memset(seen, 0, sizeof seen);
    int n = 0;
    bool wrong = false;
    KIT_EACH(w, it, vel, state) {
        uint32_t slot = ecs_entity_index(it.id);
        wrong |= !kit_alive(w, it.id) || !kit_has_vel(w, it.id) || !kit_has_state(w, it.id);
        wrong |= slot >= N + 8 || seen[slot]++ || it.vel != slot || it.state != slot;
        if (!wrong) wrong = KIT_FIELD(it, vel, dx) != kit_get_vel(w, it.id).dx;
        n++;
    }
    return wrong ? -1 : n;
}

static void test_all_match(void) {
    kit_world_t *w = world_of_movers();
    CHECK_EQ(visits(w), N);
    kit_world_free(w);
}

/* One entity lacks one term (each term in turn): the others are visited, it is not. */
static void test_one_lacks_a_term(void) {
    kit_world_t *w = world_of_movers();
    CHECK(kit_remove_state(w, ids[7]));
    CHECK_EQ(visits(w), N - 1);
    kit_world_free(w);
    w = world_of_movers();
    CHECK(kit_remove_vel(w, ids[N - 1]));
    CHECK_EQ(visits(w), N - 1);
    kit_world_free(w);
}

/* A destroyed entity leaves a free slot (fewer alive than slots used), with every live
 * entity still matching: the free slot is not visited. */
static void test_free_slot(void) {
    kit_world_t *w = world_of_movers();
    CHECK(kit_destroy(w, ids[N / 2]));
    CHECK_EQ(visits(w), N - 1);
    CHECK((ids[N / 2] = spawn_moving(w, 99)) != ECS_NULL); /* the slot again: all match */
    CHECK_EQ(visits(w), N);
    kit_world_free(w);
}

/* A live entity without components: alive equals slots used, but not every one matches. */
static void test_entity_without_terms(void) {
    kit_world_t *w = world_of_movers();
    CHECK(kit_spawn(w, NULL) != ECS_NULL);
    CHECK(kit_spawn(w, &(kit_spawn_desc_t){ .marked = true }) != ECS_NULL);
    CHECK_EQ(visits(w), N);
    kit_world_free(w);
}

/* Destroying the current entity, and spawning matching entities, inside a loop that took
 * the whole world as one run: everyone there at the start is visited once, no newcomer. */
static void test_changes_inside_the_loop(void) {
    kit_world_t *w = world_of_movers();
    int n = 0, spawned = 0;
    static unsigned char seen[2 * N];
    memset(seen, 0, sizeof seen);
    KIT_EACH(w, it, vel, state) {
        uint32_t slot = ecs_entity_index(it.id);
        CHECK(slot < N && !seen[slot]++);
        n++;
        if (slot % 3 == 0) CHECK(kit_destroy(w, it.id));
        if (slot % 5 == 0 && spawn_moving(w, 1000) != ECS_NULL) spawned++;
    }
    CHECK_EQ(n, N);
    CHECK(spawned > 0);
    CHECK_EQ(kit_count(w), (size_t)(N - (N + 2) / 3 + spawned));
    kit_world_free(w);
}

int main(void) {
    test_all_match();
    test_one_lacks_a_term();
    test_free_slot();
    test_entity_without_terms();
    test_changes_inside_the_loop();
    return check_finish("test_each_slot_runs");
}
