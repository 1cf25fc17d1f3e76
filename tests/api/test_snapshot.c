/* test_snapshot.c: snapshots (full and incremental) and the flight recorder on the game
 * schema (growable pools, owning groups) and the kitchen schema (fixed storage, slot
 * storage): a restore gives back the world's hash, document and next id; refusals change
 * nothing, a snapshot of another schema (sw: growable, as game) among them; recordings
 * save, load and refuse bad files with the path named. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "game_ecs.h"
#include "kit_ecs.h"
#include "sw_ecs.h"

static uint64_t rng_state = 88172645463325252u;
static uint32_t below(uint32_t n) { return (uint32_t)(check_xorshift(&rng_state) % n); }

static ecs_entity_t game_next_id(const game_world_t *w) {
    const ecs_entities_t *t = &w->entities;
    return t->free_count ? ecs_entity_make(t->free[t->free_count - 1u], t->generation[t->free[t->free_count - 1u]])
                         : ecs_entity_make(t->used, 0);
}

/* A frame of a small game: spawns, moves (through an owned view and set),
 * destroys, a deferred change left waiting, the clock singleton. */
static void game_frame(game_world_t *w, uint32_t frame) {
    for (int k = 0; k < 5; k++) {
        game_spawn(w, &(game_spawn_desc_t){ .position = &(game_position_t){ (float)below(100), 0 },
                                            .velocity = below(2) ? &(game_velocity_t){ 1, (float)frame } : NULL,
                                            .health = below(3) ? NULL : &GAME_HEALTH_DEFAULT,
                                            .asteroid = below(2) });
    }
    game_movement_view_t v = game_query_movement(w);
    for (size_t i = 0; i < v.count; i++) v.position.x[i] += 1.0f; /* owned: rows aligned */
    for (int k = 0; k < 3 && game_count(w); k++) {
        ecs_entity_t e = ecs_entities_at(&w->entities, below(w->entities.used));
        if (e == ECS_NULL) continue;
        if (below(2)) game_destroy(w, e);
        else game_set_velocity(w, e, (game_velocity_t){ (float)frame, 2 });
    }
    game_singleton_clock(w)->frame = frame;
    if (frame % 3 == 0) {
        ecs_entity_t e = ecs_entities_at(&w->entities, below(w->entities.used));
        if (e != ECS_NULL) game_defer_destroy(w, e);
    }
}

static int hook_calls;
static void count_hook(game_world_t *w, ecs_entity_t e, void *user) {
    (void)w, (void)e, (void)user;
    hook_calls++;
}

static void test_take_restore(void) {
    game_world_t *w = game_world_new();
    for (uint32_t f = 0; f < 20; f++) game_frame(w, f);
    game_snapshot_t *s = game_snapshot_new();
    CHECK(game_snapshot_take(w, s));
    uint64_t hash = game_world_hash(w);
    ecs_entity_t next = game_next_id(w);
    uint32_t waiting = (uint32_t)game_deferred_count(w);
    /* The document of the world as taken, its waiting changes applied (a save with changes
     * waiting stops a debug build); then back to the world as taken. */
    CHECK(game_apply_deferred(w));
    char *doc = game_world_to_json(w);
    CHECK(game_snapshot_restore(w, s));
    game_on_position(w, &(game_hooks_t){ count_hook, count_hook, count_hook, NULL });
    ecs_entity_t later = ECS_NULL;
    for (uint32_t f = 20; f < 40; f++) {
        game_frame(w, f);
        if (!later) later = game_spawn(w, NULL);
    }
    CHECK(game_world_hash(w) != hash);
    hook_calls = 0;
    CHECK(game_snapshot_restore(w, s));
    CHECK_EQ(hook_calls, 0); /* hooks do not fire */
    CHECK_EQ(game_world_hash(w), hash);
    CHECK_EQ(game_deferred_count(w), waiting);
    CHECK(!game_alive(w, later) || game_next_id(w) == later); /* stale, or the very next id */
    CHECK_EQ(game_spawn(w, NULL), next);
    CHECK(game_snapshot_restore(w, s) && game_apply_deferred(w));
    char *again = game_world_to_json(w);
    CHECK(again && strcmp(again, doc) == 0);
    free(again);
    /* A fresh world (smaller arrays, no pages) grows to hold the snapshot. */
    game_world_t *fresh = game_world_new();
    CHECK(game_snapshot_restore(fresh, s));
    CHECK_EQ(game_world_hash(fresh), hash);
    CHECK_EQ(game_spawn(fresh, NULL), next);
    /* The group order came back too: the owned view lists the same rows. */
    CHECK(game_snapshot_restore(w, s) && game_snapshot_restore(fresh, s));
    game_movement_view_t a = game_query_movement(w), b = game_query_movement(fresh);
    CHECK_EQ(a.count, b.count);
    for (size_t i = 0; i < a.count && i < b.count; i++) CHECK_EQ(a.entity[i], b.entity[i]);
    free(doc);
    (void)game_apply_deferred(fresh); /* changes left waiting would stop world_free in a debug build */
    game_world_free(fresh);
    game_snapshot_free(s);
    (void)game_apply_deferred(w); /* changes left waiting would stop world_free in a debug build */
    game_world_free(w);
}

static void test_incremental(void) {
    game_world_t *w = game_world_new();
    for (uint32_t f = 0; f < 2000; f++) game_frame(w, f);
    game_snapshot_t *full = game_snapshot_new(), *inc = game_snapshot_new(), *inc2 = game_snapshot_new();
    CHECK(game_snapshot_take(w, full));
    game_velocity_ref_t r = game_ref_velocity(w, ecs_entities_at(&w->entities, 5));
    if (r.x) *r.x += 1.0f; /* a raw pointer write: found by comparison */
    game_singleton_clock(w)->frame++;
    CHECK(game_snapshot_take_since(w, inc, full));
    uint64_t hash = game_world_hash(w);
    CHECK(game_snapshot_memory(inc) * 20u < game_snapshot_memory(full)); /* only what changed */
    game_frame(w, 9999);
    CHECK(game_snapshot_take_since(w, inc2, inc)); /* from inc's full root */
    uint64_t hash2 = game_world_hash(w);
    CHECK(game_snapshot_restore(w, inc));
    CHECK_EQ(game_world_hash(w), hash);
    CHECK(game_snapshot_restore(w, inc2));
    CHECK_EQ(game_world_hash(w), hash2);
    CHECK(!game_snapshot_take_since(w, inc, inc)); /* from itself */
    /* The full root taken again: the incremental ones are refused, the world unchanged. */
    CHECK(game_snapshot_take(w, full));
    game_frame(w, 10000);
    uint64_t now = game_world_hash(w);
    CHECK(!game_snapshot_restore(w, inc2));
    CHECK_EQ(game_world_hash(w), now);
    game_snapshot_free(full);
    game_snapshot_free(inc);
    game_snapshot_free(inc2);
    (void)game_apply_deferred(w); /* changes left waiting would stop world_free in a debug build */
    game_world_free(w);
}

static void test_refusals(void) {
    game_world_t *w = game_world_new();
    game_frame(w, 1);
    uint64_t hash = game_world_hash(w);
    game_snapshot_t *s = game_snapshot_new();
    CHECK(!game_snapshot_restore(w, s)); /* never taken */
    CHECK(!game_snapshot_restore(w, NULL));
    CHECK(game_snapshot_take(w, s));
    w->entities.limit = 1000; /* as a world of another max_entities */
    game_frame(w, 2);
    uint64_t other = game_world_hash(w);
    CHECK(!game_snapshot_restore(w, s));
    CHECK_EQ(game_world_hash(w), other);
    w->entities.limit = 0;
    CHECK(game_snapshot_restore(w, s));
    CHECK_EQ(game_world_hash(w), hash);
    game_snapshot_free(s);
    (void)game_apply_deferred(w); /* changes left waiting would stop world_free in a debug build */
    game_world_free(w);
}

/* A snapshot taken from a world of another schema, cast to this schema's type: restore and
 * take_since refuse it, and the world keeps its hash and document. game and sw are both
 * growable (the same max_entities: none), so only the schema check stands between them. */
static void test_other_schema(void) {
    game_world_t *g = game_world_new();
    for (uint32_t f = 0; f < 10; f++) game_frame(g, f);
    CHECK(game_apply_deferred(g)); /* nothing waiting: g saves below */
    game_snapshot_t *gs = game_snapshot_new();
    CHECK(game_snapshot_take(g, gs));
    sw_world_t *w = sw_world_new();
    for (int32_t k = 0; k < 40; k++)
        sw_spawn(w, &(sw_spawn_desc_t){ .early = k % 2 ? &(sw_early_t){ k } : NULL, .s0 = &(sw_s0_t){ -k },
                                        .s69 = k % 3 ? &(sw_s69_t){ k } : NULL });
    CHECK_EQ(w->entities.limit, g->entities.limit);
    uint64_t hash = sw_world_hash(w);
    char *doc = sw_world_to_json(w);
    const sw_snapshot_t *cast = (const sw_snapshot_t *)(const void *)gs;
    CHECK(!sw_snapshot_restore(w, cast));
    CHECK_EQ(sw_world_hash(w), hash);
    char *again = sw_world_to_json(w);
    CHECK(doc && again && strcmp(again, doc) == 0);
    free(again);
    sw_snapshot_t *inc = sw_snapshot_new();
    CHECK(!sw_snapshot_take_since(w, inc, cast)); /* nor the base of an incremental one */
    CHECK(!sw_snapshot_restore(w, inc));
    CHECK_EQ(sw_world_hash(w), hash);
    /* The other way: sw's snapshot into the game world. */
    sw_snapshot_t *ss = sw_snapshot_new();
    CHECK(sw_snapshot_take(w, ss));
    uint64_t ghash = game_world_hash(g);
    char *gdoc = game_world_to_json(g);
    CHECK(!game_snapshot_restore(g, (const game_snapshot_t *)(const void *)ss));
    CHECK_EQ(game_world_hash(g), ghash);
    again = game_world_to_json(g);
    CHECK(gdoc && again && strcmp(again, gdoc) == 0);
    free(again);
    /* Each snapshot still restores into a world of its own schema. */
    CHECK(game_snapshot_restore(g, gs) && game_world_hash(g) == ghash);
    CHECK(sw_snapshot_restore(w, ss) && sw_world_hash(w) == hash);
    free(gdoc);
    free(doc);
    sw_snapshot_free(ss);
    sw_snapshot_free(inc);
    sw_world_free(w);
    game_snapshot_free(gs);
    (void)game_apply_deferred(g); /* changes left waiting would stop world_free in a debug build */
    game_world_free(g);
}

/* Fixed storage and slot components: no allocation in the world, masks and rows restored. */
static void test_kitchen(void) {
    kit_world_t *w = kit_world_new();
    kit_snapshot_t *s = kit_snapshot_new();
    for (int k = 0; k < 300; k++) {
        ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){ .pos = below(2) ? &(kit_pos_t){ k, -k } : NULL,
                                                          .vel = below(2) ? &(kit_vel_t){ k, 1 } : NULL,
                                                          .state = below(2) ? &KIT_STATE_DEFAULT : NULL,
                                                          .marked = below(2) });
        if (below(4) == 0) kit_destroy(w, e);
    }
    CHECK(kit_snapshot_take(w, s));
    uint64_t hash = kit_world_hash(w);
    char *doc = kit_world_to_json(w);
    for (int k = 0; k < 500; k++) {
        ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){ .vel = &(kit_vel_t){ 7, 7 }, .state = &KIT_STATE_DEFAULT });
        if (k % 3 == 0) kit_destroy(w, e);
    }
    CHECK(kit_snapshot_restore(w, s));
    CHECK_EQ(kit_world_hash(w), hash);
    char *again = kit_world_to_json(w);
    CHECK(again && strcmp(again, doc) == 0);
    /* Slots handed out after the snapshot are fresh again: a spawn there has no slot component. */
    ecs_entity_t e = ECS_NULL;
    for (int k = 0; k < 400; k++) e = kit_spawn(w, NULL);
    CHECK(e != ECS_NULL && !kit_has_vel(w, e) && !kit_has_state(w, e));
    free(again);
    free(doc);
    kit_snapshot_free(s);
    (void)kit_apply_deferred(w); /* changes left waiting would stop world_free in a debug build */
    kit_world_free(w);
}

static void test_recorder(void) {
    game_world_t *w = game_world_new();
    game_recorder_t *rec = game_recorder_new(10);
    uint64_t hashes[25];
    CHECK(!game_recorder_restore(rec, w, 0)); /* nothing recorded */
    for (uint32_t f = 0; f < 25; f++) {
        game_frame(w, f);
        hashes[f] = game_world_hash(w);
        CHECK(game_recorder_record(rec, w));
    }
    CHECK_EQ(game_recorder_frames(rec), 10);
    for (uint32_t back = 0; back < 10; back++) {
        CHECK(game_recorder_restore(rec, w, back));
        CHECK_EQ(game_world_hash(w), hashes[24 - back]);
    }
    uint64_t now = game_world_hash(w);
    CHECK(!game_recorder_restore(rec, w, 10)); /* gone from the ring */
    CHECK_EQ(game_world_hash(w), now);
    /* Going on from a restored frame: the frames stay, the next one goes after them. */
    CHECK(game_recorder_restore(rec, w, 3));
    CHECK_EQ(game_world_hash(w), hashes[21]);
    game_frame(w, 100);
    CHECK(game_recorder_record(rec, w));
    CHECK(game_recorder_restore(rec, w, 1));
    CHECK_EQ(game_world_hash(w), hashes[24]);

    /* A frame as an ordinary dump; every frame in one recording, loaded back. */
    ecs_error_t err = { 0 };
    const char *frame_path = "test_snapshot_frame.json", *rec_path = "test_snapshot_rec.json";
    CHECK(game_recorder_save_frame(rec, 2, frame_path, &err));
    game_world_t *loaded = game_world_new();
    CHECK(game_world_load(loaded, frame_path, &err));
    CHECK_EQ(game_world_hash(loaded), hashes[23]);
    CHECK(!game_recorder_save_frame(rec, 10, frame_path, &err) && strstr(err.message, frame_path));
    CHECK(game_recorder_save_all(rec, rec_path, &err));
    game_recorder_t *back = game_recorder_new(300);
    if (!game_recorder_load(back, rec_path, &err)) fprintf(stderr, "load: %s\n", err.message);
    CHECK_EQ(game_recorder_frames(back), 10);
    for (uint32_t k = 1; k < 10; k++) {
        CHECK(game_recorder_restore(back, loaded, k));
        CHECK_EQ(game_world_hash(loaded), hashes[25 - k]);
    }
    /* A smaller recorder keeps the newest frames. */
    game_recorder_t *small = game_recorder_new(3);
    CHECK(game_recorder_load(small, rec_path, &err) && game_recorder_frames(small) == 3);
    CHECK(game_recorder_restore(small, loaded, 2) && game_world_hash(loaded) == hashes[23]);
    game_recorder_free(small);

    /* Bad recordings: refused with the path, the recorder unchanged. */
    FILE *f = fopen(rec_path, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    CHECK(fread(text, 1, (size_t)size, f) == (size_t)size);
    text[size] = '\0';
    fclose(f);
    static const struct {
        const char *from, *to, *says;
    } bad[] = {
        { "\"schema\":\t\"game\"", "\"schema\":\t\"gamer\"", "schema" },
        { "\"deltas\":\t[", "\"deltas\":\t[{\"bogus\": 1}, ", "deltas[0]" },
        { "\"deltas\":\t[", "\"deltas\":\t[{\"entities\": [{\"id\": \"1v0\", \"position\": {\"x\": \"abc\"}}]}, ",
          "frame 1 (deltas[0]): entities" },
        { "\"deltas\":\t[", "\"deltas\":\t[{\"removed\": [\"999999v0\"]}, ", "removed[0]" },
        { "\"deltas\":\t[", "\"deltas\":\t[{\"entities\": [{\"id\": \"4000000000v0\"}]}, ", "slot" },
        { "\"first\":\t{", "\"first\":\t{\"bogus\": 1, ", "frame 0 (first)" },
        { "\"deltas\":\t[", "\"deltas\":\t[{\"changed\": [{\"id\": \"@\", \"bogus\": {}}]}, ", "deltas[0].changed[0].bogus" },
        { "\"deltas\":\t[", "\"deltas\":\t[{\"changed\": [{\"id\": \"@7\"}]}, ", "deltas[0].changed[0].id" },
    };
    const char *bad_path = "test_snapshot_bad.json";
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *at = strstr(text, bad[k].from);
        CHECK(at != NULL);
        if (!at) continue;
        FILE *o = fopen(bad_path, "wb");
        fwrite(text, 1, (size_t)(at - text), o);
        for (const char *p = bad[k].to; *p; p++) { /* @: the first frame's first id (@7: at generation 7) */
            if (*p != '@') {
                fputc(*p, o);
                continue;
            }
            const char *id = strstr(strstr(text, "\"first\""), "\"id\":\t\"") + 7;
            int len = (int)(strchr(id, '"') - id);
            if (p[1] == '7') fprintf(o, "%.*s7", (int)(strchr(id, 'v') - id) + 1, id), p++;
            else fprintf(o, "%.*s", len, id);
        }
        fputs(at + strlen(bad[k].from), o);
        fclose(o);
        memset(&err, 0, sizeof err);
        bool ok = game_recorder_load(back, bad_path, &err);
        CHECK(!ok);
        if (!strstr(err.message, bad_path) || !strstr(err.message, bad[k].says))
            fprintf(stderr, "case %zu: %s\n", k, err.message);
        CHECK(strstr(err.message, bad_path) && strstr(err.message, bad[k].says));
        CHECK_EQ(game_recorder_frames(back), 10);
        CHECK(game_recorder_restore(back, loaded, 9) && game_world_hash(loaded) == hashes[16]);
    }
    FILE *o = fopen(bad_path, "wb"); /* cut short */
    fwrite(text, 1, (size_t)size / 2, o);
    fclose(o);
    CHECK(!game_recorder_load(back, bad_path, &err) && strstr(err.message, bad_path));
    CHECK_EQ(game_recorder_frames(back), 10);
    free(text);
    remove(bad_path);
    remove(frame_path);
    remove(rec_path);
    game_recorder_free(back);
    (void)game_apply_deferred(loaded); /* changes left waiting would stop world_free in a debug build */
    game_world_free(loaded);
    game_recorder_free(rec);
    (void)game_apply_deferred(w); /* changes left waiting would stop world_free in a debug build */
    game_world_free(w);
}

/* A slot add or remove alone, in a chunk of slots nothing else wrote since the last take:
 * the written bit its store sets in the slot's mask word is all that marks it, turned into
 * the slot's change mark by the next take, record or restore (0.7.0). sw's s0 and s1 sit in
 * the first mask word, s69 in the second. */
static void test_slot_writes_marked(void) {
    enum { N = 256 };
    sw_world_t *w = sw_world_new();
    static ecs_entity_t ids[N];
    for (int k = 0; k < N; k++) ids[k] = sw_spawn(w, &(sw_spawn_desc_t){ .s0 = &(sw_s0_t){ k } });
    sw_snapshot_t *base = sw_snapshot_new(), *inc = sw_snapshot_new();
    sw_recorder_t *rec = sw_recorder_new(4);
    CHECK(w && base && inc && rec && sw_snapshot_take(w, base));
    uint64_t taken = sw_world_hash(w);
    CHECK(sw_add_s1(w, ids[100], (sw_s1_t){ 7 }) && sw_add_s69(w, ids[200], (sw_s69_t){ 9 }));
    CHECK(sw_snapshot_take_since(w, inc, base)); /* keeps slots 100 and 200, compares nothing else */
    uint64_t added = sw_world_hash(w);
    CHECK(added != taken);
    CHECK(sw_snapshot_restore(w, base)); /* the last take: writes back the marked rows only */
    CHECK_EQ(sw_world_hash(w), taken);
    CHECK(!sw_has_s1(w, ids[100]) && !sw_has_s69(w, ids[200]));
    CHECK(sw_snapshot_restore(w, inc));
    CHECK_EQ(sw_world_hash(w), added);
    CHECK(sw_has_s1(w, ids[100]) && sw_get_s69(w, ids[200]).v == 9);

    CHECK(sw_snapshot_take(w, base));
    CHECK(sw_remove_s0(w, ids[50]));
    CHECK(sw_snapshot_restore(w, base));
    CHECK_EQ(sw_world_hash(w), added);
    CHECK(sw_has_s0(w, ids[50]) && sw_get_s0(w, ids[50]).v == 50);

    CHECK(sw_recorder_record(rec, w));
    CHECK(sw_remove_s0(w, ids[60]));
    CHECK(sw_recorder_record(rec, w)); /* compares only what is marked with the frame before */
    uint64_t removed = sw_world_hash(w);
    CHECK(sw_add_s0(w, ids[60], (sw_s0_t){ -1 }));
    CHECK(sw_recorder_restore(rec, w, 0));
    CHECK_EQ(sw_world_hash(w), removed);
    CHECK(!sw_has_s0(w, ids[60]));
    CHECK(sw_recorder_restore(rec, w, 1));
    CHECK_EQ(sw_world_hash(w), added);
    CHECK(sw_has_s0(w, ids[60]) && sw_get_s0(w, ids[60]).v == 60);

    sw_recorder_free(rec);
    sw_snapshot_free(inc);
    sw_snapshot_free(base);
    sw_world_free(w);
}

int main(void) {
    test_take_restore();
    test_incremental();
    test_refusals();
    test_other_schema();
    test_kitchen();
    test_recorder();
    test_slot_writes_marked();
    return check_finish("test_snapshot");
}
