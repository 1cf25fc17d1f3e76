/* test_ecs_entities.c: the entity table: ids, recycling, generations, the limit, retiring
 * and restore. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ecs_alloc.h"
#include "ecs_entities.h"

/* A copy of a table's state, to show that a refused call changed nothing. */
typedef struct snapshot {
    ecs_entities_t head;
    uint32_t *generation, *free;
    uint64_t *live;
} snapshot_t;

static void *copy(const void *p, size_t bytes) {
    void *q = malloc(bytes ? bytes : 1);
    if (bytes) memcpy(q, p, bytes);
    return q;
}

static snapshot_t snapshot_take(const ecs_entities_t *t) {
    return (snapshot_t){ *t, copy(t->generation, t->used * sizeof *t->generation),
                         copy(t->free, t->free_count * sizeof *t->free),
                         copy(t->live, (t->used + 63u) / 64u * sizeof *t->live) };
}

static bool snapshot_same(snapshot_t *s, const ecs_entities_t *t) {
    bool same = memcmp(&s->head, t, sizeof *t) == 0 &&
                memcmp(s->generation, t->generation, t->used * sizeof *t->generation) == 0 &&
                memcmp(s->free, t->free, t->free_count * sizeof *t->free) == 0 &&
                memcmp(s->live, t->live, (t->used + 63u) / 64u * sizeof *t->live) == 0;
    free(s->generation);
    free(s->free);
    free(s->live);
    return same;
}

static void test_create_destroy_recycle(void) {
    ecs_entities_t t = { 0 };
    CHECK(!ecs_entities_alive(&t, ECS_NULL));
    ecs_entity_t a = ecs_entities_create(&t);
    ecs_entity_t b = ecs_entities_create(&t);
    ecs_entity_t c = ecs_entities_create(&t);
    CHECK(a != ECS_NULL && b != ECS_NULL && c != ECS_NULL);
    CHECK(a != b && b != c && a != c);
    CHECK_EQ(ecs_entity_index(a), 0);
    CHECK_EQ(ecs_entity_index(b), 1);
    CHECK_EQ(ecs_entity_generation(a), 0);
    CHECK(ecs_entities_alive(&t, a) && ecs_entities_alive(&t, b) && ecs_entities_alive(&t, c));
    CHECK_EQ(t.alive, 3);

    CHECK(ecs_entities_destroy(&t, b));
    CHECK(!ecs_entities_alive(&t, b));
    CHECK_EQ(t.alive, 2);
    CHECK(!ecs_entities_destroy(&t, b)); /* twice: already stale */
    CHECK(!ecs_entities_destroy(&t, ECS_NULL));
    CHECK_EQ(t.alive, 2);

    /* The freed index comes back with the next generation; the old id stays stale. */
    ecs_entity_t b2 = ecs_entities_create(&t);
    CHECK_EQ(ecs_entity_index(b2), 1);
    CHECK_EQ(ecs_entity_generation(b2), 1);
    CHECK(b2 != b);
    CHECK(ecs_entities_alive(&t, b2));
    CHECK(!ecs_entities_alive(&t, b));
    CHECK(!ecs_entities_destroy(&t, b));
    CHECK(ecs_entities_alive(&t, b2)); /* destroying the stale id did not touch the new one */

    /* LIFO reuse: the most recently freed slot first, each generation moving on. */
    CHECK(ecs_entities_destroy(&t, a));
    CHECK(ecs_entities_destroy(&t, c));
    ecs_entity_t c2 = ecs_entities_create(&t);
    ecs_entity_t a2 = ecs_entities_create(&t);
    CHECK_EQ(ecs_entity_index(c2), 2);
    CHECK_EQ(ecs_entity_index(a2), 0);
    CHECK_EQ(ecs_entity_generation(a2), 1);
    ecs_entity_t d = ecs_entities_create(&t);
    CHECK_EQ(ecs_entity_index(d), 3);
    CHECK_EQ(t.used, 4);

    /* Ids never issued are not alive: an index past `used`, a generation ahead. */
    CHECK(!ecs_entities_alive(&t, ecs_entity_make(4, 0)));
    CHECK(!ecs_entities_alive(&t, ecs_entity_make(1000000, 0)));
    CHECK(!ecs_entities_alive(&t, ecs_entity_make(0, 2)));
    CHECK(!ecs_entities_alive(&t, ECS_NULL));
    ecs_entities_fini(&t);
    CHECK_EQ(t.used, 0);
    CHECK(!ecs_entities_alive(&t, a2));
}

/* Many generations of one slot: every old id stays stale. */
static void test_stale_ids_stay_stale(void) {
    ecs_entities_t t = { 0 };
    enum { ROUNDS = 1000 };
    static ecs_entity_t old[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        old[k] = ecs_entities_create(&t);
        CHECK_EQ(ecs_entity_generation(old[k]), k);
        CHECK(ecs_entities_destroy(&t, old[k]));
    }
    ecs_entity_t now = ecs_entities_create(&t);
    CHECK_EQ(ecs_entity_index(now), 0);
    CHECK_EQ(t.used, 1);
    int stale_alive = 0;
    for (int k = 0; k < ROUNDS; k++) stale_alive += ecs_entities_alive(&t, old[k]);
    CHECK_EQ(stale_alive, 0);
    CHECK(ecs_entities_alive(&t, now));
    ecs_entities_fini(&t);
}

/* Many entities: the table grows, ids are distinct, a mixed destroy keeps the others. */
static void test_growth(void) {
    ecs_entities_t t = { 0 };
    enum { N = 100000 };
    ecs_entity_t *ids = malloc(N * sizeof *ids);
    for (uint32_t i = 0; i < N; i++) ids[i] = ecs_entities_create(&t);
    int bad = 0;
    for (uint32_t i = 0; i < N; i++) bad += ecs_entity_index(ids[i]) != i || !ecs_entities_alive(&t, ids[i]);
    CHECK_EQ(bad, 0);
    CHECK(t.capacity >= N);
    for (uint32_t i = 0; i < N; i += 3) CHECK(ecs_entities_destroy(&t, ids[i]));
    bad = 0;
    for (uint32_t i = 0; i < N; i++) bad += ecs_entities_alive(&t, ids[i]) != (i % 3 != 0);
    CHECK_EQ(bad, 0);
    CHECK_EQ(t.alive, N - (N + 2) / 3);
    /* Refilling reuses the freed slots before growing. */
    for (uint32_t i = 0; i < (N + 2) / 3; i++) {
        ecs_entity_t e = ecs_entities_create(&t);
        bad += ecs_entity_index(e) % 3 != 0 || ecs_entity_generation(e) != 1;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(t.used, N);
    free(ids);
    ecs_entities_fini(&t);
}

static void test_limit(void) {
    ecs_entities_t t = { .limit = 3 };
    ecs_entity_t a = ecs_entities_create(&t);
    ecs_entity_t b = ecs_entities_create(&t);
    ecs_entity_t c = ecs_entities_create(&t);
    CHECK(a && b && c);
    CHECK_EQ(ecs_entities_create(&t), ECS_NULL);
    CHECK_EQ(ecs_entities_create(&t), ECS_NULL);
    CHECK_EQ(t.alive, 3);
    CHECK_EQ(t.used, 3);
    CHECK(t.capacity <= 3);
    /* A freed slot can be reused while at the limit. */
    CHECK(ecs_entities_destroy(&t, b));
    ecs_entity_t b2 = ecs_entities_create(&t);
    CHECK(b2 != ECS_NULL);
    CHECK_EQ(ecs_entity_index(b2), 1);
    CHECK_EQ(ecs_entities_create(&t), ECS_NULL);
    ecs_entities_fini(&t);
    CHECK_EQ(t.limit, 3); /* fini keeps the limit */
    CHECK(ecs_entities_create(&t) != ECS_NULL);
    ecs_entities_fini(&t);

    ecs_entities_t one = { .limit = 1 };
    CHECK(ecs_entities_create(&one) != ECS_NULL);
    CHECK_EQ(ecs_entities_create(&one), ECS_NULL);
    ecs_entities_fini(&one);
}

/* A slot whose generation is UINT32_MAX is retired on destroy, never reissued. */
static void test_generation_wrap_retires(void) {
    ecs_entities_t t = { 0 };
    const uint64_t next[2] = { UINT32_MAX, 5 };
    CHECK(ecs_entities_restore(&t, NULL, 0, 2, next));
    CHECK_EQ(t.alive, 0);
    ecs_entity_t last = ecs_entities_create(&t); /* the lowest free slot comes first */
    CHECK_EQ(ecs_entity_index(last), 0);
    CHECK_EQ(ecs_entity_generation(last), UINT32_MAX);
    CHECK(ecs_entities_alive(&t, last));
    ecs_entity_t five = ecs_entities_create(&t);
    CHECK_EQ(ecs_entity_index(five), 1);
    CHECK_EQ(ecs_entity_generation(five), 5);

    CHECK(ecs_entities_destroy(&t, last));
    CHECK(!ecs_entities_alive(&t, last));
    CHECK(!ecs_entities_destroy(&t, last));
    CHECK_EQ(t.alive, 1);
    /* Neither generation 0 (the wrap) nor any other of slot 0 is ever handed out again. */
    int reissued = 0;
    for (int k = 0; k < 200; k++) {
        ecs_entity_t e = ecs_entities_create(&t);
        reissued += ecs_entity_index(e) == 0;
        if (k % 2) ecs_entities_destroy(&t, e);
    }
    CHECK_EQ(reissued, 0);
    for (uint32_t g = 0; g < 4; g++) CHECK(!ecs_entities_alive(&t, ecs_entity_make(0, g)));
    CHECK(!ecs_entities_alive(&t, last));
    ecs_entities_fini(&t);
}

static void test_restore(void) {
    ecs_entities_t t = { 0 };
    const ecs_entity_t live[3] = { ecs_entity_make(4, 9), ecs_entity_make(0, 2), ecs_entity_make(2, 0) };
    uint64_t next[6] = { 3, 7, 1, 4, UINT64_C(1) << 32, 0 };
    CHECK(ecs_entities_restore(&t, live, 3, 6, next));
    CHECK_EQ(t.alive, 3);
    CHECK_EQ(t.used, 6);
    for (int k = 0; k < 3; k++) CHECK(ecs_entities_alive(&t, live[k]));
    /* Ids of free slots with generations below the next are stale, and stay so. */
    CHECK(!ecs_entities_alive(&t, ecs_entity_make(1, 6)));
    CHECK(!ecs_entities_alive(&t, ecs_entity_make(1, 7)));
    CHECK(!ecs_entities_alive(&t, ecs_entity_make(3, 0)));
    /* Free slots are reused lowest first with their given generations; next[4], which
     * would retire slot 4, is ignored: slot 4 is live. */
    ecs_entity_t e1 = ecs_entities_create(&t);
    ecs_entity_t e3 = ecs_entities_create(&t);
    ecs_entity_t e5 = ecs_entities_create(&t);
    CHECK_EQ(e1, ecs_entity_make(1, 7));
    CHECK_EQ(e3, ecs_entity_make(3, 4));
    CHECK_EQ(e5, ecs_entity_make(5, 0));
    ecs_entity_t e6 = ecs_entities_create(&t);
    CHECK_EQ(e6, ecs_entity_make(6, 0));
    CHECK_EQ(t.alive, 7);
    ecs_entities_fini(&t);

    /* A generation above UINT32_MAX retires a free slot. */
    const uint64_t retire[3] = { 0, UINT64_C(1) << 32, UINT64_MAX };
    CHECK(ecs_entities_restore(&t, NULL, 0, 3, retire));
    CHECK_EQ(ecs_entities_create(&t), ecs_entity_make(0, 0));
    CHECK_EQ(ecs_entities_create(&t), ecs_entity_make(3, 0)); /* 1 and 2 retired */
    ecs_entities_fini(&t);

    /* NULL generations: every free slot starts at generation 0. */
    const ecs_entity_t mid = ecs_entity_make(1, 3);
    CHECK(ecs_entities_restore(&t, &mid, 1, 2, NULL));
    CHECK_EQ(ecs_entities_create(&t), ecs_entity_make(0, 0));
    CHECK_EQ(ecs_entities_create(&t), ecs_entity_make(2, 0));
    CHECK(ecs_entities_alive(&t, mid));
    /* Restoring over a table in use replaces it. */
    CHECK(ecs_entities_restore(&t, NULL, 0, 0, NULL));
    CHECK_EQ(t.alive, 0);
    CHECK_EQ(t.used, 0);
    CHECK(!ecs_entities_alive(&t, mid));
    CHECK_EQ(ecs_entities_create(&t), ecs_entity_make(0, 0));
    ecs_entities_fini(&t);
}

/* Refused restores leave the table exactly as it was. */
static void test_restore_refused(void) {
    ecs_entities_t t = { .limit = 8 };
    ecs_entity_t a = ecs_entities_create(&t);
    ecs_entity_t b = ecs_entities_create(&t);
    ecs_entity_t c = ecs_entities_create(&t);
    ecs_entities_destroy(&t, b);

    struct {
        const char *why;
        ecs_entity_t live[3];
        uint32_t n, used;
    } bad[] = {
        { "duplicate id", { ecs_entity_make(1, 0), ecs_entity_make(1, 0) }, 2, 4 },
        { "duplicate slot", { ecs_entity_make(1, 0), ecs_entity_make(1, 5) }, 2, 4 },
        { "null id", { ecs_entity_make(0, 0), ECS_NULL }, 2, 4 },
        { "index >= used", { ecs_entity_make(0, 0), ecs_entity_make(4, 0) }, 2, 4 },
        { "used 0 with ids", { ecs_entity_make(0, 0) }, 1, 0 },
        { "used beyond the limit", { ecs_entity_make(0, 0) }, 1, 9 },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snapshot_t before = snapshot_take(&t);
        bool ok = ecs_entities_restore(&t, bad[k].live, bad[k].n, bad[k].used, NULL);
        if (ok) fprintf(stderr, "restore accepted: %s\n", bad[k].why);
        CHECK(!ok);
        CHECK(snapshot_same(&before, &t));
    }
    CHECK(ecs_entities_alive(&t, a));
    CHECK(!ecs_entities_alive(&t, b));
    CHECK(ecs_entities_alive(&t, c));
    /* ... and the table still works: the freed slot comes back next. */
    CHECK_EQ(ecs_entities_create(&t), ecs_entity_make(1, 1));
    /* At the limit exactly is fine. */
    CHECK(ecs_entities_restore(&t, NULL, 0, 8, NULL));
    for (int k = 0; k < 8; k++) CHECK(ecs_entities_create(&t) != ECS_NULL);
    CHECK_EQ(ecs_entities_create(&t), ECS_NULL);
    ecs_entities_fini(&t);
}

/* A free slot's next id is "issued" (its generation is the slot's) but not alive: has and
 * get stand on issued plus a component test, alive on the live bit. */
static void test_issued_is_not_alive(void) {
    ecs_entities_t t = { 0 };
    ecs_entity_t a = ecs_entities_create(&t);
    ecs_entity_t b = ecs_entities_create(&t);
    CHECK(ecs_entities_destroy(&t, b));
    ecs_entity_t next_b = ecs_entity_make(1, 1);
    CHECK(ecs_entities_issued(&t, next_b));
    CHECK(!ecs_entities_alive(&t, next_b));
    CHECK(!ecs_entities_issued(&t, b));
    CHECK(ecs_entities_issued(&t, a) && ecs_entities_alive(&t, a));
    CHECK_EQ(ecs_entities_at(&t, 1), ECS_NULL);
    CHECK_EQ(ecs_entities_at(&t, 0), a);
    CHECK(!ecs_entities_issued(&t, ECS_NULL));
    ecs_entities_fini(&t);
}

/* What a load needs from the table it replaces: per slot, the lowest generation that
 * reissues none of its ids (live: one more; free: its next; retired: none at all). */
static void test_next_generations(void) {
    ecs_entities_t t = { 0 };
    const uint64_t start[3] = { 4, UINT32_MAX, 0 };
    CHECK(ecs_entities_restore(&t, NULL, 0, 3, start));
    ecs_entity_t a = ecs_entities_create(&t); /* slot 0, generation 4 */
    ecs_entity_t last = ecs_entities_create(&t); /* slot 1, generation UINT32_MAX */
    CHECK_EQ(ecs_entity_generation(a), 4);
    CHECK(ecs_entities_destroy(&t, last)); /* retires slot 1 */
    uint64_t next[3];
    ecs_entities_next_generations(&t, next);
    CHECK_EQ(next[0], 5);
    CHECK_EQ(next[1], (uint64_t)UINT32_MAX + 1u);
    CHECK_EQ(next[2], 0);
    ecs_entities_fini(&t);
}

static void *failing_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    if (size == 0) free(ptr);
    return NULL;
}

/* Destroy never fails: when the free stack cannot grow, the slot is retired (lost, never
 * reissued) rather than kept on a list. */
static void test_free_stack_out_of_memory(void) {
    ecs_entities_t t = { 0 };
    ecs_entity_t ids[64];
    for (int k = 0; k < 64; k++) ids[k] = ecs_entities_create(&t);
    CHECK_EQ(t.free_capacity, 0);
    ecs_set_allocator(&(ecs_allocator_t){ failing_realloc, NULL });
    CHECK(ecs_entities_destroy(&t, ids[5]));
    ecs_set_allocator(NULL);
    CHECK(!ecs_entities_alive(&t, ids[5]));
    CHECK_EQ(t.alive, 63);
    CHECK_EQ(t.free_count, 0);
    ecs_entity_t e = ecs_entities_create(&t);
    CHECK_EQ(ecs_entity_index(e), 64); /* slot 5 is not reused */
    uint64_t next[65];
    ecs_entities_next_generations(&t, next);
    CHECK_EQ(next[5], (uint64_t)UINT32_MAX + 1u);
    /* With memory, the stack grows (at most to `used` entries) and slots come back. */
    CHECK(ecs_entities_destroy(&t, ids[7]));
    CHECK_EQ(t.free_count, 1);
    CHECK(t.free_capacity >= 1 && t.free_capacity <= t.used);
    CHECK_EQ(ecs_entity_index(ecs_entities_create(&t)), 7);
    ecs_entities_fini(&t);
}

/* The table's memory: 4 bytes of generation, a byte of marks and a live bit per slot
 * allocated, 4 bytes per free-stack entry; nothing for the free stack until a slot is freed. */
static void test_memory(void) {
    ecs_entities_t t = { 0 };
    for (int k = 0; k < 100; k++) ecs_entities_create(&t);
    CHECK_EQ(t.capacity, 128);
    CHECK_EQ(ecs_entities_memory(&t), 128 * 5 + 2 * 8);
    ecs_entities_fini(&t);
    t.limit = 1000; /* fixed storage: exactly the limit */
    CHECK(ecs_entities_reserve(&t, 1000));
    CHECK_EQ(ecs_entities_memory(&t), 1000 * 5 + 16 * 8 + 1000 * 4);
    ecs_entities_fini(&t);
}

/* The owner's marks are zero in every slot it is handed: new slots, slots grown past the
 * first allocation, a freed slot reused, and every slot after a restore. */
static void test_marks_zero_when_handed_out(void) {
    ecs_entities_t t = { 0 };
    ecs_entity_t ids[200];
    for (int k = 0; k < 200; k++) { /* 200 slots: the table grows from 64 twice */
        ids[k] = ecs_entities_create(&t);
        CHECK_EQ(t.mark[ecs_entity_index(ids[k])], 0);
        t.mark[ecs_entity_index(ids[k])] = (uint8_t)(k | 1);
    }
    CHECK_EQ(t.mark[199], 199 | 1); /* growing kept the marks of live slots */
    CHECK_EQ(t.mark[3], 3 | 1);
    CHECK(ecs_entities_destroy(&t, ids[77]));
    CHECK_EQ(t.mark[77], 0);
    ecs_entity_t again = ecs_entities_create(&t);
    CHECK_EQ(ecs_entity_index(again), 77);
    CHECK_EQ(t.mark[77], 0);
    CHECK_EQ(t.mark[76], 76 | 1); /* the neighbours keep theirs */
    CHECK_EQ(t.mark[78], 78 | 1);
    ecs_entity_t keep[2] = { ids[5], ids[150] };
    CHECK(ecs_entities_restore(&t, keep, 2, 200, NULL));
    for (uint32_t i = 0; i < t.capacity; i++) CHECK_EQ(t.mark[i], 0);
    ecs_entities_fini(&t);
    CHECK(t.mark == NULL);
}

int main(void) {
    test_create_destroy_recycle();
    test_issued_is_not_alive();
    test_next_generations();
    test_free_stack_out_of_memory();
    test_marks_zero_when_handed_out();
    test_memory();
    test_stale_ids_stay_stale();
    test_growth();
    test_limit();
    test_generation_wrap_retires();
    test_restore();
    test_restore_refused();
    return check_finish("test_ecs_entities");
}
