/* load_dump.c: the generated loader itself, for test_dump.py to hold `ecsgen-dump check` to:
 * loads each DUMP into a fresh world of one schema (DUMP_HEADER, DUMP_PREFIX, set by
 * meson.build) with world_load_opts and prints, per dump, what the load reported ("DUMP:
 * entities[0].stats.hp: renamed to health") on stdout, or the error on stderr.
 *
 *     load_dump [--lax] DUMP...     exit 0 when every dump loads, else 1
 */
#include <stdio.h>
#include <string.h>

#include DUMP_HEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define NAME(x) CAT(DUMP_PREFIX, x)

int main(int argc, char **argv) {
    bool lax = argc > 1 && !strcmp(argv[1], "--lax");
    int status = 0;
    for (int k = lax ? 2 : 1; k < argc; k++) {
        NAME(_world_t) *w = NAME(_world_new)();
        if (!w) return 2;
        ecs_load_report_t report;
        NAME(_load_options_t) opts = { .lax = lax, .report = &report };
        ecs_error_t err;
        if (NAME(_world_load_opts)(w, argv[k], &opts, &err)) {
            for (const char *line = report.text; *line;) {
                const char *end = strchr(line, '\n');
                printf("%s: %.*s\n", argv[k], (int)(end - line), line);
                line = end + 1;
            }
            if (report.truncated) printf("%s: (report cut)\n", argv[k]); /* test_dump_differential.py */
        } else {
            fprintf(stderr, "%s\n", err.message);
            status = 1;
        }
        NAME(_world_free)(w);
    }
    return status;
}
