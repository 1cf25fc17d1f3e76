/* ecs_entities.c: the entity table's cold paths: growing, restoring, reporting. */
#include "ecs_entities.h"

#include <string.h>

#include "ecs_alloc.h"

void ecs_entities_fini(ecs_entities_t *t) {
    ecs_free(t->generation);
    ecs_free(t->live);
    ecs_free(t->mark);
    ecs_free(t->free);
    ecs_marks_fini(&t->marks);
    uint32_t limit = t->limit;
    *t = (ecs_entities_t){ .limit = limit };
}

static size_t live_words(uint32_t slots) {
    return ((size_t)slots + 63u) / 64u;
}

/* Generations, live bits and marks for `cap` slots (new live bits and marks clear); false
 * (t untouched) when out of memory. */
static bool set_capacity(ecs_entities_t *t, uint32_t cap) {
    uint64_t *live = ecs_realloc_array(t->live, live_words(cap), sizeof *live);
    if (!live) return false;
    t->live = live;
    size_t old_words = live_words(t->capacity);
    memset(live + old_words, 0, (live_words(cap) - old_words) * sizeof *live);
    uint8_t *mark = ecs_realloc_array(t->mark, cap, sizeof *mark);
    if (!mark) return false; /* the larger arrays stay: harmless, freed with t */
    t->mark = mark;
    memset(mark + t->capacity, 0, (size_t)(cap - t->capacity) * sizeof *mark);
    uint32_t *generation = ecs_realloc_array(t->generation, cap, sizeof *generation);
    if (!generation) return false;
    t->generation = generation;
    t->capacity = cap;
    return true;
}

bool ecs_entities_grow(ecs_entities_t *t, uint32_t need) {
    if (need <= t->capacity) return true;
    uint32_t max = ecs_entities_max_slots(t);
    if (need > max) return false;
    uint32_t cap = t->capacity ? t->capacity : 64u;
    while (cap < need) cap = cap > max / 2u ? max : cap * 2u;
    if (cap > max) cap = max;
    return set_capacity(t, cap);
}

static bool set_free_capacity(ecs_entities_t *t, uint32_t cap) {
    uint32_t *free = ecs_realloc_array(t->free, cap, sizeof *free);
    if (!free) return false;
    t->free = free;
    t->free_capacity = cap;
    return true;
}

bool ecs_entities_grow_free(ecs_entities_t *t) {
    /* Doubling, but never past `used`: no more slots than that can be free at once (the
     * slot being freed is one of them, so used > free_capacity here). */
    uint32_t cap = t->free_capacity ? t->free_capacity * 2u : 64u;
    if (cap > t->used || cap < t->free_capacity) cap = t->used;
    return set_free_capacity(t, cap);
}

bool ecs_entities_reserve(ecs_entities_t *t, uint32_t n) {
    return ecs_entities_grow(t, n) && (n <= t->free_capacity || set_free_capacity(t, n));
}

void ecs_entities_next_generations(const ecs_entities_t *t, uint64_t *next) {
    for (uint32_t i = 0; i < t->used; i++)
        next[i] = ecs_entities_live_at(t, i) ? (uint64_t)t->generation[i] + 1u : (uint64_t)UINT32_MAX + 1u;
    for (uint32_t k = 0; k < t->free_count; k++) next[t->free[k]] = t->generation[t->free[k]];
}

bool ecs_entities_restore(ecs_entities_t *t, const ecs_entity_t *live, uint32_t n, uint32_t used,
                          const uint64_t *next_generation) {
    if (used > ecs_entities_max_slots(t)) return false;
    ecs_entities_t fresh = { .limit = t->limit };
    uint32_t room = used > t->capacity ? used : t->capacity;
    uint32_t free_room = used > t->free_capacity ? used : t->free_capacity;
    if ((room && !ecs_entities_grow(&fresh, room)) || (free_room && !set_free_capacity(&fresh, free_room))) {
        ecs_entities_fini(&fresh);
        return false;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t index = ecs_entity_index(live[k]);
        if (index >= used || ecs_entities_live_at(&fresh, index)) { /* null, out of range or twice */
            ecs_entities_fini(&fresh);
            return false;
        }
        fresh.live[index >> 6] |= (uint64_t)1 << (index & 63u);
        fresh.generation[index] = ecs_entity_generation(live[k]);
    }
    fresh.used = used;
    fresh.alive = n;
    /* Free slots go on the stack from the highest index down, so the lowest is reused first. */
    for (uint32_t i = used; i-- > 0;) {
        if (ecs_entities_live_at(&fresh, i)) continue;
        uint64_t generation = next_generation ? next_generation[i] : 0;
        if (generation > UINT32_MAX) { /* retired */
            fresh.generation[i] = UINT32_MAX;
            continue;
        }
        fresh.generation[i] = (uint32_t)generation;
        fresh.free[fresh.free_count++] = i;
    }
    ecs_entities_fini(t);
    *t = fresh;
    return true;
}

size_t ecs_entities_memory(const ecs_entities_t *t) {
    return (size_t)t->capacity * (sizeof *t->generation + sizeof *t->mark) + live_words(t->capacity) * sizeof *t->live +
           (size_t)t->free_capacity * sizeof *t->free + ecs_marks_memory(&t->marks);
}
