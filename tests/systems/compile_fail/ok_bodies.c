/* Reads and writes through FIELD as declared: compiles warning-free. */
#include "sys_ecs.h"

void use(sys_move_t *s, sys_tally_t *t, sys_glow_t *g);
void use(sys_move_t *s, sys_tally_t *t, sys_glow_t *g) {
    for (size_t i = 0; i < s->count; i++)
        SYS_MOVE_FIELD(s, position, x, i) += SYS_MOVE_FIELD(s, velocity, x, i) * SYS_MOVE_FIELD(s, clock, dt, 0);
    SYS_TALLY_FIELD(t, census, total, 0) = SYS_TALLY_FIELD(t, health, current, 0);
    for (size_t i = 0; i < g->count; i++) SYS_GLOW_FIELD(g, light, level, i) *= 2.0f;
    const float *p = &SYS_MOVE_FIELD(s, velocity, y, 0);
    (void)p;
}
