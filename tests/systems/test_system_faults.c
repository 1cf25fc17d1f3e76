/* test_system_faults.c: memory running out anywhere in set_threads and step (the k-th
 * allocation after the world is built fails, for every k up to the last the steps make) never
 * crashes, hangs or leaks (ASan, valgrind): set_threads falls back to fewer threads
 * (<name>_threads says how many), a step whose task list cannot grow runs its stage on the
 * calling thread, and a change that cannot be applied stays recorded. With no failure the
 * world ends as it does on one thread. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sys_bodies.h"

static long allocations, fail_at = -1; /* -1: never */

static void *failing_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    if (allocations++ == fail_at) return NULL;
    return realloc(ptr, size);
}

static uint64_t run(long fail, unsigned *threads) {
    allocations = 0;
    fail_at = -1;
    sys_world_t *w = sys_world_new();
    sys_populate(w, 1500, 99);
    allocations = 0;
    fail_at = fail;
    sys_set_threads(w, 4);
    *threads = sys_threads(w);
    for (int k = 0; k < 12; k++) sys_step(w, 0.125f);
    fail_at = -1;
    sys_step(w, 0.125f); /* memory is back: what waited is applied */
    uint64_t hash = sys_world_hash(w);
    sys_world_free(w);
    return hash;
}

int main(void) {
    ecs_set_allocator(&(ecs_allocator_t){ failing_realloc, NULL });
    unsigned threads;
    uint64_t clean = run(-1, &threads);
    long total = allocations;
    CHECK_EQ(threads, 4);
    CHECK(total > 10);
    int fell_back = 0;
    for (long k = 0; k < total; k++) {
        run(k, &threads);
        CHECK(threads == 1 || threads == 4);
        fell_back += threads == 1;
    }
    CHECK(fell_back > 0); /* the first allocations are set_threads' */
    allocations = 0;
    sys_world_t *w = sys_world_new();
    sys_populate(w, 1500, 99);
    for (int k = 0; k < 13; k++) sys_step(w, 0.125f);
    CHECK_EQ(sys_world_hash(w), clean); /* 4 threads, no failure: as on one */
    sys_world_free(w);
    ecs_set_allocator(NULL);
    return check_finish("system faults");
}
