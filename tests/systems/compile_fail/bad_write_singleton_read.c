/* expect: read-only */
/* move reads the clock singleton: writing it does not compile. */
#include "sys_ecs.h"

void use(sys_move_t *s);
void use(sys_move_t *s) {
    SYS_MOVE_FIELD(s, clock, frame, 0)++;
}
