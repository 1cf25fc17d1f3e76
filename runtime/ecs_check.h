/* ecs_check.h: how the generated debug checks (<NAME>_CHECKS, on unless NDEBUG) report
 * misuse the documentation forbids, such as destroying another entity inside a macro loop:
 * the message names the call and what to do instead, then the program aborts. */
#ifndef ECS_CHECK_H
#define ECS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include "ecs_types.h"

/* A running macro loop: its entity in hand, and the loop it runs inside (NULL: none). */
typedef struct ecs_check_loop {
    ecs_entity_t id;
    const struct ecs_check_loop *outer;
} ecs_check_loop_t;

/* What a world keeps for the checks (zero, and untouched, when they are off). */
typedef struct ecs_checks {
    uint64_t changes;                 /* structural changes: a component added or removed */
    const char *change;               /* the last one, for messages ("add position") */
    const ecs_check_loop_t *loops;    /* the innermost macro loop running, or NULL */
} ecs_checks_t;

/* Whether e is the entity in hand of a macro loop running (the innermost or one around it):
 * the only entities a loop body may destroy or remove components from. */
static inline bool ecs_check_in_hand(const ecs_checks_t *c, ecs_entity_t e) {
    for (const ecs_check_loop_t *l = c->loops; l; l = l->outer)
        if (l->id == e) return true;
    return false;
}

static inline void ecs_check_fail(const char *what, const char *detail) {
    fprintf(stderr, "ecsgen check failed: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    fflush(stderr);
    abort();
}

#endif
