/* relations.h: the relations table of bench (docs/relations.md), on bench/benchrel.json. Each
 * workload has two rows: against the generated call the target names (a plain get,
 * an add+remove of a small component, a plain create+destroy) and against hand-written C
 * (a parent array and first-child/next-sibling links, the layout flecs' comparison used).
 * Included once by bench.c, after its helpers. */
#include "benchrel_ecs.h"
#include "benchrelslot_ecs.h"

/* ---- Hand-written: a parent per slot, first-child/next/prev links, a generation ---------- */

typedef struct {
    uint32_t *gen, *parent, *first, *next, *prev, *free_next; /* links: slot + 1, 0 none */
    float *lx, *ly, *gx, *gy;
    uint32_t used, capacity, free_head;
} hw_tree_t;

static void hw_init(hw_tree_t *t, uint32_t capacity) {
    *t = (hw_tree_t){ 0 };
    t->capacity = capacity;
    t->gen = calloc(capacity, 4), t->parent = calloc(capacity, 4), t->first = calloc(capacity, 4);
    t->next = calloc(capacity, 4), t->prev = calloc(capacity, 4), t->free_next = calloc(capacity, 4);
    t->lx = calloc(capacity, 4), t->ly = calloc(capacity, 4), t->gx = calloc(capacity, 4), t->gy = calloc(capacity, 4);
    if (!t->gen || !t->parent || !t->first || !t->next || !t->prev || !t->free_next || !t->lx || !t->ly || !t->gx || !t->gy)
        fail("out of memory");
}
static void hw_fini(hw_tree_t *t) {
    free(t->gen), free(t->parent), free(t->first), free(t->next), free(t->prev), free(t->free_next);
    free(t->lx), free(t->ly), free(t->gx), free(t->gy);
}
static inline uint64_t hw_id(const hw_tree_t *t, uint32_t s) { return (uint64_t)t->gen[s] << 32 | s; }
static inline bool hw_alive(const hw_tree_t *t, uint64_t e) {
    uint32_t s = (uint32_t)e;
    return s < t->used && t->gen[s] == (uint32_t)(e >> 32);
}
static inline void hw_link(hw_tree_t *t, uint32_t s, uint32_t p) {
    uint32_t head = t->first[p];
    t->parent[s] = p + 1u, t->next[s] = head, t->prev[s] = 0;
    if (head) t->prev[head - 1u] = s + 1u;
    t->first[p] = s + 1u;
}
static inline void hw_unlink(hw_tree_t *t, uint32_t s) {
    uint32_t p = t->parent[s] - 1u, nx = t->next[s], pv = t->prev[s];
    if (pv) t->next[pv - 1u] = nx;
    else t->first[p] = nx;
    if (nx) t->prev[nx - 1u] = pv;
    t->parent[s] = 0;
}
/* A new entity under parent (0: none). */
static inline uint64_t hw_create(hw_tree_t *t, uint64_t parent) {
    uint32_t s;
    if (t->free_head) s = t->free_head - 1u, t->free_head = t->free_next[s];
    else s = t->used++, t->gen[s] = 1u; /* generation 0 would make slot 0's id the null id */
    t->first[s] = 0;
    t->parent[s] = 0;
    if (parent) hw_link(t, s, (uint32_t)parent);
    return hw_id(t, s);
}
/* Destroys e and its subtree, leaves first (no recursion: down the first links, up the parents). */
static void hw_destroy(hw_tree_t *t, uint64_t e) {
    if (!hw_alive(t, e)) return;
    uint32_t root = (uint32_t)e, s = root;
    for (;;) {
        while (t->first[s]) s = t->first[s] - 1u;
        uint32_t up = t->parent[s];
        if (up) hw_unlink(t, s);
        t->gen[s]++;
        t->free_next[s] = t->free_head, t->free_head = s + 1u;
        if (s == root) return;
        s = up - 1u;
    }
}

/* n entities in 10-ary trees of depth 3 (1,111 each; the rest in a last, smaller tree), made
 * in pre-order; ids[k] the k-th made. Calls `make(parent, k)` for each. */
#define FOREST(n, make)                                                                         \
    for (size_t k_ = 0; k_ < (n);) {                                                            \
        ecs_entity_t r_ = make(ECS_NULL, k_++);                                                 \
        for (int a_ = 0; a_ < 10 && k_ < (n); a_++) {                                           \
            ecs_entity_t c_ = make(r_, k_++);                                                   \
            for (int b_ = 0; b_ < 10 && k_ < (n); b_++) {                                       \
                ecs_entity_t g_ = make(c_, k_++);                                               \
                for (int d_ = 0; d_ < 10 && k_ < (n); d_++) (void)make(g_, k_++);               \
            }                                                                                   \
        }                                                                                       \
    }

/* ---- get: the relation's target, random order, about 2M gets per timing ------------------ */
/* Over the sources only (the entities that have the relation: all but the roots), against
 * a plain get of `peer`, a component of the same size and storage that exactly the sources
 * have (its value: the same entity). The two pools then hold the same members in the same
 * rows, so the ratio is the relation's own cost, not a difference of membership: a sparse
 * pool every entity has keeps its rows in slot order and a get of it skips the sparse entry,
 * which no pool the roots lack can do (docs/relations.md, "Storage"). */

static benchrel_world_t *rel_forest_world;
static ecs_entity_t *rel_forest_ids;
static ecs_entity_t rel_make(ecs_entity_t parent, size_t k) {
    ecs_entity_t e = benchrel_spawn(rel_forest_world, &(benchrel_spawn_desc_t){
        .local = &(benchrel_local_t){ 1.0f, (float)(k & 3) },
        .global = &(benchrel_global_t){ 0, 0 },
        .extra = &(benchrel_extra_t){ (float)k },
        .peer = parent ? &(benchrel_peer_t){ parent } : NULL,
        .child_of = parent ? &(benchrel_child_of_t){ parent } : NULL });
    if (e == ECS_NULL) fail("spawn failed");
    rel_forest_ids[k] = e;
    return e;
}
static benchrel_world_t *rel_forest(size_t n, ecs_entity_t *ids) {
    rel_forest_world = benchrel_world_new();
    rel_forest_ids = ids;
    if (!rel_forest_world) fail("out of memory");
    FOREST(n, rel_make)
    return rel_forest_world;
}

static hw_tree_t *hw_forest_tree;
static ecs_entity_t *hw_forest_ids;
static ecs_entity_t hw_make(ecs_entity_t parent, size_t k) {
    uint64_t e = hw_create(hw_forest_tree, parent);
    uint32_t s = (uint32_t)e;
    hw_forest_tree->lx[s] = 1.0f, hw_forest_tree->ly[s] = (float)(k & 3);
    hw_forest_ids[k] = e;
    return e;
}

/* The sources among ids[0..n) of a FOREST, shuffled, in place; returns their count. FOREST
 * makes each tree's root first, every 1,111th entity. */
static size_t forest_sources(ecs_entity_t *ids, size_t n) {
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (k % 1111u) ids[m++] = ids[k];
    shuffle(ids, m);
    return m;
}

/* ns per `get(w, id).field` over the m ids, about 2M gets per timing. */
#define TIME_GETS(get, w, field, ids, m, ns_per_get)                                             \
    do {                                                                                          \
        uint64_t sum_ = 0;                                                                        \
        size_t reps_ = iteration_reps(m) / 10u + 1u;                                              \
        double t0_ = now_ns();                                                                    \
        for (size_t r_ = 0; r_ < reps_; r_++, frame_end())                                        \
            for (size_t k_ = 0; k_ < (m); k_++) sum_ += get(w, ids[k_]).field;                    \
        ns_per_get = (now_ns() - t0_) / (double)reps_ / (double)(m);                              \
        sink += (float)sum_;                                                                      \
    } while (0)

/* A workload: ns per `get(w, id).field` over the sources of a FOREST made by forest_fn, a
 * world of schema S. */
#define GET_WORKLOAD(name, S, forest_fn, get, field)                                            \
    static double name(size_t n) {                                                                \
        ecs_entity_t *ids = xmalloc(n * sizeof *ids);                                             \
        S##_world_t *w = forest_fn(n, ids);                                                       \
        size_t m = forest_sources(ids, n);                                                        \
        double t;                                                                                 \
        TIME_GETS(get, w, field, ids, m, t);                                                      \
        S##_world_free(w);                                                                        \
        free(ids);                                                                                \
        return t;                                                                                 \
    }

GET_WORKLOAD(rel_get, benchrel, rel_forest, benchrel_get_child_of, target)
GET_WORKLOAD(rel_get_plain, benchrel, rel_forest, benchrel_get_peer, to)

/* The same gets with the relation, and peer, in slot storage (bench/benchrelslot.json): a
 * row is the slot, no sparse entry. */
static benchrelslot_world_t *slot_forest_world;
static ecs_entity_t *slot_forest_ids;
static ecs_entity_t slot_make(ecs_entity_t parent, size_t k) {
    ecs_entity_t e = benchrelslot_spawn(slot_forest_world, &(benchrelslot_spawn_desc_t){
        .local = &(benchrelslot_local_t){ 1.0f, (float)(k & 3) },
        .global = &(benchrelslot_global_t){ 0, 0 },
        .extra = &(benchrelslot_extra_t){ (float)k },
        .peer = parent ? &(benchrelslot_peer_t){ parent } : NULL,
        .child_of = parent ? &(benchrelslot_child_of_t){ parent } : NULL });
    if (e == ECS_NULL) fail("spawn failed");
    slot_forest_ids[k] = e;
    return e;
}
static benchrelslot_world_t *slot_forest(size_t n, ecs_entity_t *ids) {
    slot_forest_world = benchrelslot_world_new(), slot_forest_ids = ids;
    if (!slot_forest_world) fail("out of memory");
    FOREST(n, slot_make)
    return slot_forest_world;
}
GET_WORKLOAD(rel_get_slot, benchrelslot, slot_forest, benchrelslot_get_child_of, target)
GET_WORKLOAD(rel_get_slot_plain, benchrelslot, slot_forest, benchrelslot_get_peer, to)

/* Hand-written: the parent's id of a source (its generation checked, as get's assert does). */
static inline uint64_t hw_parent_of(const hw_tree_t *t, uint64_t e) {
    uint32_t s = (uint32_t)e;
    return hw_alive(t, e) ? hw_id(t, t->parent[s] - 1u) : 0;
}
static double hw_get(size_t n) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    hw_tree_t t;
    hw_init(&t, (uint32_t)n);
    hw_forest_tree = &t, hw_forest_ids = ids;
    FOREST(n, hw_make)
    size_t m = forest_sources(ids, n);
    double el;
    uint64_t sum = 0;
    size_t reps = iteration_reps(m) / 10u + 1u;
    double t0 = now_ns();
    for (size_t r = 0; r < reps; r++, frame_end())
        for (size_t k = 0; k < m; k++) sum += hw_parent_of(&t, ids[k]);
    el = (now_ns() - t0) / (double)reps / (double)m;
    sink += (float)sum;
    hw_fini(&t);
    free(ids);
    return el;
}

/* ---- re-parent: every entity but the roots moves to another target, random order -------- */

static double rel_reparent(size_t n) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    benchrel_world_t *w = rel_forest(n, ids);
    ecs_entity_t spare = benchrel_spawn(w, NULL); /* a new target for everyone, then back */
    shuffle(ids, n);
    size_t moves = 0;
    double t0 = now_ns();
    for (size_t k = 0; k < n; k++) {
        ecs_entity_t e = ids[k];
        if (!benchrel_has_child_of(w, e)) continue;
        ecs_entity_t back = benchrel_get_child_of(w, e).target;
        if (!benchrel_set_child_of(w, e, (benchrel_child_of_t){ spare }) ||
            !benchrel_set_child_of(w, e, (benchrel_child_of_t){ back }))
            fail("re-parent refused");
        moves += 2;
    }
    double t = now_ns() - t0;
    benchrel_world_free(w);
    free(ids);
    return t / (double)moves;
}
/* The same entities, each given and then stripped of a small component (one add+remove per move). */
static double rel_add_remove(size_t n) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    benchrel_world_t *w = rel_forest(n, ids);
    shuffle(ids, n);
    size_t moves = 0;
    double t0 = now_ns();
    for (size_t k = 0; k < n; k++) {
        ecs_entity_t e = ids[k];
        if (!benchrel_has_child_of(w, e)) continue;
        for (int twice = 0; twice < 2; twice++)
            if (!benchrel_add_mark(w, e, (benchrel_mark_t){ 1 }) || !benchrel_remove_mark(w, e)) fail("add+remove failed");
        moves += 2;
    }
    double t = now_ns() - t0;
    benchrel_world_free(w);
    free(ids);
    return t / (double)moves;
}
static double hw_reparent(size_t n) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    hw_tree_t t;
    hw_init(&t, (uint32_t)n + 1u);
    hw_forest_tree = &t, hw_forest_ids = ids;
    FOREST(n, hw_make)
    uint32_t spare = (uint32_t)hw_create(&t, 0);
    shuffle(ids, n);
    size_t moves = 0;
    double t0 = now_ns();
    for (size_t k = 0; k < n; k++) {
        uint32_t s = (uint32_t)ids[k];
        if (!hw_alive(&t, ids[k]) || !t.parent[s]) continue;
        uint32_t back = t.parent[s] - 1u;
        /* the checks the generated set makes: the new target is alive, and not below s */
        if (!hw_alive(&t, hw_id(&t, spare))) fail("dead");
        hw_unlink(&t, s), hw_link(&t, s, spare);
        hw_unlink(&t, s), hw_link(&t, s, back);
        moves += 2;
    }
    double el = now_ns() - t0;
    hw_fini(&t);
    free(ids);
    return el / (double)moves;
}

/* ---- a tree of width 10, depth 3 (1,111 entities) made, then destroyed by its root ------- */

static size_t tree_rounds(size_t n) { return n / 1111u ? n / 1111u : 1u; }

static double rel_tree(size_t n) {
    benchrel_world_t *w = benchrel_world_new();
    size_t rounds = tree_rounds(n), made = 0;
    double t0 = now_ns();
    for (size_t r = 0; r < rounds; r++) {
        ecs_entity_t root = benchrel_spawn(w, &(benchrel_spawn_desc_t){ .mark = &(benchrel_mark_t){ 1 } });
        for (int a = 0; a < 10; a++) {
            ecs_entity_t c = benchrel_spawn(w, &(benchrel_spawn_desc_t){ .child_of = &(benchrel_child_of_t){ root } });
            for (int b = 0; b < 10; b++) {
                ecs_entity_t g = benchrel_spawn(w, &(benchrel_spawn_desc_t){ .child_of = &(benchrel_child_of_t){ c } });
                for (int d = 0; d < 10; d++) benchrel_spawn(w, &(benchrel_spawn_desc_t){ .child_of = &(benchrel_child_of_t){ g } });
            }
        }
        made += 1111;
        benchrel_destroy(w, root);
    }
    double t = now_ns() - t0;
    if (benchrel_count(w) != 0) fail("tree: entities left");
    benchrel_world_free(w);
    return t / (double)made;
}
/* 1,111 entities with a small component each, made, then destroyed one by one. */
static double rel_tree_plain(size_t n) {
    benchrel_world_t *w = benchrel_world_new();
    ecs_entity_t ids[1111];
    size_t rounds = tree_rounds(n), made = 0;
    double t0 = now_ns();
    for (size_t r = 0; r < rounds; r++) {
        for (int k = 0; k < 1111; k++) ids[k] = benchrel_spawn(w, &(benchrel_spawn_desc_t){ .mark = &(benchrel_mark_t){ 1 } });
        for (int k = 0; k < 1111; k++) benchrel_destroy(w, ids[k]);
        made += 1111;
    }
    double t = now_ns() - t0;
    if (benchrel_count(w) != 0) fail("plain: entities left");
    benchrel_world_free(w);
    return t / (double)made;
}
static double hw_tree(size_t n) {
    hw_tree_t t;
    hw_init(&t, 1111u);
    size_t rounds = tree_rounds(n), made = 0;
    double t0 = now_ns();
    for (size_t r = 0; r < rounds; r++) {
        uint64_t root = hw_create(&t, 0);
        for (int a = 0; a < 10; a++) {
            uint64_t c = hw_create(&t, root);
            for (int b = 0; b < 10; b++) {
                uint64_t g = hw_create(&t, c);
                for (int d = 0; d < 10; d++) hw_create(&t, g);
            }
        }
        made += 1111;
        hw_destroy(&t, root);
    }
    double el = now_ns() - t0;
    hw_fini(&t);
    return el / (double)made;
}

/* ---- depth-first transform propagation: global = target's global + local ------------------ */

/* ns per entity of a propagation over w's forest of n entities (made with local set, the
 * last one a source); frees w. */
static double rel_propagate_world(benchrel_world_t *w, size_t n, ecs_entity_t last) {
    float *restrict lx = w->components.local.x, *restrict ly = w->components.local.y;
    float *restrict gx = w->components.global.x, *restrict gy = w->components.global.y;
    size_t reps = iteration_reps(n), visited = 0;
    /* The first loop builds the cached order (as the baseline's arrays are put in pre-order
     * before its clock): timed are the frames after it, until the hierarchy changes. */
    BENCHREL_EACH_CHILD_OF_DEPTH_FIRST(w, it) visited++;
    if (visited != n) fail("propagate: wrong count");
    double t0 = now_ns();
    for (size_t r = 0; r < reps; r++) {
        BENCHREL_EACH_CHILD_OF_DEPTH_FIRST(w, it) { /* slot storage: the row is the slot */
            uint32_t i = it.slot, p = it.target_slot;
            if (p == UINT32_MAX) {
                gx[i] = lx[i], gy[i] = ly[i];
            } else {
                gx[i] = gx[p] + lx[i], gy[i] = gy[p] + ly[i];
            }
        }
        frame_end();
    }
    double t = now_ns() - t0;
    if (gx[ecs_entity_index(last)] < 1.0f) fail("propagate: not propagated");
    sink += gx[n / 2];
    benchrel_world_free(w);
    return t / (double)(reps * n);
}
/* The forest made in pre-order: its slots are its depth-first order (one run). */
static double rel_propagate(size_t n) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    benchrel_world_t *w = rel_forest(n, ids);
    ecs_entity_t last = ids[n - 2];
    free(ids);
    return rel_propagate_world(w, n - (n % 1111u == 1u), last); /* a last tree of one is no forest */
}
/* The same trees (n / 1111 of them) made level by level: every root, then every child, ...,
 * so that the depth-first order is not the slots' and the loop loads each slot. */
static double rel_propagate_levels(size_t n) {
    size_t trees = n / 1111u ? n / 1111u : 1u, count = trees, made = 0;
    ecs_entity_t *level = xmalloc(trees * 1000u * sizeof *level), *next = xmalloc(trees * 1000u * sizeof *next);
    benchrel_world_t *w = benchrel_world_new();
    if (!w) fail("out of memory");
    for (size_t depth = 0; depth < 4; depth++) {
        size_t m = 0;
        for (size_t k = 0; k < (depth ? count * 10u : trees); k++) {
            ecs_entity_t parent = depth ? level[k / 10u] : ECS_NULL;
            ecs_entity_t e = benchrel_spawn(w, &(benchrel_spawn_desc_t){
                .local = &(benchrel_local_t){ 1.0f, (float)(made & 3) },
                .global = &(benchrel_global_t){ 0, 0 },
                .child_of = parent ? &(benchrel_child_of_t){ parent } : NULL });
            if (e == ECS_NULL) fail("spawn failed");
            next[m++] = e, made++;
        }
        ecs_entity_t *t = level;
        level = next, next = t, count = m;
    }
    ecs_entity_t last = level[count - 1u];
    free(level), free(next);
    return rel_propagate_world(w, made, last);
}
/* One propagation over arrays already in pre-order, each node's parent an index before it
 * (-1: a root). */
static void hw_propagate_pass(const int32_t *parent, const float *lx, const float *ly, float *gx, float *gy, size_t n) {
    for (size_t i = 0; i < n; i++) {
        int32_t p = parent[i];
        if (p < 0) gx[i] = lx[i], gy[i] = ly[i];
        else gx[i] = gx[p] + lx[i], gy[i] = gy[p] + ly[i];
    }
}
static double hw_propagate(size_t n) {
    int32_t *parent = xmalloc(n * sizeof *parent);
    float *lx = xmalloc(n * 4), *ly = xmalloc(n * 4), *gx = xmalloc(n * 4), *gy = xmalloc(n * 4);
    int32_t stack[4] = { -1, -1, -1, -1 };
    for (size_t k = 0, depth = 0; k < n; k++) { /* the FOREST shape, in pre-order */
        size_t in_tree = k % 1111u;
        depth = in_tree == 0 ? 0 : (in_tree - 1u) % 111u == 0 ? 1 : ((in_tree - 1u) % 111u - 1u) % 11u == 0 ? 2 : 3;
        parent[k] = depth ? stack[depth - 1] : -1;
        stack[depth] = (int32_t)k;
        lx[k] = 1.0f, ly[k] = (float)(k & 3);
    }
    size_t reps = iteration_reps(n);
    hw_propagate_pass(parent, lx, ly, gx, gy, n); /* one pass before the clock, as rel_propagate makes */
    double t0 = now_ns();
    for (size_t r = 0; r < reps; r++) hw_propagate_pass(parent, lx, ly, gx, gy, n), frame_end();
    double t = now_ns() - t0;
    sink += gx[n / 2];
    free(parent), free(lx), free(ly), free(gx), free(gy);
    return t / (double)(reps * n);
}

/* ---- memory: bytes per entity of the relation, beyond its component's pool ---------------- */

static double rel_memory(size_t n) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    benchrel_world_t *w = rel_forest(n, ids);
    double bytes = (double)w->relations.child_of.capacity * sizeof *w->relations.child_of.node;
    benchrel_world_free(w);
    free(ids);
    return bytes / (double)n;
}
static double hw_memory(size_t n) {
    (void)n;
    return 4.0 * sizeof(uint32_t); /* parent, first, next, prev */
}

static const workload_t rel_workloads[] = {
    { "rel get (vs plain get)", "get", rel_get, rel_get_plain, false },
    { "rel get (vs hand-written)", "get", rel_get, hw_get, false },
    { "rel get, slot (vs plain get)", "get", rel_get_slot, rel_get_slot_plain, false },
    { "rel get, slot (vs hand-written)", "get", rel_get_slot, hw_get, false },
    { "re-parent (vs add+remove)", "move", rel_reparent, rel_add_remove, false },
    { "re-parent (vs hand-written)", "move", rel_reparent, hw_reparent, false },
    { "tree 1111 (vs create+destroy)", "entity", rel_tree, rel_tree_plain, false },
    { "tree 1111 (vs hand-written)", "entity", rel_tree, hw_tree, false },
    { "depth-first propagate", "entity", rel_propagate, hw_propagate, false },
    { "depth-first propagate, made by levels", "entity", rel_propagate_levels, hw_propagate, false },
    { "rel index memory", "bytes/entity", rel_memory, hw_memory, true },
};
