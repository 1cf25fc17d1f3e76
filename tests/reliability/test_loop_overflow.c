/* test_loop_overflow.c: the owning groups' pending list overflows while a loop runs, in fixed
 * storage (the list is full) and when it cannot grow (allocation fails). No row may move
 * under the loop: every entity matching at its start is visited exactly once, and the next
 * loop or view brings every waiting entity into its groups. Also: adding a component an
 * owned query excludes to another entity inside a loop (found by tests/fuzz/fuzz_api.c). */
#include <stdlib.h>

#include "check.h"
#include "fg_ecs.h"
#include "rel_ecs.h"

/* Fails every allocation while `failing` is set. */
static bool failing;
static unsigned long refused;

static void *hook_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    if (failing) {
        refused++;
        return NULL;
    }
    return realloc(ptr, size);
}

enum { FG_N = 16, REL_N = 100 };

/* Fixed storage: 16 entities with pos; the loop adds, removes and re-adds vel on each one it
 * visits (allowed on the current entity), two pending ids per entity, so the 16-id list is
 * full half way through. Then the same with mass inside a loop over the move group. */
static void fixed_full(void) {
    fg_world_t *w = fg_world_new();
    CHECK(w != NULL);
    if (!w) return;
    ecs_entity_t ids[FG_N];
    for (int k = 0; k < FG_N; k++) {
        ids[k] = fg_spawn(w, &(fg_spawn_desc_t){ .pos = &(fg_pos_t){ (float)k } });
        CHECK(ids[k] != ECS_NULL);
        CHECK_EQ(ecs_entity_index(ids[k]), k);
    }
    CHECK_EQ(fg_query_move(w).count, 0);

    int visits[FG_N] = { 0 };
    FG_EACH(w, it, pos) {
        uint32_t k = ecs_entity_index(it.id);
        CHECK(k < FG_N);
        if (k >= FG_N) break;
        visits[k]++;
        float x = FG_FIELD(it, pos, x);
        CHECK(x == (float)k); /* the row still holds this entity's values */
        CHECK(fg_add_vel(w, it.id, (fg_vel_t){ 2.0f * x }));
        CHECK(fg_remove_vel(w, it.id));
        CHECK(fg_add_vel(w, it.id, (fg_vel_t){ 2.0f * x }));
    }
    for (int k = 0; k < FG_N; k++) CHECK_EQ(visits[k], 1);
    CHECK(w->pending.overflow); /* the case under test happened */

    fg_move_view_t v = fg_query_move(w);
    CHECK(!w->pending.overflow);
    CHECK_EQ(w->pending.count, 0);
    CHECK_EQ(v.count, FG_N);
    int seen[FG_N] = { 0 };
    for (size_t i = 0; i < v.count; i++) {
        uint32_t k = ecs_entity_index(v.entity[i]);
        CHECK(k < FG_N);
        if (k >= FG_N) continue;
        seen[k]++;
        CHECK(FG_MOVE_FIELD(v, pos, x, i) == (float)k);
        CHECK(FG_MOVE_FIELD(v, vel, x, i) == 2.0f * (float)k);
    }
    for (int k = 0; k < FG_N; k++) CHECK_EQ(seen[k], 1);

    /* The nested group: the outer loop walks move's packed rows, which entering move_free
     * would reorder. Frozen on the odd ones keeps them out of move_free. */
    for (int k = 1; k < FG_N; k += 2) CHECK(fg_add_frozen(w, ids[k]));
    int visits2[FG_N] = { 0 };
    FG_EACH_MOVE(w, it) {
        uint32_t k = ecs_entity_index(it.id);
        CHECK(k < FG_N);
        if (k >= FG_N) break;
        visits2[k]++;
        CHECK(FG_FIELD(it, vel, x) == 2.0f * (float)k);
        for (int r = 0; r < 2; r++) {
            CHECK(fg_add_mass(w, it.id, (fg_mass_t){ (double)k }));
            CHECK(fg_remove_mass(w, it.id));
        }
        CHECK(fg_add_mass(w, it.id, (fg_mass_t){ (double)k }));
    }
    for (int k = 0; k < FG_N; k++) CHECK_EQ(visits2[k], 1);
    CHECK(w->pending.overflow);

    fg_move_free_view_t f = fg_query_move_free(w);
    CHECK_EQ(f.count, FG_N / 2);
    int seen2[FG_N] = { 0 };
    for (size_t i = 0; i < f.count; i++) {
        uint32_t k = ecs_entity_index(f.entity[i]);
        CHECK(k < FG_N && k % 2 == 0);
        if (k >= FG_N) continue;
        seen2[k]++;
        CHECK(FG_MOVE_FREE_FIELD(f, pos, x, i) == (float)k);
        CHECK(FG_MOVE_FREE_FIELD(f, vel, x, i) == 2.0f * (float)k);
        CHECK(FG_MOVE_FREE_FIELD(f, mass, kg, i) == (double)k);
    }
    for (int k = 0; k < FG_N; k += 2) CHECK_EQ(seen2[k], 1);
    v = fg_query_move(w);
    CHECK_EQ(v.count, FG_N);
    for (size_t i = 0; i < v.count; i++) CHECK(FG_MOVE_FIELD(v, pos, x, i) == (float)ecs_entity_index(v.entity[i]));
    fg_world_free(w);
}

/* Growable storage: the pools have room, then every allocation fails during a loop that adds
 * vel to each entity it visits, so the pending list fills part way and cannot grow. */
static void alloc_fails(void) {
    rel_world_t *w = rel_world_new();
    CHECK(w != NULL);
    if (!w) return;
    ecs_entity_t ids[REL_N];
    for (int k = 0; k < REL_N; k++) {
        ecs_entity_t e = ids[k] = rel_spawn(w, &(rel_spawn_desc_t){ .pos = &(rel_pos_t){ (float)k, 0 } });
        CHECK_EQ(ecs_entity_index(e), k);
        /* Room in vel's pool and sparse pages for the loop below; the list stays empty. */
        CHECK(rel_add_vel(w, e, (rel_vel_t){ 0, 0 }));
    }
    /* Removing vel (leaving the group) needs no memory; pending stays as it was. */
    for (int k = 0; k < REL_N; k++) CHECK(rel_remove_vel(w, ids[k]));
    CHECK_EQ(rel_query_move(w).count, 0);
    CHECK_EQ(w->pending.count, 0);
    CHECK(w->pending.capacity < 2 * REL_N); /* the loop's pending ids will not fit */

    int visits[REL_N] = { 0 };
    failing = true;
    refused = 0;
    REL_EACH(w, it, pos) {
        uint32_t k = ecs_entity_index(it.id);
        CHECK(k < REL_N);
        if (k >= REL_N) break;
        visits[k]++;
        CHECK(REL_FIELD(it, pos, x) == (float)k);
        /* Two pending ids per entity: the list fills part way and cannot grow. */
        CHECK(rel_add_vel(w, it.id, (rel_vel_t){ 3.0f * (float)k, 0 }));
        CHECK(rel_remove_vel(w, it.id));
        CHECK(rel_add_vel(w, it.id, (rel_vel_t){ 3.0f * (float)k, 0 }));
    }
    failing = false;
    CHECK(refused > 0);
    for (int k = 0; k < REL_N; k++) CHECK_EQ(visits[k], 1);
    CHECK(w->pending.overflow);

    rel_move_view_t v = rel_query_move(w);
    CHECK(!w->pending.overflow);
    CHECK_EQ(v.count, REL_N);
    int seen[REL_N] = { 0 };
    for (size_t i = 0; i < v.count; i++) {
        uint32_t k = ecs_entity_index(v.entity[i]);
        CHECK(k < REL_N);
        if (k >= REL_N) continue;
        seen[k]++;
        CHECK(REL_MOVE_FIELD(v, pos, x, i) == (float)k);
        CHECK(REL_MOVE_FIELD(v, vel, x, i) == 3.0f * (float)k);
    }
    for (int k = 0; k < REL_N; k++) CHECK_EQ(seen[k], 1);

    /* After the overflow the list works again: one add waits, the next view takes it. */
    ecs_entity_t back = v.entity[0];
    CHECK(rel_remove_vel(w, back));
    CHECK(rel_add_vel(w, back, (rel_vel_t){ 0, 0 }));
    CHECK_EQ(w->pending.count, 1);
    CHECK_EQ(rel_query_move(w).count, REL_N);
    rel_world_free(w);
}

/* Adding frozen (move_free's `none`) to an entity not visited yet made it leave move_free at
 * once, swapping it with a visited row: one entity visited twice, this one skipped. It now
 * leaves when the next loop or view starts. */
static void excluded_add(void) {
    fg_world_t *w = fg_world_new();
    CHECK(w != NULL);
    if (!w) return;
    ecs_entity_t ids[4];
    for (int k = 0; k < 4; k++)
        ids[k] = fg_spawn(w, &(fg_spawn_desc_t){ .pos = &(fg_pos_t){ (float)k }, .vel = &(fg_vel_t){ 0 },
                                                 .mass = &(fg_mass_t){ 1 } });
    CHECK_EQ(fg_query_move_free(w).count, 4);
    int visits[4] = { 0 };
    FG_EACH(w, it, pos) {
        uint32_t k = ecs_entity_index(it.id);
        CHECK(k < 4);
        if (k >= 4) break;
        visits[k]++;
        if (k == 3) CHECK(fg_add_frozen(w, ids[0])); /* row 0: not visited yet */
    }
    for (int k = 0; k < 4; k++) CHECK_EQ(visits[k], 1);
    fg_move_free_view_t f = fg_query_move_free(w);
    CHECK_EQ(f.count, 3);
    for (size_t i = 0; i < f.count; i++)
        CHECK(f.entity[i] != ids[0] && FG_MOVE_FREE_FIELD(f, pos, x, i) == (float)ecs_entity_index(f.entity[i]));
    CHECK_EQ(fg_query_move(w).count, 4);
    fg_world_free(w);
}

int main(void) {
    ecs_set_allocator(&(ecs_allocator_t){ hook_realloc, NULL });
    fixed_full();
    alloc_fails();
    excluded_add();
    ecs_set_allocator(NULL);
    return check_finish("loop overflow");
}
