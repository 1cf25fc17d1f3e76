/* test_group_leave.c: macro loops over exactly an owned query's components walk the
 * group's packed rows, and the body may make the current entity leave groups (destroy, remove
 * a component the walked group or a nested one needs, add a tag a nested group excludes),
 * each a swap with a group's last row. In worlds of up to 6,000 entities, with nested groups
 * whose counts fall anywhere (tests/views/views.json: move_free inside move and inside heavy),
 * every entity that matched when the loop started is visited exactly once, and afterwards
 * each view lists exactly the entities that match it. */
#include <string.h>

#include "check.h"
#include "views_ecs.h"

enum { MAX = 6000 };

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint32_t rnd(uint32_t n) { return (uint32_t)(check_xorshift(&rng) % n); }

static ecs_entity_t ids[MAX];
static unsigned char visits[MAX]; /* per slot index */
static bool matched[MAX];         /* per slot index: in the walked group when the loop began */

/* A world of n entities with position and velocity; mass for about mass_pct % of them, and
 * frozen for about frozen_pct % of those (so they are in move and heavy, not move_free). */
static views_world_t *populate(uint32_t n, uint32_t mass_pct, uint32_t frozen_pct) {
    views_world_t *w = views_world_new();
    CHECK(w != NULL);
    if (!w) return NULL;
    for (uint32_t k = 0; k < n; k++) {
        views_position_t p = { (float)k, 0 };
        views_velocity_t v = { 1, 0 };
        views_mass_t m = { 1.0 };
        bool heavy = rnd(100) < mass_pct;
        ids[k] = views_spawn(w, &(views_spawn_desc_t){ .position = &p, .velocity = &v, .mass = heavy ? &m : NULL,
                                                        .frozen = heavy && rnd(100) < frozen_pct });
        CHECK(ids[k] != ECS_NULL);
    }
    return w;
}

/* Each view lists exactly the live entities that match it, once each. */
static void check_views(views_world_t *w, uint32_t n) {
    views_move_view_t mv = views_query_move(w);
    views_move_free_view_t fv = views_query_move_free(w);
    views_heavy_view_t hv = views_query_heavy(w);
    size_t move = 0, move_free = 0, heavy = 0;
    for (uint32_t k = 0; k < n; k++) {
        ecs_entity_t e = ids[k];
        if (!views_alive(w, e)) continue;
        bool p = views_has_position(w, e), v = views_has_velocity(w, e), m = views_has_mass(w, e);
        move += p && v;
        move_free += p && v && m && !views_has_frozen(w, e);
        heavy += m;
    }
    CHECK_EQ(mv.count, move);
    CHECK_EQ(fv.count, move_free);
    CHECK_EQ(hv.count, heavy);
    memset(visits, 0, sizeof visits);
    int wrong = 0;
    for (size_t i = 0; i < mv.count; i++) {
        wrong += visits[ecs_entity_index(mv.entity[i])]++ != 0;
        wrong += !views_has_position(w, mv.entity[i]) || !views_has_velocity(w, mv.entity[i]);
    }
    CHECK_EQ(wrong, 0);
}

/* Every entity that matched when the loop began was visited once, no other; then the views. */
static void check_visits(views_world_t *w, uint32_t n) {
    int wrong = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t slot = ecs_entity_index(ids[k]);
        wrong += visits[slot] != (matched[slot] ? 1 : 0);
    }
    CHECK_EQ(wrong, 0);
    check_views(w, n);
}

/* One loop over move (position, velocity: the group is walked directly), with the body
 * doing `action` to about pct % of the entities it visits. */
static void loop_move(views_world_t *w, uint32_t n, int action, uint32_t pct) {
    memset(visits, 0, sizeof visits);
    memset(matched, 0, sizeof matched);
    views_move_view_t before = views_query_move(w);
    for (size_t i = 0; i < before.count; i++) matched[ecs_entity_index(before.entity[i])] = true;
    VIEWS_EACH(w, it, position, velocity) {
        visits[ecs_entity_index(it.id)]++;
        if (rnd(100) >= pct) continue;
        switch (action) {
        case 0: CHECK(views_destroy(w, it.id)); break;
        case 1: CHECK(views_remove_velocity(w, it.id)); break;  /* leaves move (and move_free) */
        case 2: (void)views_remove_mass(w, it.id); break;       /* leaves move_free, if in it */
        case 3: (void)views_add_frozen(w, it.id); break;        /* move_free excludes it: pending */
        default: { /* one of the above, at random */
            uint32_t a = rnd(4);
            if (a == 0) CHECK(views_destroy(w, it.id));
            else if (a == 1) CHECK(views_remove_position(w, it.id));
            else if (a == 2) (void)views_remove_mass(w, it.id);
            else (void)views_add_frozen(w, it.id);
        }
        }
    }
    check_visits(w, n);
}

/* One loop over mass alone (the heavy group, with move_free nested at its front). */
static void loop_heavy(views_world_t *w, uint32_t n, uint32_t pct) {
    memset(visits, 0, sizeof visits);
    memset(matched, 0, sizeof matched);
    views_heavy_view_t before = views_query_heavy(w);
    for (size_t i = 0; i < before.count; i++) matched[ecs_entity_index(before.entity[i])] = true;
    VIEWS_EACH(w, it, mass) {
        visits[ecs_entity_index(it.id)]++;
        if (rnd(100) >= pct) continue;
        uint32_t a = rnd(3);
        if (a == 0) CHECK(views_destroy(w, it.id));
        else if (a == 1) CHECK(views_remove_mass(w, it.id));
        else (void)views_remove_velocity(w, it.id); /* leaves move_free, stays in heavy */
    }
    check_visits(w, n);
}

int main(void) {
    static const uint32_t sizes[] = { 100, 256, 257, 1000, 5999 };
    static const uint32_t mass_pcts[] = { 0, 10, 50, 90, 100 };
    static const uint32_t pcts[] = { 1, 30, 100 };
    for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++)
        for (size_t b = 0; b < sizeof mass_pcts / sizeof *mass_pcts; b++)
            for (size_t c = 0; c < sizeof pcts / sizeof *pcts; c++) {
                for (int action = 0; action < 5; action++) {
                    views_world_t *w = populate(sizes[a], mass_pcts[b], 20);
                    if (!w) continue;
                    check_views(w, sizes[a]);
                    loop_move(w, sizes[a], action, pcts[c]);
                    loop_move(w, sizes[a], 4, pcts[c]); /* a second loop over what is left */
                    views_world_free(w);
                }
                views_world_t *w = populate(sizes[a], mass_pcts[b], 20);
                if (!w) continue;
                loop_heavy(w, sizes[a], pcts[c]);
                loop_heavy(w, sizes[a], pcts[c]);
                views_world_free(w);
            }
    return check_finish("test_group_leave");
}
