/* json_speed.c: the time to save (world_to_json), load (world_from_json) and hash a world
 * of 100,000 entities of schema/game.json, best of 5; checks that the load hashes equal.
 *
 *     json_speed [OUT.json]    (OUT.json: also writes the document, to compare builds)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "game_ecs.h"
#include "timing.h"

int main(int argc, char **argv) {
    game_world_t *w = game_world_new(), *v = game_world_new();
    if (!w || !v) return 1;
    for (int i = 0; i < 100000; i++) {
        game_position_t p = { (float)i * 0.5f, (float)i / 3.0f };
        game_velocity_t vel = { 1.25f, -(float)i / 7.0f };
        game_health_t h = { i % 100, 100 };
        game_name_t n;
        snprintf(n.value, sizeof n.value, "ship %d", i);
        game_cargo_t c = { { 1, 2, 3, 4, 5, 6, 7, (uint16_t)i }, 3 };
        game_mood_t m = { (game_mood_state_t)(i % 3) };
        game_spawn(w, &(game_spawn_desc_t){ .position = &p, .velocity = &vel, .health = i % 2 ? &h : NULL,
                                            .name = i % 4 ? NULL : &n, .cargo = i % 8 ? NULL : &c,
                                            .mood = &m, .asteroid = i % 5 == 0 });
    }
    double best_save = 1e9, best_load = 1e9, best_hash = 1e9;
    size_t bytes = 0;
    for (int r = 0; r < 5; r++) {
        double t0 = now_ns() * 1e-9;
        char *text = game_world_to_json(w);
        double t1 = now_ns() * 1e-9;
        ecs_error_t err;
        if (!game_world_from_json(v, text, &err)) { fprintf(stderr, "%s\n", err.message); return 1; }
        double t2 = now_ns() * 1e-9;
        uint64_t h = game_world_hash(v);
        double t3 = now_ns() * 1e-9;
        if (h != game_world_hash(w)) { fprintf(stderr, "hash differs\n"); return 1; }
        bytes = strlen(text);
        if (argc > 1 && r == 0) {
            FILE *f = fopen(argv[1], "w");
            if (!f || fputs(text, f) < 0 || fclose(f) != 0) return 1;
            printf("hash %016llx\n", (unsigned long long)h);
        }
        free(text);
        if (t1 - t0 < best_save) best_save = t1 - t0;
        if (t2 - t1 < best_load) best_load = t2 - t1;
        if (t3 - t2 < best_hash) best_hash = t3 - t2;
    }
    printf("100000 entities, %zu bytes: save %.1f ms, load %.1f ms, hash %.2f ms (best of 5)\n", bytes,
           best_save * 1e3, best_load * 1e3, best_hash * 1e3);
    game_world_free(w);
    game_world_free(v);
    return 0;
}
