/* test_relations_model.c: model-based random testing of relations on tests/relations/rel.json
 * (child_of: sparse, cascade; owned_by: sparse, clear; docked_at: slot, cascade). A seeded
 * random sequence of spawns (with relations in the desc, some targets dead), add, set
 * (re-parent), remove of each relation with live, stale and null ids and targets that would
 * make cycles, destroys (cascade and clear), the same changes deferred and applied, save/load
 * round trips and documents made cyclic or pointing at a missing entity (refused, the world
 * unchanged) runs on a world and on a plain reference model. Half the entities spawned at
 * once also get `local`, and views of the `placed` query (local + child_of, an owning group)
 * bring them into its group, so that destroys, removals and re-parents meet relation rows
 * that the group has moved. After every operation the
 * entities it touched are compared; every --check-every operations, everything: each
 * entity's relations, count_<r>_of and EACH_<R>_OF against the model's sources, the
 * depth-first walk's order, and the reverse index against the targets (rel__relations_verify).
 *     test_relations_model [--seed N] [--ops N] [--check-every N]
 * On a divergence it prints the seed and the operation number and exits 1. With
 * RELATIONS_FUZZ defined, tests/fuzz/fuzz_relations.c includes it: the operations' choices
 * come from the fuzzer's input instead of the seed, and a divergence aborts. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "rel_ecs.h"

enum { SLOTS = 4096, LIVE_MAX = 600, STALE_KEPT = 1024, PENDING_MAX = 256, R_COUNT = 3 };
enum { R_CHILD_OF, R_OWNED_BY, R_DOCKED_AT };
static const bool cascade[R_COUNT] = { true, false, true };
static const char *const rname[R_COUNT] = { "child_of", "owned_by", "docked_at" };

enum { HAS_LOCAL = 1u << R_COUNT }; /* in node_t.has beside the relations' bits */
typedef struct {
    ecs_entity_t id; /* ECS_NULL: free */
    uint8_t has;     /* bit r: relation r; HAS_LOCAL: local */
    ecs_entity_t target[R_COUNT];
} node_t;

static node_t model[SLOTS];
static ecs_entity_t live[LIVE_MAX];
static uint32_t live_count, live_pos[SLOTS];
static ecs_entity_t stale[STALE_KEPT];
static uint32_t stale_count;

typedef enum { K_DESTROY, K_ADD, K_SET, K_REMOVE } kind_t;
typedef struct {
    kind_t kind;
    int r;
    ecs_entity_t e, t;
} cmd_t;
static cmd_t pending[PENDING_MAX];
static uint32_t pending_count;

static uint64_t rng = 1, opt_seed = 1, opt_check_every = 1000;
static long long opt_ops = 1000000, op_number;
static rel_world_t *w;
static unsigned long long stats[16];
enum { S_REFUSED, S_CASCADED, S_CLEARED, S_LOADS, S_REFUSED_LOADS, S_APPLIED, S_DEEPEST };

#ifdef RELATIONS_FUZZ
static const unsigned char *fuzz_at, *fuzz_end;
#endif

static uint64_t next(void) {
#ifdef RELATIONS_FUZZ
    uint64_t v = 0;
    for (int k = 0; k < 4 && fuzz_at < fuzz_end; k++) v = v << 8 | *fuzz_at++;
    return v;
#endif
    uint64_t x = rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng = x;
}
static uint32_t below(uint32_t n) { return (uint32_t)(next() % n); }

static void fail(const char *what, ecs_entity_t e) {
    fprintf(stderr, "test_relations_model: seed %" PRIu64 ", operation %lld: %s (entity %" PRIu32 "v%" PRIu32 ")\n",
            opt_seed, op_number, what, ecs_entity_index(e), ecs_entity_generation(e));
#ifdef RELATIONS_FUZZ
    abort();
#endif
    exit(1);
}
#define MCHECK(cond, e) do { if (!(cond)) fail(#cond, (e)); } while (0)

static node_t *alive_node(ecs_entity_t e) {
    if (e == ECS_NULL) return NULL;
    uint32_t i = ecs_entity_index(e);
    return i < SLOTS && model[i].id == e ? &model[i] : NULL;
}

/* ---- The model's rules ---------------------------------------------------------------- */

/* Whether `from` reaches e going up through relation r (or, for a cascade relation, through
 * every cascade relation). */
static bool reaches(ecs_entity_t from, ecs_entity_t e, int r) {
    static ecs_entity_t todo[SLOTS * R_COUNT];
    uint32_t n = 0;
    todo[n++] = from;
    while (n) {
        node_t *x = alive_node(todo[--n]);
        if (!x) continue;
        if (x->id == e) return true;
        for (int k = 0; k < R_COUNT; k++)
            if ((k == r || (cascade[r] && cascade[k])) && (x->has >> k & 1u)) todo[n++] = x->target[k];
    }
    return false;
}

static bool may_point(ecs_entity_t e, int r, ecs_entity_t t) {
    return alive_node(t) && !reaches(t, e, r);
}

static void live_add(ecs_entity_t e) {
    uint32_t i = ecs_entity_index(e);
    model[i] = (node_t){ .id = e };
    live_pos[i] = live_count;
    live[live_count++] = e;
}

static void live_drop(ecs_entity_t e) {
    uint32_t i = ecs_entity_index(e), at = live_pos[i];
    live[at] = live[--live_count];
    live_pos[ecs_entity_index(live[at])] = at;
    model[i].id = ECS_NULL;
    model[i].has = 0;
    stale[stale_count++ % STALE_KEPT] = e;
}

static bool m_add(ecs_entity_t e, int r, ecs_entity_t t) {
    node_t *n = alive_node(e);
    if (!n || (n->has >> r & 1u) || !may_point(e, r, t)) return false;
    n->has |= (uint8_t)(1u << r);
    n->target[r] = t;
    return true;
}

static bool m_set(ecs_entity_t e, int r, ecs_entity_t t) {
    node_t *n = alive_node(e);
    if (!n) return false;
    if ((n->has >> r & 1u) && n->target[r] == t) return true;
    if (!may_point(e, r, t)) return false;
    n->has |= (uint8_t)(1u << r);
    n->target[r] = t;
    return true;
}

static bool m_remove(ecs_entity_t e, int r) {
    node_t *n = alive_node(e);
    if (!n || !(n->has >> r & 1u)) return false;
    n->has &= (uint8_t)~(1u << r);
    return true;
}

/* Destroy: e and everything pointing at it through cascade relations, at any depth; the
 * survivors lose the clear relations that pointed at what went. */
static bool m_destroy(ecs_entity_t e) {
    static uint8_t doomed[SLOTS];
    static ecs_entity_t list[SLOTS];
    if (!alive_node(e)) return false;
    uint32_t n = 0;
    list[n++] = e;
    doomed[ecs_entity_index(e)] = 1;
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t k = 0; k < live_count; k++) {
            node_t *x = &model[ecs_entity_index(live[k])];
            if (doomed[ecs_entity_index(x->id)]) continue;
            for (int r = 0; r < R_COUNT; r++)
                if (cascade[r] && (x->has >> r & 1u) && doomed[ecs_entity_index(x->target[r])]) {
                    doomed[ecs_entity_index(x->id)] = 1;
                    list[n++] = x->id;
                    grew = true;
                    break;
                }
        }
    }
    for (uint32_t k = 0; k < live_count; k++) {
        node_t *x = &model[ecs_entity_index(live[k])];
        if (doomed[ecs_entity_index(x->id)]) continue;
        for (int r = 0; r < R_COUNT; r++)
            if (!cascade[r] && (x->has >> r & 1u) && doomed[ecs_entity_index(x->target[r])]) {
                x->has &= (uint8_t)~(1u << r);
                stats[S_CLEARED]++;
            }
    }
    stats[S_CASCADED] += n - 1;
    if (n > stats[S_DEEPEST]) stats[S_DEEPEST] = n;
    for (uint32_t k = 0; k < n; k++) {
        doomed[ecs_entity_index(list[k])] = 0;
        live_drop(list[k]);
    }
    return true;
}

/* ---- The world's calls, by relation number ---------------------------------------------- */

static bool w_add(ecs_entity_t e, int r, ecs_entity_t t) {
    switch (r) {
    case R_CHILD_OF: return rel_add_child_of(w, e, (rel_child_of_t){ t });
    case R_OWNED_BY: return rel_add_owned_by(w, e, (rel_owned_by_t){ t });
    default: return rel_add_docked_at(w, e, (rel_docked_at_t){ t });
    }
}
static bool w_set(ecs_entity_t e, int r, ecs_entity_t t) {
    switch (r) {
    case R_CHILD_OF: return rel_set_child_of(w, e, (rel_child_of_t){ t });
    case R_OWNED_BY: return rel_set_owned_by(w, e, (rel_owned_by_t){ t });
    default: return rel_set_docked_at(w, e, (rel_docked_at_t){ t });
    }
}
static bool w_remove(ecs_entity_t e, int r) {
    switch (r) {
    case R_CHILD_OF: return rel_remove_child_of(w, e);
    case R_OWNED_BY: return rel_remove_owned_by(w, e);
    default: return rel_remove_docked_at(w, e);
    }
}
static bool w_defer(kind_t kind, ecs_entity_t e, int r, ecs_entity_t t) {
    if (kind == K_DESTROY) return rel_defer_destroy(w, e);
    switch (r * 3 + (kind - K_ADD)) {
    case 0: return rel_defer_add_child_of(w, e, (rel_child_of_t){ t });
    case 1: return rel_defer_set_child_of(w, e, (rel_child_of_t){ t });
    case 2: return rel_defer_remove_child_of(w, e);
    case 3: return rel_defer_add_owned_by(w, e, (rel_owned_by_t){ t });
    case 4: return rel_defer_set_owned_by(w, e, (rel_owned_by_t){ t });
    case 5: return rel_defer_remove_owned_by(w, e);
    case 6: return rel_defer_add_docked_at(w, e, (rel_docked_at_t){ t });
    case 7: return rel_defer_set_docked_at(w, e, (rel_docked_at_t){ t });
    default: return rel_defer_remove_docked_at(w, e);
    }
}
static bool w_has(ecs_entity_t e, int r) {
    switch (r) {
    case R_CHILD_OF: return rel_has_child_of(w, e);
    case R_OWNED_BY: return rel_has_owned_by(w, e);
    default: return rel_has_docked_at(w, e);
    }
}
static ecs_entity_t w_target(ecs_entity_t e, int r) {
    switch (r) {
    case R_CHILD_OF: return rel_get_child_of(w, e).target;
    case R_OWNED_BY: return rel_get_owned_by(w, e).target;
    default: return rel_get_docked_at(w, e).target;
    }
}
static size_t w_count_of(ecs_entity_t t, int r) {
    switch (r) {
    case R_CHILD_OF: return rel_count_child_of_of(w, t);
    case R_OWNED_BY: return rel_count_owned_by_of(w, t);
    default: return rel_count_docked_at_of(w, t);
    }
}

/* ---- Comparing ---------------------------------------------------------------------------- */

static void compare_entity(ecs_entity_t e) {
    node_t *n = alive_node(e);
    MCHECK(rel_alive(w, e) == (n != NULL), e);
    if (!n) {
        for (int r = 0; r < R_COUNT; r++) MCHECK(!w_has(e, r) && w_count_of(e, r) == 0, e);
        return;
    }
    for (int r = 0; r < R_COUNT; r++) {
        MCHECK(w_has(e, r) == (bool)(n->has >> r & 1u), e);
        if (n->has >> r & 1u) MCHECK(w_target(e, r) == n->target[r], e);
    }
}

static void compare_all(void) {
    static uint32_t sources[R_COUNT][SLOTS];
    static uint8_t seen[SLOTS];
    MCHECK(rel_count(w) == live_count, ECS_NULL);
    memset(sources, 0, sizeof sources);
    for (uint32_t k = 0; k < live_count; k++) {
        node_t *n = &model[ecs_entity_index(live[k])];
        compare_entity(n->id);
        for (int r = 0; r < R_COUNT; r++)
            if (n->has >> r & 1u) sources[r][ecs_entity_index(n->target[r])]++;
    }
    for (uint32_t k = 0; k < live_count; k++) {
        ecs_entity_t t = live[k];
        for (int r = 0; r < R_COUNT; r++) MCHECK(w_count_of(t, r) == sources[r][ecs_entity_index(t)], t);
        size_t n = 0;
        REL_EACH_CHILD_OF_OF(w, it, t) {
            node_t *m = alive_node(it.id);
            MCHECK(m && (m->has & 1u) && m->target[R_CHILD_OF] == t, it.id);
            n++;
        }
        MCHECK(n == sources[R_CHILD_OF][ecs_entity_index(t)], t);
        n = 0;
        REL_EACH_DOCKED_AT_OF(w, it, t) n++;
        MCHECK(n == sources[R_DOCKED_AT][ecs_entity_index(t)], t);
        n = 0;
        REL_EACH_OWNED_BY_OF(w, it, t) n++;
        MCHECK(n == sources[R_OWNED_BY][ecs_entity_index(t)], t);
    }
    /* depth first: every member and every root once, each after its target */
    memset(seen, 0, sizeof seen);
    size_t visited = 0, expected = 0;
    REL_EACH_CHILD_OF_DEPTH_FIRST(w, it) {
        node_t *m = alive_node(it.id);
        MCHECK(m && !seen[ecs_entity_index(it.id)], it.id);
        if (it.target == ECS_NULL) MCHECK(!(m->has & 1u) && sources[R_CHILD_OF][ecs_entity_index(it.id)], it.id);
        else MCHECK((m->has & 1u) && m->target[R_CHILD_OF] == it.target && seen[ecs_entity_index(it.target)], it.id);
        seen[ecs_entity_index(it.id)] = 1;
        visited++;
    }
    for (uint32_t k = 0; k < live_count; k++) {
        node_t *n = &model[ecs_entity_index(live[k])];
        expected += (n->has & 1u) || sources[R_CHILD_OF][ecs_entity_index(n->id)];
    }
    MCHECK(visited == expected, ECS_NULL);
    MCHECK(rel__relations_verify(w), ECS_NULL);
}

/* ---- Operations -------------------------------------------------------------------------- */

static ecs_entity_t pick_entity(void) {
    uint32_t k = below(16);
    if (k == 0) return ECS_NULL;
    if (k == 1 && stale_count) return stale[below(stale_count < STALE_KEPT ? stale_count : STALE_KEPT)];
    return live_count ? live[below(live_count)] : ECS_NULL;
}

/* A target: mostly live, sometimes the entity itself or one of its sources (a cycle). */
static ecs_entity_t pick_target(ecs_entity_t e) {
    uint32_t k = below(20);
    if (k == 0) return e;
    if (k == 1 && live_count) { /* something below e, if any: a cycle */
        for (int tries = 0; tries < 8; tries++) {
            node_t *x = &model[ecs_entity_index(live[below(live_count)])];
            for (int r = 0; r < R_COUNT; r++)
                if ((x->has >> r & 1u) && x->target[r] == e) return x->id;
        }
    }
    return pick_entity();
}

static void op_spawn(void) {
    if (live_count >= LIVE_MAX) return;
    ecs_entity_t t[R_COUNT];
    rel_spawn_desc_t d = { 0 };
    rel_child_of_t c;
    rel_owned_by_t o;
    rel_docked_at_t k;
    bool use[R_COUNT], ok = true;
    for (int r = 0; r < R_COUNT; r++) {
        use[r] = below(3) == 0;
        t[r] = pick_entity();
        if (use[r] && !alive_node(t[r])) ok = false;
    }
    if (use[0]) c.target = t[0], d.child_of = &c;
    if (use[1]) o.target = t[1], d.owned_by = &o;
    if (use[2]) k.target = t[2], d.docked_at = &k;
    bool deferred = below(4) == 0 && pending_count + R_COUNT <= PENDING_MAX;
    bool local = !deferred && below(2) == 0; /* deferred spawns stay without: the model applies only relations */
    rel_local_t l = { 1, 2 };
    if (local) d.local = &l;
    ecs_entity_t e = deferred ? rel_defer_spawn(w, &d) : rel_spawn(w, &d);
    if (!deferred && !ok) {
        MCHECK(e == ECS_NULL, e);
        stats[S_REFUSED]++;
        return;
    }
    MCHECK(e != ECS_NULL && !alive_node(e) && ecs_entity_index(e) < SLOTS, e);
    live_add(e);
    if (deferred) {
        for (int r = 0; r < R_COUNT; r++)
            if (use[r] && pending_count < PENDING_MAX) pending[pending_count++] = (cmd_t){ K_ADD, r, e, t[r] };
    } else {
        for (int r = 0; r < R_COUNT; r++)
            if (use[r]) model[ecs_entity_index(e)].has |= (uint8_t)(1u << r), model[ecs_entity_index(e)].target[r] = t[r];
        if (local) model[ecs_entity_index(e)].has |= HAS_LOCAL;
    }
    compare_entity(e);
}

/* A view of `placed` (local + child_of): it brings the pending entities into its owning group
 * (rows of local and child_of move) and lists exactly the model's entities with both, each
 * with its target. */
static void op_view(void) {
    uint32_t want = 0;
    for (uint32_t k = 0; k < live_count; k++) {
        uint8_t has = model[ecs_entity_index(live[k])].has;
        want += (has & HAS_LOCAL) && (has & 1u << R_CHILD_OF);
    }
    rel_placed_view_t v = rel_query_placed(w);
    MCHECK(v.count == want, ECS_NULL);
    for (size_t i = 0; i < v.count; i++) {
        node_t *m = alive_node(v.entity[i]);
        MCHECK(m && (m->has & HAS_LOCAL) && (m->has & 1u << R_CHILD_OF), v.entity[i]);
        MCHECK(m && REL_PLACED_FIELD(v, child_of, target, i) == m->target[R_CHILD_OF], v.entity[i]);
    }
}

static void op_apply(void) {
    MCHECK(rel_apply_deferred(w), ECS_NULL);
    for (uint32_t k = 0; k < pending_count; k++) {
        cmd_t c = pending[k];
        switch (c.kind) {
        case K_DESTROY: m_destroy(c.e); break;
        case K_ADD: m_add(c.e, c.r, c.t); break;
        case K_SET: m_set(c.e, c.r, c.t); break;
        case K_REMOVE: m_remove(c.e, c.r); break;
        }
    }
    stats[S_APPLIED] += pending_count;
    pending_count = 0;
}

/* Saves and loads back (everything must be as before), or loads a document made invalid:
 * one relation's target turned into a cycle or a missing entity (refused, nothing changes). */
static void op_json(void) {
    op_apply(); /* a save with changes waiting stops a debug build (docs/iteration.md): apply them first, in both */
    char *text = rel_world_to_json(w);
    MCHECK(text != NULL, ECS_NULL);
    uint64_t hash = rel_world_hash(w);
    ecs_error_t err;
    if (below(2)) {
        MCHECK(rel_world_from_json(w, text, &err), ECS_NULL);
        MCHECK(rel_world_hash(w) == hash, ECS_NULL);
        char *again = rel_world_to_json(w);
        MCHECK(strcmp(again, text) == 0, ECS_NULL);
        free(again);
        stats[S_LOADS]++;
        free(text);
        return;
    }
    cJSON *doc = cJSON_Parse(text);
    cJSON *list = cJSON_GetObjectItem(doc, "entities");
    int n = cJSON_GetArraySize(list);
    bool broken = false;
    for (int tries = 0; tries < 8 && n && !broken; tries++) {
        cJSON *o = cJSON_GetArrayItem(list, (int)below((uint32_t)n));
        int r = (int)below(R_COUNT);
        cJSON *rel = cJSON_GetObjectItem(o, rname[r]);
        if (!rel) continue;
        char id[24];
        if (below(2)) {
            snprintf(id, sizeof id, "%s", cJSON_GetObjectItem(o, "id")->valuestring); /* itself */
        } else {
            ecs_entity_t missing = stale_count ? stale[below(stale_count < STALE_KEPT ? stale_count : STALE_KEPT)] : ECS_NULL;
            if (missing == ECS_NULL || alive_node(missing)) continue;
            ecs_json_format_id(missing, id);
        }
        cJSON_ReplaceItemInObject(rel, "target", cJSON_CreateString(id));
        broken = true;
    }
    if (broken) {
        char *bad = cJSON_PrintUnformatted(doc);
        MCHECK(!rel_world_from_json(w, bad, &err), ECS_NULL);
        MCHECK(strstr(err.message, ".target: ") != NULL, ECS_NULL);
        MCHECK(rel_world_hash(w) == hash, ECS_NULL);
        free(bad);
        stats[S_REFUSED_LOADS]++;
    }
    cJSON_Delete(doc);
    free(text);
}

static void step(void) {
    uint32_t k = below(100);
    if (k < 22) {
        op_spawn();
    } else if (k < 62) { /* add, set, remove */
        ecs_entity_t e = pick_entity(), t = pick_target(e);
        int r = (int)below(R_COUNT);
        bool got, want;
        switch (below(3)) {
        case 0: got = w_add(e, r, t), want = m_add(e, r, t); break;
        case 1: got = w_set(e, r, t), want = m_set(e, r, t); break;
        default: got = w_remove(e, r), want = m_remove(e, r); break;
        }
        MCHECK(got == want, e);
        if (!got) stats[S_REFUSED]++;
        compare_entity(e);
        compare_entity(t);
    } else if (k < 74) { /* destroy */
        ecs_entity_t e = pick_entity();
        MCHECK(rel_destroy(w, e) == m_destroy(e), e);
        MCHECK(rel_count(w) == live_count, e);
        compare_entity(e);
    } else if (k < 94) { /* deferred */
        ecs_entity_t e = pick_entity(), t = pick_target(e);
        kind_t kind = (kind_t)below(4);
        int r = (int)below(R_COUNT);
        if (pending_count < PENDING_MAX) {
            MCHECK(w_defer(kind, e, r, t) == (alive_node(e) != NULL), e);
            if (alive_node(e)) pending[pending_count++] = (cmd_t){ kind, r, e, t };
        }
    } else if (k < 96) {
        op_apply();
        MCHECK(rel_count(w) == live_count, ECS_NULL);
    } else if (k < 98) {
        op_view();
    } else {
        op_json();
    }
}

#ifdef RELATIONS_FUZZ
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    memset(model, 0, sizeof model);
    live_count = stale_count = pending_count = 0;
    fuzz_at = data, fuzz_end = data + size;
    w = rel_world_new();
    if (!w) return 0;
    for (op_number = 0; fuzz_at < fuzz_end && op_number < 2000; op_number++) {
        step();
        if (op_number % 16 == 15) compare_all();
    }
    op_apply();
    compare_all();
    rel_world_free(w);
    return 0;
}
#else
int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--seed")) opt_seed = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--ops")) opt_ops = strtoll(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--check-every")) opt_check_every = strtoull(argv[i + 1], NULL, 10);
        else {
            fprintf(stderr, "usage: test_relations_model [--seed N] [--ops N] [--check-every N]\n");
            return 2;
        }
    }
    const char *env = getenv("ECSGEN_MODEL_OPS");
    if (env && argc < 2) opt_ops = strtoll(env, NULL, 10);
    rng = opt_seed * 0x9E3779B97F4A7C15ull + 1u;
    w = rel_world_new();
    clock_t start = clock();
    for (op_number = 0; op_number < opt_ops; op_number++) {
        step();
        if (op_number % (long long)opt_check_every == 0) compare_all();
        if (op_number % 200000 == 199999) { /* start afresh now and then: new slots, new shapes */
            op_apply();
            for (uint32_t k = 0; k < 8 && live_count; k++) {
                ecs_entity_t e = live[below(live_count)];
                MCHECK(rel_destroy(w, e) && m_destroy(e), e);
            }
        }
    }
    op_apply();
    compare_all();
    rel_world_free(w);
    printf("test_relations_model: seed %" PRIu64 ", %lld operations, 0 divergences, %.1f s; refused %llu, "
           "destroyed by cascade %llu, cleared %llu, largest destroy %llu, deferred applied %llu, loads %llu, "
           "refused loads %llu\n",
           opt_seed, opt_ops, (double)(clock() - start) / CLOCKS_PER_SEC, stats[S_REFUSED], stats[S_CASCADED],
           stats[S_CLEARED], stats[S_DEEPEST], stats[S_APPLIED], stats[S_LOADS], stats[S_REFUSED_LOADS]);
    return 0;
}
#endif
