/* ecs_marks.h: change marks, a bit per 16 rows of an array, so that the flight recorder and
 * incremental snapshots compare only the rows written since their last take instead of a
 * whole world (docs/debugging-with-dumps.md, "Flight recorder").
 *
 * The entity table (its slots), each sparse set (its members) and each data pool (its rows)
 * keep one. Marks cover rows
 * 0..rows-1 (a multiple of 16): a write there sets its row's bit; rows at and past `rows`
 * are compared whole. A world that never takes a snapshot keeps rows at 0, so a write costs
 * one compare of a cached word. ecs_mark_all (rows = 0) marks everything: for a loop or view
 * that hands out pointers into the array, a load, a restore. */
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

static ECS_ALWAYS_INLINE void ecs_mark(ecs_marks_t *m, uint32_t row) {
    if (row < m->rows) m->bits[row >> (ECS_MARK_SHIFT + 6u)] |= UINT64_C(1) << ((row >> ECS_MARK_SHIFT) & 63u);
}

static ECS_ALWAYS_INLINE void ecs_mark_all(ecs_marks_t *m) {
    m->rows = 0;
}

/* Clears the marks and covers rows 0..rows-1 (rounded down to 16); when the bits cannot grow
 * (out of memory) covers none, which stays correct (everything is compared). */
void ecs_marks_reset(ecs_marks_t *m, uint32_t rows);
void ecs_marks_fini(ecs_marks_t *m);
/* A number no earlier call returned, in any thread: a world's marks get a new one at each
 * reset, and a snapshot or recorder trusts them only while the world's is the one it saw. */
uint64_t ecs_marks_epoch(void);
/* Bytes held, for memory reports. */
static inline size_t ecs_marks_memory(const ecs_marks_t *m) {
    return (size_t)m->words * sizeof *m->bits;
}

#endif
