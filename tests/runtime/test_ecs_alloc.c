/* test_ecs_alloc.c: the allocator hook: a counting allocator sees every allocation of the
 * runtime, overflowing sizes are refused before reaching it, NULL restores libc. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ecs_alloc.h"
#include "ecs_entities.h"
#include "ecs_sparse.h"

/* Counts calls and live blocks; fills new memory with 0xAB so a missing zeroing shows; fails
 * every request once `fail_after` more have succeeded (-1: never). */
typedef struct counter {
    int allocs, resizes, frees, live, fail_after;
    size_t last_size;
} counter_t;

static void *counting_realloc(void *ptr, size_t size, void *user) {
    counter_t *c = user;
    if (size == 0) {
        c->frees++;
        c->live--;
        free(ptr);
        return NULL;
    }
    if (c->fail_after == 0) return NULL;
    if (c->fail_after > 0) c->fail_after--;
    c->last_size = size;
    void *p = realloc(ptr, size);
    if (!p) return NULL;
    if (ptr) {
        c->resizes++;
    } else {
        c->allocs++;
        c->live++;
        memset(p, 0xAB, size);
    }
    return p;
}

static void test_counting(void) {
    counter_t c = { .fail_after = -1 };
    ecs_set_allocator(&(ecs_allocator_t){ counting_realloc, &c });

    int *a = ecs_realloc_array(NULL, 10, sizeof *a);
    CHECK(a != NULL);
    CHECK_EQ(c.allocs, 1);
    CHECK_EQ(c.last_size, 10 * sizeof *a);
    a[9] = 99;
    a = ecs_realloc_array(a, 1000, sizeof *a);
    CHECK(a != NULL);
    CHECK_EQ(c.resizes, 1);
    CHECK_EQ(a[9], 99);
    ecs_free(a);
    CHECK_EQ(c.frees, 1);
    CHECK_EQ(c.live, 0);
    ecs_free(NULL); /* no call for NULL */
    CHECK_EQ(c.frees, 1);

    unsigned char *z = ecs_calloc(64, 1);
    CHECK(z != NULL);
    int nonzero = 0;
    for (int i = 0; i < 64; i++) nonzero += z[i] != 0;
    CHECK_EQ(nonzero, 0); /* the allocator handed out 0xAB bytes */
    ecs_free(z);

    /* The entity table and a sparse set allocate only through the hook, and free it all. */
    c = (counter_t){ .fail_after = -1 };
    ecs_entities_t t = { 0 };
    ecs_sparse_t s = { 0 };
    for (int i = 0; i < 5000; i++) {
        ecs_entity_t e = ecs_entities_create(&t);
        uint32_t cap;
        if (s.count == s.capacity) {
            CHECK(ecs_sparse_next_capacity(&s, &cap));
            CHECK(ecs_sparse_set_capacity(&s, cap));
        }
        CHECK(ecs_sparse_reserve_page(&s, e));
        ecs_sparse_insert(&s, e);
    }
    CHECK(c.allocs >= 4); /* slots, page table, a page, dense */
    CHECK(c.resizes > 0);
    CHECK(c.live > 0);
    ecs_entities_fini(&t);
    ecs_sparse_fini(&s);
    CHECK_EQ(c.live, 0);
    CHECK_EQ(c.frees, c.allocs);
    ecs_set_allocator(NULL);
}

static void test_overflow(void) {
    counter_t c = { .fail_after = -1 };
    ecs_set_allocator(&(ecs_allocator_t){ counting_realloc, &c });
    CHECK(ecs_realloc_array(NULL, SIZE_MAX / 2u + 1u, 2) == NULL);
    CHECK(ecs_realloc_array(NULL, 2, SIZE_MAX / 2u + 1u) == NULL);
    CHECK(ecs_realloc_array(NULL, SIZE_MAX, SIZE_MAX) == NULL);
    CHECK(ecs_calloc(SIZE_MAX / 8u + 1u, 8) == NULL);
    CHECK(ecs_realloc_array(NULL, 0, 8) == NULL);
    CHECK_EQ(c.allocs + c.resizes, 0); /* refused before asking the allocator */

    /* An overflowing resize leaves the block as it was. */
    int *a = ecs_realloc_array(NULL, 4, sizeof *a);
    a[3] = 7;
    CHECK(ecs_realloc_array(a, SIZE_MAX / 2u, sizeof *a) == NULL);
    CHECK_EQ(a[3], 7);
    /* So does a failing one. */
    c.fail_after = 0;
    CHECK(ecs_realloc_array(a, 8, sizeof *a) == NULL);
    CHECK_EQ(a[3], 7);
    c.fail_after = -1;
    ecs_free(a);
    CHECK_EQ(c.live, 0);
    ecs_set_allocator(NULL);
}

/* Out of memory at every possible point: the runtime reports it and stays consistent. */
static void test_out_of_memory(void) {
    counter_t c;
    ecs_set_allocator(&(ecs_allocator_t){ counting_realloc, &c });
    for (int budget = 0; budget < 6; budget++) {
        c = (counter_t){ .fail_after = budget };
        ecs_entities_t t = { 0 };
        ecs_sparse_t s = { 0 };
        int created = 0, inserted = 0;
        for (int i = 0; i < 300; i++) {
            ecs_entity_t e = ecs_entities_create(&t);
            if (e == ECS_NULL) continue;
            created++;
            uint32_t cap;
            if (s.count == s.capacity &&
                !(ecs_sparse_next_capacity(&s, &cap) && ecs_sparse_set_capacity(&s, cap)))
                continue;
            if (!ecs_sparse_reserve_page(&s, e)) continue;
            ecs_sparse_insert(&s, e);
            inserted++;
        }
        CHECK_EQ(t.alive, (uint32_t)created);
        CHECK_EQ(s.count, (uint32_t)inserted);
        CHECK(created < 300); /* the budget ran out somewhere */
        for (uint32_t row = 0; row < s.count; row++) CHECK_EQ(ecs_sparse_row(&s, ecs_entity_make(ecs_sparse_member(&s, row), 0)), row);
        ecs_entities_fini(&t);
        ecs_sparse_fini(&s);
        CHECK_EQ(c.live, 0);
    }
    ecs_set_allocator(NULL);
}

static void test_restore_libc(void) {
    counter_t c = { .fail_after = -1 };
    ecs_set_allocator(&(ecs_allocator_t){ counting_realloc, &c });
    void *p = ecs_realloc_array(NULL, 1, 16);
    ecs_free(p);
    CHECK_EQ(c.allocs, 1);
    ecs_set_allocator(NULL);
    p = ecs_calloc(4, 16);
    CHECK(p != NULL);
    p = ecs_realloc_array(p, 8, 16);
    CHECK(p != NULL);
    ecs_free(p);
    CHECK_EQ(c.allocs, 1); /* libc did those */
    CHECK_EQ(c.resizes, 0);
    CHECK_EQ(c.frees, 1);
}

int main(void) {
    test_counting();
    test_overflow();
    test_out_of_memory();
    test_restore_libc();
    return check_finish("test_ecs_alloc");
}
