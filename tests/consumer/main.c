/* main.c: a consumer of ecsgen: spawns from the schema's prefab and reports what the
 * generated API offers (the tests edit the schema and expect the output to follow). */
#include <stdio.h>

#include "mygame_ecs.h"

int main(void) {
    mygame_world_t *w = mygame_world_new();
    if (!w) return 1;
    ecs_entity_t hero = mygame_spawn_hero(w);
    int moved = 0;
    MYGAME_EACH_MOVEMENT(w, it) {
        MYGAME_FIELD(it, position, x) += MYGAME_FIELD(it, velocity, x);
        moved++;
    }
    printf("hero alive=%d hp=%d x=%g moved=%d\n", mygame_alive(w, hero), (int)mygame_get_health(w, hero).current,
           (double)mygame_get_position(w, hero).x, moved);
#ifdef MYGAME_ARMOR_DEFAULT
    printf("armor=%d\n", (int)MYGAME_ARMOR_DEFAULT.points);
#else
    printf("armor=none\n");
#endif
    mygame_world_free(w);
    return 0;
}
