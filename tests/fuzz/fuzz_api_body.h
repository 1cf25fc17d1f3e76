/* fuzz_api_body.h: the API fuzzer for one generated schema, included by fuzz_api.c once per
 * variant with P (the prefix, e.g. api_), PU (API_) and FIXED (1: max_entities storage)
 * defined. F(x) names prefix##x, U(X) PREFIX##X. See fuzz_api.c. */

#define F(x) CAT(P, x)
#define U(x) CAT(PU, x)

/* ---- The shadow model ---------------------------------------------------------------- */

typedef struct {
    ecs_entity_t id;
    unsigned has; /* bits: HAS_POS, HAS_VEL, HAS_KINDS, HAS_MARKED */
    F(pos_t) pos;
    F(vel_t) vel;
    F(kinds_t) kinds;
} F(ment_t);

/* A deferred change as the model records it: op (OP_*), the component, its value. */
typedef struct {
    int op, comp;
    ecs_entity_t id;
    F(pos_t) pos;
    F(vel_t) vel;
    F(kinds_t) kinds;
} F(mcmd_t);

typedef struct {
    F(ment_t) e[MAX_LIVE];
    int n;
    ecs_entity_t stale[N_STALE];
    int ns;
    F(clock_t) clock;
    F(mcmd_t) cmd[MAX_CMDS];
    int ncmd, nvals;
} F(model_t);

static F(model_t) F(m);

static F(ment_t) *F(find)(ecs_entity_t id) {
    for (int k = 0; k < F(m).n; k++)
        if (F(m).e[k].id == id) return &F(m).e[k];
    return NULL;
}

static void F(note_stale)(ecs_entity_t id) {
    F(m).stale[F(m).ns % N_STALE] = id;
    F(m).ns++;
}

static void F(model_destroy)(ecs_entity_t id) {
    F(ment_t) *x = F(find)(id);
    if (!x) return;
    *x = F(m).e[--F(m).n];
    F(note_stale)(id);
}

static F(ment_t) *F(model_spawn)(ecs_entity_t id) {
    F(ment_t) *x = &F(m).e[F(m).n++];
    memset(x, 0, sizeof *x);
    x->id = id;
    return x;
}

/* ---- Values from the input ------------------------------------------------------------ */

static ecs_entity_t F(pick_id)(rd_t *r);
static ecs_entity_t F(pick_ref)(rd_t *r);

static F(pos_t) F(gen_pos)(rd_t *r) {
    F(pos_t) v = U(POS_DEFAULT);
    if (rd_u8(r) & 1) {
        v.x = rd_f32(r);
        v.y = rd_f32(r);
    }
    return v;
}

static F(vel_t) F(gen_vel)(rd_t *r) {
    F(vel_t) v = U(VEL_DEFAULT);
    if (rd_u8(r) & 1) v.x = rd_f64(r);
    return v;
}

static F(kinds_t) F(gen_kinds)(rd_t *r) {
    F(kinds_t) v = U(KINDS_DEFAULT);
    unsigned mask = rd_u8(r);
    if (mask & 1) {
        v.b = rd_u8(r) & 1;
        v.i8 = (int8_t)rd_u8(r);
        v.i16 = (int16_t)rd_u16(r);
        v.i32 = (int32_t)rd_u32(r);
        v.i64 = (int64_t)rd_u64(r);
    }
    if (mask & 2) {
        v.u8 = rd_u8(r);
        v.u16 = rd_u16(r);
        v.u32 = rd_u32(r);
        v.u64 = rd_u64(r);
    }
    if (mask & 4) {
        v.f32 = rd_f32(r);
        v.f64 = rd_f64(r);
    }
    if (mask & 8) v.to = F(pick_ref)(r);
    if (mask & 16) rd_text(r, v.name, sizeof v.name);
    if (mask & 32) {
        for (int k = 0; k < 3; k++) v.arr[k] = rd_u16(r);
        v.bits[0] = rd_u8(r) & 1;
        v.bits[1] = rd_u8(r) & 1;
    }
    if (mask & 64) {
        v.ids[0] = F(pick_ref)(r);
        v.ids[1] = F(pick_ref)(r);
    }
    if (mask & 128) v.mode = (F(kinds_mode_t))(rd_u8(r) % 3);
    return v;
}

static bool F(same_pos)(F(pos_t) a, F(pos_t) b) {
    return same_f32(a.x, b.x) && same_f32(a.y, b.y);
}

static bool F(same_vel)(F(vel_t) a, F(vel_t) b) {
    return same_f64(a.x, b.x);
}

static bool F(same_kinds)(F(kinds_t) a, F(kinds_t) b) {
    return a.b == b.b && a.i8 == b.i8 && a.i16 == b.i16 && a.i32 == b.i32 && a.i64 == b.i64 && a.u8 == b.u8 &&
           a.u16 == b.u16 && a.u32 == b.u32 && a.u64 == b.u64 && same_f32(a.f32, b.f32) && same_f64(a.f64, b.f64) &&
           a.to == b.to && !strncmp(a.name, b.name, sizeof a.name) && !memcmp(a.arr, b.arr, sizeof a.arr) &&
           a.bits[0] == b.bits[0] && a.bits[1] == b.bits[1] && a.ids[0] == b.ids[0] && a.ids[1] == b.ids[1] &&
           a.mode == b.mode;
}

/* An id to aim a call at: live, stale, never issued, ECS_NULL, or a small made-up one. */
static ecs_entity_t F(pick_id)(rd_t *r) {
    uint8_t b = rd_u8(r);
    switch (b % 8) {
    case 0: return ECS_NULL;
    case 1:
        if (F(m).ns) return F(m).stale[rd_u8(r) % (F(m).ns < N_STALE ? F(m).ns : N_STALE)];
        return ECS_NULL;
    case 2: { /* never issued */
        uint64_t gen = rd_u8(r) % 4u;
        return gen << 32 | (1000u + rd_u8(r));
    }
    case 3: { /* made up: may be live, stale or not issued yet */
        uint64_t gen = rd_u8(r) % 3u;
        return gen << 32 | (1u + rd_u8(r) % 40u);
    }
    default:
        if (F(m).n) return F(m).e[rd_u8(r) % F(m).n].id;
        return ECS_NULL;
    }
}

/* A value for an entity field: an id this world issued (live or stale) or ECS_NULL. A made-up
 * id (a later generation of a live slot, a slot past max_entities) is saved as null, since the
 * loader would refuse it, so the model's round trip would differ: only ids a world can hold go
 * into fields (made-up ids still go to every call). */
static ecs_entity_t F(pick_ref)(rd_t *r) {
    uint8_t b = rd_u8(r);
    if (b % 4 == 0 || (b % 4 == 1 && !F(m).ns) || !F(m).n) return ECS_NULL;
    if (b % 4 == 1) return F(m).stale[rd_u8(r) % (F(m).ns < N_STALE ? F(m).ns : N_STALE)];
    return F(m).e[rd_u8(r) % F(m).n].id;
}

static ecs_entity_t F(pick_live)(rd_t *r) {
    return F(m).n ? F(m).e[rd_u8(r) % F(m).n].id : ECS_NULL;
}

/* ---- Checks --------------------------------------------------------------------------- */

static unsigned F(world_has)(F(world_t) *w, ecs_entity_t e) {
    return (F(has_pos)(w, e) ? HAS_POS : 0) | (F(has_vel)(w, e) ? HAS_VEL : 0) |
           (F(has_kinds)(w, e) ? HAS_KINDS : 0) | (F(has_marked)(w, e) ? HAS_MARKED : 0);
}

static void F(check_entity)(F(world_t) *w, const F(ment_t) *x) {
    EXPECT(F(alive)(w, x->id), "live entity not alive");
    EXPECT(F(world_has)(w, x->id) == x->has, "has differs");
    F(pos_ref_t) pr = F(ref_pos)(w, x->id);
    EXPECT((pr.x != NULL) == !!(x->has & HAS_POS), "ref_pos");
    if (x->has & HAS_POS) {
        EXPECT(F(same_pos)(F(get_pos)(w, x->id), x->pos), "pos value");
        EXPECT(same_f32(*pr.x, x->pos.x), "ref_pos value");
    }
    if (x->has & HAS_VEL) EXPECT(F(same_vel)(F(get_vel)(w, x->id), x->vel), "vel value");
    if (x->has & HAS_KINDS) EXPECT(F(same_kinds)(F(get_kinds)(w, x->id), x->kinds), "kinds value");
}

/* Everything but the views (they flush pending entities, which would hide overflow cases). */
static void F(check_world)(F(world_t) *w) {
    EXPECT(F(count)(w) == (size_t)F(m).n, "count differs");
    for (int k = 0; k < F(m).n; k++) F(check_entity)(w, &F(m).e[k]);
    for (int k = 0; k < F(m).ns && k < N_STALE; k++) {
        ecs_entity_t s = F(m).stale[k];
        if (F(find)(s)) continue; /* cannot happen: ids are never reissued */
        EXPECT(!F(alive)(w, s) && !F(has_pos)(w, s) && !F(has_marked)(w, s), "stale id alive");
        EXPECT(F(ref_kinds)(w, s).i32 == NULL, "stale ref");
    }
    EXPECT(F(deferred_count)(w) == (size_t)F(m).ncmd, "deferred count differs");
    F(clock_t) *c = F(singleton_clock)(w);
    EXPECT(c->tick == F(m).clock.tick && !memcmp(c->label, F(m).clock.label, sizeof c->label), "singleton");
}

static bool F(match)(int q, unsigned has) {
    switch (q) {
    case Q_POS: return has & HAS_POS;
    case Q_MOVE: return (has & (HAS_POS | HAS_VEL)) == (HAS_POS | HAS_VEL);
    case Q_FAST: return (has & (HAS_POS | HAS_VEL | HAS_KINDS | HAS_MARKED)) == (HAS_POS | HAS_VEL | HAS_KINDS);
    case Q_TAGGED: return (has & (HAS_POS | HAS_MARKED)) == (HAS_POS | HAS_MARKED);
    case Q_KINDS_NO_VEL: return (has & (HAS_POS | HAS_KINDS | HAS_VEL)) == (HAS_POS | HAS_KINDS);
    case Q_BUILT: return (has & (HAS_POS | HAS_KINDS)) == (HAS_POS | HAS_KINDS);
    default: return has & HAS_MARKED; /* Q_MARKED */
    }
}

static int F(model_matches)(int q) {
    int n = 0;
    for (int k = 0; k < F(m).n; k++) n += F(match)(q, F(m).e[k].has);
    return n;
}

/* Each view lists exactly the model's matches, once each, with their values through FIELD. */
static void F(check_views)(F(world_t) *w) {
    /* A non-owned view (a query over slot components) is empty when its list cannot grow:
     * allowed only under a fault. */
    fault_mark();
    F(move_view_t) mv = F(query_move)(w);
    EXPECT(mv.count == (size_t)F(model_matches)(Q_MOVE) || (!U(MOVE_OWNED) && mv.count == 0 && fault_hit()),
           "move view count");
    int seen[MAX_LIVE] = { 0 };
    for (size_t i = 0; i < mv.count; i++) {
        F(ment_t) *x = F(find)(mv.entity[i]);
        EXPECT(x && F(match)(Q_MOVE, x->has), "move view entity");
        EXPECT(seen[x - F(m).e]++ == 0, "move view lists an entity twice");
        EXPECT(same_f32(U(MOVE_FIELD)(mv, pos, x, i), x->pos.x) && same_f64(U(MOVE_FIELD)(mv, vel, x, i), x->vel.x),
               "move view values");
    }
    fault_mark();
    F(fast_view_t) fv = F(query_fast)(w);
    EXPECT(fv.count == (size_t)F(model_matches)(Q_FAST) || (!U(FAST_OWNED) && fv.count == 0 && fault_hit()),
           "fast view count");
    memset(seen, 0, sizeof seen);
    for (size_t i = 0; i < fv.count; i++) {
        F(ment_t) *x = F(find)(fv.entity[i]);
        EXPECT(x && F(match)(Q_FAST, x->has), "fast view entity");
        EXPECT(seen[x - F(m).e]++ == 0, "fast view lists an entity twice");
        EXPECT(same_f32(U(FAST_FIELD)(fv, pos, y, i), x->pos.y) && U(FAST_FIELD)(fv, kinds, i64, i) == x->kinds.i64 &&
               U(FAST_FIELD)(fv, kinds, ids, i)[1] == x->kinds.ids[1],
               "fast view values");
    }
    fault_mark();
    F(tagged_view_t) tv = F(query_tagged)(w);
    EXPECT(tv.count == (size_t)F(model_matches)(Q_TAGGED) || (tv.count == 0 && fault_hit()), "tagged view count");
    memset(seen, 0, sizeof seen);
    for (size_t i = 0; i < tv.count; i++) {
        F(ment_t) *x = F(find)(tv.entity[i]);
        EXPECT(x && F(match)(Q_TAGGED, x->has), "tagged view entity");
        EXPECT(seen[x - F(m).e]++ == 0, "tagged view lists an entity twice");
        EXPECT(same_f32(U(TAGGED_FIELD)(tv, pos, x, i), x->pos.x), "tagged view values");
    }
    /* built owns its pools: its entity array is pos's dense side (64-bit ids), rows 0..count-1 */
    F(built_view_t) bv = F(query_built)(w);
    EXPECT(U(BUILT_OWNED) && bv.count == (size_t)F(model_matches)(Q_BUILT), "built view count");
    memset(seen, 0, sizeof seen);
    for (size_t i = 0; i < bv.count; i++) {
        F(ment_t) *x = F(find)(bv.entity[i]);
        EXPECT(x && F(match)(Q_BUILT, x->has), "built view entity");
        EXPECT(seen[x - F(m).e]++ == 0, "built view lists an entity twice");
        EXPECT(&U(BUILT_FIELD)(bv, pos, x, i) == &w->components.pos.x[i] && same_f32(U(BUILT_FIELD)(bv, pos, x, i), x->pos.x) &&
               U(BUILT_FIELD)(bv, kinds, u16, i) == x->kinds.u16,
               "built view values");
    }
}

/* ---- Operations ----------------------------------------------------------------------- */

/* A call that should succeed may fail only when an allocation failed during it. */
static void F(result)(bool got, bool want, const char *what) {
    if (got == want) return;
    EXPECT(want && !got && fault_hit(), what);
}

static void F(gen_desc)(rd_t *r, F(spawn_desc_t) *d, F(pos_t) *p, F(vel_t) *v, F(kinds_t) *kd, unsigned *has) {
    unsigned mask = rd_u8(r);
    memset(d, 0, sizeof *d);
    *has = mask & 15u;
    if (mask & HAS_POS) *p = F(gen_pos)(r), d->pos = p;
    if (mask & HAS_VEL) *v = F(gen_vel)(r), d->vel = v;
    if (mask & HAS_KINDS) *kd = F(gen_kinds)(r), d->kinds = kd;
    if (mask & HAS_MARKED) d->marked = true;
}

/* What the header's inline spawn passes for a desc the compiler sees, made here at run time
 * from d: the bits of the components d names and their values' pointers, by pool index. */
static ecs_entity_t F(spawn_as_bits)(F(world_t) *w, const F(spawn_desc_t) *d) {
    F(_spawn_bits_t) bits = { { 0 } };
    const char *names[] = { "pos", "vel", "kinds", "marked" };
    const void *values[] = { d->pos, d->vel, d->kinds, NULL };
    const bool named[] = { d->pos != NULL, d->vel != NULL, d->kinds != NULL, d->marked };
    const void *parts[64];
    for (int k = 0; k < 4; k++) {
        if (!named[k]) continue;
        uint32_t bit = 0;
        while (strcmp(F(meta).components[F(meta).pooled[bit]].name, names[k]) != 0) bit++;
        bits.w[bit / 64] |= UINT64_C(1) << (bit % 64);
        parts[bit] = values[k];
    }
    return F(_spawn_bits)(w, bits, parts);
}

/* Room for one more entity: the model's, or the fixed world's. */
static bool F(room)(void) {
    return F(m).n < (FIXED ? FIXED_LIMIT : MAX_LIVE);
}

/* Spawns by desc, NULL or prefab; returns the new id (ECS_NULL if none). */
static ecs_entity_t F(op_spawn)(F(world_t) *w, rd_t *r, bool *with_components) {
    uint8_t how = rd_u8(r) % 5;
    bool full = F(m).n >= (FIXED ? FIXED_LIMIT : MAX_LIVE);
    if (F(m).n >= MAX_LIVE && !FIXED) return ECS_NULL;
    F(spawn_desc_t) d;
    F(pos_t) p;
    F(vel_t) v;
    F(kinds_t) kd;
    unsigned has = 0;
    ecs_entity_t e;
    fault_mark();
    switch (how) {
    case 0:
        F(gen_desc)(r, &d, &p, &v, &kd, &has);
        e = rd_u8(r) & 1u ? F(spawn_as_bits)(w, &d) : F(spawn)(w, &d); /* spawn's two bodies */
        break;
    case 1: e = F(spawn)(w, NULL); break;
    case 2:
        e = F(spawn_ship)(w);
        has = HAS_POS | HAS_VEL | HAS_MARKED;
        p = U(POS_DEFAULT), p.x = 1;
        v = U(VEL_DEFAULT), v.x = 2;
        break;
    case 3:
        e = F(spawn_crate)(w);
        has = HAS_KINDS;
        kd = U(KINDS_DEFAULT);
        kd.i32 = 5;
        memcpy(kd.name, "box", 4);
        kd.arr[0] = 1, kd.arr[1] = 2, kd.arr[2] = 3;
        break;
    default: e = F(spawn_empty)(w); break;
    }
    F(result)(e != ECS_NULL, !full, "spawn");
    if (e == ECS_NULL) return e;
    EXPECT(!F(find)(e), "spawn reissued a live id");
    for (int k = 0; k < F(m).ns && k < N_STALE; k++) EXPECT(F(m).stale[k] != e, "spawn reissued a stale id");
    F(ment_t) *x = F(model_spawn)(e);
    x->has = has;
    if (has & HAS_POS) x->pos = p;
    if (has & HAS_VEL) x->vel = v;
    if (has & HAS_KINDS) x->kinds = kd;
    if (with_components) *with_components = has != 0;
    return e;
}

static void F(op_destroy)(F(world_t) *w, ecs_entity_t e) {
    bool want = F(find)(e) != NULL;
    EXPECT(F(destroy)(w, e) == want, "destroy result");
    if (want) F(model_destroy)(e);
}

/* add (0), set (1) or remove (2) of component c on e; returns whether it added or removed one. */
static bool F(op_component)(F(world_t) *w, rd_t *r, ecs_entity_t e, int c, int how) {
    F(ment_t) *x = F(find)(e);
    unsigned bit = 1u << c;
    bool has = x && (x->has & bit);
    bool got, want;
    fault_mark();
    if (how == 2) {
        switch (c) {
        case 0: got = F(remove_pos)(w, e); break;
        case 1: got = F(remove_vel)(w, e); break;
        case 2: got = F(remove_kinds)(w, e); break;
        default: got = F(remove_marked)(w, e); break;
        }
        EXPECT(got == has, "remove result");
        if (got) x->has &= ~bit;
        return got;
    }
    F(pos_t) p = c == 0 ? F(gen_pos)(r) : U(POS_DEFAULT);
    F(vel_t) v = c == 1 ? F(gen_vel)(r) : U(VEL_DEFAULT);
    F(kinds_t) kd = c == 2 ? F(gen_kinds)(r) : U(KINDS_DEFAULT);
    bool set = how == 1 && c != 3;
    switch (c) {
    case 0: got = set ? F(set_pos)(w, e, p) : F(add_pos)(w, e, p); break;
    case 1: got = set ? F(set_vel)(w, e, v) : F(add_vel)(w, e, v); break;
    case 2: got = set ? F(set_kinds)(w, e, kd) : F(add_kinds)(w, e, kd); break;
    default: got = F(add_marked)(w, e); break;
    }
    want = x && (set || !has);
    F(result)(got, want, set ? "set result" : "add result");
    if (!got) return false;
    x->has |= bit;
    if (c == 0) x->pos = p;
    if (c == 1) x->vel = v;
    if (c == 2) x->kinds = kd;
    return !has;
}

/* Records a deferred change, or tries to: the model checks the result. */
/* Records change `what`: 0-3 add, 4-6 set, 7-10 remove (component what % 4 ...), 11 destroy,
 * 12 spawn (the only one that changes the world now). */
static void F(defer_one)(F(world_t) *w, rd_t *r, uint8_t what) {
    F(mcmd_t) c;
    memset(&c, 0, sizeof c);
    if (what == 12) { /* defer_spawn */
        if ((!FIXED && !F(room)()) || F(m).ncmd + 4 > MAX_CMDS) return;
        F(spawn_desc_t) d;
        unsigned has;
        F(gen_desc)(r, &d, &c.pos, &c.vel, &c.kinds, &has);
        int need = __builtin_popcount(has), need_vals = __builtin_popcount(has & 7u);
        bool fits = !FIXED || (F(m).ncmd + need <= FIXED_LIMIT && F(m).nvals + need_vals <= FIXED_LIMIT);
        bool full = F(m).n >= (FIXED ? FIXED_LIMIT : MAX_LIVE);
        fault_mark();
        ecs_entity_t e = F(defer_spawn)(w, &d);
        F(result)(e != ECS_NULL, fits && !full, "defer_spawn");
        if (e == ECS_NULL) return;
        F(model_spawn)(e);
        for (int k = 0; k < 4; k++) {
            if (!(has & (1u << k))) continue;
            c.op = OP_ADD;
            c.comp = k;
            c.id = e;
            F(m).cmd[F(m).ncmd++] = c;
            F(m).nvals += k < 3;
        }
        return;
    }
    if (F(m).ncmd >= MAX_CMDS) return;
    c.id = F(pick_id)(r);
    bool live = F(find)(c.id) != NULL;
    bool got;
    if (what == 11) {
        c.op = OP_DESTROY;
    } else {
        c.comp = what < 4 ? what : what < 7 ? what - 4 : what - 7;
        c.op = what < 4 ? OP_ADD : what < 7 ? OP_SET : OP_REMOVE;
        if (c.op != OP_REMOVE) {
            if (c.comp == 0) c.pos = F(gen_pos)(r);
            if (c.comp == 1) c.vel = F(gen_vel)(r);
            if (c.comp == 2) c.kinds = F(gen_kinds)(r);
        }
    }
    bool value = c.op != OP_DESTROY && c.op != OP_REMOVE && c.comp != 3;
    bool fits = !FIXED || (F(m).ncmd < FIXED_LIMIT && F(m).nvals + value <= FIXED_LIMIT);
    fault_mark();
    switch (c.op) {
    case OP_DESTROY: got = F(defer_destroy)(w, c.id); break;
    case OP_ADD:
        switch (c.comp) {
        case 0: got = F(defer_add_pos)(w, c.id, c.pos); break;
        case 1: got = F(defer_add_vel)(w, c.id, c.vel); break;
        case 2: got = F(defer_add_kinds)(w, c.id, c.kinds); break;
        default: got = F(defer_add_marked)(w, c.id); break;
        }
        break;
    case OP_SET:
        switch (c.comp) {
        case 0: got = F(defer_set_pos)(w, c.id, c.pos); break;
        case 1: got = F(defer_set_vel)(w, c.id, c.vel); break;
        default: got = F(defer_set_kinds)(w, c.id, c.kinds); break;
        }
        break;
    default:
        switch (c.comp) {
        case 0: got = F(defer_remove_pos)(w, c.id); break;
        case 1: got = F(defer_remove_vel)(w, c.id); break;
        case 2: got = F(defer_remove_kinds)(w, c.id); break;
        default: got = F(defer_remove_marked)(w, c.id); break;
        }
        break;
    }
    F(result)(got, live && fits, "defer result");
    if (!got) return;
    F(m).cmd[F(m).ncmd++] = c;
    F(m).nvals += value;
}

static void F(op_defer)(F(world_t) *w, rd_t *r) {
    F(defer_one)(w, r, rd_u8(r) % 13);
}

/* The model's side of one applied command: as the immediate call. */
static void F(model_apply)(const F(mcmd_t) *c) {
    F(ment_t) *x = F(find)(c->id);
    if (!x) return;
    if (c->op == OP_DESTROY) {
        F(model_destroy)(c->id);
        return;
    }
    unsigned bit = 1u << c->comp;
    if (c->op == OP_REMOVE) {
        x->has &= ~bit;
        return;
    }
    if (c->op == OP_ADD && (x->has & bit)) return;
    x->has |= bit;
    if (c->comp == 0) x->pos = c->pos;
    if (c->comp == 1) x->vel = c->vel;
    if (c->comp == 2) x->kinds = c->kinds;
}

static void F(op_apply)(F(world_t) *w) {
    int before = F(m).ncmd;
    fault_mark();
    bool ok = F(apply_deferred)(w);
    int left = (int)F(deferred_count)(w);
    EXPECT(left <= before, "apply grew the buffer");
    EXPECT(ok == (left == 0), "apply result");
    if (!ok) EXPECT(fault_hit() && !FIXED, "apply failed without a fault");
    int done = before - left;
    for (int k = 0; k < done; k++) F(model_apply)(&F(m).cmd[k]);
    memmove(F(m).cmd, F(m).cmd + done, (size_t)left * sizeof F(m).cmd[0]);
    F(m).ncmd = left;
    if (!left) F(m).nvals = 0;
}

/* ---- Hooks that call back in (docs/hooks.md, "What a hook may do") ------------------- */

/* What pos's on_remove does (mode), and what it saw. */
static struct {
    int mode, calls, loads_refused;
    bool nested_result;
} F(re);

static void F(reenter_hook)(F(world_t) *w, ecs_entity_t e, void *user) {
    (void)user;
    F(re).calls++;
    ecs_error_t err;
    switch (F(re).mode) {
    case 0: F(re).nested_result = F(destroy)(w, e); break;
    case 1: F(re).nested_result = F(remove_pos)(w, e); break;
    case 2: F(re).nested_result = F(apply_deferred)(w); break;
    default:
        if (!F(world_from_json)(w, "{\"schema\": \"x\"}", &err) && strstr(err.message, "not loaded: called from a hook"))
            F(re).loads_refused++;
        break;
    }
}

/* destroy(e) or remove_pos(e) with pos's on_remove destroying e, removing pos, applying the
 * buffer or loading; the model predicts the documented outcome. */
static void F(op_reenter)(F(world_t) *w, rd_t *r, uint8_t b) {
    fault_arm(0, 0); /* the hook's apply must run whole for the model below */
    ecs_entity_t e = F(pick_id)(r);
    bool remove = rd_u8(r) & 1;
    F(ment_t) *x = F(find)(e);
    bool has_pos = x && (x->has & HAS_POS);
    F(re).mode = b % 4;
    F(re).calls = F(re).loads_refused = 0;
    F(on_pos)(w, &(F(hooks_t)){ .on_remove = F(reenter_hook) });
    int ncmd = F(m).ncmd;
    bool got = remove ? F(remove_pos)(w, e) : F(destroy)(w, e);
    F(on_pos)(w, NULL);
    EXPECT(got == (remove ? has_pos : x != NULL), "re-entered call's result");
    if (F(re).mode != 2) {
        EXPECT(F(re).calls == (has_pos ? 1 : 0), "on_remove fired once");
        if (has_pos && F(re).mode == 0) EXPECT(F(re).nested_result == remove, "nested destroy's result");
        if (has_pos && F(re).mode == 1) EXPECT(!F(re).nested_result, "nested remove's result");
        if (F(re).mode == 3) EXPECT(F(re).loads_refused == F(re).calls, "a load from a hook was not refused");
    }
    if (has_pos && F(re).mode == 2) { /* the hook applied the buffer (nested ones did nothing) */
        EXPECT(F(re).nested_result, "apply from a hook");
        EXPECT(F(deferred_count)(w) == 0, "apply from a hook left changes");
        for (int k = 0; k < ncmd; k++) {
            const F(mcmd_t) *c = &F(m).cmd[k];
            /* while e's destroy runs, changes to e vanish with it; while its pos leaves, changes
             * to its pos are undone by the removal (a destroy of e still destroys it) */
            if (c->id == e && (!remove || (c->op != OP_DESTROY && c->comp == 0))) continue;
            F(model_apply)(c);
        }
        F(m).ncmd = F(m).nvals = 0;
        x = F(find)(e);
    }
    if (!got) return;
    if (!remove || F(re).mode == 0) {
        if (x) F(model_destroy)(e);
    } else if (x) {
        x->has &= ~(unsigned)HAS_POS;
    }
}

/* ---- Loops ---------------------------------------------------------------------------- */

typedef struct {
    ecs_entity_t id[TALLY];
    int visits[TALLY];
    bool expected[TALLY]; /* matched at the start, and nothing excused it since */
    int n;
    bool slot_walk; /* every component named has slot storage: a spawned entity may be met */
} F(tally_t);

static int F(tally_slot)(F(tally_t) *t, ecs_entity_t id) {
    for (int k = 0; k < t->n; k++)
        if (t->id[k] == id) return k;
    if (t->n == TALLY) return -1;
    t->id[t->n] = id;
    t->visits[t->n] = 0;
    t->expected[t->n] = false;
    return t->n++;
}

/* Entities that stop matching q (by a change to them made in the loop) are excused. */
static void F(tally_refresh)(F(tally_t) *t, int q) {
    for (int k = 0; k < t->n; k++) {
        F(ment_t) *x = F(find)(t->id[k]);
        if (!x || !F(match)(q, x->has)) t->expected[k] = false;
    }
}

/* One change allowed in a macro loop's body (docs/iteration.md), on it.id or others. */
static void F(loop_change)(F(world_t) *w, rd_t *r, ecs_entity_t cur, bool *cur_alive, bool *grew, F(tally_t) *t) {
    uint8_t what = rd_u8(r) % 10;
    switch (what) {
    case 0: /* destroy the current entity */
        if (*cur_alive) {
            F(op_destroy)(w, cur);
            *cur_alive = false;
        }
        break;
    case 1: case 2: /* add, set or remove a component of the current entity */
        if (*cur_alive) {
            int c = rd_u8(r) % 4, how = rd_u8(r) % 3;
            if (F(op_component)(w, r, cur, c, how)) *grew = true;
        }
        break;
    case 3: { /* add a component to another entity (set only where it has it: set-adds count as adds) */
        ecs_entity_t o = F(pick_id)(r);
        int c = rd_u8(r) % 4, how = rd_u8(r) % 2;
        if (F(op_component)(w, r, o, c, how)) *grew = true;
        break;
    }
    case 4: { /* spawn: never visited */
        bool comps = false;
        if (!F(room)() && !FIXED) break;
        ecs_entity_t e = F(op_spawn)(w, r, &comps);
        if (e != ECS_NULL) {
            int s = F(tally_slot)(t, e);
            /* Spawned ones are never visited (-1: a visit finds it non-zero), except by a loop
             * that walks the entity slots, which meets one in a free slot it has not reached. */
            if (s >= 0) t->visits[s] = t->slot_walk ? 0 : -1;
            if (comps) *grew = true;
        }
        break;
    }
    case 5: case 6: F(op_defer)(w, r); break;
    case 7: { /* change values in place */
        F(ment_t) *x = F(find)(F(pick_live)(r));
        if (x && (x->has & HAS_POS)) {
            float nx = rd_f32(r);
            *F(ref_pos)(w, x->id).x = nx;
            x->pos.x = nx;
        }
        break;
    }
    case 8: /* singleton */
        F(m).clock.tick += rd_u8(r);
        F(singleton_clock)(w)->tick = F(m).clock.tick;
        break;
    default: /* an inner view: allowed unless this loop spawned with, added or removed components */
        if (!*grew) F(check_views)(w);
        break;
    }
}

static void F(op_loop)(F(world_t) *w, rd_t *r) {
    int q = rd_u8(r) % Q_KINDS;
    F(tally_t) t;
    t.n = 0;
    t.slot_walk = q == Q_MARKED; /* marked has slot storage */
    for (int k = 0; k < F(m).n; k++)
        if (F(match)(q, F(m).e[k].has)) {
            int s = F(tally_slot)(&t, F(m).e[k].id);
            t.expected[s] = true;
        }
    bool grew = false, broke = false;
    int steps = 0;
#define LOOP_BODY(ROWCHECK)                                                                     \
    {                                                                                           \
        F(ment_t) *x = F(find)(it.id);                                                          \
        EXPECT(x != NULL, "loop visits a dead entity");                                         \
        EXPECT(F(match)(q, x->has), "loop visits an entity that does not match");               \
        int s = F(tally_slot)(&t, it.id);                                                       \
        EXPECT(s >= 0, "tally full");                                                           \
        EXPECT(t.visits[s] == 0, "loop visits an entity twice, or a spawned one");              \
        t.visits[s]++;                                                                          \
        ROWCHECK;                                                                               \
        bool alive_now = true;                                                                  \
        int changes = rd_u8(r) % 4;                                                             \
        for (int c = 0; c < changes && !rd_done(r); c++)                                        \
            F(loop_change)(w, r, it.id, &alive_now, &grew, &t);                                 \
        F(tally_refresh)(&t, q);                                                                \
        if (++steps > 4 * MAX_LIVE) EXPECT(0, "loop runs away");                               \
        if (rd_u8(r) == 0xff) {                                                                 \
            broke = true;                                                                       \
            break;                                                                              \
        }                                                                                       \
    }
    switch (q) {
    case Q_POS:
        U(EACH)(w, it, pos) LOOP_BODY(EXPECT(same_f32(U(FIELD)(it, pos, x), x->pos.x), "row value"))
        break;
    case Q_MOVE:
        U(EACH_MOVE)(w, it) LOOP_BODY(EXPECT(same_f64(U(FIELD)(it, vel, x), x->vel.x), "row value"))
        break;
    case Q_FAST:
        U(EACH_FAST)(w, it) LOOP_BODY(EXPECT(U(FIELD)(it, kinds, u64) == x->kinds.u64 &&
                                                 same_f32(U(FIELD)(it, pos, y), x->pos.y), "row value"))
        break;
    case Q_TAGGED:
        U(EACH_TAGGED)(w, it) LOOP_BODY(EXPECT(same_f32(U(FIELD)(it, pos, x), x->pos.x), "row value"))
        break;
    case Q_KINDS_NO_VEL:
        U(EACH_WITHOUT)(w, it, (vel), pos, kinds) LOOP_BODY(EXPECT(U(FIELD)(it, kinds, i32) == x->kinds.i32, "row value"))
        break;
    case Q_MARKED:
        U(EACH)(w, it, marked) LOOP_BODY((void)0)
        break;
    default: /* Q_BUILT */
        U(EACH_BUILT)(w, it) LOOP_BODY(EXPECT(U(FIELD)(it, kinds, i16) == x->kinds.i16 &&
                                                  same_f32(U(FIELD)(it, pos, x), x->pos.x), "row value"))
        break;
    }
#undef LOOP_BODY
    if (broke) return;
    for (int k = 0; k < t.n; k++)
        if (t.expected[k]) EXPECT(t.visits[k] == 1, "loop skipped an entity that matched throughout");
}

/* A view's loop: values change through the view; structural changes are deferred. */
static void F(op_view_loop)(F(world_t) *w, rd_t *r) {
    F(check_views)(w);
    uint8_t which = rd_u8(r) % 3;
    if (which == 0) {
        F(move_view_t) v = F(query_move)(w);
        for (size_t i = 0; i < v.count; i++) {
            F(ment_t) *x = F(find)(v.entity[i]);
            EXPECT(x != NULL, "view entity");
            U(MOVE_FIELD)(v, pos, x, i) += 1.0f;
            x->pos.x += 1.0f;
            if (rd_u8(r) % 4 == 0) F(op_defer)(w, r);
        }
    } else if (which == 1) {
        F(fast_view_t) v = F(query_fast)(w);
        for (size_t i = 0; i < v.count; i++) {
            F(ment_t) *x = F(find)(v.entity[i]);
            EXPECT(x != NULL, "view entity");
            U(FAST_FIELD)(v, kinds, u32, i) ^= 0x5au;
            x->kinds.u32 ^= 0x5au;
            if (rd_u8(r) % 4 == 0) F(op_defer)(w, r);
        }
    } else {
        F(tagged_view_t) v = F(query_tagged)(w);
        for (size_t i = 0; i < v.count; i++) {
            F(ment_t) *x = F(find)(v.entity[i]);
            EXPECT(x != NULL, "view entity");
            U(TAGGED_FIELD)(v, pos, y, i) = 3.0f;
            x->pos.y = 3.0f;
            if (rd_u8(r) % 4 == 0) F(op_defer)(w, r);
            if (rd_u8(r) % 8 == 0 && F(room)()) {
                fault_mark();
                ecs_entity_t e = F(spawn)(w, NULL); /* no components: safe in a view's loop */
                F(result)(e != ECS_NULL, F(m).n < (FIXED ? FIXED_LIMIT : MAX_LIVE), "spawn in view");
                if (e != ECS_NULL) F(model_spawn)(e);
            }
        }
    }
    if (rd_u8(r) & 1) F(op_apply)(w);
}

/* ---- JSON ----------------------------------------------------------------------------- */

static void F(op_json)(F(world_t) *w, rd_t *r) {
    /* A save with changes waiting stops a debug build (docs/iteration.md): apply them first
     * (no save while a fault keeps some); the reload below drops changes recorded after it. */
    if (F(m).ncmd) F(op_apply)(w);
    if (F(m).ncmd) return;
    fault_mark();
    char *first = F(world_to_json)(w);
    if (!first) {
        EXPECT(fault_hit(), "world_to_json failed without a fault");
        return;
    }
    F(world_t) *again = F(world_new)();
    ecs_error_t err;
    if (again) {
        fault_mark();
        bool ok = F(world_from_json)(again, first, &err);
        if (!ok) {
            if (!fault_hit()) fprintf(stderr, "%s\n%s\n", err.message, first);
            EXPECT(fault_hit(), "a saved world does not load");
        } else {
            char *second = F(world_to_json)(again);
            if (second) EXPECT(!strcmp(first, second), "save -> load -> save differs");
            free(second);
        }
        F(world_free)(again);
    }
    if (rd_u8(r) & 1) { /* load it into the world itself: same contents, the buffer discarded */
        for (int k = rd_u8(r) % 3; k > 0; k--) F(defer_one)(w, r, rd_u8(r) % 12); /* no spawn: the world stays the document's */
        fault_mark();
        if (F(world_from_json)(w, first, &err)) {
            F(m).ncmd = F(m).nvals = 0;
            F(m).ns = 0; /* ids the document does not mention may be reissued */
        } else {
            EXPECT(fault_hit(), "reloading a saved world failed");
        }
    }
    if (F(m).n) {
        ecs_entity_t e = F(pick_live)(r);
        fault_mark();
        char *one = F(entity_to_json)(w, e);
        EXPECT(one || fault_hit(), "entity_to_json");
        free(one);
    }
    free(first);
}

/* ---- The run -------------------------------------------------------------------------- */

static void F(run)(rd_t *r) {
    memset(&F(m), 0, sizeof F(m));
    F(m).clock = U(CLOCK_DEFAULT);
    F(world_t) *w = F(world_new)();
    if (!w) return;
    while (!rd_done(r)) {
        uint8_t op = rd_u8(r);
        unsigned long before = hook.calls;
        switch (op % 16) {
        case 0: case 1: F(op_spawn)(w, r, NULL); break;
        case 2: F(op_destroy)(w, F(pick_id)(r)); break;
        case 3: case 4: case 5: {
            ecs_entity_t e = F(pick_id)(r);
            int c = rd_u8(r) % 4, how = rd_u8(r) % 3;
            F(op_component)(w, r, e, c, how);
            break;
        }
        case 6: { /* singleton */
            F(clock_t) *c = F(singleton_clock)(w);
            c->tick = F(m).clock.tick = rd_u64(r);
            rd_text(r, F(m).clock.label, sizeof F(m).clock.label);
            memcpy(c->label, F(m).clock.label, sizeof c->label);
            break;
        }
        case 7: case 8: F(op_loop)(w, r); break;
        case 9: F(op_view_loop)(w, r); break;
        case 10: F(op_defer)(w, r); break;
        case 11: F(op_apply)(w); break;
        case 12: F(op_json)(w, r); break;
        case 13: { /* views, or now and then hooks that call back in */
            uint8_t b = rd_u8(r);
            if (b < 192) F(check_views)(w);
            else F(op_reenter)(w, r, b);
            break;
        }
        case 14: {
            uint8_t countdown = rd_u8(r);
            fault_arm(countdown, rd_u8(r));
            break;
        }
        default: { /* a burst of spawns and adds: fills pending lists and fixed storage */
            int n = rd_u8(r) % 32;
            for (int k = 0; k < n; k++) {
                ecs_entity_t e = F(op_spawn)(w, r, NULL);
                if (e != ECS_NULL) F(op_component)(w, r, e, rd_u8(r) % 4, 0);
            }
            break;
        }
        }
        /* Fixed storage allocates nothing after world_new, JSON aside. */
        if (FIXED && op % 16 != 12) EXPECT(hook.calls == before, "a fixed-storage world allocated");
        F(check_world)(w);
    }
    fault_arm(0, 0);
    F(check_views)(w);
    F(op_apply)(w);
    F(check_world)(w);
    F(check_views)(w);
    F(world_free)(w);
}

#undef F
#undef U
