/* test_relations_fixed.c: relations in fixed storage (tests/relations/relf.json,
 * max_entities 1500): world_new makes the index for every slot, nothing grows after it, and
 * the depth-first loop walks the links (the cache would allocate): its order must be the
 * cached loop's contract, each entity once, after its target, roots first. */
#include <stdlib.h>

#include "check.h"
#include "relf_ecs.h"

static size_t tree(relf_world_t *w, ecs_entity_t root, int width, int depth) {
    if (depth == 0) return 0;
    size_t n = 0;
    for (int i = 0; i < width; i++) {
        ecs_entity_t c = relf_spawn(w, &(relf_spawn_desc_t){ .child_of = &(relf_child_of_t){ root } });
        CHECK(c != ECS_NULL);
        n += 1 + tree(w, c, width, depth - 1);
    }
    return n;
}

int main(void) {
    relf_world_t *w = relf_world_new();
    CHECK(w != NULL && w->relations.child_of.capacity == 1500u && w->relations.tied_to.capacity == 1500u);
    ecs_entity_t a = relf_spawn(w, NULL), b = relf_spawn(w, NULL);
    size_t members = tree(w, a, 10, 2) + tree(w, b, 5, 3); /* 110 + 155 */
    CHECK_EQ(members, 265);
    /* re-parent a subtree across trees: b's first child under one of a's leaves */
    ecs_entity_t leaf = ECS_NULL, moved = ECS_NULL;
    RELF_EACH_CHILD_OF_OF(w, it, a) { leaf = it.id; }
    RELF_EACH_CHILD_OF_OF(w, it, leaf) { leaf = it.id; }
    RELF_EACH_CHILD_OF_OF(w, it, b) { moved = it.id; }
    CHECK(relf_set_child_of(w, moved, (relf_child_of_t){ leaf }));
    CHECK(!relf_set_child_of(w, a, (relf_child_of_t){ moved })); /* a cycle */
    CHECK(relf_add_tied_to(w, leaf, (relf_tied_to_t){ b }));
    uint8_t *seen = calloc(w->entities.used, 1);
    size_t visited = 0, roots = 0, order_errors = 0;
    size_t slot_errors = 0;
    RELF_EACH_CHILD_OF_DEPTH_FIRST(w, it) { /* the walk along the links (no cached order) */
        visited++;
        if (it.slot != ecs_entity_index(it.id) ||
            it.target_slot != (it.target == ECS_NULL ? UINT32_MAX : ecs_entity_index(it.target)))
            slot_errors++;
        if (it.target == ECS_NULL) roots++;
        else if (!seen[ecs_entity_index(it.target)] || relf_get_child_of(w, it.id).target != it.target) order_errors++;
        seen[ecs_entity_index(it.id)]++;
    }
    CHECK(w->relations.child_of.order == NULL); /* fixed storage: no cache */
    CHECK_EQ(visited, members + 2);
    CHECK_EQ(roots, 2);
    CHECK_EQ(order_errors, 0);
    CHECK_EQ(slot_errors, 0);
    for (uint32_t i = 0; i < w->entities.used; i++) CHECK(seen[i] <= 1);
    free(seen);
    /* break ends the walk; continue goes on to the next entity */
    size_t before_break = 0, continued = 0;
    RELF_EACH_CHILD_OF_DEPTH_FIRST(w, it) {
        if (++before_break == 100) break;
    }
    CHECK_EQ(before_break, 100);
    RELF_EACH_CHILD_OF_DEPTH_FIRST(w, it) {
        if (it.target == ECS_NULL) continue;
        continued++;
    }
    CHECK_EQ(continued, members);
    /* fill the world: the index never grows, spawns past the limit fail cleanly */
    size_t n = relf_count(w);
    while (relf_spawn(w, &(relf_spawn_desc_t){ .child_of = &(relf_child_of_t){ b } }) != ECS_NULL) n++;
    CHECK_EQ(n, 1500);
    CHECK_EQ(w->relations.child_of.capacity, 1500u);
    CHECK(relf_destroy(w, b)); /* b's tree, and what b held tied */
    CHECK(!relf_has_tied_to(w, leaf));
    CHECK_EQ(relf_count(w), 1 + 110 + 1 + 5 + 25); /* a's tree, with moved's subtree under a leaf */
    CHECK(relf_destroy(w, a));
    CHECK_EQ(relf_count(w), 0);
    CHECK(relf__relations_verify(w));
    relf_world_free(w);
    return check_finish("test_relations_fixed");
}
