/* ecs_entities.h: the entity table: creates ids, recycles slots, tells live ids from stale. */
#ifndef ECS_ENTITIES_H
#define ECS_ENTITIES_H

#include "ecs_types.h"

/* Each slot holds one of:
 *   live:    the entity's id (so a liveness test is one compare);
 *   free:    next generation << 32 | (next free slot + 1), a LIFO free list (0 ends it);
 *   retired: 0: its generation ran out, so it is never handed out again.
 * A free or retired slot never equals a valid id for that slot: its low bits differ. */
typedef struct ecs_entities {
    ecs_entity_t *slots;
    uint32_t used;      /* slots ever handed out (live, free or retired) */
    uint32_t capacity;  /* slots allocated */
    uint32_t alive;     /* live entities */
    uint32_t free_head; /* first free slot + 1, 0 when none */
    uint32_t limit;     /* at most this many slots; 0 = up to ECS_INDEX_MAX + 1 */
} ecs_entities_t;

/* A zeroed ecs_entities_t is an empty table; limit may be set before first use. */
void ecs_entities_fini(ecs_entities_t *t);

/* Allocates room for n slots now (at most the limit), so that creating up to n entities
 * never allocates: fixed storage. False when out of memory or n exceeds the limit. */
bool ecs_entities_reserve(ecs_entities_t *t, uint32_t n);

/* A fresh id; ECS_NULL when the limit is reached or memory runs out. */
ecs_entity_t ecs_entities_create(ecs_entities_t *t);

/* Makes e stale; false (nothing changes) when e is not live. A slot whose generation would
 * wrap is retired rather than reissued, so no stale id can ever become live again. */
bool ecs_entities_destroy(ecs_entities_t *t, ecs_entity_t e);

static inline bool ecs_entities_alive(const ecs_entities_t *t, ecs_entity_t e) {
    uint32_t i = ecs_entity_index(e);
    return i < t->used && t->slots[i] == e;
}

/* The id live in slot i, or ECS_NULL when the slot is free, retired or never used. */
static inline ecs_entity_t ecs_entities_at(const ecs_entities_t *t, uint32_t i) {
    return i < t->used && t->slots[i] != 0 && ecs_entity_index(t->slots[i]) == i ? t->slots[i] : ECS_NULL;
}

/* Rebuilds the table so that exactly the ids in live[0..n) are live, e.g. after a load.
 * Every other slot below `used` becomes free and will next be issued with generation
 * next_generation[i] (NULL: 0); a value above UINT32_MAX retires the slot. Passing
 * generations above any id seen for a slot keeps stale ids stale. `used` must exceed every
 * index in live. The table keeps at least its capacity (fixed storage stays fixed). False (t untouched) on null or duplicate slots, a limit exceeded, or out
 * of memory. */
bool ecs_entities_restore(ecs_entities_t *t, const ecs_entity_t *live, uint32_t n, uint32_t used,
                          const uint64_t *next_generation);

#endif
