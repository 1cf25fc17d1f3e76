/* expect: no member named */
/* One system's accessor on another system's context (age has no position). */
#include "sys_ecs.h"

float use(sys_age_t *s);
float use(sys_age_t *s) {
    return SYS_MOVE_FIELD(s, position, x, 0);
}
