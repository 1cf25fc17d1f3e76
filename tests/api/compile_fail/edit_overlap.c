/* expect: no member named 'vel' */
/* before: {"components": {"vel": {"storage": "sparse"}}} */
/* after: {"components": {"vel": {"storage": "sparse"}}, "queries": {"spin": {"all": ["vel", "link"], "owned": true}}} */
/* A schema edit elsewhere: another query that overlaps moving, and owns vel, is added;
 * moving is no longer owned, so m.vel.dx[i], right before, must stop compiling. */
#include "kit_ecs.h"

int sum_dx(kit_world_t *w) {
    int sum = 0;
    kit_moving_view_t m = kit_query_moving(w);
    for (size_t i = 0; i < m.count; i++) sum += m.vel.dx[i];
    return sum;
}
