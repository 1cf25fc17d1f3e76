/* game_systems.h: what the demo's main (demo.c) and its systems (game_systems.c) share. */
#ifndef GAME_SYSTEMS_H
#define GAME_SYSTEMS_H

#include <stdint.h>

#include "game_ecs.h"

#define DEMO_ARENA 1000.0f
#define DEMO_FIRE_EVERY 6 /* frames */

/* The demo's random numbers (xorshift64*): reproducible per seed. Used by setup and by the
 * collide system, which spawns and so runs alone, on one thread. */
void demo_seed(uint64_t seed);
float demo_rnd(float lo, float hi);
/* A new asteroid somewhere in the arena: recorded (game_defer_spawn) inside a step. */
game_spawn_desc_t demo_asteroid(game_position_t *p, game_velocity_t *v, game_radius_t *r, game_health_t *h);

#endif
