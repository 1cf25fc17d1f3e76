/* test_meta.c: the generated metadata table of meta.json (mt_meta) says what the schema
 * says (names, kinds, docs, types, offsets, lengths, enum names, defaults), and its world
 * access (has, count, get, set, add, remove, singletons) acts on a real world. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mt_ecs.h"

#define CHECK_STR(a, b) CHECK((a) && !strcmp((a), (b)))

static void check_field(const ecs_meta_component_t *c, uint32_t k, const char *name, ecs_meta_type_t type,
                        size_t offset, size_t size, uint32_t length, const char *type_text,
                        const char *default_text, const char *doc) {
    const ecs_meta_field_t *f = &c->fields[k];
    CHECK_STR(f->name, name);
    CHECK_EQ(f->type, type);
    CHECK_EQ(f->offset, offset);
    CHECK_EQ(f->size, size);
    CHECK_EQ(f->length, length);
    CHECK_EQ(f->element_size, length ? size / length : size);
    CHECK_STR(f->type_text, type_text);
    CHECK_STR(f->default_text, default_text);
    CHECK_STR(f->doc, doc);
    CHECK_STR(c->field_names[k], name);
    CHECK(ecs_meta_find_field(c, name) == f);
}

static void test_schema(void) {
    CHECK_STR(mt_meta.name, "mt");
    CHECK_STR(mt_meta.doc, "Run-time metadata: every kind of component and field the table describes.");
    CHECK_EQ(mt_meta.version, 2);
    CHECK_EQ(mt_meta.component_count, 5);
    const char *names[] = { "body", "mind", "trail", "hero", "world_time" };
    const ecs_meta_kind_t kinds[] = { ECS_META_DATA, ECS_META_DATA, ECS_META_DATA, ECS_META_TAG, ECS_META_SINGLETON };
    for (uint32_t k = 0; k < 5; k++) {
        CHECK_STR(mt_meta.components[k].name, names[k]);
        CHECK_EQ(mt_meta.components[k].kind, kinds[k]);
        CHECK(ecs_meta_find(&mt_meta, names[k]) == &mt_meta.components[k]);
    }
    CHECK(ecs_meta_find(&mt_meta, "nobody") == NULL);
    CHECK_EQ(mt_meta.pooled_count, 4); /* schema order, singletons left out */
    for (uint32_t k = 0; k < 4; k++) CHECK_EQ(mt_meta.pooled[k], k);
}

static void test_components(void) {
    const ecs_meta_component_t *body = ecs_meta_find(&mt_meta, "body");
    CHECK_STR(body->doc, "A rigid body");
    CHECK_EQ(body->size, sizeof(mt_body_t));
    CHECK_EQ(body->storage, ECS_META_SLOT);
    CHECK_EQ(body->field_count, 2);
    check_field(body, 0, "pos", ECS_META_F32, offsetof(mt_body_t, pos), sizeof(float[2]), 2, "f32[2]", "[1.5, -2.0]", "Metres");
    check_field(body, 1, "mass", ECS_META_F64, offsetof(mt_body_t, mass), sizeof(double), 0, "f64", "3.25", "");
    const mt_body_t *body_default = body->default_value;
    CHECK(body_default->pos[0] == 1.5f && body_default->pos[1] == -2.0f && body_default->mass == 3.25);

    const ecs_meta_component_t *mind = ecs_meta_find(&mt_meta, "mind");
    CHECK_STR(mind->doc, "");
    CHECK_EQ(mind->storage, ECS_META_SPARSE);
    CHECK_EQ(mind->field_count, 6);
    check_field(mind, 0, "mood", ECS_META_ENUM, offsetof(mt_mind_t, mood), sizeof(mt_mind_mood_t), 0,
                "enum { calm, angry, asleep }", "\"angry\"", "How it feels");
    CHECK_EQ(mind->fields[0].enum_count, 3);
    CHECK_STR(mind->fields[0].enum_names[0], "calm");
    CHECK_STR(mind->fields[0].enum_names[1], "angry");
    CHECK_STR(mind->fields[0].enum_names[2], "asleep");
    check_field(mind, 1, "name", ECS_META_CHAR, offsetof(mt_mind_t, name), 12, 12, "char[12]", "\"bob\"", "");
    check_field(mind, 2, "goal", ECS_META_ENTITY, offsetof(mt_mind_t, goal), sizeof(ecs_entity_t), 0, "entity", "null", "");
    check_field(mind, 3, "level", ECS_META_I16, offsetof(mt_mind_t, level), 2, 0, "i16", "-3", "");
    check_field(mind, 4, "flags", ECS_META_U8, offsetof(mt_mind_t, flags), 3, 3, "u8[3]", "[1, 2, 3]", "");
    check_field(mind, 5, "awake", ECS_META_BOOL, offsetof(mt_mind_t, awake), sizeof(bool), 0, "bool", "true", "");
    CHECK(mind->fields[1].enum_names == NULL);
    const mt_mind_t *mind_default = mind->default_value;
    CHECK_EQ(mind_default->mood, MT_MIND_MOOD_ANGRY);
    CHECK_STR(mind_default->name, "bob");
    CHECK_EQ(mind_default->level, -3);
    CHECK_EQ(mind_default->flags[2], 3);
    CHECK(mind_default->awake);
    CHECK_EQ(ecs_meta_load_bits(ecs_meta_field_cptr(mind_default, &mind->fields[3]), &mind->fields[3]), (uint64_t)-3);
    CHECK_EQ(ecs_meta_load_bits(ecs_meta_field_cptr(mind_default, &mind->fields[0]), &mind->fields[0]), 1);

    /* A default too long for a C string literal ("[0, 0, ...]", 6,300 bytes): NULL. */
    const ecs_meta_component_t *trail = ecs_meta_find(&mt_meta, "trail");
    CHECK(trail->fields[0].default_text == NULL);
    CHECK_STR(trail->fields[0].type_text, "u16[2100]");
    CHECK_EQ(trail->fields[0].length, 2100);

    const ecs_meta_component_t *hero = ecs_meta_find(&mt_meta, "hero");
    CHECK_STR(hero->doc, "Played by a person");
    CHECK_EQ(hero->size, 0);
    CHECK_EQ(hero->field_count, 0);
    CHECK(hero->default_value == NULL && hero->change != NULL && hero->storage == ECS_META_SPARSE);

    const ecs_meta_component_t *time = ecs_meta_find(&mt_meta, "world_time");
    CHECK_EQ(time->singleton_offset, offsetof(mt_world_t, singletons.world_time));
    check_field(time, 0, "tick", ECS_META_U64, offsetof(mt_world_time_t, tick), 8, 0, "u64", "7", "");
    check_field(time, 1, "scale", ECS_META_F32, offsetof(mt_world_time_t, scale), 4, 0, "f32", "0.5", "");
    CHECK(time->change == NULL && time->schema == &mt_meta);
    CHECK_STR(ecs_meta_type_name(ECS_META_ENUM), "enum");
    CHECK_STR(ecs_meta_type_name(ECS_META_F32), "f32");
}

/* The table's functions change the world as the typed API would. */
static void test_access(void) {
    mt_world_t *w = mt_world_new();
    CHECK(w != NULL);
    if (!w) return;
    const ecs_meta_component_t *body = ecs_meta_find(&mt_meta, "body"), *mind = ecs_meta_find(&mt_meta, "mind");
    const ecs_meta_component_t *hero = ecs_meta_find(&mt_meta, "hero"), *time = ecs_meta_find(&mt_meta, "world_time");
    ecs_entity_t e = mt_spawn(w, NULL);
    CHECK(!ecs_meta_has(w, body, e));
    mt_body_t b;
    memcpy(&b, body->default_value, sizeof b);
    b.mass = 9.0;
    CHECK(ecs_meta_add(w, body, e, &b));
    CHECK(!ecs_meta_add(w, body, e, &b)); /* has it already */
    CHECK(mt_has_body(w, e) && mt_get_body(w, e).mass == 9.0 && mt_get_body(w, e).pos[0] == 1.5f);
    CHECK_EQ(ecs_meta_count(w, body), 1);
    CHECK_EQ(body->slot_index, 0);
    CHECK_EQ(mt_meta.mask_words, 1);
    CHECK_EQ(mt_meta.mask_word_size, 1);
    b.mass = 4.0;
    CHECK(ecs_meta_set(w, body, e, &b));
    mt_body_t out = { { 0, 0 }, 0 };
    CHECK(ecs_meta_get(w, body, e, &out) && out.mass == 4.0);

    mt_mind_t probe = { .level = 42 };
    CHECK(!ecs_meta_get(w, mind, e, &probe) && probe.level == 42); /* absent: out untouched */
    CHECK(ecs_meta_add(w, mind, e, mind->default_value));
    CHECK(ecs_meta_get(w, mind, e, &probe) && probe.level == -3 && !strcmp(probe.name, "bob"));
    CHECK_EQ(ecs_meta_sparse(w, mind)->count, 1);

    CHECK(ecs_meta_add(w, hero, e, NULL) && mt_has_hero(w, e) && ecs_meta_count(w, hero) == 1);
    CHECK(ecs_meta_remove(w, hero, e) && !mt_has_hero(w, e));
    CHECK(ecs_meta_remove(w, mind, e) && !mt_has_mind(w, e) && !ecs_meta_remove(w, mind, e));

    mt_world_time_t *t = ecs_meta_singleton(w, time);
    CHECK(t == mt_singleton_world_time(w));
    CHECK_EQ(t->tick, 7); /* a new world's singletons hold the defaults */

    /* The hash folds values through the table: equal worlds, equal hashes. */
    mt_world_t *v = mt_world_new();
    CHECK(v != NULL);
    if (v) {
        ecs_entity_t f = mt_spawn(v, &(mt_spawn_desc_t){ .body = &b });
        CHECK(f == e);
        CHECK_EQ(mt_world_hash(v), mt_world_hash(w));
        b.pos[1] = 0.25f;
        CHECK(ecs_meta_set(v, body, f, &b));
        CHECK(mt_world_hash(v) != mt_world_hash(w));
        mt_world_free(v);
    }
    CHECK(!ecs_meta_has(w, body, ECS_NULL));
    ecs_entity_t g = mt_spawn(w, NULL); /* slot storage: a slot without the component */
    CHECK(!ecs_meta_has(w, body, g) && ecs_meta_has(w, body, e));
    CHECK(mt_destroy(w, e) && !ecs_meta_has(w, body, e) && !ecs_meta_get(w, body, e, &out));
    mt_world_free(w);
}

/* apply_deferred walks the table: a remove recorded before any value was (no value buffer
 * yet) touches no value (UBSan: no offset on a NULL buffer). */
static void test_apply(void) {
    mt_world_t *w = mt_world_new();
    CHECK(w != NULL);
    if (!w) return;
    ecs_entity_t e = mt_spawn(w, &(mt_spawn_desc_t){ .mind = ecs_meta_find(&mt_meta, "mind")->default_value, .hero = true });
    CHECK(mt_defer_remove_mind(w, e) && mt_defer_remove_hero(w, e));
    CHECK(mt_apply_deferred(w) && !mt_has_mind(w, e) && !mt_has_hero(w, e));
    mt_body_t b = MT_BODY_DEFAULT;
    CHECK(mt_defer_add_body(w, e, b) && mt_defer_add_hero(w, e) && mt_defer_set_body(w, e, b));
    CHECK(mt_apply_deferred(w) && mt_has_body(w, e) && mt_has_hero(w, e));
    mt_world_free(w);
}

/* Changes through the table fire hooks as the typed calls do: add on_add only, set on an
 * entity with the component on_set only, remove on_remove. */
static int hook_calls[3];
static void on_add(mt_world_t *w, ecs_entity_t e, void *user) { (void)w, (void)e, (void)user, hook_calls[0]++; }
static void on_set(mt_world_t *w, ecs_entity_t e, void *user) { (void)w, (void)e, (void)user, hook_calls[1]++; }
static void on_remove(mt_world_t *w, ecs_entity_t e, void *user) { (void)w, (void)e, (void)user, hook_calls[2]++; }

static void test_hooks(void) {
    mt_world_t *w = mt_world_new();
    CHECK(w != NULL);
    if (!w) return;
    const ecs_meta_component_t *mind = ecs_meta_find(&mt_meta, "mind");
    mt_on_mind(w, &(mt_hooks_t){ .on_add = on_add, .on_set = on_set, .on_remove = on_remove });
    ecs_entity_t e = mt_spawn(w, NULL);
    CHECK(ecs_meta_add(w, mind, e, mind->default_value));
    CHECK(hook_calls[0] == 1 && hook_calls[1] == 0 && hook_calls[2] == 0);
    CHECK(ecs_meta_set(w, mind, e, mind->default_value));
    CHECK(hook_calls[0] == 1 && hook_calls[1] == 1 && hook_calls[2] == 0);
    CHECK(ecs_meta_remove(w, mind, e));
    CHECK(hook_calls[0] == 1 && hook_calls[1] == 1 && hook_calls[2] == 1);
    mt_world_free(w);
}

int main(void) {
    test_schema();
    test_components();
    test_access();
    test_apply();
    test_hooks();
    return check_finish("test_meta");
}
