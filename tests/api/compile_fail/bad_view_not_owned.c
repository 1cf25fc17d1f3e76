/* expect: no member named 'pos' */
/* A non-owned view's arrays indexed by the match: row i of pos is not match i's (moving is
 * not owned: vel has slot storage). A view has no v.<c> once its query is not owned. */
#include "kit_ecs.h"

double bad(kit_world_t *w) {
    double sum = 0;
    kit_moving_view_t m = kit_query_moving(w);
    for (size_t i = 0; i < m.count; i++) sum += m.pos.x[i];
    return sum;
}
