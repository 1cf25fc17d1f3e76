/* measure_load.c: what a load of a 10 MB document costs, part by part: the strict RFC 8259
 * check (ecs_json_strict_check), cJSON's parse, and the whole world_from_json. Not a test (no
 * timing in tests): docs/reliability.md quotes its output.
 *   ninja -C build tests/json/measure_load && build/tests/json/measure_load */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ak_ecs.h"

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
    ak_world_t *w = ak_world_new();
    for (int k = 0; k < 26000; k++)
        ak_spawn(w, &(ak_spawn_desc_t){ .ints = &(ak_ints_t){ 1, -2, k, -k, 5, 6, (uint32_t)k, (uint64_t)k << 20 },
                                        .reals = &(ak_reals_t){ (float)k * 0.37f, k / 7.0 },
                                        .text = &(ak_text_t){ "ab", "a line\twith a tab and \"quotes\"" },
                                        .state = &(ak_state_t){ AK_STATE_MODE_FAST, k }, .marked = k % 2 });
    char *text = ak_world_to_json(w);
    double check = 1e9, parse = 1e9, load = 1e9;
    for (int run = 0; run < 7; run++) { /* the fastest of 7 runs: the least disturbed */
        const char *why;
        char detail[96];
        double t0 = seconds();
        if (ecs_json_strict_check(text, &why, detail)) return 1;
        double t1 = seconds();
        cJSON *doc = cJSON_Parse(text);
        double t2 = seconds();
        cJSON_Delete(doc);
        ak_world_t *back = ak_world_new();
        ecs_error_t err;
        double t3 = seconds();
        if (!ak_world_from_json(back, text, &err)) return 1;
        double t4 = seconds();
        ak_world_free(back);
        if (t1 - t0 < check) check = t1 - t0;
        if (t2 - t1 < parse) parse = t2 - t1;
        if (t4 - t3 < load) load = t4 - t3;
    }
    printf("%.1f MB document: strict check %.1f ms, cJSON_Parse %.1f ms, world_from_json %.1f ms (fastest of 7)\n",
           (double)strlen(text) / 1e6, check * 1e3, parse * 1e3, load * 1e3);
    free(text);
    ak_world_free(w);
    return 0;
}
