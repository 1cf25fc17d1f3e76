/* test_load_report.c: the load report and the migration callback's messages (schema
 * evolve.json, version 2). A report with more lines than its 4 KiB says so in its last line,
 * with how many were left out and how to see them all; the counts stay complete. A
 * migration callback's message is escaped like every other message, and one it wrote while
 * keeping the document does not stay in err after the load succeeds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "evo_ecs.h"

static bool keep_with_words(cJSON *doc, uint32_t version, void *user, ecs_error_t *err) {
    (void)doc, (void)version, (void)user;
    snprintf(err->message, sizeof err->message, "noted: converted from version 1");
    return true;
}
static bool refuse_with_escape(cJSON *doc, uint32_t version, void *user, ecs_error_t *err) {
    (void)doc, (void)version, (void)user;
    snprintf(err->message, sizeof err->message, "bad save \x1b]0;owned\x07 from %s", "\x9b" "31m");
    return false;
}

int main(void) {
    /* 300 entities with a removed component: 300 lines of about 35 bytes, over 4 KiB */
    size_t cap = 64 + 300 * 48, len = 0;
    char *doc = malloc(cap);
    CHECK(doc != NULL);
    len += (size_t)snprintf(doc + len, cap - len, "{\"schema\":\"evo\",\"version\":1,\"entities\":[");
    for (int k = 0; k < 300; k++)
        len += (size_t)snprintf(doc + len, cap - len, "%s{\"id\":\"%dv0\",\"legacy\":{}}", k ? "," : "", k);
    snprintf(doc + len, cap - len, "]}");

    evo_world_t *w = evo_world_new();
    ecs_error_t err;
    ecs_load_report_t report;
    CHECK(evo_world_from_json_opts(w, doc, &(evo_load_options_t){ .report = &report }, &err));
    CHECK_EQ(report.dropped, 300);
    CHECK(report.truncated);
    size_t shown = 0;
    for (const char *p = report.text; *p; p++) shown += *p == '\n';
    char last[256];
    snprintf(last, sizeof last, "... and %zu more changes not listed (the report keeps 4096 bytes; the counts are "
             "complete; ecsgen-dump check --schema SCHEMA.json FILE lists every one)\n", (size_t)300 - (shown - 1));
    const char *tail = strstr(report.text, "... and ");
    CHECK(tail != NULL && strcmp(tail, last) == 0);
    CHECK(strstr(report.text, "entities[0].legacy: removed component, dropped\n") == report.text);
    printf("%zu lines shown, last: %s", shown, tail ? tail : "(none)\n");

    /* the callback's words while keeping the document: gone after the load */
    CHECK(evo_world_from_json_opts(w, doc, &(evo_load_options_t){ .migrate = keep_with_words }, &err));
    CHECK_EQ(err.message[0], '\0');
    /* a refusal's words: escaped */
    CHECK(!evo_world_from_json_opts(w, doc, &(evo_load_options_t){ .migrate = refuse_with_escape }, &err));
    printf("refused: %s\n", err.message);
    CHECK(strcmp(err.message, "bad save \\u001b]0;owned\\u0007 from \\x9b31m") == 0);
    CHECK(strchr(err.message, '\x1b') == NULL);
    CHECK_EQ(evo_count(w), 300);

    free(doc);
    evo_world_free(w);
    return check_finish("load report");
}
