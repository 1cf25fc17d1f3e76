// test_cpp.cpp: the generated API of schema/game.json used from C++ (built as C++17 and
// C++20 with -Wall -Wextra -Werror): every kind of call, each checked for its result.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "game_ecs.h"

static int failures = 0;
#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                    \
        }                                                                  \
    } while (0)

int main() {
    game_world_t *w = game_world_new();
    CHECK(w != nullptr);

    // Prefab spawn, get, has, count.
    ecs_entity_t ship = game_spawn_ship(w);
    CHECK(game_alive(w, ship));
    CHECK(game_has_player(w, ship));
    CHECK(game_get_mood(w, ship).state == GAME_MOOD_STATE_IDLE);

    // Spawn from a description, with a default macro.
    game_position_t pos = GAME_POSITION_DEFAULT;
    pos.x = 3.0f;
    game_velocity_t vel = {};
    vel.x = 1.0f;
    game_spawn_desc_t desc = {};
    desc.position = &pos;
    desc.velocity = &vel;
    ecs_entity_t rock = game_spawn(w, &desc);
    CHECK(game_count_position(w) >= 2);

    // add / set / ref / remove, tags.
    game_health_t hp = {};
    hp.current = 5;
    hp.max = 9;
    CHECK(game_add_health(w, rock, hp));
    hp.current = 6;
    CHECK(game_set_health(w, rock, hp));
    game_health_ref_t ref = game_ref_health(w, rock);
    CHECK(ref.current != nullptr && *ref.current == 6);
    CHECK(game_add_asteroid(w, rock));
    CHECK(game_remove_health(w, rock));
    CHECK(!game_has_health(w, rock));

    // Loops: the EACH macro and the query view.
    int moved = 0;
    GAME_EACH_MOVEMENT(w, it) {
        GAME_FIELD(it, position, x) += GAME_FIELD(it, velocity, x);
        moved++;
    }
    CHECK(moved >= 1);
    CHECK(game_get_position(w, rock).x == 4.0f);
    game_movement_view_t view = game_query_movement(w);
    CHECK(view.count >= 1);
    for (size_t i = 0; i < view.count; i++) GAME_MOVEMENT_FIELD(view, position, y, i) = 2.0f;
    CHECK(game_get_position(w, rock).y == 2.0f);

    // Defaults by address (a constant object in C++: a temporary has none) and by value.
    game_spawn_desc_t dflt = {};
    dflt.health = &GAME_HEALTH_DEFAULT;
    dflt.lifetime = &GAME_LIFETIME_DEFAULT;
    ecs_entity_t plain = game_spawn(w, &dflt);
    CHECK(game_get_health(w, plain).max == 100 && game_get_health(w, plain).current == 0);
    CHECK(game_get_lifetime(w, plain).seconds == 2.0f);
    const game_health_t *dp = &GAME_HEALTH_DEFAULT;
    CHECK(dp->max == 100 && game_set_health(w, plain, GAME_HEALTH_DEFAULT));
    static_assert(GAME_HEALTH_DEFAULT.max == 100, "a constant expression too");
    CHECK(game_destroy(w, plain));

    // Hooks (a captureless lambda is a hook function) and a prefab with overrides.
    static int health_removed = 0;
    int health_added = 0;
    game_hooks_t hooks = {};
    hooks.on_add = [](game_world_t *, ecs_entity_t, void *user) { (*static_cast<int *>(user))++; };
    hooks.on_remove = [](game_world_t *hw, ecs_entity_t e, void *) { health_removed += game_has_health(hw, e); };
    hooks.user = &health_added;
    game_on_health(w, &hooks);
    game_health_t weak = GAME_HEALTH_DEFAULT;
    weak.current = 1;
    game_spawn_desc_t over = {};
    over.health = &weak;
    ecs_entity_t hurt = game_spawn_ship_with(w, &over);
    CHECK(game_get_health(w, hurt).current == 1 && game_get_health(w, hurt).max == 100);
    CHECK(game_has_player(w, hurt));
    CHECK(game_destroy(w, hurt));
    CHECK(health_added == 1 && health_removed == 1);
    game_on_health(w, nullptr);

    // Singleton, deferred changes, destroy.
    game_singleton_clock(w)->frame = 7;
    CHECK(game_singleton_clock(w)->frame == 7);
    CHECK(game_defer_destroy(w, rock));
    CHECK(game_deferred_count(w) == 1);
    CHECK(game_apply_deferred(w));
    CHECK(!game_alive(w, rock));

    // JSON round trip into a second world.
    char *json = game_world_to_json(w);
    CHECK(json != nullptr);
    game_world_t *copy = game_world_new();
    ecs_error_t err = {};
    CHECK(game_world_from_json(copy, json, &err));
    CHECK(game_count(copy) == game_count(w));
    CHECK(game_singleton_clock(copy)->frame == 7);
    std::free(json);
    game_world_free(copy);
    game_world_free(w);
    if (failures == 0) std::puts("c++ api ok");
    return failures == 0 ? 0 : 1;
}
