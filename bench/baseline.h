/* baseline.h: the hand-written code each workload is compared with, in the same process.
 *
 * For entities that all have position and velocity, the fastest honest layout is one array
 * per field indexed by the entity's slot, plus a generation per slot to tell live ids from
 * stale: no sparse set, no indirection. For add+remove, the baseline is a minimal sparse
 * set (slot -> row, row -> slot, row -> value). These are the rows the ratios divide by. */
#ifndef BASELINE_H
#define BASELINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct base_world {
    uint32_t *generation; /* per slot; a live id's high half */
    uint32_t *next_free;  /* per slot: the free list (slot + 1, 0 ends it) */
    float *px, *py, *vx, *vy;
    uint32_t used, capacity, free_head, alive;
} base_world_t;

/* A minimal sparse set with one float per member. */
typedef struct base_sparse {
    uint32_t *sparse; /* slot -> row, UINT32_MAX = absent; sized for `slots` */
    uint32_t *dense;  /* row -> slot */
    float *value;
    uint32_t count;
} base_sparse_t;

void base_world_init(base_world_t *w);
void base_world_fini(base_world_t *w);
uint64_t base_create(base_world_t *w, float px, float py, float vx, float vy);
void base_destroy(base_world_t *w, uint64_t e);
/* position.x of a live e (0 for a stale id). */
static inline float base_get_x(const base_world_t *w, uint64_t e) {
    uint32_t slot = (uint32_t)e;
    return slot < w->used && w->generation[slot] == (uint32_t)(e >> 32) ? w->px[slot] : 0.0f;
}
/* position.x + position.y of a live e (0 for a stale id): every field of the component. */
static inline float base_get_xy(const base_world_t *w, uint64_t e) {
    uint32_t slot = (uint32_t)e;
    return slot < w->used && w->generation[slot] == (uint32_t)(e >> 32) ? w->px[slot] + w->py[slot] : 0.0f;
}
size_t base_memory(const base_world_t *w);

void base_sparse_init(base_sparse_t *s, uint32_t slots);
void base_sparse_fini(base_sparse_t *s);
void base_sparse_add(base_sparse_t *s, uint32_t slot, float v);
void base_sparse_remove(base_sparse_t *s, uint32_t slot);

#endif
