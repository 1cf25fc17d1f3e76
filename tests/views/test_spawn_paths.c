/* test_spawn_paths.c: spawn's two bodies make the same world.
 *
 * The generated header's inline spawn calls <name>__spawn_bits (the bits of the components a
 * desc names and their values' pointers, by pool index) when the compiler saw what the desc
 * holds, and <name>__spawn_desc otherwise. Random descs go to each body, in two worlds built
 * side by side, with destroys between; the worlds must save to the same document, with the
 * same view counts and the same on_add hooks fired. Schemas: views.json (nested owned
 * queries, one excluding a tag) and slot_wide.json (slot storage over two bit words), where
 * compound literals at the call (the inline path when optimised) are checked too, with the
 * rows of the slot components they leave out. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sw_ecs.h"
#include "views_ecs.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n) { return (uint32_t)(check_xorshift(&rng) % n); }

/* The pool index (its bit) of component `name` in a schema's metadata. */
static uint32_t pool_index(const ecs_meta_schema_t *meta, const char *name) {
    for (uint32_t k = 0; k < meta->pooled_count; k++)
        if (strcmp(meta->components[meta->pooled[k]].name, name) == 0) return k;
    CHECK(!"component in the schema");
    return 0;
}

/* ---- views.json ------------------------------------------------------------------- */

typedef struct {
    views_position_t p;
    views_velocity_t v;
    views_sprite_t s;
    views_mass_t m;
    views_spawn_desc_t d;
} views_case_t;

/* A random desc: each component named with probability 1/2, with random values. */
static void views_random(views_case_t *c) {
    memset(c, 0, sizeof *c);
    c->p = (views_position_t){ (float)rnd(100), (float)rnd(100) };
    c->v = (views_velocity_t){ (float)rnd(9), 1.5f };
    c->s = (views_sprite_t){ .name = "s", .frames = { (uint16_t)rnd(60000), 2, 3, 4 } };
    c->m = (views_mass_t){ (double)rnd(1000) / 8.0 };
    if (rnd(2)) c->d.position = &c->p;
    if (rnd(2)) c->d.velocity = &c->v;
    if (rnd(2)) c->d.sprite = &c->s;
    if (rnd(2)) c->d.mass = &c->m;
    c->d.frozen = rnd(2);
    c->d.hidden = rnd(4) == 0;
}

/* What the inline spawn passes for d, built here at run time: bits, and parts by pool index. */
static ecs_entity_t views_spawn_as_bits(views_world_t *w, const views_spawn_desc_t *d) {
    views__spawn_bits_t bits = { { 0 } };
    const void *parts[8];
    struct { const char *name; const void *value; bool named; } all[] = {
        { "position", d->position, d->position != NULL }, { "velocity", d->velocity, d->velocity != NULL },
        { "sprite", d->sprite, d->sprite != NULL },       { "mass", d->mass, d->mass != NULL },
        { "frozen", NULL, d->frozen },                    { "hidden", NULL, d->hidden },
    };
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        if (!all[k].named) continue;
        uint32_t bit = pool_index(&views_meta, all[k].name);
        bits.w[bit / 64] |= UINT64_C(1) << (bit % 64);
        parts[bit] = all[k].value;
    }
    return views__spawn_bits(w, bits, parts);
}

static uint32_t added[2][6];

static void on_add_counter(views_world_t *w, ecs_entity_t e, void *user) {
    (void)w, (void)e;
    ++*(uint32_t *)user;
}

static void views_count_hooks(views_world_t *w, uint32_t *counts) {
    views_on_position(w, &(views_hooks_t){ .on_add = on_add_counter, .user = &counts[0] });
    views_on_velocity(w, &(views_hooks_t){ .on_add = on_add_counter, .user = &counts[1] });
    views_on_sprite(w, &(views_hooks_t){ .on_add = on_add_counter, .user = &counts[2] });
    views_on_mass(w, &(views_hooks_t){ .on_add = on_add_counter, .user = &counts[3] });
    views_on_frozen(w, &(views_hooks_t){ .on_add = on_add_counter, .user = &counts[4] });
    views_on_hidden(w, &(views_hooks_t){ .on_add = on_add_counter, .user = &counts[5] });
}

/* Both worlds save to the same document and count the same matches in every view. */
static void views_same(views_world_t *a, views_world_t *b) {
    char *ja = views_world_to_json(a), *jb = views_world_to_json(b);
    CHECK(ja && jb && strcmp(ja, jb) == 0);
    free(ja);
    free(jb);
    CHECK_EQ(views_world_hash(a), views_world_hash(b));
    CHECK_EQ(views_query_move(a).count, views_query_move(b).count);
    CHECK_EQ(views_query_move_free(a).count, views_query_move_free(b).count);
    CHECK_EQ(views_query_heavy(a).count, views_query_heavy(b).count);
    CHECK_EQ(views_query_draw(a).count, views_query_draw(b).count);
    CHECK_EQ(views_query_tagged(a).count, views_query_tagged(b).count);
}

static void test_views_random(bool hooks) {
    enum { IDS = 300, STEPS = 6000 };
    static ecs_entity_t ids[2][IDS];
    views_world_t *w[2] = { views_world_new(), views_world_new() };
    CHECK(w[0] && w[1]);
    memset(ids, 0, sizeof ids);
    memset(added, 0, sizeof added);
    if (hooks) {
        views_count_hooks(w[0], added[0]);
        views_count_hooks(w[1], added[1]);
    }
    for (int step = 0; step < STEPS; step++) {
        uint32_t at = rnd(IDS);
        if (ids[0][at] != ECS_NULL && rnd(3) == 0) {
            CHECK(views_destroy(w[0], ids[0][at]));
            CHECK(views_destroy(w[1], ids[1][at]));
            ids[0][at] = ids[1][at] = ECS_NULL;
        } else if (ids[0][at] == ECS_NULL) {
            views_case_t c;
            views_random(&c);
            ids[0][at] = views__spawn_desc(w[0], &c.d);
            ids[1][at] = views_spawn_as_bits(w[1], &c.d);
            CHECK(ids[0][at] != ECS_NULL);
            CHECK_EQ(ids[0][at], ids[1][at]);
        }
        if (step % 500 == 0) views_same(w[0], w[1]);
    }
    views_same(w[0], w[1]);
    for (int k = 0; k < 6; k++) CHECK_EQ(added[0][k], added[1][k]);
    if (hooks) CHECK(added[0][0] > 0 && added[0][4] > 0);
    views_world_free(w[0]);
    views_world_free(w[1]);
}

/* Literals at the call (the inline path when the compiler folds them) against _spawn_desc. */
static void test_views_literals(void) {
    views_world_t *a = views_world_new(), *b = views_world_new();
    views_position_t p = { 1, 2 };
    views_velocity_t v = { 3, 4 };
    views_mass_t m = { 5 };
    for (int k = 0; k < 3; k++) {
        views_spawn(a, &(views_spawn_desc_t){ .position = &p, .velocity = &v });
        views__spawn_desc(b, &(views_spawn_desc_t){ .position = &p, .velocity = &v });
        views_spawn(a, &(views_spawn_desc_t){ .position = &p, .velocity = &v, .mass = &m });
        views__spawn_desc(b, &(views_spawn_desc_t){ .position = &p, .velocity = &v, .mass = &m });
        /* move_free excludes frozen: this one joins move and heavy only */
        views_spawn(a, &(views_spawn_desc_t){ .position = &p, .velocity = &v, .mass = &m, .frozen = true });
        views__spawn_desc(b, &(views_spawn_desc_t){ .position = &p, .velocity = &v, .mass = &m, .frozen = true });
        views_spawn(a, &(views_spawn_desc_t){ .hidden = true });
        views__spawn_desc(b, &(views_spawn_desc_t){ .hidden = true });
        views_spawn(a, &(views_spawn_desc_t){ 0 });
        views__spawn_desc(b, &(views_spawn_desc_t){ 0 });
        views_spawn(a, NULL);
        views__spawn_desc(b, NULL);
    }
    views_same(a, b);
    CHECK_EQ(views_query_move_free(a).count, 3);
    /* First in a world, where its rows would be the groups' next ones: still not in move_free. */
    views_world_t *fresh = views_world_new(), *fresh_bits = views_world_new();
    views_spawn_desc_t frozen = { .position = &p, .velocity = &v, .mass = &m, .frozen = true };
    views__spawn_desc(fresh, &frozen);
    views_spawn_as_bits(fresh_bits, &frozen);
    views_spawn(fresh_bits, &(views_spawn_desc_t){ .position = &p, .velocity = &v, .mass = &m, .frozen = true });
    views__spawn_desc(fresh, &frozen);
    views_same(fresh, fresh_bits);
    CHECK_EQ(views_query_move_free(fresh_bits).count, 0);
    CHECK_EQ(views_query_move(fresh_bits).count, 2);
    views_world_free(fresh);
    views_world_free(fresh_bits);
    CHECK_EQ(views_query_move(a).count, 9);
    CHECK_EQ(views_query_heavy(a).count, 6);
    CHECK_EQ(views_count(a), 18);
    views_world_free(a);
    views_world_free(b);
}

/* ---- slot_wide.json --------------------------------------------------------------- */

/* Rows of a few slot components, in both words, that must match slot for slot (zero where
 * the component is absent: spawn zeroes a new slot's rows but those it writes). */
static void sw_same(const sw_world_t *a, const sw_world_t *b) {
    char *ja = sw_world_to_json(a), *jb = sw_world_to_json(b);
    CHECK(ja && jb && strcmp(ja, jb) == 0);
    free(ja);
    free(jb);
    CHECK_EQ(a->entities.used, b->entities.used);
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < a->entities.used && i < a->slot_rows && i < b->slot_rows; i++)
        wrong += a->components.s0.v[i] != b->components.s0.v[i] || a->components.s5.v[i] != b->components.s5.v[i] ||
                 a->components.s63.v[i] != b->components.s63.v[i] || a->components.s64.v[i] != b->components.s64.v[i] ||
                 a->components.s69.v[i] != b->components.s69.v[i];
    CHECK_EQ(wrong, 0);
}

static void test_slot_wide(void) {
    sw_world_t *a = sw_world_new(), *b = sw_world_new();
    CHECK(a && b);
    sw_early_t early = { 7 };
    sw_s0_t s0 = { 10 };
    sw_s5_t s5 = { 15 };
    sw_s64_t s64 = { 64 };
    sw_s69_t s69 = { 69 };
    sw_sp_t sp = { 99 };
    for (int k = 0; k < 200; k++) {
        ecs_entity_t e = sw_spawn(a, &(sw_spawn_desc_t){ .s0 = &s0, .s69 = &s69, .flag = true, .sp = &sp });
        CHECK_EQ(e, sw__spawn_desc(b, &(sw_spawn_desc_t){ .s0 = &s0, .s69 = &s69, .flag = true, .sp = &sp }));
        sw_spawn(a, &(sw_spawn_desc_t){ .early = &early, .s5 = &s5, .s64 = &s64 });
        sw__spawn_desc(b, &(sw_spawn_desc_t){ .early = &early, .s5 = &s5, .s64 = &s64 });
        sw_spawn(a, &(sw_spawn_desc_t){ .s69 = &s69 });
        sw__spawn_desc(b, &(sw_spawn_desc_t){ .s69 = &s69 });
        if (k % 3 == 0) { /* free a slot, so that the next spawn reuses it */
            CHECK(sw_destroy(a, e));
            CHECK(sw_destroy(b, e));
        }
    }
    sw_same(a, b);
    CHECK_EQ(sw_count_s69(a), 200 + 200 - 67);
    CHECK_EQ(sw_count_s64(a), 200);

    /* The same through _spawn_bits directly, bits in both words, against _spawn_desc. */
    sw_world_t *c = sw_world_new(), *d = sw_world_new();
    for (int k = 0; k < 100; k++) {
        sw__spawn_bits_t bits = { { 0 } };
        const void *parts[128];
        const char *names[] = { "early", "s5", "s64", "s69" };
        const void *values[] = { &early, &s5, &s64, &s69 };
        for (size_t j = 0; j < 4; j++) {
            uint32_t bit = pool_index(&sw_meta, names[j]);
            bits.w[bit / 64] |= UINT64_C(1) << (bit % 64);
            parts[bit] = values[j];
        }
        ecs_entity_t e = sw__spawn_bits(c, bits, parts);
        CHECK_EQ(e, sw__spawn_desc(d, &(sw_spawn_desc_t){ .early = &early, .s5 = &s5, .s64 = &s64, .s69 = &s69 }));
        if (k % 4 == 0) {
            CHECK(sw_destroy(c, e));
            CHECK(sw_destroy(d, e));
        }
    }
    sw_same(c, d);
    CHECK_EQ(sw_count_s64(c), 75);
    sw_world_free(a);
    sw_world_free(b);
    sw_world_free(c);
    sw_world_free(d);
}

int main(void) {
    test_views_random(false);
    test_views_random(true);
    test_views_literals();
    test_slot_wide();
    return check_finish("spawn paths");
}
