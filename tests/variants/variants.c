/* variants.c: three generated ECSs in one program, on one copy of the runtime: game (its own
 * schema) and server and editor (two variants built from schema/shared.json). Each world
 * keeps its own entities; the shared components have the same shape in both variants. */
#include <string.h>

#include "../check.h"
#include "editor_ecs.h"
#include "game_ecs.h"
#include "server_ecs.h"

int main(void) {
    game_world_t *g = game_world_new();
    server_world_t *s = server_world_new();
    editor_world_t *ed = editor_world_new();
    CHECK(g && s && ed);

    /* The shared prefab exists in both variants, with the shared defaults. */
    ecs_entity_t ss = server_spawn_ship(s);
    ecs_entity_t es = editor_spawn_ship(ed);
    CHECK(server_has_player(s, ss) && editor_has_player(ed, es));
    CHECK_EQ(server_get_health(s, ss).max, 100);
    CHECK_EQ(editor_get_health(ed, es).max, 100);
    CHECK(strcmp(server_get_name(s, ss).value, "ship") == 0);
    CHECK(strcmp(editor_get_name(ed, es).value, "ship") == 0);

    /* Each variant's own parts. */
    CHECK(server_add_replicated(s, ss));
    CHECK(server_set_target(s, ss, (server_target_t){ .entity = ss }));
    ecs_entity_t point = editor_spawn_spawn_point(ed);
    CHECK_EQ(editor_get_gizmo(ed, point).kind, EDITOR_GIZMO_KIND_MOVE);
    CHECK(editor_get_gizmo(ed, point).size == 1.0f);
    CHECK(editor_add_selected(ed, point));

    /* A shared component value moves between variants field for field. */
    server_set_position(s, ss, (server_position_t){ 3, 4 });
    server_position_t sp = server_get_position(s, ss);
    CHECK(editor_set_position(ed, es, (editor_position_t){ sp.x, sp.y }));
    CHECK(editor_get_position(ed, es).x == 3.0f && editor_get_position(ed, es).y == 4.0f);

    /* The shared query runs in each variant over its own world. */
    game_spawn_ship(g);
    CHECK(editor_set_velocity(ed, es, (editor_velocity_t){ 1, 0 }));
    int moved = 0;
    EDITOR_EACH_MOVEMENT(ed, it) {
        EDITOR_FIELD(it, position, x) += EDITOR_FIELD(it, velocity, x);
        moved++;
    }
    CHECK_EQ(moved, 1);
    CHECK(editor_get_position(ed, es).x == 4.0f);
    CHECK(server_get_position(s, ss).x == 3.0f);
    int selected = 0;
    EDITOR_EACH_SELECTION(ed, it) selected++;
    CHECK_EQ(selected, 1);

    CHECK_EQ(game_count(g), 1);
    CHECK_EQ(server_count(s), 1);
    CHECK_EQ(editor_count(ed), 2);
    CHECK(server_destroy(s, ss));
    CHECK(editor_alive(ed, es)); /* ids are per world */
    CHECK_EQ(server_count(s), 0);

    game_world_free(g);
    server_world_free(s);
    editor_world_free(ed);
    return check_finish("variants");
}
