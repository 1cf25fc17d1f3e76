/* ecs_sparse.h: a sparse set, one per component pool: entity -> dense row in O(1).
 *
 * The sparse side is paged (pages of ECS_PAGE_SIZE rows, allocated on first use), so a pool
 * whose entities have high indexes costs memory only for the pages it touches. The dense
 * side lists the members; the owner (generated code) keeps one array per field beside it,
 * row for row, and grows and moves them in step with the set. */
#ifndef ECS_SPARSE_H
#define ECS_SPARSE_H

#include "ecs_types.h"

#define ECS_PAGE_BITS 12u
#define ECS_PAGE_SIZE (1u << ECS_PAGE_BITS)
#define ECS_ROW_NONE UINT32_MAX

typedef struct ecs_sparse {
    uint32_t **pages;     /* entity index >> ECS_PAGE_BITS -> rows (ECS_ROW_NONE = absent) */
    uint32_t page_count;
    ecs_entity_t *dense;  /* row -> entity */
    uint32_t count;       /* members: rows 0..count-1 */
    uint32_t capacity;    /* rows allocated in dense (and in the owner's field arrays) */
    uint64_t version;     /* bumped by every change of members or rows: a list of rows made
                           * when it had some value still holds while it has it */
} ecs_sparse_t;

/* A zeroed ecs_sparse_t is an empty set. */
void ecs_sparse_fini(ecs_sparse_t *s);

/* The dense row of e, or ECS_ROW_NONE. Looks at e's slot index only: callers check that e
 * is live first. Inline, so iteration probes cost no call. */
static inline uint32_t ecs_sparse_row(const ecs_sparse_t *s, ecs_entity_t e) {
    uint32_t index = ecs_entity_index(e);
    uint32_t page = index >> ECS_PAGE_BITS;
    if (page >= s->page_count || !s->pages[page]) return ECS_ROW_NONE;
    return s->pages[page][index & (ECS_PAGE_SIZE - 1u)];
}

/* The capacity to grow to when the set is full: false when no more rows fit. */
bool ecs_sparse_next_capacity(const ecs_sparse_t *s, uint32_t *capacity);

/* Resizes the dense array to `capacity` rows (>= count); false (s untouched) when out of
 * memory. The owner resizes its field arrays first, then calls this. */
bool ecs_sparse_set_capacity(ecs_sparse_t *s, uint32_t capacity);

/* Fixed storage: room for n rows in dense and every page for entity indexes below n, so that
 * a set never allocates again while its members' indexes stay below n. False when out of
 * memory (what was allocated stays, for ecs_sparse_fini). */
bool ecs_sparse_reserve(ecs_sparse_t *s, uint32_t n);

/* The slot of e's row. Needs e's page. */
static inline uint32_t *ecs_sparse_slot(const ecs_sparse_t *s, ecs_entity_t e) {
    uint32_t index = ecs_entity_index(e);
    return &s->pages[index >> ECS_PAGE_BITS][index & (ECS_PAGE_SIZE - 1u)];
}

/* Allocates the page for e (and grows the page table); false when out of memory. */
bool ecs_sparse_add_page(ecs_sparse_t *s, ecs_entity_t e);

/* Makes sure the page for e exists, so that a following insert cannot fail; false when out
 * of memory. Inline (as the calls below), since spawn and add run it for every component. */
static inline bool ecs_sparse_reserve_page(ecs_sparse_t *s, ecs_entity_t e) {
    uint32_t page = ecs_entity_index(e) >> ECS_PAGE_BITS;
    return (page < s->page_count && s->pages[page]) || ecs_sparse_add_page(s, e);
}

/* Appends e (absent, live) at row count and returns that row. Needs count < capacity and
 * e's page reserved. */
static inline uint32_t ecs_sparse_insert(ecs_sparse_t *s, ecs_entity_t e) {
    uint32_t row = s->count++;
    s->version++;
    s->dense[row] = e;
    *ecs_sparse_slot(s, e) = row;
    return row;
}

/* Removes member e, at `row`, by moving the last member into it, and returns the row it
 * came from (the new count). The owner then moves its field values the same way:
 * `if (from != row) x[row] = x[from];`. The caller names e, so row's entry is not read:
 * one cache miss fewer when rows are random. */
static inline uint32_t ecs_sparse_remove(ecs_sparse_t *s, ecs_entity_t e, uint32_t row) {
    uint32_t last = --s->count;
    s->version++;
    *ecs_sparse_slot(s, e) = ECS_ROW_NONE;
    if (row != last) {
        ecs_entity_t moved = s->dense[last];
        s->dense[row] = moved;
        *ecs_sparse_slot(s, moved) = row;
    }
    return last;
}

/* Moves the member at row `from` to `row`, where member e is, and e to `from`: a swap that
 * never reads e's row, for when e's values are about to be dropped (the owner copies its
 * values from `from` to `row` only). */
static inline void ecs_sparse_move_row(ecs_sparse_t *s, ecs_entity_t e, uint32_t row, uint32_t from) {
    ecs_entity_t moved = s->dense[from];
    s->version++;
    s->dense[row] = moved;
    *ecs_sparse_slot(s, moved) = row;
    s->dense[from] = e;
    *ecs_sparse_slot(s, e) = from;
}

/* Exchanges the members at rows a and b (for keeping groups packed). */
static inline void ecs_sparse_swap_rows(ecs_sparse_t *s, uint32_t a, uint32_t b) {
    if (a == b) return;
    s->version++;
    ecs_entity_t ea = s->dense[a];
    ecs_entity_t eb = s->dense[b];
    s->dense[a] = eb;
    s->dense[b] = ea;
    *ecs_sparse_slot(s, eb) = a;
    *ecs_sparse_slot(s, ea) = b;
}

/* Bytes allocated by the set (pages, page table, dense), for memory reports. */
size_t ecs_sparse_memory(const ecs_sparse_t *s);

#endif
