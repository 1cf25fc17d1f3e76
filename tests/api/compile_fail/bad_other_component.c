/* expect: it__label */
/* A component the loop does not name. */
#include "kit_ecs.h"

double bad(kit_world_t *w) {
    double sum = 0;
    KIT_EACH(w, it, pos, vel) sum += KIT_FIELD(it, label, text)[0];
    return sum;
}
