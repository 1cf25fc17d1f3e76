/* demo.c: a headless space game on the ECS generated from schema/game.json.
 *
 * Ships fly about and shoot; bullets expire or hit asteroids; destroyed asteroids are
 * replaced. Every simulated second it prints a line of counts.
 *
 *     demo [--seconds N] [--seed S] [--threads N] [--save FILE] [--hash] [--record FILE] [--fail-at FRAME]
 *
 * The per-frame logic is the schema's systems (fire, move, expire, collide), whose bodies are
 * in game_systems.c; each frame is one game_step(w, dt), which runs them in the schedule the
 * generator computed. --threads N runs the steps on N threads (game_set_threads): the result
 * is the same for every N. --save FILE writes the final world as JSON (game_world_save);
 * examples/inspect reads it. --hash prints the final world's game_world_hash.
 * The demo keeps its last 300 frames in a flight recorder (game_recorder_*): --record FILE
 * writes them at the end as one recording (game_recorder_save_all), which ecsgen-dump and
 * the inspector open. Every frame it checks that each entity is a ship, an asteroid or a
 * bullet; when that fails it writes the recording (to --record's FILE, else
 * demo-failure.recording.json) and aborts. --fail-at FRAME fails the check at that frame,
 * to show it.
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
#define RECORDED 300 /* frames the flight recorder keeps */

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

/* The demo's invariant, checked every frame: at a failure the last RECORDED frames go to a
 * file before the abort, so the frames that led there can be stepped through. */
static void check_frame(game_world_t *w, game_recorder_t *rec, long frame, long fail_at, const char *path) {
    size_t kinds = w->components.player.set.count + w->components.asteroid.set.count + w->components.bullet.set.count;
    if (game_count(w) == kinds && frame != fail_at) return;
    fprintf(stderr, "demo: frame %ld: %zu entities but %zu ships, asteroids and bullets%s\n", frame, game_count(w), kinds,
            frame == fail_at ? " (--fail-at)" : "");
    ecs_error_t err;
    if (rec && game_recorder_save_all(rec, path, &err))
        fprintf(stderr, "demo: the last %u frames are in %s\n", game_recorder_frames(rec), path);
    else if (rec)
        fprintf(stderr, "demo: %s\n", err.message);
    abort();
}

int main(int argc, char **argv) {
    long seconds = 10, seed = 1, threads = 1, fail_at = -1;
    const char *save = NULL, *record = NULL;
    int hash = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && parse_count("--seconds", argv[i + 1], &seconds)) i++;
        else if (!strcmp(argv[i], "--seed") && parse_count("--seed", argv[i + 1], &seed)) i++;
        else if (!strcmp(argv[i], "--threads") && parse_count("--threads", argv[i + 1], &threads) && threads >= 1 && threads <= 256) i++;
        else if (!strcmp(argv[i], "--save") && argv[i + 1] && argv[i + 1][0]) save = argv[++i];
        else if (!strcmp(argv[i], "--hash")) hash = 1;
        else if (!strcmp(argv[i], "--record") && argv[i + 1] && argv[i + 1][0]) record = argv[++i];
        else if (!strcmp(argv[i], "--fail-at") && parse_count("--fail-at", argv[i + 1], &fail_at)) i++;
        else {
            fprintf(stderr, "usage: demo [--seconds N] [--seed S] [--threads 1..256] [--save FILE] [--hash] [--record FILE] [--fail-at FRAME]\n");
            return 2;
        }
    }
    demo_seed((uint64_t)seed);
    game_world_t *w = game_world_new();
    game_recorder_t *rec = game_recorder_new(RECORDED);
    if (!w || !rec) {
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
        /* recorded after the second's counts were reset: the last frame is the world saved */
        if (!game_recorder_record(rec, w)) fprintf(stderr, "demo: frame %ld: out of memory recording it\n", frame);
        check_frame(w, rec, frame, fail_at, record ? record : "demo-failure.recording.json");
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
    if (record && !game_recorder_save_all(rec, record, &err)) {
        fprintf(stderr, "demo: %s\n", err.message);
        status = 1;
    } else if (record) {
        printf("recorded the last %u frames to %s\n", game_recorder_frames(rec), record);
    }
    game_recorder_free(rec);
    game_world_free(w);
    return status;
}
