/* test_hooks.c: component hooks (<name>_on_<c>) on the kitchen schema: which calls fire which
 * hook, in what order, what the hook sees (a complete entity on spawn, the value still there
 * on remove and destroy), deferred changes firing when applied, loads firing none and keeping
 * the hooks, and clearing them. test_model.c counts hooks against its model on random runs. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kit_ecs.h"

/* Every hook call, in order: which hook, which component, on which entity. */
enum { ADD, REMOVE, SET };
typedef struct call {
    int what;
    const char *comp;
    ecs_entity_t e;
} call_t;
static call_t calls[64];
static int call_count;

static void note(int what, const char *comp, ecs_entity_t e) {
    if (call_count < 64) calls[call_count++] = (call_t){ what, comp, e };
}

#define CHECK_CALL(k, what_, comp_, e_) \
    CHECK(call_count > (k) && calls[k].what == (what_) && strcmp(calls[k].comp, (comp_)) == 0 && calls[k].e == (e_))

/* What the hooks check as they run: the entity's state at that moment. */
static int incomplete; /* on_add of a spawn saw a component of the desc missing */
static int unreadable; /* on_remove found the component (or its value) gone */

static void pos_add(kit_world_t *w, ecs_entity_t e, void *user) {
    CHECK(user == &calls);
    /* the spawns below give pos together with vel and label: all must be in already */
    if (!kit_has_pos(w, e) || (kit_get_pos(w, e).x == 7 && !(kit_has_vel(w, e) && kit_has_label(w, e)))) incomplete++;
    note(ADD, "pos", e);
}
static void pos_remove(kit_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    if (!kit_has_pos(w, e) || kit_get_pos(w, e).y != -1.5) unreadable++;
    note(REMOVE, "pos", e);
}
static void pos_set(kit_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    CHECK(kit_has_pos(w, e));
    note(SET, "pos", e);
}
static void vel_add(kit_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    if (!kit_has_vel(w, e) || (kit_get_vel(w, e).dx == 7 && !(kit_has_pos(w, e) && kit_has_label(w, e)))) incomplete++;
    note(ADD, "vel", e);
}
static void vel_remove(kit_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    if (!kit_has_vel(w, e)) unreadable++;
    note(REMOVE, "vel", e);
}
static void label_add(kit_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    if (!kit_has_label(w, e)) incomplete++;
    note(ADD, "label", e);
}
static void label_remove(kit_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    if (!kit_has_label(w, e)) unreadable++;
    note(REMOVE, "label", e);
}
static void marked_add(kit_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    CHECK(kit_has_marked(w, e));
    note(ADD, "marked", e);
}
static void marked_remove(kit_world_t *w, ecs_entity_t e, void *user) {
    (void)user;
    if (!kit_has_marked(w, e)) unreadable++;
    note(REMOVE, "marked", e);
}

static void set_all_hooks(kit_world_t *w) {
    kit_on_pos(w, &(kit_hooks_t){ .on_add = pos_add, .on_remove = pos_remove, .on_set = pos_set, .user = &calls });
    kit_on_vel(w, &(kit_hooks_t){ .on_add = vel_add, .on_remove = vel_remove });
    kit_on_label(w, &(kit_hooks_t){ .on_add = label_add, .on_remove = label_remove });
    kit_on_marked(w, &(kit_hooks_t){ .on_add = marked_add, .on_remove = marked_remove });
}

/* spawn: on_add after the entity is complete, in schema order (label, pos, vel, marked). */
static void test_spawn_and_destroy(void) {
    kit_world_t *w = kit_world_new();
    set_all_hooks(w);
    call_count = incomplete = unreadable = 0;
    ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){
        .vel = &(kit_vel_t){ 7, 0 }, .pos = &(kit_pos_t){ 7, -1.5 }, .label = &KIT_LABEL_DEFAULT, .marked = true,
        .hidden = true, /* no hooks: not called */
    });
    CHECK_EQ(call_count, 4);
    CHECK_CALL(0, ADD, "label", e);
    CHECK_CALL(1, ADD, "pos", e);
    CHECK_CALL(2, ADD, "vel", e);
    CHECK_CALL(3, ADD, "marked", e);
    CHECK_EQ(incomplete, 0);

    /* spawn without components, and a prefab (crate: scalars, label, hidden) */
    call_count = 0;
    ecs_entity_t bare = kit_spawn(w, NULL);
    CHECK_EQ(call_count, 0);
    ecs_entity_t crate = kit_spawn_crate(w);
    CHECK_EQ(call_count, 1);
    CHECK_CALL(0, ADD, "label", crate);

    /* destroy: on_remove for every component, schema order, before any leaves */
    call_count = 0;
    CHECK(kit_destroy(w, e));
    CHECK_EQ(call_count, 4);
    CHECK_CALL(0, REMOVE, "label", e);
    CHECK_CALL(1, REMOVE, "pos", e);
    CHECK_CALL(2, REMOVE, "vel", e);
    CHECK_CALL(3, REMOVE, "marked", e);
    CHECK_EQ(unreadable, 0);
    call_count = 0;
    CHECK(!kit_destroy(w, e)); /* stale: nothing */
    CHECK(kit_destroy(w, bare));
    CHECK_EQ(call_count, 0);
    kit_world_free(w);
}

/* add, set, remove of one component: each fires its hook once, refusals fire none. */
static void test_component_calls(void) {
    kit_world_t *w = kit_world_new();
    set_all_hooks(w);
    ecs_entity_t e = kit_spawn(w, NULL);
    call_count = unreadable = 0;
    CHECK(kit_add_pos(w, e, KIT_POS_DEFAULT));
    CHECK(!kit_add_pos(w, e, KIT_POS_DEFAULT)); /* present: refused, no hook */
    CHECK_EQ(call_count, 1);
    CHECK_CALL(0, ADD, "pos", e);
    CHECK(kit_set_pos(w, e, KIT_POS_DEFAULT)); /* present: on_set only */
    CHECK_EQ(call_count, 2);
    CHECK_CALL(1, SET, "pos", e);
    CHECK(kit_remove_pos(w, e));
    CHECK(!kit_remove_pos(w, e));
    CHECK_EQ(call_count, 3);
    CHECK_CALL(2, REMOVE, "pos", e);
    CHECK(kit_set_pos(w, e, KIT_POS_DEFAULT)); /* absent: on_add, then on_set */
    CHECK_EQ(call_count, 5);
    CHECK_CALL(3, ADD, "pos", e);
    CHECK_CALL(4, SET, "pos", e);
    /* a tag in slot storage */
    CHECK(kit_add_marked(w, e));
    CHECK(!kit_add_marked(w, e));
    CHECK(kit_remove_marked(w, e));
    CHECK_EQ(call_count, 7);
    CHECK_CALL(5, ADD, "marked", e);
    CHECK_CALL(6, REMOVE, "marked", e);
    CHECK_EQ(unreadable, 0);
    /* stale ids fire nothing */
    CHECK(kit_destroy(w, e));
    call_count = 0;
    CHECK(!kit_add_pos(w, e, KIT_POS_DEFAULT) && !kit_set_pos(w, e, KIT_POS_DEFAULT) && !kit_remove_pos(w, e));
    CHECK_EQ(call_count, 0);
    kit_world_free(w);
}

/* Deferred changes fire their hooks when applied, not when recorded. */
static void test_deferred(void) {
    kit_world_t *w = kit_world_new();
    set_all_hooks(w);
    ecs_entity_t e = kit_spawn(w, NULL);
    call_count = 0;
    CHECK(kit_defer_add_pos(w, e, KIT_POS_DEFAULT));
    CHECK(kit_defer_set_pos(w, e, KIT_POS_DEFAULT));
    CHECK(kit_defer_remove_pos(w, e));
    ecs_entity_t d = kit_defer_spawn(w, &(kit_spawn_desc_t){ .vel = &KIT_VEL_DEFAULT });
    CHECK(kit_defer_destroy(w, d));
    CHECK_EQ(call_count, 0);
    CHECK(kit_apply_deferred(w));
    CHECK_EQ(call_count, 5);
    CHECK_CALL(0, ADD, "pos", e);
    CHECK_CALL(1, SET, "pos", e);
    CHECK_CALL(2, REMOVE, "pos", e);
    CHECK_CALL(3, ADD, "vel", d);
    CHECK_CALL(4, REMOVE, "vel", d);
    kit_world_free(w);
}

/* A load fires no hooks (neither on the staging world nor on the live one) and keeps them. */
static void test_load(void) {
    kit_world_t *w = kit_world_new();
    ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &KIT_POS_DEFAULT, .label = &KIT_LABEL_DEFAULT });
    char *json = kit_world_to_json(w);
    set_all_hooks(w);
    call_count = 0;
    ecs_error_t err;
    CHECK(kit_world_from_json(w, json, &err));
    CHECK(kit_world_from_json(w, "{\"schema\": \"kit\", \"version\": 1, \"entities\": []}", &err));
    CHECK(!kit_world_from_json(w, "{\"schema\": \"kit\", \"version\": 1, \"entities\": [{\"pos\": 1}]}", &err));
    CHECK(kit_world_from_json(w, json, &err));
    CHECK_EQ(call_count, 0);
    CHECK(kit_has_pos(w, e));
    CHECK(kit_remove_pos(w, e)); /* the hooks are still set */
    CHECK_EQ(call_count, 1);
    CHECK_CALL(0, REMOVE, "pos", e);
    free(json);
    kit_world_free(w);
}

/* NULL clears a component's hooks; with none left the world says so (w->hooks.any__). */
static void test_clear(void) {
    kit_world_t *w = kit_world_new();
    CHECK(!w->hooks.any__);
    set_all_hooks(w);
    CHECK(w->hooks.any__);
    kit_on_pos(w, NULL);
    kit_on_vel(w, NULL);
    kit_on_label(w, &(kit_hooks_t){ 0 });
    CHECK(w->hooks.any__); /* marked still has its hooks */
    kit_on_marked(w, NULL);
    CHECK(!w->hooks.any__);
    call_count = 0;
    ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &KIT_POS_DEFAULT, .marked = true });
    CHECK(kit_set_pos(w, e, KIT_POS_DEFAULT) && kit_remove_pos(w, e) && kit_destroy(w, e));
    CHECK_EQ(call_count, 0);
    kit_world_free(w);
}

int main(void) {
    test_spawn_and_destroy();
    test_component_calls();
    test_deferred();
    test_load();
    test_clear();
    return check_finish("test_hooks");
}
