/* expect: inner__pos */
/* The inner loop's iterator with the outer loop's component. */
#include "kit_ecs.h"

double bad(kit_world_t *w) {
    double sum = 0;
    KIT_EACH(w, it, pos) {
        KIT_EACH(w, inner, label) sum += KIT_FIELD(inner, pos, x);
    }
    return sum;
}
