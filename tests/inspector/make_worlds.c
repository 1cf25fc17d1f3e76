/* make_worlds.c: saves two worlds of schema/game.json for the inspector's browser test.
 *
 *     make_worlds N A.json B.json
 *
 * A: N entities spawned in order (entity k gets slot k): ships (k % 4 == 0: player, name,
 * health current k % 100, mood, target the entity of slot (7k + 1) % N), asteroids (1),
 * bullets (2) and cargo holders (3; frozen when k % 8 == 3); then slot 1 is destroyed, so
 * ship 0's target is a stale reference. clock.frame is 1.
 * B: A, then slots 7, 77 and 777 destroyed, ship 40's health.current set to -5, two
 * entities spawned (they reuse freed slots with a new generation), clock.frame 2.
 * So diffing A and B gives 2 added, 3 removed, 1 changed entity and one singleton change. */
#include <stdio.h>
#include <stdlib.h>

#include "game_ecs.h"

static ecs_entity_t spawn_kind(game_world_t *w, unsigned k) {
    game_position_t position = { (float)(k % 1000) * 1.5f, (float)(k / 1000) - 0.25f };
    game_velocity_t velocity = { (float)(k % 7) - 3.0f, 0.5f };
    switch (k % 4) {
    case 0: {
        game_name_t name;
        snprintf(name.value, sizeof name.value, "ship-%u", k);
        return game_spawn(w, &(game_spawn_desc_t){
            .position = &position, .velocity = &velocity, .name = &name,
            .health = &(game_health_t){ .current = (int32_t)(k % 100), .max = 100 },
            .mood = &(game_mood_t){ .state = (game_mood_state_t)(k % 3) }, .player = true });
    }
    case 1:
        return game_spawn(w, &(game_spawn_desc_t){
            .position = &position, .velocity = &velocity, .radius = &(game_radius_t){ 5.0f },
            .health = &(game_health_t){ .current = (int32_t)(30 - k % 30), .max = 30 }, .asteroid = true });
    case 2:
        return game_spawn(w, &(game_spawn_desc_t){
            .position = &position, .velocity = &velocity, .lifetime = &(game_lifetime_t){ 0.5f }, .bullet = true });
    default: {
        game_cargo_t cargo = { .count = 8 };
        for (unsigned i = 0; i < 8; i++) cargo.items[i] = (uint16_t)(k + i);
        return game_spawn(w, &(game_spawn_desc_t){ .position = &position, .cargo = &cargo, .frozen = k % 8 == 3 });
    }
    }
}

static int save(const game_world_t *w, const char *path) {
    ecs_error_t err;
    if (game_world_save(w, path, &err)) return 0;
    fprintf(stderr, "make_worlds: %s: %s\n", path, err.message);
    return 1;
}

int main(int argc, char **argv) {
    long n = argc == 4 ? strtol(argv[1], NULL, 10) : 0;
    if (n < 1000 || n > 10000000) {
        fprintf(stderr, "usage: make_worlds N A.json B.json (N from 1000)\n");
        return 2;
    }
    game_world_t *w = game_world_new();
    ecs_entity_t *ids = malloc((size_t)n * sizeof *ids);
    if (!w || !ids) return 1;
    for (unsigned k = 0; k < (unsigned)n; k++) {
        ids[k] = spawn_kind(w, k);
        if (ids[k] == ECS_NULL) return 1;
    }
    for (unsigned k = 0; k < (unsigned)n; k += 4) game_set_target(w, ids[k], (game_target_t){ ids[(7 * k + 1) % n] });
    game_destroy(w, ids[1]);
    game_singleton_clock(w)->frame = 1;
    int failed = save(w, argv[2]);

    game_destroy(w, ids[7]);
    game_destroy(w, ids[77]);
    game_destroy(w, ids[777]);
    game_set_health(w, ids[40], (game_health_t){ .current = -5, .max = 100 });
    spawn_kind(w, 4);
    spawn_kind(w, 5);
    game_singleton_clock(w)->frame = 2;
    failed |= save(w, argv[3]);
    free(ids);
    game_world_free(w);
    return failed;
}
