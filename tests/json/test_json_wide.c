/* test_json_wide.c: a schema with 130 pools, so that the world's nonempty_pools spans three
 * words: save and load print and restore components from every word, in schema order, and
 * the mask follows the pools through spawn, load, remove and destroy. */
#include <stdlib.h>
#include <string.h>

#include "bench130_ecs.h"
#include "check.h"

/* Bit k of nonempty_pools against pool k's count, for the pools the test uses. */
static void check_mask(const bench130_world_t *w) {
    const struct { unsigned bit; const ecs_sparse_t *set; } pools[] = {
        { 0, &w->components.position.set },
        { 1, &w->components.velocity.set },
        { 63, &w->components.filler59.set },
        { 64, &w->components.filler60.set },
        { 129, &w->components.filler125.set },
    };
    for (size_t k = 0; k < sizeof pools / sizeof *pools; k++)
        CHECK_EQ((w->nonempty_pools[pools[k].bit / 64] >> (pools[k].bit % 64)) & 1u, (uint64_t)(pools[k].set->count > 0));
}

int main(void) {
    bench130_world_t *w = bench130_world_new();
    CHECK(w != NULL);
    if (!w) return check_finish("test_json_wide");
    ecs_entity_t a = bench130_spawn(w, &(bench130_spawn_desc_t){
        .position = &(bench130_position_t){ 1, 2 },
        .filler60 = &(bench130_filler60_t){ 60 },
        .filler125 = &(bench130_filler125_t){ 125 },
    });
    ecs_entity_t b = bench130_spawn(w, &(bench130_spawn_desc_t){ .filler59 = &(bench130_filler59_t){ 59 } });
    CHECK(a != ECS_NULL && b != ECS_NULL);
    CHECK_EQ(w->nonempty_pools[0], (UINT64_C(1) << 0) | (UINT64_C(1) << 63));
    CHECK_EQ(w->nonempty_pools[1], UINT64_C(1) << 0);
    CHECK_EQ(w->nonempty_pools[2], UINT64_C(1) << 1);
    check_mask(w);

    /* Every word's components appear, in schema order. */
    char *text = bench130_entity_to_json(w, a);
    CHECK(text != NULL);
    if (text) {
        const char *p = strstr(text, "\"position\""), *q = strstr(text, "\"filler60\""), *r = strstr(text, "\"filler125\"");
        CHECK(p && q && r && p < q && q < r);
        CHECK(strstr(text, "\"filler59\"") == NULL);
        free(text);
    }

    /* A round trip restores the components and the mask. */
    char *doc = bench130_world_to_json(w);
    bench130_world_t *back = bench130_world_new();
    ecs_error_t err;
    CHECK(doc && back && bench130_world_from_json(back, doc, &err));
    if (back) {
        CHECK(bench130_get_filler125(back, a).value == 125 && bench130_get_filler59(back, b).value == 59);
        CHECK(!bench130_has_velocity(back, a));
        for (size_t k = 0; k < 3; k++) CHECK_EQ(back->nonempty_pools[k], w->nonempty_pools[k]);
        check_mask(back);
    }
    free(doc);
    bench130_world_free(back);

    /* Removing and destroying empty the pools' bits in every word. */
    CHECK(bench130_remove_filler125(w, a));
    CHECK_EQ(w->nonempty_pools[2], 0);
    CHECK(bench130_destroy(w, a));
    CHECK(bench130_destroy(w, b));
    for (size_t k = 0; k < 3; k++) CHECK_EQ(w->nonempty_pools[k], 0);
    check_mask(w);
    bench130_world_free(w);
    return check_finish("test_json_wide");
}
