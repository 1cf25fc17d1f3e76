/* test_read_row.c: get and ref of a sparse component read at the slot index when the entity's
 * row equals it: below the set's ordered prefix without the sparse entry (ecs_sparse_lookup),
 * above it through ecs_sparse_read_row (the load need not wait for the sparse entry), and at
 * the row otherwise. Each entity must read its own values in all cases, and in a world
 * where they alternate, so that the branch is mispredicted both ways. Uses pos (two f64)
 * and arrays (i32[3] and more: get copies blocks with memcpy) of the kitchen schema. */
#include <stdlib.h>

#include "check.h"
#include "kit_ecs.h"

enum { N = 1000 };

static ecs_entity_t ids[N];

static kit_pos_t pos_of(int k) {
    return (kit_pos_t){ .x = k, .y = 10.0 * k };
}

/* Whether entity k reads its own pos and arrays through get and ref. */
static bool reads_own(kit_world_t *w, int k) {
    kit_pos_t p = kit_get_pos(w, ids[k]);
    kit_pos_ref_t r = kit_ref_pos(w, ids[k]);
    kit_arrays_t a = kit_get_arrays(w, ids[k]);
    return p.x == k && p.y == 10.0 * k && r.x && *r.x == k && *r.y == 10.0 * k && a.ints[0] == k && a.ints[2] == -k;
}

/* The row of entity k in pos, as the sparse set has it. */
static uint32_t pos_row(kit_world_t *w, int k) {
    return ecs_sparse_row(&w->components.pos.set, ids[k]);
}

int main(void) {
    /* The helper itself: the slot when row and slot agree, else the row. */
    CHECK_EQ(ecs_sparse_read_row(7u, 7u), 7u);
    CHECK_EQ(ecs_sparse_read_row(3u, 7u), 3u);
    CHECK_EQ(ecs_sparse_read_row(ECS_ROW_NONE, 0u), ECS_ROW_NONE);

    kit_world_t *w = kit_world_new();
    CHECK(w != NULL);
    for (int k = 0; k < N; k++) {
        kit_arrays_t a = KIT_ARRAYS_DEFAULT;
        a.ints[0] = k;
        a.ints[2] = -k;
        CHECK((ids[k] = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &(kit_pos_t){ pos_of(k).x, pos_of(k).y }, .arrays = &a })) != ECS_NULL);
    }
    /* Spawned in order: every row is its slot, and the sets know it (lookups skip the entry). */
    int wrong = 0;
    for (int k = 0; k < N; k++) wrong += pos_row(w, k) != ecs_entity_index(ids[k]) || !reads_own(w, k);
    CHECK_EQ(wrong, 0);
    CHECK_EQ(w->components.pos.set.ordered, N);
    CHECK_EQ(w->components.arrays.set.ordered, N);

    /* A load restores the entities in slot order: the loaded world's sets are ordered too. */
    char *text = kit_world_to_json(w);
    kit_world_t *back = kit_world_new();
    ecs_error_t err;
    CHECK(text && back && kit_world_from_json(back, text, &err));
    CHECK_EQ(back->components.pos.set.ordered, N);
    wrong = 0;
    for (int k = 0; k < N; k++) wrong += !reads_own(back, k);
    CHECK_EQ(wrong, 0);
    free(text);
    kit_world_free(back);

    /* Entity N/2 leaves pos: the last member moves into its row, so the prefix ends there;
     * entities below it are found without their entries, those above through them. */
    CHECK(kit_remove_pos(w, ids[N / 2]));
    CHECK_EQ(w->components.pos.set.ordered, N / 2);
    CHECK_EQ(pos_row(w, N - 1), N / 2);
    CHECK(kit_add_pos(w, ids[N / 2], pos_of(N / 2)));
    CHECK_EQ(pos_row(w, N / 2), N - 1);
    wrong = 0;
    for (int k = 0; k < N; k++) wrong += !reads_own(w, k);
    CHECK_EQ(wrong, 0);

    /* Every third entity leaves pos and arrays and gets them back: the last member moves into
     * its row and it goes to the end, so rows and slots now differ for many, in no order. */
    for (int k = 0; k < N; k += 3) {
        kit_arrays_t a = kit_get_arrays(w, ids[k]);
        CHECK(kit_remove_pos(w, ids[k]) && kit_remove_arrays(w, ids[k]));
        CHECK(kit_add_pos(w, ids[k], pos_of(k)) && kit_add_arrays(w, ids[k], a));
    }
    int moved = 0;
    wrong = 0;
    for (int k = 0; k < N; k++) {
        moved += pos_row(w, k) != ecs_entity_index(ids[k]);
        wrong += !reads_own(w, k);
    }
    CHECK(moved > N / 4); /* the case under test: both kinds of entity, interleaved */
    CHECK(moved < N);
    CHECK_EQ(wrong, 0);

    /* A write through ref lands in the entity's own row, whichever way it was read. */
    for (int k = 0; k < N; k++) *kit_ref_pos(w, ids[k]).y += 1.0;
    wrong = 0;
    for (int k = 0; k < N; k++) wrong += kit_get_pos(w, ids[k]).y != 10.0 * k + 1.0;
    CHECK_EQ(wrong, 0);

    kit_world_free(w);
    return check_finish("test_read_row");
}
