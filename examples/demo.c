/* demo.c: a headless space game on the ECS generated from schema/game.json.
 *
 * Ships fly about and shoot; bullets expire or hit asteroids; destroyed asteroids are
 * replaced. Every simulated second it prints a line of counts.
 *
 *     demo [--seconds N] [--seed S] [--threads N] [--save FILE] [--hash]
 *
 * The per-frame logic is the schema's systems (fire, move, expire, collide), whose bodies are
 * in game_systems.c; each frame is one game_step(w, dt), which runs them in the schedule the
 * generator computed. --threads N runs the steps on N threads (game_set_threads): the result
 * is the same for every N. --save FILE writes the final world as JSON (game_world_save);
 * examples/inspect reads it. --hash prints the final world's game_world_hash.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_ecs.h"
#include "game_systems.h"

#define FPS 60
#define SHIPS 8
#define ASTEROIDS 300

static void setup(game_world_t *w) {
    for (int i = 0; i < SHIPS; i++) {
        ecs_entity_t s = game_spawn_ship(w);
        game_name_t name = GAME_NAME_DEFAULT;
        snprintf(name.value, sizeof name.value, "ship-%d", i + 1);
        game_set_name(w, s, name);
        game_set_position(w, s, (game_position_t){ demo_rnd(0, DEMO_ARENA), demo_rnd(0, DEMO_ARENA) });
        game_set_velocity(w, s, (game_velocity_t){ demo_rnd(-60, 60), demo_rnd(-60, 60) });
    }
    for (int i = 0; i < ASTEROIDS; i++) {
        ecs_entity_t a = game_spawn_asteroid(w);
        game_set_position(w, a, (game_position_t){ demo_rnd(0, DEMO_ARENA), demo_rnd(0, DEMO_ARENA) });
        game_set_velocity(w, a, (game_velocity_t){ demo_rnd(-20, 20), demo_rnd(-20, 20) });
    }
    game_singleton_stats(w)->spawned = (uint32_t)game_count(w);
}

static int parse_count(const char *flag, const char *text, long *out) {
    char *end;
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    if (!text || errno || *end || v < 0 || v > 1000000) {
        fprintf(stderr, "demo: %s needs a whole number from 0 to 1000000, got '%s'\n", flag, text ? text : "");
        return 0;
    }
    *out = v;
    return 1;
}

int main(int argc, char **argv) {
    long seconds = 10, seed = 1, threads = 1;
    const char *save = NULL;
    int hash = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && parse_count("--seconds", argv[i + 1], &seconds)) i++;
        else if (!strcmp(argv[i], "--seed") && parse_count("--seed", argv[i + 1], &seed)) i++;
        else if (!strcmp(argv[i], "--threads") && parse_count("--threads", argv[i + 1], &threads) && threads >= 1 && threads <= 256) i++;
        else if (!strcmp(argv[i], "--save") && argv[i + 1] && argv[i + 1][0]) save = argv[++i];
        else if (!strcmp(argv[i], "--hash")) hash = 1;
        else {
            fprintf(stderr, "usage: demo [--seconds N] [--seed S] [--threads 1..256] [--save FILE] [--hash]\n");
            return 2;
        }
    }
    demo_seed((uint64_t)seed);
    game_world_t *w = game_world_new();
    if (!w) {
        fprintf(stderr, "demo: out of memory\n");
        return 1;
    }
    game_set_threads(w, (unsigned)threads); /* fewer when a thread cannot start: still correct */
    setup(w);
    game_stats_t total = { 0 };
    game_clock_t *clock = game_singleton_clock(w);
    for (long frame = 1; frame <= seconds * FPS; frame++) {
        clock->frame++;
        game_step(w, clock->dt); /* fire, move, expire, collide: see game_ecs.h above game_step */
        if (frame % FPS == 0) {
            game_stats_t *st = game_singleton_stats(w);
            printf("t=%3lds entities=%5zu ships=%u asteroids=%u bullets=%4u | spawned=%4u destroyed=%4u hits=%3u expired=%3u\n",
                   frame / FPS, game_count(w), w->components.player.set.count, w->components.asteroid.set.count,
                   w->components.bullet.set.count, st->spawned, st->destroyed, st->hits, st->expired);
            total.spawned += st->spawned, total.destroyed += st->destroyed, total.hits += st->hits;
            *st = (game_stats_t){ 0 };
        }
    }
    printf("done: %ld frames, %u spawned, %u destroyed, %u hits, %zu entities alive\n", seconds * FPS,
           total.spawned, total.destroyed, total.hits, game_count(w));
    if (hash) printf("world hash: %016" PRIx64 "\n", game_world_hash(w));
    int status = 0;
    ecs_error_t err;
    if (save && !game_world_save(w, save, &err)) {
        fprintf(stderr, "demo: %s\n", err.message);
        status = 1;
    } else if (save) {
        printf("saved the world to %s\n", save);
    }
    game_world_free(w);
    return status;
}
