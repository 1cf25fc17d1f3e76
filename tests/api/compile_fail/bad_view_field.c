/* expect: no member named 'z' */
/* A misspelt field, in an owned view. */
#include "kit_ecs.h"

double bad(kit_world_t *w) {
    double sum = 0;
    kit_visible_view_t v = kit_query_visible(w);
    for (size_t i = 0; i < v.count; i++) sum += KIT_VISIBLE_FIELD(v, pos, z, i);
    return sum;
}
