/* test_ecs_iter.c: the iteration cursor (smallest set, backwards, safe removal of the current
 * member) and the preprocessor helpers the generated macros use. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ecs_alloc.h"
#include "ecs_entities.h"
#include "ecs_iter.h"

/* The entity table the set walks make ids with: every generation 0, as fill's ids have. */
static uint32_t generations[2000];
static const ecs_entities_t table = { .generation = generations };

static void fill(ecs_sparse_t *s, uint32_t first, uint32_t n) {
    for (uint32_t i = first; i < first + n; i++) {
        ecs_entity_t e = ecs_entity_make(i, 0);
        uint32_t cap;
        if (s->count == s->capacity) {
            CHECK(ecs_sparse_next_capacity(s, &cap));
            CHECK(ecs_sparse_set_capacity(s, cap));
        }
        CHECK(ecs_sparse_reserve_page(s, e));
        ecs_sparse_insert(s, e);
    }
}

static void test_smallest(void) {
    ecs_sparse_t a = { 0 }, b = { 0 }, c = { 0 };
    fill(&a, 0, 5);
    fill(&b, 10, 2);
    fill(&c, 20, 9);
    ecs_cursor_t cur = ecs_cursor_smallest(3, (const ecs_walk_t[]){ ecs_walk_set(&a, &table), ecs_walk_set(&b, &table), ecs_walk_set(&c, &table) });
    CHECK(cur.set == &b);
    CHECK_EQ(cur.next, 2);
    cur = ecs_cursor_smallest(2, (const ecs_walk_t[]){ ecs_walk_set(&c, &table), ecs_walk_set(&a, &table) });
    CHECK(cur.set == &a);
    cur = ecs_cursor_smallest(1, (const ecs_walk_t[]){ ecs_walk_set(&c, &table) });
    CHECK(cur.set == &c);
    CHECK_EQ(cur.next, 9);
    /* Ties: the first named. An empty set wins and the walk ends at once. */
    fill(&b, 12, 3);
    cur = ecs_cursor_smallest(2, (const ecs_walk_t[]){ ecs_walk_set(&a, &table), ecs_walk_set(&b, &table) });
    CHECK(cur.set == &a);
    ecs_sparse_t empty = { 0 };
    cur = ecs_cursor_smallest(3, (const ecs_walk_t[]){ ecs_walk_set(&a, &table), ecs_walk_set(&empty, &table), ecs_walk_set(&c, &table) });
    CHECK(cur.set == &empty);
    ecs_entity_t e = 12345;
    CHECK(!ecs_cursor_step(&cur, &e));
    CHECK_EQ(e, 12345); /* untouched when done */
    ecs_sparse_fini(&a);
    ecs_sparse_fini(&b);
    ecs_sparse_fini(&c);
}

static void test_backwards(void) {
    ecs_sparse_t s = { 0 };
    fill(&s, 0, 6);
    ecs_cursor_t cur = ecs_cursor_smallest(1, (const ecs_walk_t[]){ ecs_walk_set(&s, &table) });
    ecs_entity_t e;
    uint32_t expect = 6, steps = 0;
    while (ecs_cursor_step(&cur, &e)) {
        CHECK_EQ(e, ecs_entity_make(ecs_sparse_member(&s, --expect), 0));
        steps++;
    }
    CHECK_EQ(steps, 6);
    CHECK(!ecs_cursor_step(&cur, &e)); /* stays done */
    ecs_sparse_fini(&s);
}

/* Removing the current member (and sometimes also already-visited ones) during the walk:
 * every member present at the start is visited exactly once, members added are not. */
static void test_removal_during_walk(void) {
    enum { N = 1000 };
    for (int mode = 0; mode < 4; mode++) {
        ecs_sparse_t s = { 0 };
        fill(&s, 0, N);
        static int visits[N + 200];
        memset(visits, 0, sizeof visits);
        ecs_cursor_t cur = ecs_cursor_smallest(1, (const ecs_walk_t[]){ ecs_walk_set(&s, &table) });
        ecs_entity_t e;
        uint32_t added = 0;
        while (ecs_cursor_step(&cur, &e)) {
            uint32_t i = ecs_entity_index(e);
            visits[i]++;
            bool remove = mode == 0 || (mode == 1 && i % 2) || (mode >= 2 && i % 3 == 0);
            if (remove) ecs_sparse_remove(&s, e, ecs_sparse_row(&s, e));
            /* mode 2: also remove the last member, which was visited already */
            if (mode == 2 && s.count > cur.next + 1 && i % 7 == 0)
                ecs_sparse_remove(&s, ecs_entity_make(ecs_sparse_member(&s, s.count - 1), 0), s.count - 1);
            /* mode 3: add new members, which must not be visited */
            if (mode == 3 && i % 10 == 0 && added < 100) fill(&s, N + added++, 1);
        }
        int wrong = 0;
        for (uint32_t i = 0; i < N; i++) wrong += visits[i] != 1;
        for (uint32_t i = N; i < N + 200; i++) wrong += visits[i] != 0;
        if (wrong) fprintf(stderr, "removal mode %d: %d entities visited not once\n", mode, wrong);
        CHECK_EQ(wrong, 0);
        if (mode == 0) CHECK_EQ(s.count, 0);
        if (mode == 1) CHECK_EQ(s.count, N / 2);
        if (mode == 3) CHECK_EQ(s.count, N - (N + 2) / 3 + added);
        ecs_sparse_fini(&s);
    }
}

/* Removing everyone behind the cursor at once: the walk goes on from what is left. */
static void test_clear_during_walk(void) {
    ecs_sparse_t s = { 0 };
    fill(&s, 0, 10);
    ecs_cursor_t cur = ecs_cursor_smallest(1, (const ecs_walk_t[]){ ecs_walk_set(&s, &table) });
    ecs_entity_t e;
    int steps = 0;
    while (ecs_cursor_step(&cur, &e)) {
        steps++;
        if (steps == 3)
            while (s.count) ecs_sparse_remove(&s, ecs_entity_make(ecs_sparse_member(&s, 0), 0), 0);
    }
    CHECK_EQ(steps, 3);
    ecs_sparse_fini(&s);
}

/* Walking entity slots (slot storage): slots that are not live are skipped, and a walk
 * over the table is chosen when it is the shortest. */
static void test_slots_walk(void) {
    ecs_entities_t t = { 0 };
    ecs_entity_t ids[6];
    for (int k = 0; k < 6; k++) ids[k] = ecs_entities_create(&t);
    CHECK(ecs_entities_destroy(&t, ids[1]));
    CHECK(ecs_entities_destroy(&t, ids[4]));
    ecs_sparse_t big = { 0 };
    fill(&big, 0, 50);
    ecs_walk_t slots = ecs_walk_slots(&t);
    ecs_cursor_t cur = ecs_cursor_smallest(2, (const ecs_walk_t[]){ ecs_walk_set(&big, &table), slots });
    CHECK(!cur.set && cur.entities == &t);
    ecs_entity_t e, seen[6];
    int n = 0;
    while (ecs_cursor_step(&cur, &e)) seen[n++] = e;
    CHECK_EQ(n, 4);
    CHECK_EQ(seen[0], ids[5]);
    CHECK_EQ(seen[1], ids[3]);
    CHECK_EQ(seen[2], ids[2]);
    CHECK_EQ(seen[3], ids[0]);
    ecs_sparse_fini(&big);
    ecs_entities_fini(&t);
}

/* A set that keeps slot indexes hands the walk full ids: the table's generations. */
static void test_set_walk_ids(void) {
    ecs_entities_t t = { 0 };
    ecs_entity_t ids[4];
    for (int k = 0; k < 4; k++) ids[k] = ecs_entities_create(&t);
    CHECK(ecs_entities_destroy(&t, ids[2]));
    ids[2] = ecs_entities_create(&t); /* slot 2 again, generation 1 */
    CHECK_EQ(ecs_entity_generation(ids[2]), 1);
    ecs_sparse_t s = { 0 };
    CHECK(ecs_sparse_set_capacity(&s, 4));
    for (int k = 0; k < 4; k++) {
        CHECK(ecs_sparse_reserve_page(&s, ids[k]));
        ecs_sparse_insert(&s, ids[k]);
    }
    ecs_cursor_t cur = ecs_cursor_smallest(1, (const ecs_walk_t[]){ ecs_walk_set(&s, &t) });
    ecs_entity_t e;
    int k = 4;
    while (ecs_cursor_step(&cur, &e)) CHECK_EQ(e, ids[--k]);
    CHECK_EQ(k, 0);
    ecs_sparse_fini(&s);
    ecs_entities_fini(&t);
}

#define ADD_ONE(ctx, x) ((ctx) + (x))
#define TIMES(ctx, x) ((ctx) * (x))
static void test_preprocessor(void) {
    CHECK_EQ(ECS_PP_NARGS(a), 1);
    CHECK_EQ(ECS_PP_NARGS(a, b, c), 3);
    CHECK_EQ(ECS_PP_NARGS(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p), 16);
    int list[] = { ECS_PP_MAP(ADD_ONE, ECS_PP_COMMA, 1, 10, 20, 30) };
    CHECK_EQ(sizeof list / sizeof list[0], 3);
    CHECK_EQ(list[0], 11);
    CHECK_EQ(list[2], 31);
    CHECK(ECS_PP_MAP(TIMES, ECS_PP_AND, 1, 1, 2, 3));
    CHECK(!(ECS_PP_MAP(TIMES, ECS_PP_AND, 1, 1, 0, 3)));
    int sixteen[] = { ECS_PP_MAP(TIMES, ECS_PP_COMMA, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16) };
    CHECK_EQ(sizeof sixteen / sizeof sixteen[0], 16);
    CHECK_EQ(sixteen[15], 32);
    int unparen[] = { ECS_PP_UNPAREN(4, 5) };
    CHECK_EQ(unparen[1], 5);
}

/* The allocator for test_match_list_fit: fails the call numbered `fail_at` (1-based). */
static int alloc_calls, fail_at;
static void *failing_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    if (size && ++alloc_calls == fail_at) return NULL;
    if (!size) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, size);
}

/* A view's match list grows its ids and every row list to n, and stays valid when memory
 * runs out part way: what grew keeps its rows, the capacity stays. */
static void test_match_list_fit(void) {
    ecs_entity_t *entity = NULL;
    uint32_t *a = NULL, *b = NULL, capacity = 0;
    uint32_t **const row[] = { &a, &b };
    CHECK(ecs_match_list_fit(&entity, row, 2, &capacity, 10));
    CHECK(capacity == 10u && entity && a && b);
    for (uint32_t i = 0; i < 10; i++) entity[i] = i, a[i] = i + 100u, b[i] = i + 200u;
    CHECK(ecs_match_list_fit(&entity, row, 2, &capacity, 4) && capacity == 10u); /* room already */
    const ecs_allocator_t failing = { failing_realloc, NULL };
    ecs_set_allocator(&failing);
    alloc_calls = 0;
    fail_at = 3; /* the ids and a grow, b does not */
    CHECK(!ecs_match_list_fit(&entity, row, 2, &capacity, 1000));
    CHECK_EQ(capacity, 10u);
    CHECK(entity[9] == 9u && a[9] == 109u && b[9] == 209u);
    fail_at = 0;
    CHECK(ecs_match_list_fit(&entity, row, 2, &capacity, 1000) && capacity == 1000u);
    CHECK(entity[9] == 9u && a[9] == 109u && b[9] == 209u);
    a[999] = b[999] = 1; /* the new rows are there (ASan and valgrind would say otherwise) */
    ecs_set_allocator(NULL);
    free(entity);
    free(a);
    free(b);
}

int main(void) {
    test_smallest();
    test_backwards();
    test_removal_during_walk();
    test_clear_during_walk();
    test_slots_walk();
    test_set_walk_ids();
    test_preprocessor();
    test_match_list_fit();
    return check_finish("test_ecs_iter");
}
