/* ecs_sparse.h: a sparse set, one per component pool: entity -> dense row in O(1).
 *
 * The sparse side is paged (pages of ECS_PAGE_SIZE rows, allocated on first use), so a pool
 * whose entities have high indexes costs memory only for the pages it touches. The dense
 * side lists the members; the owner (generated code) keeps one array per field beside it,
 * row for row, and grows and moves them in step with the set.
 *
 * The dense side holds each member's 32-bit slot index (its id is that and the slot's
 * generation, which the entity table has), or, in a set made with keeps_ids, its 64-bit id:
 * for the pool whose dense array an owned view hands out as `entity`. Half the bytes per
 * member for every other pool. */
#ifndef ECS_SPARSE_H
#define ECS_SPARSE_H

#include "ecs_marks.h"
#include "ecs_types.h"

#define ECS_PAGE_BITS 12u
#define ECS_PAGE_SIZE (1u << ECS_PAGE_BITS)
#define ECS_ROW_NONE UINT32_MAX

typedef struct ecs_sparse {
    uint32_t **pages;     /* entity index >> ECS_PAGE_BITS -> row + 1 per index (0: absent,
                           * so that a new page is zeroed memory, which calloc gets cheaply) */
    uint32_t page_count;
    uint32_t count;       /* members: rows 0..count-1 */
    uint32_t capacity;    /* rows allocated in the dense array (and the owner's field arrays) */
    bool keeps_ids;       /* dense side: id (true) or index (false); set before first use */
    uint32_t *index;      /* row -> member's slot index (when !keeps_ids) */
    ecs_entity_t *id;     /* row -> member's id (when keeps_ids) */
    uint64_t version;     /* bumped by every change of members or rows: a list of rows made
                           * when it had some value still holds while it has it */
    uint32_t ordered;     /* rows 0..ordered-1 hold slot indexes 0..ordered-1, in order: the
                           * pool of a world spawned in order, until a member leaves from or
                           * moves within those rows. get, ref and has below it need no
                           * sparse entry (ecs_sparse_lookup) */
    ecs_marks_t marks;    /* rows written (ecs_marks.h): the dense side here, the owner's
                           * field arrays by the owner */
} ecs_sparse_t;

/* A zeroed ecs_sparse_t is an empty set that keeps slot indexes; set keeps_ids before the
 * first insert or reserve for one that keeps ids. */
void ecs_sparse_fini(ecs_sparse_t *s);

/* The sparse entry (row + 1, 0 = absent) of slot index i. Needs i's page. */
static inline uint32_t *ecs_sparse_entry(const ecs_sparse_t *s, uint32_t i) {
    return &s->pages[i >> ECS_PAGE_BITS][i & (ECS_PAGE_SIZE - 1u)];
}

/* The dense row of e, or ECS_ROW_NONE. Looks at e's slot index only: callers check that e
 * is live first. Inline, so iteration probes cost no call. */
static inline uint32_t ecs_sparse_row(const ecs_sparse_t *s, ecs_entity_t e) {
    uint32_t index = ecs_entity_index(e);
    uint32_t page = index >> ECS_PAGE_BITS;
    if (page >= s->page_count || !s->pages[page]) return ECS_ROW_NONE;
    return s->pages[page][index & (ECS_PAGE_SIZE - 1u)] - 1u; /* absent: 0 - 1 = ECS_ROW_NONE */
}

/* The row to read e's values at, given its row from the sparse entry and its slot index.
 * When entities were spawned in order and kept their components, a member's row is its slot
 * index. Then this returns the slot index, so that the loads indexed by it depend only on a
 * predicted branch, not on the sparse entry's load: the CPU fetches the value and the entry
 * at once, one memory latency instead of two in a row. When rows and slots differ, the
 * branch learns that and it returns row. Two empty asm statements keep the compilers from
 * undoing this: the first hides that the copy equals row inside the branch (clang would
 * read at row, they being equal), the second keeps it a branch (gcc would make it a
 * conditional move, which waits for row): check the disassembly of both after a change. */
static ECS_ALWAYS_INLINE uint32_t ecs_sparse_read_row(uint32_t row, uint32_t slot) {
#if defined(__GNUC__) || defined(__clang__)
    uint32_t at = slot;
    __asm__("" : "+r"(at));
    if (__builtin_expect(row == slot, 1)) {
        __asm__("" : "+r"(at));
        return at;
    }
#else
    (void)slot;
#endif
    return row;
}

/* Whether e is a member, for has: below the ordered prefix without loading the sparse
 * entry. */
static inline bool ecs_sparse_has(const ecs_sparse_t *s, ecs_entity_t e) {
    return ecs_entity_index(e) < s->ordered || ecs_sparse_row(s, e) != ECS_ROW_NONE;
}

/* The row to read e's values at (ECS_ROW_NONE when absent), for get and ref: a lookup by id
 * at a random place. Below the ordered prefix it is the slot index, found without loading
 * the sparse entry (at 1M, one cache miss where the entry would make two); above it
 * ecs_sparse_row's row, through ecs_sparse_read_row. The structural paths (add, remove,
 * destroy, groups, loops) call ecs_sparse_row: there the prefix is rarely intact (a spawn
 * appends past it, a destroy ends it), and the test would cost them a branch for nothing. */
static ECS_ALWAYS_INLINE uint32_t ecs_sparse_lookup(const ecs_sparse_t *s, ecs_entity_t e) {
    uint32_t index = ecs_entity_index(e);
    if (index < s->ordered) return index;
    return ecs_sparse_read_row(ecs_sparse_row(s, e), index); /* ECS_ROW_NONE stays ECS_ROW_NONE */
}

/* Rows from `row` up changed members: the ordered prefix ends at row, if not below it. */
static ECS_ALWAYS_INLINE void ecs_sparse_rows_changed(ecs_sparse_t *s, uint32_t row) {
    if (row < s->ordered) s->ordered = row;
}

/* The slot index of the member at row. */
static ECS_ALWAYS_INLINE uint32_t ecs_sparse_member(const ecs_sparse_t *s, uint32_t row) {
    return s->keeps_ids ? ecs_entity_index(s->id[row]) : s->index[row];
}

/* The id of the member at row; `generation` is the entity table's (per slot). */
static ECS_ALWAYS_INLINE ecs_entity_t ecs_sparse_id(const ecs_sparse_t *s, uint32_t row, const uint32_t *generation) {
    if (s->keeps_ids) return s->id[row];
    uint32_t i = s->index[row];
    return ecs_entity_make(i, generation[i]);
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

/* Allocates the page for e (and grows the page table); false when out of memory. */
bool ecs_sparse_add_page(ecs_sparse_t *s, ecs_entity_t e);

/* Makes sure the page for e exists, so that a following insert cannot fail; false when out
 * of memory. Inline (as the calls below), since spawn and add run it for every component. */
static inline bool ecs_sparse_reserve_page(ecs_sparse_t *s, ecs_entity_t e) {
    uint32_t page = ecs_entity_index(e) >> ECS_PAGE_BITS;
    return (page < s->page_count && s->pages[page]) || ecs_sparse_add_page(s, e);
}

/* Puts member e at row (the dense side only; the caller marks it). */
static ECS_ALWAYS_INLINE void ecs_sparse_put(ecs_sparse_t *s, uint32_t row, ecs_entity_t e) {
    if (s->keeps_ids) s->id[row] = e;
    else s->index[row] = ecs_entity_index(e);
}

/* Copies the dense entry at row `from` to row `to` (the caller marks it). */
static ECS_ALWAYS_INLINE void ecs_sparse_copy(ecs_sparse_t *s, uint32_t to, uint32_t from) {
    if (s->keeps_ids) s->id[to] = s->id[from];
    else s->index[to] = s->index[from];
}

/* Appends e (absent, live) at row count and returns that row. Needs count < capacity and
 * e's page reserved. An append needs no change mark (ecs_marks.h), nor do the owner's
 * values written there. */
static inline uint32_t ecs_sparse_insert(ecs_sparse_t *s, ecs_entity_t e) {
    uint32_t row = s->count++;
    s->version++;
    if (row == s->ordered && ecs_entity_index(e) == row) s->ordered++;
    ecs_sparse_put(s, row, e);
    *ecs_sparse_entry(s, ecs_entity_index(e)) = row + 1u;
    return row;
}

/* Removes member e, at `row`, by moving the last member into it, and returns the row it
 * came from (the new count). The owner then moves its field values the same way:
 * `if (from != row) x[row] = x[from];`, having passed its columns' change marks as
 * `columns` (NULL: none), which are kept with the set's (ecs_marks_leave). The caller names
 * e, so row's entry is not read: one cache miss fewer when rows are random. Always inline:
 * left to gcc, it can go out of line in a large destroy, a call per pool in the churn loop
 * (docs/performance.md). */
static ECS_ALWAYS_INLINE uint32_t ecs_sparse_remove_marking(ecs_sparse_t *s, ecs_entity_t e, uint32_t row, ecs_marks_t *columns) {
    uint32_t last = --s->count;
    s->version++;
    ecs_sparse_rows_changed(s, row); /* row changes (or goes, when it was the last) */
    ecs_marks_leave(&s->marks, columns, row, last);
    *ecs_sparse_entry(s, ecs_entity_index(e)) = 0;
    if (row != last) {
        uint32_t moved = ecs_sparse_member(s, last);
        ecs_sparse_copy(s, row, last);
        *ecs_sparse_entry(s, moved) = row + 1u;
    }
    return last;
}

/* ecs_sparse_remove_marking for a set whose owner keeps no values (a tag's). */
static ECS_ALWAYS_INLINE uint32_t ecs_sparse_remove(ecs_sparse_t *s, ecs_entity_t e, uint32_t row) {
    return ecs_sparse_remove_marking(s, e, row, NULL);
}

/* Moves the member at row `from` into `row`, whose member is leaving, for removing a member
 * of an owning group: each group it leaves fills its row with the group's last member, and
 * ecs_sparse_remove_marking then takes it out at the row the last fill emptied. Row `from` keeps a
 * stale copy, and the leaving member's entry its old row, until that remove, which also
 * bumps `version`: neither is read or written here, so that a destroy stores each row once. */
static inline void ecs_sparse_fill(ecs_sparse_t *s, uint32_t row, uint32_t from, ecs_marks_t *columns) {
    uint32_t moved = ecs_sparse_member(s, from);
    ecs_sparse_rows_changed(s, row);
    ecs_marks_move(&s->marks, columns, row, row); /* the owner moves its values there too */
    ecs_sparse_copy(s, row, from);
    *ecs_sparse_entry(s, moved) = row + 1u;
}

/* Exchanges the members at rows a and b (for keeping groups packed); the owner exchanges its
 * values too, and passes their change marks as `columns` (NULL: none). */
static inline void ecs_sparse_swap_rows(ecs_sparse_t *s, uint32_t a, uint32_t b, ecs_marks_t *columns) {
    if (a == b) return;
    s->version++;
    ecs_marks_move(&s->marks, columns, a < b ? a : b, a < b ? b : a);
    ecs_sparse_rows_changed(s, a < b ? a : b);
    uint32_t ia = ecs_sparse_member(s, a);
    uint32_t ib = ecs_sparse_member(s, b);
    if (s->keeps_ids) {
        ecs_entity_t ea = s->id[a];
        s->id[a] = s->id[b];
        s->id[b] = ea;
    } else {
        s->index[a] = ib;
        s->index[b] = ia;
    }
    *ecs_sparse_entry(s, ib) = a + 1u;
    *ecs_sparse_entry(s, ia) = b + 1u;
}

/* Bytes allocated by the set (pages, page table, dense), for memory reports. */
size_t ecs_sparse_memory(const ecs_sparse_t *s);

#endif
