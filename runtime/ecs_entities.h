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

static inline bool ecs_entities_alive(const ecs_entities_t *t, ecs_entity_t e) {
    uint32_t i = ecs_entity_index(e);
    return i < t->used && t->slots[i] == e;
}

/* The most slots the table may hold. */
static inline uint32_t ecs_entities_max_slots(const ecs_entities_t *t) {
    return t->limit ? t->limit : ECS_INDEX_MAX + 1u;
}

/* Room for `need` slots (create's cold path); false when that passes the limit or memory
 * runs out. */
bool ecs_entities_grow(ecs_entities_t *t, uint32_t need);

/* A fresh id; ECS_NULL when the limit is reached or memory runs out. Inline (as destroy), so
 * generated spawn and destroy make no call into the runtime. */
static inline ecs_entity_t ecs_entities_create(ecs_entities_t *t) {
    uint32_t index;
    uint32_t generation;
    if (t->free_head) {
        index = t->free_head - 1u;
        generation = ecs_entity_generation(t->slots[index]);
        t->free_head = (uint32_t)(t->slots[index] & UINT32_MAX); /* the link to the next free slot */
    } else {
        if (t->used >= t->capacity && !ecs_entities_grow(t, t->used + 1u)) return ECS_NULL;
        index = t->used++;
        generation = 0;
    }
    ecs_entity_t e = ecs_entity_make(index, generation);
    t->slots[index] = e;
    t->alive++;
    return e;
}

/* Makes e stale; false (nothing changes) when e is not live. A slot whose generation would
 * wrap is retired rather than reissued, so no stale id can ever become live again. */
static inline bool ecs_entities_destroy(ecs_entities_t *t, ecs_entity_t e) {
    if (!ecs_entities_alive(t, e)) return false;
    uint32_t index = ecs_entity_index(e);
    uint32_t generation = ecs_entity_generation(e);
    if (generation == UINT32_MAX) {
        t->slots[index] = 0; /* retired */
    } else {
        t->slots[index] = ((ecs_entity_t)(generation + 1u) << 32) | t->free_head;
        t->free_head = index + 1u;
    }
    t->alive--;
    return true;
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
