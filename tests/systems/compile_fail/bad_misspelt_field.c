/* expect: no member named */
#include "sys_ecs.h"

float use(sys_move_t *s);
float use(sys_move_t *s) {
    return SYS_MOVE_FIELD(s, position, z, 0);
}
