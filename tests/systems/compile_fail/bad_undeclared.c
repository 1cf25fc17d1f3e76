/* expect: no member named */
/* move declares no health: naming it does not compile. */
#include "sys_ecs.h"

int use(sys_move_t *s);
int use(sys_move_t *s) {
    return SYS_MOVE_FIELD(s, health, current, 0);
}
