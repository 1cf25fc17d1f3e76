/* ecs_entities.c: the entity table. */
#include "ecs_entities.h"

#include "ecs_alloc.h"

void ecs_entities_fini(ecs_entities_t *t) {
    ecs_free(t->slots);
    uint32_t limit = t->limit;
    *t = (ecs_entities_t){ .limit = limit };
}

bool ecs_entities_grow(ecs_entities_t *t, uint32_t need) {
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
