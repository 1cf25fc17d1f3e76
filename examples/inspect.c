/* inspect.c: loads a saved world of schema/game.json and prints a summary: entities,
 * members and memory per component, the singletons; or one entity as JSON.
 *
 *     inspect FILE            (e.g. after: demo --seconds 5 --save world.json)
 *     inspect FILE ID         (ID as written in the file, e.g. 5v0)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_ecs.h"

/* The game's pools with their row sizes; memory is rows allocated times row size plus the
 * sparse set (pages and dense ids). */
#define POOLS(X)                                                                              \
    X(position, sizeof(game_position_t)) X(velocity, sizeof(game_velocity_t))                 \
    X(health, sizeof(game_health_t)) X(name, sizeof(game_name_t))                             \
    X(target, sizeof(game_target_t)) X(cargo, sizeof(game_cargo_t)) X(mood, sizeof(game_mood_t)) \
    X(lifetime, sizeof(game_lifetime_t)) X(radius, sizeof(game_radius_t)) X(player, 0)        \
    X(asteroid, 0) X(bullet, 0) X(frozen, 0)

static int summary(const game_world_t *w) {
    size_t total = (size_t)w->entities.capacity * sizeof *w->entities.slots;
    printf("entities: %zu live, %" PRIu32 " slots used\n", game_count(w), w->entities.used);
    printf("%-10s %8s %12s\n", "component", "entities", "memory");
#define ROW(c, row_size)                                                                       \
    {                                                                                          \
        const ecs_sparse_t *set = &w->components.c.set;                                       \
        size_t bytes = (size_t)set->capacity * (row_size) + ecs_sparse_memory(set);            \
        total += bytes;                                                                        \
        printf("%-10s %8" PRIu32 " %12zu\n", #c, set->count, bytes);                          \
    }
    POOLS(ROW)
    printf("%-10s %8s %12zu bytes\n", "total", "", total + sizeof *w);
    printf("clock: frame %" PRIu64 ", dt %g\n", w->singletons.clock.frame, (double)w->singletons.clock.dt);
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
