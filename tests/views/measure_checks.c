/* measure_checks.c: not a test. What VIEWS_CHECKS costs in an optimized build: the best of
 * many passes of an owned view loop and a macro loop over N entities (argv[1], default
 * 10000), in ns per entity. Built twice by meson (measure_checks_on, measure_checks_off);
 * docs/iteration.md quotes it. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "views_ecs.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    views_world_t *w = views_world_new();
    for (int k = 0; w && k < n; k++)
        views_spawn(w, &(views_spawn_desc_t){ .position = &(views_position_t){ (float)k, 0 },
                                              .velocity = &(views_velocity_t){ 1, 2 } });
    if (!w || n <= 0) return 1;
    double view = 1e9, each = 1e9;
    for (int pass = 0; pass < (n < 100000 ? 2000 : 20); pass++) {
        double t0 = now();
        views_move_view_t v = views_query_move(w);
        for (size_t i = 0; i < v.count; i++) {
            VIEWS_MOVE_FIELD(v, position, x, i) += VIEWS_MOVE_FIELD(v, velocity, x, i) * 0.016f;
            VIEWS_MOVE_FIELD(v, position, y, i) += VIEWS_MOVE_FIELD(v, velocity, y, i) * 0.016f;
        }
        double t1 = now();
        VIEWS_EACH(w, it, position, velocity) {
            w->components.position.x[it.position] += w->components.velocity.x[it.velocity] * 0.016f;
        }
        double t2 = now();
        if (t1 - t0 < view) view = t1 - t0;
        if (t2 - t1 < each) each = t2 - t1;
    }
    printf("VIEWS_CHECKS %d, %d entities: view loop %.2f ns/entity, EACH %.2f ns/entity (%g)\n", VIEWS_CHECKS, n,
           view * 1e9 / n, each * 1e9 / n, (double)w->components.position.x[0]);
    views_world_free(w);
    return 0;
}
