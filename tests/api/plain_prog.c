/* plain_prog.c: the program plain_build.sh compiles with README's line, without meson:
 *     cc -Iruntime -IDIR prog.c DIR/kit_ecs.c runtime/*.c -lcjson -lm
 * Self-contained (no check.h: only runtime/ and DIR are on the include path). */
#include <stdio.h>
#include <string.h>

#include "kit_ecs.h"

static int failures;
#define EXPECT(cond) ((cond) ? (void)0 : (void)(failures++, fprintf(stderr, "prog.c:%d: %s\n", __LINE__, #cond)))

int main(void) {
    kit_world_t *w = kit_world_new();
    EXPECT(w != NULL);
    ecs_entity_t a = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &KIT_POS_DEFAULT, .vel = &(kit_vel_t){ 2, 3 } });
    ecs_entity_t b = kit_spawn_beacon(w);
    ecs_entity_t c = kit_spawn_crate(w);
    EXPECT(kit_count(w) == 3);
    EXPECT(kit_get_pos(w, a).y == -1.5);
    EXPECT(kit_get_scalars(w, b).s32 == 7);
    EXPECT(strcmp(kit_get_label(w, c).text, "crate") == 0);
    int n = 0;
    KIT_EACH(w, it, pos, vel) {
        n++;
        KIT_FIELD(it, pos, x) += KIT_FIELD(it, vel, dx);
    }
    EXPECT(n == 1);
    EXPECT(kit_get_pos(w, a).x == 2);
    EXPECT(kit_destroy(w, a) && !kit_alive(w, a) && kit_count(w) == 2);
    EXPECT(kit_singleton_settings(w)->seed == UINT64_MAX);
    kit_world_free(w);
    printf("plain_prog: %d failed\n", failures);
    return failures != 0;
}
