/* test_save_threads.c: two threads save two worlds at once into the same directory. Each save
 * must succeed and each file end up holding its own world. The temporary names must not
 * come from shared unsynchronised state: `.ci/test` also runs this test under
 * ThreadSanitizer (a clang -fsanitize=thread build of just this test), which reports the
 * race a plain counter makes. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "rel_ecs.h"

#define SAVES 100

typedef struct job {
    rel_world_t *world;
    char path[128];
    int failures;
    char first_error[512];
} job_t;

static void *save_many(void *arg) {
    job_t *job = arg;
    for (int k = 0; k < SAVES; k++) {
        ecs_error_t err;
        if (!rel_world_save(job->world, job->path, &err) && job->failures++ == 0)
            memcpy(job->first_error, err.message, sizeof err.message);
    }
    return NULL;
}

static size_t entries_in(const char *dir) {
    DIR *d = opendir(dir);
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d) closedir(d);
    return n;
}

int main(void) {
    char dir[] = "/tmp/ecs-save-threads-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    job_t jobs[2];
    for (int t = 0; t < 2; t++) {
        jobs[t] = (job_t){ .world = rel_world_new() };
        snprintf(jobs[t].path, sizeof jobs[t].path, "%s/world%d.json", dir, t);
        for (int k = 0; k <= t * 10; k++) /* 1 and 11 entities: different worlds */
            rel_spawn(jobs[t].world, &(rel_spawn_desc_t){ .hp = &(rel_hp_t){ t, 100 } });
    }
    pthread_t threads[2];
    for (int t = 0; t < 2; t++) CHECK(pthread_create(&threads[t], NULL, save_many, &jobs[t]) == 0);
    for (int t = 0; t < 2; t++) CHECK(pthread_join(threads[t], NULL) == 0);
    for (int t = 0; t < 2; t++) {
        CHECK_EQ(jobs[t].failures, 0);
        if (jobs[t].failures) fprintf(stderr, "thread %d: %s\n", t, jobs[t].first_error);
        rel_world_t *back = rel_world_new();
        ecs_error_t err;
        CHECK(rel_world_load(back, jobs[t].path, &err));
        CHECK_EQ(rel_count(back), (uint32_t)(1 + t * 10));
        CHECK_EQ(rel_world_hash(back), rel_world_hash(jobs[t].world));
        rel_world_free(back);
        unlink(jobs[t].path);
        rel_world_free(jobs[t].world);
    }
    CHECK_EQ(entries_in(dir), 0); /* no temporary file left */
    rmdir(dir);
    return check_finish("save threads");
}
