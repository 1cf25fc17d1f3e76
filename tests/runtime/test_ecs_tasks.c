/* test_ecs_tasks.c: a stage's task list (ranges of a split system, one task for another)
 * and the pool of threads that runs it: every task runs once, on the calling thread in order
 * when the pool is not worth waking, and threads start, change and stop. */
#include <stdatomic.h>
#include <string.h>

#include "check.h"
#include "ecs_tasks.h"

/* What the tasks did: each match's visits (a split system's ranges must cover its matches
 * once), and the buffer index each task was run with. */
typedef struct {
    atomic_uint visits[100000];
    atomic_uint runs;
    atomic_uint buffer_seen[1024];
} work_t;

static work_t work;

static void run(void *user, uint32_t k, ecs_task_t t) {
    work_t *w = user;
    for (uint32_t i = t.begin; i < t.end; i++) atomic_fetch_add(&w->visits[i], 1u);
    atomic_fetch_add(&w->runs, 1u);
    if (k < 1024u) atomic_fetch_add(&w->buffer_seen[k], 1u);
}

static void reset(void) {
    memset(&work, 0, sizeof work);
}

static void test_ranges(void) {
    ecs_tasks_t t = { 0 };
    CHECK_EQ(ecs_tasks_threads(&t), 1u);
    CHECK(ecs_tasks_add(&t, 7, 5000, false, 1024)); /* not split: one task */
    CHECK_EQ(t.count, 1u);
    CHECK(t.list[0].system == 7 && t.list[0].begin == 0 && t.list[0].end == 5000);
    CHECK(ecs_tasks_add(&t, 8, 5000, true, 1024)); /* one thread: 4 ranges, each >= 1024 */
    CHECK_EQ(t.count, 5u);
    CHECK(t.list[1].begin == 0 && t.list[1].end == 1250 && t.list[4].end == 5000);
    CHECK(ecs_tasks_add(&t, 9, 0, true, 1024)); /* no match: one empty task */
    CHECK(t.count == 6u && t.list[5].begin == 0 && t.list[5].end == 0);
    CHECK(ecs_tasks_add(&t, 10, 100, true, 1024)); /* below the chunk: one task */
    CHECK_EQ(t.count, 7u);
    CHECK(!ecs_tasks_run_parallel(&t, 1000000, 1, run, &work)); /* no threads: the caller runs them */
    ecs_tasks_fini(&t);
    CHECK(t.list == NULL && t.count == 0u && t.pool == NULL);
}

static void test_pool(void) {
    ecs_tasks_t t = { 0 };
    ecs_tasks_set_threads(&t, 4);
    CHECK_EQ(ecs_tasks_threads(&t), 4u);
    for (int round = 0; round < 50; round++) {
        reset();
        t.count = 0;
        CHECK(ecs_tasks_add(&t, 0, 100000, true, 1024)); /* 16 ranges of 6250 */
        CHECK(ecs_tasks_add(&t, 1, 3, false, 1024));
        CHECK_EQ(t.count, 17u);
        CHECK(ecs_tasks_run_parallel(&t, 100003, 4096, run, &work));
        CHECK_EQ(atomic_load(&work.runs), 17u);
        uint32_t wrong = 0;
        for (uint32_t i = 0; i < 100000; i++) wrong += atomic_load(&work.visits[i]) != (i < 3 ? 2u : 1u);
        CHECK_EQ(wrong, 0u);
        for (uint32_t k = 0; k < 17; k++) CHECK_EQ(atomic_load(&work.buffer_seen[k]), 1u);
    }
    CHECK(!ecs_tasks_run_parallel(&t, 4095, 4096, run, &work)); /* too few matches to wake them */
    t.count = 1;
    CHECK(!ecs_tasks_run_parallel(&t, 100000, 4096, run, &work)); /* one task: not worth it */
    ecs_tasks_set_threads(&t, 2); /* restart with fewer */
    CHECK_EQ(ecs_tasks_threads(&t), 2u);
    t.count = 0;
    reset();
    CHECK(ecs_tasks_add(&t, 0, 100000, true, 1024)); /* two threads: 8 ranges */
    CHECK_EQ(t.count, 8u);
    CHECK(ecs_tasks_run_parallel(&t, 100000, 0, run, &work) && atomic_load(&work.runs) == 8u);
    ecs_tasks_set_threads(&t, 0); /* 0 counts as 1: the threads stop */
    CHECK(ecs_tasks_threads(&t) == 1u && t.pool == NULL);
    CHECK(!ecs_tasks_run_parallel(&t, 100000, 0, run, &work));
    ecs_tasks_set_threads(&t, 3);
    ecs_tasks_fini(&t); /* stops running threads */
    CHECK(t.pool == NULL && ecs_tasks_threads(&t) == 1u);
}

int main(void) {
    test_ranges();
    test_pool();
    return check_finish("test_ecs_tasks");
}
