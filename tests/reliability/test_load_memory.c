/* test_load_memory.c: a load costs memory in proportion to the document, not to the slot
 * numbers it names. Three documents that would make a table indexed by slot allocate up to the
 * largest slot named (gigabytes for the first): each is refused, or loads, with the process's
 * peak RSS rising by less than 64 MB; the time each takes is printed, not asserted. Files
 * that are not regular, or larger than the cap, are refused unread. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "rel_ecs.h"

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static long peak_rss_kb(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

int main(void) {
    long rss_before = peak_rss_kb(); /* the rise is measured: sanitizers and valgrind add their own */
    rel_world_t *w = rel_world_new();
    ecs_entity_t mine = rel_spawn(w, &(rel_spawn_desc_t){ .hp = &(rel_hp_t){ 1, 2 } });
    ecs_error_t err;

    /* 1. One entity at slot 4,000,000,000: refused, naming the slot and the option. */
    double t0 = seconds();
    CHECK(!rel_world_from_json(w, "{\"schema\":\"rel\",\"version\":1,\"entities\":[{\"id\":\"4000000000v0\"}]}", &err));
    printf("slot 4e9: %.3f s: %s\n", seconds() - t0, err.message);
    CHECK(strstr(err.message, "entities[0].id: slot 4000000000 is beyond") != NULL);
    CHECK(strstr(err.message, "max_slots") != NULL);

    /* 2. The last slot in an entity field: saved, and loaded back as the same stale reference,
     * with no slot reserved for it. (~0, the last slot at the last generation, is saved as
     * null: its slot could only be retired; see test_ids.c.) */
    ecs_entity_t far = ecs_entity_make(ECS_INDEX_MAX, 7);
    CHECK(rel_set_inv(w, mine, (rel_inv_t){ .owner = far }));
    char *json = rel_world_to_json(w);
    t0 = seconds();
    bool ok = rel_world_from_json(w, json, &err);
    printf("last-slot reference: %.3f s%s%s\n", seconds() - t0, ok ? "" : ": ", ok ? "" : err.message);
    CHECK(ok);
    CHECK_EQ(rel_get_inv(w, mine).owner, far);
    CHECK(w->entities.capacity < 1024);
    free(json);
    CHECK(rel_set_inv(w, mine, (rel_inv_t){ .owner = ~(ecs_entity_t)0 }));
    json = rel_world_to_json(w);
    CHECK(rel_world_from_json(w, json, &err));
    CHECK_EQ(rel_get_inv(w, mine).owner, ECS_NULL);
    CHECK(w->entities.capacity < 1024);
    free(json);

    /* 3. 20,000 entities 4096 slots apart (the last at slot 81,883,904): refused. */
    size_t cap = 64 + 20000 * 32, len = 0;
    char *doc = malloc(cap);
    CHECK(doc != NULL);
    len += (size_t)snprintf(doc + len, cap - len, "{\"schema\":\"rel\",\"version\":1,\"entities\":[");
    for (int k = 0; k < 20000; k++)
        len += (size_t)snprintf(doc + len, cap - len, "%s{\"id\":\"%dv0\"}", k ? "," : "", k * 4096);
    snprintf(doc + len, cap - len, "]}");
    t0 = seconds();
    CHECK(!rel_world_from_json(w, doc, &err));
    printf("20k entities 4096 apart: %.3f s: %s\n", seconds() - t0, err.message);
    CHECK(strstr(err.message, "is beyond the 1048576 slots") != NULL);
    free(doc);

    /* 4. /dev/zero and a FIFO with no writer: refused at once, not read (the first grew a
     * buffer to twice the cap, the second blocked for good). */
    t0 = seconds();
    CHECK(!rel_world_load_opts(w, "/dev/zero", &(rel_load_options_t){ .max_bytes = 1 << 20 }, &err));
    printf("/dev/zero: %.3f s: %s\n", seconds() - t0, err.message);
    CHECK(strstr(err.message, "/dev/zero: not a regular file (a device): a load reads only files") != NULL);
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/tmp/ecsgen-load-fifo-%ld", (long)getpid());
    unlink(fifo);
    CHECK(mkfifo(fifo, 0600) == 0);
    alarm(20); /* a load that blocks fails the test instead of hanging it */
    CHECK(!rel_world_load(w, fifo, &err));
    alarm(0);
    CHECK(strstr(err.message, "not a regular file (a FIFO)") != NULL);
    unlink(fifo);

    /* 5. A regular file larger than the cap (sparse: 512 MiB of zeros on no disk): refused
     * by its size, unread; the buffer a load grows never passes the cap + 2 bytes. */
    char big[64];
    snprintf(big, sizeof big, "/tmp/ecsgen-load-big-%ld", (long)getpid());
    int fd = open(big, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)512 << 20) == 0);
    close(fd);
    t0 = seconds();
    CHECK(!rel_world_load_opts(w, big, &(rel_load_options_t){ .max_bytes = (size_t)64 << 20 }, &err));
    printf("512 MiB file, cap 64 MiB: %.3f s: %s\n", seconds() - t0, err.message);
    CHECK(strstr(err.message, "larger than the 67108864 bytes a load reads") != NULL);
    unlink(big);

    /* the world is as it was after every refusal */
    CHECK_EQ(rel_count(w), 1);
    CHECK_EQ(rel_get_hp(w, mine).cur, 1);
    long rise = peak_rss_kb() - rss_before;
    printf("peak RSS rose by %ld KiB\n", rise);
    CHECK(rise < 64 * 1024);
    rel_world_free(w);
    return check_finish("load memory");
}
