/* expect: subscript */
/* A row used as a plain index, here another component's: the pre-typed-rows spelling. */
#include "kit_ecs.h"

double bad(kit_world_t *w) {
    double sum = 0;
    KIT_EACH(w, it, pos, vel) sum += w->components.pos.x[it.vel];
    return sum;
}
