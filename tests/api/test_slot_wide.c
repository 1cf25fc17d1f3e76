/* test_slot_wide.c: slot storage with 71 slot components (a two-word mask per entity) in a
 * growable world: bits in both words, rows growing with the entity table, loops over slot
 * components only and mixed with a sparse one, destroy clearing every bit, and the zeroed
 * rows a slot keeps without its components. */
#include <stdlib.h>

#include "check.h"
#include "sw_ecs.h"

/* An allocator that has no memory left (frees still work). */
static void *failing_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    if (size == 0) free(ptr);
    return NULL;
}

/* on_remove of s69: records the value it reads (still readable, the header promises). */
static void s69_removed(sw_world_t *w, ecs_entity_t e, void *user) {
    *(int32_t *)user = sw_get_s69(w, e).v;
}

/* The rows of slots handed out without s69 that are not zero; *checked (when not NULL)
 * counts the rows looked at. */
static uint32_t s69_dirty_rows(const sw_world_t *w, uint32_t *checked) {
    uint32_t dirty = 0;
    for (uint32_t k = 0; k < w->slot_rows && k < w->entities.used; k++) {
        ecs_entity_t e = ecs_entities_at(&w->entities, k);
        if (e != ECS_NULL && sw_has_s69(w, e)) continue;
        dirty += w->components.s69.v[k] != 0;
        if (checked) ++*checked;
    }
    return dirty;
}

int main(void) {
    sw_world_t *w = sw_world_new();
    CHECK(w != NULL);
    enum { N = 3000 };
    static ecs_entity_t ids[N];
    for (int k = 0; k < N; k++) {
        ids[k] = sw_spawn(w, k % 3 ? NULL : &(sw_spawn_desc_t){ .s0 = &(sw_s0_t){ k }, .s69 = &(sw_s69_t){ -k } });
        CHECK(ids[k] != ECS_NULL);
    }
    /* entities spawned bare, past the first slot rows, have nothing */
    for (int k = 0; k < N; k++) {
        CHECK_EQ(sw_has_s0(w, ids[k]), k % 3 == 0);
        CHECK(!sw_has_s65(w, ids[k]) && !sw_has_flag(w, ids[k]));
    }
    CHECK_EQ(sw_count_s0(w), N / 3);
    int seen = 0, bad = 0;
    SW_EACH(w, it, s0, s69) {
        bad += SW_FIELD(it, s0, v) != -SW_FIELD(it, s69, v) || SW_ROW(it, s0) != ecs_entity_index(it.id);
        seen++;
    }
    CHECK_EQ(seen, N / 3);
    CHECK_EQ(bad, 0);
    /* mixed: a sparse component and a slot one in the second mask word, minus a slot tag */
    for (int k = 0; k < N; k += 2) {
        CHECK(sw_add_s65(w, ids[k], (sw_s65_t){ k }));
        if (k % 4 == 0) CHECK(sw_add_sp(w, ids[k], (sw_sp_t){ k }));
        if (k % 8 == 0) CHECK(sw_add_flag(w, ids[k]));
    }
    seen = 0;
    SW_EACH_MIXED(w, it) {
        bad += SW_FIELD(it, s65, v) != SW_FIELD(it, sp, v);
        seen++;
    }
    CHECK_EQ(seen, (N + 3) / 4 - (N + 7) / 8);
    CHECK_EQ(bad, 0);
    sw_mixed_view_t v = sw_query_mixed(w);
    CHECK_EQ(v.count, (size_t)seen);
    for (size_t i = 0; i < v.count; i++) CHECK_EQ(SW_MIXED_FIELD(v, s65, v, i), SW_MIXED_FIELD(v, sp, v, i));
    /* destroy clears both words; the slot comes back empty */
    CHECK(sw_destroy(w, ids[0]));
    CHECK_EQ(sw_count_s65(w), (size_t)(N + 1) / 2 - 1);
    ecs_entity_t again = sw_spawn(w, NULL);
    CHECK_EQ(ecs_entity_index(again), ecs_entity_index(ids[0]));
    CHECK(!sw_has_s0(w, again) && !sw_has_s65(w, again) && !sw_has_s69(w, again) && !sw_has_flag(w, again));
    /* a round trip through JSON keeps every slot component */
    char *json = sw_world_to_json(w);
    CHECK(json != NULL);
    sw_world_t *back = sw_world_new();
    ecs_error_t err;
    CHECK(sw_world_from_json(back, json, &err));
    CHECK_EQ(sw_count_s65(back), sw_count_s65(w));
    CHECK_EQ(sw_get_s69(back, ids[3]).v, -3);
    CHECK(!sw_has_s0(back, again));
    free(json);
    sw_world_free(back);
    /* A slot row without its component holds zeros (get reads it unchecked under NDEBUG) in
     * every slot handed out: erase clears the row a component leaves, and a spawn that runs
     * out of memory part way leaves nothing behind (test_slot_rows.c: rows over memory that
     * realloc does not zero). */
    ecs_set_allocator(&(ecs_allocator_t){ failing_realloc, NULL });
    ecs_entity_t failed = sw_spawn(w, &(sw_spawn_desc_t){ .early = &(sw_early_t){ 1 }, .s69 = &(sw_s69_t){ 2 } });
    ecs_set_allocator(NULL);
    CHECK(failed == ECS_NULL);
    uint32_t rows_checked = 0;
    CHECK_EQ(s69_dirty_rows(w, &rows_checked), 0);
    CHECK(rows_checked > 0);
    /* Out of memory after a slot component went in (sp, sparse, comes after every slot
     * component): the destroy that undoes the spawn fires s69's on_remove with the value
     * spawn wrote, and only then are the new slot's rows zeroed. */
    while (w->components.sp.set.count < w->components.sp.set.capacity) /* sp's next insert must grow */
        CHECK(sw_spawn(w, &(sw_spawn_desc_t){ .sp = &(sw_sp_t){ 2 } }) != ECS_NULL);
    int32_t removed_value = 0;
    sw_on_s69(w, &(sw_hooks_t){ .on_remove = s69_removed, .user = &removed_value });
    ecs_set_allocator(&(ecs_allocator_t){ failing_realloc, NULL });
    failed = sw_spawn(w, &(sw_spawn_desc_t){ .s69 = &(sw_s69_t){ 77 }, .sp = &(sw_sp_t){ 1 } });
    ecs_set_allocator(NULL);
    sw_on_s69(w, NULL);
    CHECK(failed == ECS_NULL);
    CHECK_EQ(removed_value, 77);
    CHECK_EQ(s69_dirty_rows(w, NULL), 0);
    sw_world_free(w);
    return check_finish("test_slot_wide");
}
