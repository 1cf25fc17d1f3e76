/* Compiles cleanly (-Wall -Wextra -Werror): FIELD of each view's own components, owned
 * (visible, labelled) and not (moving: vel has slot storage; steering: slot storage only),
 * read, written and by address; an owned view's arrays by i. The bad_view_*.c snippets
 * differ from this by one mistake each. */
#include "kit_ecs.h"

double ok(kit_world_t *w) {
    double sum = 0;
    kit_visible_view_t v = kit_query_visible(w);
    for (size_t i = 0; i < v.count; i++) {
        KIT_VISIBLE_FIELD(v, pos, x, i) += 1;
        sum += KIT_VISIBLE_FIELD(v, pos, y, i) + v.pos.x[i]; /* owned: v.pos.x[i] is match i's too */
    }
    kit_labelled_view_t l = kit_query_labelled(w);
    for (size_t i = 0; i < l.count; i++) sum += KIT_LABELLED_FIELD(l, label, text, i)[0];
    kit_moving_view_t m = kit_query_moving(w);
    for (size_t i = 0; i < m.count; i++) {
        double *x = &KIT_MOVING_FIELD(m, pos, x, i);
        *x += KIT_MOVING_FIELD(m, vel, dx, i);
    }
    kit_steering_view_t s = kit_query_steering(w);
    for (int i = 0; i < (int)s.count; i++) sum += KIT_STEERING_FIELD(s, vel, dy, i) + (int)KIT_STEERING_FIELD(s, state, mode, i);
    return sum;
}
