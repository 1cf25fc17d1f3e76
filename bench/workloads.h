/* workloads.h: the workloads on one generated schema. bench.c includes it once per schema
 * size, with S(x) naming the schema's functions and types (bench32_x), SU(x) its macros
 * (BENCH32_X) and W(x) this copy's own functions. Each workload returns nanoseconds per
 * unit (entity, pair, match or get), timing only the work, not the setup. */

/* A world with n entities holding position and velocity; ids[k] the k-th (when ids). */
static S(world_t) *W(populate)(size_t n, ecs_entity_t *ids, size_t data_every) {
    S(world_t) *w = S(world_new)();
    if (!w) fail("out of memory");
    for (size_t k = 0; k < n; k++) {
        S(position_t) p = { (float)k, 1.0f };
        S(velocity_t) v = { 1.0f, (float)(k & 7) };
        S(data_t) d = { 0.5f };
        ecs_entity_t e = S(spawn)(w, &(S(spawn_desc_t)){ .position = &p, .velocity = &v,
                                                         .data = data_every && k % data_every == 0 ? &d : NULL });
        if (e == ECS_NULL) fail("spawn failed");
        if (ids) ids[k] = e;
    }
    return w;
}

/* The end of a create workload: the new entities join their groups (timed too), and the
 * count is checked. Returns the time per entity since t0. */
static double W(created)(S(world_t) *w, size_t n, double t0) {
#if SLOT_STORAGE
    size_t grouped = S(count)(w); /* no groups: slot storage makes none */
#else
    size_t grouped = S(query_move)(w).count; /* new entities join their groups here */
#endif
    double t = now_ns() - t0;
    if (grouped != n) fail("create: wrong count");
    S(world_free)(w);
    return t / (double)n;
}

/* A world of n entities built as the seed article builds it, with no hint: spawn an empty
 * entity, then add position and velocity one at a time. */
static S(world_t) *W(spawn_then_add)(size_t n) {
    S(world_t) *w = S(world_new)();
    if (!w) fail("out of memory");
    for (size_t k = 0; k < n; k++) {
        ecs_entity_t e = S(spawn)(w, NULL);
        if (e == ECS_NULL || !S(add_position)(w, e, (S(position_t)){ 1.0f, 2.0f }) ||
            !S(add_velocity)(w, e, (S(velocity_t)){ 3.0f, 4.0f }))
            fail("spawn then add failed");
    }
    return w;
}

static double W(create_then_add)(size_t n) {
    double t0 = now_ns();
    S(world_t) *w = W(spawn_then_add)(n);
    return W(created)(w, n, t0);
}

/* One desc, made before the loop: spawn reads which components it names at every call. */
static double W(create)(size_t n) {
    S(world_t) *w = S(world_new)();
    if (!w) fail("out of memory");
    S(position_t) p = { 1.0f, 2.0f };
    S(velocity_t) v = { 3.0f, 4.0f };
    const S(spawn_desc_t) desc = { .position = &p, .velocity = &v };
    double t0 = now_ns();
    for (size_t k = 0; k < n; k++)
        if (S(spawn)(w, &desc) == ECS_NULL) fail("spawn failed");
    return W(created)(w, n, t0);
}

/* The desc written at the call, as README's tour spawns: the inline spawn sees which
 * components it names and passes only those (the literal itself is never built). */
static double W(create_literal)(size_t n) {
    S(world_t) *w = S(world_new)();
    if (!w) fail("out of memory");
    S(position_t) p = { 1.0f, 2.0f };
    S(velocity_t) v = { 3.0f, 4.0f };
    double t0 = now_ns();
    for (size_t k = 0; k < n; k++)
        if (S(spawn)(w, &(S(spawn_desc_t)){ .position = &p, .velocity = &v }) == ECS_NULL) fail("spawn failed");
    return W(created)(w, n, t0);
}

/* The declared query's view: the loop the generated header shows, in the one form that also serves a
 * non-owned query (FIELD is v.c.f[i] here, since move owns its pools). */
static void W(move_view)(S(world_t) *w, float dt) {
    S(move_view_t) v = S(query_move)(w);
    for (size_t i = 0; i < v.count; i++) {
        SU(MOVE_FIELD)(v, position, x, i) += SU(MOVE_FIELD)(v, velocity, x, i) * dt;
        SU(MOVE_FIELD)(v, position, y, i) += SU(MOVE_FIELD)(v, velocity, y, i) * dt;
    }
}

static double W(iterate_view)(size_t n) {
    S(world_t) *w = W(populate)(n, NULL, 0);
    if (S(query_move)(w).count != n) fail("move view: wrong count");
    size_t reps = iteration_reps(n);
    double t0 = now_ns();
    for (size_t r = 0; r < reps; r++) W(move_view)(w, bench_dt), frame_end();
    double t = now_ns() - t0;
    sink += SU(_CELL_position)(w->components.position, x, n / 2);
    S(world_free)(w);
    return t / (double)(reps * n);
}

/* The view in a frame that changed structure: one entity loses velocity and gets it back
 * before each loop, so a non-owned view lists its matches again (an owned one flushes one
 * pending entity). */
static double W(iterate_view_changed)(size_t n) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    S(world_t) *w = W(populate)(n, ids, 0);
    size_t reps = iteration_reps(n);
    double t0 = now_ns();
    for (size_t r = 0; r < reps; r++) {
        ecs_entity_t e = ids[(r * 7919u) % n];
        if (!S(remove_velocity)(w, e) || !S(add_velocity)(w, e, (S(velocity_t)){ 1.0f, 2.0f })) fail("view changed: remove+add failed");
        W(move_view)(w, bench_dt);
        frame_end();
    }
    double t = now_ns() - t0;
    if (S(query_move)(w).count != n) fail("view changed: wrong count");
    sink += SU(_CELL_position)(w->components.position, x, n / 2);
    S(world_free)(w);
    free(ids);
    return t / (double)(reps * n);
}

#if defined(_OPENMP) && !SLOT_STORAGE
static double W(iterate_view_2_threads)(size_t n) {
    S(world_t) *w = W(populate)(n, NULL, 0);
    size_t reps = iteration_reps(n);
    float dt = bench_dt;
    double t0 = now_ns();
    for (size_t r = 0; r < reps; r++) {
        S(move_view_t) v = S(query_move)(w);
        _Pragma("omp parallel for num_threads(2) schedule(static)")
        for (size_t i = 0; i < v.count; i++) {
            SU(MOVE_FIELD)(v, position, x, i) += SU(MOVE_FIELD)(v, velocity, x, i) * dt;
            SU(MOVE_FIELD)(v, position, y, i) += SU(MOVE_FIELD)(v, velocity, y, i) * dt;
        }
        frame_end();
    }
    double t = now_ns() - t0;
    sink += SU(_CELL_position)(w->components.position, x, n / 2);
    S(world_free)(w);
    return t / (double)(reps * n);
}
#endif

static double W(iterate_each)(size_t n) {
    S(world_t) *w = W(populate)(n, NULL, 0);
    size_t reps = iteration_reps(n);
    float dt = bench_dt;
    double t0 = now_ns();
    for (size_t r = 0; r < reps; r++) {
        SU(EACH)(w, it, position, velocity) {
            SU(FIELD)(it, position, x) += SU(FIELD)(it, velocity, x) * dt;
            SU(FIELD)(it, position, y) += SU(FIELD)(it, velocity, y) * dt;
        }
        frame_end();
    }
    double t = now_ns() - t0;
    sink += SU(_CELL_position)(w->components.position, x, n / 2);
    S(world_free)(w);
    return t / (double)(reps * n);
}

/* The article's "iterate with a system": the generated loop of the declared query. */
static double W(iterate_system)(size_t n) {
    S(world_t) *w = W(populate)(n, NULL, 0);
    size_t reps = iteration_reps(n);
    float dt = bench_dt;
    double t0 = now_ns();
    for (size_t r = 0; r < reps; r++) {
        SU(EACH_MOVE)(w, it) {
            SU(FIELD)(it, position, x) += SU(FIELD)(it, velocity, x) * dt;
            SU(FIELD)(it, position, y) += SU(FIELD)(it, velocity, y) * dt;
        }
        frame_end();
    }
    double t = now_ns() - t0;
    sink += SU(_CELL_position)(w->components.position, x, n / 2);
    S(world_free)(w);
    return t / (double)(reps * n);
}

static double W(iterate_sparse)(size_t n) {
    S(world_t) *w = W(populate)(n, NULL, 4);
    size_t matched = (n + 3) / 4;
    if (S(query_move_data)(w).count != matched) fail("move_data view: wrong count");
    size_t reps = iteration_reps(matched);
    float dt = bench_dt;
    double t0 = now_ns();
    for (size_t r = 0; r < reps; r++) {
        S(move_data_view_t) v = S(query_move_data)(w);
        for (size_t i = 0; i < v.count; i++) {
            float d = SU(MOVE_DATA_FIELD)(v, data, value, i);
            SU(MOVE_DATA_FIELD)(v, position, x, i) += SU(MOVE_DATA_FIELD)(v, velocity, x, i) * d * dt;
            SU(MOVE_DATA_FIELD)(v, position, y, i) += SU(MOVE_DATA_FIELD)(v, velocity, y, i) * d * dt;
        }
        frame_end();
    }
    double t = now_ns() - t0;
    sink += SU(_CELL_position)(w->components.position, x, n / 2);
    S(world_free)(w);
    return t / (double)(reps * matched);
}

/* The world of W(populate), and beside each P+V entity one that churn never touches holding
 * each of filler0..filler19 with probability 1/2: 20 more pools with members, whose sparse
 * pages cover the churned slots, as in a game with many component types. Added through the
 * metadata (one loop for every schema size). */
static S(world_t) *W(populate_with_others)(size_t n, ecs_entity_t *ids) {
    S(world_t) *w = S(world_new)();
    if (!w) fail("out of memory");
    const S(filler0_t) one = { 1 }; /* every filler is one u32 */
    const ecs_meta_component_t *filler[20] = { 0 };
    for (uint32_t c = 0; c < S(meta).component_count; c++) {
        unsigned f;
        if (sscanf(S(meta).components[c].name, "filler%u", &f) == 1 && f < 20) filler[f] = &S(meta).components[c];
    }
    uint64_t seed = 777;
    for (size_t k = 0; k < n; k++) {
        S(position_t) p = { (float)k, 1.0f };
        S(velocity_t) v = { 1.0f, (float)(k & 7) };
        ids[k] = S(spawn)(w, &(S(spawn_desc_t)){ .position = &p, .velocity = &v });
        ecs_entity_t other = S(spawn)(w, NULL);
        if (ids[k] == ECS_NULL || other == ECS_NULL) fail("spawn failed");
        uint64_t coins = next_random(&seed);
        for (unsigned f = 0; f < 20; f++)
            if ((coins >> f & 1u) && !ecs_meta_add(w, filler[f], other, &one)) fail("add failed");
    }
    return w;
}

/* Destroy+create of random P+V entities, 10 % of n per frame; `others`: among the entities
 * of W(populate_with_others), where destroy must tell which of 22 pools hold the entity. */
static double W(churn_among)(size_t n, bool others) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    S(world_t) *w = others ? W(populate_with_others)(n, ids) : W(populate)(n, ids, 0);
    size_t all = S(count)(w);
    S(position_t) p = { 1.0f, 2.0f };
    S(velocity_t) v = { 3.0f, 4.0f };
    const S(spawn_desc_t) desc = { .position = &p, .velocity = &v };
    size_t per_frame = n / 10, frames = churn_frames(n);
    uint64_t seed = 12345;
    double t0 = now_ns();
    for (size_t f = 0; f < frames; f++) {
        for (size_t k = 0; k < per_frame; k++) {
            size_t at = (size_t)(next_random(&seed) % n);
            S(destroy)(w, ids[at]);
            ids[at] = S(spawn)(w, &desc);
        }
#if SLOT_STORAGE
        sink += (float)S(count)(w); /* no groups to join (slot storage makes none) */
#else
        sink += (float)S(query_move)(w).count; /* the frame's new entities join the group */
#endif
    }
    double t = now_ns() - t0;
    if (S(count)(w) != all || S(query_move)(w).count != n) fail("churn: wrong count");
    S(world_free)(w);
    free(ids);
    return t / (double)(frames * per_frame);
}

static double W(churn)(size_t n) {
    return W(churn_among)(n, false);
}

static double W(churn_others)(size_t n) {
    return W(churn_among)(n, true);
}

/* Each entity gains extra and loses it again, lap after lap; the last lap is timed. The
 * first lap also pays for the pool's sparse pages, allocated and faulted in as the ids climb;
 * a lap after it finds them there and touched, as the baseline finds its sparse array (made
 * and filled before its clock starts): docs/performance.md, "Create, churn and memory". */
static double W(add_remove_laps)(size_t n, int laps) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    S(world_t) *w = W(populate)(n, ids, 0);
    double t0 = 0;
    for (int lap = 0; lap < laps; lap++) {
        if (lap == laps - 1) t0 = now_ns();
        for (size_t k = 0; k < n; k++) {
            S(add_extra)(w, ids[k], (S(extra_t)){ (float)lap });
            S(remove_extra)(w, ids[k]);
        }
    }
    double t = now_ns() - t0;
    if (S(count_extra)(w) != 0) fail("add+remove: extra left behind");
    S(world_free)(w);
    free(ids);
    return t / (double)n;
}

static double W(add_remove)(size_t n) {
    return W(add_remove_laps)(n, 1);
}

static double W(add_remove_again)(size_t n) {
    return W(add_remove_laps)(n, 2);
}

/* add+remove of data, which the query move_data owns, a frame at a time: every entity is in
 * move's group (settled before the clock starts); each frame adds data to 1,000 entities,
 * views move_data (they join its group: the add only queues them) and removes data from
 * them again (they leave it). The views are timed too: they are the join. */
static double W(add_remove_owned)(size_t n) {
    enum { FRAME = 1000 };
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    S(world_t) *w = W(populate)(n, ids, 0);
    size_t joined = 0;
    sink += (float)S(query_move)(w).count;
    double t0 = now_ns();
    for (size_t k0 = 0; k0 < n; k0 += FRAME) {
        size_t k1 = n - k0 < FRAME ? n : k0 + FRAME;
        for (size_t k = k0; k < k1; k++) S(add_data)(w, ids[k], (S(data_t)){ 1.0f });
        joined += S(query_move_data)(w).count;
        for (size_t k = k0; k < k1; k++) S(remove_data)(w, ids[k]);
    }
    joined += S(query_move_data)(w).count;
    double t = now_ns() - t0;
    if (S(count_data)(w) != 0 || joined != n) fail("add+remove owned: data left behind or no join");
    S(world_free)(w);
    free(ids);
    return t / (double)n;
}

/* Gets position of every id in ids[0..n), in random order, reading x, or every field (x + y:
 * soa reads a line per field, struct one row); the time per get. Frees w and ids. */
static double W(time_gets)(S(world_t) *w, ecs_entity_t *ids, size_t n, bool every_field) {
    shuffle(ids, n);
    float sum = 0;
    double t0 = now_ns();
    if (every_field) {
        for (size_t k = 0; k < n; k++) {
            S(position_t) p = S(get_position)(w, ids[k]);
            sum += p.x + p.y;
        }
    } else {
        for (size_t k = 0; k < n; k++) sum += S(get_position)(w, ids[k]).x;
    }
    double t = now_ns() - t0;
    sink += sum;
    S(world_free)(w);
    free(ids);
    return t / (double)n;
}

/* Random get in a world spawned in order. */
static double W(random_get)(size_t n) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    S(world_t) *w = W(populate)(n, ids, 0);
    return W(time_gets)(w, ids, n, false);
}

static double W(random_get_every_field)(size_t n) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    S(world_t) *w = W(populate)(n, ids, 0);
    return W(time_gets)(w, ids, n, true);
}

/* Random get in a world whose position rows no longer follow the slots: every entity lost
 * position and got it back, in random order (with sparse storage its row is then random;
 * slot storage keeps rows at slots). The lookup the in-order world above skips is paid. */
static double W(random_get_shuffled)(size_t n) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    S(world_t) *w = W(populate)(n, ids, 0);
    shuffle(ids, n);
    for (size_t k = 0; k < n; k++) {
        S(position_t) p = S(get_position)(w, ids[k]);
        if (!S(remove_position)(w, ids[k]) || !S(add_position)(w, ids[k], p)) fail("get, shuffled: remove or add failed");
    }
    return W(time_gets)(w, ids, n, false);
}

static double W(create_destroy)(size_t n) {
    ecs_entity_t *ids = xmalloc(n * sizeof *ids);
    S(world_t) *w = S(world_new)();
    if (!w) fail("out of memory");
    S(position_t) p = { 1.0f, 2.0f };
    S(velocity_t) v = { 3.0f, 4.0f };
    const S(spawn_desc_t) desc = { .position = &p, .velocity = &v };
    double t0 = now_ns();
    for (size_t k = 0; k < n; k++) ids[k] = S(spawn)(w, &desc);
    sink += (float)S(query_move)(w).count;
    for (size_t k = 0; k < n; k++) S(destroy)(w, ids[k]);
    double t = now_ns() - t0;
    if (S(count)(w) != 0) fail("create/destroy: entities left");
    S(world_free)(w);
    free(ids);
    return t / (double)n;
}

/* Bytes allocated for w's entities with position and velocity: the entity table, both pools
 * (sparse pages, dense ids, field arrays) and the pending list of group joins, per entity.
 * Frees w. Not a time: one run suffices. */
static double W(memory_of)(S(world_t) *w, size_t n) {
    size_t bytes = ecs_entities_memory(&w->entities);
#if SLOT_STORAGE /* the slot rows of position and velocity, and each slot's mask */
    bytes += (size_t)w->slot_rows * 4 * sizeof(float) + (size_t)w->slot_capacity * sizeof *w->slot_mask;
#else
    bytes += ecs_sparse_memory(&w->components.position.set) + (size_t)w->components.position.set.capacity * 2 * sizeof(float);
    bytes += ecs_sparse_memory(&w->components.velocity.set) + (size_t)w->components.velocity.set.capacity * 2 * sizeof(float);
    bytes += (size_t)w->pending.capacity * sizeof *w->pending.ids;
#endif
    S(world_free)(w);
    return (double)bytes / (double)n;
}

static double W(memory)(size_t n) {
    return W(memory_of)(W(populate)(n, NULL, 0), n);
}

static double W(memory_then_add)(size_t n) {
    S(world_t) *w = W(spawn_then_add)(n);
#if !SLOT_STORAGE
    sink += (float)S(query_move)(w).count; /* the joins a first frame makes */
#endif
    return W(memory_of)(w, n);
}

static const workload_t W(workloads)[] = {
    { "create P+V", "ns/entity", W(create), base_create_n, false },
    { "create P+V, desc literal", "ns/entity", W(create_literal), base_create_n, false },
    { "iterate declared query (view)", "ns/entity", W(iterate_view), base_iterate, false },
    { "view, a change per frame", "ns/entity", W(iterate_view_changed), base_iterate, false },
    { "iterate ad-hoc EACH(P, V)", "ns/entity", W(iterate_each), base_iterate, false },
    { "iterate P,V,D 1 in 4 (view)", "ns/match", W(iterate_sparse), base_iterate_sparse, false },
    { "destroy+create 10%/frame", "ns/pair", W(churn), base_churn, false },
    { "destroy+create, 20 more pools", "ns/pair", W(churn_others), base_churn, false },
    { "add+remove one component", "ns/pair", W(add_remove), base_add_remove, false },
    { "add+remove one, pages present", "ns/pair", W(add_remove_again), base_add_remove, false },
    { "add+remove, owned by a query", "ns/pair", W(add_remove_owned), base_add_remove, false },
    { "random get by id", "ns/get", W(random_get), base_random_get, false },
    { "random get, rows shuffled", "ns/get", W(random_get_shuffled), base_random_get, false },
    { "random get by id, every field", "ns/get", W(random_get_every_field), base_random_get_every_field, false },
    { "memory P+V", "bytes/entity", W(memory), base_memory_n, true },
    { "seed: spawn, then add P, V", "ns/entity", W(create_then_add), base_create_n, false },
    { "memory P+V, spawn then add", "bytes/entity", W(memory_then_add), base_memory_n, true },
    { "seed: system (EACH_MOVE)", "ns/entity", W(iterate_system), base_iterate, false },
    { "seed: create then destroy", "ns/entity", W(create_destroy), base_create_destroy, false },
#if defined(_OPENMP) && !SLOT_STORAGE
    { "view, 2 threads (vs 1 thread)", "ns/entity", W(iterate_view_2_threads), W(iterate_view), false },
#endif
};
