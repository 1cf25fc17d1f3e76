/* ecs_json_cost.c: what a load will allocate for the world it builds, estimated in bytes from
 * the document's first pass, before anything is allocated (see ecs_json.h, "The load's
 * memory"). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ecs_alloc.h"
#include "ecs_json.h"
#include "ecs_meta.h"
#include "ecs_sparse.h"

/* Entity table and the loader's own arrays, per slot restored: a generation (4), a mark
 * byte (1), a live bit, a free-stack entry (4), and the restore's next generation (8) and
 * owner (4), rounded up. */
#define ECS_JSON_COST_SLOT 24u
/* A sparse pool's member: its dense entry (a slot index, or an id: 8 at most) beside its
 * value; doubled, as the pool grows by doubling and holds old and new arrays at once. */
#define ECS_JSON_COST_MEMBER_EXTRA 8u
#define ECS_JSON_COST_PAGE ((uint64_t)ECS_PAGE_SIZE * sizeof(uint32_t))

/* The capacity slot storage grows to for n slots (doubling from 64, as the generated
 * growth does). */
static uint64_t ecs_json_cost_grown(uint64_t n) {
    uint64_t cap = 64u;
    while (cap < n) cap *= 2u;
    return n ? cap : 0;
}

void ecs_json_cost_init(ecs_json_cost_t *k, const ecs_json_ctx_t *c, const ecs_meta_schema_t *s,
                        const ecs_entities_t *t, uint32_t n, uint64_t budget, size_t text_bytes) {
    memset(k, 0, sizeof *k);
    k->schema = s;
    k->fixed = t->limit != 0; /* fixed storage: world_new allocated every row and page */
    k->text_bytes = text_bytes;
    k->budget = budget ? budget : ECS_JSON_MEMORY_OF(text_bytes);
    uint64_t limit = t->limit ? t->limit : (uint64_t)ECS_INDEX_MAX + 1u;
    uint64_t allowed = c->max_slots ? c->max_slots : ECS_JSON_SLOTS_DEFAULT;
    if (!c->max_slots && (uint64_t)n * 4u > allowed) allowed = (uint64_t)n * 4u;
    if (c->previous && c->previous->used > allowed) allowed = c->previous->used;
    k->allowed = allowed < limit ? allowed : limit;
    if (c->previous) k->used = c->previous->used;
    for (uint32_t p = 0; p < s->pooled_count; p++) {
        const ecs_meta_component_t *m = &s->components[s->pooled[p]];
        if (m->storage == ECS_META_SLOT && m->kind == ECS_META_DATA) k->slot_row_bytes += m->size;
        if (m->storage == ECS_META_SPARSE) k->sparse_pools++;
    }
}

void ecs_json_cost_fini(ecs_json_cost_t *k) {
    ecs_free(k->pages);
    k->pages = NULL;
    k->page_count = k->page_capacity = 0;
}

/* Notes sparse page `page` of pool p; false when out of memory. An open-addressing set of
 * (p, page) + 1: the pages counted stay below budget / 16 KiB, so the set stays small. */
static bool ecs_json_cost_page(ecs_json_cost_t *k, uint32_t p, uint32_t page) {
    uint64_t key = ((uint64_t)p << 32 | page) + 1u;
    if ((k->page_count + 1u) * 2u > k->page_capacity) {
        size_t cap = k->page_capacity ? k->page_capacity * 2u : 64u;
        uint64_t *grown = ecs_calloc(cap, sizeof *grown);
        if (!grown) return false;
        for (size_t i = 0; i < k->page_capacity; i++) {
            uint64_t old = k->pages[i];
            if (!old) continue;
            size_t at = (size_t)(old * UINT64_C(0x9e3779b97f4a7c15) >> 20) & (cap - 1u);
            while (grown[at]) at = (at + 1u) & (cap - 1u);
            grown[at] = old;
        }
        ecs_free(k->pages);
        k->pages = grown;
        k->page_capacity = cap;
    }
    size_t at = (size_t)(key * UINT64_C(0x9e3779b97f4a7c15) >> 20) & (k->page_capacity - 1u);
    while (k->pages[at]) {
        if (k->pages[at] == key) return true;
        at = (at + 1u) & (k->page_capacity - 1u);
    }
    k->pages[at] = key;
    k->page_count++;
    if (page + 1u > k->page_slots) k->page_slots = page + 1u;
    return true;
}

bool ecs_json_cost_entity(ecs_json_cost_t *k, ecs_json_ctx_t *c, ecs_entity_t id, const cJSON *o) {
    if (k->fixed) return true;
    const ecs_meta_schema_t *s = k->schema;
    /* the slots restored: every id and reference below the limit (the rest are refused, or
     * kept as written and reserve nothing) */
    for (; k->mentions_seen < c->mention_count; k->mentions_seen++) {
        uint32_t index = ecs_entity_index(c->mentions[k->mentions_seen]);
        if (index < k->allowed && index + 1u > k->used) k->used = index + 1u;
    }
    uint32_t index = ecs_entity_index(id);
    if (index >= k->allowed) return true; /* ecs_json_restore_ids refuses it, naming the limit */
    for (uint32_t p = 0; p < s->pooled_count; p++) {
        const ecs_meta_component_t *m = &s->components[s->pooled[p]];
        if (!cJSON_GetObjectItemCaseSensitive(o, m->name)) continue;
        if (m->storage == ECS_META_SLOT) {
            if (m->kind == ECS_META_DATA && index + 1u > k->slot_rows) k->slot_rows = index + 1u;
        } else {
            if (!ecs_json_cost_page(k, p, index >> ECS_PAGE_BITS)) return ecs_json_oom(c);
            k->member_bytes += 2u * ((uint64_t)m->size + ECS_JSON_COST_MEMBER_EXTRA);
        }
    }
    uint64_t table = (uint64_t)k->used * ECS_JSON_COST_SLOT;
    uint64_t masks = ecs_json_cost_grown(k->used) * s->mask_words * s->mask_word_size;
    uint64_t rows = ecs_json_cost_grown(k->slot_rows) * k->slot_row_bytes;
    uint64_t pages = (uint64_t)k->page_count * ECS_JSON_COST_PAGE + (uint64_t)k->sparse_pools * k->page_slots * 2u * sizeof(void *);
    uint64_t total = table + masks + rows + pages + k->member_bytes;
    if (total <= k->budget) return true;
    char what[160];
    if (rows >= pages && rows >= table + masks && rows >= k->member_bytes)
        snprintf(what, sizeof what, "slot storage rows for slots 0..%" PRIu32 ", %" PRIu64 " bytes each", k->slot_rows - 1u,
                 k->slot_row_bytes);
    else if (pages >= table + masks && pages >= k->member_bytes)
        snprintf(what, sizeof what, "%zu sparse pages of %" PRIu64 " KiB (members far apart)", k->page_count,
                 ECS_JSON_COST_PAGE >> 10);
    else if (table + masks >= k->member_bytes)
        snprintf(what, sizeof what, "the entity table for %" PRIu32 " slots", k->used);
    else
        snprintf(what, sizeof what, "the components' values");
    if (k->budget == ECS_JSON_MEMORY_OF(k->text_bytes))
        return ecs_json_fail_code(c, ECS_ERR_LIMIT, "this load would allocate about %" PRIu64 " MiB, mostly %s: more than "
                                  "the %" PRIu64 " MiB a load of a %zu-byte document may (max(64 MiB, %u x its length); "
                                  "the load option max_memory raises the limit)", (total + (1u << 20) - 1u) >> 20, what,
                                  k->budget >> 20, k->text_bytes, ECS_JSON_MEMORY_PER_BYTE);
    return ecs_json_fail_code(c, ECS_ERR_LIMIT, "this load would allocate about %" PRIu64 " MiB, mostly %s: more than the "
                              "%" PRIu64 " bytes of the load option max_memory", (total + (1u << 20) - 1u) >> 20, what,
                              k->budget);
}
