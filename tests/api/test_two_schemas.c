/* test_two_schemas.c: the game schema (schema/game.json) and the kitchen schema linked into
 * one program: prefixed names never clash, and each world works on its own. */
#include <string.h>

#include "check.h"
#include "game_ecs.h"
#include "kit_ecs.h"

int main(void) {
    game_world_t *g = game_world_new();
    kit_world_t *k = kit_world_new();
    CHECK(g != NULL && k != NULL);

    ecs_entity_t ship = game_spawn_ship(g);
    ecs_entity_t crate = kit_spawn_crate(k);
    ecs_entity_t mover = game_spawn(g, &(game_spawn_desc_t){
        .position = &(game_position_t){ 1, 2 }, .velocity = &(game_velocity_t){ .x = 3 },
        .health = &GAME_HEALTH_DEFAULT, .frozen = true });
    ecs_entity_t beacon = kit_spawn_beacon(k);
    CHECK(ship && crate && mover && beacon);
    CHECK_EQ(game_count(g), 2);
    CHECK_EQ(kit_count(k), 2);

    /* Each world holds only its own components. */
    CHECK(game_has_player(g, ship) && game_get_health(g, ship).current == 100);
    CHECK(strcmp(game_get_name(g, ship).value, "ship") == 0);
    CHECK_EQ(game_get_health(g, mover).max, 100);
    CHECK(kit_has_hidden(k, crate) && strcmp(kit_get_label(k, crate).text, "crate") == 0);
    CHECK_EQ(k->components.pos.set.count, 1);
    CHECK_EQ(g->components.position.set.count, 2);

    /* Ids are plain values: a game component may name an entity of the other world. */
    CHECK(game_set_target(g, ship, (game_target_t){ beacon }));
    CHECK(kit_alive(k, game_get_target(g, ship).entity));

    /* Iteration in both, interleaved. */
    int moving = 0, visible = 0;
    GAME_EACH_MOVEMENT(g, it) {
        moving++;
        GAME_FIELD(it, position, x) += GAME_FIELD(it, velocity, x);
        KIT_EACH_VISIBLE(k, kt) visible++;
    }
    CHECK_EQ(moving, 1); /* mover is frozen */
    CHECK_EQ(visible, 1); /* crate is hidden */
    CHECK(game_get_position(g, mover).x == 1);

    /* Singletons of both. */
    CHECK(game_singleton_clock(g)->dt == 0.016666668f);
    CHECK(kit_singleton_settings(k)->seed == UINT64_MAX);

    /* Destroying in one world leaves the other alone, even for equal ids. */
    CHECK(game_destroy(g, ship));
    CHECK(!game_alive(g, ship));
    CHECK_EQ(kit_count(k), 2);
    CHECK(kit_alive(k, crate));
    game_world_free(g);
    CHECK(kit_has_pos(k, beacon));
    kit_world_free(k);
    return check_finish("test_two_schemas");
}
