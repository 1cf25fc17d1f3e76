/* test_json_errors.c: one bad document per class of error. Each is refused with the JSON path
 * and the reason, and leaves the world exactly as it was (its saved text is unchanged), also
 * when the error comes after many valid entities or memory runs out part way. */
#include <stdlib.h>
#include <string.h>

#include "ak_ecs.h"
#include "check.h"

static ak_world_t *sample_world(void) {
    ak_world_t *w = ak_world_new();
    ecs_entity_t a = ak_spawn(w, &(ak_spawn_desc_t){ .ints = &(ak_ints_t){ .c = 5 }, .marked = true });
    ecs_entity_t b = ak_spawn(w, &(ak_spawn_desc_t){ .link = &(ak_link_t){ .to = a } });
    ak_destroy(w, a);
    ak_spawn(w, &(ak_spawn_desc_t){ .text = &(ak_text_t){ "hi", "there" }, .link = &(ak_link_t){ .to = b } });
    ak_singleton_counter(w)->n = 42;
    return w;
}

/* The document header, then the entities given. */
#define DOC(entities) "{\"schema\": \"ak\", \"version\": 3, \"entities\": [" entities "]}"
#define E0 "{\"id\": \"0v0\"}, "

static const struct {
    const char *document;
    const char *message; /* err.message is exactly this, or starts with it when it ends in '~' */
} cases[] = {
    /* malformed JSON, with the position */
    { "{\"schema\": \"ak\",\n  \"version\": 3,,}", "line 2, column 17: malformed JSON" },
    { "{\"schema\": \"ak\"", "line 1, column 16: malformed JSON (unexpected end)" },
    { "", "line 1, column 1: malformed JSON (unexpected end)" },
    { "{} {}", "line 1, column 4: malformed JSON" },
    /* wrong types */
    { "[]", "(document): expected an object, got an array" },
    { DOC("{\"id\": \"0v0\", \"reals\": {\"s\": \"abc\"}}"), "entities[0].reals.s: expected number, got \"abc\"" },
    { DOC("{\"id\": \"0v0\", \"flags\": {\"on\": 1}}"), "entities[0].flags.on: expected true or false, got 1" },
    { DOC("{\"id\": \"0v0\", \"text\": {\"tiny\": 7}}"), "entities[0].text.tiny: expected string, got 7" },
    { DOC("{\"id\": \"0v0\", \"ints\": 3}"), "entities[0].ints: expected an object, got 3" },
    { DOC("{\"id\": \"0v0\", \"link\": {\"to\": 5}}"), "entities[0].link.to: expected an entity id like \"5v0\" or null, got 5" },
    { DOC("{\"id\": \"0v0\", \"link\": {\"to\": \"5x0\"}}"), "entities[0].link.to: expected an entity id like \"5v0\" or null, got \"5x0\"" },
    { "{\"schema\": \"ak\", \"version\": 3, \"entities\": {}}", "entities: expected an array, got an object" },
    { DOC("7"), "entities[0]: expected an object, got 7" },
    /* the issue's own example: a string for an i32, at entities[3] */
    { DOC(E0 "{\"id\": \"1v0\"}, {\"id\": \"2v0\"}, {\"id\": \"3v0\", \"ints\": {\"c\": \"abc\"}}"),
      "entities[3].ints.c: expected integer in [-2147483648, 2147483647], got \"abc\"" },
    /* out-of-range integers and fractions */
    { DOC("{\"id\": \"0v0\", \"ints\": {\"a\": 128}}"), "entities[0].ints.a: expected integer in [-128, 127], got 128" },
    { DOC("{\"id\": \"0v0\", \"ints\": {\"e\": -1}}"), "entities[0].ints.e: expected integer in [0, 255], got -1" },
    { DOC("{\"id\": \"0v0\", \"ints\": {\"g\": 4294967296}}"), "entities[0].ints.g: expected integer in [0, 4294967295], got 4294967296" },
    { DOC("{\"id\": \"0v0\", \"ints\": {\"c\": 1.5}}"), "entities[0].ints.c: expected integer in [-2147483648, 2147483647], got 1.5" },
    { DOC("{\"id\": \"0v0\", \"ints\": {\"h\": \"18446744073709551616\"}}"),
      "entities[0].ints.h: expected integer in [0, 18446744073709551615], got \"18446744073709551616\"" },
    { DOC("{\"id\": \"0v0\", \"ints\": {\"d\": \"-9223372036854775809\"}}"), "entities[0].ints.d: expected integer in [-9223372036854775808, 9223372036854775807]~" },
    { DOC("{\"id\": \"0v0\", \"ints\": {\"h\": 9007199254740993}}"),
      "entities[0].ints.h: expected integer in [0, 18446744073709551615], got 9007199254740992 (write integers from 2^53 on as strings~" },
    { DOC("{\"id\": \"0v0\", \"ints\": {\"c\": \"12\"}}"), "entities[0].ints.c: expected integer in [-2147483648, 2147483647], got \"12\"" },
    { DOC("{\"id\": \"0v0\", \"reals\": {\"s\": 1e39}}"), "entities[0].reals.s: expected number in f32 range~" },
    /* NUL inside a string: C strings end there, so the rest would be lost */
    { DOC("{\"id\": \"0v0\", \"text\": {\"tiny\": \"a\\u0000b\"}}"),
      "line 1, column 78: a string holds \\u0000 (C strings end at NUL; the rest would be lost)" },
    /* strings longer than char[N] */
    { DOC("{\"id\": \"0v0\", \"text\": {\"tiny\": \"abcd\"}}"), "entities[0].text.tiny: string of 4 bytes does not fit char[4] (at most 3 bytes)" },
    { DOC("{\"id\": \"0v0\", \"text\": {\"tiny\": \"\\u00e9\\u00e9\"}}"), "entities[0].text.tiny: string of 4 bytes does not fit char[4]~" },
    /* arrays of the wrong length or with a bad element */
    { DOC("{\"id\": \"0v0\", \"flags\": {\"mask\": [true]}}"), "entities[0].flags.mask: expected an array of 3, got an array of 1" },
    { DOC("{\"id\": \"0v0\", \"flags\": {\"mask\": true}}"), "entities[0].flags.mask: expected an array of 3, got true" },
    { DOC("{\"id\": \"0v0\", \"arrays\": {\"i\": [1, \"x\", 3]}}"), "entities[0].arrays.i[1]: expected integer in~" },
    /* enums by name only */
    { DOC("{\"id\": \"0v0\", \"state\": {\"mode\": \"medium\"}}"), "entities[0].state.mode: expected one of off, slow, fast, got \"medium\"" },
    { DOC("{\"id\": \"0v0\", \"state\": {\"mode\": 1}}"), "entities[0].state.mode: expected one of off, slow, fast, got 1" },
    /* unknown components, fields, singletons, top-level keys */
    { DOC("{\"id\": \"0v0\", \"bogus\": {}}"), "entities[0].bogus: unknown component" },
    { DOC("{\"id\": \"0v0\", \"config\": {}}"), "entities[0].config: unknown component" },
    { DOC("{\"id\": \"0v0\", \"ints\": {\"z\": 1}}"), "entities[0].ints.z: unknown field of ints" },
    { "{\"schema\": \"ak\", \"version\": 3, \"singletons\": {\"clock\": {}}}", "singletons.clock: unknown singleton" },
    { "{\"schema\": \"ak\", \"version\": 3, \"singletons\": {\"config\": {\"seed\": -1}}}",
      "singletons.config.seed: expected integer in [0, 18446744073709551615], got -1" },
    { "{\"schema\": \"ak\", \"version\": 3, \"extra\": 1}", "extra: unknown top-level key" },
    /* tags are true */
    { DOC("{\"id\": \"0v0\", \"marked\": 1}"), "entities[0].marked: a tag's value is true, got 1" },
    { DOC("{\"id\": \"0v0\", \"marked\": false}"), "entities[0].marked: a tag's value is true, got false" },
    /* duplicate keys and ids, missing or null ids */
    { DOC("{\"id\": \"0v0\", \"ints\": {\"a\": 1, \"a\": 2}}"), "entities[0].ints.a: duplicate key" },
    { DOC("{\"id\": \"0v0\", \"marked\": true, \"marked\": true}"), "entities[0].marked: duplicate key" },
    { DOC(E0 "{\"id\": \"1v0\"}, {\"id\": \"0v0\"}"), "entities[2].id: duplicate id 0v0: slot 0 is already entities[0] (0v0)" },
    { DOC(E0 "{\"id\": \"0v3\"}"), "entities[1].id: duplicate id 0v3: slot 0 is already entities[0] (0v0)" },
    { DOC("{\"id\": \"1v2\"}, {\"id\": \"0v0\", \"link\": {\"many\": [null, \"1v5\"]}}"),
      "entities[0].id: the document also names 1v5, a later generation of live 1v2's slot" },
    { DOC("{\"ints\": {}}"), "entities[0].id: missing (every entity has an id, e.g. \"5v0\")" },
    { DOC("{\"id\": null}"), "entities[0].id: expected an entity id like \"5v0\", got null" },
    { DOC("{\"id\": \"4294967295v0\"}"), "entities[0].id: expected an entity id like \"5v0\" or null, got \"4294967295v0\"" },
    /* another schema, missing header, a newer version */
    { "{\"schema\": \"game\", \"version\": 1}", "schema: this document is for schema \"game\", not ak" },
    { "{\"version\": 1}", "schema: missing (a saved ak world names its schema)" },
    { "{\"schema\": \"ak\"}", "version: missing (a saved world states its schema version)" },
    { "{\"schema\": \"ak\", \"version\": 4}", "version: document version 4 is newer than schema ak's version 3 (load it with a newer program)" },
    { "{\"schema\": \"ak\", \"version\": 0}", "version: versions start at 1, got 0" },
    { "{\"schema\": \"ak\", \"version\": \"3\"}", "version: expected integer in [0, 4294967295], got \"3\"" },
};

static bool matches(const char *message, const char *expected) {
    size_t n = strlen(expected);
    if (n && expected[n - 1] == '~') return !strncmp(message, expected, n - 1);
    return !strcmp(message, expected);
}

static void test_bad_documents(void) {
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        ak_world_t *w = sample_world();
        char *before = ak_world_to_json(w);
        ecs_error_t err = { "untouched", ECS_ERR_NONE };
        CHECK(!ak_world_from_json(w, cases[k].document, &err));
        if (!matches(err.message, cases[k].message)) {
            fprintf(stderr, "case %zu: got      %s\n         expected %s\n", k, err.message, cases[k].message);
            CHECK(false);
        }
        char *after = ak_world_to_json(w);
        CHECK(!strcmp(before, after));
        free(before);
        free(after);
        ak_world_free(w);
    }
}

/* An error in the last of many entities: nothing of the earlier ones is applied. */
static void test_late_error(void) {
    ak_world_t *w = sample_world();
    char *before = ak_world_to_json(w);
    size_t size = 64 + 1000 * 48;
    char *doc = malloc(size), *p = doc;
    p += sprintf(p, "{\"schema\": \"ak\", \"version\": 3, \"entities\": [");
    for (int k = 0; k < 1000; k++) p += sprintf(p, "{\"id\": \"%dv0\", \"ints\": {\"c\": %d}}, ", k, k);
    sprintf(p, "{\"id\": \"1000v0\", \"hidden\": null}]}");
    ecs_error_t err;
    CHECK(!ak_world_from_json(w, doc, &err));
    CHECK(!strcmp(err.message, "entities[1000].hidden: a tag's value is true, got null"));
    char *after = ak_world_to_json(w);
    CHECK(!strcmp(before, after));
    free(doc);
    free(before);
    free(after);
    ak_world_free(w);
}

/* Missing fields and singletons take the schema's defaults; an older version loads. */
static void test_defaults(void) {
    ak_world_t *w = sample_world();
    ecs_error_t err;
    CHECK(ak_world_from_json(w, "{\"schema\": \"ak\", \"version\": 1, \"entities\": [{\"id\": \"7v2\", \"state\": {}, "
                                "\"text\": {\"tiny\": \"ab\"}, \"reals\": {\"s\": 1}}]}", &err));
    CHECK_EQ(ak_count(w), 1);
    ecs_entity_t e = ecs_entity_make(7, 2);
    CHECK(ak_alive(w, e));
    ak_state_t s = ak_get_state(w, e);
    CHECK(s.mode == AK_STATE_MODE_SLOW && s.level == -7);
    CHECK(!strcmp(ak_get_text(w, e).wide, "dflt \"q\""));
    CHECK(ak_get_reals(w, e).d == 2.5);
    CHECK(ak_singleton_counter(w)->n == 0 && ak_singleton_config(w)->gain == 1.0);
    CHECK(!ak_has_ints(w, e) && !ak_has_marked(w, e));
    ak_world_free(w);
}

/* Out of memory at every allocation in turn: refused, world unchanged, nothing leaked. */
static size_t allocations_left;

static void *failing_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    if (allocations_left == 0) return NULL;
    allocations_left--;
    return realloc(ptr, size);
}

static void test_out_of_memory(void) {
    ak_world_t *source = sample_world();
    for (int k = 0; k < 50; k++) ak_spawn(source, &(ak_spawn_desc_t){ .flags = &(ak_flags_t){ .on = true }, .hidden = true });
    char *doc = ak_world_to_json(source);
    ak_world_free(source);
    ecs_set_allocator(&(ecs_allocator_t){ failing_realloc, NULL });
    bool loaded = false;
    for (size_t budget = 0; !loaded && budget < 10000; budget++) {
        allocations_left = SIZE_MAX;
        ak_world_t *w = sample_world();
        char *before = ak_world_to_json(w);
        allocations_left = budget;
        ecs_error_t err;
        loaded = ak_world_from_json(w, doc, &err);
        allocations_left = SIZE_MAX;
        char *after = ak_world_to_json(w);
        if (!loaded) {
            CHECK(strstr(err.message, "out of memory") != NULL);
            CHECK(!strcmp(before, after));
        } else {
            CHECK(!strcmp(doc, after));
        }
        free(before);
        free(after);
        ak_world_free(w);
    }
    CHECK(loaded);
    ecs_set_allocator(NULL);
    free(doc);
}

int main(void) {
    test_bad_documents();
    test_late_error();
    test_defaults();
    test_out_of_memory();
    return check_finish("test_json_errors");
}
