/* expect: incompatible */
/* One pool's row stored as another's. */
#include "kit_ecs.h"

void bad(kit_world_t *w) {
    KIT_EACH(w, it, pos, vel) it.pos = it.vel;
}
