/* test_view_grow.c: a spawn without components inside a view loop is allowed
 * (docs/iteration.md), also in a growable world with slot storage: it grows the slot masks
 * for its new slot but never the slot pools, whose columns the view holds.
 *
 * 64 entities fill the first slot rows; spawns inside the loop take slots past them. Before
 * the rows grew apart from the masks, the first such spawn reallocated every slot column and
 * the loop wrote into freed memory (AddressSanitizer: heap-use-after-free; without it, the
 * writes were lost). Found by a review of the view cache.
 *
 * Built with NDEBUG (as test_api_ndebug.c): get of a slot component on an entity whose slot
 * is past the rows returns zeros without reading past them. */
#ifndef NDEBUG
#error "test_view_grow.c must be compiled with -DNDEBUG"
#endif

#include "check.h"
#include "sw_ecs.h"

enum { N = 64 };

int main(void) {
    sw_world_t *w = sw_world_new();
    static ecs_entity_t ids[N];
    for (int k = 0; k < N; k++) {
        ids[k] = sw_spawn(w, &(sw_spawn_desc_t){ .s0 = &(sw_s0_t){ 1 }, .s69 = &(sw_s69_t){ 2 } });
        CHECK(ids[k] != ECS_NULL);
    }
    const void *column = w->components.s0.v;
    sw_far_view_t v = sw_query_far(w);
    CHECK_EQ(v.count, N);
    ecs_entity_t bare = ECS_NULL;
    for (size_t i = 0; i < v.count; i++) {
        if (i == 0) CHECK(sw_defer_spawn(w, NULL) != ECS_NULL);
        if (i == 1) CHECK((bare = sw_spawn(w, NULL)) != ECS_NULL);
        SW_FAR_FIELD(v, s0, v, i) += 1;
    }
    CHECK(w->components.s0.v == column); /* the slot pools did not move */
    for (int k = 0; k < N; k++) CHECK_EQ(sw_get_s0(w, ids[k]).v, 2);
    CHECK(ecs_entity_index(bare) >= w->slot_rows);
    CHECK_EQ(sw_get_s0(w, bare).v, 0);
    CHECK(sw_apply_deferred(w));
    /* the rows grow with the first slot component past them, zeroed */
    ecs_entity_t late = sw_spawn(w, &(sw_spawn_desc_t){ .s69 = &(sw_s69_t){ 3 } });
    CHECK(late != ECS_NULL && sw_get_s69(w, late).v == 3 && sw_get_s0(w, late).v == 0);
    CHECK(w->slot_rows > ecs_entity_index(late));
    sw_world_free(w);
    return check_finish("test_view_grow");
}
