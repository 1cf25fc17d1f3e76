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

/* Makes sure the page for e exists, so that a following insert cannot fail; false when out
 * of memory. */
bool ecs_sparse_reserve_page(ecs_sparse_t *s, ecs_entity_t e);

/* Appends e (absent, live) at row count and returns that row. Needs count < capacity and
 * e's page reserved. */
uint32_t ecs_sparse_insert(ecs_sparse_t *s, ecs_entity_t e);

/* Removes the member at `row` by moving the last member into it, and returns the row it
 * came from (the new count). The owner then moves its field values the same way:
 * `if (from != row) x[row] = x[from];`. */
uint32_t ecs_sparse_remove_row(ecs_sparse_t *s, uint32_t row);

/* Exchanges the members at rows a and b (for keeping groups packed). */
void ecs_sparse_swap_rows(ecs_sparse_t *s, uint32_t a, uint32_t b);

/* Removes every member, keeping the memory. */
void ecs_sparse_clear(ecs_sparse_t *s);

/* Bytes allocated by the set (pages, page table, dense), for memory reports. */
size_t ecs_sparse_memory(const ecs_sparse_t *s);

#endif
