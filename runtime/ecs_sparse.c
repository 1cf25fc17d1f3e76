/* ecs_sparse.c: paged sparse sets. */
#include "ecs_sparse.h"

#include <string.h>

#include "ecs_alloc.h"

void ecs_sparse_fini(ecs_sparse_t *s) {
    for (uint32_t p = 0; p < s->page_count; p++) ecs_free(s->pages[p]);
    ecs_free(s->pages);
    ecs_free(s->index);
    ecs_free(s->id);
    ecs_marks_fini(&s->marks);
    *s = (ecs_sparse_t){ .keeps_ids = s->keeps_ids };
}

bool ecs_sparse_next_capacity(const ecs_sparse_t *s, uint32_t *capacity) {
    /* Rows are uint32_t and ECS_ROW_NONE is taken, so at most UINT32_MAX - 1 members. */
    const uint32_t max = UINT32_MAX - 1u;
    if (s->capacity >= max) return false;
    *capacity = s->capacity < 16u ? 16u : s->capacity > max / 2u ? max : s->capacity * 2u;
    return true;
}

bool ecs_sparse_set_capacity(ecs_sparse_t *s, uint32_t capacity) {
    if (capacity < s->count) return false;
    if (s->keeps_ids) {
        ecs_entity_t *id = ecs_realloc_array(s->id, capacity, sizeof *id);
        if (!id) return false;
        s->id = id;
    } else {
        uint32_t *index = ecs_realloc_array(s->index, capacity, sizeof *index);
        if (!index) return false;
        s->index = index;
    }
    s->capacity = capacity;
    return true;
}

bool ecs_sparse_add_page(ecs_sparse_t *s, ecs_entity_t e) {
    uint32_t page = ecs_entity_index(e) >> ECS_PAGE_BITS;
    if (page >= s->page_count) {
        uint32_t count = page + 1u;
        uint32_t **pages = ecs_realloc_array(s->pages, count, sizeof *pages);
        if (!pages) return false;
        memset(pages + s->page_count, 0, (count - s->page_count) * sizeof *pages);
        s->pages = pages;
        s->page_count = count;
    }
    if (!s->pages[page]) {
        uint32_t *rows = ecs_calloc(ECS_PAGE_SIZE, sizeof *rows); /* all absent */
        if (!rows) return false;
        s->pages[page] = rows;
    }
    return true;
}

bool ecs_sparse_reserve(ecs_sparse_t *s, uint32_t n) {
    if (n > s->capacity && !ecs_sparse_set_capacity(s, n)) return false;
    uint32_t pages = (uint32_t)(((uint64_t)n + ECS_PAGE_SIZE - 1u) >> ECS_PAGE_BITS);
    if (pages > s->page_count) { /* the whole page table at once, then each page */
        uint32_t **table = ecs_realloc_array(s->pages, pages, sizeof *table);
        if (!table) return false;
        memset(table + s->page_count, 0, (pages - s->page_count) * sizeof *table);
        s->pages = table;
        s->page_count = pages;
    }
    for (uint32_t p = 0; p < pages; p++)
        if (!ecs_sparse_reserve_page(s, ecs_entity_make(p << ECS_PAGE_BITS, 0))) return false;
    return true;
}

size_t ecs_sparse_memory(const ecs_sparse_t *s) {
    size_t bytes = (size_t)s->page_count * sizeof *s->pages + (size_t)s->capacity * (s->keeps_ids ? sizeof *s->id : sizeof *s->index);
    for (uint32_t p = 0; p < s->page_count; p++)
        if (s->pages[p]) bytes += ECS_PAGE_SIZE * sizeof **s->pages;
    return bytes + ecs_marks_memory(&s->marks);
}
