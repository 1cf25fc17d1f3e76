/* Compiles cleanly (-Wall -Wextra -Werror): FIELD and ROW of the loop's own components, in
 * nested loops too, and the raw row spelt out. The bad_*.c snippets differ from this by one
 * mistake each. */
#include "kit_ecs.h"

double ok(kit_world_t *w) {
    double sum = 0;
    KIT_EACH(w, it, pos, vel) {
        KIT_FIELD(it, pos, x) += KIT_FIELD(it, vel, dx);
        sum += w->components.pos.y[KIT_ROW(it, pos)] + w->components.pos.x[it.pos];
        KIT_EACH(w, inner, label) sum += KIT_FIELD(inner, label, text)[0] + KIT_FIELD(it, pos, y);
    }
    KIT_EACH_VISIBLE(w, it) sum += KIT_FIELD(it, pos, x);
    return sum;
}
