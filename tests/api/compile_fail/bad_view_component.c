/* expect: no member named 'label' */
/* A component the query does not name. */
#include "kit_ecs.h"

double bad(kit_world_t *w) {
    double sum = 0;
    kit_moving_view_t m = kit_query_moving(w);
    for (size_t i = 0; i < m.count; i++) sum += KIT_MOVING_FIELD(m, label, text, i)[0];
    return sum;
}
