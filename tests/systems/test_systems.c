/* test_systems.c: the schema's 11 systems run 1,000 steps on the same world with 1, 2, 4 and 8
 * threads and end with the same world_hash and the same saved document (docs/systems.md's
 * determinism guarantee); the schedule applies each system's changes before the systems
 * that must see them; set_threads(0) means one thread. Built with small ranges
 * (SYS_SYSTEM_CHUNK, SYS_SYSTEM_PARALLEL_MIN) so that the pool and the split ranges run.
 * .ci/test also runs it under ThreadSanitizer. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sys_bodies.h"

#define STEPS 1000

static char *run(unsigned threads, uint64_t *hash, unsigned *used) {
    sys_world_t *w = sys_world_new();
    sys_populate(w, 3000, 0x9e3779b97f4a7c15u);
    sys_set_threads(w, threads);
    *used = sys_threads(w);
    for (int k = 0; k < STEPS; k++) {
        sys_step(w, 1.0f / 16.0f);
        CHECK_EQ(sys_deferred_count(w), 0); /* every change of the step is applied */
    }
    *hash = sys_world_hash(w);
    char *doc = sys_world_to_json(w);
    sys_world_free(w); /* stops the threads */
    return doc;
}

/* One step, by hand: what the schedule promises about when changes land. */
static void test_sync_points(void) {
    sys_world_t *w = sys_world_new();
    /* x > 40: ignite adds burning (stage 2), burn (stage 3) sees it the same step */
    ecs_entity_t hot = sys_spawn(w, &(sys_spawn_desc_t){ .position = &(sys_position_t){ 50, 0 },
                                                         .health = &(sys_health_t){ 90, 100 } });
    /* lifetime 1: age destroys it in its step */
    ecs_entity_t old = sys_spawn(w, &(sys_spawn_desc_t){ .position = &(sys_position_t){ 0, 0 },
                                                         .lifetime = &(sys_lifetime_t){ 1 } });
    ecs_entity_t gun = sys_spawn(w, &(sys_spawn_desc_t){ .position = &(sys_position_t){ 3, 4 },
                                                         .gun = &(sys_gun_t){ 1, 5 } });
    /* glow: light and (burning or frozen) */
    ecs_entity_t lit = sys_spawn(w, &(sys_spawn_desc_t){ .light = &(sys_light_t){ 1 }, .frozen = true });
    ecs_entity_t dark = sys_spawn(w, &(sys_spawn_desc_t){ .light = &(sys_light_t){ 1 } });
    size_t before = sys_count(w);
    sys_step(w, 0.5f);
    CHECK(sys_get_light(w, lit).level == 1.25f);
    CHECK(sys_get_light(w, dark).level == 1.0f);
    CHECK(sys_has_burning(w, hot));
    CHECK_EQ(sys_get_health(w, hot).current, 87); /* burned once, in the same step */
    CHECK(!sys_alive(w, old));
    CHECK_EQ(sys_count(w), before); /* one destroyed, one bullet spawned */
    CHECK_EQ(sys_get_gun(w, gun).cooldown, 5);
    CHECK_EQ(sys_singleton_clock(w)->frame, 1);
    CHECK(sys_singleton_clock(w)->dt == 0.5f);
    CHECK_EQ(sys_singleton_census(w)->total, 87); /* tally (stage 5) saw the burn */
    sys_world_free(w);
}

/* A load keeps the world's threads (the loaded world is swapped in under them). */
static void test_load_keeps_threads(void) {
    sys_world_t *w = sys_world_new(), *v = sys_world_new();
    sys_populate(v, 500, 7);
    char *doc = sys_world_to_json(v);
    sys_set_threads(w, 3);
    ecs_error_t err;
    CHECK(sys_world_from_json(w, doc, &err));
    CHECK_EQ(sys_threads(w), 3);
    for (int k = 0; k < 20; k++) {
        sys_step(w, 0.1f);
        sys_step(v, 0.1f);
    }
    CHECK_EQ(sys_world_hash(w), sys_world_hash(v));
    free(doc);
    sys_world_free(w);
    sys_world_free(v);
}

/* Random changes between steps, the same on a world stepping on 1 thread and on one stepping
 * on 4: after every step the two hash the same. */
static void apply_random(sys_world_t *w, uint64_t *seed, ecs_entity_t *ids, uint32_t *n) {
    for (int k = 0; k < 20; k++) {
        uint64_t r = check_xorshift(seed);
        ecs_entity_t e = *n ? ids[r / 16u % *n] : ECS_NULL;
        switch (r % 8u) {
        case 0: case 1:
            if (*n < 4096u)
                ids[(*n)++] = sys_spawn(w, &(sys_spawn_desc_t){
                    .position = &(sys_position_t){ (float)(r % 90u), (float)(r / 7u % 20u) },
                    .velocity = r & 256u ? &(sys_velocity_t){ 1, -1 } : NULL,
                    .health = r & 512u ? &(sys_health_t){ (int32_t)(r / 3u % 100u), 100 } : NULL,
                    .lifetime = r & 1024u ? &(sys_lifetime_t){ (int32_t)(r / 5u % 40u) } : NULL,
                    .gun = r % 64u == 3u ? &(sys_gun_t){ 1, 4 } : NULL,
                    .light = r & 2048u ? &(sys_light_t){ 0 } : NULL,
                    .burning = (r & 4096u) != 0 });
            break;
        case 2: sys_destroy(w, e); break;
        case 3: sys_add_frozen(w, e); break;
        case 4: sys_remove_frozen(w, e); break;
        case 5: sys_set_target(w, e, (sys_target_t){ *n ? ids[r / 64u % *n] : ECS_NULL }); break;
        case 6: sys_remove_velocity(w, e); break;
        default: sys_set_health(w, e, (sys_health_t){ (int32_t)(r % 120u), 100 }); break;
        }
    }
}

static void test_random_changes_between_steps(void) {
    sys_world_t *one = sys_world_new(), *four = sys_world_new();
    sys_set_threads(four, 4);
    ecs_entity_t *ids1 = malloc(4096 * sizeof *ids1), *ids4 = malloc(4096 * sizeof *ids4);
    uint32_t n1 = 0, n4 = 0;
    uint64_t seed1 = 12345, seed4 = 12345;
    for (int step = 0; step < 200; step++) {
        apply_random(one, &seed1, ids1, &n1);
        apply_random(four, &seed4, ids4, &n4);
        sys_step(one, 0.25f);
        sys_step(four, 0.25f);
        if (sys_world_hash(one) != sys_world_hash(four)) {
            fprintf(stderr, "random changes: the worlds differ after step %d\n", step);
            CHECK(false);
            break;
        }
    }
    CHECK(sys_count(one) > 100);
    free(ids1);
    free(ids4);
    sys_world_free(one);
    sys_world_free(four);
}

static void test_threads_setting(void) {
    sys_world_t *w = sys_world_new();
    CHECK_EQ(sys_threads(w), 1);
    sys_set_threads(w, 0);
    CHECK_EQ(sys_threads(w), 1);
    sys_set_threads(w, 3);
    CHECK_EQ(sys_threads(w), 3);
    sys_set_threads(w, 2);
    CHECK_EQ(sys_threads(w), 2);
    sys_step(w, 0.1f); /* an empty world: every system once, no match */
    sys_set_threads(w, 1);
    CHECK_EQ(sys_threads(w), 1);
    sys_world_free(w);
}

int main(void) {
    test_sync_points();
    test_threads_setting();
    test_load_keeps_threads();
    test_random_changes_between_steps();
    uint64_t hash1;
    unsigned used;
    atomic_store(&calls_move, 0u);
    atomic_store(&calls_heal, 0u);
    char *doc1 = run(1, &hash1, &used);
    unsigned move_calls = atomic_load(&calls_move);
    CHECK_EQ(move_calls, STEPS); /* one thread: one call per step */
    CHECK_EQ(atomic_load(&calls_heal), STEPS);
    for (unsigned threads = 2; threads <= 8; threads *= 2) {
        uint64_t hash;
        atomic_store(&calls_move, 0u);
        char *doc = run(threads, &hash, &used);
        CHECK_EQ(used, threads);
        CHECK_EQ(hash, hash1);
        CHECK(strcmp(doc, doc1) == 0);
        CHECK(atomic_load(&calls_move) > STEPS); /* split into ranges */
        free(doc);
    }
    CHECK(strstr(doc1, "\"burning\"") != NULL); /* the systems did something */
    free(doc1);
    return check_finish("systems");
}
