/* expect: no member named 'pos' */
/* before: {"components": {"vel": {"storage": "sparse"}}} */
/* A schema edit that takes a query's ownership away: vel moves to slot storage (kitchen.json
 * as it is), so moving no longer owns its pools and row i of pos stops being match i's.
 * Before the edit m.pos.x[i] was right and compiled; after it, it must not compile (the
 * same loop written with KIT_MOVING_FIELD compiles, and is right, both times: ok_view_field.c). */
#include "kit_ecs.h"

double sum_x(kit_world_t *w) {
    double sum = 0;
    kit_moving_view_t m = kit_query_moving(w);
    for (size_t i = 0; i < m.count; i++) sum += m.pos.x[i];
    return sum;
}
