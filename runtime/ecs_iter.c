/* ecs_iter.c: a non-owned view's list of matches, grown (ecs_iter.h). */
#include "ecs_alloc.h"
#include "ecs_iter.h"

bool ecs_match_list_fit(ecs_entity_t **entity, uint32_t **const row[], size_t lists, uint32_t *capacity, uint32_t n) {
    if (n <= *capacity) return true;
    void *mem;
    if (!(mem = ecs_realloc_array(*entity, n, sizeof **entity))) return false;
    *entity = mem;
    for (size_t k = 0; k < lists; k++) {
        if (!(mem = ecs_realloc_array(*row[k], n, sizeof **row[k]))) return false;
        *row[k] = mem;
    }
    *capacity = n;
    return true;
}
