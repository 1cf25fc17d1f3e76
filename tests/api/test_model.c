/* test_model.c: model-based random testing of the generated API on the kitchen schema
 * (tests/schemas/kitchen.json). A seeded random sequence of operations (spawn with a desc or a
 * prefab, destroy of live and stale ids, add/set/remove/get/has/ref of every component,
 * singletons, EACH loops and query views with structural changes inside, the command buffer,
 * JSON round trips and refused documents) runs on a world and on a plain reference model; the
 * entity an operation touched is compared after every operation, everything every
 * --check-every operations and at the end. Every component has hooks that count their calls;
 * the model counts the calls the hook rules (docs/hooks.md) predict, and the counts must agree.
 *     test_model [--seed N] [--ops N] [--seconds S] [--check-every N] [--inject-bug]
 * ECSGEN_MODEL_OPS sets the operation count when --ops is not given (the valgrind build runs
 * fewer). On a divergence it prints the seed and the operation, finds the shortest failing
 * prefix (reruns from scratch, binary search) and prints the command that replays it.
 * --inject-bug makes the model wrong on purpose (a deferred set of vel on a marked entity), to
 * show that a divergence is caught, bisected and replayed (tests/api/test_model_replay.py). */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kit_ecs.h"

enum {
    LIMIT = 50000, /* the kitchen schema's max_entities */
    STALE_KEPT = 4096,
    PENDING_MAX = LIMIT, /* the world's command buffer holds max_entities changes */
};

/* Pools in schema order: bit k of the model's `has` and of the world's nonempty_pools. */
enum { C_scalars, C_floats, C_label, C_arrays, C_state, C_link, C_pos, C_vel, C_hidden, C_marked, C_COUNT };
#define DATA(X) X(scalars) X(floats) X(label) X(arrays) X(state) X(link) X(pos) X(vel)
#define TAGS(X) X(hidden) X(marked)
#define BIT(c) (1u << C_##c)

typedef union value {
#define X(c) kit_##c##_t c;
    DATA(X)
#undef X
} value_t;

/* ---- The reference model ------------------------------------------------------------ */

typedef struct model_entity {
    ecs_entity_t id; /* ECS_NULL: the slot is free */
    uint16_t has;    /* BIT(c) per component */
#define X(c) kit_##c##_t c;
    DATA(X)
#undef X
} model_entity_t;

typedef enum { K_DESTROY, K_ADD, K_SET, K_REMOVE } kind_t;
typedef struct cmd {
    kind_t kind;
    int comp;
    ecs_entity_t e;
    value_t v;
} cmd_t;

static model_entity_t model[LIMIT];
static uint64_t floor_gen[LIMIT]; /* a new id in slot i has at least this generation */
static ecs_entity_t live[LIMIT];  /* live ids, unordered */
static uint32_t live_count, live_pos[LIMIT];
static ecs_entity_t stale[STALE_KEPT];
static uint32_t stale_count;
static cmd_t pending[PENDING_MAX]; /* deferred changes recorded, in order */
static uint32_t pending_count;
static kit_settings_t m_settings;
static kit_counter_t m_counter;

/* Per slot, during a loop: the id matching at the start, the id visited, the id spawned in
 * the loop, and whether a change to it (by another entity's turn) may change whether it matches. */
static ecs_entity_t loop_start[LIMIT], loop_seen[LIMIT], loop_spawned[LIMIT];
static uint8_t loop_touched[LIMIT];

/* ---- Run state, options and counters ------------------------------------------------ */

static uint64_t opt_seed = 1, opt_check_every = 10000;
static long long opt_ops = 1000000;
static double opt_seconds = 0;
static bool opt_inject_bug, quiet, applying;

static uint64_t rng_state;
static long long op_index;        /* the operation running */
static long long failed_op;       /* the first operation a check failed in, -1 if none */
static unsigned long long checks; /* checks made */
static struct {
    unsigned long long spawns, prefabs, destroys, calls, loops, views, deferred, round_trips, refused, singles;
    unsigned long long snapshots, restores, restores_refused, records;
    uint32_t peak;
} stats;
/* Hook calls per kind and component: made by the world's hooks, predicted by the model. */
enum { H_ADD, H_REMOVE, H_SET, H_COUNT };
static unsigned long long hooks_seen[H_COUNT][C_COUNT], hooks_expected[H_COUNT][C_COUNT];
static long long target; /* live entities the run heads for in this phase */
static long long phase_end;

static uint64_t rng(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717u;
}
static uint32_t below(uint32_t n) { return (uint32_t)(rng() % n); }

/* A check: counted; the first failure of a run prints where and stops the run. */
#define MCHECK(cond) mcheck((cond), __LINE__, #cond)
static bool mcheck(bool ok, int line, const char *what) {
    checks++;
    if (!ok && failed_op < 0) {
        failed_op = op_index;
        if (!quiet)
            fprintf(stderr, "test_model: DIVERGENCE: seed %" PRIu64 ", operation %lld: %s:%d: %s\n", opt_seed,
                    op_index, __FILE__, line, what);
    }
    return ok;
}

static model_entity_t *lookup(ecs_entity_t e) {
    uint32_t i = ecs_entity_index(e);
    return e != ECS_NULL && i < LIMIT && model[i].id == e ? &model[i] : NULL;
}

/* ---- Random values: edges of each type often, else random bits ---------------------- */

static double random_f64(void) {
    static const double edges[] = { 0.0, -0.0, 0.1, -1.5, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                                    -1.7976931348623157e308, INFINITY, -INFINITY, 9007199254740993.0 };
    if (below(2)) return edges[below(sizeof edges / sizeof *edges)];
    uint64_t bits = rng();
    double d;
    memcpy(&d, &bits, sizeof d);
    return isnan(d) ? 0.25 : d; /* NaN keeps its sign only, not its payload: left out */
}
static float random_f32(void) {
    static const float edges[] = { 0.0f, -0.0f, 0.1f, 1e-45f, 1.17549435e-38f, 3.4028235e38f, -3.4028235e38f, INFINITY };
    if (below(2)) return edges[below(sizeof edges / sizeof *edges)];
    uint32_t bits = (uint32_t)rng();
    float f;
    memcpy(&f, &bits, sizeof f);
    return isnan(f) ? 0.5f : f;
}
static uint64_t random_u64(void) {
    static const uint64_t edges[] = { 0, 1, UINT64_MAX, INT64_MAX, (uint64_t)INT64_MIN, UINT64_C(1) << 53,
                                      (UINT64_C(1) << 53) + 1 };
    return below(2) ? edges[below(sizeof edges / sizeof *edges)] : rng();
}
static void random_text(char *s, size_t size) {
    static const char chars[] = "abcxyz019 \"\\\t/{}";
    memset(s, 0, size);
    size_t n = size > 1 ? below((uint32_t)size) : 0;
    for (size_t k = 0; k < n; k++) s[k] = chars[below(sizeof chars - 1)];
}
/* A reference: a live id, a stale one, or ECS_NULL (never a generation not yet issued). */
static ecs_entity_t random_ref(void) {
    uint32_t r = below(8);
    if (r < 5 && live_count) return live[below(live_count)];
    if (r < 7 && stale_count) return stale[below(stale_count)];
    return ECS_NULL;
}
/* The target of a call: mostly live, sometimes stale or null. */
static ecs_entity_t random_target(void) {
    uint32_t r = below(100);
    if (r < 8 && stale_count) return stale[below(stale_count)];
    if (r == 8) return ECS_NULL;
    return live_count ? live[below(live_count)] : ECS_NULL;
}

static kit_scalars_t random_scalars(void) {
    if (!below(8)) return KIT_SCALARS_DEFAULT;
    return (kit_scalars_t){ .flag = below(2), .s8 = (int8_t)rng(), .s16 = (int16_t)rng(), .s32 = (int32_t)rng(),
                            .s64 = (int64_t)random_u64(), .u8 = (uint8_t)rng(), .u16 = (uint16_t)rng(),
                            .u32 = (uint32_t)rng(), .u64 = random_u64(), .f32 = random_f32(), .f64 = random_f64(),
                            .who = random_ref() };
}
static kit_floats_t random_floats(void) {
    return (kit_floats_t){ random_f32(), random_f32(), random_f32(), random_f64(), random_f64(), random_f64(), random_f64() };
}
static kit_label_t random_label(void) {
    kit_label_t l;
    if (!below(8)) return KIT_LABEL_DEFAULT;
    random_text(l.text, sizeof l.text);
    random_text(l.empty, sizeof l.empty);
    random_text(l.trigraph, sizeof l.trigraph);
    random_text(l.blank, sizeof l.blank);
    return l;
}
static kit_arrays_t random_arrays(void) {
    kit_arrays_t a = KIT_ARRAYS_DEFAULT;
    if (!below(8)) return a;
    for (int k = 0; k < 3; k++) a.ints[k] = (int32_t)rng(), a.shorts[k] = (uint16_t)rng();
    for (int k = 0; k < 4; k++) a.flags[k] = below(2);
    for (int k = 0; k < 2; k++) {
        a.refs[k] = random_ref(), a.wide[k] = random_u64(), a.longs[k] = (int64_t)random_u64();
        a.halves[k] = (int16_t)rng(), a.reals[k] = random_f64(), a.singles[k] = random_f32();
        a.tiny[k] = (int8_t)rng(), a.words[k] = (uint32_t)rng();
    }
    for (int k = 0; k < 5; k++) a.bytes[k] = (uint8_t)rng();
    return a;
}
static kit_state_t random_state(void) {
    return (kit_state_t){ (kit_state_mode_t)below(KIT_STATE_MODE_COUNT), (kit_state_phase_t)below(KIT_STATE_PHASE_COUNT) };
}
static kit_link_t random_link(void) { return (kit_link_t){ random_ref() }; }
static kit_pos_t random_pos(void) { return below(4) ? (kit_pos_t){ (double)below(1000) - 500, below(1u << 20) / 1024.0 } : (kit_pos_t){ random_f64(), random_f64() }; }
static kit_vel_t random_vel(void) { return (kit_vel_t){ (int32_t)rng(), (int32_t)below(100) - 50 }; }

static value_t random_value(int comp) {
    value_t v;
    memset(&v, 0, sizeof v);
    switch (comp) {
#define X(c) case C_##c: v.c = random_##c(); break;
        DATA(X)
#undef X
    }
    return v;
}

/* ---- Comparing values bit for bit (fields one by one: structs have padding) --------- */

#define SAME(a, b, f) (memcmp(&(a).f, &(b).f, sizeof (a).f) == 0)
static bool same_scalars(kit_scalars_t a, kit_scalars_t b) {
    return SAME(a, b, flag) && SAME(a, b, s8) && SAME(a, b, s16) && SAME(a, b, s32) && SAME(a, b, s64) &&
           SAME(a, b, u8) && SAME(a, b, u16) && SAME(a, b, u32) && SAME(a, b, u64) && SAME(a, b, f32) &&
           SAME(a, b, f64) && SAME(a, b, who);
}
static bool same_floats(kit_floats_t a, kit_floats_t b) {
    return SAME(a, b, tiny32) && SAME(a, b, huge32) && SAME(a, b, tenth32) && SAME(a, b, huge64) &&
           SAME(a, b, neg64) && SAME(a, b, tenth64) && SAME(a, b, plain);
}
static bool same_label(kit_label_t a, kit_label_t b) {
    return SAME(a, b, text) && SAME(a, b, empty) && SAME(a, b, trigraph) && SAME(a, b, blank);
}
static bool same_arrays(kit_arrays_t a, kit_arrays_t b) {
    return SAME(a, b, ints) && SAME(a, b, flags) && SAME(a, b, refs) && SAME(a, b, wide) && SAME(a, b, longs) &&
           SAME(a, b, bytes) && SAME(a, b, halves) && SAME(a, b, reals) && SAME(a, b, singles) &&
           SAME(a, b, tiny) && SAME(a, b, shorts) && SAME(a, b, words);
}
static bool same_state(kit_state_t a, kit_state_t b) { return SAME(a, b, mode) && SAME(a, b, phase); }
static bool same_link(kit_link_t a, kit_link_t b) { return SAME(a, b, other); }
static bool same_pos(kit_pos_t a, kit_pos_t b) { return SAME(a, b, x) && SAME(a, b, y); }
static bool same_vel(kit_vel_t a, kit_vel_t b) { return SAME(a, b, dx) && SAME(a, b, dy); }
static bool same_settings(kit_settings_t a, kit_settings_t b) {
    return SAME(a, b, seed) && SAME(a, b, gravity) && SAME(a, b, title) && SAME(a, b, enabled) && SAME(a, b, level);
}

/* ---- Checks: one entity, and the whole world ---------------------------------------- */

static bool has_in_world(const kit_world_t *w, ecs_entity_t e, int comp) {
    switch (comp) {
#define X(c) case C_##c: return kit_has_##c(w, e);
        DATA(X) TAGS(X)
#undef X
    }
    return false;
}

/* ---- Hooks: every component's, counting calls ------------------------------------------ */

static const int comp_ids[C_COUNT] = { C_scalars, C_floats, C_label, C_arrays, C_state, C_link, C_pos, C_vel, C_hidden, C_marked };

/* A hook runs with the component present (on_remove: still present, value readable). */
static void hook_call(kit_world_t *w, ecs_entity_t e, int kind, const int *comp) {
    MCHECK(has_in_world(w, e, *comp));
    hooks_seen[kind][*comp]++;
}
static void on_add(kit_world_t *w, ecs_entity_t e, void *user) { hook_call(w, e, H_ADD, user); }
static void on_remove(kit_world_t *w, ecs_entity_t e, void *user) { hook_call(w, e, H_REMOVE, user); }
static void on_set(kit_world_t *w, ecs_entity_t e, void *user) { hook_call(w, e, H_SET, user); }

static void set_hooks(kit_world_t *w) {
#define X(c) kit_on_##c(w, &(kit_hooks_t){ on_add, on_remove, on_set, (void *)&comp_ids[C_##c] });
    DATA(X)
#undef X
#define X(c) kit_on_##c(w, &(kit_hooks_t){ on_add, on_remove, NULL, (void *)&comp_ids[C_##c] });
    TAGS(X)
#undef X
}

/* Everything the world says about e agrees with the model. */
static void check_entity(kit_world_t *w, ecs_entity_t e) {
    model_entity_t *m = lookup(e);
    if (!MCHECK(kit_alive(w, e) == (m != NULL))) return;
    for (int c = 0; c < C_COUNT; c++)
        if (!MCHECK(has_in_world(w, e, c) == (m && (m->has >> c & 1u)))) return;
    if (!m) {
        MCHECK(kit_ref_pos(w, e).x == NULL && kit_ref_label(w, e).text == NULL);
        return;
    }
#define X(c) if (m->has & BIT(c)) MCHECK(same_##c(kit_get_##c(w, e), m->c));
    DATA(X)
#undef X
    if (m->has & BIT(vel)) MCHECK(*kit_ref_vel(w, e).dy == m->vel.dy);
}

/* What the query-like loops of this test select: all of `all`, none of `none`. */
typedef struct query {
    uint16_t all, none;
} query_t;
enum { Q_POS_VEL, Q_LABEL_SHOWN, Q_MOVING, Q_VISIBLE, Q_LINKED, Q_LABELLED, Q_SCALARS_ARRAYS, Q_MARKED, Q_STATE_LINK_PLAIN, Q_COUNT };
static const query_t queries[Q_COUNT] = {
    [Q_POS_VEL] = { BIT(pos) | BIT(vel), 0 },
    [Q_LABEL_SHOWN] = { BIT(label), BIT(hidden) },
    [Q_MOVING] = { BIT(pos) | BIT(vel), BIT(hidden) | BIT(marked) },
    [Q_VISIBLE] = { BIT(pos), BIT(hidden) },
    [Q_LINKED] = { BIT(link) | BIT(marked), 0 },
    [Q_LABELLED] = { BIT(label), 0 },
    [Q_SCALARS_ARRAYS] = { BIT(scalars) | BIT(arrays), 0 },
    [Q_MARKED] = { BIT(marked), 0 },
    [Q_STATE_LINK_PLAIN] = { BIT(state) | BIT(link), BIT(marked) | BIT(hidden) },
};
static bool matches(const model_entity_t *m, int q) {
    return m && (m->has & queries[q].all) == queries[q].all && !(m->has & queries[q].none);
}

static size_t pool_count(const kit_world_t *w, int comp) {
    switch (comp) {
#define X(c) case C_##c: return kit_count_##c(w);
        DATA(X) TAGS(X)
#undef X
    }
    return 0;
}

static void check_views(kit_world_t *w);

/* The whole world against the model. */
static void check_all(kit_world_t *w) {
    MCHECK(kit_count(w) == live_count);
    size_t n[C_COUNT] = { 0 };
    for (uint32_t k = 0; k < live_count && failed_op < 0; k++) {
        model_entity_t *m = lookup(live[k]);
        if (!MCHECK(m != NULL)) return;
        check_entity(w, live[k]);
        for (int c = 0; c < C_COUNT; c++) n[c] += m->has >> c & 1u;
    }
    for (uint32_t k = 0; k < stale_count && failed_op < 0; k++) check_entity(w, stale[k]);
    for (int c = 0; c < C_COUNT; c++) {
        MCHECK(pool_count(w, c) == n[c]);
        /* nonempty_pools holds exactly the pools with members: destroy and the writer skip the others */
        MCHECK(((w->nonempty_pools[0] >> c) & 1u) == (n[c] > 0));
    }
    MCHECK(w->nonempty_pools[0] >> C_COUNT == 0);
    MCHECK(same_settings(*kit_singleton_settings(w), m_settings));
    MCHECK(kit_singleton_counter(w)->ticks == m_counter.ticks && kit_singleton_counter(w)->last == m_counter.last);
    MCHECK(kit_deferred_count(w) == pending_count);
    for (int k = 0; k < H_COUNT; k++)
        for (int c = 0; c < C_COUNT; c++)
            if (!MCHECK(hooks_seen[k][c] == hooks_expected[k][c]) && !quiet)
                fprintf(stderr, "test_model: hook %d of component %d: %llu calls, the model expects %llu\n", k, c,
                        hooks_seen[k][c], hooks_expected[k][c]);
    check_views(w);
}

/* ---- Applying a change to the model, and to the world -------------------------------- */

static void model_add_live(ecs_entity_t e) {
    uint32_t i = ecs_entity_index(e);
    live_pos[i] = live_count;
    live[live_count++] = e;
    if (live_count > stats.peak) stats.peak = live_count;
}

static void model_destroy(model_entity_t *m) {
    for (int c = 0; c < C_COUNT; c++) hooks_expected[H_REMOVE][c] += m->has >> c & 1u;
    uint32_t i = ecs_entity_index(m->id), at = live_pos[i];
    live[at] = live[--live_count];
    live_pos[ecs_entity_index(live[at])] = at;
    stale[stale_count < STALE_KEPT ? stale_count++ : below(STALE_KEPT)] = m->id;
    floor_gen[i] = (uint64_t)ecs_entity_generation(m->id) + 1u;
    memset(m, 0, sizeof *m);
}

static void model_store(model_entity_t *m, int comp, const value_t *v) {
    switch (comp) {
#define X(c) case C_##c: m->c = v->c; break;
        DATA(X)
#undef X
    }
}

/* The change on the model; returns what the immediate call returns. */
static bool model_do(const cmd_t *c) {
    model_entity_t *m = lookup(c->e);
    uint16_t bit = (uint16_t)(1u << c->comp);
    if (!m) return false;
    switch (c->kind) {
    case K_DESTROY:
        model_destroy(m);
        return true;
    case K_ADD:
        if (m->has & bit) return false;
        m->has |= bit;
        model_store(m, c->comp, &c->v);
        hooks_expected[H_ADD][c->comp]++;
        return true;
    case K_SET:
        /* The deliberate bug: applying deferred changes, forget the new value of vel on a
         * marked entity that has vel. Only the entities an operation names are compared at
         * once, so this shows later (a random entity, or the full check): bisection has work. */
        if (!(opt_inject_bug && applying && c->comp == C_vel && (m->has & BIT(marked)) && (m->has & BIT(vel))))
            model_store(m, c->comp, &c->v);
        if (!(m->has & bit)) hooks_expected[H_ADD][c->comp]++;
        hooks_expected[H_SET][c->comp]++;
        m->has |= bit;
        return true;
    case K_REMOVE:
        if (!(m->has & bit)) return false;
        m->has &= (uint16_t)~bit;
        hooks_expected[H_REMOVE][c->comp]++;
        return true;
    }
    return false;
}

static bool world_do(kit_world_t *w, const cmd_t *c) {
    switch (c->kind) {
    case K_DESTROY: return kit_destroy(w, c->e);
    case K_ADD:
        switch (c->comp) {
#define X(c_) case C_##c_: return kit_add_##c_(w, c->e, c->v.c_);
            DATA(X)
#undef X
#define X(c_) case C_##c_: return kit_add_##c_(w, c->e);
            TAGS(X)
#undef X
        }
        break;
    case K_SET:
        switch (c->comp) {
#define X(c_) case C_##c_: return kit_set_##c_(w, c->e, c->v.c_);
            DATA(X)
#undef X
        }
        break;
    case K_REMOVE:
        switch (c->comp) {
#define X(c_) case C_##c_: return kit_remove_##c_(w, c->e);
            DATA(X) TAGS(X)
#undef X
        }
        break;
    }
    return false;
}

static bool world_defer(kit_world_t *w, const cmd_t *c) {
    switch (c->kind) {
    case K_DESTROY: return kit_defer_destroy(w, c->e);
    case K_ADD:
        switch (c->comp) {
#define X(c_) case C_##c_: return kit_defer_add_##c_(w, c->e, c->v.c_);
            DATA(X)
#undef X
#define X(c_) case C_##c_: return kit_defer_add_##c_(w, c->e);
            TAGS(X)
#undef X
        }
        break;
    case K_SET:
        switch (c->comp) {
#define X(c_) case C_##c_: return kit_defer_set_##c_(w, c->e, c->v.c_);
            DATA(X)
#undef X
        }
        break;
    case K_REMOVE:
        switch (c->comp) {
#define X(c_) case C_##c_: return kit_defer_remove_##c_(w, c->e);
            DATA(X) TAGS(X)
#undef X
        }
        break;
    }
    return false;
}

/* A random change to e: destroy (rarely), add, set (data only) or remove of a component. */
static cmd_t random_cmd(ecs_entity_t e, bool destroys) {
    cmd_t c = { .e = e, .comp = (int)below(C_COUNT) };
    uint32_t r = below(destroys ? 13 : 12);
    c.kind = r >= 12 ? K_DESTROY : r < 4 ? K_ADD : r < 8 ? K_REMOVE : K_SET;
    if (c.kind == K_SET && c.comp >= C_hidden) c.kind = K_ADD;
    if (c.comp < C_hidden) c.v = random_value(c.comp);
    return c;
}

/* The change made now, on both; returns the world's answer (checked against the model's). */
static bool do_both(kit_world_t *w, const cmd_t *c) {
    bool got = world_do(w, c);
    MCHECK(got == model_do(c));
    return got;
}

/* The change recorded for later, on both. */
static void defer_both(kit_world_t *w, const cmd_t *c) {
    bool got = world_defer(w, c);
    bool expect = lookup(c->e) != NULL && pending_count < PENDING_MAX;
    MCHECK(got == expect);
    if (got && pending_count < PENDING_MAX) pending[pending_count++] = *c;
    stats.deferred++;
}

static void apply_both(kit_world_t *w) {
    MCHECK(kit_apply_deferred(w));
    applying = true;
    for (uint32_t k = 0; k < pending_count; k++) model_do(&pending[k]);
    applying = false;
    pending_count = 0;
    MCHECK(kit_deferred_count(w) == 0);
}

/* ---- Spawning ------------------------------------------------------------------------ */

/* A new id from the world: ECS_NULL exactly when the model is at the limit, else in a free
 * slot with a generation no earlier id of that slot had. */
static bool check_new_id(ecs_entity_t e) {
    if (!MCHECK((e == ECS_NULL) == (live_count == LIMIT))) return false;
    if (e == ECS_NULL) return false;
    uint32_t i = ecs_entity_index(e);
    return MCHECK(i < LIMIT && model[i].id == ECS_NULL && ecs_entity_generation(e) >= floor_gen[i]);
}

static void model_spawn(ecs_entity_t e, uint16_t has, const value_t *v) {
    model_entity_t *m = &model[ecs_entity_index(e)];
    memset(m, 0, sizeof *m);
    m->id = e;
    m->has = has;
    for (int c = 0; c < C_COUNT; c++) hooks_expected[H_ADD][c] += has >> c & 1u;
    for (int c = 0; c < C_hidden; c++)
        if (has >> c & 1u) model_store(m, c, &v[c]);
    model_add_live(e);
}

/* Random components for a spawn: has bits and values, and the desc pointing at them. */
static kit_spawn_desc_t random_desc(uint16_t *has, value_t v[C_hidden]) {
    *has = (uint16_t)(below(4) ? rng() & ((1u << C_COUNT) - 1u) : 0);
    for (int c = 0; c < C_hidden; c++)
        if (*has >> c & 1u) v[c] = random_value(c);
    return (kit_spawn_desc_t){
#define X(c) .c = *has & BIT(c) ? &v[C_##c].c : NULL,
        DATA(X)
#undef X
        .hidden = *has & BIT(hidden), .marked = *has & BIT(marked) };
}

/* spawn (desc or NULL), or defer_spawn (the entity now, its components recorded). */
static ecs_entity_t spawn_both(kit_world_t *w, bool deferred) {
    uint16_t has;
    value_t v[C_hidden];
    kit_spawn_desc_t desc = random_desc(&has, v);
    bool null_desc = !deferred && has == 0 && below(2);
    if (deferred && pending_count + C_COUNT > PENDING_MAX) return ECS_NULL;
    ecs_entity_t e = deferred ? kit_defer_spawn(w, &desc) : kit_spawn(w, null_desc ? NULL : &desc);
    if (!check_new_id(e)) return ECS_NULL;
    stats.spawns++;
    if (!deferred) {
        model_spawn(e, has, v);
        return e;
    }
    model_spawn(e, 0, v);
    for (int c = 0; c < C_COUNT; c++) /* the recorded adds, in schema order */
        if (has >> c & 1u) pending[pending_count++] = (cmd_t){ K_ADD, c, e, c < C_hidden ? v[c] : (value_t){ .link = { 0 } } };
    stats.deferred++;
    return e;
}

/* The prefabs, as kitchen.json declares them (fields left out take defaults). */
static ecs_entity_t spawn_prefab(kit_world_t *w) {
    value_t v[C_hidden];
    uint16_t has;
    ecs_entity_t e;
    if (below(2)) {
        e = kit_spawn_crate(w);
        has = BIT(scalars) | BIT(label) | BIT(hidden);
        v[C_scalars].scalars = KIT_SCALARS_DEFAULT;
        v[C_label].label = KIT_LABEL_DEFAULT;
        memset(v[C_label].label.text, 0, sizeof v[C_label].label.text);
        memcpy(v[C_label].label.text, "crate", 5);
    } else {
        e = kit_spawn_beacon(w);
        has = BIT(scalars) | BIT(arrays) | BIT(state) | BIT(pos) | BIT(link) | BIT(marked);
        v[C_scalars].scalars = KIT_SCALARS_DEFAULT;
        v[C_scalars].scalars.s32 = 7;
        v[C_scalars].scalars.f32 = 1.5f;
        v[C_arrays].arrays = KIT_ARRAYS_DEFAULT;
        v[C_arrays].arrays.ints[0] = 1, v[C_arrays].arrays.ints[1] = 2, v[C_arrays].arrays.ints[2] = 3;
        v[C_state].state = KIT_STATE_DEFAULT;
        v[C_state].state.mode = KIT_STATE_MODE_WARMING;
        v[C_pos].pos = KIT_POS_DEFAULT;
        v[C_pos].pos.x = 2.5;
        v[C_link].link = KIT_LINK_DEFAULT;
    }
    if (!check_new_id(e)) return ECS_NULL;
    model_spawn(e, has, v);
    stats.prefabs++;
    return e;
}

/* ---- Loops --------------------------------------------------------------------------- */

/* The rows a macro loop hands out hold the entity's values. */
/* Field f of row `row` of pool c in p (w->components), in either layout (tests/layout builds
 * this file on the kitchen schema in "layout": "struct"). */
#ifdef KIT_STRUCT_LAYOUT
#define PF(c, f, row) (p->c.rows[row].f)
#else
#define PF(c, f, row) (p->c.f[row])
#endif

static void check_rows(kit_world_t *w, const kit_iter_t *it, const model_entity_t *m, uint16_t all) {
    const kit_components_t *p = &w->components;
    if (all & BIT(pos)) MCHECK(memcmp(&PF(pos, x, it->pos), &m->pos.x, sizeof m->pos.x) == 0 &&
                               memcmp(&PF(pos, y, it->pos), &m->pos.y, sizeof m->pos.y) == 0);
    if (all & BIT(vel)) MCHECK(PF(vel, dx, it->vel) == m->vel.dx && PF(vel, dy, it->vel) == m->vel.dy);
    if (all & BIT(label)) MCHECK(memcmp(PF(label, text, it->label), m->label.text, sizeof m->label.text) == 0);
    if (all & BIT(link)) MCHECK(PF(link, other, it->link) == m->link.other);
    if (all & BIT(scalars)) MCHECK(PF(scalars, u64, it->scalars) == m->scalars.u64 && PF(scalars, who, it->scalars) == m->scalars.who);
    if (all & BIT(arrays)) MCHECK(memcmp(PF(arrays, refs, it->arrays), m->arrays.refs, sizeof m->arrays.refs) == 0);
    if (all & BIT(state)) MCHECK(PF(state, mode, it->state) == m->state.mode);
    if (all & BIT(marked)) MCHECK(it->marked == ecs_entity_index(it->id)); /* slot storage */
}

/* Loops number themselves; slot_loop[i] is the last loop that found slot i live at its start.
 * A slot free at the start keeps loop_seen from older loops: an entity spawned into it
 * starts unseen (slot storage walks may visit it; and a quick-load can reissue an old id). */
static uint32_t loop_number, slot_loop[LIMIT];

static void note_loop_spawn(ecs_entity_t e) {
    uint32_t i = ecs_entity_index(e);
    loop_spawned[i] = e;
    if (slot_loop[i] != loop_number) loop_seen[i] = ECS_NULL;
}

/* One visit of a macro loop: the entity matches now, is visited once, was not spawned in the
 * loop, and its rows hold its values; then, sometimes, a change docs/iteration.md allows in
 * a macro loop: to it.id (destroy, add, remove, set), a spawn, an add to another entity, or
 * a deferred change to anyone. */
static bool loop_visit(kit_world_t *w, int q, const kit_iter_t *it, bool change) {
    uint32_t i = ecs_entity_index(it->id);
    model_entity_t *m = lookup(it->id);
    /* A loop over slot storage only walks the entity slots: one spawned in the loop into a
     * free slot the walk has not reached yet is visited (docs/iteration.md). */
    bool slots_only = (queries[q].all & ~(BIT(vel) | BIT(marked) | BIT(state))) == 0;
    if (!MCHECK(m && matches(m, q)) || !MCHECK(loop_seen[i] != it->id) || !MCHECK(slots_only || loop_spawned[i] != it->id)) {
        if (!quiet) fprintf(stderr, "test_model: loop %d visited %" PRIu32 "v%" PRIu32 " (has %#x, spawned in the loop: %d)\n", q, i, ecs_entity_generation(it->id), m ? m->has : 0, loop_spawned[i] == it->id);
        return false;
    }
    loop_seen[i] = it->id;
    check_rows(w, it, m, queries[q].all);
    if (change && !below(16)) check_entity(w, it->id);
    if (!change) return failed_op < 0;
    uint32_t r = below(64);
    cmd_t c;
    if (r < 3) { /* destroy the current entity */
        c = (cmd_t){ .kind = K_DESTROY, .e = it->id };
        do_both(w, &c);
    } else if (r < 12) { /* add, set or remove one of its components */
        c = random_cmd(it->id, false);
        do_both(w, &c);
    } else if (r < 15) {
        ecs_entity_t e = below(4) ? spawn_both(w, false) : spawn_prefab(w);
        if (e) note_loop_spawn(e);
    } else if (r < 18 && live_count) { /* add a component (data or tag) to another entity, or set what it has */
        c = random_cmd(live[below(live_count)], false);
        if (c.kind == K_REMOVE) c.kind = K_ADD;
        if (do_both(w, &c)) /* it may come to match (or stop): then its visit is optional */
            loop_touched[ecs_entity_index(c.e)] = 1, loop_spawned[ecs_entity_index(c.e)] = ECS_NULL;
    } else if (r < 26) {
        c = random_cmd(random_target(), true);
        defer_both(w, &c);
    } else if (r < 27) {
        ecs_entity_t e = spawn_both(w, true);
        if (e) note_loop_spawn(e);
    }
    return failed_op < 0;
}

/* A macro loop (the EACH macros, with and without `none` terms, and the declared queries'),
 * with changes inside or without; afterwards: every entity that matched at the start and
 * nothing changed under it was visited; then the deferred changes are applied. */
static void loop_both(kit_world_t *w, int q, bool change) {
    loop_number++;
    for (uint32_t k = 0; k < live_count; k++) {
        uint32_t i = ecs_entity_index(live[k]);
        slot_loop[i] = loop_number;
        loop_start[i] = matches(&model[i], q) ? live[k] : ECS_NULL;
        loop_seen[i] = loop_spawned[i] = ECS_NULL;
        loop_touched[i] = 0;
    }
    /* (free slots keep old values: ids differ by generation, and only start_ids are read) */
    uint32_t start_live = live_count;
    static ecs_entity_t start_ids[LIMIT];
    memcpy(start_ids, live, start_live * sizeof *live);
#define VISIT { if (!loop_visit(w, q, &it, change)) break; }
    switch (q) {
    case Q_POS_VEL: KIT_EACH(w, it, pos, vel) VISIT break;
    case Q_LABEL_SHOWN: KIT_EACH_WITHOUT(w, it, (hidden), label) VISIT break;
    case Q_MOVING: KIT_EACH_MOVING(w, it) VISIT break;
    case Q_VISIBLE: KIT_EACH_VISIBLE(w, it) VISIT break;
    case Q_LINKED: KIT_EACH_LINKED(w, it) VISIT break;
    case Q_LABELLED: KIT_EACH_LABELLED(w, it) VISIT break;
    case Q_SCALARS_ARRAYS: KIT_EACH(w, it, arrays, scalars) VISIT break;
    case Q_MARKED: KIT_EACH(w, it, marked) VISIT break;
    case Q_STATE_LINK_PLAIN: KIT_EACH_WITHOUT(w, it, (marked, hidden), state, link) VISIT break;
    }
#undef VISIT
    if (failed_op >= 0) return;
    for (uint32_t k = 0; k < start_live; k++) {
        uint32_t i = ecs_entity_index(start_ids[k]);
        if (loop_start[i] == start_ids[k] && !loop_touched[i])
            if (!MCHECK(loop_seen[i] == start_ids[k])) return;
    }
    apply_both(w);
}

/* A view loop: exactly the model's matches, once each, with their values; inside, what a view
 * allows: value writes through the view, spawns without components, deferred changes. */
#define VIEW_LOOP(Q, query, ...)                                                       \
    do {                                                                                          \
        kit_##query##_view_t v = kit_query_##query(w);                                            \
        size_t expect = 0;                                                                        \
        for (uint32_t k = 0; k < live_count; k++) expect += matches(&model[ecs_entity_index(live[k])], Q); \
        if (!MCHECK(v.count == expect)) return;                                                   \
        for (size_t n = 0; n < v.count; n++) {                                                    \
            ecs_entity_t e = v.entity[n];                                                         \
            uint32_t i = ecs_entity_index(e);                                                     \
            model_entity_t *m = lookup(e);                                                        \
            if (!MCHECK(m && matches(m, Q) && loop_seen[i] != e)) return;                         \
            loop_seen[i] = e;                                                                     \
            __VA_ARGS__                                                                           \
            if (change && !below(4)) view_change(w);                                             \
            if (failed_op >= 0) return;                                                           \
        }                                                                                         \
    } while (0)

static void view_change(kit_world_t *w) {
    uint32_t r = below(8);
    if (r < 5) {
        cmd_t c = random_cmd(random_target(), true);
        defer_both(w, &c);
    } else if (r < 6) {
        spawn_both(w, true);
    } else if (r < 7 && live_count < LIMIT) {
        ecs_entity_t e = kit_spawn(w, NULL);
        if (check_new_id(e)) model_spawn(e, 0, NULL);
    }
}

static void view_both(kit_world_t *w, int which, bool change) {
    for (uint32_t k = 0; k < live_count; k++) loop_seen[ecs_entity_index(live[k])] = ECS_NULL;
    switch (which) {
    case 0:
        VIEW_LOOP(Q_VISIBLE, visible, {
            MCHECK(memcmp(&KIT_VISIBLE_FIELD(v, pos, x, n), &m->pos.x, sizeof m->pos.x) == 0 &&
                   memcmp(&KIT_VISIBLE_FIELD(v, pos, y, n), &m->pos.y, sizeof m->pos.y) == 0);
            if (change && !below(4)) KIT_VISIBLE_FIELD(v, pos, y, n) = m->pos.y = (double)below(1000);
        });
        break;
    case 1:
        VIEW_LOOP(Q_MOVING, moving, {
            MCHECK(memcmp(&KIT_MOVING_FIELD(v, pos, x, n), &m->pos.x, sizeof m->pos.x) == 0 &&
                   KIT_MOVING_FIELD(v, vel, dx, n) == m->vel.dx && KIT_MOVING_FIELD(v, vel, dy, n) == m->vel.dy);
            if (change && !below(4)) KIT_MOVING_FIELD(v, pos, x, n) = m->pos.x = m->pos.x + KIT_MOVING_FIELD(v, vel, dx, n);
        });
        break;
    case 2:
        VIEW_LOOP(Q_LINKED, linked, {
            MCHECK(KIT_LINKED_FIELD(v, link, other, n) == m->link.other);
            if (change && !below(4)) KIT_LINKED_FIELD(v, link, other, n) = m->link.other = random_ref();
        });
        break;
    default:
        VIEW_LOOP(Q_LABELLED, labelled, {
            MCHECK(memcmp(KIT_LABELLED_FIELD(v, label, text, n), m->label.text, sizeof m->label.text) == 0 &&
                   memcmp(KIT_LABELLED_FIELD(v, label, blank, n), m->label.blank, sizeof m->label.blank) == 0);
            if (change && !below(4))
                random_text(KIT_LABELLED_FIELD(v, label, blank, n), 4), memcpy(m->label.blank, KIT_LABELLED_FIELD(v, label, blank, n), 4);
        });
        break;
    }
    if (change) apply_both(w);
}

/* Every view and one macro loop, read only. Draws no random numbers: a run makes the same
 * operations whatever --check-every is (so a replay with other checks still fails). */
static int next_loop;
static void check_views(kit_world_t *w) {
    for (int k = 0; k < 4 && failed_op < 0; k++) view_both(w, k, false);
    next_loop = (next_loop + 1) % Q_COUNT;
    loop_both(w, next_loop, false);
}

/* ---- JSON ----------------------------------------------------------------------------- */

/* After a load: ids live in the document stay live; every slot's next id has a generation
 * above any the document mentions (live ids and references, singletons' too). Other stale
 * ids the model remembered may be reissued: they are forgotten. */
static void model_after_load(void) {
    for (uint32_t i = 0; i < LIMIT; i++) floor_gen[i] = 0;
#define MENTION(id)                                                                              \
    do {                                                                                         \
        ecs_entity_t id_ = (id);                                                                 \
        uint32_t i_ = ecs_entity_index(id_);                                                     \
        if (id_ && i_ < LIMIT && floor_gen[i_] <= ecs_entity_generation(id_))                    \
            floor_gen[i_] = (uint64_t)ecs_entity_generation(id_) + 1u;                           \
    } while (0)
    for (uint32_t k = 0; k < live_count; k++) {
        const model_entity_t *m = lookup(live[k]);
        if (m->has & BIT(scalars)) MENTION(m->scalars.who);
        if (m->has & BIT(arrays)) {
            MENTION(m->arrays.refs[0]);
            MENTION(m->arrays.refs[1]);
        }
        if (m->has & BIT(link)) MENTION(m->link.other);
    }
    MENTION(m_counter.last);
#undef MENTION
    uint32_t kept = 0;
    for (uint32_t k = 0; k < stale_count; k++) {
        uint32_t i = ecs_entity_index(stale[k]);
        if (model[i].id ? ecs_entity_generation(stale[k]) < ecs_entity_generation(model[i].id)
                        : ecs_entity_generation(stale[k]) < floor_gen[i])
            stale[kept++] = stale[k];
    }
    stale_count = kept;
    pending_count = 0; /* a successful load discards the changes waiting */
}

/* text with the first `from` (after `after`, when given) replaced by `to`; NULL if absent. */
static char *replace(const char *text, const char *after, const char *from, size_t from_len, const char *to) {
    const char *start = after ? strstr(text, after) : text;
    const char *at = start ? strstr(start + (after ? strlen(after) : 0), from) : NULL;
    if (!at) return NULL;
    if (!from_len) from_len = strlen(from);
    size_t head = (size_t)(at - text), tail = strlen(at + from_len), n = strlen(to);
    char *out = malloc(head + n + tail + 1);
    if (!out) return NULL;
    memcpy(out, text, head);
    memcpy(out + head, to, n);
    memcpy(out + head + n, at + from_len, tail + 1);
    return out;
}

/* A document the loader must refuse, made from a good one; NULL when this kind does not apply. */
static char *corrupt(const char *good, uint32_t kind) {
    char buf[64], id[24];
    switch (kind) {
    case 0: { /* cut short */
        size_t n = strlen(good) / 2;
        char *out = malloc(n + 1);
        if (out) memcpy(out, good, n), out[n] = '\0';
        return out;
    }
    case 1: return replace(good, NULL, "\"schema\":\t\"kit\"", 0, "\"schema\":\t\"kat\"");
    case 2: return replace(good, NULL, "\"version\":\t7", 0, "\"version\":\t8");
    case 3: /* a u32 out of range */
        snprintf(buf, sizeof buf, "\"ticks\":\t%" PRIu32, m_counter.ticks);
        return replace(good, NULL, buf, 0, "\"ticks\":\t-1");
    case 4: /* an unknown singleton */
        return replace(good, NULL, "\"singletons\":\t{", 0, "\"singletons\":\t{\"bogus\":{},");
    case 5: { /* two entities with one id */
        if (live_count < 2) return NULL;
        const char *first = strstr(good, "\"id\":\t\"");
        if (!first) return NULL;
        const char *end = strchr(first + 7, '"');
        snprintf(id, sizeof id, "%.*s", (int)(end - first - 7), first + 7);
        const char *second = strstr(end, "\"id\":\t\"");
        if (!second) return NULL;
        const char *end2 = strchr(second + 7, '"');
        char from[40];
        snprintf(from, sizeof from, "\"id\":\t\"%.*s\"", (int)(end2 - second - 7), second + 7);
        snprintf(buf, sizeof buf, "\"id\":\t\"%s\"", id);
        return replace(good, NULL, from, 0, buf);
    }
    case 6: { /* the counter names a later generation of a live slot */
        if (!live_count) return NULL;
        ecs_entity_t e = live[below(live_count)];
        const char *at = strstr(good, "\"last\":\t");
        if (!at) return NULL;
        snprintf(buf, sizeof buf, "\"last\":\t\"%" PRIu32 "v%" PRIu64 "\"", ecs_entity_index(e),
                 (uint64_t)ecs_entity_generation(e) + 1u);
        return replace(good, NULL, "\"last\":\t", strcspn(at, "\n"), buf);
    }
    default: /* an unknown component in an entity */
        return replace(good, NULL, "\"id\":\t", 0, "\"bogus\":\ttrue,\"id\":\t");
    }
}

/* world_to_json -> world_from_json into the same world -> world_to_json is byte-identical and
 * the world still agrees with the model; a corrupted document is refused and changes nothing
 * (the world hashes the same, the deferred changes still wait). A save with changes waiting
 * stops a debug build (docs/iteration.md): those waiting are applied before the save, and
 * new ones recorded after it, for the loads to keep or drop. */
static void round_trip(kit_world_t *w) {
    if (pending_count) apply_both(w);
    char *first = kit_world_to_json(w);
    if (!MCHECK(first != NULL)) return;
    uint64_t hash = kit_world_hash(w);
    for (uint32_t k = below(3); k > 0; k--) {
        cmd_t c = random_cmd(random_target(), true);
        defer_both(w, &c);
    }
    ecs_error_t err = { 0 };
    char *bad = corrupt(first, below(8));
    if (bad) {
        size_t waiting = kit_deferred_count(w);
        MCHECK(!kit_world_from_json(w, bad, &err) && err.message[0] != '\0');
        MCHECK(kit_world_hash(w) == hash);
        MCHECK(kit_deferred_count(w) == waiting);
        free(bad);
        stats.refused++;
    }
    bool ok = kit_world_from_json(w, first, &err);
    if (!MCHECK(ok) && !quiet) fprintf(stderr, "test_model: load: %s\n", err.message);
    if (ok) model_after_load();
    else if (pending_count) apply_both(w);
    char *second = kit_world_to_json(w);
    MCHECK(second && strcmp(first, second) == 0);
    free(first);
    free(second);
    stats.round_trips++;
}

/* ---- Snapshots ------------------------------------------------------------------------ */

/* A few snapshots of the world (full, or incremental from another's full root), each with
 * the model as it was, the world's hash and document, and the id the next spawn will get.
 * A restore must bring all of them back; one whose full root was taken again since is
 * refused and changes nothing. */
enum { SNAPS = 4 };
typedef struct {
    kit_snapshot_t *s;
    bool taken;
    int root;                 /* -1: full; else the slot whose full snapshot it is taken from */
    unsigned epoch, root_epoch; /* takes of this slot; the root's when this was taken */
    model_entity_t *model;
    uint64_t *floor_gen;
    ecs_entity_t *live, *stale, next_id;
    uint32_t *live_pos, live_count, stale_count, pending_count;
    cmd_t *pending;
    kit_settings_t settings;
    kit_counter_t counter;
    uint64_t hash;
    char *doc; /* NULL in big worlds (a document costs 50 us an entity) */
} saved_t;
static saved_t saved[SNAPS];

static void snapshots_free(void) {
    for (int k = 0; k < SNAPS; k++) {
        saved_t *s = &saved[k];
        kit_snapshot_free(s->s);
        free(s->model), free(s->floor_gen), free(s->live), free(s->stale), free(s->live_pos), free(s->pending), free(s->doc);
        memset(s, 0, sizeof *s);
    }
}

/* The id kit_spawn will return next (from the entity table's free stack). */
static ecs_entity_t next_spawn_id(const kit_world_t *w) {
    const ecs_entities_t *t = &w->entities;
    if (t->free_count) return ecs_entity_make(t->free[t->free_count - 1u], t->generation[t->free[t->free_count - 1u]]);
    return t->used < LIMIT ? ecs_entity_make(t->used, 0) : ECS_NULL;
}

static void snapshot_op(kit_world_t *w) {
    int k = (int)below(SNAPS);
    saved_t *s = &saved[k];
    if (!s->s && !(s->s = kit_snapshot_new())) exit(2);
    if (!s->model) {
        s->model = malloc(sizeof model), s->floor_gen = malloc(sizeof floor_gen), s->live = malloc(sizeof live);
        s->stale = malloc(sizeof stale), s->live_pos = malloc(sizeof live_pos), s->pending = malloc(sizeof pending);
        if (!s->model || !s->floor_gen || !s->live || !s->stale || !s->live_pos || !s->pending) exit(2);
    }
    int base = (int)below(SNAPS);
    bool incremental = base != k && saved[base].taken && below(2);
    int root = incremental ? (saved[base].root >= 0 ? saved[base].root : base) : -1;
    if (root == k) incremental = false, root = -1; /* its own root: taken again, so a full one */
    /* an incremental base must be restorable itself: its root unchanged and full */
    bool possible = !incremental || saved[base].root < 0 ||
                    (saved[root].epoch == saved[base].root_epoch && saved[root].taken && saved[root].root < 0);
    s->epoch++;
    bool ok = incremental ? kit_snapshot_take_since(w, s->s, saved[base].s) : kit_snapshot_take(w, s->s);
    MCHECK(ok == possible);
    s->taken = ok;
    s->root = root;
    s->root_epoch = root >= 0 ? saved[root].epoch : 0;
    memcpy(s->model, model, sizeof model);
    memcpy(s->floor_gen, floor_gen, sizeof floor_gen);
    memcpy(s->live, live, live_count * sizeof *live);
    memcpy(s->live_pos, live_pos, sizeof live_pos);
    memcpy(s->stale, stale, stale_count * sizeof *stale);
    memcpy(s->pending, pending, pending_count * sizeof *pending);
    s->live_count = live_count, s->stale_count = stale_count, s->pending_count = pending_count;
    s->settings = m_settings, s->counter = m_counter;
    s->hash = kit_world_hash(w);
    s->next_id = next_spawn_id(w);
    free(s->doc);
    s->doc = live_count < 2000 && !pending_count ? kit_world_to_json(w) : NULL; /* a save waits for apply_deferred */
    stats.snapshots++;
}

/* The flight recorder over the same world: each record keeps the world's hash, and a random
 * frame it holds, restored into a world of its own, must hash the same. A record between
 * snapshots resets the world's change marks, so take_since and record each run both with
 * marks trusted and with everything compared (docs/debugging-with-dumps.md). */
enum { FRAMES = 6 };
static kit_recorder_t *recorder;
static kit_world_t *replay;
static uint64_t frame_hash[FRAMES];
static unsigned frames_recorded;

static void record_op(kit_world_t *w) {
    if (!recorder && (!(recorder = kit_recorder_new(FRAMES)) || !(replay = kit_world_new()))) exit(2);
    if (!MCHECK(kit_recorder_record(recorder, w))) return;
    frame_hash[frames_recorded++ % FRAMES] = kit_world_hash(w);
    uint32_t back = below(kit_recorder_frames(recorder));
    MCHECK(kit_recorder_frames(recorder) == (frames_recorded < FRAMES ? frames_recorded : FRAMES));
    if (MCHECK(kit_recorder_restore(recorder, replay, back)))
        MCHECK(kit_world_hash(replay) == frame_hash[(frames_recorded - 1u - back) % FRAMES]);
    stats.records++;
}

static void restore_op(kit_world_t *w) {
    int k = (int)below(SNAPS);
    saved_t *s = &saved[k];
    if (!s->taken) return;
    bool valid = s->root < 0 || (saved[s->root].epoch == s->root_epoch && saved[s->root].taken && saved[s->root].root < 0);
    uint64_t before = kit_world_hash(w);
    bool ok = kit_snapshot_restore(w, s->s);
    if (!MCHECK(ok == valid)) return;
    if (!ok) { /* refused: nothing changed */
        MCHECK(kit_world_hash(w) == before);
        stats.restores_refused++;
        return;
    }
    memcpy(model, s->model, sizeof model);
    memcpy(floor_gen, s->floor_gen, sizeof floor_gen);
    memcpy(live, s->live, s->live_count * sizeof *live);
    memcpy(live_pos, s->live_pos, sizeof live_pos);
    memcpy(stale, s->stale, s->stale_count * sizeof *stale);
    memcpy(pending, s->pending, s->pending_count * sizeof *pending);
    live_count = s->live_count, stale_count = s->stale_count, pending_count = s->pending_count;
    m_settings = s->settings, m_counter = s->counter;
    MCHECK(kit_world_hash(w) == s->hash);
    MCHECK(kit_deferred_count(w) == pending_count);
    if (s->doc) {
        char *doc = kit_world_to_json(w);
        MCHECK(doc && strcmp(doc, s->doc) == 0);
        free(doc);
    }
    /* the free list as it was: the next spawn gets the same id as it would have then (before
     * check_all, whose loops make changes of their own) */
    MCHECK(next_spawn_id(w) == s->next_id);
    if (s->next_id != ECS_NULL) MCHECK(spawn_both(w, false) == s->next_id);
    check_all(w);
    stats.restores++;
}

/* ---- One operation ------------------------------------------------------------------- */

static void singleton_op(kit_world_t *w) {
    kit_settings_t *s = kit_singleton_settings(w);
    kit_counter_t *c = kit_singleton_counter(w);
    MCHECK(same_settings(*s, m_settings) && c->ticks == m_counter.ticks && c->last == m_counter.last);
    if (below(2)) {
        m_counter.ticks = c->ticks = (uint32_t)rng();
        m_counter.last = c->last = random_ref();
    } else {
        m_settings.seed = s->seed = random_u64();
        m_settings.gravity = s->gravity = random_f64();
        random_text(s->title, sizeof s->title);
        memcpy(m_settings.title, s->title, sizeof s->title);
        m_settings.enabled[1] = s->enabled[1] = below(2);
        m_settings.level = s->level = (kit_settings_level_t)below(KIT_SETTINGS_LEVEL_COUNT);
    }
    stats.singles++;
}

/* Reads through ref and get, writes through ref. */
static void ref_op(kit_world_t *w, ecs_entity_t e) {
    model_entity_t *m = lookup(e);
    kit_pos_ref_t p = kit_ref_pos(w, e);
    kit_link_ref_t l = kit_ref_link(w, e);
    if (!MCHECK((p.x != NULL) == (m && (m->has & BIT(pos))) && (l.other != NULL) == (m && (m->has & BIT(link)))))
        return;
    if (p.x) *p.x = m->pos.x = random_f64();
    if (l.other) *l.other = m->link.other = random_ref();
}

static void one_op(kit_world_t *w) {
    /* Phases: the population heads for a target (up to the limit, where spawns must fail). */
    if (op_index >= phase_end) {
        static const long long targets[] = { 20, 300, 3000, 12000, 30000, LIMIT + 1000 };
        target = targets[below(sizeof targets / sizeof *targets)];
        phase_end = op_index + 20000 + below(100000);
    }
    bool growing = live_count < target;
    uint32_t n = live_count;
    /* Loops, views and round trips cost O(live entities): rarer in big worlds (a round trip,
     * about 50 us per entity, most: about 3 s of them per million operations). */
    uint32_t loop_odds = 1 + 4000000u / (n + 400u), trip_odds = 1 + 100000u / (n + 50u);
    uint32_t snap_odds = 1 + n / 500u; /* snapshots and restores cost O(slots): rarer in big worlds */
    uint32_t r = below(1000000);
    ecs_entity_t touched = ECS_NULL;
    if (r < trip_odds) {
        round_trip(w);
    } else if (r < trip_odds + loop_odds) {
        uint32_t kind = below(3);
        if (kind == 0) view_both(w, (int)below(4), true), stats.views++;
        else loop_both(w, (int)below(Q_COUNT), kind == 1), stats.loops++;
    } else {
        r = below(1000);
        uint32_t spawn_at = growing ? 300 : 60, destroy_at = spawn_at + (growing ? 60 : 300);
        if (r < spawn_at) {
            uint32_t how = below(10);
            touched = how < 7 ? spawn_both(w, false) : how < 9 ? spawn_prefab(w) : spawn_both(w, true);
        } else if (r < destroy_at) {
            cmd_t c = { .kind = K_DESTROY, .e = random_target() };
            do_both(w, &c);
            touched = c.e;
            stats.destroys++;
        } else if (r < destroy_at + 80) { /* deferred changes, applied now or later */
            cmd_t c = random_cmd(random_target(), true);
            defer_both(w, &c);
            touched = c.e;
            if (!below(8)) apply_both(w);
        } else if (r < destroy_at + 90) {
            singleton_op(w);
        } else if (r < destroy_at + 110) {
            touched = random_target();
            ref_op(w, touched);
        } else if (r < destroy_at + 114 && below(snap_odds) == 0) {
            uint32_t which = below(4);
            if (which < 2) snapshot_op(w);
            else if (which == 2) record_op(w);
            else restore_op(w);
        } else {
            cmd_t c = random_cmd(random_target(), false);
            do_both(w, &c);
            touched = c.e;
            stats.calls++;
        }
    }
    check_entity(w, touched);
    if (live_count) check_entity(w, live[below(live_count)]); /* one other, whose row may have moved */
}

/* ---- Runs ---------------------------------------------------------------------------- */

static double now(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* A run from scratch: ops operations (stopping after `seconds` when > 0) with a full check
 * every --check-every operations when `periodic`, then a full check. Returns the number of
 * operations made; failed_op tells whether a check failed. */
static long long run(long long ops, double seconds, bool periodic) {
    memset(model, 0, sizeof model);
    memset(floor_gen, 0, sizeof floor_gen);
    live_count = stale_count = pending_count = 0;
    memset(&stats, 0, sizeof stats);
    memset(hooks_seen, 0, sizeof hooks_seen);
    memset(hooks_expected, 0, sizeof hooks_expected);
    m_settings = KIT_SETTINGS_DEFAULT;
    m_counter = KIT_COUNTER_DEFAULT;
    rng_state = opt_seed * 0x9E3779B97F4A7C15u + 1u;
    failed_op = -1;
    checks = 0;
    target = 300; /* a small world first: a short run (valgrind's) sees every kind of operation */
    phase_end = 30000;
    next_loop = 0;
    kit_world_t *w = kit_world_new();
    if (!w) {
        fprintf(stderr, "test_model: out of memory\n");
        exit(2);
    }
    set_hooks(w);
    double start = now();
    for (op_index = 0; op_index < ops && failed_op < 0; op_index++) {
        one_op(w);
        if ((uint64_t)op_index % opt_check_every == opt_check_every - 1) {
            if (periodic) check_all(w);
            if (seconds > 0 && now() - start > seconds) {
                op_index++;
                break;
            }
        }
    }
    long long made = op_index;
    if (failed_op < 0) check_all(w); /* (op_index: the last operation's count) */
    (void)kit_apply_deferred(w); /* changes left waiting would stop world_free in a debug build */
    snapshots_free();
    kit_recorder_free(recorder);
    if (replay) kit_apply_deferred(replay); /* the frame's waiting changes (a debug build refuses to drop them) */
    kit_world_free(replay);
    kit_world_free(w);
    return made;
}

static void usage(void) {
    fprintf(stderr, "usage: test_model [--seed N] [--ops N] [--seconds S] [--check-every N] [--inject-bug]\n");
    exit(2);
}

int main(int argc, char **argv) {
    bool ops_given = false;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        if (!strcmp(a, "--inject-bug")) {
            opt_inject_bug = true;
            continue;
        }
        if (k + 1 >= argc) usage();
        const char *v = argv[++k];
        if (!strcmp(a, "--seed")) opt_seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--ops")) opt_ops = strtoll(v, NULL, 10), ops_given = true;
        else if (!strcmp(a, "--seconds")) opt_seconds = strtod(v, NULL);
        else if (!strcmp(a, "--check-every")) opt_check_every = strtoull(v, NULL, 10);
        else usage();
    }
    const char *env = getenv("ECSGEN_MODEL_OPS");
    if (!ops_given && env && *env) opt_ops = strtoll(env, NULL, 10);
    if (opt_ops < 0 || opt_check_every == 0) usage();

    double start = now();
    long long made = run(opt_ops, opt_seconds, true);
    double took = now() - start;
    if (failed_op < 0) {
        printf("test_model: seed %" PRIu64 ", %lld operations, %llu checks, no divergence, %.1f s\n", opt_seed, made,
               checks, took);
        printf("test_model: %llu spawns (%llu prefab), %llu destroys, %llu calls, %llu deferred changes, %llu macro loops, "
               "%llu views, %llu round trips, %llu refused documents, %llu singleton changes, peak %" PRIu32
               " live entities\n",
               stats.spawns, stats.prefabs, stats.destroys, stats.calls, stats.deferred, stats.loops, stats.views,
               stats.round_trips, stats.refused, stats.singles, stats.peak);
        printf("test_model: %llu snapshots taken, %llu restored (world hash, document, model and next id compared), "
               "%llu refused (root taken again); %llu frames recorded (a random one replayed, hash compared)\n",
               stats.snapshots, stats.restores, stats.restores_refused, stats.records);
        return 0;
    }
    /* The shortest failing prefix: run(lo) passes, run(hi) fails. The reruns check as the
     * run did (a view brings waiting entities into their groups, which changes the order
     * later loops visit in, so the checks are part of the sequence). */
    long long first = failed_op, lo = 0, hi = failed_op < made ? failed_op + 1 : made; /* (made: the end check) */
    fprintf(stderr, "test_model: seed %" PRIu64 " diverged at operation %lld (after %.1f s); bisecting...\n", opt_seed,
            first, took);
    quiet = true;
    while (hi - lo > 1) {
        long long mid = lo + (hi - lo) / 2;
        run(mid, 0, true);
        if (failed_op >= 0) hi = mid;
        else lo = mid;
    }
    fprintf(stderr, "test_model: shortest failing prefix: %lld operations\n", hi);
    fprintf(stderr, "test_model: replay: %s --seed %" PRIu64 " --ops %lld --check-every %" PRIu64 "%s\n", argv[0],
            opt_seed, hi, opt_check_every, opt_inject_bug ? " --inject-bug" : "");
    return 1;
}
