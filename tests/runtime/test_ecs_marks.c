/* test_ecs_marks.c: change marks. Their unit calls, then their one promise checked on random
 * work: a sparse set and one column of values, changed as generated code changes a pool
 * (appends unmarked, swap-removes, group swaps and fills, writes of rows), differ from a copy
 * taken at the marks' last reset only in marked chunks or at and past the marks' rows.
 * Built a second time with ECS_NO_CHANGE_MARKS (test 'runtime marks off'), where the marks
 * cover no row: the same random work keeps the promise with everything compared. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ecs_marks.h"
#include "ecs_sparse.h"

static bool marked(const ecs_marks_t *m, uint32_t row) {
    return row >= m->rows || ((m->bits[row >> (ECS_MARK_SHIFT + 6u)] >> ((row >> ECS_MARK_SHIFT) & 63u)) & 1u);
}

#ifndef ECS_NO_CHANGE_MARKS
static void test_mark_and_reset(void) {
    ecs_marks_t m = { 0 };
    ecs_mark(&m, 5); /* no rows covered: nothing to set (and no bits to set it in) */
    CHECK(marked(&m, 5));
    ecs_marks_reset(&m, 100);
    CHECK_EQ(m.rows, 96u); /* rounded down to 16: rows 96..99 are compared whole */
    CHECK(!marked(&m, 0) && !marked(&m, 95) && marked(&m, 96));
    ecs_mark(&m, 17);
    CHECK(marked(&m, 16) && marked(&m, 31) && !marked(&m, 32) && !marked(&m, 15));
    ecs_mark_all(&m);
    CHECK(marked(&m, 0));
    ecs_marks_reset(&m, 40);
    CHECK(m.rows == 32u && !marked(&m, 17)); /* a reset clears the bits */
    ecs_marks_fini(&m);
    CHECK(m.bits == NULL && m.rows == 0u);
}

/* A member leaving lowers the rows to the new count, in both marks; a move marks both rows. */
static void test_leave_and_move(void) {
    ecs_marks_t set = { 0 }, columns = { 0 };
    ecs_marks_reset(&set, 64);
    ecs_marks_reset(&columns, set.rows);
    ecs_marks_leave(&set, &columns, 3, 63); /* row 3 refilled from row 63 */
    CHECK(marked(&set, 3) && marked(&columns, 3) && !marked(&set, 20));
    CHECK_EQ(set.rows, 48u);
    CHECK_EQ(columns.rows, 48u); /* the append that refills row 63 lands past both */
    ecs_marks_leave(&set, &columns, 47, 47); /* the last row goes */
    CHECK_EQ(set.rows, 32u);
    CHECK_EQ(columns.rows, 32u);
    ecs_marks_leave(&set, &columns, 40, 45); /* past the marks: nothing to do */
    CHECK_EQ(set.rows, 32u);
    ecs_marks_move(&set, &columns, 1, 20);
    CHECK(marked(&set, 1) && marked(&set, 20) && marked(&columns, 1) && marked(&columns, 20));
    ecs_marks_reset(&set, 64);
    ecs_marks_move(&set, NULL, 50, 60); /* past the marks: nothing to set */
    CHECK(!marked(&set, 1) && !marked(&set, 20));
    ecs_marks_fini(&set);
    ecs_marks_fini(&columns);
}
#else
/* Without marks a reset covers no row and the writes set nothing: all is compared. */
static void test_marks_off(void) {
    ecs_marks_t m = { 0 }, also = { 0 };
    ecs_marks_reset(&m, 100);
    ecs_marks_reset(&also, 100);
    CHECK_EQ(m.rows, 0u);
    CHECK(m.bits == NULL); /* nothing allocated for marks that are never set */
    ecs_mark(&m, 5);
    ecs_marks_leave(&m, &also, 3, 63);
    ecs_marks_move(&m, &also, 1, 2);
    CHECK(m.rows == 0u && also.rows == 0u && marked(&m, 0) && marked(&also, 99));
    ecs_marks_fini(&m);
    ecs_marks_fini(&also);
}
#endif

enum { ROUNDS = 3000, OPS = 24, MAX = 600 }; /* few changes a round: most chunks stay unmarked */

typedef struct {
    ecs_sparse_t set;
    ecs_marks_t marks; /* the column's */
    uint32_t value[MAX];
    uint32_t then_count, then_member[MAX], then_value[MAX]; /* at the last reset */
} pool_t;

static uint32_t next_value = 1;

static void append(pool_t *p, ecs_entity_t e) {
    if (p->set.count == p->set.capacity) {
        uint32_t cap;
        CHECK(ecs_sparse_next_capacity(&p->set, &cap));
        CHECK(ecs_sparse_set_capacity(&p->set, cap < MAX ? cap : MAX));
    }
    CHECK(ecs_sparse_reserve_page(&p->set, e));
    p->value[ecs_sparse_insert(&p->set, e)] = next_value++; /* unmarked: an append */
}

static void remove_at(pool_t *p, uint32_t row) {
    ecs_entity_t e = ecs_entity_make(ecs_sparse_member(&p->set, row), 0);
    uint32_t from = ecs_sparse_remove_marking(&p->set, e, row, &p->marks);
    if (from != row) p->value[row] = p->value[from];
}

static void swap(pool_t *p, uint32_t a, uint32_t b) {
    ecs_sparse_swap_rows(&p->set, a, b, &p->marks);
    uint32_t t = p->value[a];
    p->value[a] = p->value[b];
    p->value[b] = t;
}

/* A group's leave: the last member moves into row, then the set drops it from the last row. */
static void fill_then_remove(pool_t *p, uint32_t row) {
    uint32_t last = p->set.count - 1u;
    ecs_entity_t e = ecs_entity_make(ecs_sparse_member(&p->set, row), 0);
    if (row != last) {
        ecs_sparse_fill(&p->set, row, last, &p->marks);
        p->value[row] = p->value[last];
    }
    ecs_sparse_remove_marking(&p->set, e, last, &p->marks);
}

/* Every difference from the copy is marked, in the set's marks (members) and the column's. */
static void check_marks_cover(const pool_t *p) {
    CHECK(p->marks.rows <= p->set.marks.rows);
    CHECK(p->set.marks.rows <= p->set.count);
    for (uint32_t row = 0; row < p->set.count; row++) {
        bool old = row < p->then_count;
        if (!old || ecs_sparse_member(&p->set, row) != p->then_member[row]) CHECK(marked(&p->set.marks, row));
        if (!old || p->value[row] != p->then_value[row]) CHECK(marked(&p->marks, row));
    }
}

static void reset(pool_t *p) {
    ecs_marks_reset(&p->set.marks, p->set.count);
    ecs_marks_reset(&p->marks, p->set.marks.rows); /* as generated snapshots do */
    p->then_count = p->set.count;
    for (uint32_t row = 0; row < p->set.count; row++) {
        p->then_member[row] = ecs_sparse_member(&p->set, row);
        p->then_value[row] = p->value[row];
    }
}

static void test_random_work_is_covered(void) {
    static pool_t p;
    bool in[MAX] = { false };
    uint64_t seed = 7;
    for (int round = 0; round < ROUNDS; round++) {
        uint32_t target = 50u + (uint32_t)round * 97u % 400u; /* the count drifts to it: down and up */
        for (int op = 0; op < OPS; op++) {
            uint32_t what = (uint32_t)check_xorshift(&seed) % 8;
            uint32_t n = p.set.count;
            if (what <= 1 || (what <= 3 && n < target) || n == 0) { /* append an absent index */
                uint32_t i = (uint32_t)check_xorshift(&seed) % MAX;
                if (!in[i]) {
                    append(&p, ecs_entity_make(i, 0));
                    in[i] = true;
                }
            } else if (what <= 3) {
                uint32_t row = (uint32_t)check_xorshift(&seed) % n;
                in[ecs_sparse_member(&p.set, row)] = false;
                remove_at(&p, row);
            } else if (what <= 5) {
                swap(&p, (uint32_t)check_xorshift(&seed) % n, (uint32_t)check_xorshift(&seed) % n);
            } else if (what == 6) {
                uint32_t row = (uint32_t)check_xorshift(&seed) % n;
                in[ecs_sparse_member(&p.set, row)] = false;
                fill_then_remove(&p, row);
            } else { /* a set's write of a row */
                uint32_t row = (uint32_t)check_xorshift(&seed) % n;
                ecs_mark(&p.marks, row);
                p.value[row] = next_value++;
            }
        }
        check_marks_cover(&p);
        if (round % 7 == 3) ecs_mark_all(&p.marks); /* a view handed the column out */
        if (round % 5 != 4) reset(&p); /* else marks accumulate over two rounds */
    }
#ifdef ECS_NO_CHANGE_MARKS
    CHECK_EQ(p.set.marks.rows, 0u); /* never in use: always "compare all" */
#else
    CHECK(p.set.marks.rows >= 64u); /* the marks were in use, not always "compare all" */
#endif
    ecs_marks_fini(&p.marks);
    ecs_sparse_fini(&p.set);
}

int main(void) {
#ifdef ECS_NO_CHANGE_MARKS
    test_marks_off();
#else
    test_mark_and_reset();
    test_leave_and_move();
#endif
    test_random_work_is_covered();
    return check_finish("test_ecs_marks");
}
