/* test_api.c: the generated API (README.md, "A tour") on the kitchen schema (tests/schemas/kitchen.json):
 * worlds, spawn, prefabs, the component calls, defaults, singletons (and their entity fields
 * through a JSON load), direct field access, and the iteration macros with changes inside the
 * loop. The other JSON tests are in tests/json. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kit_ecs.h"

#define CHECK_STR(a, b) CHECK(strcmp((a), (b)) == 0)

static void test_world_and_spawn(void) {
    kit_world_t *w = kit_world_new();
    CHECK(w != NULL);
    CHECK_EQ(kit_count(w), 0);

    ecs_entity_t bare = kit_spawn(w, NULL);
    CHECK(bare != ECS_NULL);
    CHECK(kit_alive(w, bare));
    CHECK_EQ(kit_count(w), 1);
    CHECK(!kit_has_scalars(w, bare) && !kit_has_floats(w, bare) && !kit_has_label(w, bare));
    CHECK(!kit_has_arrays(w, bare) && !kit_has_state(w, bare) && !kit_has_link(w, bare));
    CHECK(!kit_has_pos(w, bare) && !kit_has_vel(w, bare));
    CHECK(!kit_has_hidden(w, bare) && !kit_has_marked(w, bare));

    ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){
        .pos = &(kit_pos_t){ 1.25, -2 },
        .vel = &KIT_VEL_DEFAULT,
        .label = &(kit_label_t){ .text = "hello" },
        .link = &(kit_link_t){ bare },
        .hidden = true,
    });
    CHECK(e != ECS_NULL && e != bare);
    CHECK_EQ(kit_count(w), 2);
    CHECK(kit_has_pos(w, e) && kit_has_vel(w, e) && kit_has_label(w, e) && kit_has_link(w, e));
    CHECK(kit_has_hidden(w, e));
    CHECK(!kit_has_marked(w, e) && !kit_has_scalars(w, e) && !kit_has_state(w, e));
    CHECK(kit_get_pos(w, e).x == 1.25);
    CHECK(kit_get_pos(w, e).y == -2);
    CHECK_EQ(kit_get_vel(w, e).dx, 0);
    CHECK_EQ(kit_get_vel(w, e).dy, 3);
    kit_label_t label = kit_get_label(w, e);
    CHECK_STR(label.text, "hello");
    CHECK_STR(label.trigraph, ""); /* given in C: omitted fields are zero, not defaults */
    CHECK_EQ(kit_get_link(w, e).other, bare);

    /* An empty desc (all NULL / false) is like NULL. */
    ecs_entity_t empty = kit_spawn(w, &(kit_spawn_desc_t){ 0 });
    CHECK(kit_alive(w, empty) && !kit_has_pos(w, empty) && !kit_has_hidden(w, empty));
    CHECK_EQ(kit_count(w), 3);
    kit_world_free(w);
    kit_world_free(NULL); /* ignored */
}

static void check_scalars_default(kit_scalars_t v) {
    CHECK(v.flag == true);
    CHECK_EQ(v.s8, INT8_MIN);
    CHECK_EQ(v.s16, INT16_MAX);
    CHECK_EQ(v.s32, INT32_MIN);
    CHECK(v.s64 == INT64_MIN);
    CHECK_EQ(v.u8, UINT8_MAX);
    CHECK_EQ(v.u16, UINT16_MAX);
    CHECK_EQ(v.u32, UINT32_MAX);
    CHECK(v.u64 == UINT64_MAX);
    CHECK(v.f32 == 0.0f && signbit(v.f32)); /* -0.0 */
    CHECK(v.f64 == 5e-324 && v.f64 > 0);     /* the smallest subnormal double */
    CHECK_EQ(v.who, ECS_NULL);
}

static void check_arrays_default(const kit_arrays_t *a, bool ints_too) {
    if (ints_too) {
        CHECK_EQ(a->ints[0], INT32_MIN);
        CHECK_EQ(a->ints[1], 0);
        CHECK_EQ(a->ints[2], INT32_MAX);
    }
    CHECK(a->flags[0] && !a->flags[1] && a->flags[2] && a->flags[3]);
    CHECK(a->refs[0] == ECS_NULL && a->refs[1] == ECS_NULL);
    CHECK(a->wide[0] == 0 && a->wide[1] == UINT64_MAX);
    CHECK(a->longs[0] == INT64_MIN && a->longs[1] == INT64_MAX);
    CHECK(a->bytes[0] == 1 && a->bytes[3] == 4 && a->bytes[4] == 255);
    CHECK(a->halves[0] == INT16_MIN && a->halves[1] == INT16_MAX);
    CHECK(a->reals[0] == 0.0 && signbit(a->reals[0]) && a->reals[1] == 1e308);
    CHECK(a->singles[0] == 0.0f && !signbit(a->singles[0]) && a->singles[1] == 0.0f);
    CHECK(a->tiny[0] == INT8_MIN && a->tiny[1] == INT8_MAX);
    CHECK(a->shorts[0] == 0 && a->shorts[1] == 1 && a->shorts[2] == UINT16_MAX);
    CHECK(a->words[0] == 2147483648u && a->words[1] == UINT32_MAX);
}

static void test_defaults(void) {
    kit_scalars_t s = KIT_SCALARS_DEFAULT;
    check_scalars_default(s);
    check_scalars_default(*&KIT_SCALARS_DEFAULT);

    kit_floats_t f = KIT_FLOATS_DEFAULT;
    CHECK(f.tiny32 == FLT_TRUE_MIN);
    CHECK(f.huge32 == FLT_MAX);
    CHECK(f.tenth32 == 0.1f);
    CHECK(f.huge64 == DBL_MAX);
    CHECK(f.neg64 == 0.0 && signbit(f.neg64));
    CHECK(f.tenth64 == 0.1);
    CHECK(f.plain == 0.0 && !signbit(f.plain));

    kit_label_t l = KIT_LABEL_DEFAULT;
    /* quotes, a backslash and UTF-8 (é, ✓) byte for byte */
    CHECK_STR(l.text, "say \"hi\"\\ n\xc3\xa9 \xe2\x9c\x93");
    CHECK_EQ(strlen(l.text), 17);
    CHECK_EQ(l.empty[0], 0);
    CHECK_STR(l.trigraph, "?" "?=?\t"); /* no trigraph replacement */
    CHECK_STR(l.blank, "");

    kit_arrays_t a = KIT_ARRAYS_DEFAULT;
    check_arrays_default(&a, true);
    check_arrays_default(&KIT_ARRAYS_DEFAULT, true);

    kit_state_t st = KIT_STATE_DEFAULT;
    CHECK_EQ(st.mode, KIT_STATE_MODE_ON);
    CHECK_EQ(st.phase, KIT_STATE_PHASE_FIRST);
    CHECK_EQ(KIT_STATE_MODE_OFF, 0);
    CHECK_EQ(KIT_STATE_MODE_WARMING, 1);
    CHECK_EQ(KIT_STATE_MODE_COUNT, 3);
    CHECK_EQ(KIT_LINK_DEFAULT.other, ECS_NULL);
    const kit_pos_t *p = &KIT_POS_DEFAULT;
    CHECK(p->x == 0.0 && p->y == -1.5);
    kit_vel_t v = KIT_VEL_DEFAULT;
    CHECK(v.dx == 0 && v.dy == 3);
    kit_counter_t c = KIT_COUNTER_DEFAULT;
    CHECK(c.ticks == 0 && c.last == ECS_NULL);

    /* Defaults go in through spawn and set unchanged. */
    kit_world_t *w = kit_world_new();
    ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){
        .scalars = &KIT_SCALARS_DEFAULT, .floats = &KIT_FLOATS_DEFAULT, .arrays = &KIT_ARRAYS_DEFAULT });
    check_scalars_default(kit_get_scalars(w, e));
    CHECK(kit_get_floats(w, e).huge32 == FLT_MAX);
    CHECK(signbit(kit_get_floats(w, e).neg64));
    kit_arrays_t got = kit_get_arrays(w, e);
    check_arrays_default(&got, true);
    CHECK(kit_set_label(w, e, KIT_LABEL_DEFAULT));
    CHECK_STR(kit_get_label(w, e).text, "say \"hi\"\\ n\xc3\xa9 \xe2\x9c\x93");
    kit_world_free(w);
}

static void test_prefabs(void) {
    kit_world_t *w = kit_world_new();
    ecs_entity_t crate = kit_spawn_crate(w);
    CHECK(kit_alive(w, crate));
    CHECK(kit_has_scalars(w, crate) && kit_has_label(w, crate) && kit_has_hidden(w, crate));
    CHECK(!kit_has_pos(w, crate) && !kit_has_marked(w, crate) && !kit_has_arrays(w, crate));
    check_scalars_default(kit_get_scalars(w, crate)); /* "scalars": {} takes every default */
    kit_label_t l = kit_get_label(w, crate);
    CHECK_STR(l.text, "crate");
    CHECK_STR(l.trigraph, "?" "?=?\t"); /* fields the prefab leaves out take defaults */

    ecs_entity_t beacon = kit_spawn_beacon(w);
    CHECK(beacon != crate);
    CHECK(kit_has_scalars(w, beacon) && kit_has_arrays(w, beacon) && kit_has_state(w, beacon));
    CHECK(kit_has_pos(w, beacon) && kit_has_link(w, beacon) && kit_has_marked(w, beacon));
    CHECK(!kit_has_hidden(w, beacon) && !kit_has_label(w, beacon) && !kit_has_vel(w, beacon));
    kit_scalars_t s = kit_get_scalars(w, beacon);
    CHECK_EQ(s.s32, 7);
    CHECK(s.f32 == 1.5f);
    s.s32 = INT32_MIN; /* the rest are the defaults */
    s.f32 = -0.0f;
    check_scalars_default(s);
    kit_arrays_t a = kit_get_arrays(w, beacon);
    CHECK(a.ints[0] == 1 && a.ints[1] == 2 && a.ints[2] == 3);
    check_arrays_default(&a, false);
    CHECK_EQ(kit_get_state(w, beacon).mode, KIT_STATE_MODE_WARMING);
    CHECK_EQ(kit_get_state(w, beacon).phase, KIT_STATE_PHASE_FIRST);
    CHECK(kit_get_pos(w, beacon).x == 2.5 && kit_get_pos(w, beacon).y == -1.5);
    CHECK_EQ(kit_get_link(w, beacon).other, ECS_NULL);
    CHECK_EQ(kit_count(w), 2);

    /* Prefab entities are ordinary: changing one leaves the next prefab spawn as declared. */
    CHECK(kit_set_pos(w, beacon, (kit_pos_t){ 9, 9 }));
    ecs_entity_t beacon2 = kit_spawn_beacon(w);
    CHECK(kit_get_pos(w, beacon2).x == 2.5);
    kit_world_free(w);
}

static void test_destroy_alive_count(void) {
    kit_world_t *w = kit_world_new();
    ecs_entity_t a = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &KIT_POS_DEFAULT, .marked = true });
    ecs_entity_t b = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &(kit_pos_t){ 5, 6 } });
    CHECK_EQ(kit_count(w), 2);
    CHECK(!kit_alive(w, ECS_NULL));
    CHECK(!kit_destroy(w, ECS_NULL));

    CHECK(kit_destroy(w, a));
    CHECK(!kit_alive(w, a));
    CHECK_EQ(kit_count(w), 1);
    CHECK(!kit_destroy(w, a));
    CHECK_EQ(kit_count(w), 1);
    CHECK_EQ(w->components.pos.set.count, 1); /* its components went with it */
    CHECK_EQ(kit_count_marked(w), 0);
    CHECK(kit_get_pos(w, b).x == 5); /* the other entity's value moved rows intact */

    /* a's slot is reused: the stale id sees nothing of the new entity and changes nothing. */
    ecs_entity_t c = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &(kit_pos_t){ 7, 8 }, .marked = true });
    CHECK_EQ(ecs_entity_index(c), ecs_entity_index(a));
    CHECK(c != a);
    CHECK(kit_alive(w, c) && !kit_alive(w, a));
    CHECK(!kit_has_pos(w, a) && !kit_has_marked(w, a));
    CHECK(!kit_set_pos(w, a, (kit_pos_t){ 0, 0 }));
    CHECK(!kit_add_vel(w, a, KIT_VEL_DEFAULT));
    CHECK(!kit_add_hidden(w, a));
    CHECK(!kit_remove_pos(w, a));
    CHECK(!kit_remove_marked(w, a));
    CHECK(kit_ref_pos(w, a).x == NULL);
    CHECK(!kit_destroy(w, a));
    CHECK(kit_get_pos(w, c).x == 7);
    CHECK(kit_has_marked(w, c) && !kit_has_vel(w, c) && !kit_has_hidden(w, c));
    CHECK_EQ(kit_count_vel(w), 0);
    CHECK_EQ(kit_count(w), 2);

    /* Ids never issued by this world. */
    CHECK(!kit_alive(w, ecs_entity_make(500, 0)));
    CHECK(!kit_has_pos(w, ecs_entity_make(500, 0)));
    CHECK(!kit_set_pos(w, ecs_entity_make(500, 0), KIT_POS_DEFAULT));
    CHECK(!kit_has_pos(w, ECS_NULL));
    CHECK(!kit_add_pos(w, ECS_NULL, KIT_POS_DEFAULT));
    CHECK_EQ(kit_count(w), 2);
    kit_world_free(w);
}

/* Destroy visits only the pools of the classes an entity's mark names (pool index % 8): in
 * kitchen, scalars (pool 0) and hidden (pool 8) share a class. A remove leaves the mark, a
 * load sets it again through the inserts: every case still takes the entity out of every
 * pool it is in, and no other entity out of any. */
static void test_destroy_pools_by_mark(void) {
    kit_world_t *w = kit_world_new();
    ecs_entity_t both = kit_spawn(w, &(kit_spawn_desc_t){ .scalars = &KIT_SCALARS_DEFAULT, .hidden = true });
    ecs_entity_t hidden = kit_spawn(w, &(kit_spawn_desc_t){ .hidden = true, .pos = &KIT_POS_DEFAULT });
    ecs_entity_t scalars = kit_spawn(w, &(kit_spawn_desc_t){ .scalars = &KIT_SCALARS_DEFAULT });
    ecs_entity_t other = kit_spawn(w, &(kit_spawn_desc_t){ .floats = &KIT_FLOATS_DEFAULT, .hidden = true });
    CHECK_EQ(w->entities.mark[ecs_entity_index(both)], 1u << 0); /* one class for both pools */
    CHECK(kit_remove_scalars(w, both));
    CHECK_EQ(w->entities.mark[ecs_entity_index(both)], 1u << 0); /* hidden is still there */
    CHECK(kit_destroy(w, both));
    CHECK_EQ(w->components.hidden.set.count, 2);
    CHECK(kit_remove_hidden(w, hidden)); /* the mark now names a class the entity has nothing of */
    CHECK(kit_destroy(w, hidden));
    CHECK_EQ(w->components.hidden.set.count, 1);
    CHECK_EQ(w->components.scalars.set.count, 1);
    CHECK_EQ(w->components.pos.set.count, 0);
    /* Through a save and a load, whose inserts mark the loaded entities. */
    char *json = kit_world_to_json(w);
    CHECK(json != NULL);
    kit_world_t *back = kit_world_new();
    ecs_error_t err = { 0 };
    CHECK(kit_world_from_json(back, json, &err));
    free(json);
    CHECK_EQ(back->entities.mark[ecs_entity_index(other)], (1u << 1) | (1u << 0)); /* floats, hidden */
    CHECK(kit_destroy(back, other));
    CHECK_EQ(back->components.hidden.set.count, 0);
    CHECK_EQ(back->components.floats.set.count, 0);
    CHECK(kit_has_scalars(back, scalars));
    CHECK(kit_destroy(back, scalars));
    CHECK_EQ(back->components.scalars.set.count, 0);
    CHECK_EQ(kit_count(back), 0);
    /* The slot a destroy frees is handed out unmarked. */
    ecs_entity_t again = kit_spawn(back, &(kit_spawn_desc_t){ .marked = true });
    CHECK_EQ(back->entities.mark[ecs_entity_index(again)], 0); /* marked has slot storage: no mark */
    CHECK(!kit_has_hidden(back, again) && !kit_has_scalars(back, again) && kit_has_marked(back, again));
    kit_world_free(back);
    kit_world_free(w);
}

static void test_component_calls(void) {
    kit_world_t *w = kit_world_new();
    ecs_entity_t e = kit_spawn(w, NULL);

    /* add: new component; refused (value unchanged) when already there. */
    CHECK(kit_add_vel(w, e, (kit_vel_t){ 1, 2 }));
    CHECK(kit_has_vel(w, e));
    CHECK(!kit_add_vel(w, e, (kit_vel_t){ 3, 4 }));
    CHECK_EQ(kit_get_vel(w, e).dx, 1);
    CHECK_EQ(kit_count_vel(w), 1);
    /* set overwrites, and adds when absent */
    CHECK(kit_set_vel(w, e, (kit_vel_t){ 5, 6 }));
    CHECK_EQ(kit_get_vel(w, e).dx, 5);
    CHECK_EQ(kit_get_vel(w, e).dy, 6);
    CHECK_EQ(kit_count_vel(w), 1);
    CHECK(kit_set_state(w, e, (kit_state_t){ KIT_STATE_MODE_OFF, KIT_STATE_PHASE_SECOND }));
    CHECK(kit_has_state(w, e));
    CHECK_EQ(kit_get_state(w, e).phase, KIT_STATE_PHASE_SECOND);
    /* remove: true once, then false */
    CHECK(kit_remove_vel(w, e));
    CHECK(!kit_has_vel(w, e));
    CHECK(!kit_remove_vel(w, e));
    CHECK(!kit_remove_floats(w, e)); /* never had it */
    CHECK(kit_add_vel(w, e, (kit_vel_t){ 8, 9 }));
    CHECK_EQ(kit_get_vel(w, e).dx, 8);

    /* Strings and arrays copy whole. */
    kit_label_t l = { .text = "0123456789abcdefghijklm", .blank = "xyz" };
    CHECK(kit_add_label(w, e, l));
    kit_label_t got = kit_get_label(w, e);
    CHECK(memcmp(&got.text, &l.text, sizeof l.text) == 0);
    CHECK_STR(got.blank, "xyz");
    kit_arrays_t arr = { .ints = { -1, -2, -3 }, .flags = { false, true, false, true },
                         .refs = { e, ECS_NULL }, .wide = { UINT64_MAX, 1 }, .longs = { INT64_MIN, -1 },
                         .bytes = { 9, 8, 7, 6, 5 }, .halves = { -7, 7 }, .reals = { 0.5, -0.25 },
                         .singles = { 1e-40f, -3.0f } };
    CHECK(kit_set_arrays(w, e, arr));
    kit_arrays_t back = kit_get_arrays(w, e);
    CHECK(memcmp(back.ints, arr.ints, sizeof arr.ints) == 0);
    CHECK(memcmp(back.flags, arr.flags, sizeof arr.flags) == 0);
    CHECK(back.refs[0] == e && back.wide[0] == UINT64_MAX && back.longs[0] == INT64_MIN);
    CHECK(back.bytes[4] == 5 && back.halves[0] == -7 && back.reals[1] == -0.25);
    CHECK(back.singles[0] == 1e-40f && back.singles[1] == -3.0f);

    /* Extreme scalars round-trip through the pools. */
    kit_scalars_t s = { .flag = false, .s8 = INT8_MAX, .s16 = INT16_MIN, .s32 = INT32_MAX, .s64 = INT64_MAX,
                        .u8 = 1, .u16 = 2, .u32 = 3, .u64 = UINT64_MAX - 1, .f32 = FLT_MAX, .f64 = -DBL_MAX,
                        .who = e };
    CHECK(kit_set_scalars(w, e, s));
    kit_scalars_t sb = kit_get_scalars(w, e);
    CHECK(!sb.flag && sb.s8 == INT8_MAX && sb.s16 == INT16_MIN && sb.s32 == INT32_MAX && sb.s64 == INT64_MAX);
    CHECK(sb.u8 == 1 && sb.u16 == 2 && sb.u32 == 3 && sb.u64 == UINT64_MAX - 1);
    CHECK(sb.f32 == FLT_MAX && sb.f64 == -DBL_MAX && sb.who == e);

    /* Tags: add once, has, remove once. */
    CHECK(kit_add_marked(w, e));
    CHECK(kit_has_marked(w, e));
    CHECK(!kit_add_marked(w, e));
    CHECK_EQ(kit_count_marked(w), 1);
    CHECK(kit_remove_marked(w, e));
    CHECK(!kit_has_marked(w, e));
    CHECK(!kit_remove_marked(w, e));
    CHECK(!kit_remove_hidden(w, e));

    /* Values of many entities stay apart as rows move. */
    ecs_entity_t ids[100];
    for (int i = 0; i < 100; i++) ids[i] = kit_spawn(w, &(kit_spawn_desc_t){ .vel = &(kit_vel_t){ i, -i } });
    for (int i = 0; i < 100; i += 2) CHECK(kit_remove_vel(w, ids[i]));
    int bad = 0;
    for (int i = 0; i < 100; i++) {
        if (i % 2) bad += kit_get_vel(w, ids[i]).dx != i || kit_get_vel(w, ids[i]).dy != -i;
        else bad += kit_has_vel(w, ids[i]);
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(kit_get_vel(w, e).dx, 8);
    kit_world_free(w);
}

static void test_ref(void) {
    kit_world_t *w = kit_world_new();
    ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &(kit_pos_t){ 1, 2 }, .arrays = &KIT_ARRAYS_DEFAULT,
                                                        .label = &(kit_label_t){ .text = "abc" } });
    ecs_entity_t other = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &(kit_pos_t){ 3, 4 } });
    kit_pos_ref_t r = kit_ref_pos(w, e);
    CHECK(r.x != NULL && r.y != NULL);
    CHECK(*r.x == 1 && *r.y == 2);
    *r.x += 10;
    CHECK(kit_get_pos(w, e).x == 11);
    CHECK(kit_get_pos(w, other).x == 3);
    kit_arrays_ref_t ra = kit_ref_arrays(w, e);
    CHECK((*ra.ints)[0] == INT32_MIN);
    (*ra.ints)[1] = 42;
    (*ra.flags)[1] = true;
    CHECK_EQ(kit_get_arrays(w, e).ints[1], 42);
    CHECK(kit_get_arrays(w, e).flags[1]);
    kit_label_ref_t rl = kit_ref_label(w, e);
    CHECK_STR(*rl.text, "abc");
    CHECK_EQ(sizeof *rl.text, 24);

    /* Absent component or stale id: every pointer NULL. */
    kit_vel_ref_t rv = kit_ref_vel(w, e);
    CHECK(rv.dx == NULL && rv.dy == NULL);
    CHECK(kit_ref_arrays(w, other).ints == NULL && kit_ref_arrays(w, other).reals == NULL);
    kit_destroy(w, e);
    r = kit_ref_pos(w, e);
    CHECK(r.x == NULL && r.y == NULL);
    CHECK(kit_ref_label(w, e).text == NULL);
    r = kit_ref_pos(w, ECS_NULL);
    CHECK(r.x == NULL);
    kit_world_free(w);
}

static void test_singletons(void) {
    kit_world_t *w = kit_world_new();
    kit_world_t *w2 = kit_world_new();
    kit_settings_t *s = kit_singleton_settings(w);
    CHECK(s != NULL);
    CHECK(s->seed == UINT64_MAX);
    CHECK(s->gravity == -9.81);
    CHECK_STR(s->title, "kit\\chen");
    CHECK(!s->enabled[0] && s->enabled[1] && !s->enabled[2]);
    CHECK_EQ(s->level, KIT_SETTINGS_LEVEL_HIGH);
    kit_counter_t *c = kit_singleton_counter(w);
    CHECK(c->ticks == 0 && c->last == ECS_NULL);
    /* One instance per world, kept across calls and entity changes. */
    c->ticks = 41;
    c->last = kit_spawn(w, NULL);
    s->seed = 5;
    CHECK(kit_singleton_counter(w) == c);
    kit_destroy(w, c->last);
    CHECK_EQ(kit_singleton_counter(w)->ticks, 41);
    CHECK_EQ(kit_singleton_settings(w)->seed, 5);
    CHECK(kit_singleton_settings(w2)->seed == UINT64_MAX);
    CHECK_EQ(kit_singleton_counter(w2)->ticks, 0);
    CHECK(kit_singleton_counter(w2) != c);
    kit_world_free(w);
    kit_world_free(w2);
}

/* A singleton's entity field is a reference like any other (README.md, "Saving and loading"): after a load it names
 * the same slot generation, so a stale one stays stale however many entities are spawned, also
 * when the document holds no entities at all; and a later generation of a live slot is refused. */
static bool spawns_avoid(kit_world_t *w, ecs_entity_t stale, int spawns) {
    bool ok = !kit_alive(w, stale);
    for (int k = 0; k < spawns; k++) ok = ok && kit_spawn(w, NULL) != stale && !kit_alive(w, stale);
    return ok;
}

static void test_singleton_stale_reference(void) {
    ecs_error_t err = { 0 };
    /* A stale reference beside a live entity, loaded into a fresh world and into the same one. */
    kit_world_t *w = kit_world_new();
    ecs_entity_t gone = kit_spawn(w, NULL), kept = kit_spawn(w, NULL);
    kit_singleton_counter(w)->last = gone;
    CHECK(kit_destroy(w, gone));
    char *json = kit_world_to_json(w);
    for (int same = 0; same < 2; same++) {
        kit_world_t *back = same ? w : kit_world_new();
        CHECK(kit_world_from_json(back, json, &err));
        CHECK_EQ(kit_singleton_counter(back)->last, gone);
        CHECK(kit_alive(back, kept));
        CHECK(spawns_avoid(back, gone, 100));
        if (!same) kit_world_free(back);
    }
    free(json);
    /* No entities: the reference stays stale. */
    kit_world_t *empty = kit_world_new();
    ecs_entity_t once = kit_spawn(empty, NULL);
    kit_singleton_counter(empty)->last = once;
    CHECK(kit_destroy(empty, once));
    json = kit_world_to_json(empty);
    CHECK(strstr(json, "\"entities\":\t[]") != NULL);
    kit_world_t *back = kit_world_new();
    CHECK(kit_world_from_json(back, json, &err));
    CHECK_EQ(kit_singleton_counter(back)->last, once);
    CHECK(spawns_avoid(back, once, 100));
    kit_world_free(back);
    kit_world_free(empty);
    free(json);
    /* No "entities" key at all; the reference has generation 0. */
    const char *bare = "{\"schema\":\"kit\",\"version\":7,\"singletons\":{\"counter\":{\"ticks\":1,\"last\":\"3v0\"}}}";
    CHECK(kit_world_from_json(w, bare, &err));
    CHECK_EQ(kit_count(w), 0);
    CHECK_EQ(kit_singleton_counter(w)->last, ecs_entity_make(3, 0));
    CHECK(spawns_avoid(w, ecs_entity_make(3, 0), 100));
    /* A later generation of a live slot would come alive once that entity is replaced. */
    const char *later = "{\"schema\":\"kit\",\"version\":7,\"singletons\":{\"counter\":{\"last\":\"0v3\"}},"
                        "\"entities\":[{\"id\":\"0v1\"}]}";
    size_t before = kit_count(w);
    CHECK(!kit_world_from_json(w, later, &err));
    CHECK(strstr(err.message, "0v3") != NULL);
    CHECK_EQ(kit_count(w), before);
    kit_world_free(w);
}

/* The schema's max_entities (50000): spawn gives ECS_NULL at the limit and changes nothing;
 * a destroyed entity's slot can be used again. */
static void test_entity_limit(void) {
    kit_world_t *w = kit_world_new();
    ecs_entity_t first = ECS_NULL, e;
    size_t spawned = 0;
    while ((e = kit_spawn(w, spawned % 2 ? NULL : &(kit_spawn_desc_t){ .vel = &KIT_VEL_DEFAULT })) != ECS_NULL) {
        if (!first) first = e;
        if (++spawned > 60000) break;
    }
    CHECK_EQ(spawned, 50000);
    CHECK_EQ(kit_count(w), 50000);
    size_t vels = kit_count_vel(w);
    CHECK_EQ(vels, 25000);
    CHECK_EQ(kit_spawn(w, &(kit_spawn_desc_t){ .vel = &KIT_VEL_DEFAULT, .marked = true }), ECS_NULL);
    CHECK_EQ(kit_spawn_beacon(w), ECS_NULL);
    CHECK_EQ(kit_count(w), 50000);
    CHECK_EQ(kit_count_vel(w), vels);
    CHECK_EQ(kit_count_marked(w), 0);
    CHECK_EQ(w->components.scalars.set.count, 0);
    CHECK(kit_destroy(w, first));
    ecs_entity_t again = kit_spawn_beacon(w);
    CHECK(again != ECS_NULL);
    CHECK_EQ(ecs_entity_index(again), ecs_entity_index(first));
    CHECK(kit_has_marked(w, again));
    CHECK_EQ(kit_spawn(w, NULL), ECS_NULL);
    kit_world_free(w);
}

/* Storage is public: w->components.c.field[row], or w->components.c.rows[row].field for a
 * component with "layout": "struct" (this file is also built on the kitchen schema with every
 * data component so: tests/layout). POOL(c, f, row) spells either. */
#ifdef KIT_STRUCT_LAYOUT
#define POOL(c, f, row) (w->components.c.rows[row].f)
#else
#define POOL(c, f, row) (w->components.c.f[row])
#endif

static void test_direct_access(void) {
    kit_world_t *w = kit_world_new();
    ecs_entity_t a = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &(kit_pos_t){ 1, 10 }, .label = &(kit_label_t){ .text = "a" } });
    ecs_entity_t b = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &(kit_pos_t){ 2, 20 }, .arrays = &KIT_ARRAYS_DEFAULT });
    uint32_t ra = ecs_sparse_row(&w->components.pos.set, a);
    uint32_t rb = ecs_sparse_row(&w->components.pos.set, b);
    CHECK(ra != rb && ra < 2 && rb < 2);
    CHECK(POOL(pos, x, ra) == 1 && POOL(pos, y, rb) == 20);
    CHECK_EQ(ecs_sparse_id(&w->components.pos.set, rb, w->entities.generation), b);
    POOL(pos, y, ra) = -5;
    CHECK(kit_get_pos(w, a).y == -5);
    uint32_t rl = ecs_sparse_row(&w->components.label.set, a);
    CHECK_STR(POOL(label, text, rl), "a");
    uint32_t rr = ecs_sparse_row(&w->components.arrays.set, b);
    POOL(arrays, wide, rr)[0] = 77;
    CHECK(kit_get_arrays(w, b).wide[0] == 77);
    CHECK_EQ(w->entities.alive, 2);
    kit_world_free(w);
}

/* ---- Iteration --------------------------------------------------------------------- */

enum { MANY = 300 };

/* MANY entities with a pattern of components: pos for i%2==0, vel for i%3==0, hidden for
 * i%5==0, marked for i%7==0, link for i%4==0, label for i%11==0. */
static kit_world_t *populate(ecs_entity_t *ids) {
    kit_world_t *w = kit_world_new();
    for (int i = 0; i < MANY; i++) {
        ids[i] = kit_spawn(w, &(kit_spawn_desc_t){
            .pos = i % 2 == 0 ? &(kit_pos_t){ i, 0 } : NULL,
            .vel = i % 3 == 0 ? &(kit_vel_t){ i, 1 } : NULL,
            .link = i % 4 == 0 ? &(kit_link_t){ ECS_NULL } : NULL,
            .label = i % 11 == 0 ? &(kit_label_t){ .text = "x" } : NULL,
            .hidden = i % 5 == 0,
            .marked = i % 7 == 0,
        });
    }
    /* Mix rows up, so pools are not in spawn order. */
    for (int i = 0; i < MANY; i += 6) {
        kit_remove_pos(w, ids[i]);
        kit_add_pos(w, ids[i], (kit_pos_t){ i, 0 });
    }
    return w;
}

/* visits[i] counts the visits of ids[i], strangers those of any other entity; the check is
 * that each ids[i] was visited once exactly when want(i), and no stranger. */
static int visits[MANY];
static int strangers;

/* The position of e in ids (populate's entities are slots 0..MANY-1), or -1. */
static int index_of(const ecs_entity_t *ids, ecs_entity_t e) {
    uint32_t i = ecs_entity_index(e);
    return i < MANY && ids[i] == e ? (int)i : -1;
}

static int visit(const ecs_entity_t *ids, ecs_entity_t e) {
    int i = index_of(ids, e);
    if (i < 0) strangers++;
    else visits[i]++;
    return i;
}

static int count_wrong(bool (*want)(int)) {
    int wrong = strangers;
    for (int i = 0; i < MANY; i++) wrong += visits[i] != (want(i) ? 1 : 0);
    memset(visits, 0, sizeof visits);
    strangers = 0;
    return wrong;
}

static bool want_pos(int i) { return i % 2 == 0; }
static bool want_pos_vel(int i) { return i % 6 == 0; }
static bool want_pos_vel_hidden(int i) { return i % 30 == 0; }
static bool want_visible(int i) { return i % 2 == 0 && i % 5 != 0; }
static bool want_moving(int i) { return i % 6 == 0 && i % 5 != 0 && i % 7 != 0; }
static bool want_linked(int i) { return i % 28 == 0; }
static bool want_labelled(int i) { return i % 11 == 0; }
static bool want_pos_no_vel_label(int i) { return i % 2 == 0 && i % 3 != 0 && i % 11 != 0; }
static bool want_hidden_alive(int i) { return i % 5 == 0 && i % 12 != 0; }
static bool want_marked(int i) { return i % 7 == 0; }

static void test_each(void) {
    ecs_entity_t ids[MANY];
    kit_world_t *w = populate(ids);
    int bad_rows = 0;

    KIT_EACH(w, it, pos) {
        int i = visit(ids, it.id);
        bad_rows += KIT_FIELD(it, pos, x) != i || ecs_sparse_id(&w->components.pos.set, KIT_ROW(it, pos), w->entities.generation) != it.id;
    }
    CHECK_EQ(count_wrong(want_pos), 0);

    KIT_EACH(w, it, pos, vel) {
        int i = visit(ids, it.id);
        bad_rows += KIT_FIELD(it, vel, dx) != i || KIT_FIELD(it, pos, x) != i;
        KIT_FIELD(it, pos, y) += KIT_FIELD(it, vel, dy); /* writes through rows */
    }
    CHECK_EQ(count_wrong(want_pos_vel), 0);
    CHECK(kit_get_pos(w, ids[6]).y == 1 && kit_get_pos(w, ids[2]).y == 0);

    /* Order of the names does not matter; a tag can be named. */
    KIT_EACH(w, it, hidden, vel, pos) visit(ids, it.id);
    CHECK_EQ(count_wrong(want_pos_vel_hidden), 0);

    KIT_EACH_WITHOUT(w, it, (vel, label), pos) visit(ids, it.id);
    CHECK_EQ(count_wrong(want_pos_no_vel_label), 0);

    /* The schema's queries. */
    KIT_EACH_VISIBLE(w, it) {
        visit(ids, it.id);
        bad_rows += ecs_sparse_id(&w->components.pos.set, KIT_ROW(it, pos), w->entities.generation) != it.id;
    }
    CHECK_EQ(count_wrong(want_visible), 0);
    KIT_EACH_MOVING(w, it) {
        visit(ids, it.id);
        bad_rows += KIT_ROW(it, vel) != ecs_entity_index(it.id); /* slot storage: the row is the slot */
    }
    CHECK_EQ(count_wrong(want_moving), 0);
    KIT_EACH_LINKED(w, it) visit(ids, it.id);
    CHECK_EQ(count_wrong(want_linked), 0);
    KIT_EACH_LABELLED(w, it) {
        visit(ids, it.id);
        bad_rows += strcmp(KIT_FIELD(it, label, text), "x") != 0;
    }
    CHECK_EQ(count_wrong(want_labelled), 0);
    CHECK_EQ(bad_rows, 0);

    /* Every pooled component named at once (10 terms): only an entity with all of them. */
    ecs_entity_t full = kit_spawn(w, &(kit_spawn_desc_t){
        .scalars = &KIT_SCALARS_DEFAULT, .floats = &KIT_FLOATS_DEFAULT, .label = &KIT_LABEL_DEFAULT,
        .arrays = &KIT_ARRAYS_DEFAULT, .state = &KIT_STATE_DEFAULT, .link = &KIT_LINK_DEFAULT,
        .pos = &KIT_POS_DEFAULT, .vel = &KIT_VEL_DEFAULT, .hidden = true, .marked = true });
    int all_terms = 0;
    KIT_EACH(w, it, scalars, floats, label, arrays, state, link, pos, vel, hidden, marked) {
        all_terms++;
        CHECK_EQ(it.id, full);
        CHECK_EQ(KIT_FIELD(it, state, mode), KIT_STATE_MODE_ON);
        CHECK_EQ(KIT_FIELD(it, arrays, words)[1], UINT32_MAX);
    }
    CHECK_EQ(all_terms, 1);
    KIT_EACH_WITHOUT(w, it, (scalars, floats, label, arrays, state, link, vel, hidden, marked), pos)
        CHECK(it.id != full && !kit_has_vel(w, it.id) && !kit_has_hidden(w, it.id));
    CHECK(kit_destroy(w, full));

    /* An empty pool: the body never runs. */
    int runs = 0;
    KIT_EACH(w, it, pos, floats) runs++;
    CHECK_EQ(runs, 0);
    kit_world_free(w);
}

static void test_each_break_continue(void) {
    ecs_entity_t ids[MANY];
    kit_world_t *w = populate(ids);
    int runs = 0, bodies = 0;
    KIT_EACH(w, it, pos) {
        if (++runs == 5) break;
    }
    CHECK_EQ(runs, 5);
    runs = 0;
    KIT_EACH(w, it, pos, vel) {
        runs++;
        if (it.id % 2) continue;
        bodies++;
    }
    CHECK_EQ(runs, MANY / 6);
    CHECK(bodies < runs);
    /* break leaves only the inner loop of two nested ones. */
    int outer = 0, inner = 0;
    KIT_EACH(w, a, label) {
        outer++;
        KIT_EACH(w, b, pos) {
            inner++;
            break;
        }
    }
    CHECK_EQ(outer, (MANY + 10) / 11);
    CHECK_EQ(inner, outer);
    /* Nested loops over the same pools, with different iterator names: all pairs. */
    long pairs = 0;
    KIT_EACH(w, a, marked) KIT_EACH(w, b, hidden) pairs++;
    CHECK_EQ(pairs, (long)((MANY + 6) / 7) * ((MANY + 4) / 5));
    kit_world_free(w);
}

/* Destroying the current entity: every match visited exactly once; the others intact. */
static void test_each_destroy_current(void) {
    ecs_entity_t ids[MANY];
    kit_world_t *w = populate(ids);
    size_t before = kit_count(w);
    KIT_EACH(w, it, pos, vel) {
        int i = visit(ids, it.id);
        if (i % 12 == 0) CHECK(kit_destroy(w, it.id));
    }
    CHECK_EQ(count_wrong(want_pos_vel), 0);
    CHECK_EQ(kit_count(w), before - (MANY + 11) / 12);
    int bad = 0;
    for (int i = 0; i < MANY; i++) bad += kit_alive(w, ids[i]) == (i % 12 == 0);
    CHECK_EQ(bad, 0);
    /* Destroying every match, in a loop driven by a tag pool. */
    KIT_EACH(w, it, hidden) {
        visit(ids, it.id);
        kit_destroy(w, it.id);
    }
    CHECK_EQ(count_wrong(want_hidden_alive), 0);
    CHECK_EQ(w->components.hidden.set.count, 0);
    kit_world_free(w);
}

/* Spawning inside the loop: new entities are not visited, even with matching components. */
static void test_each_spawn_inside(void) {
    ecs_entity_t ids[MANY];
    kit_world_t *w = populate(ids);
    int spawned = 0, strangers = 0;
    KIT_EACH(w, it, pos, vel) {
        int i = index_of(ids, it.id);
        if (i < 0) {
            strangers++;
            continue;
        }
        visits[i]++;
        for (int k = 0; k < 3; k++) {
            ecs_entity_t n = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &KIT_POS_DEFAULT, .vel = &KIT_VEL_DEFAULT });
            spawned += n != ECS_NULL;
        }
    }
    CHECK_EQ(strangers, 0);
    CHECK_EQ(count_wrong(want_pos_vel), 0);
    CHECK_EQ(spawned, 3 * (MANY / 6));
    CHECK_EQ(kit_count_vel(w), (MANY + 2) / 3 + spawned);
    /* Destroy the current entity and spawn in its place (the slot is reused at once). */
    int visited = 0;
    KIT_EACH(w, it, label) {
        visited++;
        kit_destroy(w, it.id);
        kit_spawn(w, &(kit_spawn_desc_t){ .label = &(kit_label_t){ .text = "new" } });
    }
    CHECK_EQ(visited, (MANY + 10) / 11);
    int fresh = 0;
    KIT_EACH(w, it, label) fresh += strcmp(KIT_FIELD(it, label, text), "new") == 0;
    CHECK_EQ(fresh, visited);
    kit_world_free(w);
}

/* Removing (and adding) components of the current entity inside the loop. */
static void test_each_remove_inside(void) {
    ecs_entity_t ids[MANY];
    kit_world_t *w = populate(ids);
    /* Half remove pos, half vel: whichever pool the loop walks loses its current member. */
    KIT_EACH(w, it, pos, vel) {
        int i = visit(ids, it.id);
        if (i % 4 == 0) CHECK(kit_remove_pos(w, it.id));
        else CHECK(kit_remove_vel(w, it.id));
    }
    CHECK_EQ(count_wrong(want_pos_vel), 0);
    int left = 0;
    KIT_EACH(w, it, pos, vel) left++;
    CHECK_EQ(left, 0);
    int bad = 0;
    for (int i = 0; i < MANY; i++) {
        if (i % 6) continue;
        bad += kit_has_pos(w, ids[i]) == (i % 4 == 0);
        bad += kit_has_vel(w, ids[i]) != (i % 4 == 0);
    }
    CHECK_EQ(bad, 0);
    /* Removing the walked tag and adding another one that is also named: still once each. */
    KIT_EACH(w, it, marked) {
        visit(ids, it.id);
        kit_remove_marked(w, it.id);
        kit_add_hidden(w, it.id);
    }
    CHECK_EQ(count_wrong(want_marked), 0);
    CHECK_EQ(kit_count_marked(w), 0);
    kit_world_free(w);
}

/* ---- Out of memory ----------------------------------------------------------------- */

/* An allocator that fails once `budget` allocations or resizes have succeeded (-1: never),
 * and counts live blocks. */
static int budget = -1, live_blocks;

static void *budget_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    if (size == 0) {
        live_blocks--;
        free(ptr);
        return NULL;
    }
    if (budget == 0) return NULL;
    if (budget > 0) budget--;
    void *p = realloc(ptr, size);
    if (p && !ptr) live_blocks++;
    return p;
}

/* Total members of every pool: what a failed call must leave as it was. */
static size_t members(const kit_world_t *w) {
    const kit_components_t *c = &w->components;
    return c->scalars.set.count + c->floats.set.count + c->label.set.count + c->arrays.set.count +
           kit_count_state(w) + c->link.set.count + c->pos.set.count + kit_count_vel(w) +
           c->hidden.set.count + kit_count_marked(w);
}

/* Every allocation failing in turn: world_new gives NULL, spawn ECS_NULL, add/set false,
 * and each time the world is as before; nothing leaks. */
static void test_out_of_memory(void) {
    ecs_set_allocator(&(ecs_allocator_t){ budget_realloc, NULL });
    int failures_seen = 0;
    for (int b = 0; b < 40; b++) {
        budget = b;
        live_blocks = 0;
        kit_world_t *w = kit_world_new();
        if (!w) {
            failures_seen++;
            CHECK_EQ(live_blocks, 0);
            continue;
        }
        ecs_entity_t keep = ECS_NULL;
        for (int round = 0; round < 3; round++) {
            size_t count = kit_count(w), before = members(w);
            ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){
                .scalars = &KIT_SCALARS_DEFAULT, .label = &KIT_LABEL_DEFAULT, .arrays = &KIT_ARRAYS_DEFAULT,
                .pos = &KIT_POS_DEFAULT, .vel = &KIT_VEL_DEFAULT, .hidden = true, .marked = true });
            if (e == ECS_NULL) {
                failures_seen++;
                CHECK_EQ(kit_count(w), count);
                CHECK_EQ(members(w), before);
            } else {
                CHECK_EQ(members(w), before + 7);
                if (keep == ECS_NULL) keep = e;
            }
        }
        if (keep != ECS_NULL) {
            size_t before = members(w);
            kit_state_t st = { KIT_STATE_MODE_OFF, KIT_STATE_PHASE_SECOND };
            bool added = kit_add_state(w, keep, st);
            CHECK_EQ(members(w), before + added);
            CHECK_EQ(kit_has_state(w, keep), added);
            bool set = kit_set_floats(w, keep, KIT_FLOATS_DEFAULT);
            CHECK_EQ(kit_has_floats(w, keep), set);
            failures_seen += !added + !set;
            CHECK(kit_get_pos(w, keep).y == -1.5); /* earlier data intact */
        }
        kit_world_free(w);
        CHECK_EQ(live_blocks, 0);
    }
    CHECK(failures_seen > 0);
    budget = -1;
    ecs_set_allocator(NULL);
}

/* Slot storage (vel, state, marked): rows are slot indexes, presence a mask bit; entities
 * with no slot component, spawned after the slot rows exist and in slots beyond them, read
 * as not having one; destroy clears the bits, so a reused slot starts empty. */
static void test_slot_storage(void) {
    kit_world_t *w = kit_world_new();
    CHECK(w != NULL);
    ecs_entity_t a = kit_spawn(w, &(kit_spawn_desc_t){ .vel = &(kit_vel_t){ 1, 2 }, .marked = true });
    ecs_entity_t bare[200];
    for (int k = 0; k < 200; k++) bare[k] = kit_spawn(w, NULL);
    for (int k = 0; k < 200; k++) CHECK(!kit_has_vel(w, bare[k]) && !kit_has_marked(w, bare[k]) && !kit_has_state(w, bare[k]));
    CHECK(kit_has_vel(w, a) && kit_has_marked(w, a));
    CHECK_EQ(kit_get_vel(w, a).dy, 2);
    CHECK_EQ(kit_ref_vel(w, a).dx, &POOL(vel, dx, ecs_entity_index(a))); /* the row is the slot */
    CHECK_EQ(kit_count_vel(w), 1);
    CHECK(kit_add_vel(w, bare[199], (kit_vel_t){ 5, 6 }));
    CHECK(!kit_add_vel(w, bare[199], (kit_vel_t){ 7, 8 })); /* present: add refuses */
    CHECK_EQ(kit_get_vel(w, bare[199]).dx, 5);
    CHECK_EQ(kit_count_vel(w), 2);
    int seen = 0;
    KIT_EACH(w, it, vel) {
        CHECK_EQ(KIT_ROW(it, vel), ecs_entity_index(it.id));
        seen++;
    }
    CHECK_EQ(seen, 2);
    CHECK(kit_destroy(w, a));
    CHECK_EQ(kit_count_vel(w), 1);
    CHECK_EQ(kit_count_marked(w), 0);
    ecs_entity_t reuse = kit_spawn(w, NULL); /* a's slot, reissued */
    CHECK_EQ(ecs_entity_index(reuse), ecs_entity_index(a));
    CHECK(!kit_has_vel(w, reuse) && !kit_has_marked(w, reuse));
    CHECK(kit_remove_vel(w, bare[199]));
    CHECK(!kit_remove_vel(w, bare[199]));
    CHECK_EQ(kit_count_vel(w), 0);
    kit_world_free(w);
}

/* A loop whose components all have slot storage walks runs of matching slots: holes split the
 * runs, break ends the whole loop, continue the step, and a `none` term is still probed. */
static void test_slot_runs(void) {
    kit_world_t *w = kit_world_new();
    CHECK(w != NULL);
    enum { N = 100 };
    ecs_entity_t ids[N];
    for (int k = 0; k < N; k++)
        ids[k] = kit_spawn(w, &(kit_spawn_desc_t){ .vel = &(kit_vel_t){ (float)k, 0 }, .marked = k % 10 != 3 });
    for (int k = 40; k < 45; k++) CHECK(kit_destroy(w, ids[k])); /* a hole of free slots */
    CHECK(kit_add_state(w, ids[50], (kit_state_t){ 0 }));
    int seen = 0, bodies = 0;
    float sum = 0;
    KIT_EACH(w, it, vel, marked) {
        CHECK_EQ(it.vel, ecs_entity_index(it.id));
        CHECK(kit_has_marked(w, it.id));
        seen++;
        if (it.vel % 2) continue;
        bodies++;
        sum += POOL(vel, dx, it.vel);
    }
    int expect = 0, even = 0;
    float expect_sum = 0;
    for (int k = 0; k < N; k++)
        if (k % 10 != 3 && (k < 40 || k >= 45)) {
            expect++;
            if (k % 2 == 0) even++, expect_sum += (float)k;
        }
    CHECK_EQ(seen, expect);
    CHECK_EQ(bodies, even);
    CHECK_EQ(sum, expect_sum);
    int runs = 0;
    KIT_EACH(w, it, vel, marked) {
        if (++runs == 7) break;
    }
    CHECK_EQ(runs, 7);
    runs = 0;
    KIT_EACH(w, it, vel) { /* a break on the last slot of a run still ends the loop: the runs */
        runs++;            /* are 45..99 and 0..39, the upper first, each walked upwards */
        if (ecs_entity_index(it.id) == N - 1) break;
    }
    CHECK_EQ(runs, N - 45);
    seen = 0;
    KIT_EACH_WITHOUT(w, it, (state), vel, marked) {
        CHECK(it.id != ids[50]);
        seen++;
    }
    CHECK_EQ(seen, expect - 1);
    kit_world_free(w);
}

int main(void) {
    test_world_and_spawn();
    test_defaults();
    test_prefabs();
    test_destroy_alive_count();
    test_destroy_pools_by_mark();
    test_component_calls();
    test_ref();
    test_singletons();
    test_singleton_stale_reference();
    test_entity_limit();
    test_direct_access();
    test_each();
    test_each_break_continue();
    test_each_destroy_current();
    test_each_spawn_inside();
    test_each_remove_inside();
    test_out_of_memory();
    test_slot_storage();
    test_slot_runs();
    return check_finish("test_api");
}
