/* ecs_tasks.h: the task list of a stage of systems and the pool of threads that runs it, for
 * the generated <name>_step (docs/systems.md). A task is a range of one system's matches;
 * what a task does is the generated code's (a callback), so nothing here knows a schema.
 *
 * Threads are POSIX threads: a pool of n - 1 parked on a condition variable between stages,
 * started by ecs_tasks_set_threads only. (OpenMP would add a runtime and a compiler flag to
 * every program that links this, and its barriers spin where a game wants idle cores.) */
#ifndef ECS_TASKS_H
#define ECS_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Matches begin..end-1 of system `system` (its index in the schema). */
typedef struct ecs_task {
    uint32_t system, begin, end;
} ecs_task_t;

/* Runs task t, the k-th of the stage, on a pool thread (k: the task's own change buffer). */
typedef void (*ecs_task_fn)(void *user, uint32_t k, ecs_task_t t);

/* A stage's tasks, and the threads a step uses. A zeroed struct is an empty list and one
 * thread (the caller's). */
typedef struct ecs_tasks {
    ecs_task_t *list;
    uint32_t count, capacity;
    unsigned threads;       /* threads a stage uses, the caller's included (0 counts as 1) */
    struct ecs_pool *pool;  /* the threads started (NULL: none) */
} ecs_tasks_t;

/* Adds system x's tasks for n matches: ranges of at least `chunk` matches (and about four
 * per thread) when the system may be split, else one task. False when out of memory or
 * n > UINT32_MAX (the tasks added before stay). */
bool ecs_tasks_add(ecs_tasks_t *t, uint32_t x, size_t n, bool split, size_t chunk);
/* Runs the tasks on the pool and the calling thread when that is worth it (threads started,
 * more than one task, at least `min` matches in all), each once, in any order; returns when
 * all are done. False, having run none, when it is not worth it: the caller runs them in
 * order on its own thread. */
bool ecs_tasks_run_parallel(ecs_tasks_t *t, size_t matches, size_t min, ecs_task_fn run, void *user);
/* Uses n threads (0 counts as 1), the caller's included: stops the pool and starts n - 1
 * threads. Fewer start when the system refuses (out of memory: one); ecs_tasks_threads says
 * how many there are. */
void ecs_tasks_set_threads(ecs_tasks_t *t, unsigned n);
unsigned ecs_tasks_threads(const ecs_tasks_t *t);
/* Stops and joins the threads, frees the list; t is then a zeroed struct. */
void ecs_tasks_fini(ecs_tasks_t *t);

#endif
