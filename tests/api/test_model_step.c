/* test_model_step.c: ms_step against a reference, with random operations between steps
 * (tests/api/model_step.json: reads, writes, adds, removes, spawns, destroys, `after`, a
 * singleton written by one system and read by another, split ranges).
 * Two worlds get the same random operations (spawns with random components, destroys of live
 * and stale ids, add/set/remove of every component, changes recorded with the ms_defer_ calls
 * before a step). Then world A runs ms_step on 4 threads (small ranges: the pool and the split
 * ranges run), and world B runs the reference: the same bodies written by hand as view loops, in
 * the schedule's order, with ms_apply_deferred at its sync points (docs/systems.md). After every
 * step the two must have the same ms_world_hash, and every DOC_EVERY steps and at the end the
 * same saved document.
 *     test_model_step [--seed N] [--ops N] [--threads T]   (defaults: 1,000,000 operations, 4 threads)
 * ECSGEN_MODEL_OPS sets the operation count when --ops is not given. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms_ecs.h"

enum { CANDIDATES = 8192, DOC_EVERY = 16, TARGET_LIVE = 400 };

static uint64_t rng_state;
static uint64_t rng(void) {
    rng_state ^= rng_state >> 12, rng_state ^= rng_state << 25, rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}
static uint32_t below(uint32_t n) { return (uint32_t)(rng() % n); }

/* ---- the systems' bodies, run by ms_step ---- */
void ms_system_move(ms_move_t *s) {
    for (size_t i = 0; i < s->count; i++) {
        MS_MOVE_FIELD(s, pos, x, i) += MS_MOVE_FIELD(s, vel, x, i) * s->dt;
        MS_MOVE_FIELD(s, pos, y, i) += MS_MOVE_FIELD(s, vel, y, i) * s->dt;
    }
}
void ms_system_age(ms_age_t *s) {
    for (size_t i = 0; i < s->count; i++)
        if (--MS_AGE_FIELD(s, life, left, i) <= 0) ms_defer_destroy(s->world, s->entity[i]);
}
void ms_system_ignite(ms_ignite_t *s) {
    for (size_t i = 0; i < s->count; i++)
        if (MS_IGNITE_FIELD(s, pos, x, i) > 30.0f) ms_defer_add_hot(s->world, s->entity[i]);
}
void ms_system_burn(ms_burn_t *s) {
    for (size_t i = 0; i < s->count; i++)
        if ((MS_BURN_FIELD(s, hp, v, i) -= 3) < 10) ms_defer_remove_hot(s->world, s->entity[i]);
}
static void breed_one(ms_world_t *w, float x, float y) {
    ms_pos_t p = { x, y };
    ms_vel_t v = { 1.0f, -1.0f };
    ms_life_t l = { 12 }; /* below 16: a spawned entity does not breed again */
    ms_hp_t h = { 50 };
    ms_defer_spawn(w, &(ms_spawn_desc_t){ .pos = &p, .vel = &v, .life = &l, .hp = &h });
}
void ms_system_breed(ms_breed_t *s) {
    for (size_t i = 0; i < s->count; i++)
        if (MS_BREED_FIELD(s, life, left, i) % 16 == 0)
            breed_one(s->world, MS_BREED_FIELD(s, pos, x, i), MS_BREED_FIELD(s, pos, y, i));
}
void ms_system_tally(ms_tally_t *s) {
    uint32_t n = 0;
    int64_t sum = 0;
    for (size_t i = 0; i < s->count; i++) n += MS_TALLY_FIELD(s, hp, v, i) > 50, sum += MS_TALLY_FIELD(s, hp, v, i);
    MS_TALLY_FIELD(s, census, n, 0) = n;
    MS_TALLY_FIELD(s, census, sum, 0) += sum;
}
void ms_system_heal(ms_heal_t *s) {
    int gain = MS_HEAL_FIELD(s, census, n, 0) % 3u == 0 ? 2 : 1;
    for (size_t i = 0; i < s->count; i++)
        if (MS_HEAL_FIELD(s, hp, v, i) < 100) MS_HEAL_FIELD(s, hp, v, i) += gain;
}

/* ---- the reference: the same work by hand, stage by stage (the schedule in ms_ecs.h) ---- */
#define F(Q, v, c, f, i) MS_##Q##__QUERY_FIELD(v, c, f, i)
static void step_by_hand(ms_world_t *w, float dt) {
    /* stage 0: move, age; sync */
    ms_move__query_view_t mv = ms_query_move__query(w);
    for (size_t i = 0; i < mv.count; i++) {
        F(MOVE, mv, pos, x, i) += F(MOVE, mv, vel, x, i) * dt;
        F(MOVE, mv, pos, y, i) += F(MOVE, mv, vel, y, i) * dt;
    }
    ms_age__query_view_t av = ms_query_age__query(w);
    for (size_t i = 0; i < av.count; i++)
        if (--F(AGE, av, life, left, i) <= 0) ms_defer_destroy(w, av.entity[i]);
    ms_apply_deferred(w);
    /* stage 1: ignite; sync */
    ms_ignite__query_view_t iv = ms_query_ignite__query(w);
    for (size_t i = 0; i < iv.count; i++)
        if (F(IGNITE, iv, pos, x, i) > 30.0f) ms_defer_add_hot(w, iv.entity[i]);
    ms_apply_deferred(w);
    /* stage 2: burn; sync */
    ms_burn__query_view_t bv = ms_query_burn__query(w);
    for (size_t i = 0; i < bv.count; i++)
        if ((F(BURN, bv, hp, v, i) -= 3) < 10) ms_defer_remove_hot(w, bv.entity[i]);
    ms_apply_deferred(w);
    /* stage 3: breed; sync */
    ms_breed__query_view_t rv = ms_query_breed__query(w);
    for (size_t i = 0; i < rv.count; i++)
        if (F(BREED, rv, life, left, i) % 16 == 0)
            breed_one(w, F(BREED, rv, pos, x, i), F(BREED, rv, pos, y, i));
    ms_apply_deferred(w);
    /* stage 4: tally; stage 5: heal */
    ms_tally__query_view_t tv = ms_query_tally__query(w);
    ms_census_t *c = ms_singleton_census(w);
    uint32_t n = 0;
    int64_t sum = 0;
    for (size_t i = 0; i < tv.count; i++) n += F(TALLY, tv, hp, v, i) > 50, sum += F(TALLY, tv, hp, v, i);
    c->n = n, c->sum += sum;
    int gain = c->n % 3u == 0 ? 2 : 1;
    ms_heal__query_view_t hv = ms_query_heal__query(w);
    for (size_t i = 0; i < hv.count; i++)
        if (F(HEAL, hv, hp, v, i) < 100) F(HEAL, hv, hp, v, i) += gain;
}

/* ---- random operations, the same on both worlds ---- */
static ecs_entity_t cand[CANDIDATES]; /* ids spawned here: live or stale */
static uint32_t ncand;

/* The view is made on both worlds: making it may bring pending group changes up to date, which
 * sets the order of later matches, so both worlds must see the same calls. */
static ecs_entity_t pick(ms_world_t *a, ms_world_t *b) {
    if (below(4) == 0) { /* one the systems spawned, or any match */
        ms_tally__query_view_t v = ms_query_tally__query(a);
        (void)ms_query_tally__query(b);
        if (v.count) return v.entity[below((uint32_t)v.count)];
    }
    return ncand ? cand[below(ncand)] : ECS_NULL;
}

static ms_world_t *wa, *wb;
static int fail(long long op, const char *what) {
    if (getenv("MODEL_STEP_DUMP")) { /* both documents, to diff */
        char *da = ms_world_to_json(wa), *db = ms_world_to_json(wb);
        FILE *f = fopen("step.json", "w"), *g = fopen("hand.json", "w");
        if (f && da) fputs(da, f);
        if (g && db) fputs(db, g);
        if (f) fclose(f);
        if (g) fclose(g);
        free(da), free(db);
    }
    ms_world_free(wa), ms_world_free(wb);
    fprintf(stderr, "test_model_step: seed %" PRIu64 ", operation %lld: %s\n", rng_state, op, what);
    return 1;
}

static void random_op(ms_world_t *a, ms_world_t *b) {
    uint32_t kind = below(16);
    ecs_entity_t e = pick(a, b);
    ms_pos_t p = { (float)below(60), (float)below(60) };
    ms_vel_t v = { (float)below(7) - 3.0f, (float)below(5) - 2.0f };
    ms_hp_t h = { (int32_t)below(120) };
    ms_life_t l = { 1 + (int32_t)below(64) };
    if (kind < 4 && ms_count(a) < TARGET_LIVE) kind = 0;
    if (kind == 0 && ms_count(a) >= TARGET_LIVE) { /* keep the world near TARGET_LIVE: destroy a live one */
        for (int tries = 0; tries < 8 && !ms_alive(a, e); tries++) e = pick(a, b);
        kind = 1;
    }
    switch (kind) {
    case 0: {
        uint32_t m = below(32);
        ms_spawn_desc_t d = { .pos = m & 1 ? &p : NULL, .vel = m & 2 ? &v : NULL, .hp = m & 4 ? &h : NULL,
                              .life = m & 8 ? &l : NULL, .hot = m & 16 };
        ecs_entity_t x = ms_spawn(a, &(ms_spawn_desc_t){ .hot = true }), y = ms_spawn(b, &(ms_spawn_desc_t){ .hot = true });
        { /* and a stale id */
            ms_destroy(a, x), ms_destroy(b, y);
            if (x != ECS_NULL) cand[ncand < CANDIDATES ? ncand++ : below(CANDIDATES)] = x;
        }
        x = ms_spawn(a, &d), y = ms_spawn(b, &d);
        if (x != y) abort();
        if (x != ECS_NULL) cand[ncand < CANDIDATES ? ncand++ : below(CANDIDATES)] = x;
        break;
    }
    case 1: ms_destroy(a, e), ms_destroy(b, e); break;
    case 2: ms_set_pos(a, e, p), ms_set_pos(b, e, p); break;
    case 3: ms_set_vel(a, e, v), ms_set_vel(b, e, v); break;
    case 4: ms_set_hp(a, e, h), ms_set_hp(b, e, h); break;
    case 5: ms_set_life(a, e, l), ms_set_life(b, e, l); break;
    case 6: ms_add_hot(a, e), ms_add_hot(b, e); break;
    case 7: ms_remove_hot(a, e), ms_remove_hot(b, e); break;
    case 8: ms_remove_pos(a, e), ms_remove_pos(b, e); break;
    case 9: ms_remove_vel(a, e), ms_remove_vel(b, e); break;
    case 10: ms_remove_hp(a, e), ms_remove_hp(b, e); break;
    case 11: ms_remove_life(a, e), ms_remove_life(b, e); break;
    case 12: ms_defer_destroy(a, e), ms_defer_destroy(b, e); break; /* applied at the step's first sync */
    case 13: ms_defer_set_hp(a, e, h), ms_defer_set_hp(b, e, h); break;
    case 14: ms_defer_remove_pos(a, e), ms_defer_remove_pos(b, e); break;
    default: ms_defer_add_hot(a, e), ms_defer_add_hot(b, e); break;
    }
}

int main(int argc, char **argv) {
    uint64_t seed = 1;
    long long ops = 1000000;
    unsigned threads = 4;
    const char *env = getenv("ECSGEN_MODEL_OPS");
    if (env && *env) ops = atoll(env);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--ops") && i + 1 < argc) ops = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = (unsigned)atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: test_model_step [--seed N] [--ops N] [--threads T]\n");
            return 2;
        }
    }
    rng_state = 0x9E3779B97F4A7C15ull ^ seed;
    ms_world_t *a = ms_world_new(), *b = ms_world_new();
    wa = a, wb = b;
    if (!a || !b) return fail(0, "out of memory");
    ms_set_threads(a, threads);
    long long steps = 0, docs = 0;
    for (long long op = 0; op < ops;) {
        for (uint32_t k = 1 + below(128); k-- && op < ops; op++) random_op(a, b);
        float dt = 0.25f * (float)(1 + below(4));
        ms_step(a, dt);
        step_by_hand(b, dt);
        steps++;
        if (ms_world_hash(a) != ms_world_hash(b)) return fail(op, "ms_step and the reference differ (world hash)");
        if (steps % DOC_EVERY == 0 || op >= ops) {
            char *da = ms_world_to_json(a), *db = ms_world_to_json(b);
            if (!da || !db) return fail(op, "out of memory");
            int same = !strcmp(da, db);
            free(da), free(db);
            docs++;
            if (!same) return fail(op, "ms_step and the reference differ (saved document)");
        }
    }
    printf("test_model_step: seed %" PRIu64 ", %lld operations, %lld steps on %u threads, %zu entities at the end, "
           "%lld documents compared: same\n", seed, ops, steps, ms_threads(a), ms_count(a), docs);
    ms_world_free(a), ms_world_free(b);
    return 0;
}
