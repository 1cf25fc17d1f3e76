/* expect: it__hidden */
/* A component the loop excludes has no row. */
#include "kit_ecs.h"

unsigned bad(kit_world_t *w) {
    unsigned n = 0;
    KIT_EACH_WITHOUT(w, it, (hidden), label) n += KIT_ROW(it, hidden);
    return n;
}
