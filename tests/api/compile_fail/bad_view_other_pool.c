/* expect: no member named 'vel' */
/* One pool's row used in another pool: the row macro is gone, FIELD takes the match. */
#include "kit_ecs.h"

double bad(kit_world_t *w) {
    double sum = 0;
    kit_moving_view_t m = kit_query_moving(w);
    for (size_t i = 0; i < m.count; i++) sum += m.vel.dx[KIT_MOVING_ROW(m, pos, i)];
    return sum;
}
