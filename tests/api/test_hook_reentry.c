/* test_hook_reentry.c: hooks that call back into the world the way docs/hooks.md ("What a
 * hook may do") says is memory-safe, each once a crash (unbounded recursion or a heap
 * overflow): destroy or remove of the entity from its own on_remove, apply_deferred from a
 * hook while apply_deferred runs, and a load from a hook. Each nested call is a no-op with
 * the documented result; the outer call completes. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kit_ecs.h"

static int removes, nested_false, nested_true, loads_refused;
static ecs_error_t load_err;

/* "No health, no entity": on_remove of pos destroys the entity. */
static void destroy_on_remove(kit_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    removes++;
    if (kit_destroy(w, e)) nested_true++;
    else nested_false++;
}
/* on_remove of pos removes pos again. */
static void remove_on_remove(kit_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    removes++;
    if (kit_remove_pos(w, e)) nested_true++;
    else nested_false++;
}
/* on_add of vel applies the buffer (nested, while it is applied) and records one more change. */
static void apply_on_add(kit_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    if (kit_apply_deferred(w)) nested_true++;
    else nested_false++;
    CHECK(kit_defer_add_hidden(w, e));
}
/* on_add of label loads a document into the world. */
static void load_on_add(kit_world_t *w, ecs_entity_t e, void *user) {
    (void)e;
    (void)user;
    if (!kit_world_from_json(w, "{\"schema\": \"kit\", \"version\": 1, \"entities\": []}", &load_err)) loads_refused++;
}

static void reset(void) {
    removes = nested_false = nested_true = loads_refused = 0;
}

static void test_destroy_from_own_on_remove(void) {
    kit_world_t *w = kit_world_new();
    kit_on_pos(w, &(kit_hooks_t){ .on_remove = destroy_on_remove });
    ecs_entity_t a = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &KIT_POS_DEFAULT, .vel = &KIT_VEL_DEFAULT });
    ecs_entity_t b = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &KIT_POS_DEFAULT });
    reset();
    CHECK(kit_destroy(w, a)); /* the hook's destroy of a, inside a's destroy: nothing, false */
    CHECK(!kit_alive(w, a));
    CHECK_EQ(removes, 1);
    CHECK_EQ(nested_false, 1);
    /* remove of pos, whose on_remove destroys the entity: destroyed once, the hook once */
    reset();
    CHECK(kit_remove_pos(w, b));
    CHECK(!kit_alive(w, b));
    CHECK_EQ(removes, 1);
    CHECK_EQ(nested_true, 1);
    CHECK_EQ(kit_count(w), 0);
    kit_world_free(w);
}

static void test_remove_from_own_on_remove(void) {
    kit_world_t *w = kit_world_new();
    kit_on_pos(w, &(kit_hooks_t){ .on_remove = remove_on_remove });
    ecs_entity_t a = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &KIT_POS_DEFAULT });
    ecs_entity_t b = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &KIT_POS_DEFAULT });
    reset();
    CHECK(kit_remove_pos(w, a)); /* the nested remove: nothing, false */
    CHECK(!kit_has_pos(w, a) && kit_alive(w, a));
    CHECK_EQ(removes, 1);
    CHECK_EQ(nested_false, 1);
    /* destroy: pos's on_remove removes pos, which destroy has under way: nothing, false */
    reset();
    CHECK(kit_destroy(w, b));
    CHECK(!kit_alive(w, b));
    CHECK_EQ(removes, 1);
    CHECK_EQ(nested_false, 1);
    kit_world_free(w);
}

static void test_apply_from_hook_while_applying(void) {
    kit_world_t *w = kit_world_new();
    kit_on_vel(w, &(kit_hooks_t){ .on_add = apply_on_add });
    ecs_entity_t e[40];
    for (int k = 0; k < 40; k++) {
        e[k] = kit_spawn(w, NULL);
        CHECK(kit_defer_add_vel(w, e[k], KIT_VEL_DEFAULT));
    }
    reset();
    CHECK(kit_apply_deferred(w)); /* each on_add's apply: nothing, false; its add applied too */
    CHECK_EQ(nested_false, 40);
    CHECK_EQ(kit_deferred_count(w), 0);
    for (int k = 0; k < 40; k++) CHECK(kit_has_vel(w, e[k]) && kit_has_hidden(w, e[k]));
    kit_world_free(w);
}

static void test_load_from_hook(void) {
    kit_world_t *w = kit_world_new();
    kit_on_label(w, &(kit_hooks_t){ .on_add = load_on_add });
    ecs_entity_t a = kit_spawn(w, NULL);
    reset();
    CHECK(kit_add_label(w, a, KIT_LABEL_DEFAULT)); /* from a hook of an add */
    CHECK(kit_defer_remove_label(w, a));
    CHECK(kit_defer_add_label(w, a, KIT_LABEL_DEFAULT));
    CHECK(kit_apply_deferred(w)); /* and while apply_deferred runs */
    CHECK_EQ(loads_refused, 2);
    CHECK(strstr(load_err.message, "not loaded: called from a hook or while kit_apply_deferred runs") != NULL);
    CHECK(kit_alive(w, a) && kit_has_label(w, a));
    CHECK_EQ(kit_count(w), 1);
    /* outside hooks the same load works */
    ecs_error_t err;
    CHECK(kit_world_from_json(w, "{\"schema\": \"kit\", \"version\": 1, \"entities\": []}", &err));
    CHECK_EQ(kit_count(w), 0);
    kit_world_free(w);
}

int main(void) {
    test_destroy_from_own_on_remove();
    test_remove_from_own_on_remove();
    test_apply_from_hook_while_applying();
    test_load_from_hook();
    return check_finish("hook reentry");
}
