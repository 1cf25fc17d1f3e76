/* ecs_entities.c: the entity table. */
#include "ecs_entities.h"

#include "ecs_alloc.h"

#define ECS_SLOT_LINK(slot) ((uint32_t)((slot) & UINT32_MAX))

void ecs_entities_fini(ecs_entities_t *t) {
    ecs_free(t->slots);
    uint32_t limit = t->limit;
    *t = (ecs_entities_t){ .limit = limit };
}

static uint32_t ecs_entities_max_slots(const ecs_entities_t *t) {
    return t->limit ? t->limit : ECS_INDEX_MAX + 1u;
}

/* Room for one more slot; false when the limit is reached or memory runs out. */
static bool ecs_entities_grow(ecs_entities_t *t, uint32_t need) {
    if (need <= t->capacity) return true;
    uint32_t max = ecs_entities_max_slots(t);
    if (need > max) return false;
    uint32_t cap = t->capacity ? t->capacity : 64u;
    while (cap < need) cap = cap > max / 2u ? max : cap * 2u;
    if (cap > max) cap = max;
    ecs_entity_t *slots = ecs_realloc_array(t->slots, cap, sizeof *slots);
    if (!slots) return false;
    t->slots = slots;
    t->capacity = cap;
    return true;
}

bool ecs_entities_reserve(ecs_entities_t *t, uint32_t n) {
    return ecs_entities_grow(t, n);
}

ecs_entity_t ecs_entities_create(ecs_entities_t *t) {
    uint32_t index;
    uint32_t generation;
    if (t->free_head) {
        index = t->free_head - 1u;
        generation = ecs_entity_generation(t->slots[index]);
        t->free_head = ECS_SLOT_LINK(t->slots[index]);
    } else {
        if (t->used >= ecs_entities_max_slots(t) || !ecs_entities_grow(t, t->used + 1u)) return ECS_NULL;
        index = t->used++;
        generation = 0;
    }
    ecs_entity_t e = ecs_entity_make(index, generation);
    t->slots[index] = e;
    t->alive++;
    return e;
}

bool ecs_entities_destroy(ecs_entities_t *t, ecs_entity_t e) {
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

bool ecs_entities_restore(ecs_entities_t *t, const ecs_entity_t *live, uint32_t n, uint32_t used,
                          const uint64_t *next_generation) {
    if (used > ecs_entities_max_slots(t)) return false;
    ecs_entities_t fresh = { .limit = t->limit };
    uint32_t room = used > t->capacity ? used : t->capacity;
    if (room && !ecs_entities_grow(&fresh, room)) return false;
    for (uint32_t i = 0; i < used; i++) fresh.slots[i] = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t index = ecs_entity_index(live[k]);
        if (index >= used || fresh.slots[index] != 0) { /* null, out of range or twice */
            ecs_entities_fini(&fresh);
            return false;
        }
        fresh.slots[index] = live[k];
    }
    fresh.used = used;
    fresh.alive = n;
    /* Free slots are linked from the highest index down, so the lowest is reused first. */
    for (uint32_t i = used; i-- > 0;) {
        if (fresh.slots[i] != 0) continue;
        uint64_t generation = next_generation ? next_generation[i] : 0;
        if (generation > UINT32_MAX) continue; /* retired */
        fresh.slots[i] = (generation << 32) | fresh.free_head;
        fresh.free_head = i + 1u;
    }
    ecs_entities_fini(t);
    *t = fresh;
    return true;
}
