/* test_model.c: a long seeded random run of spawn/destroy/add/remove/set/get on the kitchen
 * schema, checked against a plain reference model: the touched entity after every step, and
 * everything (every entity, pool sizes, stale ids, iteration results) every CHECK_EVERY steps.
 *     test_model [seed]     (a failure prints the seed, to replay it) */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kit_ecs.h"

enum {
    STEPS = 300000,
    TARGET = 24000,      /* live entities the run grows to and then hovers around */
    MAX_SLOTS = 1 << 16, /* the model's slot table: more than the run ever uses */
    CHECK_EVERY = 10000,
    STALE_KEPT = 4096,
};

/* The reference model: per slot index, the live id (0 if none) and its components. */
typedef struct model_entity {
    ecs_entity_t id;
    bool has_pos, has_vel, has_label, has_link, hidden, marked;
    kit_pos_t pos;
    kit_vel_t vel;
    kit_label_t label;
    kit_link_t link;
} model_entity_t;

static model_entity_t model[MAX_SLOTS];
static ecs_entity_t live[MAX_SLOTS]; /* live ids, unordered */
static uint32_t live_count;
static uint32_t live_pos[MAX_SLOTS]; /* slot index -> position in live[] */
static ecs_entity_t stale[STALE_KEPT];
static uint32_t stale_count;

static uint64_t rng_state;
static uint64_t rng(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717u;
}
static uint32_t below(uint32_t n) { return (uint32_t)(rng() % n); }

static uint64_t seed;
static long step;
static bool reported;

/* CHECK (cond evaluated once: it may be the call under test), with the seed and step
 * printed at the first failure. */
#define MCHECK(cond)                                                                        \
    do {                                                                                    \
        bool mcheck_ok_ = (cond);                                                           \
        if (!mcheck_ok_ && !reported) {                                                     \
            reported = true;                                                                \
            fprintf(stderr, "test_model: seed %" PRIu64 ", step %ld: rerun with "          \
                    "`test_model %" PRIu64 "`\n", seed, step, seed);                       \
        }                                                                                   \
        if (!mcheck_ok_) fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
        check_count++;                                                                      \
        check_failures += !mcheck_ok_;                                                      \
    } while (0)

static kit_pos_t random_pos(void) { return (kit_pos_t){ (double)below(1000) - 500, below(1u << 20) / 1024.0 }; }
static kit_vel_t random_vel(void) { return (kit_vel_t){ (int32_t)rng(), (int32_t)below(100) - 50 }; }
static kit_label_t random_label(void) {
    kit_label_t l = { 0 };
    snprintf(l.text, sizeof l.text, "e%" PRIu32, below(1000000));
    l.blank[0] = (char)('a' + below(26));
    return l;
}
static kit_link_t random_link(void) { return (kit_link_t){ live_count ? live[below(live_count)] : ECS_NULL }; }

/* A live id (most of the time) or a stale one or ECS_NULL: the target of the next call. */
static ecs_entity_t pick(void) {
    uint32_t r = below(100);
    if (r < 6 && stale_count) return stale[below(stale_count)];
    if (r == 6) return ECS_NULL;
    return live_count ? live[below(live_count)] : ECS_NULL;
}

/* The model's entry for e, or NULL when e is not live in the model. */
static model_entity_t *lookup(ecs_entity_t e) {
    uint32_t i = ecs_entity_index(e);
    return e != ECS_NULL && i < MAX_SLOTS && model[i].id == e ? &model[i] : NULL;
}

static bool same_label(const kit_label_t *a, const kit_label_t *b) { return memcmp(a, b, sizeof *a) == 0; }

/* Everything the world says about e agrees with the model. */
static void check_entity(const kit_world_t *w, ecs_entity_t e) {
    model_entity_t *m = lookup(e);
    MCHECK(kit_alive(w, e) == (m != NULL));
    if (!m) {
        MCHECK(!kit_has_pos(w, e) && !kit_has_vel(w, e) && !kit_has_label(w, e) && !kit_has_link(w, e));
        MCHECK(!kit_has_hidden(w, e) && !kit_has_marked(w, e));
        return;
    }
    MCHECK(kit_has_pos(w, e) == m->has_pos);
    MCHECK(kit_has_vel(w, e) == m->has_vel);
    MCHECK(kit_has_label(w, e) == m->has_label);
    MCHECK(kit_has_link(w, e) == m->has_link);
    MCHECK(kit_has_hidden(w, e) == m->hidden);
    MCHECK(kit_has_marked(w, e) == m->marked);
    MCHECK(!kit_has_scalars(w, e));
    if (m->has_pos) {
        kit_pos_t p = kit_get_pos(w, e);
        MCHECK(p.x == m->pos.x && p.y == m->pos.y);
    }
    if (m->has_vel) {
        kit_vel_t v = kit_get_vel(w, e);
        MCHECK(v.dx == m->vel.dx && v.dy == m->vel.dy);
    }
    if (m->has_label) {
        kit_label_t l = kit_get_label(w, e);
        MCHECK(same_label(&l, &m->label));
    }
    if (m->has_link) MCHECK(kit_get_link(w, e).other == m->link.other);
}

static void model_add_live(ecs_entity_t e) {
    uint32_t i = ecs_entity_index(e);
    live_pos[i] = live_count;
    live[live_count++] = e;
}

static void model_destroy(model_entity_t *m) {
    uint32_t i = ecs_entity_index(m->id);
    uint32_t at = live_pos[i];
    live[at] = live[--live_count];
    live_pos[ecs_entity_index(live[at])] = at;
    stale[stale_count < STALE_KEPT ? stale_count++ : below(STALE_KEPT)] = m->id;
    memset(m, 0, sizeof *m);
}

/* The whole world against the model, including what the iteration macros visit. */
static uint8_t seen[MAX_SLOTS];

static void check_all(const kit_world_t *w_const) {
    kit_world_t *w = (kit_world_t *)w_const;
    MCHECK(kit_count(w) == live_count);
    size_t n_pos = 0, n_vel = 0, n_label = 0, n_link = 0, n_hidden = 0, n_marked = 0;
    size_t n_pos_vel = 0, n_moving = 0;
    for (uint32_t k = 0; k < live_count; k++) {
        model_entity_t *m = lookup(live[k]);
        check_entity(w, live[k]);
        n_pos += m->has_pos, n_vel += m->has_vel, n_label += m->has_label, n_link += m->has_link;
        n_hidden += m->hidden, n_marked += m->marked;
        n_pos_vel += m->has_pos && m->has_vel;
        n_moving += m->has_pos && m->has_vel && !m->hidden && !m->marked;
    }
    for (uint32_t k = 0; k < stale_count; k++) check_entity(w, stale[k]);
    MCHECK(w->components.pos.set.count == n_pos);
    MCHECK(w->components.vel.set.count == n_vel);
    MCHECK(w->components.label.set.count == n_label);
    MCHECK(w->components.link.set.count == n_link);
    MCHECK(w->components.hidden.set.count == n_hidden);
    MCHECK(w->components.marked.set.count == n_marked);
    /* nonempty_pools holds exactly the pools with members, bit k for the k-th pool in schema
     * order: destroy and the JSON writer skip the others. */
    const ecs_sparse_t *pools[] = { &w->components.scalars.set, &w->components.floats.set, &w->components.label.set,
                                    &w->components.arrays.set, &w->components.state.set, &w->components.link.set,
                                    &w->components.pos.set, &w->components.vel.set, &w->components.hidden.set,
                                    &w->components.marked.set };
    for (unsigned k = 0; k < sizeof pools / sizeof *pools; k++)
        MCHECK(((w->nonempty_pools[0] >> k) & 1u) == (pools[k]->count > 0));
    MCHECK(w->nonempty_pools[0] >> (sizeof pools / sizeof *pools) == 0);

    /* EACH over two components visits exactly the model's intersection, once each, with
     * rows that hold the entity's values. */
    memset(seen, 0, sizeof seen);
    size_t visited = 0, wrong = 0;
    KIT_EACH(w, it, pos, vel) {
        model_entity_t *m = lookup(it.id);
        visited++;
        if (!m || !m->has_pos || !m->has_vel || seen[ecs_entity_index(it.id)]++) {
            wrong++;
            continue;
        }
        wrong += w->components.pos.x[it.pos] != m->pos.x || w->components.vel.dy[it.vel] != m->vel.dy;
    }
    MCHECK(visited == n_pos_vel);
    MCHECK(wrong == 0);

    /* The declared query with `none` terms, and three components with a tag. */
    visited = wrong = 0;
    memset(seen, 0, sizeof seen);
    KIT_EACH_MOVING(w, it) {
        model_entity_t *m = lookup(it.id);
        visited++;
        wrong += !m || !m->has_pos || !m->has_vel || m->hidden || m->marked || seen[ecs_entity_index(it.id)]++;
    }
    MCHECK(visited == n_moving);
    MCHECK(wrong == 0);
    size_t expect = 0;
    for (uint32_t k = 0; k < live_count; k++) {
        model_entity_t *m = lookup(live[k]);
        expect += m->has_label && m->has_link && m->marked;
    }
    visited = wrong = 0;
    KIT_EACH(w, it, link, marked, label) {
        model_entity_t *m = lookup(it.id);
        visited++;
        wrong += !m || !m->has_label || !m->has_link || !m->marked ||
                 w->components.link.other[it.link] != m->link.other;
    }
    MCHECK(visited == expect);
    MCHECK(wrong == 0);
}

/* Structural changes inside a loop: over pos and vel, destroy some matches, take vel or pos
 * from others, and spawn matching entities; every match present at the start is visited
 * once, none spawned during the loop is. */
static void sweep(kit_world_t *w) {
    memset(seen, 0, sizeof seen);
    size_t expect = 0, visited = 0, wrong = 0;
    for (uint32_t k = 0; k < live_count; k++) {
        model_entity_t *m = lookup(live[k]);
        expect += m->has_pos && m->has_vel;
    }
    KIT_EACH(w, it, pos, vel) {
        model_entity_t *m = lookup(it.id);
        visited++;
        if (!m || !m->has_pos || !m->has_vel || seen[ecs_entity_index(it.id)]) {
            wrong++;
            continue;
        }
        uint32_t r = below(8);
        if (r == 0) {
            MCHECK(kit_destroy(w, it.id));
            model_destroy(m);
            continue; /* its slot may be reused below: do not mark it seen */
        }
        seen[ecs_entity_index(it.id)] = 1;
        if (r == 1) {
            MCHECK(kit_remove_vel(w, it.id));
            m->has_vel = false;
        } else if (r == 2) {
            MCHECK(kit_remove_pos(w, it.id));
            m->has_pos = false;
        } else if (r == 3) {
            kit_pos_t p = random_pos();
            kit_vel_t v = random_vel();
            ecs_entity_t e = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &p, .vel = &v });
            MCHECK(e != ECS_NULL && ecs_entity_index(e) < MAX_SLOTS && !lookup(e));
            if (e == ECS_NULL || ecs_entity_index(e) >= MAX_SLOTS) continue;
            model[ecs_entity_index(e)] = (model_entity_t){ .id = e, .has_pos = true, .has_vel = true, .pos = p, .vel = v };
            model_add_live(e);
            seen[ecs_entity_index(e)] = 2; /* a visit to it now counts as wrong */
        }
    }
    MCHECK(visited == expect);
    MCHECK(wrong == 0);
}

/* One random call, applied to the world and to the model. */
static void random_step(kit_world_t *w) {
    bool growing = live_count < TARGET;
    uint32_t spawn_odds = growing ? 30 : 12, destroy_odds = spawn_odds + (growing ? 6 : 12);
    uint32_t op = below(100);
    ecs_entity_t e = ECS_NULL;
    model_entity_t *m;

    if (op < spawn_odds) { /* spawn */
        kit_pos_t p = random_pos();
        kit_vel_t v = random_vel();
        kit_label_t l = random_label();
        kit_link_t k = random_link();
        uint32_t bits = below(64);
        e = kit_spawn(w, bits == 0 ? NULL : &(kit_spawn_desc_t){
            .pos = bits & 1 ? &p : NULL, .vel = bits & 2 ? &v : NULL, .label = bits & 4 ? &l : NULL,
            .link = bits & 8 ? &k : NULL, .hidden = bits & 16, .marked = bits & 32 });
        MCHECK(e != ECS_NULL && ecs_entity_index(e) < MAX_SLOTS);
        if (e == ECS_NULL || ecs_entity_index(e) >= MAX_SLOTS) return;
        m = &model[ecs_entity_index(e)];
        MCHECK(m->id == ECS_NULL); /* the slot was free */
        *m = (model_entity_t){ .id = e, .has_pos = bits & 1, .has_vel = bits & 2, .has_label = bits & 4,
                               .has_link = bits & 8, .hidden = bits & 16, .marked = bits & 32,
                               .pos = p, .vel = v, .label = l, .link = k };
        model_add_live(e);
    } else if (op < destroy_odds) { /* destroy */
        e = pick();
        m = lookup(e);
        MCHECK(kit_destroy(w, e) == (m != NULL));
        if (m) model_destroy(m);
    } else {
        e = pick();
        m = lookup(e);
        uint32_t which = below(6);
        uint32_t call = below(4); /* add, set, remove, get */
        bool ok;
        switch (which) {
        case 0: {
            kit_pos_t p = random_pos();
            if (call == 0) {
                ok = kit_add_pos(w, e, p);
                MCHECK(ok == (m && !m->has_pos));
                if (ok) m->has_pos = true, m->pos = p;
            } else if (call == 1) {
                MCHECK(kit_set_pos(w, e, p) == (m != NULL));
                if (m) m->has_pos = true, m->pos = p;
            } else if (call == 2) {
                MCHECK(kit_remove_pos(w, e) == (m && m->has_pos));
                if (m) m->has_pos = false;
            } else if (m && m->has_pos) {
                kit_pos_ref_t r = kit_ref_pos(w, e); /* write through a ref */
                *r.x = p.x;
                m->pos.x = p.x;
            }
            break;
        }
        case 1: {
            kit_vel_t v = random_vel();
            if (call == 0) {
                ok = kit_add_vel(w, e, v);
                MCHECK(ok == (m && !m->has_vel));
                if (ok) m->has_vel = true, m->vel = v;
            } else if (call == 1) {
                MCHECK(kit_set_vel(w, e, v) == (m != NULL));
                if (m) m->has_vel = true, m->vel = v;
            } else if (call == 2) {
                MCHECK(kit_remove_vel(w, e) == (m && m->has_vel));
                if (m) m->has_vel = false;
            } else {
                MCHECK((kit_ref_vel(w, e).dx != NULL) == (m && m->has_vel));
            }
            break;
        }
        case 2: {
            kit_label_t l = random_label();
            if (call == 0) {
                ok = kit_add_label(w, e, l);
                MCHECK(ok == (m && !m->has_label));
                if (ok) m->has_label = true, m->label = l;
            } else if (call == 1) {
                MCHECK(kit_set_label(w, e, l) == (m != NULL));
                if (m) m->has_label = true, m->label = l;
            } else if (call == 2) {
                MCHECK(kit_remove_label(w, e) == (m && m->has_label));
                if (m) m->has_label = false;
            }
            break;
        }
        case 3: {
            kit_link_t k = random_link();
            if (call == 0) {
                ok = kit_add_link(w, e, k);
                MCHECK(ok == (m && !m->has_link));
                if (ok) m->has_link = true, m->link = k;
            } else if (call == 1) {
                MCHECK(kit_set_link(w, e, k) == (m != NULL));
                if (m) m->has_link = true, m->link = k;
            } else if (call == 2) {
                MCHECK(kit_remove_link(w, e) == (m && m->has_link));
                if (m) m->has_link = false;
            }
            break;
        }
        case 4:
            if (call < 2) {
                ok = kit_add_hidden(w, e);
                MCHECK(ok == (m && !m->hidden));
                if (ok) m->hidden = true;
            } else {
                MCHECK(kit_remove_hidden(w, e) == (m && m->hidden));
                if (m) m->hidden = false;
            }
            break;
        default:
            if (call < 2) {
                ok = kit_add_marked(w, e);
                MCHECK(ok == (m && !m->marked));
                if (ok) m->marked = true;
            } else {
                MCHECK(kit_remove_marked(w, e) == (m && m->marked));
                if (m) m->marked = false;
            }
            break;
        }
    }
    check_entity(w, e);
    /* and one other entity, whose row the call may have moved */
    if (live_count) check_entity(w, live[below(live_count)]);
}

int main(int argc, char **argv) {
    seed = argc > 1 ? strtoull(argv[1], NULL, 10) : UINT64_C(20261122);
    rng_state = seed ? seed : 1;
    kit_world_t *w = kit_world_new();
    size_t peak = 0;
    for (step = 0; step < STEPS; step++) {
        random_step(w);
        if (live_count > peak) peak = live_count;
        if (step % CHECK_EVERY == CHECK_EVERY - 1) {
            check_all(w);
            sweep(w);
            check_all(w);
            if (live_count > peak) peak = live_count;
        }
        if (check_failures > 20) break; /* enough to go on */
    }
    check_all(w);
    MCHECK(peak >= 20000);
    printf("test_model: seed %" PRIu64 ", %ld steps, peak %zu live entities, %" PRIu32 " at the end\n", seed,
           step, peak, live_count);
    kit_world_free(w);
    return check_finish("test_model");
}
