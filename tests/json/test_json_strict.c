/* test_json_strict.c: the loader takes JSON (RFC 8259) only, although cJSON is lenient, and
 * its messages never carry a raw control character from the document (terminal escapes). */
#include <stdlib.h>
#include <string.h>

#include "ak_ecs.h"
#include "check.h"

#define HEAD "{\"schema\": \"ak\", \"version\": 3, \"entities\": [{\"id\": \"0v0\", "

/* Loads text into w, which holds one entity e: refused with exactly `expected` (a '@' in it
 * stands for the column of the first '@' in text, where the fault is), w unchanged. */
static void refused(ak_world_t *w, ecs_entity_t e, const char *text, const char *expected) {
    char doc[512], want[512];
    const char *mark = strchr(text, '@');
    size_t column = mark ? (size_t)(mark - text) + 1 : 0;
    snprintf(doc, sizeof doc, "%s", text);
    char *fault = strchr(doc, '@'); /* only marks the place: the byte after it is the fault */
    if (fault) memmove(fault, fault + 1, strlen(fault + 1) + 1);
    const char *at = strchr(expected, '@');
    if (at) snprintf(want, sizeof want, "%.*s%zu%s", (int)(at - expected), expected, column, at + 1);
    else snprintf(want, sizeof want, "%s", expected);
    ecs_error_t err;
    bool loaded = ak_world_from_json(w, doc, &err);
    CHECK(!loaded);
    if (!loaded && strcmp(err.message, want) != 0) {
        fprintf(stderr, "  text:     %s\n  expected: %s\n  got:      %s\n", doc, want, err.message);
        CHECK(!"the message above");
    }
    CHECK(ak_alive(w, e) && !strcmp(ak_get_text(w, e).wide, "kept"));
}

/* No byte of s is a C0 control or DEL, and no character a C1 control. */
static bool printable(const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0)) return false;
    return true;
}

static void test_not_json_is_refused(ak_world_t *w, ecs_entity_t e) {
    /* Raw control characters inside strings: JSON escapes them. */
    refused(w, e, HEAD "\"text\": {\"wide\": \"a@\tb\"}}]}",
            "line 1, column @: malformed JSON: a raw control character (U+0009) in a string (JSON writes it as \\u0009)");
    refused(w, e, HEAD "\"text\": {\"wide\": \"a@\nb\"}}]}",
            "line 1, column @: malformed JSON: a raw control character (U+000A) in a string (JSON writes it as \\u000a)");
    refused(w, e, HEAD "\"text\": {\"wide\": \"a@\x01\"}}]}",
            "line 1, column @: malformed JSON: a raw control character (U+0001) in a string (JSON writes it as \\u0001)");
    refused(w, e, HEAD "\"te@\x1bxt\": {}}]}",
            "line 1, column @: malformed JSON: a raw control character (U+001B) in a string (JSON writes it as \\u001b)");
    /* Numbers JSON does not have. */
    refused(w, e, HEAD "\"ints\": {\"a\": @03}}]}",
            "line 1, column @: malformed JSON: a number with a leading zero (JSON has no octal)");
    refused(w, e, HEAD "\"ints\": {\"a\": -@00}}]}",
            "line 1, column @: malformed JSON: a number with a leading zero (JSON has no octal)");
    refused(w, e, HEAD "\"ints\": {\"a\": 3.@}}]}",
            "line 1, column @: malformed JSON: a digit must follow a number's '.'");
    refused(w, e, HEAD "\"reals\": {\"s\": 1.@e5}}]}",
            "line 1, column @: malformed JSON: a digit must follow a number's '.'");
    /* Whitespace is space, tab, CR and LF only (cJSON skips every byte up to space). */
    refused(w, e, "{\"schema\": \"ak\",@\f\"version\": 3}",
            "line 1, column @: malformed JSON: expected a key in double quotes");
    refused(w, e, "{\"schema\": \"ak\", \"version\": 3}@\x01",
            "line 1, column @: malformed JSON: text after the document (only spaces, tabs and line breaks may follow)");
    /* Nesting deeper than 1000 levels (cJSON's limit too). */
    char deep[2100];
    memset(deep, '[', 1001);
    memset(deep + 1001, ']', 1001);
    deep[2002] = '\0';
    ecs_error_t err;
    CHECK(!ak_world_from_json(w, deep, &err) && strstr(err.message, "malformed JSON") != NULL);
    deep[1000] = ' ', deep[1001] = ' '; /* 1000 levels: JSON, but not a saved world */
    CHECK(!ak_world_from_json(w, deep, &err));
    CHECK(!strcmp(err.message, "(document): expected an object, got an array"));
    CHECK(ak_alive(w, e));
    /* The position counts lines. */
    refused(w, e, "{\"schema\": \"ak\",\n \"version\": 3, \"entities\": [{\"id\": \"0v0\", \"ints\": {\"a\": 3.}}]}",
            "line 2, column 59: malformed JSON: a digit must follow a number's '.'");
}

static void test_json_still_loads(void) {
    ak_world_t *w = ak_world_new();
    ecs_error_t err;
    /* Every escape, exponents, negative zero, a byte order mark, all whitespace kinds. */
    const char *text = "\xEF\xBB\xBF \t\r\n{\"schema\": \"ak\", \"version\": 3, \"entities\": [{\"id\": \"0v0\","
                       " \"text\": {\"wide\": \"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00 \x7f\xc3\xa9\"},"
                       " \"reals\": {\"s\": -0, \"d\": 1.5E-3}, \"ints\": {\"a\": -0, \"b\": 0, \"c\": 1e2}}]}\n";
    CHECK(ak_world_from_json(w, text, &err));
    ecs_entity_t e = ecs_entity_make(0, 0);
    CHECK(!strcmp(ak_get_text(w, e).wide, "\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80 \x7f\xc3\xa9"));
    CHECK(ak_get_reals(w, e).d == 1.5e-3 && ak_get_ints(w, e).c == 100);
    /* And what a save writes (every control character in a string escaped) loads back. */
    ak_set_text(w, e, (ak_text_t){ "\x01\x1f", "\x1b[31m\t\x7f" });
    char *saved = ak_world_to_json(w);
    ak_world_t *back = ak_world_new();
    CHECK(ak_world_from_json(back, saved, &err));
    CHECK(!strcmp(ak_get_text(back, e).wide, "\x1b[31m\t\x7f") && !strcmp(ak_get_text(back, e).tiny, "\x01\x1f"));
    free(saved);
    ak_world_free(back);
    ak_world_free(w);
}

static void test_messages_escape_control_characters(ak_world_t *w, ecs_entity_t e) {
    /* Keys and values echoed in messages: escaped (\u001b, \u009b, \x9b), never raw. */
    refused(w, e, HEAD "\"\\u001b[2Jred\": true}]}", "entities[0].\\u001b[2Jred: unknown component");
    refused(w, e, HEAD "\"\\u009b31m\": true}]}", "entities[0].\\u009b31m: unknown component");
    refused(w, e, HEAD "\"\x9b" "31m\xc3\xa9\": true}]}", "entities[0].\\x9b31m\xc3\xa9: unknown component");
    refused(w, e, HEAD "\"link\": {\"to\": \"\\u001b]0;title\\u0007\"}}]}",
            "entities[0].link.to: expected an entity id like \"5v0\" or null, got \"\\u001b]0;title\\u0007\"");
    refused(w, e, HEAD "\"link\": {\"to\": \"\\u001b\\u001b\\u001b\\u001b\\u001b\\u001b\\u001b\\u001b\\u001b\"}}]}",
            "entities[0].link.to: expected an entity id like \"5v0\" or null, got \"\\u001b\\u001b\\u001b\\u001b\\u001b\\u001b...\"");
    /* A file's path, too. */
    ecs_error_t err;
    CHECK(!ak_world_load(w, "/nonexistent/\x1b[2J.json", &err));
    CHECK(!strcmp(err.message, "/nonexistent/\\u001b[2J.json: cannot open (No such file or directory)"));
    CHECK(!ak_world_save(w, "/nonexistent/\x1b[2J.json", &err));
    CHECK(!strncmp(err.message, "/nonexistent/\\u001b[2J.json: ", 29));
    CHECK(printable(err.message));
    /* A long key full of escapes: cut whole, marked cut, still printable. */
    char doc[4096];
    int n = snprintf(doc, sizeof doc, "%s\"", HEAD);
    for (int k = 0; k < 300; k++) n += snprintf(doc + n, sizeof doc - (size_t)n, "\\u001b");
    snprintf(doc + n, sizeof doc - (size_t)n, "\": true}]}");
    CHECK(!ak_world_from_json(w, doc, &err));
    CHECK(printable(err.message) && strstr(err.message, "...: unknown component") != NULL);
}

int main(void) {
    ak_world_t *w = ak_world_new();
    ecs_entity_t e = ak_spawn(w, &(ak_spawn_desc_t){ .text = &(ak_text_t){ "k", "kept" } });
    test_not_json_is_refused(w, e);
    test_json_still_loads();
    test_messages_escape_control_characters(w, e);
    ak_world_free(w);
    return check_finish("test_json_strict");
}
