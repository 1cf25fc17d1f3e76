/* test_evolve.c: saves of schema version 1 (written by evolve_v1/save_v1) loaded under
 * version 2 (evolve.json): a renamed field, renamed components (data and tag), a removed
 * field, component and singleton field, widened types, a narrowed one, a migration
 * callback, the lax option and the report; after every refused load the world is as it was. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "evo_ecs.h"

static char *slurp(const char *path) {
    ecs_error_t err;
    char *text = ecs_json_read_file(path, 0, &err);
    if (!text) fprintf(stderr, "test_evolve: %s\n", err.message);
    return text;
}

/* Each mapping, on the first save. */
static void test_mapped(const char *v1) {
    evo_world_t *w = evo_world_new();
    ecs_error_t err;
    ecs_load_report_t report;
    CHECK(evo_world_load_opts(w, v1, &(evo_load_options_t){ .report = &report }, &err));
    CHECK_EQ(evo_count(w), 4);
    for (uint32_t k = 0; k < 4; k++) {
        ecs_entity_t e = ecs_entity_make(k, 0); /* ids are kept */
        evo_stats_t s = evo_get_stats(w, e);
        CHECK_EQ(s.health, -300 - (int)k);        /* renamed, i16 -> i32 */
        CHECK_EQ(s.armor, 200 + (int)k);          /* u8 -> i16 */
        CHECK(fabs(s.speed - (0.1 + k)) < 1e-12); /* f32 -> f64: the double of the decimal saved (0.1, not 0.1f) */
        CHECK(s.ratio == 70000.0 + k);           /* i32 -> f64 */
        CHECK_EQ(s.luck, 7);                     /* new field: its default */
        CHECK(evo_has_place(w, e));              /* pos -> place */
        CHECK(evo_get_place(w, e).x == 1.5f * (float)k);
        CHECK_EQ(evo_has_marked(w, e), k % 3 == 0); /* old_tag -> marked */
        CHECK_EQ(evo_get_narrow(w, e).v, -100 + (int)k);
    }
    CHECK_EQ(evo_singleton_clock(w)->ticks, 4000000000u); /* u32 -> u64 */
    /* the report: every rename and drop, by path */
    CHECK(strstr(report.text, "entities[0].stats.hp: renamed to health\n") != NULL);
    CHECK(strstr(report.text, "entities[0].pos: renamed to place\n") != NULL);
    CHECK(strstr(report.text, "entities[0].old_tag: renamed to marked\n") != NULL);
    CHECK(strstr(report.text, "entities[1].legacy: removed component, dropped\n") != NULL);
    CHECK(strstr(report.text, "entities[3].stats.mana: removed field of stats, dropped\n") != NULL);
    CHECK(strstr(report.text, "singletons.clock.old_dt: removed field of clock, dropped\n") != NULL);
    CHECK_EQ(report.renamed, 4 + 4 + 2); /* hp and pos in 4 entities, old_tag in 2 */
    CHECK_EQ(report.dropped, 4 + 2 + 1); /* mana x4, legacy x2, old_dt */
    CHECK(!report.truncated);
    /* saving writes the new names: the document loads again with nothing to report */
    char *json = evo_world_to_json(w);
    CHECK(json != NULL && strstr(json, "\"health\"") && !strstr(json, "\"hp\"") && strstr(json, "\"version\":\t2"));
    evo_world_t *again = evo_world_new();
    CHECK(evo_world_from_json_opts(again, json, &(evo_load_options_t){ .report = &report }, &err));
    CHECK_EQ(report.renamed + report.dropped, 0);
    free(json);
    evo_world_free(again);
    evo_world_free(w);
}

/* A value the narrowed type cannot hold is refused with its path; the world is untouched. */
static void test_narrowing(const char *narrowing) {
    evo_world_t *w = evo_world_new();
    ecs_entity_t mine = evo_spawn(w, &(evo_spawn_desc_t){ .narrow = &(evo_narrow_t){ 5 } });
    ecs_error_t err;
    CHECK(!evo_world_load(w, narrowing, &err));
    CHECK(strstr(err.message, "entities[4].narrow.v: ") != NULL);
    CHECK(strstr(err.message, "1000") != NULL);
    CHECK_EQ(evo_count(w), 1);
    CHECK_EQ(evo_get_narrow(w, mine).v, 5);
    evo_world_free(w);
}

static int calls;

/* A migration: version 1's stats.hp counted tenths; version 2 counts whole points. */
static bool tenths_to_points(cJSON *doc, uint32_t version, void *user, ecs_error_t *err) {
    (void)err;
    calls++;
    CHECK_EQ(version, 1);
    CHECK(user == &calls);
    cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "entities")) {
        cJSON *hp = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, "stats"), "hp");
        if (cJSON_IsNumber(hp)) cJSON_SetNumberValue(hp, (double)((int)hp->valuedouble / 10));
    }
    return true;
}

static bool refuse(cJSON *doc, uint32_t version, void *user, ecs_error_t *err) {
    (void)doc, (void)version, (void)user;
    snprintf(err->message, sizeof err->message, "version 1 saves are not supported");
    return false;
}

static void test_migration(const char *v1) {
    char *text = slurp(v1);
    CHECK(text != NULL);
    evo_world_t *w = evo_world_new();
    ecs_error_t err;
    /* runs first (before the renames: it sees the old name hp), once */
    bool ok = evo_world_from_json_opts(w, text, &(evo_load_options_t){ .migrate = tenths_to_points, .user = &calls }, &err);
    if (!ok) fprintf(stderr, "test_evolve: %s\n", err.message);
    CHECK(ok);
    CHECK_EQ(calls, 1);
    CHECK_EQ(evo_get_stats(w, ecs_entity_make(2, 0)).health, -30);
    /* not for a document of the current version */
    char *current = evo_world_to_json(w);
    CHECK(evo_world_from_json_opts(w, current, &(evo_load_options_t){ .migrate = tenths_to_points, .user = &calls }, &err));
    CHECK_EQ(calls, 1);
    /* a refusal keeps the world, with the callback's message */
    CHECK(!evo_world_from_json_opts(w, text, &(evo_load_options_t){ .migrate = refuse }, &err));
    CHECK(strcmp(err.message, "version 1 saves are not supported") == 0);
    CHECK_EQ(evo_get_stats(w, ecs_entity_make(2, 0)).health, -30);
    free(current);
    free(text);
    evo_world_free(w);
}

/* Unknown names: refused by default; dropped and reported when lax. A name both old and new
 * in one entity is refused either way. */
static void test_lax(void) {
    const char *doc = "{\"schema\": \"evo\", \"version\": 2, \"entities\": ["
                      "{\"id\": \"0v0\", \"stats\": {\"health\": 1, \"mystery\": 2}, \"ghost\": {\"a\": 1}}]}";
    evo_world_t *w = evo_world_new();
    ecs_error_t err;
    CHECK(!evo_world_from_json(w, doc, &err));
    CHECK(strstr(err.message, "entities[0]") != NULL);
    ecs_load_report_t report;
    CHECK(evo_world_from_json_opts(w, doc, &(evo_load_options_t){ .lax = true, .report = &report }, &err));
    CHECK_EQ(report.dropped, 2);
    CHECK(strstr(report.text, "entities[0].ghost: unknown component, dropped\n") != NULL);
    CHECK(strstr(report.text, "entities[0].stats.mystery: unknown field of stats, dropped\n") != NULL);
    CHECK_EQ(evo_get_stats(w, ecs_entity_make(0, 0)).health, 1);
    const char *both = "{\"schema\": \"evo\", \"version\": 1, \"entities\": ["
                       "{\"id\": \"0v0\", \"stats\": {\"hp\": 1, \"health\": 2}}]}";
    CHECK(!evo_world_from_json_opts(w, both, &(evo_load_options_t){ .lax = true }, &err));
    CHECK(strcmp(err.message, "entities[0].stats.hp: 'hp' is the old name of 'health', and both are given (keep one)") == 0);
    CHECK_EQ(evo_get_stats(w, ecs_entity_make(0, 0)).health, 1); /* unchanged */
    evo_world_free(w);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: test_evolve V1.json V1_NARROWING.json\n");
        return 2;
    }
    test_mapped(argv[1]);
    test_narrowing(argv[2]);
    test_migration(argv[1]);
    test_lax();
    return check_finish("test_evolve");
}
