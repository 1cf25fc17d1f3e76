/* test_deferred.c: the command buffer (views_defer_*, views_apply_deferred).
 *
 * Twin worlds A and B start equal. Inside loops over A (EACH macros, owned and non-owned
 * views) the test records random structural changes with the defer calls, which must leave
 * the loop's matches, rows and values untouched; the same changes go to a log. After the
 * loop A applies its buffer and B makes the logged changes with the immediate calls: the two
 * worlds must then print the same JSON (ids, components, values). Also: the rules of order
 * (a change to an entity destroyed by then is skipped), out of memory while recording and
 * while applying (nothing lost: what did not happen waits for the next apply), a load
 * discarding the buffer, and a fixed-storage world (kit) whose buffer is full at
 * max_entities changes and which allocates nothing after world_new. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kit_ecs.h"
#include "views_ecs.h"

enum { ENTITIES = 1500, ROUNDS = 60, LOG_MAX = 1 << 16, SLOTS = 1 << 14 };

/* The sizes divided by ECSGEN_TEST_SCALE (1 to 8; .ci/valgrind-wrap sets 4: most of the time
 * here is saving both worlds to JSON to compare them, which valgrind slows 30-fold). */
static int test_scale(void) {
    const char *s = getenv("ECSGEN_TEST_SCALE");
    int v = s ? atoi(s) : 1;
    return v < 1 ? 1 : v > 8 ? 8 : v;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint32_t rnd(uint32_t n) { return (uint32_t)(check_xorshift(&rng_state) % n); }

/* ---- A counting allocator that can fail ------------------------------------------------ */

static long allocations;  /* allocations and resizes made */
static long fail_from = -1; /* when >= 0: the allocation with this number and all later fail */

static void *test_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    if (fail_from >= 0 && allocations >= fail_from) return NULL;
    allocations++;
    return realloc(ptr, size);
}

/* ---- The log of changes, made on B with the immediate calls ----------------------------- */

typedef enum {
    DESTROY, ADD_POSITION, SET_POSITION, REMOVE_POSITION, ADD_VELOCITY, SET_VELOCITY, REMOVE_VELOCITY,
    ADD_SPRITE, SET_SPRITE, REMOVE_SPRITE, ADD_MASS, SET_MASS, REMOVE_MASS, ADD_FROZEN, REMOVE_FROZEN,
    ADD_HIDDEN, REMOVE_HIDDEN, OPS
} op_t;

typedef struct change {
    op_t op;
    ecs_entity_t e;
    views_position_t position;
    views_velocity_t velocity;
    views_sprite_t sprite;
    views_mass_t mass;
} change_t;

static change_t log_[LOG_MAX];
static uint32_t logged;

static change_t random_change(ecs_entity_t e) {
    change_t c = { .op = (op_t)rnd(OPS), .e = e };
    c.position = (views_position_t){ (float)rnd(1000) / 8, (float)rnd(1000) };
    c.velocity = (views_velocity_t){ (float)rnd(64) - 32, (float)rnd(7) };
    snprintf(c.sprite.name, sizeof c.sprite.name, "s%u", (unsigned)rnd(100000));
    c.sprite.frames[rnd(4)] = (uint16_t)rnd(65536);
    c.mass.kg = rnd(1u << 30) / 3.0;
    return c;
}

/* Records c in A's buffer; true when recorded. */
static bool defer(views_world_t *a, const change_t *c) {
    switch (c->op) {
    case DESTROY: return views_defer_destroy(a, c->e);
    case ADD_POSITION: return views_defer_add_position(a, c->e, c->position);
    case SET_POSITION: return views_defer_set_position(a, c->e, c->position);
    case REMOVE_POSITION: return views_defer_remove_position(a, c->e);
    case ADD_VELOCITY: return views_defer_add_velocity(a, c->e, c->velocity);
    case SET_VELOCITY: return views_defer_set_velocity(a, c->e, c->velocity);
    case REMOVE_VELOCITY: return views_defer_remove_velocity(a, c->e);
    case ADD_SPRITE: return views_defer_add_sprite(a, c->e, c->sprite);
    case SET_SPRITE: return views_defer_set_sprite(a, c->e, c->sprite);
    case REMOVE_SPRITE: return views_defer_remove_sprite(a, c->e);
    case ADD_MASS: return views_defer_add_mass(a, c->e, c->mass);
    case SET_MASS: return views_defer_set_mass(a, c->e, c->mass);
    case REMOVE_MASS: return views_defer_remove_mass(a, c->e);
    case ADD_FROZEN: return views_defer_add_frozen(a, c->e);
    case REMOVE_FROZEN: return views_defer_remove_frozen(a, c->e);
    case ADD_HIDDEN: return views_defer_add_hidden(a, c->e);
    case REMOVE_HIDDEN: return views_defer_remove_hidden(a, c->e);
    case OPS: break;
    }
    return false;
}

/* Makes c on B at once. */
static void make(views_world_t *b, const change_t *c) {
    switch (c->op) {
    case DESTROY: views_destroy(b, c->e); break;
    case ADD_POSITION: views_add_position(b, c->e, c->position); break;
    case SET_POSITION: views_set_position(b, c->e, c->position); break;
    case REMOVE_POSITION: views_remove_position(b, c->e); break;
    case ADD_VELOCITY: views_add_velocity(b, c->e, c->velocity); break;
    case SET_VELOCITY: views_set_velocity(b, c->e, c->velocity); break;
    case REMOVE_VELOCITY: views_remove_velocity(b, c->e); break;
    case ADD_SPRITE: views_add_sprite(b, c->e, c->sprite); break;
    case SET_SPRITE: views_set_sprite(b, c->e, c->sprite); break;
    case REMOVE_SPRITE: views_remove_sprite(b, c->e); break;
    case ADD_MASS: views_add_mass(b, c->e, c->mass); break;
    case SET_MASS: views_set_mass(b, c->e, c->mass); break;
    case REMOVE_MASS: views_remove_mass(b, c->e); break;
    case ADD_FROZEN: views_add_frozen(b, c->e); break;
    case REMOVE_FROZEN: views_remove_frozen(b, c->e); break;
    case ADD_HIDDEN: views_add_hidden(b, c->e); break;
    case REMOVE_HIDDEN: views_remove_hidden(b, c->e); break;
    case OPS: break;
    }
}

/* ---- Ids to aim at: live ones mostly, some destroyed ----------------------------------- */

static ecs_entity_t ids[SLOTS];
static uint32_t id_count;

static ecs_entity_t target(void) {
    return id_count ? ids[rnd(id_count)] : ECS_NULL;
}

static void remember(ecs_entity_t e) {
    if (id_count < SLOTS) ids[id_count++] = e;
    else ids[rnd(SLOTS)] = e;
}

/* A spawned on both worlds with the same random components (both must give the same id). */
static void spawn_both(views_world_t *a, views_world_t *b, bool deferred_in_a) {
    change_t c = random_change(ECS_NULL);
    uint32_t bits = rnd(64);
    views_spawn_desc_t d = {
        .position = bits & 1 ? &c.position : NULL, .velocity = bits & 2 ? &c.velocity : NULL,
        .sprite = bits & 4 ? &c.sprite : NULL, .mass = bits & 8 ? &c.mass : NULL,
        .frozen = bits & 16, .hidden = bits & 32 };
    ecs_entity_t ea = deferred_in_a ? views_defer_spawn(a, &d) : views_spawn(a, &d);
    ecs_entity_t eb;
    if (deferred_in_a) { /* B: the entity now, its components with the other logged changes */
        eb = views_spawn(b, NULL);
        static const op_t adds[] = { ADD_POSITION, ADD_VELOCITY, ADD_SPRITE, ADD_MASS, ADD_FROZEN, ADD_HIDDEN };
        for (uint32_t k = 0; k < 6; k++) {
            if (!(bits & (1u << k)) || logged == LOG_MAX) continue;
            log_[logged] = c;
            log_[logged].op = adds[k];
            log_[logged++].e = eb;
        }
    } else {
        eb = views_spawn(b, &d);
    }
    CHECK_EQ(ea, eb);
    CHECK(ea != ECS_NULL);
    if (deferred_in_a) CHECK(!views_has_position(a, ea) && !views_has_frozen(a, ea)); /* nothing yet */
    else CHECK(views_has_position(a, ea) == (bits & 1));
    remember(ea);
}

/* Inside a loop: now and then, a random deferred change (or a deferred spawn). */
static void maybe_defer(views_world_t *a, views_world_t *b) {
    uint32_t r = rnd(8);
    if (r >= 3 || logged + 8 >= LOG_MAX) return;
    if (r == 0) {
        spawn_both(a, b, true);
        return;
    }
    change_t c = random_change(target());
    bool alive = views_alive(a, c.e);
    size_t before = views_deferred_count(a);
    bool ok = defer(a, &c);
    CHECK(ok == alive);
    CHECK_EQ(views_deferred_count(a), before + ok);
    if (ok) log_[logged++] = c;
}

/* The same saved document; with changes still waiting (a save would stop a debug build,
 * docs/iteration.md) the same world hash, equal exactly for worlds that save the same. */
static bool same_worlds(const views_world_t *a, const views_world_t *b) {
    if (views_deferred_count(a) || views_deferred_count(b)) return views_world_hash(a) == views_world_hash(b);
    char *ja = views_world_to_json(a), *jb = views_world_to_json(b);
    bool same = ja && jb && strcmp(ja, jb) == 0;
    free(ja);
    free(jb);
    return same;
}

/* The first logged changes, k of them, made on B; the log keeps the rest. */
static void make_logged(views_world_t *b, uint32_t k) {
    for (uint32_t i = 0; i < k; i++) make(b, &log_[i]);
    memmove(log_, log_ + k, (logged - k) * sizeof *log_);
    logged -= k;
}

/* ---- Loops that record changes --------------------------------------------------------- */

static uint8_t seen[SLOTS];

/* Every entity the loop should visit (per the world before it), marked 1 in seen[]. */
#define EXPECT(w, cond)                                                                      \
    do {                                                                                     \
        memset(seen, 0, sizeof seen);                                                        \
        for (uint32_t k_ = 0; k_ < id_count; k_++) {                                         \
            ecs_entity_t e_ = ids[k_];                                                       \
            if (views_alive(w, e_) && (cond)) seen[ecs_entity_index(e_)] = 1;                \
        }                                                                                    \
    } while (0)

/* Marks a visit: an expected entity, not visited before. */
static void visit(ecs_entity_t e) {
    uint32_t i = ecs_entity_index(e);
    CHECK(i < SLOTS && seen[i] == 1);
    if (i < SLOTS) seen[i] = 2;
}

static void all_visited(void) {
    size_t missed = 0;
    for (uint32_t i = 0; i < SLOTS; i++) missed += seen[i] == 1;
    CHECK_EQ(missed, 0);
}

static void loop_each(views_world_t *a, views_world_t *b) {
    EXPECT(a, views_has_position(a, e_) && views_has_velocity(a, e_));
    VIEWS_EACH(a, it, position, velocity) {
        visit(it.id);
        CHECK(ecs_sparse_id(&a->components.position.set, VIEWS_ROW(it, position), a->entities.generation) == it.id);
        maybe_defer(a, b);
    }
    all_visited();
}

static void loop_each_move_free(views_world_t *a, views_world_t *b) {
    EXPECT(a, views_has_position(a, e_) && views_has_velocity(a, e_) && views_has_mass(a, e_) &&
                  !views_has_frozen(a, e_));
    VIEWS_EACH_MOVE_FREE(a, it) {
        visit(it.id);
        maybe_defer(a, b);
    }
    all_visited();
}

/* An owned view (move) and a non-owned one (draw): the view's entities, rows and values
 * stay as they were through the whole loop. */
static void loop_view_move(views_world_t *a, views_world_t *b) {
    EXPECT(a, views_has_position(a, e_) && views_has_velocity(a, e_));
    views_move_view_t v = views_query_move(a);
    for (size_t i = 0; i < v.count; i++) {
        visit(v.entity[i]);
        views_position_t p = views_get_position(a, v.entity[i]);
        CHECK(VIEWS_MOVE_FIELD(v, position, x, i) == p.x);
        CHECK(VIEWS_MOVE_FIELD(v, velocity, y, i) == views_get_velocity(a, v.entity[i]).y);
        maybe_defer(a, b);
    }
    all_visited();
}

static void loop_view_draw(views_world_t *a, views_world_t *b) {
    EXPECT(a, views_has_position(a, e_) && views_has_sprite(a, e_) && !views_has_hidden(a, e_));
    views_draw_view_t v = views_query_draw(a);
    for (size_t i = 0; i < v.count; i++) {
        visit(v.entity[i]);
        CHECK(!strcmp(VIEWS_DRAW_FIELD(v, sprite, name, i), views_get_sprite(a, v.entity[i]).name));
        CHECK(VIEWS_DRAW_FIELD(v, position, y, i) == views_get_position(a, v.entity[i]).y);
        maybe_defer(a, b);
    }
    all_visited();
}

/* ---- The tests -------------------------------------------------------------------------- */

static void test_twins(void) {
    views_world_t *a = views_world_new(), *b = views_world_new();
    const int scale = test_scale(), rounds = ROUNDS / scale;
    for (int k = 0; k < ENTITIES / scale; k++) spawn_both(a, b, false);
    CHECK(same_worlds(a, b));
    void (*const loops[])(views_world_t *, views_world_t *) = { loop_each, loop_each_move_free, loop_view_move,
                                                                loop_view_draw };
    size_t applied = 0;
    for (int round = 0; round < rounds; round++) {
        loops[round % 4](a, b);
        applied += views_deferred_count(a);
        CHECK(views_apply_deferred(a));
        CHECK_EQ(views_deferred_count(a), 0);
        make_logged(b, logged);
        CHECK(same_worlds(a, b));
        for (int k = 0; k < 40 / scale; k++) spawn_both(a, b, false); /* keep the world populated */
    }
    printf("test_deferred: %zu deferred changes applied over %d loops, %zu entities at the end\n", applied, rounds,
           views_count(a));
    CHECK(applied > (size_t)(1000 / (scale * scale))); /* fewer rounds over fewer entities */
    views_world_free(a);
    views_world_free(b);
}

/* A change to an entity destroyed by then is skipped; adds, sets and removes follow one
 * another as the immediate calls would; stale ids are refused when recording. */
static void test_order(void) {
    views_world_t *w = views_world_new();
    ecs_entity_t e = views_spawn(w, &(views_spawn_desc_t){ .position = &(views_position_t){ 1, 2 } });
    ecs_entity_t f = views_spawn(w, NULL);
    CHECK(views_defer_add_position(w, e, (views_position_t){ 5, 5 })); /* e has one: nothing */
    CHECK(views_defer_set_velocity(w, e, (views_velocity_t){ 3, 4 }));
    CHECK(views_defer_remove_velocity(w, e));
    CHECK(views_defer_add_velocity(w, e, (views_velocity_t){ 7, 8 }));
    CHECK(views_defer_add_frozen(w, e));
    CHECK(views_defer_add_frozen(w, e)); /* twice: the second changes nothing */
    CHECK(views_defer_destroy(w, f));
    CHECK(views_defer_set_mass(w, f, (views_mass_t){ 9 })); /* f is gone by then: skipped */
    CHECK(views_defer_destroy(w, f));                       /* and again: nothing */
    CHECK_EQ(views_deferred_count(w), 9);
    CHECK(views_has_position(w, e) && !views_has_velocity(w, e) && views_alive(w, f)); /* nothing yet */
    CHECK(views_apply_deferred(w));
    CHECK_EQ(views_deferred_count(w), 0);
    CHECK(views_get_position(w, e).x == 1 && views_get_velocity(w, e).x == 7 && views_get_velocity(w, e).y == 8);
    CHECK(views_has_frozen(w, e));
    CHECK(!views_alive(w, f) && views_count(w) == 1);
    CHECK(!views_defer_destroy(w, f) && !views_defer_set_mass(w, f, (views_mass_t){ 1 }) &&
          !views_defer_add_hidden(w, ECS_NULL) && !views_defer_remove_position(w, f));
    CHECK_EQ(views_deferred_count(w), 0);
    CHECK(views_apply_deferred(w)); /* an empty buffer */

    /* A deferred spawn: the entity at once, empty; its components on apply. */
    ecs_entity_t s = views_defer_spawn(w, &(views_spawn_desc_t){ .mass = &(views_mass_t){ 2.5 }, .hidden = true });
    CHECK(views_alive(w, s) && !views_has_mass(w, s) && !views_has_hidden(w, s));
    CHECK(views_apply_deferred(w));
    CHECK(views_get_mass(w, s).kg == 2.5 && views_has_hidden(w, s));
    CHECK(views_defer_spawn(w, NULL) != ECS_NULL && views_deferred_count(w) == 0);

    /* A successful load discards what waits: the ids it names belong to the world replaced. */
    char *json = views_world_to_json(w);
    CHECK(views_defer_destroy(w, e));
    CHECK(views_world_from_json(w, json, NULL));
    CHECK_EQ(views_deferred_count(w), 0);
    CHECK(views_apply_deferred(w) && views_alive(w, e));
    /* A refused one keeps them. */
    CHECK(views_defer_destroy(w, e));
    CHECK(!views_world_from_json(w, "{\"schema\": \"views\", \"version\": 1, \"entities\": 3}", NULL));
    CHECK_EQ(views_deferred_count(w), 1);
    CHECK(views_apply_deferred(w) && !views_alive(w, e));
    free(json);
    views_world_free(w);
}

/* Out of memory: a recording call that cannot grow the buffer records nothing; an apply
 * that runs out part way keeps the change that failed and the rest, for the next call. For
 * every allocation number k of the apply, fail from k on. */
static void test_out_of_memory(void) {
    const int scale = test_scale();
    int partial = 0;
    for (long k = 0;; k++) {
        views_world_t *a = views_world_new(), *b = views_world_new();
        id_count = logged = 0;
        for (int n = 0; n < 300 / scale; n++) { /* empty entities: the pools start empty and grow */
            remember(views_spawn(a, NULL));
            CHECK_EQ(views_spawn(b, NULL), ids[id_count - 1]);
        }
        for (int n = 0; n < 400 / scale; n++) { /* many adds: pools must grow while applying */
            change_t c = random_change(target());
            if (c.op == DESTROY) c.op = ADD_SPRITE;
            CHECK(defer(a, &c));
            log_[logged++] = c;
        }
        allocations = 0;
        fail_from = k;
        bool done = views_apply_deferred(a);
        fail_from = -1;
        uint32_t left = (uint32_t)views_deferred_count(a);
        make_logged(b, logged - left); /* what A made: all but the waiting changes */
        CHECK(same_worlds(a, b));
        if (!done) {
            partial++;
            CHECK(left > 0);
            CHECK(views_apply_deferred(a)); /* memory is back: the rest */
            make_logged(b, logged);
            CHECK(same_worlds(a, b));
        }
        views_world_free(a);
        views_world_free(b);
        if (done) break; /* k is past the apply's last allocation */
    }
    CHECK(partial > 3);

    /* Recording: the buffer cannot grow. */
    views_world_t *w = views_world_new();
    ecs_entity_t e = views_spawn(w, NULL);
    fail_from = allocations = 0;
    CHECK(!views_defer_destroy(w, e) && views_deferred_count(w) == 0);
    CHECK(views_defer_spawn(w, &(views_spawn_desc_t){ .frozen = true }) == ECS_NULL);
    CHECK_EQ(views_count(w), 1);
    fail_from = -1;
    for (int n = 0; n < 64; n++) CHECK(views_defer_set_mass(w, e, (views_mass_t){ n }));
    fail_from = allocations; /* full at 64: the next change needs more room */
    CHECK(!views_defer_remove_mass(w, e));
    /* A deferred spawn that runs out part way takes back its entity and its changes. */
    CHECK(views_defer_spawn(w, &(views_spawn_desc_t){ .frozen = true }) == ECS_NULL);
    CHECK_EQ(views_deferred_count(w), 64);
    CHECK_EQ(views_count(w), 1);
    fail_from = -1;
    CHECK(views_apply_deferred(w) && views_get_mass(w, e).kg == 63);
    views_world_free(w);
    printf("test_deferred: out of memory at each of %d points of an apply\n", partial);
}

/* Fixed storage: the buffer holds max_entities changes, made by world_new; nothing more is
 * allocated. */
static void test_fixed_storage(void) {
    kit_world_t *w = kit_world_new();
    allocations = 0;
    ecs_entity_t e = kit_spawn(w, NULL);
    uint32_t recorded = 0;
    while (kit_defer_set_pos(w, e, (kit_pos_t){ recorded, 0 })) recorded++;
    CHECK_EQ(recorded, 50000);
    CHECK(!kit_defer_destroy(w, e) && kit_deferred_count(w) == 50000);
    CHECK(kit_apply_deferred(w) && kit_get_pos(w, e).x == 49999);
    CHECK(kit_defer_spawn(w, &(kit_spawn_desc_t){ .vel = &(kit_vel_t){ 1, 2 }, .hidden = true }) != ECS_NULL);
    CHECK(kit_apply_deferred(w));
    CHECK_EQ(allocations, 0);
    kit_world_free(w);
}

int main(void) {
    ecs_set_allocator(&(ecs_allocator_t){ test_realloc, NULL });
    test_order();
    test_twins();
    test_out_of_memory();
    test_fixed_storage();
    ecs_set_allocator(NULL);
    return check_finish("test_deferred");
}
