/* expect: read-only */
/* move reads velocity: assigning to it does not compile. */
#include "sys_ecs.h"

void use(sys_move_t *s);
void use(sys_move_t *s) {
    SYS_MOVE_FIELD(s, velocity, x, 0) = 1.0f;
}
