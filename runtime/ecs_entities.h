/* ecs_entities.h: the entity table: creates ids, recycles slots, tells live ids from stale. */
#ifndef ECS_ENTITIES_H
#define ECS_ENTITIES_H

#include "ecs_marks.h"
#include "ecs_types.h"

/* Per slot, a 32-bit generation and a live bit (with the mark byte below, 5.1 bytes a slot, so
 * that a get or a liveness test touches little memory):
 *   live:    the live entity's generation, live bit set;
 *   free:    the generation its next entity gets, live bit clear; the slot is on the free
 *            stack (last freed, first reused);
 *   retired: live bit clear and not on the free stack: its generations ran out (or the stack
 *            could not grow), so it is never handed out again.
 * No live id has a free slot's generation (it was never issued), so a live bit is needed only
 * to tell the live from the free: a component test (free slots have no components) serves
 * as well, see ecs_entities_issued.
 *
 * Per slot also a byte of marks for the owner (generated code: which classes of component
 * pools the entity may be in, so that destroy visits only those). The table only keeps it
 * zero while the slot is not live: zeroed when the table grows or is restored, and when
 * destroy frees the slot. */
typedef struct ecs_entities {
    uint32_t *generation; /* per slot, see above */
    uint64_t *live;       /* bit i % 64 of word i / 64: slot i is live */
    uint8_t *mark;        /* per slot, the owner's marks (see above) */
    uint32_t *free;       /* the free stack: free[free_count - 1] is reused next */
    uint32_t free_count, free_capacity;
    uint32_t used;     /* slots ever handed out (live, free or retired) */
    uint32_t capacity; /* slots allocated (generations and live bits) */
    uint32_t alive;    /* live entities */
    uint32_t limit;    /* at most this many slots; 0 = up to ECS_INDEX_MAX + 1 */
    ecs_marks_t marks; /* slots whose generation, live bit or mark changed (ecs_marks.h;
                        * the owner marks what it keeps per slot too: its mark byte, masks) */
} ecs_entities_t;

/* A zeroed ecs_entities_t is an empty table; limit may be set before first use. */
void ecs_entities_fini(ecs_entities_t *t);

/* Allocates room for n slots now (at most the limit), and a free stack that holds them all,
 * so that creating and destroying up to n entities never allocates: fixed storage. False
 * when out of memory or n exceeds the limit. */
bool ecs_entities_reserve(ecs_entities_t *t, uint32_t n);

/* Whether slot i (below used) holds a live entity. */
static ECS_ALWAYS_INLINE bool ecs_entities_live_at(const ecs_entities_t *t, uint32_t i) {
    return (t->live[i >> 6] >> (i & 63u)) & 1u;
}

/* Whether e's generation is its slot's: true for the live id of the slot, and for the id
 * its next entity will get (issued to no one yet). One load: callers that go on to test a
 * component of e (which a free slot never has) need no more to tell live from stale. */
static ECS_ALWAYS_INLINE bool ecs_entities_issued(const ecs_entities_t *t, ecs_entity_t e) {
    uint32_t i = ecs_entity_index(e);
    return i < t->used && t->generation[i] == ecs_entity_generation(e);
}

static ECS_ALWAYS_INLINE bool ecs_entities_alive(const ecs_entities_t *t, ecs_entity_t e) {
    return ecs_entities_issued(t, e) && ecs_entities_live_at(t, ecs_entity_index(e));
}

/* The most slots the table may hold. */
static inline uint32_t ecs_entities_max_slots(const ecs_entities_t *t) {
    return t->limit ? t->limit : ECS_INDEX_MAX + 1u;
}

/* Room for `need` slots (create's cold path); false when that passes the limit or memory
 * runs out. */
bool ecs_entities_grow(ecs_entities_t *t, uint32_t need);

/* Room on the free stack for one more slot (destroy's cold path); false when out of memory. */
bool ecs_entities_grow_free(ecs_entities_t *t);

/* A fresh id; ECS_NULL when the limit is reached or memory runs out. Inline (as destroy), so
 * generated spawn and destroy make no call into the runtime. */
static inline ecs_entity_t ecs_entities_create(ecs_entities_t *t) {
    uint32_t index;
    if (t->free_count) {
        index = t->free[--t->free_count];
        ecs_mark(&t->marks, index);
    } else {
        if (t->used >= t->capacity && !ecs_entities_grow(t, t->used + 1u)) return ECS_NULL;
        index = t->used++;
        t->generation[index] = 0;
    }
    t->live[index >> 6] |= (uint64_t)1 << (index & 63u);
    t->alive++;
    return ecs_entity_make(index, t->generation[index]);
}

/* Makes e stale; false (nothing changes) when e is not live. A slot whose generation would
 * wrap is retired rather than reissued, so no stale id can ever become live again; so is one
 * the free stack has no room for (out of memory: the slot is lost, never an id). */
static inline bool ecs_entities_destroy(ecs_entities_t *t, ecs_entity_t e) {
    if (!ecs_entities_alive(t, e)) return false;
    uint32_t index = ecs_entity_index(e);
    ecs_mark(&t->marks, index);
    t->live[index >> 6] &= ~((uint64_t)1 << (index & 63u));
    t->alive--;
    if (ecs_entity_generation(e) != UINT32_MAX) { /* else retired */
        t->generation[index] = ecs_entity_generation(e) + 1u;
        if (t->free_count < t->free_capacity || ecs_entities_grow_free(t)) t->free[t->free_count++] = index;
    }
    t->mark[index] = 0; /* last: a byte store may alias anything, so the fields above are read first */
    return true;
}

/* The id live in slot i, or ECS_NULL when the slot is free, retired or never used. */
static inline ecs_entity_t ecs_entities_at(const ecs_entities_t *t, uint32_t i) {
    return i < t->used && ecs_entities_live_at(t, i) ? ecs_entity_make(i, t->generation[i]) : ECS_NULL;
}

/* References at generations above this, to a slot without a live entity, are written as
 * null by a save and refused by a load (unless the document has that slot live at least at
 * that generation): a stale reference keeps its slot's next generation above its own, so one
 * near the end of the range would leave the slot few entities before it is retired. Any
 * reference the loader takes leaves its slot at least 2^24 (16,777,216) more entities. */
#define ECS_REF_GENERATION_MAX (UINT32_MAX - (UINT32_C(1) << 24))

/* What a save writes for reference v in a world whose table is t (ECS_NULL: null), and what
 * the world hash folds in: v, except null for an id t never issued (a later generation of a
 * live slot: another world's id, say), which a load would refuse, and for a reference to a
 * slot without a live entity at a generation above ECS_REF_GENERATION_MAX (also ~0). */
static inline ecs_entity_t ecs_entities_saved_ref(const ecs_entities_t *t, ecs_entity_t v) {
    if (v == ECS_NULL) return v;
    ecs_entity_t live = ecs_entities_at(t, ecs_entity_index(v));
    if (live != ECS_NULL) return ecs_entity_generation(v) > ecs_entity_generation(live) ? ECS_NULL : v;
    return ecs_entity_generation(v) > ECS_REF_GENERATION_MAX ? ECS_NULL : v;
}

/* For each slot below `used`, the lowest generation a new entity there may get without
 * bringing back an id this table issued: a live slot's generation + 1, a free slot's next
 * generation, UINT32_MAX + 1 for a retired slot (none may). */
void ecs_entities_next_generations(const ecs_entities_t *t, uint64_t *next);

/* Rebuilds the table so that exactly the ids in live[0..n) are live, e.g. after a load.
 * Every other slot below `used` becomes free and will next be issued with generation
 * next_generation[i] (NULL: 0), the lowest index first; a value above UINT32_MAX retires the
 * slot. Passing generations above any id seen for a slot keeps stale ids stale. `used` must
 * exceed every index in live. The table keeps at least its capacity (fixed storage stays
 * fixed). False (t untouched) on null or duplicate slots, a limit exceeded, or out of memory. */
bool ecs_entities_restore(ecs_entities_t *t, const ecs_entity_t *live, uint32_t n, uint32_t used,
                          const uint64_t *next_generation);

/* Bytes allocated by the table, for memory reports. */
size_t ecs_entities_memory(const ecs_entities_t *t);

#endif
