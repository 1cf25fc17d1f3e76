/* test_json_roundtrip.c: save -> load -> save is byte-identical and every value comes back
 * bit-exact, over many random worlds of tests/json/allkinds.json (every field type, with
 * extreme values weighted in), with ids, references and generations restored. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ak_ecs.h"
#include "check.h"

static uint64_t rng = 0x243F6A8885A308D3u;

static uint64_t next(void) { /* xorshift64* */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Du;
}

static uint64_t below(uint64_t n) {
    return next() % n;
}

/* Half the time an edge of the type's range (min, max, 0, ±1, around 2^53), else random bits. */
static uint64_t pick_bits(int bits, int is_signed) {
    uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1u;
    uint64_t edges[] = { 0, 1, mask, is_signed ? mask >> 1 : mask - 1u, is_signed ? (mask >> 1) + 1u : 2u,
                         UINT64_C(1) << 53, (UINT64_C(1) << 53) - 1u, (UINT64_C(1) << 53) + 1u,
                         (uint64_t)-(int64_t)(UINT64_C(1) << 53) };
    uint64_t v = below(2) ? edges[below(sizeof edges / sizeof *edges)] : next();
    return v & mask;
}

static int64_t pick_signed(int bits) {
    uint64_t v = pick_bits(bits, 1);
    if (bits < 64 && (v >> (bits - 1)) & 1u) v |= ~((UINT64_C(1) << bits) - 1u); /* sign-extend */
    return (int64_t)v;
}

static float pick_f32(void) {
    static const float edges[] = { 0.0f, -0.0f, FLT_MAX, -FLT_MAX, FLT_MIN, FLT_TRUE_MIN, -FLT_TRUE_MIN,
                                   0.1f, 1.0f / 3.0f, 16777217.0f, 0.016666668f, INFINITY, -INFINITY };
    float f;
    do {
        uint32_t bits = (uint32_t)next();
        memcpy(&f, &bits, sizeof f);
        if (below(2)) f = edges[below(sizeof edges / sizeof *edges)];
    } while (isnan(f)); /* NaN payloads are not kept: test_nan checks NaN on its own */
    return f;
}

static double pick_f64(void) {
    static const double edges[] = { 0.0, -0.0, DBL_MAX, -DBL_MAX, DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN,
                                    0.1, 0.1 + 0.2, 9007199254740993.0, 1e308, INFINITY, -INFINITY };
    double d;
    do {
        uint64_t bits = next();
        memcpy(&d, &bits, sizeof d);
        if (below(2)) d = edges[below(sizeof edges / sizeof *edges)];
    } while (isnan(d));
    return d;
}

/* Any bytes but NUL: quotes, backslashes, control characters, UTF-8 (valid or not). */
static void pick_text(char *dst, size_t size) {
    static const char *const pieces[] = { "\"", "\\", "\n", "\t", "\x01", "\x1f", "\x7f", "é", "€", "😀", "/", "a", "\xff" };
    memset(dst, 0, size);
    size_t n = below(size);
    size_t len = 0;
    while (len < n) {
        const char *p = pieces[below(sizeof pieces / sizeof *pieces)];
        size_t k = strlen(p);
        if (below(3) == 0) {
            dst[len++] = (char)(1 + below(255));
            continue;
        }
        if (len + k > n) break;
        memcpy(dst + len, p, k);
        len += k;
    }
}

#define MAX_IDS 512
static ecs_entity_t seen[MAX_IDS]; /* every id the world ever issued */
static size_t seen_count;

static ecs_entity_t pick_ref(void) {
    return seen_count && below(4) ? seen[below(seen_count)] : ECS_NULL;
}

static void fill_entity(ak_world_t *w, ecs_entity_t e) {
    if (below(2)) {
        ak_ints_t v = { (int8_t)pick_signed(8), (int16_t)pick_signed(16), (int32_t)pick_signed(32), pick_signed(64),
                        (uint8_t)pick_bits(8, 0), (uint16_t)pick_bits(16, 0), (uint32_t)pick_bits(32, 0), pick_bits(64, 0) };
        CHECK(ak_set_ints(w, e, v));
    }
    if (below(2)) CHECK(ak_set_reals(w, e, (ak_reals_t){ pick_f32(), pick_f64() }));
    if (below(2)) CHECK(ak_set_flags(w, e, (ak_flags_t){ below(2), { below(2), below(2), below(2) } }));
    if (below(2)) {
        ak_text_t t;
        pick_text(t.tiny, sizeof t.tiny);
        pick_text(t.wide, sizeof t.wide);
        CHECK(ak_set_text(w, e, t));
    }
    if (below(2)) CHECK(ak_set_link(w, e, (ak_link_t){ pick_ref(), { pick_ref(), pick_ref() } }));
    if (below(2)) {
        ak_arrays_t a = { { pick_signed(64), pick_signed(64), pick_signed(64) }, { pick_bits(64, 0), pick_bits(64, 0) },
                          { pick_f32(), pick_f32() }, { pick_f64(), pick_f64() }, { 0 } };
        for (int k = 0; k < 5; k++) a.b[k] = (uint8_t)pick_bits(8, 0);
        CHECK(ak_set_arrays(w, e, a));
    }
    if (below(2)) CHECK(ak_set_state(w, e, (ak_state_t){ (ak_state_mode_t)below(AK_STATE_MODE_COUNT), (int32_t)pick_signed(32) }));
    if (below(3) == 0) CHECK(ak_add_marked(w, e));
    if (below(3) == 0) CHECK(ak_add_hidden(w, e));
}

static ak_world_t *random_world(void) {
    ak_world_t *w = ak_world_new();
    seen_count = 0;
    size_t rounds = below(4);
    for (size_t r = 0; r <= rounds; r++) {
        size_t spawn = below(40);
        for (size_t k = 0; k < spawn && seen_count < MAX_IDS; k++) seen[seen_count++] = ak_spawn(w, NULL);
        for (size_t k = 0; k < seen_count / 3; k++) ak_destroy(w, seen[below(seen_count)]); /* generations move on */
    }
    for (size_t k = 0; k < seen_count; k++)
        if (ak_alive(w, seen[k])) fill_entity(w, seen[k]);
    ak_config_t *config = ak_singleton_config(w);
    config->seed = pick_bits(64, 0);
    config->gain = pick_f64();
    pick_text(config->title, sizeof config->title);
    ak_singleton_counter(w)->n = pick_signed(64);
    return w;
}

/* Field by field, floats by their bits. */
#define SAME(a, b) (memcmp(&(a), &(b), sizeof(a)) == 0)

static void check_same_entity(const ak_world_t *a, const ak_world_t *b, ecs_entity_t e) {
    CHECK(ak_alive(b, e));
#define SAME_COMPONENT(c, ...)                                                              \
    CHECK_EQ(ak_has_##c(a, e), ak_has_##c(b, e));                                           \
    if (ak_has_##c(a, e) && ak_has_##c(b, e)) {                                             \
        ak_##c##_t x = ak_get_##c(a, e), y = ak_get_##c(b, e);                              \
        const char *fields = #__VA_ARGS__;                                                  \
        (void)fields;                                                                       \
        CHECK(__VA_ARGS__);                                                                 \
    }
    SAME_COMPONENT(ints, SAME(x.a, y.a) && SAME(x.b, y.b) && SAME(x.c, y.c) && SAME(x.d, y.d) && SAME(x.e, y.e) &&
                             SAME(x.f, y.f) && SAME(x.g, y.g) && SAME(x.h, y.h))
    SAME_COMPONENT(reals, SAME(x.s, y.s) && SAME(x.d, y.d))
    SAME_COMPONENT(flags, x.on == y.on && !memcmp(x.mask, y.mask, sizeof x.mask))
    SAME_COMPONENT(text, !strcmp(x.tiny, y.tiny) && !strcmp(x.wide, y.wide))
    SAME_COMPONENT(link, x.to == y.to && x.many[0] == y.many[0] && x.many[1] == y.many[1])
    SAME_COMPONENT(arrays, SAME(x.i, y.i) && SAME(x.u, y.u) && SAME(x.f, y.f) && SAME(x.d, y.d) && SAME(x.b, y.b))
    SAME_COMPONENT(state, x.mode == y.mode && x.level == y.level)
    CHECK_EQ(ak_has_marked(a, e), ak_has_marked(b, e));
    CHECK_EQ(ak_has_hidden(a, e), ak_has_hidden(b, e));
}

static void test_random_worlds(int worlds) {
    for (int n = 0; n < worlds; n++) {
        ak_world_t *w = random_world();
        char *first = ak_world_to_json(w);
        CHECK(first != NULL);
        ak_world_t *back = ak_world_new();
        ak_spawn(back, NULL); /* a load replaces whatever was there */
        ecs_error_t err;
        bool ok = ak_world_from_json(back, first, &err);
        CHECK(ok);
        if (!ok) fprintf(stderr, "world %d: %s\n", n, err.message);
        char *second = ak_world_to_json(back);
        CHECK(second && !strcmp(first, second));
        CHECK_EQ(ak_world_hash(back), ak_world_hash(w)); /* the same document: the same hash */
        CHECK_EQ(ak_count(back), ak_count(w));
        for (size_t k = 0; k < seen_count; k++) {
            if (ak_alive(w, seen[k])) check_same_entity(w, back, seen[k]);
        }
        CHECK(SAME(ak_singleton_config(w)->seed, ak_singleton_config(back)->seed));
        CHECK(SAME(ak_singleton_config(w)->gain, ak_singleton_config(back)->gain));
        CHECK(!strcmp(ak_singleton_config(w)->title, ak_singleton_config(back)->title));
        CHECK_EQ(ak_singleton_counter(w)->n, ak_singleton_counter(back)->n);
        /* Ids: new spawns never take an id the document mentions (live, or referenced and
         * stale), so references keep meaning what they meant. */
        static ecs_entity_t mentioned[MAX_IDS * 4];
        size_t m = 0;
        for (size_t k = 0; k < seen_count; k++) {
            if (!ak_alive(w, seen[k])) continue;
            mentioned[m++] = seen[k];
            if (ak_has_link(w, seen[k])) {
                ak_link_t l = ak_get_link(w, seen[k]);
                mentioned[m++] = l.to, mentioned[m++] = l.many[0], mentioned[m++] = l.many[1];
            }
        }
        for (int k = 0; k < 64; k++) {
            ecs_entity_t fresh = ak_spawn(back, NULL);
            CHECK(fresh != ECS_NULL);
            for (size_t j = 0; j < m; j++) CHECK(fresh != mentioned[j]);
        }
        CHECK(ak_world_hash(back) != ak_world_hash(w)); /* 64 more entities */
        free(first);
        free(second);
        ak_world_free(back);
        ak_world_free(w);
    }
}

/* References to destroyed entities stay stale through a load and later spawns. */
static void test_stale_references(void) {
    ak_world_t *w = ak_world_new();
    ecs_entity_t gone[8], keep = ak_spawn(w, NULL);
    for (int k = 0; k < 8; k++) gone[k] = ak_spawn(w, NULL);
    for (int k = 0; k < 8; k++) ak_destroy(w, gone[k]);
    ecs_entity_t holder = ak_spawn(w, NULL); /* reuses a slot: generation 1 */
    CHECK_EQ(ecs_entity_generation(holder), 1);
    ak_set_link(w, holder, (ak_link_t){ gone[3], { keep, gone[7] } });
    char *json = ak_world_to_json(w);
    ak_world_t *back = ak_world_new();
    ecs_error_t err;
    CHECK(ak_world_from_json(back, json, &err));
    CHECK(ak_alive(back, keep) && ak_alive(back, holder));
    ak_link_t link = ak_get_link(back, holder);
    CHECK_EQ(link.to, gone[3]);
    CHECK_EQ(link.many[0], keep);
    for (int k = 0; k < 1000; k++) {
        ecs_entity_t e = ak_spawn(back, NULL);
        CHECK(e != keep && e != holder && e != gone[3] && e != gone[7]);
    }
    CHECK(!ak_alive(back, gone[3]) && !ak_alive(back, gone[7]));
    free(json);
    ak_world_free(back);
    ak_world_free(w);
}

/* NaN has no JSON spelling: it is written as "NaN" and comes back a NaN of the same sign. */
static void test_nan(void) {
    ak_world_t *w = ak_world_new();
    ecs_entity_t e = ak_spawn(w, &(ak_spawn_desc_t){ .reals = &(ak_reals_t){ NAN, -NAN } });
    char *json = ak_world_to_json(w);
    CHECK(strstr(json, "\"s\":\t\"NaN\"") != NULL);
    CHECK(strstr(json, "\"d\":\t\"-NaN\"") != NULL);
    ecs_error_t err;
    CHECK(ak_world_from_json(w, json, &err));
    ak_reals_t r = ak_get_reals(w, e);
    CHECK(isnan(r.s) && !signbit(r.s));
    CHECK(isnan(r.d) && signbit(r.d));
    char *again = ak_world_to_json(w);
    CHECK(!strcmp(json, again));
    free(json);
    free(again);
    ak_world_free(w);
}

/* The spellings chosen for the format, exactly. */
static void test_spellings(void) {
    ak_world_t *w = ak_world_new();
    ecs_entity_t e = ak_spawn(w, &(ak_spawn_desc_t){
        .ints = &(ak_ints_t){ .d = INT64_MIN, .h = UINT64_MAX, .g = UINT32_MAX },
        .reals = &(ak_reals_t){ 0.1f, 0.1 + 0.2 },
        .state = &(ak_state_t){ AK_STATE_MODE_FAST, 0 },
        .marked = true,
    });
    char *line = ak_entity_to_json(w, e);
    CHECK(line && !strcmp(line, "{\"id\":\"0v0\",\"ints\":{\"a\":0,\"b\":0,\"c\":0,\"d\":\"-9223372036854775808\",\"e\":0,"
                                "\"f\":0,\"g\":4294967295,\"h\":\"18446744073709551615\"},\"reals\":{\"s\":0.1,"
                                "\"d\":0.30000000000000004},\"state\":{\"mode\":\"fast\",\"level\":0},\"marked\":true}"));
    if (line) printf("%s\n", line);
    free(line);
    ak_destroy(w, e);
    CHECK(ak_entity_to_json(w, e) == NULL);
    ak_world_free(w);
}

/* world_hash: independent of the order of the calls that built the world and of what the
 * document does not keep (NaN payloads, bytes after a string's NUL); one changed value or
 * one more tag changes it. */
static void test_hash(void) {
    ak_world_t *a = ak_world_new(), *b = ak_world_new();
    ak_text_t t1 = { "ab", "x" }, t2 = { "ab", "x" };
    t2.wide[5] = 'z'; /* after the NUL: not in the document */
    uint64_t payload = UINT64_C(0x7ff8000000000123);
    double odd_nan;
    memcpy(&odd_nan, &payload, sizeof odd_nan);
    ecs_entity_t ea = ak_spawn(a, &(ak_spawn_desc_t){ .ints = &(ak_ints_t){ .c = 5 }, .text = &t1,
                                                     .reals = &(ak_reals_t){ 1.5f, NAN } });
    ecs_entity_t eb = ak_spawn(b, &(ak_spawn_desc_t){ .reals = &(ak_reals_t){ 1.5f, odd_nan } });
    CHECK_EQ(ea, eb);
    CHECK(ak_add_text(b, eb, t2));
    CHECK(ak_add_ints(b, eb, (ak_ints_t){ .c = 5 }));
    ak_singleton_counter(a)->n = ak_singleton_counter(b)->n = 3;
    char *ja = ak_world_to_json(a), *jb = ak_world_to_json(b);
    CHECK(!strcmp(ja, jb));
    CHECK_EQ(ak_world_hash(a), ak_world_hash(b));
    uint64_t before = ak_world_hash(b);
    CHECK(ak_set_ints(b, eb, (ak_ints_t){ .c = 6 }));
    CHECK(ak_world_hash(b) != before);
    CHECK(ak_set_ints(b, eb, (ak_ints_t){ .c = 5 }));
    CHECK_EQ(ak_world_hash(b), before);
    CHECK(ak_add_marked(b, eb));
    CHECK(ak_world_hash(b) != before);
    CHECK(ak_remove_marked(b, eb));
    ak_singleton_counter(b)->n = 4;
    CHECK(ak_world_hash(b) != before);
    free(ja);
    free(jb);
    ak_world_free(a);
    ak_world_free(b);
}

/* Save never writes what load refuses: an enum value outside the enum (set from C) is saved
 * as its number and comes back as it was. */
static void test_enum_out_of_range(void) {
    ak_world_t *w = ak_world_new();
    ecs_entity_t e = ak_spawn(w, &(ak_spawn_desc_t){ .state = &(ak_state_t){ .mode = (ak_state_mode_t)7, .level = 1 } });
    char *json = ak_world_to_json(w);
    CHECK(strstr(json, "\"mode\":\t7") != NULL);
    ecs_error_t err;
    ak_world_t *back = ak_world_new();
    CHECK(ak_world_from_json(back, json, &err));
    CHECK_EQ((int)ak_get_state(back, e).mode, 7);
    char *again = ak_world_to_json(back);
    CHECK(!strcmp(json, again));
    CHECK(!ak_world_from_json(back, "{\"schema\": \"ak\", \"version\": 1, \"entities\": [{\"id\": \"0v0\", \"state\": {\"mode\": 1.5}}]}", &err));
    CHECK(strstr(err.message, "entities[0].state.mode: expected one of off, slow, fast") != NULL);
    free(json);
    free(again);
    ak_world_free(back);
    ak_world_free(w);
}

/* The dangling-reference rule: an id the world never issued (a later generation of a live
 * slot, e.g. another world's id) is saved as null, so the save loads; a stale id the world
 * did issue is kept, and stays stale. */
static void test_foreign_reference(void) {
    ak_world_t *w = ak_world_new();
    ecs_entity_t a = ak_spawn(w, NULL);
    ecs_entity_t gone = ak_spawn(w, NULL);
    CHECK(ak_destroy(w, gone));
    ecs_entity_t foreign = ecs_entity_make(ecs_entity_index(a), 5);
    ecs_entity_t e = ak_spawn(w, &(ak_spawn_desc_t){ .link = &(ak_link_t){ .to = foreign, .many = { gone, a } } });
    char *json = ak_world_to_json(w);
    CHECK(strstr(json, "\"to\":\tnull") != NULL);
    ecs_error_t err;
    ak_world_t *back = ak_world_new();
    CHECK(ak_world_from_json(back, json, &err));
    ak_link_t l = ak_get_link(back, e);
    CHECK_EQ(l.to, ECS_NULL);
    CHECK_EQ(l.many[0], gone);
    CHECK(!ak_alive(back, gone));
    CHECK_EQ(l.many[1], a);
    free(json);
    ak_world_free(back);
    ak_world_free(w);
}

int main(void) {
    test_random_worlds(300);
    test_stale_references();
    test_nan();
    test_spellings();
    test_hash();
    test_enum_out_of_range();
    test_foreign_reference();
    return check_finish("test_json_roundtrip");
}
