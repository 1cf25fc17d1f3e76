/* expect: no member named */
/* ignite's query has health, but ignite neither reads nor writes it: a filter only. */
#include "sys_ecs.h"

int use(sys_ignite_t *s);
int use(sys_ignite_t *s) {
    return SYS_IGNITE_FIELD(s, health, current, 0);
}
