/* ecs_tasks.c: a stage's task list and the pool of threads that runs it (ecs_tasks.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "ecs_alloc.h"
#include "ecs_tasks.h"

/* The threads, and the stage posted to them (written under the lock before the wake). */
struct ecs_pool {
    pthread_t *ids;
    unsigned started;          /* threads running */
    pthread_mutex_t lock;
    pthread_cond_t wake, done; /* wake: a stage is posted (or stop); done: the last thread finished it */
    uint64_t generation;       /* stages posted */
    unsigned busy;             /* threads still on the posted stage */
    bool stop;
    atomic_uint next;          /* the next task to take */
    const ecs_task_t *list;    /* the posted stage */
    uint32_t count;
    ecs_task_fn run;
    void *user;
};

bool ecs_tasks_add(ecs_tasks_t *t, uint32_t x, size_t n, bool split, size_t chunk_min) {
    size_t chunk = n ? n : 1u, threads = ecs_tasks_threads(t);
    if (split && n > chunk_min) {
        chunk = (n + threads * 4u - 1u) / (threads * 4u);
        if (chunk < chunk_min) chunk = chunk_min;
    }
    size_t ranges = n ? (n + chunk - 1u) / chunk : 1u;
    if (n > UINT32_MAX || ranges > UINT32_MAX - t->count) return false;
    uint32_t need = t->count + (uint32_t)ranges;
    if (need > t->capacity) {
        uint32_t cap = need < 64u ? 64u : (need > UINT32_MAX / 2u ? need : need * 2u);
        ecs_task_t *list = ecs_realloc_array(t->list, cap, sizeof *list);
        if (!list) return false;
        t->list = list;
        t->capacity = cap;
    }
    for (size_t b = 0; b < ranges; b++) {
        size_t end = (b + 1u) * chunk < n ? (b + 1u) * chunk : n;
        t->list[t->count++] = (ecs_task_t){ x, (uint32_t)(b * chunk), (uint32_t)end };
    }
    return true;
}

/* Takes tasks of the posted stage until none is left. */
static void ecs_pool_take(struct ecs_pool *p) {
    for (;;) {
        unsigned k = atomic_fetch_add_explicit(&p->next, 1u, memory_order_relaxed);
        if (k >= p->count) break;
        p->run(p->user, k, p->list[k]);
    }
}

static void *ecs_pool_worker(void *arg) {
    struct ecs_pool *p = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stop && p->generation == seen) pthread_cond_wait(&p->wake, &p->lock);
        if (p->stop) break;
        seen = p->generation;
        pthread_mutex_unlock(&p->lock);
        ecs_pool_take(p);
        pthread_mutex_lock(&p->lock);
        if (--p->busy == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

bool ecs_tasks_run_parallel(ecs_tasks_t *t, size_t matches, size_t min, ecs_task_fn run, void *user) {
    struct ecs_pool *p = t->pool;
    if (!p || t->count <= 1u || matches < min) return false;
    pthread_mutex_lock(&p->lock);
    atomic_store_explicit(&p->next, 0u, memory_order_relaxed);
    p->list = t->list;
    p->count = t->count;
    p->run = run;
    p->user = user;
    p->busy = p->started;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    ecs_pool_take(p);
    pthread_mutex_lock(&p->lock);
    while (p->busy) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
    return true;
}

/* Stops and joins the pool's threads (none: nothing to do). */
static void ecs_tasks_stop(ecs_tasks_t *t) {
    struct ecs_pool *p = t->pool;
    t->pool = NULL;
    t->threads = 1u;
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned k = 0; k < p->started; k++) pthread_join(p->ids[k], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    ecs_free(p->ids);
    ecs_free(p);
}

void ecs_tasks_set_threads(ecs_tasks_t *t, unsigned n) {
    if (n == 0u) n = 1u;
    if (ecs_tasks_threads(t) == n) return;
    ecs_tasks_stop(t);
    if (n == 1u) return;
    struct ecs_pool *p = ecs_calloc(1, sizeof *p);
    if (!p) return; /* out of memory: one thread */
    if (!(p->ids = ecs_realloc_array(NULL, n - 1u, sizeof *p->ids))) goto none;
    if (pthread_mutex_init(&p->lock, NULL) != 0) goto none;
    if (pthread_cond_init(&p->wake, NULL) != 0) goto no_wake;
    if (pthread_cond_init(&p->done, NULL) != 0) goto no_done;
    atomic_init(&p->next, 0u);
    while (p->started < n - 1u && pthread_create(&p->ids[p->started], NULL, ecs_pool_worker, p) == 0) p->started++;
    if (p->started) {
        t->pool = p;
        t->threads = p->started + 1u; /* those that started */
        return;
    }
    pthread_cond_destroy(&p->done);
no_done:
    pthread_cond_destroy(&p->wake);
no_wake:
    pthread_mutex_destroy(&p->lock);
none:
    ecs_free(p->ids);
    ecs_free(p);
}

unsigned ecs_tasks_threads(const ecs_tasks_t *t) {
    return t->threads ? t->threads : 1u;
}

void ecs_tasks_fini(ecs_tasks_t *t) {
    ecs_tasks_stop(t);
    ecs_free(t->list);
    memset(t, 0, sizeof *t);
}
