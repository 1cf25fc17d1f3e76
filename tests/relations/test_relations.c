/* test_relations.c: relations (docs/relations.md) on tests/relations/rel.json: child_of
 * (sparse, cascade), owned_by (sparse, clear, once called owner) and docked_at (slot,
 * cascade). One function per behaviour; every one ends with the index checked against the
 * components' targets (rel__relations_verify). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rel_ecs.h"

static ecs_entity_t child(rel_world_t *w, ecs_entity_t parent) {
    return rel_spawn(w, &(rel_spawn_desc_t){ .child_of = &(rel_child_of_t){ parent } });
}

static size_t count_of_by_loop(rel_world_t *w, ecs_entity_t t) {
    size_t n = 0;
    REL_EACH_CHILD_OF_OF(w, it, t) {
        CHECK_EQ(rel_get_child_of(w, it.id).target, t);
        n++;
    }
    return n;
}

static void test_add_get_count(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t root = rel_spawn(w, NULL), a = rel_spawn(w, NULL), b = rel_spawn(w, NULL);
    CHECK(rel_add_child_of(w, a, (rel_child_of_t){ root }));
    CHECK(!rel_add_child_of(w, a, (rel_child_of_t){ root })); /* present: add refuses */
    CHECK(rel_set_child_of(w, b, (rel_child_of_t){ root }));
    CHECK_EQ(rel_get_child_of(w, a).target, root);
    CHECK_EQ(rel_count_child_of_of(w, root), 2);
    CHECK_EQ(count_of_by_loop(w, root), 2);
    CHECK_EQ(rel_count_child_of_of(w, a), 0);
    CHECK_EQ(rel_count_child_of(w), 2);
    rel_child_of_ref_t r = rel_ref_child_of(w, a);
    CHECK(r.target && *r.target == root);
    CHECK(rel_remove_child_of(w, a));
    CHECK_EQ(rel_count_child_of_of(w, root), 1);
    CHECK_EQ(count_of_by_loop(w, root), 1);
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

static void test_refused_targets(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t a = rel_spawn(w, NULL), b = child(w, a), c = child(w, b), dead = rel_spawn(w, NULL);
    rel_destroy(w, dead);
    ecs_entity_t reused = rel_spawn(w, NULL); /* dead's slot, a newer generation */
    CHECK_EQ(ecs_entity_index(reused), ecs_entity_index(dead));
    CHECK(!rel_add_child_of(w, a, (rel_child_of_t){ dead }));      /* stale */
    CHECK(!rel_add_child_of(w, a, (rel_child_of_t){ ECS_NULL }));  /* null */
    CHECK(!rel_add_child_of(w, a, (rel_child_of_t){ a }));         /* itself */
    CHECK(!rel_add_child_of(w, a, (rel_child_of_t){ c }));         /* its own grandchild */
    CHECK(!rel_has_child_of(w, a));
    CHECK(!rel_set_child_of(w, b, (rel_child_of_t){ c }));         /* re-parent under its child */
    CHECK(!rel_set_child_of(w, b, (rel_child_of_t){ dead }));
    CHECK_EQ(rel_get_child_of(w, b).target, a);                    /* unchanged */
    CHECK(!rel_add_owned_by(w, reused, (rel_owned_by_t){ dead }));
    CHECK_EQ(rel_count_child_of_of(w, dead), 0);
    /* a spawn with a dead target spawns nothing */
    size_t n = rel_count(w);
    CHECK_EQ(child(w, dead), ECS_NULL);
    CHECK_EQ(rel_count(w), n);
    /* acyclic per relation: another relation may point back */
    CHECK(rel_add_owned_by(w, a, (rel_owned_by_t){ c }));
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

static void test_reparent(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t p = rel_spawn(w, NULL), q = rel_spawn(w, NULL), k[5];
    for (int i = 0; i < 5; i++) k[i] = child(w, p);
    CHECK(rel_set_child_of(w, k[2], (rel_child_of_t){ q }));
    CHECK(rel_set_child_of(w, k[2], (rel_child_of_t){ q })); /* the same target again */
    CHECK_EQ(rel_count_child_of_of(w, p), 4);
    CHECK_EQ(rel_count_child_of_of(w, q), 1);
    CHECK_EQ(count_of_by_loop(w, p), 4);
    CHECK_EQ(count_of_by_loop(w, q), 1);
    CHECK(rel_set_child_of(w, p, (rel_child_of_t){ k[2] })); /* p under q's child: no cycle */
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

/* Destroying a member of an owning group (placed: local and child_of) other than its last: the
 * group's last member fills its row, and the destroyed entity still leaves its own target's
 * sources (it once left the last member's target's instead: counts 1 and 2 here, not 0 and 3). */
static void test_destroy_in_group(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t p = rel_spawn(w, NULL), q = rel_spawn(w, NULL), k[4];
    k[0] = rel_spawn(w, &(rel_spawn_desc_t){ .local = &(rel_local_t){ 1, 0 }, .child_of = &(rel_child_of_t){ p } });
    for (int i = 1; i < 4; i++)
        k[i] = rel_spawn(w, &(rel_spawn_desc_t){ .local = &(rel_local_t){ 1, 0 }, .child_of = &(rel_child_of_t){ q } });
    CHECK_EQ(rel_query_placed(w).count, 4); /* all four in the group (the view brings them in) */
    rel_destroy(w, k[0]);
    CHECK_EQ(rel_count_child_of_of(w, p), 0);
    CHECK_EQ(rel_count_child_of_of(w, q), 3);
    CHECK_EQ(count_of_by_loop(w, q), 3);
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

/* A tree of the given width and depth under root; returns how many entities it added. */
static size_t tree(rel_world_t *w, ecs_entity_t root, int width, int depth) {
    if (depth == 0) return 0;
    size_t n = 0;
    for (int i = 0; i < width; i++) n += 1 + tree(w, child(w, root), width, depth - 1);
    return n;
}

static void test_cascade(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t keep = rel_spawn(w, NULL), root = rel_spawn(w, NULL);
    CHECK_EQ(tree(w, root, 10, 3), 1110);
    ecs_entity_t other = child(w, keep);
    CHECK_EQ(rel_count(w), 1113);
    CHECK(rel_destroy(w, root));
    CHECK_EQ(rel_count(w), 2);
    CHECK(rel_alive(w, keep) && rel_alive(w, other));
    CHECK_EQ(rel_count_child_of(w), 1);
    CHECK(rel__relations_verify(w));
    /* a chain far deeper than the walk's stack */
    ecs_entity_t top = rel_spawn(w, NULL), at = top;
    for (int i = 0; i < 20000; i++) at = child(w, at);
    CHECK(rel_destroy(w, top));
    CHECK_EQ(rel_count(w), 2);
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

static void test_clear(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t owner = rel_spawn(w, NULL), a = rel_spawn(w, NULL), b = rel_spawn(w, NULL);
    CHECK(rel_add_owned_by(w, a, (rel_owned_by_t){ owner }));
    CHECK(rel_add_owned_by(w, b, (rel_owned_by_t){ owner }));
    CHECK(rel_add_child_of(w, b, (rel_child_of_t){ a }));
    CHECK(rel_destroy(w, owner));
    CHECK(rel_alive(w, a) && rel_alive(w, b));
    CHECK(!rel_has_owned_by(w, a) && !rel_has_owned_by(w, b));
    CHECK(rel_has_child_of(w, b));
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

static void test_slot_relation(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t station = rel_spawn(w, NULL), s1 = rel_spawn(w, NULL), s2 = rel_spawn(w, NULL), s3 = rel_spawn(w, NULL);
    CHECK(rel_add_docked_at(w, s1, (rel_docked_at_t){ station }));
    CHECK(rel_add_docked_at(w, s2, (rel_docked_at_t){ s1 }));
    CHECK(!rel_set_docked_at(w, station, (rel_docked_at_t){ s2 }));
    CHECK(rel_set_docked_at(w, s3, (rel_docked_at_t){ station }));
    CHECK_EQ(rel_count_docked_at_of(w, station), 2);
    CHECK(rel_remove_docked_at(w, s3));
    CHECK(rel_destroy(w, station));
    CHECK(!rel_alive(w, s1) && !rel_alive(w, s2) && rel_alive(w, s3));
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

static int removed_child_of, removed_owned_by, removed_local;
static ecs_entity_t hook_parent;
static void on_remove_child_of(rel_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    /* sources go first: the target is still alive when they are */
    if (rel_has_child_of(w, e) && rel_alive(w, rel_get_child_of(w, e).target)) removed_child_of++;
}
static void on_remove_owned_by(rel_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    if (rel_has_owned_by(w, e) && rel_get_owned_by(w, e).target == hook_parent) removed_owned_by++;
}
static void on_remove_local(rel_world_t *w, ecs_entity_t e, void *user) {
    (void)w, (void)e, (void)user;
    removed_local++;
}

static void test_hooks(void) {
    rel_world_t *w = rel_world_new();
    rel_on_child_of(w, &(rel_hooks_t){ .on_remove = on_remove_child_of });
    rel_on_owned_by(w, &(rel_hooks_t){ .on_remove = on_remove_owned_by });
    rel_on_local(w, &(rel_hooks_t){ .on_remove = on_remove_local });
    ecs_entity_t root = rel_spawn(w, &(rel_spawn_desc_t){ .local = &(rel_local_t){ 0, 0 } });
    hook_parent = root;
    tree(w, root, 3, 2); /* 12 entities */
    ecs_entity_t owned = rel_spawn(w, &(rel_spawn_desc_t){ .owned_by = &(rel_owned_by_t){ root } });
    CHECK(rel_destroy(w, root));
    CHECK_EQ(removed_child_of, 12);
    CHECK_EQ(removed_owned_by, 1);
    CHECK_EQ(removed_local, 1);
    CHECK(rel_alive(w, owned) && !rel_has_owned_by(w, owned));
    /* with hooks set, add and set go through the change function: the same refusals */
    ecs_entity_t a = rel_spawn(w, NULL), b = child(w, a);
    CHECK(!rel_set_child_of(w, a, (rel_child_of_t){ b }));
    CHECK(!rel_add_child_of(w, a, (rel_child_of_t){ a }));
    ecs_entity_t c = rel_spawn(w, NULL);
    CHECK(rel_set_child_of(w, b, (rel_child_of_t){ c }));
    CHECK_EQ(rel_count_child_of_of(w, a), 0);
    CHECK_EQ(rel_count_child_of_of(w, c), 1);
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

static void test_deferred(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t root = rel_spawn(w, NULL), a = child(w, root), b = child(w, a), other = rel_spawn(w, NULL);
    CHECK(rel_defer_set_child_of(w, b, (rel_child_of_t){ other }));
    CHECK(rel_defer_set_child_of(w, other, (rel_child_of_t){ b })); /* a cycle once the first applies */
    CHECK(rel_defer_destroy(w, root));
    CHECK_EQ(rel_count_child_of_of(w, other), 0); /* nothing yet */
    rel_apply_deferred(w);
    CHECK(!rel_alive(w, root) && !rel_alive(w, a));
    CHECK(rel_alive(w, b) && rel_get_child_of(w, b).target == other);
    CHECK(!rel_has_child_of(w, other));
    CHECK(rel_defer_destroy(w, other));
    rel_apply_deferred(w);
    CHECK(!rel_alive(w, b));
    CHECK_EQ(rel_count(w), 0);
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

static void test_each_of_destroy(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t root = rel_spawn(w, NULL);
    tree(w, root, 6, 2);
    size_t visited = 0;
    REL_EACH_CHILD_OF_OF(w, it, root) {
        visited++;
        if (visited % 2) rel_destroy(w, it.id); /* it.id and its sources */
        else CHECK(rel_remove_child_of(w, it.id));
    }
    CHECK_EQ(visited, 6);
    CHECK_EQ(rel_count_child_of_of(w, root), 0);
    CHECK_EQ(rel_count(w), 1 + 3 + 3 * 6);
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

static void test_depth_first(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t lone = rel_spawn(w, &(rel_spawn_desc_t){ .local = &(rel_local_t){ 5, 5 } });
    ecs_entity_t roots[3];
    size_t members = 0;
    for (int i = 0; i < 3; i++) {
        roots[i] = rel_spawn(w, &(rel_spawn_desc_t){ .local = &(rel_local_t){ (float)i, 0 } });
        members += tree(w, roots[i], 3, 3);
    }
    /* re-parent a subtree so that a later slot is above an earlier one */
    ecs_entity_t late = child(w, roots[2]);
    members++;
    CHECK(rel_set_child_of(w, roots[0], (rel_child_of_t){ late })); /* roots[0] is no longer a root */
    members++;
    /* give everyone a local position 1 along x: world x = depth */
    REL_EACH(w, it, child_of) rel_set_local(w, it.id, (rel_local_t){ 1, 0 });
    rel_set_local(w, roots[1], (rel_local_t){ 0, 0 });
    rel_set_local(w, roots[2], (rel_local_t){ 0, 0 });
    size_t seen = 0, roots_seen = 0, order_errors = 0, sum_errors = 0;
    uint8_t *visited = calloc(w->entities.used, 1);
    size_t slot_errors = 0;
    REL_EACH_CHILD_OF_DEPTH_FIRST(w, it) {
        seen++;
        if (it.slot != ecs_entity_index(it.id) ||
            it.target_slot != (it.target == ECS_NULL ? UINT32_MAX : ecs_entity_index(it.target)))
            slot_errors++;
        if (it.target == ECS_NULL) {
            roots_seen++;
            rel_set_world_pos(w, it.id, (rel_world_pos_t){ rel_get_local(w, it.id).x, 0 });
        } else {
            if (!visited[ecs_entity_index(it.target)] || rel_get_child_of(w, it.id).target != it.target) order_errors++;
            rel_world_pos_t p = rel_get_world_pos(w, it.target); /* the target's, already updated */
            rel_set_world_pos(w, it.id, (rel_world_pos_t){ p.x + rel_get_local(w, it.id).x, 0 });
        }
        visited[ecs_entity_index(it.id)]++;
    }
    /* each entity's world x is its depth: the target was updated before it */
    REL_EACH(w, it, child_of) {
        ecs_entity_t t = rel_get_child_of(w, it.id).target;
        if (rel_get_world_pos(w, it.id).x != rel_get_world_pos(w, t).x + 1) sum_errors++;
    }
    CHECK_EQ(roots_seen, 2);
    CHECK_EQ(seen, members + 2);
    CHECK_EQ(order_errors, 0);
    CHECK_EQ(slot_errors, 0);
    CHECK_EQ(sum_errors, 0);
    CHECK_EQ(visited[ecs_entity_index(lone)], 0);
    for (uint32_t i = 0; i < w->entities.used; i++) CHECK(visited[i] <= 1);
    free(visited);
    /* an empty forest */
    rel_world_t *empty = rel_world_new();
    REL_EACH_CHILD_OF_DEPTH_FIRST(empty, it) CHECK(0);
    rel_world_free(empty);
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

static void test_save_load(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t root = rel_spawn(w, NULL);
    tree(w, root, 4, 2);
    ecs_entity_t s = rel_spawn(w, NULL);
    CHECK(rel_add_docked_at(w, s, (rel_docked_at_t){ root }));
    CHECK(rel_add_owned_by(w, root, (rel_owned_by_t){ s }));
    char *json = rel_world_to_json(w);
    rel_world_t *v = rel_world_new();
    ecs_error_t err;
    CHECK(rel_world_from_json(v, json, &err));
    CHECK(rel__relations_verify(v));
    CHECK_EQ(rel_world_hash(v), rel_world_hash(w));
    CHECK_EQ(rel_count_child_of_of(v, root), 4);
    char *again = rel_world_to_json(v);
    CHECK(strcmp(json, again) == 0);
    free(again);
    /* cascade works on what was loaded */
    CHECK(rel_destroy(v, root));
    CHECK_EQ(rel_count(v), 0);
    CHECK(rel__relations_verify(v));
    free(json);
    rel_world_free(v);
    rel_world_free(w);
}

static void test_refused_documents(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t a = rel_spawn(w, NULL), b = child(w, a);
    uint64_t hash = rel_world_hash(w);
    ecs_error_t err;
    static const char cycle[] = "{ \"schema\": \"rel\", \"version\": 1, \"entities\": ["
                                "{ \"id\": \"0v0\", \"child_of\": { \"target\": \"2v0\" } },"
                                "{ \"id\": \"1v0\", \"child_of\": { \"target\": \"0v0\" } },"
                                "{ \"id\": \"2v0\", \"child_of\": { \"target\": \"1v0\" } } ] }";
    CHECK(!rel_world_from_json(w, cycle, &err));
    CHECK(strstr(err.message, "entities[2].child_of.target: the relation makes a cycle") != NULL);
    static const char self[] = "{ \"schema\": \"rel\", \"version\": 1, \"entities\": ["
                               "{ \"id\": \"0v0\", \"docked_at\": { \"target\": \"0v0\" } } ] }";
    CHECK(!rel_world_from_json(w, self, &err));
    CHECK(strstr(err.message, "entities[0].docked_at.target: the relation makes a cycle") != NULL);
    static const char missing[] = "{ \"schema\": \"rel\", \"version\": 1, \"entities\": ["
                                  "{ \"id\": \"0v0\" }, { \"id\": \"1v0\", \"owned_by\": { \"target\": \"7v0\" } } ] }";
    CHECK(!rel_world_from_json(w, missing, &err));
    CHECK(strstr(err.message, "entities[1].owned_by.target: the target is not an entity of the document") != NULL);
    static const char null_target[] = "{ \"schema\": \"rel\", \"version\": 1, \"entities\": ["
                                      "{ \"id\": \"0v0\", \"child_of\": { \"target\": null } } ] }";
    CHECK(!rel_world_from_json(w, null_target, &err));
    CHECK(strstr(err.message, "entities[0].child_of.target:") != NULL);
    CHECK_EQ(rel_world_hash(w), hash); /* unchanged */
    CHECK_EQ(rel_get_child_of(w, b).target, a);
    CHECK(rel__relations_verify(w));
    /* a relation's old name (owner, now owned_by) loads as the new one */
    static const char old[] = "{ \"schema\": \"rel\", \"version\": 1, \"entities\": ["
                              "{ \"id\": \"0v0\" }, { \"id\": \"1v0\", \"owner\": { \"target\": \"0v0\" } } ] }";
    CHECK(rel_world_from_json(w, old, &err));
    CHECK_EQ(rel_count_owned_by_of(w, ecs_entity_make(0, 0)), 1);
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

static void test_prefabs(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t owner = rel_spawn(w, NULL);
    ecs_entity_t item = rel_spawn_item_with(w, &(rel_spawn_desc_t){ .owned_by = &(rel_owned_by_t){ owner } });
    CHECK(item != ECS_NULL && rel_get_owned_by(w, item).target == owner);
    ecs_entity_t node = rel_spawn_node_with(w, &(rel_spawn_desc_t){ .child_of = &(rel_child_of_t){ item } });
    CHECK_EQ(rel_count_child_of_of(w, item), 1);
    rel_destroy(w, owner);
    CHECK(rel_alive(w, item) && rel_alive(w, node));
    rel_destroy(w, item);
    CHECK(!rel_alive(w, node));
    CHECK(rel__relations_verify(w));
    rel_world_free(w);
}

/* child_of and docked_at both cascade: together they stay acyclic (a destroy follows
 * both), in calls and in documents; owned_by (clear) may point back. */
static void test_cycle_across_relations(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t a = rel_spawn(w, NULL), b = child(w, a), c = child(w, b);
    CHECK(!rel_add_docked_at(w, a, (rel_docked_at_t){ c }));
    CHECK(!rel_add_docked_at(w, a, (rel_docked_at_t){ b }));
    ecs_entity_t d = rel_spawn(w, NULL);
    CHECK(rel_add_docked_at(w, a, (rel_docked_at_t){ d }));
    CHECK(!rel_set_child_of(w, d, (rel_child_of_t){ c }));
    CHECK(rel_add_owned_by(w, a, (rel_owned_by_t){ c }));
    CHECK(rel_destroy(w, d));
    CHECK_EQ(rel_count(w), 0);
    CHECK(rel__relations_verify(w));
    ecs_error_t err;
    static const char doc[] = "{ \"schema\": \"rel\", \"version\": 1, \"entities\": ["
                              "{ \"id\": \"0v0\", \"docked_at\": { \"target\": \"1v0\" } },"
                              "{ \"id\": \"1v0\", \"child_of\": { \"target\": \"0v0\" } } ] }";
    CHECK(!rel_world_from_json(w, doc, &err));
    CHECK(strstr(err.message, "entities[1].child_of.target: the relation makes a cycle") != NULL);
    rel_world_free(w);
}

/* The depth-first order of child_of as text: each entity's id, its target's. */
static char *depth_first_text(rel_world_t *w) {
    size_t cap = 64 + 48 * (rel_count(w) + 1), len = 0;
    char *out = malloc(cap);
    if (out == NULL) { /* nothing to compare without it */
        fprintf(stderr, "depth_first_text: out of memory\n");
        exit(1);
    }
    out[0] = '\0';
    REL_EACH_CHILD_OF_DEPTH_FIRST(w, it) {
        len += (size_t)snprintf(out + len, cap - len, "%llu<%llu ", (unsigned long long)it.id, (unsigned long long)it.target);
    }
    return out;
}

/* A snapshot restores the relations' index: counts, loops and the depth-first order as taken,
 * after re-parenting, a cascade, a clear and new entities (issue 34 with issue 32). */
static void test_snapshot_restore(void) {
    rel_world_t *w = rel_world_new();
    ecs_entity_t root = rel_spawn(w, NULL), other = rel_spawn(w, NULL);
    ecs_entity_t a = child(w, root), b = child(w, root), c = child(w, a);
    CHECK(rel_add_owned_by(w, c, (rel_owned_by_t){ other }));
    CHECK(rel_add_docked_at(w, b, (rel_docked_at_t){ other }));
    free(depth_first_text(w)); /* a cached order exists before the snapshot */
    rel_snapshot_t *snap = rel_snapshot_new();
    CHECK(snap && rel_snapshot_take(w, snap));
    uint64_t hash = rel_world_hash(w);
    char *doc = rel_world_to_json(w), *order = depth_first_text(w);

    CHECK(rel_set_child_of(w, c, (rel_child_of_t){ b }));   /* re-parent */
    CHECK(rel_destroy(w, other));                          /* clear owned_by, cascade docked_at (b) */
    for (int k = 0; k < 40; k++) (void)child(w, root);     /* past the snapshot's slots */
    free(depth_first_text(w));
    CHECK(rel_snapshot_restore(w, snap));

    CHECK(rel__relations_verify(w));
    CHECK_EQ(rel_world_hash(w), hash);
    char *doc2 = rel_world_to_json(w), *order2 = depth_first_text(w);
    CHECK(strcmp(doc2, doc) == 0);
    CHECK(strcmp(order2, order) == 0);
    CHECK_EQ(rel_count_child_of_of(w, root), 2);
    CHECK_EQ(count_of_by_loop(w, root), 2);
    CHECK_EQ(rel_count_child_of_of(w, a), 1);
    CHECK_EQ(rel_count_owned_by_of(w, other), 1);
    CHECK_EQ(rel_count_docked_at_of(w, other), 1);
    CHECK(rel_destroy(w, root)); /* the restored links cascade */
    CHECK(!rel_alive(w, a) && !rel_alive(w, b) && !rel_alive(w, c) && rel_alive(w, other));
    CHECK(rel__relations_verify(w));
    free(doc), free(doc2), free(order), free(order2);
    rel_snapshot_free(snap);
    rel_world_free(w);
}

/* A forest spawned top-down (each entity after its target, siblings in turn) comes out in
 * slot order: sources in the order they got the relation, not the links' latest-first. */
static void test_depth_first_slot_order(void) {
    rel_world_t *w = rel_world_new();
    for (int r = 0; r < 3; r++) (void)tree(w, rel_spawn(w, NULL), 4, 3);
    uint32_t expect = 0;
    size_t out_of_order = 0, seen = 0;
    REL_EACH_CHILD_OF_DEPTH_FIRST(w, it) {
        if (it.slot != expect) out_of_order++;
        expect = it.slot + 1u;
        seen++;
    }
    CHECK_EQ(seen, (size_t)w->entities.used);
    CHECK_EQ(out_of_order, 0);
    CHECK_EQ(w->relations.child_of.order_run, w->entities.used); /* all one run: no slot loaded */
    /* break ends the loop, in the run and in the rest after it; continue goes on */
    size_t counted = 0;
    REL_EACH_CHILD_OF_DEPTH_FIRST(w, it) {
        if (++counted == 7) break;
    }
    CHECK_EQ(counted, 7);
    ecs_entity_t last = ecs_entity_make(w->entities.used - 1u, w->entities.generation[w->entities.used - 1u]);
    CHECK(rel_set_child_of(w, last, (rel_child_of_t){ ecs_entity_make(0, w->entities.generation[0]) })); /* the run ends */
    size_t in_run = 0, after_run = 0, skipped = 0;
    uint32_t run = 0;
    REL_EACH_CHILD_OF_DEPTH_FIRST(w, it) {
        run = w->relations.child_of.order_run;
        if (it.id == last) {
            skipped++;
            continue;
        }
        if (in_run < run) in_run++;
        else if (++after_run == 2) break;
    }
    CHECK(run > 0 && run < w->entities.used);
    CHECK_EQ(in_run, run);
    CHECK_EQ(after_run, 2);
    CHECK_EQ(skipped, 1); /* last comes after slot 0's own tree, where the run ends */
    rel_world_free(w);
}

int main(void) {
    test_add_get_count();
    test_refused_targets();
    test_reparent();
    test_destroy_in_group();
    test_cascade();
    test_clear();
    test_slot_relation();
    test_hooks();
    test_deferred();
    test_each_of_destroy();
    test_depth_first();
    test_depth_first_slot_order();
    test_save_load();
    test_refused_documents();
    test_prefabs();
    test_cycle_across_relations();
    test_snapshot_restore();
    return check_finish("test_relations");
}
