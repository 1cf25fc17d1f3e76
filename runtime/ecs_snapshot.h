/* ecs_snapshot.h: copies of a world's memory blocks and the differences between two copies,
 * for the generated snapshots and flight recorder (<name>_snapshot_*, <name>_recorder_*).
 *
 * Generated code lists a world's state as blocks: block 0 is the world struct itself (its
 * counts, singletons, group sizes), then one block per owned array, each its live bytes
 * (entity table, each pool's dense side and columns, slot masks and rows, pending and
 * deferred lists). An image holds a copy of every block; a delta holds, per block, its size
 * in the target and the byte ranges where the target differs from its source. Nothing here
 * knows a schema: a new structure in the world is one more block in the generated list. */
#ifndef ECS_SNAPSHOT_H
#define ECS_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecs_marks.h"

/* A block of a world: its address and its live bytes; and, for an array whose writes are
 * marked (ecs_marks.h), its marks and the bytes of 16 rows (one mark bit), else NULL and 0.
 * `also` (NULL: none): marks whose set bits count as the block's too, bit for bit (the
 * entity table's, for a slot pool's rows: a slot's chunk there covers its rows in every slot
 * pool, so that spawn and destroy, whose create and destroy mark the slot, test no mark per
 * slot pool); past the rows either covers, the block is compared whole. */
typedef struct ecs_snap_block {
    void *data;
    size_t size;
    const ecs_marks_t *marks;
    size_t chunk;
    const ecs_marks_t *also;
} ecs_snap_block_t;

/* The block of array a (n live elements), compared whole; the one whose writes are marked in
 * m (one bit per 16 elements, the rows); and the one marked in m and in `also` as well. */
#define ECS_SNAP_WHOLE(a, n) ((ecs_snap_block_t){ (void *)(uintptr_t)(a), (size_t)(n) * sizeof *(a), NULL, 0, NULL })
#define ECS_SNAP_MARKED(a, n, m) ECS_SNAP_MARKED_ALSO(a, n, m, NULL)
#define ECS_SNAP_MARKED_ALSO(a, n, m, also) \
    ((ecs_snap_block_t){ (void *)(uintptr_t)(a), (size_t)(n) * sizeof *(a), &(m), ECS_MARK_ROWS * sizeof *(a), (also) })

typedef struct ecs_snap_buf {
    unsigned char *data;
    size_t size, capacity;
} ecs_snap_buf_t;

/* A copy of every block of a world. A zeroed struct is an empty image. */
typedef struct ecs_snap_image {
    ecs_snap_buf_t *blocks;
    uint32_t count;
} ecs_snap_image_t;

/* What turns one image into another: each block's size in the target and, in `ranges`,
 * records { uint64_t offset, size; } each followed by `size` bytes of the target (padded to
 * 8), block k's records from starts[k] to starts[k + 1]. Every byte of the target that
 * differs from the source, or lies past the source's size, is in a range. A zeroed struct
 * is an empty delta. */
typedef struct ecs_snap_delta {
    size_t *sizes;  /* count: each block's size in the target */
    size_t *starts; /* count + 1: where each block's records begin in ranges */
    uint32_t count;
    ecs_snap_buf_t ranges;
} ecs_snap_delta_t;

void ecs_snap_image_fini(ecs_snap_image_t *img);
void ecs_snap_delta_fini(ecs_snap_delta_t *d);
/* Bytes held (capacities), for memory reports. */
size_t ecs_snap_image_memory(const ecs_snap_image_t *img);
size_t ecs_snap_delta_memory(const ecs_snap_delta_t *d);

/* Copies the n blocks into img (a full copy); false when out of memory (img then holds no
 * valid copy: count 0). */
bool ecs_snap_image_take(ecs_snap_image_t *img, const ecs_snap_block_t *blocks, uint32_t n);
/* Copies src into dst; false when out of memory (dst count 0). */
bool ecs_snap_image_copy(ecs_snap_image_t *dst, const ecs_snap_image_t *src);

/* The blocks as a delta from image `base` (same block count): d gets the ranges where the
 * blocks differ from base. With `marked`, the caller promises that base was taken when the
 * blocks' marks were last reset: only marked rows and rows past the marks are compared, and
 * a run of a few marked rows is kept whole, not compared (a range may hold equal bytes).
 * False when out of memory or the counts differ. */
bool ecs_snap_delta_take(ecs_snap_delta_t *d, const ecs_snap_image_t *base, const ecs_snap_block_t *blocks, uint32_t n,
                         bool marked);

/* The recorder's step: `back` gets the delta that turns the blocks' content back into
 * head's, and head becomes a copy of the blocks. The blocks are compared with head once
 * (with `marked`, as in ecs_snap_delta_take, only where marked); only what differs is
 * copied twice. False when out of memory (head then holds no valid copy: count 0). */
bool ecs_snap_record(ecs_snap_image_t *head, ecs_snap_delta_t *back, const ecs_snap_block_t *blocks, uint32_t n,
                     bool marked);

/* Whether blocks first..n-1 hold exactly (base, d)'s content (d NULL: base's), the debug
 * check of marks: false, with the first block and byte offset that differ, when a write was
 * not marked (or out of memory, offset SIZE_MAX). */
bool ecs_snap_matches(const ecs_snap_image_t *base, const ecs_snap_delta_t *d, const ecs_snap_block_t *blocks, uint32_t first,
                      uint32_t n, uint32_t *block, size_t *offset);

/* Applies d to img in place (img must be d's source); false when out of memory (img then
 * holds no valid copy: count 0) or d does not fit img. */
bool ecs_snap_apply(ecs_snap_image_t *img, const ecs_snap_delta_t *d);

/* Block k of (base, d) -- d's target when d is not NULL, else base -- written to dst, which
 * has room for that block's size: base's bytes, then d's ranges. */
void ecs_snap_write_block(const ecs_snap_image_t *base, const ecs_snap_delta_t *d, uint32_t k, void *dst);
/* Block k of image base written over blocks[k] (the same size), only where the block's marks
 * say it may differ from base: its marked chunks and the rows past its marks (all of it
 * when it has no marks). The caller promises that base was taken, or last restored, when
 * the marks were last reset. */
void ecs_snap_write_marked(const ecs_snap_image_t *base, uint32_t k, const ecs_snap_block_t *blocks);
/* That block's size. */
static inline size_t ecs_snap_block_size(const ecs_snap_image_t *base, const ecs_snap_delta_t *d, uint32_t k) {
    return d ? d->sizes[k] : base->blocks[k].size;
}

/* The blocks of sparse-storage component c's pool (its metadata, ecs_meta.h): its members
 * (the set's dense side), then each column in the metadata's order, with the arrays of
 * world w and the count of world o (o == w to take one), each marked in its marks. Writes
 * them at b and returns how many (1 + the component's columns). */
struct ecs_meta_component;
uint32_t ecs_snap_pool_blocks(ecs_snap_block_t *b, const void *o, const void *w, const struct ecs_meta_component *c);

/* A sparse set's part of a restore (generated code calls these for each pool, its members
 * `then` (n of them, ids or slot indexes as the set keeps) being the state restored; NULL
 * when not at hand, an incremental snapshot's):
 * fit: the pages the members need (all pages below `used` when then is NULL); false when
 * out of memory. leave, before the members are copied: clears the entries of members that
 * go or move (all when then is NULL) and sets those of the new ones, and says what is left
 * to do (below). With `members` (the members' block, its marks trusted as in
 * ecs_snap_write_marked) leave compares only the marked rows to find whether any changed. */
typedef enum {
    ECS_SNAP_MEMBERS_MOVED, /* entries set: copy the members back */
    ECS_SNAP_MEMBERS_SAME,  /* the members are those restored: no copy, no entry to set */
    ECS_SNAP_MEMBERS_LEFT   /* then NULL: copy the members back, then set every entry (enter) */
} ecs_snap_members_t;
struct ecs_sparse;
bool ecs_snap_sparse_fit(struct ecs_sparse *set, const void *then, uint32_t n, uint32_t used);
ecs_snap_members_t ecs_snap_sparse_leave(struct ecs_sparse *set, const void *then, uint32_t n,
                                         const ecs_snap_block_t *members);
void ecs_snap_sparse_enter(struct ecs_sparse *set);

#endif
