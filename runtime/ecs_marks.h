/* ecs_marks.h: change marks, a bit per 16 rows of an array, so that the flight recorder and
 * incremental snapshots compare only the rows written since their last take instead of a
 * whole world (docs/debugging-with-dumps.md, "Flight recorder").
 *
 * The entity table (its slots), each sparse set (its members) and each data pool (its rows)
 * keep one. Marks cover rows
 * 0..rows-1 (a multiple of 16): a write there sets its row's bit; rows at and past `rows`
 * are compared whole. A world that never takes a snapshot keeps rows at 0, so a write costs
 * one compare of a cached word. ecs_mark_all (rows = 0) marks everything: for a loop or view
 * that hands out pointers into the array, a load, a restore.
 *
 * `rows` never exceeds the array's count (a reset covers at most the count; a member
 * leaving lowers it with the count, ecs_marks_leave): so an append, which writes at the
 * count, needs no mark and costs nothing, and only writes into rows already there do.
 *
 * Built with ECS_NO_CHANGE_MARKS defined, marks cover no row ever: writes test nothing and
 * every take compares the whole world, as before marks existed. Correct, and slower to
 * record: for a program that never takes a snapshot, and to measure what the marks cost
 * (docs/performance.md, "Flight recorder"). Defining it for the generated code alone, over a
 * runtime built without it (as installed), is as correct: the generated resets go through
 * the macro ecs_marks_reset below and cover no row (tests/api/test_marks_off.c). */
#ifndef ECS_MARKS_H
#define ECS_MARKS_H

#include <stdbool.h>
#include <stdint.h>

#include "ecs_types.h"

#define ECS_MARK_SHIFT 4u                     /* 16 rows per bit */
#define ECS_MARK_ROWS (1u << ECS_MARK_SHIFT)

typedef struct ecs_marks {
    uint64_t *bits;     /* bit (r >> 4) % 64 of word r >> 10: a row of r's 16 was written */
    uint32_t rows;      /* rows covered (a multiple of 16; 0: none, compare all) */
    uint32_t words;     /* words allocated in bits */
} ecs_marks_t;

/* The rows m covers, as the writes below test it: none at all without marks. */
#ifdef ECS_NO_CHANGE_MARKS
#define ECS_MARKS_COVER(m) ((void)(m), 0u)
#else
#define ECS_MARKS_COVER(m) ((m)->rows)
#endif

/* 1, or 0 without marks: the slot masks' written bit (generated code: a slot add or remove
 * sets it in its mask word's store, a take turns it into marks) is this shifted to the top. */
#ifdef ECS_NO_CHANGE_MARKS
#define ECS_MARKS_WRITTEN 0u
#else
#define ECS_MARKS_WRITTEN 1u
#endif

static ECS_ALWAYS_INLINE void ecs_mark(ecs_marks_t *m, uint32_t row) {
    if (__builtin_expect(row < ECS_MARKS_COVER(m), 0)) m->bits[row >> (ECS_MARK_SHIFT + 6u)] |= UINT64_C(1) << ((row >> ECS_MARK_SHIFT) & 63u);
}

static ECS_ALWAYS_INLINE void ecs_mark_all(ecs_marks_t *m) {
    m->rows = 0;
}

/* A member left an array whose rows `m` marks, and `also` (NULL: none) marks a second time
 * (a pool's columns beside its set's members; covering no more rows than m): `row` was
 * refilled from row `last`, the new count. Marks row in both and keeps their `rows` at or
 * below the count, so that the append of a later member there is compared. One compare while
 * no snapshot is taken; inline throughout, as a call there (even cold) cost a destroy the
 * registers it keeps across it (churn +4.7 % -> +3.5 % of instructions against no marks). */
static ECS_ALWAYS_INLINE void ecs_marks_leave(ecs_marks_t *m, ecs_marks_t *also, uint32_t row, uint32_t last) {
    if (__builtin_expect(row < ECS_MARKS_COVER(m), 0)) { /* (row >= m's rows: also's too) */
        uint32_t below = last & ~(ECS_MARK_ROWS - 1u); /* the most rows the marks may cover now */
        ecs_mark(m, row);
        if (m->rows > below) m->rows = below;
        if (also) {
            ecs_mark(also, row);
            if (also->rows > below) also->rows = below;
        }
    }
}

/* Rows a and b (a <= b; the same row for one) were written in the array `m` marks and in
 * the one `also` marks (NULL: none; covering no more rows than m): a group's move of a member
 * and its values (a swap or fill in a sparse set). One compare while no snapshot is taken. */
void ecs_marks_moved(ecs_marks_t *m, ecs_marks_t *also, uint32_t a, uint32_t b);
static ECS_ALWAYS_INLINE void ecs_marks_move(ecs_marks_t *m, ecs_marks_t *also, uint32_t a, uint32_t b) {
    if (a < ECS_MARKS_COVER(m)) ecs_marks_moved(m, also, a, b); /* (a >= m's rows: b and also's too) */
}

/* Clears the marks and covers rows 0..rows-1 (rounded down to 16); when the bits cannot grow
 * (out of memory) covers none, which stays correct (everything is compared). (The name in
 * parentheses: not the macro below.) */
void (ecs_marks_reset)(ecs_marks_t *m, uint32_t rows);
#ifdef ECS_NO_CHANGE_MARKS
/* Code built without marks covers no row at its resets, whether or not the runtime it calls
 * was built so too: its writes mark nothing, so its takes must trust no mark. */
#define ecs_marks_reset(m, rows) ((void)(rows), (ecs_marks_reset)((m), 0u))
#endif
void ecs_marks_fini(ecs_marks_t *m);
/* A number no earlier call returned, in any thread: a world's marks get a new one at each
 * reset, and a snapshot or recorder trusts them only while the world's is the one it saw. */
uint64_t ecs_marks_epoch(void);
/* Bytes held, for memory reports. */
static inline size_t ecs_marks_memory(const ecs_marks_t *m) {
    return (size_t)m->words * sizeof *m->bits;
}

#endif
