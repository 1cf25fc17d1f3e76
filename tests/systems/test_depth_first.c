/* test_depth_first.c: a depth-first system (docs/systems.md, "Depth first"). propagate sets
 * each global to its target's global + its local over child_of's forest; beside it, drift
 * changes the locals every step, reparent moves entities with tree_defer_set_child_of and
 * decay destroys them (cascading). After every step, with 1, 2 and 4 threads, a reference
 * pass checks every global against its target's (so the order is targets first, re-parented
 * entities included) and the matches propagate saw; the world_hash agrees across the thread
 * counts. flip runs beside propagate, in its stage. Built with small ranges (TREE_SYSTEM_CHUNK, TREE_SYSTEM_PARALLEL_MIN) so that the
 * other systems are split and the pool runs. Visiting the matches in reverse order fails it. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tree_ecs.h"

#define ENTITIES 3000u
#define STEPS 300

void tree_system_drift(tree_drift_t *s) {
    for (size_t i = 0; i < s->count; i++) {
        TREE_DRIFT_FIELD(s, local, x, i) += TREE_DRIFT_FIELD(s, spin, rate, i) * s->dt;
        TREE_DRIFT_FIELD(s, local, y, i) -= 0.5f * s->dt;
    }
}

/* Shares propagate's stage (after drift, which reads spin): runs beside it on the pool. */
void tree_system_flip(tree_flip_t *s) {
    for (size_t i = 0; i < s->count; i++) TREE_FLIP_FIELD(s, spin, rate, i) *= -1.0f;
}

/* Every `every` ticks: to the entity in wander.to, which then remembers the old target (a dead
 * one or a cycle is dropped when the change is applied). */
void tree_system_reparent(tree_reparent_t *s) {
    for (size_t i = 0; i < s->count; i++) {
        if (++TREE_REPARENT_FIELD(s, wander, ticks, i) % TREE_REPARENT_FIELD(s, wander, every, i)) continue;
        ecs_entity_t to = TREE_REPARENT_FIELD(s, wander, to, i);
        TREE_REPARENT_FIELD(s, wander, to, i) = TREE_REPARENT_FIELD(s, child_of, target, i);
        tree_defer_set_child_of(s->world, s->entity[i], (tree_child_of_t){ to });
    }
}

void tree_system_decay(tree_decay_t *s) {
    for (size_t i = 0; i < s->count; i++)
        if (--TREE_DECAY_FIELD(s, life, ticks, i) == 0) tree_defer_destroy(s->world, s->entity[i]);
}

void tree_system_propagate(tree_propagate_t *s) {
    uint32_t roots = 0;
    for (size_t i = 0; i < s->count; i++) {
        ecs_entity_t t = s->target[i];
        tree_global_t p = { 0, 0 };
        if (t != ECS_NULL) p = tree_get_global(s->world, t); /* written above, in this call */
        else roots++;
        TREE_PROPAGATE_FIELD(s, global, x, i) = p.x + TREE_PROPAGATE_FIELD(s, local, x, i);
        TREE_PROPAGATE_FIELD(s, global, y, i) = p.y + TREE_PROPAGATE_FIELD(s, local, y, i);
    }
    TREE_PROPAGATE_FIELD(s, seen, matches, 0) = (uint32_t)s->count;
    TREE_PROPAGATE_FIELD(s, seen, roots, 0) = roots;
}

static ecs_entity_t ids[ENTITIES];

static void populate(tree_world_t *w, uint64_t seed) {
    for (uint32_t k = 0; k < ENTITIES; k++) {
        uint64_t r = check_xorshift(&seed);
        bool frozen = r % 29u == 0u, mortal = k >= ENTITIES / 2u && r / 64u % 5u == 0u;
        ids[k] = tree_spawn(w, &(tree_spawn_desc_t){
            .local = &(tree_local_t){ (float)(r % 17u), (float)(r / 17u % 13u) },
            .global = &(tree_global_t){ frozen ? -7.0f : 0.0f, frozen ? -7.0f : 0.0f },
            .child_of = k && r / 256u % 5u ? &(tree_child_of_t){ ids[r / 4096u % k] } : NULL,
            .life = mortal ? &(tree_life_t){ (int32_t)(1u + r / 8192u % (2u * STEPS)) } : NULL,
            .spin = r / 32u % 3u ? &(tree_spin_t){ (float)(r / 1024u % 7u) - 3.0f } : NULL,
            .frozen = frozen });
        CHECK(ids[k] != ECS_NULL);
    }
    for (uint32_t k = 0; k < ENTITIES; k++) { /* after every spawn: wander.to may be any entity */
        uint64_t r = check_xorshift(&seed);
        if (r % 4u == 0u && tree_has_child_of(w, ids[k]))
            tree_add_wander(w, ids[k], (tree_wander_t){ (int32_t)(2u + r / 4u % 11u), 0, ids[r / 64u % ENTITIES] });
    }
}

/* The reference pass: each match of propagate (not frozen, in the forest: with child_of, or
 * with sources) has its target's global + its local, as floats add; frozen ones keep theirs.
 * Counts the matches and roots into *matches and *roots; returns how many globals differ. */
static uint32_t check_tree(tree_world_t *w, uint32_t *matches, uint32_t *roots) {
    uint32_t bad = 0;
    *matches = *roots = 0;
    for (uint32_t k = 0; k < ENTITIES; k++) {
        ecs_entity_t e = ids[k];
        if (!tree_alive(w, e)) continue;
        bool sourced = tree_has_child_of(w, e);
        ecs_entity_t t = sourced ? tree_get_child_of(w, e).target : ECS_NULL;
        tree_global_t g = tree_get_global(w, e);
        if (tree_has_frozen(w, e)) {
            bad += g.x != -7.0f || g.y != -7.0f;
            continue;
        }
        if (!sourced && tree_count_child_of_of(w, e) == 0) continue; /* not in the forest */
        tree_global_t p = { 0, 0 };
        if (sourced) p = tree_get_global(w, t);
        else ++*roots;
        tree_local_t l = tree_get_local(w, e);
        ++*matches;
        if (g.x != p.x + l.x || g.y != p.y + l.y) {
            if (bad++ < 3)
                fprintf(stderr, "entity %u: global (%g, %g), its target's (%g, %g) + local (%g, %g)\n", k,
                        (double)g.x, (double)g.y, (double)p.x, (double)p.y, (double)l.x, (double)l.y);
        }
    }
    return bad;
}

static uint64_t run(unsigned threads, uint32_t *moves, size_t *left) {
    static ecs_entity_t before[ENTITIES];
    tree_world_t *w = tree_world_new();
    populate(w, 0x9e3779b97f4a7c15u);
    tree_set_threads(w, threads);
    CHECK_EQ(tree_threads(w), threads);
    for (uint32_t k = 0; k < ENTITIES; k++)
        before[k] = tree_has_child_of(w, ids[k]) ? tree_get_child_of(w, ids[k]).target : ECS_NULL;
    *moves = 0;
    for (int step = 0; step < STEPS; step++) {
        tree_step(w, 1.0f / 16.0f);
        uint32_t matches, roots;
        for (uint32_t k = 0; k < ENTITIES; k++) { /* targets this step changed, among survivors */
            ecs_entity_t e = ids[k];
            if (!tree_alive(w, e) || !tree_has_child_of(w, e)) continue;
            ecs_entity_t t = tree_get_child_of(w, e).target;
            *moves += before[k] != ECS_NULL && before[k] != t;
            before[k] = t;
        }
        uint32_t bad = check_tree(w, &matches, &roots);
        if (bad) {
            fprintf(stderr, "%u threads, step %d: %u globals differ from their target's + local\n", threads, step, bad);
            CHECK(false);
            break;
        }
        CHECK_EQ(tree_singleton_seen(w)->matches, matches);
        CHECK_EQ(tree_singleton_seen(w)->roots, roots);
    }
    CHECK(tree__relations_verify(w));
    *left = tree_count(w);
    uint64_t hash = tree_world_hash(w);
    tree_world_free(w);
    return hash;
}

int main(void) {
    uint32_t moves1;
    size_t left1;
    uint64_t hash1 = run(1, &moves1, &left1);
    printf("%d steps: %u re-parentings, %zu of %u entities left\n", STEPS, moves1, left1, ENTITIES);
    CHECK(moves1 > 100);                                /* reparent moved entities */
    CHECK(left1 > ENTITIES / 4u && left1 < ENTITIES);   /* decay destroyed some (and their trees) */
    for (unsigned threads = 2; threads <= 4; threads *= 2) {
        uint32_t moves;
        size_t left;
        CHECK_EQ(run(threads, &moves, &left), hash1);
        CHECK_EQ(moves, moves1);
        CHECK_EQ(left, left1);
    }
    return check_finish("systems depth first");
}
