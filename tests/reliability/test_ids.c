/* test_ids.c: entity ids at the ends of their range, through the generated API.
 *
 * A slot whose generation would wrap is retired: the id at generation UINT32_MAX is never
 * followed by generation 0 on the same slot, so no stale id can come back to life. And a
 * schema's max_entities is a hard limit: spawns past it return ECS_NULL, nothing crashes,
 * and destroying makes room again. A document cannot retire slots with references to the last
 * generation. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rel_ecs.h"
#include "small_ecs.h"

/* Restores w's (empty) entity table so that slot 0 is next issued at `generation`. */
static void restore_slot0(ecs_entities_t *t, uint64_t generation) {
    uint64_t next[1] = { generation };
    CHECK(ecs_entities_restore(t, NULL, 0, 1, next));
}

static void test_generation_wrap_retires_the_slot(void) {
    rel_world_t *w = rel_world_new();
    CHECK(w != NULL);
    restore_slot0(&w->entities, UINT32_MAX - 1u);

    ecs_entity_t old = rel_spawn_ship(w);
    CHECK_EQ(ecs_entity_index(old), 0);
    CHECK_EQ(ecs_entity_generation(old), UINT32_MAX - 1u);
    CHECK(rel_has_pos(w, old));
    CHECK(rel_destroy(w, old));

    ecs_entity_t last = rel_spawn(w, &(rel_spawn_desc_t){ .hp = &REL_HP_DEFAULT, .flag = true });
    CHECK_EQ(ecs_entity_index(last), 0); /* the same slot, its last generation */
    CHECK_EQ(ecs_entity_generation(last), UINT32_MAX);
    CHECK(!rel_alive(w, old));
    CHECK(!rel_has_pos(w, old));
    CHECK(rel_has_hp(w, last) && rel_has_flag(w, last));
    CHECK(rel_destroy(w, last));
    CHECK(!rel_alive(w, last));
    CHECK_EQ(rel_count(w), 0);

    /* The slot is retired: many spawn/destroy rounds never hand out index 0 again, and
     * neither old id ever turns live. */
    for (int round = 0; round < 1000; round++) {
        ecs_entity_t e = rel_spawn_rock(w);
        CHECK(e != ECS_NULL);
        CHECK(ecs_entity_index(e) != 0);
        CHECK(e != old && e != last);
        CHECK(!rel_alive(w, old) && !rel_alive(w, last));
        CHECK(!rel_destroy(w, old) && !rel_destroy(w, last));
        CHECK(!rel_add_flag(w, last) && !rel_set_pos(w, last, REL_POS_DEFAULT));
        CHECK(rel_ref_pos(w, last).x == NULL);
        if (round % 2 == 0) CHECK(rel_destroy(w, e));
    }
    CHECK_EQ(rel_count(w), 500);
    rel_world_free(w);
}

static void test_restore_retires_generations_beyond_the_range(void) {
    rel_world_t *w = rel_world_new();
    CHECK(w != NULL);
    uint64_t next[2] = { (uint64_t)UINT32_MAX + 1u, 7 }; /* slot 0 spent, slot 1 at 7 */
    CHECK(ecs_entities_restore(&w->entities, NULL, 0, 2, next));
    ecs_entity_t e = rel_spawn(w, NULL);
    CHECK_EQ(ecs_entity_index(e), 1);
    CHECK_EQ(ecs_entity_generation(e), 7);
    ecs_entity_t f = rel_spawn(w, NULL);
    CHECK_EQ(ecs_entity_index(f), 2); /* a fresh slot, not the retired one */
    CHECK_EQ(rel_count(w), 2);
    rel_world_free(w);
}

static void test_max_entities_is_a_limit(void) {
    small_world_t *w = small_world_new();
    CHECK(w != NULL);
    ecs_entity_t e[3];
    for (int i = 0; i < 3; i++) {
        e[i] = small_spawn(w, &(small_spawn_desc_t){ .pos = &(small_pos_t){ (float)i }, .flag = i == 1 });
        CHECK(e[i] != ECS_NULL);
    }
    CHECK_EQ(small_count(w), 3);
    /* Full: every kind of spawn says so and changes nothing. */
    CHECK_EQ(small_spawn(w, NULL), ECS_NULL);
    CHECK_EQ(small_spawn(w, &(small_spawn_desc_t){ .pos = &SMALL_POS_DEFAULT }), ECS_NULL);
    CHECK_EQ(small_spawn_dot(w), ECS_NULL);
    CHECK_EQ(small_count(w), 3);
    for (int i = 0; i < 3; i++) CHECK(small_has_pos(w, e[i]) && small_get_pos(w, e[i]).x == (float)i);
    /* Destroying one makes room for exactly one. */
    CHECK(small_destroy(w, e[1]));
    ecs_entity_t d = small_spawn_dot(w);
    CHECK(d != ECS_NULL && d != e[1]);
    CHECK(small_has_flag(w, d) && small_get_pos(w, d).x == 1.0f);
    CHECK(!small_alive(w, e[1]));
    CHECK_EQ(small_spawn(w, NULL), ECS_NULL);
    /* Churn at the limit: always exactly 3 live, never more. */
    for (int round = 0; round < 300; round++) {
        CHECK(small_destroy(w, d));
        d = small_spawn(w, NULL);
        CHECK(d != ECS_NULL);
        CHECK_EQ(small_spawn(w, NULL), ECS_NULL);
    }
    CHECK_EQ(small_count(w), 3);
    small_world_free(w);
}

static void test_limit_with_a_retired_slot(void) {
    /* One of the 3 slots is spent: the world holds 2 from then on, and says so. */
    small_world_t *w = small_world_new();
    CHECK(w != NULL);
    restore_slot0(&w->entities, UINT32_MAX);
    ecs_entity_t e = small_spawn_dot(w);
    CHECK_EQ(ecs_entity_generation(e), UINT32_MAX);
    CHECK(small_destroy(w, e));
    ecs_entity_t a = small_spawn(w, NULL), b = small_spawn(w, NULL);
    CHECK(a != ECS_NULL && b != ECS_NULL);
    CHECK(ecs_entity_index(a) != 0 && ecs_entity_index(b) != 0);
    CHECK_EQ(small_spawn(w, NULL), ECS_NULL);
    CHECK_EQ(small_spawn_dot(w), ECS_NULL);
    CHECK_EQ(small_count(w), 2);
    CHECK(!small_alive(w, e));
    small_world_free(w);
}

/* Quick-save, destroy, quick-load into the same world: no handle the world issued before the
 * load comes alive again, neither a destroyed entity's nor that of one destroyed after the
 * save; the saved entities keep their ids. */
static void test_quick_load_keeps_destroyed_handles_dead(void) {
    rel_world_t *w = rel_world_new();
    CHECK(w != NULL);
    ecs_entity_t a = rel_spawn(w, NULL);
    ecs_entity_t b = rel_spawn(w, NULL);
    CHECK(rel_destroy(w, b));
    char *save = rel_world_to_json(w);
    CHECK(save != NULL);
    ecs_entity_t c = rel_spawn(w, NULL); /* b's slot, next generation */
    CHECK_EQ(ecs_entity_index(c), ecs_entity_index(b));
    CHECK(rel_destroy(w, a));
    ecs_error_t err;
    CHECK(rel_world_from_json(w, save, &err));
    CHECK(rel_alive(w, a)); /* saved: back under its own id */
    CHECK(!rel_alive(w, b) && !rel_alive(w, c));
    for (int k = 0; k < 4; k++) {
        ecs_entity_t e = rel_spawn(w, NULL);
        CHECK(e != b && e != c && e != a);
    }
    CHECK(!rel_alive(w, b) && !rel_alive(w, c));
    free(save);
    rel_world_free(w);
}

/* Loads text into w (holding whatever it holds): refused with exactly `expected`, w unchanged
 * (still `count` entities, room for the rest). */
static void small_refused(small_world_t *w, const char *text, const char *expected, uint32_t count) {
    ecs_error_t err;
    CHECK(!small_world_from_json(w, text, &err));
    if (strcmp(err.message, expected) != 0) {
        fprintf(stderr, "  expected: %s\n  got:      %s\n", expected, err.message);
        CHECK(!"the message above");
    }
    CHECK_EQ(small_count(w), count);
}

/* References at generation UINT32_MAX, the last: each would retire its slot, so a document
 * of one entity could leave a fixed-size world without room. Refused, naming where, unless
 * the reference is to a live id of the document; a save writes a dead one as null. */
static void test_last_generation_references(void) {
    small_world_t *w = small_world_new();
    CHECK(w != NULL);
    ecs_entity_t own = small_spawn(w, NULL);
    small_refused(w,
                  "{\"schema\": \"small\", \"version\": 1, \"entities\": [{\"id\": \"0v0\", \"link\": {\"to\": \"1v4294967295\"}},"
                  " {\"id\": \"1v4294967295\", \"link\": {\"to\": \"2v4294967295\"}}]}",
                  "entities[1].link.to: 2v4294967295 is the last generation of slot 2 and no entity of the document has it: "
                  "loading it would retire the slot for good", 1);
    small_refused(w,
                  "{\"schema\": \"small\", \"version\": 1, \"singletons\": {\"focus\": {\"on\": \"2v4294967295\"}}}",
                  "singletons.focus.on: 2v4294967295 is the last generation of slot 2 and no entity of the document has it: "
                  "loading it would retire the slot for good", 1);
    /* Beyond the world's slots too (it would not retire anything, but no save writes it). */
    small_refused(w,
                  "{\"schema\": \"small\", \"version\": 1, \"entities\": [{\"id\": \"0v0\", \"link\": {\"to\": \"9v4294967295\"}}]}",
                  "entities[0].link.to: 9v4294967295 is the last generation of slot 9 and no entity of the document has it: "
                  "loading it would retire the slot for good", 1);
    CHECK(small_alive(w, own));

    /* To a live id of the document, before or after it: loads, and the world keeps its room. */
    ecs_error_t err;
    CHECK(small_world_from_json(w,
                                "{\"schema\": \"small\", \"version\": 1, \"singletons\": {\"focus\": {\"on\": \"1v4294967295\"}},"
                                " \"entities\": [{\"id\": \"0v3\", \"link\": {\"to\": \"1v4294967295\"}}, {\"id\": \"1v4294967295\"}]}",
                                &err));
    ecs_entity_t last = ecs_entity_make(1, UINT32_MAX);
    CHECK(small_alive(w, last));
    CHECK_EQ(small_get_link(w, ecs_entity_make(0, 3)).to, last);
    CHECK(small_spawn(w, NULL) != ECS_NULL); /* the third slot */
    CHECK_EQ(small_count(w), 3);

    /* Destroyed, it retires its slot (as any id at the last generation): a save then writes the
     * references to it as null, and the save loads, into this world or a fresh one. */
    CHECK(small_destroy(w, last));
    char *text = small_world_to_json(w);
    CHECK(text != NULL && strstr(text, "4294967295") == NULL);
    small_world_t *fresh = small_world_new();
    CHECK(small_world_from_json(fresh, text, &err));
    CHECK_EQ(small_get_link(fresh, ecs_entity_make(0, 3)).to, ECS_NULL);
    CHECK_EQ(small_singleton_focus(fresh)->on, ECS_NULL);
    CHECK(small_world_from_json(w, text, &err));
    CHECK(small_spawn(w, NULL) == ECS_NULL); /* slot 1 stays retired in the world that used it */
    free(text);
    small_world_free(fresh);
    small_world_free(w);
}

/* References near the last generation (above ECS_REF_GENERATION_MAX): one at 4294967294
 * made its slot's next entity take the last generation, whose destroy retired the slot, so
 * a small document used up a fixed world's slots after one round of spawns and destroys.
 * Refused now, naming where; the world keeps its room through churn. */
static void test_near_last_generation_references(void) {
    small_world_t *w = small_world_new();
    CHECK(w != NULL);
    small_refused(w,
                  "{\"schema\": \"small\", \"version\": 1, \"entities\": [{\"id\": \"0v0\", \"link\": {\"to\": \"1v4294967294\"}}]}",
                  "entities[0].link.to: 1v4294967294 is within the last 2^24 generations of slot 1 and no entity of the "
                  "document has that slot at it: loading it would leave the slot 1 more entities before it is retired", 0);
    small_refused(w,
                  "{\"schema\": \"small\", \"version\": 1, \"singletons\": {\"focus\": {\"on\": \"2v4278190080\"}}}",
                  "singletons.focus.on: 2v4278190080 is within the last 2^24 generations of slot 2 and no entity of the "
                  "document has that slot at it: loading it would leave the slot 16777215 more entities before it is retired", 0);
    /* Three rounds of filling and emptying the world: every slot still serves. */
    for (int round = 0; round < 3; round++) {
        ecs_entity_t e[3];
        for (int k = 0; k < 3; k++) CHECK((e[k] = small_spawn(w, NULL)) != ECS_NULL);
        for (int k = 0; k < 3; k++) CHECK(small_destroy(w, e[k]));
    }
    /* At ECS_REF_GENERATION_MAX: loads; below a live id of the document's slot: loads. */
    ecs_error_t err;
    CHECK(small_world_from_json(w,
                                "{\"schema\": \"small\", \"version\": 1, \"entities\": [{\"id\": \"0v0\", \"link\": {\"to\": \"1v4278190079\"}},"
                                " {\"id\": \"2v4294967295\", \"link\": {\"to\": \"2v4294967290\"}}]}", &err));
    CHECK_EQ(small_get_link(w, ecs_entity_make(0, 0)).to, ecs_entity_make(1, ECS_REF_GENERATION_MAX));
    /* A save writes a reference near the end to a free slot as null, as the loader wants. */
    CHECK(small_set_link(w, ecs_entity_make(0, 0), (small_link_t){ ecs_entity_make(1, UINT32_MAX - 1u) }));
    char *text = small_world_to_json(w);
    CHECK(text != NULL && strstr(text, "4294967294") == NULL && strstr(text, "4294967290") != NULL);
    CHECK(small_world_from_json(w, text, &err));
    CHECK_EQ(small_get_link(w, ecs_entity_make(0, 0)).to, ECS_NULL);
    free(text);
    small_world_free(w);
}

/* world_hash folds references as a save writes them: a world and its reload hash equal,
 * also when fields hold ids a save writes as null (a later generation of a live slot, ~0, a
 * reference near the last generation to a free slot), in components and singletons. */
static void test_hash_matches_reload(void) {
    small_world_t *w = small_world_new();
    CHECK(w != NULL);
    ecs_entity_t a = small_spawn(w, NULL), b = small_spawn(w, NULL);
    ecs_entity_t later = ecs_entity_make(ecs_entity_index(b), ecs_entity_generation(b) + 1u);
    CHECK(small_set_link(w, a, (small_link_t){ later }));
    CHECK(small_set_link(w, b, (small_link_t){ ~(ecs_entity_t)0 }));
    small_singleton_focus(w)->on = ecs_entity_make(2, UINT32_MAX - 1u);
    char *text = small_world_to_json(w);
    small_world_t *back = small_world_new();
    ecs_error_t err;
    CHECK(text != NULL && small_world_from_json(back, text, &err));
    CHECK_EQ(small_world_hash(w), small_world_hash(back));
    CHECK_EQ(small_get_link(back, a).to, ECS_NULL);
    /* and a reference that survives still counts: changing it changes the hash */
    uint64_t h = small_world_hash(w);
    CHECK(small_set_link(w, b, (small_link_t){ a }));
    CHECK(small_world_hash(w) != h);
    free(text);
    small_world_free(back);
    small_world_free(w);
}

int main(void) {
    test_generation_wrap_retires_the_slot();
    test_restore_retires_generations_beyond_the_range();
    test_max_entities_is_a_limit();
    test_limit_with_a_retired_slot();
    test_quick_load_keeps_destroyed_handles_dead();
    test_last_generation_references();
    test_near_last_generation_references();
    test_hash_matches_reload();
    return check_finish("entity ids");
}
