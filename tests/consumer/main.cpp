// main.cpp: main.c as a C++ program, for the C++-only consumer projects (project(consumer
// CXX) in CMake, project('consumer', 'cpp') in meson): same calls, same output.
#include <cstdio>

#include "mygame_ecs.h"

int main() {
    mygame_world_t *w = mygame_world_new();
    if (!w) return 1;
    ecs_entity_t hero = mygame_spawn_hero(w);
    int moved = 0;
    MYGAME_EACH_MOVEMENT(w, it) {
        MYGAME_FIELD(it, position, x) += MYGAME_FIELD(it, velocity, x);
        moved++;
    }
    std::printf("hero alive=%d hp=%d x=%g moved=%d\n", mygame_alive(w, hero), (int)mygame_get_health(w, hero).current,
                (double)mygame_get_position(w, hero).x, moved);
#ifdef MYGAME_ARMOR_DEFAULT
    std::printf("armor=%d\n", (int)MYGAME_ARMOR_DEFAULT.points);
#else
    std::printf("armor=none\n");
#endif
    mygame_world_free(w);
    return 0;
}
