/* ecs_iter.h: what the generated iteration macros and views stand on: a cursor that walks one
 * sparse set (or the entity slots) backwards, a non-owned view's list of matches, and
 * preprocessor helpers that apply a macro to each component named. */
#ifndef ECS_ITER_H
#define ECS_ITER_H

#include "ecs_entities.h"
#include "ecs_sparse.h"

/* What a loop can walk: the members of a sparse set (rows 0..*count-1), or the entity
 * table's slots (slots 0..*count-1, live ones only) for slot storage. Both through
 * pointers, so a loop sees arrays that grow under it and counts that shrink. */
typedef struct ecs_walk {
    const ecs_sparse_t *set;        /* the set walked (NULL when walking slots) */
    const uint32_t *count;
    const ecs_entities_t *entities; /* makes the ids; its slots are walked when set is NULL */
} ecs_walk_t;

static inline ecs_walk_t ecs_walk_set(const ecs_sparse_t *set, const ecs_entities_t *t) {
    return (ecs_walk_t){ set, &set->count, t };
}

static inline ecs_walk_t ecs_walk_slots(const ecs_entities_t *t) {
    return (ecs_walk_t){ NULL, &t->used, t };
}

/* Walks one ecs_walk_t from the last row to the first. Backwards, so removing the current
 * member (which moves the last, already visited, member into its row) neither skips nor
 * repeats anyone; members added during the walk land behind it and are not visited. */
typedef struct ecs_cursor {
    const ecs_sparse_t *set; /* as in ecs_walk_t */
    const uint32_t *limit;
    uint32_t next; /* rows next-1 .. 0 remain; after a step, the current row (or slot) */
    bool aligned;  /* walking an owning group: every term's row is the cursor's */
    const ecs_entities_t *entities;
} ecs_cursor_t;

/* A cursor over the shortest of walks[0..n); a set rather than the slots on a tie, since a
 * set's walk never meets an entity spawned during the loop and the slots' walk may (one
 * that reuses a free slot the walk has not reached). */
static inline ecs_cursor_t ecs_cursor_smallest(size_t n, const ecs_walk_t *walks) {
    const ecs_walk_t *best = &walks[0];
    for (size_t k = 1; k < n; k++)
        if (*walks[k].count < *best->count || (*walks[k].count == *best->count && !best->set && walks[k].set))
            best = &walks[k];
    return (ecs_cursor_t){ best->set, best->count, *best->count, false, best->entities };
}

/* A cursor over the members of an owning group: rows 0..*count-1 of set (any pool the
 * group owns), where every owned pool holds the same entity. */
static inline ecs_cursor_t ecs_cursor_group(const ecs_sparse_t *set, const uint32_t *count, const ecs_entities_t *t) {
    return (ecs_cursor_t){ set, count, *count, true, t };
}

/* The entity at row (or live slot) i of the cursor's walk. */
static inline ecs_entity_t ecs_cursor_id(const ecs_cursor_t *c, uint32_t i) {
    return c->set ? ecs_sparse_id(c->set, i, c->entities->generation) : ecs_entity_make(i, c->entities->generation[i]);
}

/* Moves to the next member and stores it in *e; false when done. */
static inline bool ecs_cursor_step(ecs_cursor_t *c, ecs_entity_t *e) {
    if (c->next > *c->limit) c->next = *c->limit; /* rows were removed behind us */
    while (c->next) {
        uint32_t i = --c->next;
        if (c->set || ecs_entities_live_at(c->entities, i)) {
            *e = ecs_cursor_id(c, i);
            return true;
        }
    }
    return false;
}

/* ECS_PP_MAP(m, sep, ctx, a, b, c) gives m(ctx, a) sep() m(ctx, b) sep() m(ctx, c), for 1 to
 * 16 arguments. */
#define ECS_PP_COMMA() ,
#define ECS_PP_AND() &&
#define ECS_PP_PLUS() +
#define ECS_PP_BITOR() |
#define ECS_PP_UNPAREN(...) __VA_ARGS__
#define ECS_PP_CAT(a, b) ECS_PP_CAT_(a, b)
#define ECS_PP_CAT_(a, b) a##b
#define ECS_PP_NARGS(...) \
    ECS_PP_NARGS_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define ECS_PP_NARGS_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, n, ...) n
#define ECS_PP_MAP(m, sep, ctx, ...) ECS_PP_CAT(ECS_PP_MAP_, ECS_PP_NARGS(__VA_ARGS__))(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_1(m, sep, ctx, a) m(ctx, a)
#define ECS_PP_MAP_2(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_1(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_3(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_2(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_4(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_3(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_5(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_4(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_6(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_5(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_7(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_6(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_8(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_7(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_9(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_8(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_10(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_9(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_11(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_10(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_12(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_11(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_13(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_12(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_14(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_13(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_15(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_14(m, sep, ctx, __VA_ARGS__)
#define ECS_PP_MAP_16(m, sep, ctx, a, ...) m(ctx, a) sep() ECS_PP_MAP_15(m, sep, ctx, __VA_ARGS__)

/* Room for n matches in a non-owned view's list of matches: its ids (*entity) and its `lists`
 * row lists (*row[k]), each of *capacity elements, grown to n when smaller. False when out of
 * memory: the list stays valid (what grew keeps its rows; *capacity is unchanged). */
bool ecs_match_list_fit(ecs_entity_t **entity, uint32_t **const row[], size_t lists, uint32_t *capacity, uint32_t n);

#endif
