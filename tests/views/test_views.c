/* test_views.c: query views stay exact under random spawn, add, remove, set and destroy.
 *
 * The schema (tests/views/views.json) has nested owned queries (move inside move_free, heavy
 * inside move_free), an alias (again = move), a query that cannot own (draw: position is
 * owned by move) and a tag-only one. After every few random operations each view must list
 * every matching entity exactly once and nothing else, with the right values at its rows;
 * owned views must be packed at rows 0..count-1 of each pool. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "views_ecs.h"

#define SLOTS 600
#define STEPS 30000

enum { POSITION, VELOCITY, SPRITE, MASS, FROZEN, HIDDEN, KINDS };

typedef struct shadow {
    ecs_entity_t id; /* ECS_NULL: slot not live */
    bool has[KINDS];
    float px, vx;
    double kg;
    char name[8];
} shadow_t;

static shadow_t shadow[SLOTS];
static uint64_t rng = 88172645463325252ull;

static uint32_t rnd(uint32_t n) { return (uint32_t)(check_xorshift(&rng) % n); }

static shadow_t *of(ecs_entity_t e) {
    return &shadow[ecs_entity_index(e)];
}

static bool matches(const shadow_t *s, const int *all, size_t nall, const int *none, size_t nnone) {
    for (size_t k = 0; k < nall; k++)
        if (!s->has[all[k]]) return false;
    for (size_t k = 0; k < nnone; k++)
        if (s->has[none[k]]) return false;
    return true;
}

/* Checks one view against the shadow: each match once, nothing else, values at ROW. */
#define VERIFY(q, Q, pool0, ALL, NONE)                                                        \
    do {                                                                                      \
        static const int all_[] = ALL, none_[] = NONE;                                        \
        static bool seen_[SLOTS];                                                             \
        memset(seen_, 0, sizeof seen_);                                                       \
        views_##q##_view_t v = views_query_##q(w);                                            \
        for (size_t i = 0; i < v.count; i++) {                                                \
            ecs_entity_t e = v.entity[i];                                                     \
            CHECK(views_alive(w, e));                                                         \
            shadow_t *s = of(e);                                                              \
            CHECK(!seen_[ecs_entity_index(e)]);                                               \
            seen_[ecs_entity_index(e)] = true;                                                \
            CHECK(matches(s, all_, sizeof all_ / sizeof *all_, none_, sizeof none_ / sizeof *none_ - 1)); \
            VALUES_##q(v, s, i);                                                              \
            if (VIEWS_##Q##_OWNED) CHECK_EQ(ecs_sparse_id(&w->components.pool0.set, i, w->entities.generation), e);       \
        }                                                                                     \
        size_t expected_ = 0;                                                                 \
        for (int k = 0; k < SLOTS; k++) {                                                     \
            if (!shadow[k].id || !matches(&shadow[k], all_, sizeof all_ / sizeof *all_, none_, \
                                          sizeof none_ / sizeof *none_ - 1)) continue;        \
            expected_++;                                                                      \
            CHECK(seen_[k]);                                                                  \
        }                                                                                     \
        CHECK_EQ(v.count, expected_);                                                         \
        size_t each_ = 0;                                                                     \
        VIEWS_EACH_##Q(w, it) each_++;                                                        \
        CHECK_EQ(each_, expected_);                                                           \
    } while (0)

/* `none` lists end with -1 (C has no empty initializers), hence the `- 1` above. */
#define L(...) { __VA_ARGS__ }
#define VALUES_move(v, s, i)                                                                  \
    CHECK(VIEWS_MOVE_FIELD(v, position, x, i) == s->px &&                                     \
          VIEWS_MOVE_FIELD(v, velocity, x, i) == s->vx)
#define VALUES_again(v, s, i) VALUES_move(v, s, i)
#define VALUES_move_free(v, s, i)                                                             \
    CHECK(VIEWS_MOVE_FREE_FIELD(v, position, x, i) == s->px &&                                \
          VIEWS_MOVE_FREE_FIELD(v, velocity, x, i) == s->vx &&                                \
          VIEWS_MOVE_FREE_FIELD(v, mass, kg, i) == s->kg)
#define VALUES_draw(v, s, i)                                                                  \
    CHECK(VIEWS_DRAW_FIELD(v, position, x, i) == s->px &&                                     \
          !strcmp(VIEWS_DRAW_FIELD(v, sprite, name, i), s->name))
#define VALUES_heavy(v, s, i) CHECK(VIEWS_HEAVY_FIELD(v, mass, kg, i) == s->kg)
#define VALUES_tagged(v, s, i) (void)(v)

static void verify(views_world_t *w) {
    VERIFY(move, MOVE, position, L(POSITION, VELOCITY), L(-1));
    VERIFY(again, AGAIN, position, L(POSITION, VELOCITY), L(-1));
    VERIFY(move_free, MOVE_FREE, position, L(POSITION, VELOCITY, MASS), L(FROZEN, -1));
    VERIFY(draw, DRAW, position, L(POSITION, SPRITE), L(HIDDEN, -1));
    VERIFY(heavy, HEAVY, mass, L(MASS), L(-1));
    VERIFY(tagged, TAGGED, frozen, L(FROZEN, HIDDEN), L(-1));
}

static float next_value(void) {
    return (float)rnd(1000000);
}

/* Adds (or, with `set`, adds or overwrites) component k of e, in the world and the shadow. */
static void give(views_world_t *w, ecs_entity_t e, int k, bool set) {
    shadow_t *s = of(e);
    bool had = s->has[k];
    bool ok = false;
    switch (k) {
    case POSITION: {
        float x = next_value();
        ok = set ? views_set_position(w, e, (views_position_t){ x, 0 }) : views_add_position(w, e, (views_position_t){ x, 0 });
        if (ok) s->px = x;
        break;
    }
    case VELOCITY: {
        float x = next_value();
        ok = set ? views_set_velocity(w, e, (views_velocity_t){ x, 1 }) : views_add_velocity(w, e, (views_velocity_t){ x, 1 });
        if (ok) s->vx = x;
        break;
    }
    case SPRITE: {
        views_sprite_t sp = { .frames = { 1, 2, 3, 4 } };
        snprintf(sp.name, sizeof sp.name, "s%u", (unsigned)rnd(100000));
        ok = set ? views_set_sprite(w, e, sp) : views_add_sprite(w, e, sp);
        if (ok) memcpy(s->name, sp.name, sizeof s->name);
        break;
    }
    case MASS: {
        double kg = next_value() / 3.0;
        ok = set ? views_set_mass(w, e, (views_mass_t){ kg }) : views_add_mass(w, e, (views_mass_t){ kg });
        if (ok) s->kg = kg;
        break;
    }
    case FROZEN: ok = views_add_frozen(w, e); break;
    case HIDDEN: ok = views_add_hidden(w, e); break;
    }
    CHECK_EQ(ok, set ? k < FROZEN || !had : !had);
    if (ok) s->has[k] = true;
}

static void take(views_world_t *w, ecs_entity_t e, int k) {
    bool ok = false;
    switch (k) {
    case POSITION: ok = views_remove_position(w, e); break;
    case VELOCITY: ok = views_remove_velocity(w, e); break;
    case SPRITE: ok = views_remove_sprite(w, e); break;
    case MASS: ok = views_remove_mass(w, e); break;
    case FROZEN: ok = views_remove_frozen(w, e); break;
    case HIDDEN: ok = views_remove_hidden(w, e); break;
    }
    CHECK_EQ(ok, of(e)->has[k]);
    of(e)->has[k] = false;
}

static ecs_entity_t random_live(void) {
    for (int tries = 0; tries < 8; tries++) {
        shadow_t *s = &shadow[rnd(SLOTS)];
        if (s->id) return s->id;
    }
    return ECS_NULL;
}

static void spawn(views_world_t *w) {
    views_position_t p = { next_value(), 0 };
    views_velocity_t v = { next_value(), 2 };
    views_mass_t m = { next_value() };
    views_sprite_t sp = { .name = "spawned" };
    bool has[KINDS];
    for (int k = 0; k < KINDS; k++) has[k] = rnd(2);
    ecs_entity_t e = views_spawn(w, &(views_spawn_desc_t){
        .position = has[POSITION] ? &p : NULL, .velocity = has[VELOCITY] ? &v : NULL,
        .sprite = has[SPRITE] ? &sp : NULL, .mass = has[MASS] ? &m : NULL,
        .frozen = has[FROZEN], .hidden = has[HIDDEN] });
    if (e == ECS_NULL) return;
    CHECK(ecs_entity_index(e) < SLOTS);
    shadow_t *s = of(e);
    *s = (shadow_t){ .id = e, .px = p.x, .vx = v.x, .kg = m.kg, .name = "spawned" };
    memcpy(s->has, has, sizeof has);
}

/* Destroying the current entity inside VIEWS_EACH_<Q> visits every match exactly once. */
static void destroy_inside_each(views_world_t *w) {
    static bool seen[SLOTS];
    memset(seen, 0, sizeof seen);
    size_t before = views_query_move(w).count, visited = 0;
    VIEWS_EACH_MOVE(w, it) {
        CHECK(!seen[ecs_entity_index(it.id)]);
        seen[ecs_entity_index(it.id)] = true;
        visited++;
        if (visited % 2) {
            CHECK(views_destroy(w, it.id));
            shadow[ecs_entity_index(it.id)].id = ECS_NULL;
        }
    }
    CHECK_EQ(visited, before);
    verify(w);
}

/* A spawned entity that lands at the next row of a group it matches, in every pool the
 * group owns, joins at once (nothing moves); one that would need rows moved waits in the
 * pending list until the next view or loop. Either way the views come out exact. */
static void spawn_joins_groups(void) {
    views_world_t *w = views_world_new();
    CHECK(w != NULL);
    if (!w) return;
    views_position_t p = { 1, 0 };
    views_velocity_t v = { 2, 0 };
    views_mass_t m = { 3 };
    ecs_entity_t a = views_spawn(w, &(views_spawn_desc_t){ .position = &p, .velocity = &v });
    CHECK_EQ(w->pending.count, 0); /* row 0 of position and velocity: move's next row */
    ecs_entity_t b = views_spawn(w, &(views_spawn_desc_t){ .position = &p });
    CHECK_EQ(w->pending.count, 0); /* matches no group */
    ecs_entity_t c = views_spawn(w, &(views_spawn_desc_t){ .position = &p, .velocity = &v });
    CHECK_EQ(w->pending.count, 1); /* position row 2, but move's next row is 1: b is in the way */
    views_move_view_t mv = views_query_move(w);
    CHECK_EQ(w->pending.count, 0);
    CHECK_EQ(mv.count, 2);
    CHECK(mv.count == 2 && ((mv.entity[0] == a && mv.entity[1] == c) || (mv.entity[0] == c && mv.entity[1] == a)));
    CHECK_EQ(ecs_sparse_id(&w->components.position.set, 2, w->entities.generation), b);
    CHECK(views_destroy(w, b));
    /* Spawning inside a loop over move: the new entities join at once but are not visited. */
    size_t visited = 0;
    VIEWS_EACH_MOVE(w, it) {
        visited++;
        CHECK(it.id == a || it.id == c);
        CHECK(views_spawn(w, &(views_spawn_desc_t){ .position = &p, .velocity = &v }) != ECS_NULL);
    }
    CHECK_EQ(visited, 2);
    CHECK_EQ(w->pending.count, 0);
    CHECK_EQ(views_query_move(w).count, 4);
    /* Mass completes move_free: position row 4 is move's next row but not move_free's (0). */
    ecs_entity_t d = views_spawn(w, &(views_spawn_desc_t){ .position = &p, .velocity = &v, .mass = &m });
    CHECK_EQ(w->pending.count, 1);
    views_move_free_view_t fv = views_query_move_free(w);
    CHECK(fv.count == 1 && fv.entity[0] == d && VIEWS_MOVE_FREE_FIELD(fv, mass, kg, 0) == 3.0 &&
          VIEWS_MOVE_FREE_FIELD(fv, position, x, 0) == 1.0f);
    CHECK_EQ(views_query_move(w).count, 5);
    CHECK(views_query_heavy(w).count == 1 && views_query_heavy(w).entity[0] == d);
    views_world_free(w);
}

int main(void) {
    spawn_joins_groups();
    views_world_t *w = views_world_new();
    CHECK(w != NULL);
    if (!w) return check_finish("test_views");
    for (int step = 0; step < STEPS; step++) {
        ecs_entity_t e = random_live();
        uint32_t op = rnd(10);
        if (op < 3 || e == ECS_NULL) {
            if (views_count(w) < SLOTS - 1) spawn(w);
        } else if (op == 3) {
            CHECK(views_destroy(w, e));
            of(e)->id = ECS_NULL;
            CHECK(!views_destroy(w, e));
        } else if (op < 6) {
            give(w, e, (int)rnd(KINDS), false);
        } else if (op == 6) {
            give(w, e, (int)rnd(KINDS), true);
        } else {
            take(w, e, (int)rnd(KINDS));
        }
        if (step % 16 == 0) verify(w);
    }
    verify(w);
    destroy_inside_each(w);
    views_world_free(w);
    return check_finish("test_views");
}
