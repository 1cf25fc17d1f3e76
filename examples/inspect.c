/* inspect.c: loads a saved world of schema/game.json and prints a summary: entities,
 * members and memory per component, the singletons; or one entity as JSON. It names no
 * component: it walks the schema's metadata table (game_meta), so it keeps up with the schema.
 *
 *     inspect FILE            (e.g. after: demo --seconds 5 --save world.json)
 *     inspect FILE ID         (ID as written in the file, e.g. 5v0)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_ecs.h"

/* Every component, from the schema's metadata table (game_meta): members and memory per
 * per-entity component (rows allocated times row size plus the sparse set's pages and dense
 * ids), then each singleton's fields as JSON. */
static int summary(const game_world_t *w) {
    size_t total = ecs_entities_memory(&w->entities);
    printf("entities: %zu live, %" PRIu32 " slots used\n", game_count(w), w->entities.used);
    printf("%-10s %8s %12s\n", "component", "entities", "memory");
    for (uint32_t k = 0; k < game_meta.pooled_count; k++) {
        const ecs_meta_component_t *c = &game_meta.components[game_meta.pooled[k]];
        const ecs_sparse_t *set = ecs_meta_sparse(w, c); /* game.json has sparse storage only */
        size_t bytes = (size_t)set->capacity * c->size + ecs_sparse_memory(set);
        total += bytes;
        printf("%-10s %8zu %12zu\n", c->name, ecs_meta_count(w, c), bytes);
    }
    printf("%-10s %8s %12zu bytes\n", "total", "", total + sizeof *w);
    for (uint32_t k = 0; k < game_meta.component_count; k++) {
        const ecs_meta_component_t *c = &game_meta.components[k];
        if (c->kind != ECS_META_SINGLETON) continue;
        cJSON *value = ecs_json_make_value(c, &w->entities, (const char *)w + c->singleton_offset);
        char *text = value ? cJSON_PrintUnformatted(value) : NULL;
        printf("%s: %s\n", c->name, text ? text : "(out of memory)");
        free(text);
        cJSON_Delete(value);
    }
    return 0;
}

static int one_entity(const game_world_t *w, const char *id) {
    unsigned long index, generation;
    char rest;
    if (sscanf(id, "%luv%lu%c", &index, &generation, &rest) != 2 || index > ECS_INDEX_MAX || generation > UINT32_MAX) {
        fprintf(stderr, "inspect: '%s' is not an id like 5v0\n", id);
        return 2;
    }
    char *json = game_entity_to_json(w, ecs_entity_make((uint32_t)index, (uint32_t)generation));
    if (!json) {
        fprintf(stderr, "inspect: no live entity %s\n", id);
        return 1;
    }
    printf("%s\n", json);
    free(json);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: inspect FILE [ID]\n");
        return 2;
    }
    game_world_t *w = game_world_new();
    if (!w) {
        fprintf(stderr, "inspect: out of memory\n");
        return 1;
    }
    ecs_error_t err;
    int status = 1;
    if (!game_world_load(w, argv[1], &err)) fprintf(stderr, "inspect: %s\n", err.message);
    else status = argc == 3 ? one_entity(w, argv[2]) : summary(w);
    game_world_free(w);
    return status;
}
