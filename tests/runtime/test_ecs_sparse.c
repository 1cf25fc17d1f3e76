/* test_ecs_sparse.c: sparse sets: insert, swap-remove, swap, lazy pages, growth, the ordered
 * prefix; each test runs on a set that keeps slot indexes and on one that keeps ids. */
#include <stdlib.h>

#include "check.h"
#include "ecs_sparse.h"

/* Grows s as generated code does when it is full. */
static void grow_if_full(ecs_sparse_t *s) {
    uint32_t cap;
    if (s->count < s->capacity) return;
    CHECK(ecs_sparse_next_capacity(s, &cap));
    CHECK(cap > s->capacity);
    CHECK(ecs_sparse_set_capacity(s, cap));
}

static uint32_t add(ecs_sparse_t *s, ecs_entity_t e) {
    grow_if_full(s);
    CHECK(ecs_sparse_reserve_page(s, e));
    return ecs_sparse_insert(s, e);
}

static bool keeps_ids; /* the kind of set the tests make */

static ecs_sparse_t new_set(void) {
    return (ecs_sparse_t){ .keeps_ids = keeps_ids };
}

/* The member at row: its id, or (a set of slot indexes) an id with its index. */
static ecs_entity_t member(const ecs_sparse_t *s, uint32_t row) {
    return s->keeps_ids ? s->id[row] : ecs_entity_make(ecs_sparse_member(s, row), 0);
}

/* Whether row holds e: its index, and in a set that keeps ids, its id. */
static bool holds(const ecs_sparse_t *s, uint32_t row, ecs_entity_t e) {
    return ecs_sparse_member(s, row) == ecs_entity_index(e) && (!s->keeps_ids || s->id[row] == e);
}

/* Every member's sparse entry points at its dense row (read from the entry itself, since
 * ecs_sparse_lookup skips it below `ordered`), every row below `ordered` holds its own slot,
 * and ecs_sparse_row and ecs_sparse_lookup find each member. */
static bool consistent(const ecs_sparse_t *s) {
    if (s->ordered > s->count) return false;
    for (uint32_t row = 0; row < s->count; row++) {
        uint32_t slot = ecs_sparse_member(s, row);
        if (*ecs_sparse_entry(s, slot) != row + 1u || ecs_sparse_row(s, member(s, row)) != row ||
            ecs_sparse_lookup(s, member(s, row)) != row || !ecs_sparse_has(s, member(s, row)))
            return false;
        if (row < s->ordered && slot != row) return false;
    }
    return true;
}

static void test_empty(void) {
    ecs_sparse_t s = new_set();
    CHECK_EQ(ecs_sparse_row(&s, ecs_entity_make(0, 0)), ECS_ROW_NONE);
    CHECK_EQ(ecs_sparse_row(&s, ecs_entity_make(123456, 7)), ECS_ROW_NONE);
    CHECK_EQ(ecs_sparse_row(&s, ECS_NULL), ECS_ROW_NONE);
    CHECK_EQ(ecs_sparse_memory(&s), 0);
    ecs_sparse_fini(&s);
}

static void test_insert_remove_swap(void) {
    ecs_sparse_t s = new_set();
    ecs_entity_t a = ecs_entity_make(3, 0), b = ecs_entity_make(10, 2), c = ecs_entity_make(0, 1),
                 d = ecs_entity_make(7, 4);
    CHECK_EQ(add(&s, a), 0);
    CHECK_EQ(add(&s, b), 1);
    CHECK_EQ(add(&s, c), 2);
    CHECK_EQ(add(&s, d), 3);
    CHECK_EQ(s.count, 4);
    CHECK(holds(&s, 0, a));
    CHECK(holds(&s, 3, d));
    CHECK_EQ(ecs_sparse_row(&s, b), 1);
    CHECK_EQ(ecs_sparse_row(&s, c), 2);
    CHECK_EQ(ecs_sparse_row(&s, ecs_entity_make(4, 0)), ECS_ROW_NONE); /* same page, absent */
    CHECK_EQ(ecs_sparse_row(&s, ECS_NULL), ECS_ROW_NONE);

    /* Removing row 0 moves the last member (d) into it and returns the row it came from. */
    CHECK_EQ(ecs_sparse_remove(&s, a, 0), 3);
    CHECK_EQ(s.count, 3);
    CHECK(holds(&s, 0, d));
    CHECK_EQ(ecs_sparse_row(&s, d), 0);
    CHECK_EQ(ecs_sparse_row(&s, a), ECS_ROW_NONE);
    CHECK(consistent(&s));

    /* Removing the last row moves nothing: from == row. */
    CHECK_EQ(ecs_sparse_remove(&s, c, 2), 2);
    CHECK_EQ(ecs_sparse_row(&s, c), ECS_ROW_NONE);
    CHECK_EQ(s.count, 2);
    CHECK(consistent(&s));

    CHECK_EQ(add(&s, a), 2);
    ecs_sparse_swap_rows(&s, 0, 2, NULL);
    CHECK(holds(&s, 0, a));
    CHECK(holds(&s, 2, d));
    CHECK_EQ(ecs_sparse_row(&s, a), 0);
    CHECK_EQ(ecs_sparse_row(&s, d), 2);
    ecs_sparse_swap_rows(&s, 1, 1, NULL);
    CHECK(holds(&s, 1, b));
    CHECK_EQ(ecs_sparse_row(&s, b), 1);
    CHECK(consistent(&s));

    /* Removing every member keeps the memory. */
    uint32_t capacity = s.capacity;
    uint32_t pages = s.page_count;
    while (s.count) ecs_sparse_remove(&s, member(&s, s.count - 1), s.count - 1);
    CHECK_EQ(s.count, 0);
    CHECK_EQ(s.capacity, capacity);
    CHECK_EQ(s.page_count, pages);
    CHECK_EQ(ecs_sparse_row(&s, a), ECS_ROW_NONE);
    CHECK_EQ(ecs_sparse_row(&s, b), ECS_ROW_NONE);
    CHECK_EQ(ecs_sparse_row(&s, d), ECS_ROW_NONE);
    CHECK_EQ(add(&s, b), 0); /* usable again */
    CHECK_EQ(ecs_sparse_row(&s, b), 0);
    ecs_sparse_fini(&s);
    CHECK_EQ(s.count, 0);
    CHECK(s.index == NULL && s.id == NULL && s.pages == NULL);
    CHECK_EQ(s.keeps_ids, keeps_ids); /* the kind stays */
}

/* Pages exist only where members are: a high index costs one page, not all below it. */
static void test_lazy_pages(void) {
    ecs_sparse_t s = new_set();
    ecs_entity_t high = ecs_entity_make(25u * ECS_PAGE_SIZE + 17u, 0);
    CHECK(ecs_sparse_next_capacity(&s, &(uint32_t){ 0 }));
    add(&s, high);
    CHECK_EQ(s.page_count, 26);
    int allocated = 0;
    for (uint32_t p = 0; p < s.page_count; p++) allocated += s.pages[p] != NULL;
    CHECK_EQ(allocated, 1);
    CHECK(s.pages[25] != NULL);
    CHECK_EQ(ecs_sparse_row(&s, high), 0);
    /* Lookups in pages that were never allocated say absent without touching memory. */
    CHECK_EQ(ecs_sparse_row(&s, ecs_entity_make(17, 0)), ECS_ROW_NONE);
    CHECK_EQ(ecs_sparse_row(&s, ecs_entity_make(30u * ECS_PAGE_SIZE, 0)), ECS_ROW_NONE);
    CHECK_EQ(ecs_sparse_memory(&s), 26 * sizeof(uint32_t *) + ECS_PAGE_SIZE * sizeof(uint32_t) +
                                        s.capacity * (keeps_ids ? sizeof(ecs_entity_t) : sizeof(uint32_t)));

    /* A second member on the same page allocates nothing more; one lower adds one page. */
    add(&s, ecs_entity_make(25u * ECS_PAGE_SIZE, 0));
    CHECK_EQ(s.page_count, 26);
    add(&s, ecs_entity_make(5, 0));
    allocated = 0;
    for (uint32_t p = 0; p < s.page_count; p++) allocated += s.pages[p] != NULL;
    CHECK_EQ(allocated, 2);
    CHECK_EQ(ecs_sparse_row(&s, ecs_entity_make(5, 0)), 2);
    /* The highest index of all: its page is the last possible one. */
    ecs_entity_t top = ecs_entity_make(ECS_INDEX_MAX, 0);
    add(&s, top);
    CHECK_EQ(s.page_count, (ECS_INDEX_MAX >> ECS_PAGE_BITS) + 1u);
    CHECK_EQ(ecs_sparse_row(&s, top), 3);
    CHECK_EQ(ecs_sparse_row(&s, ECS_NULL), ECS_ROW_NONE);
    CHECK(consistent(&s));
    ecs_sparse_fini(&s);
}

static void test_capacity(void) {
    ecs_sparse_t s = new_set();
    uint32_t cap = 0;
    CHECK(ecs_sparse_next_capacity(&s, &cap));
    CHECK_EQ(cap, 16);
    CHECK(ecs_sparse_set_capacity(&s, cap));
    CHECK_EQ(s.capacity, 16);
    CHECK(ecs_sparse_next_capacity(&s, &cap));
    CHECK_EQ(cap, 32);
    for (uint32_t i = 0; i < 5; i++) add(&s, ecs_entity_make(i, 0));
    /* Shrinking below the members is refused and changes nothing. */
    CHECK(!ecs_sparse_set_capacity(&s, 4));
    CHECK_EQ(s.capacity, 16);
    CHECK(ecs_sparse_set_capacity(&s, 5));
    CHECK_EQ(s.capacity, 5);
    CHECK(consistent(&s));
    ecs_sparse_fini(&s);

    /* The limits, on a set that only pretends to be that big (next_capacity reads capacity). */
    ecs_sparse_t big = { .capacity = UINT32_MAX - 1u };
    CHECK(!ecs_sparse_next_capacity(&big, &cap));
    big.capacity = UINT32_MAX / 2u + 5u;
    CHECK(ecs_sparse_next_capacity(&big, &cap));
    CHECK_EQ(cap, UINT32_MAX - 1u);
    big.capacity = 1000;
    CHECK(ecs_sparse_next_capacity(&big, &cap));
    CHECK_EQ(cap, 2000);
}

/* Many members spread over many pages, then removal of half in scrambled order. */
static void test_many(void) {
    ecs_sparse_t s = new_set();
    enum { N = 50000 };
    for (uint32_t i = 0; i < N; i++) add(&s, ecs_entity_make(i * 7u, i % 5u));
    CHECK_EQ(s.count, N);
    CHECK(s.capacity >= N);
    CHECK(consistent(&s));
    int bad = 0;
    for (uint32_t i = 0; i < N; i++) bad += ecs_sparse_row(&s, ecs_entity_make(i * 7u, 0)) != i;
    for (uint32_t i = 0; i < N; i++) bad += ecs_sparse_row(&s, ecs_entity_make(i * 7u + 1u, 0)) != ECS_ROW_NONE;
    CHECK_EQ(bad, 0);
    uint64_t x = 88172645463325252u; /* check_xorshift's state: a fixed scramble */
    for (int k = 0; k < N / 2; k++) {
        check_xorshift(&x);
        uint32_t row = (uint32_t)(x % s.count);
        ecs_sparse_remove(&s, member(&s, row), row);
    }
    CHECK_EQ(s.count, N - N / 2);
    CHECK(consistent(&s));
    uint32_t members = 0;
    for (uint32_t i = 0; i < N; i++) members += ecs_sparse_row(&s, ecs_entity_make(i * 7u, 0)) != ECS_ROW_NONE;
    CHECK_EQ(members, s.count);
    ecs_sparse_fini(&s);
}

/* A member leaving two nested groups and then the set: two fills and a remove, as generated
 * destroy does. ecs_sparse_id gives full ids from either kind. */
static void test_fill_and_ids(void) {
    ecs_sparse_t s = new_set();
    const uint32_t generation[] = { 4, 0, 9, 2, 7 }; /* an entity table's, per slot */
    ecs_entity_t a = ecs_entity_make(0, 4), b = ecs_entity_make(2, 9), c = ecs_entity_make(3, 2),
                 d = ecs_entity_make(4, 7);
    add(&s, a);
    add(&s, b);
    add(&s, c);
    add(&s, d);
    /* a leaves the inner group (rows 0..1), the outer one (rows 0..2), then the set */
    uint64_t version = s.version;
    ecs_sparse_fill(&s, 0, 1, NULL); /* b to row 0 */
    ecs_sparse_fill(&s, 1, 2, NULL); /* c to row 1 */
    CHECK_EQ(ecs_sparse_row(&s, b), 0);
    CHECK_EQ(ecs_sparse_row(&s, c), 1);
    CHECK_EQ(ecs_sparse_remove(&s, a, 2), 3); /* d, the last, to row 2 */
    CHECK(s.version > version);
    CHECK(holds(&s, 0, b) && holds(&s, 1, c) && holds(&s, 2, d));
    CHECK_EQ(s.count, 3);
    CHECK_EQ(ecs_sparse_row(&s, a), ECS_ROW_NONE);
    CHECK(consistent(&s));
    CHECK_EQ(ecs_sparse_id(&s, 0, generation), b);
    CHECK_EQ(ecs_sparse_id(&s, 1, generation), c);
    CHECK_EQ(ecs_sparse_id(&s, 2, generation), d);
    ecs_sparse_fini(&s);
}

/* `ordered` (rows 0..ordered-1 hold slots 0..ordered-1) through random inserts, removes,
 * swaps and fills, checked against a plain array of the members; the set is spawned in order
 * now and then so that `ordered` climbs again. */
static void test_ordered(void) {
    enum { SLOTS = 3 * ECS_PAGE_SIZE, OPS = 40000 };
    static uint32_t row_of[SLOTS]; /* the model: row + 1 per slot, 0 = absent */
    for (uint32_t i = 0; i < SLOTS; i++) row_of[i] = 0;
    ecs_sparse_t s = new_set();
    for (uint32_t i = 0; i < 100; i++) row_of[i] = add(&s, ecs_entity_make(i, 1)) + 1u;
    CHECK_EQ(s.ordered, 100);
    CHECK(consistent(&s));
    ecs_sparse_remove(&s, ecs_entity_make(99, 1), 99); /* the last row: the rest stay in order */
    row_of[99] = 0;
    CHECK_EQ(s.ordered, 99);
    ecs_sparse_remove(&s, ecs_entity_make(40, 1), 40); /* row 98's member moves to row 40 */
    row_of[98] = 41, row_of[40] = 0;
    CHECK_EQ(s.ordered, 40);
    CHECK(consistent(&s));
    uint64_t x = 0x9E3779B97F4A7C15u;
    int wrong = 0;
    for (int op = 0; op < OPS; op++) {
        check_xorshift(&x);
        uint32_t slot = (uint32_t)(x >> 8) % SLOTS;
        uint32_t kind = (uint32_t)x % 8u;
        if (kind < 4 && !row_of[slot]) {
            if (kind == 0 && s.count < SLOTS && !row_of[s.count]) slot = s.count; /* in order */
            row_of[slot] = add(&s, ecs_entity_make(slot, 1)) + 1u;
        } else if (kind < 6 && row_of[slot]) {
            uint32_t row = row_of[slot] - 1u, last = s.count - 1u;
            uint32_t moved = ecs_sparse_member(&s, last);
            CHECK_EQ(ecs_sparse_remove(&s, ecs_entity_make(slot, 1), row), last);
            row_of[moved] = row + 1u;
            row_of[slot] = 0;
        } else if (kind == 6 && s.count >= 2) {
            uint32_t a = (uint32_t)(x >> 40) % s.count, b = (uint32_t)(x >> 20) % s.count;
            uint32_t ia = ecs_sparse_member(&s, a), ib = ecs_sparse_member(&s, b);
            ecs_sparse_swap_rows(&s, a, b, NULL);
            row_of[ia] = b + 1u, row_of[ib] = a + 1u;
        } else if (kind == 7 && row_of[slot]) { /* leave a group of rows 0..from, then the set */
            uint32_t row = row_of[slot] - 1u, from = row + (uint32_t)(x >> 40) % (s.count - row);
            uint32_t last = s.count - 1u, filler = ecs_sparse_member(&s, from), moved = ecs_sparse_member(&s, last);
            ecs_sparse_fill(&s, row, from, NULL);
            row_of[filler] = row + 1u;
            CHECK_EQ(ecs_sparse_remove(&s, ecs_entity_make(slot, 1), from), last);
            if (from != last) row_of[moved] = from + 1u;
            row_of[slot] = 0;
        }
        if (op % 97 == 0 || s.count < 8) {
            wrong += !consistent(&s);
            for (uint32_t i = 0; i < SLOTS; i++) {
                ecs_entity_t e = ecs_entity_make(i, 1);
                wrong += ecs_sparse_row(&s, e) != row_of[i] - 1u || ecs_sparse_lookup(&s, e) != row_of[i] - 1u ||
                         ecs_sparse_has(&s, e) != (row_of[i] != 0);
            }
        }
        if (s.count == 0) CHECK_EQ(s.ordered, 0);
    }
    CHECK_EQ(wrong, 0);
    while (s.count) { /* empty it; then an in-order refill is ordered again */
        uint32_t last = s.count - 1u;
        ecs_sparse_remove(&s, member(&s, last), last);
    }
    CHECK_EQ(s.ordered, 0);
    for (uint32_t i = 0; i < 10; i++) add(&s, ecs_entity_make(i, 2));
    CHECK_EQ(s.ordered, 10);
    CHECK(consistent(&s));
    ecs_sparse_fini(&s);
}

int main(void) {
    for (int kind = 0; kind < 2; kind++) {
        keeps_ids = kind == 1;
        test_empty();
        test_insert_remove_swap();
        test_lazy_pages();
        test_capacity();
        test_many();
        test_fill_and_ids();
        test_ordered();
    }
    return check_finish("test_ecs_sparse");
}
