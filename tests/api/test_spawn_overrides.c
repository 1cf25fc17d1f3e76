/* test_spawn_overrides.c: keeping the schema's defaults when giving some values, on the
 * kitchen schema: <NAME>_<C>_DEFAULT then assignments, and prefab spawns with overrides
 * (<name>_spawn_<prefab>_with): a desc's components replace the prefab's or join them. */
#include <string.h>

#include "check.h"
#include "kit_ecs.h"

/* Starting from the defaults keeps the fields not assigned; a compound literal zeroes them. */
static void test_defaults_then_assign(void) {
    kit_world_t *w = kit_world_new();
    kit_pos_t p = KIT_POS_DEFAULT; /* x: no default (0), y: -1.5 */
    p.x = 5;
    ecs_entity_t kept = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &p });
    ecs_entity_t zeroed = kit_spawn(w, &(kit_spawn_desc_t){ .pos = &(kit_pos_t){ .x = 5 } });
    CHECK(kit_get_pos(w, kept).x == 5 && kit_get_pos(w, kept).y == -1.5);
    CHECK(kit_get_pos(w, zeroed).x == 5 && kit_get_pos(w, zeroed).y == 0);
    kit_world_free(w);
}

/* beacon: scalars { s32 7, f32 1.5 }, arrays, state { warming }, pos { x 2.5 }, link, marked. */
static void test_prefab_with(void) {
    kit_world_t *w = kit_world_new();
    ecs_entity_t plain = kit_spawn_beacon(w);
    ecs_entity_t same = kit_spawn_beacon_with(w, NULL);
    ecs_entity_t empty = kit_spawn_beacon_with(w, &(kit_spawn_desc_t){ 0 });
    for (int k = 0; k < 3; k++) {
        ecs_entity_t e = k == 0 ? plain : k == 1 ? same : empty;
        CHECK(kit_has_scalars(w, e) && kit_has_arrays(w, e) && kit_has_state(w, e) && kit_has_pos(w, e));
        CHECK(kit_has_link(w, e) && kit_has_marked(w, e));
        CHECK(!kit_has_vel(w, e) && !kit_has_hidden(w, e) && !kit_has_label(w, e) && !kit_has_floats(w, e));
        CHECK_EQ(kit_get_scalars(w, e).s32, 7);
        CHECK(kit_get_pos(w, e).x == 2.5 && kit_get_pos(w, e).y == -1.5);
        CHECK_EQ(kit_get_state(w, e).mode, KIT_STATE_MODE_WARMING);
    }

    /* Replace pos (its other field keeps the default through KIT_POS_DEFAULT), add vel and
     * hidden; a tag left false does not take the prefab's marked away. */
    kit_pos_t p = KIT_POS_DEFAULT;
    p.x = 9;
    ecs_entity_t e = kit_spawn_beacon_with(w, &(kit_spawn_desc_t){
        .pos = &p, .vel = &(kit_vel_t){ 1, 2 }, .hidden = true, .marked = false });
    CHECK(kit_get_pos(w, e).x == 9 && kit_get_pos(w, e).y == -1.5);
    CHECK(kit_has_vel(w, e) && kit_get_vel(w, e).dx == 1 && kit_get_vel(w, e).dy == 2);
    CHECK(kit_has_hidden(w, e) && kit_has_marked(w, e));
    CHECK_EQ(kit_get_scalars(w, e).s32, 7); /* not overridden: the prefab's */
    CHECK_EQ(kit_get_arrays(w, e).ints[2], 3);

    /* crate: scalars, label { "crate" }, hidden; its label replaced */
    kit_label_t l = KIT_LABEL_DEFAULT;
    strcpy(l.text, "box");
    ecs_entity_t c = kit_spawn_crate_with(w, &(kit_spawn_desc_t){ .label = &l });
    CHECK(strcmp(kit_get_label(w, c).text, "box") == 0);
    CHECK(strcmp(kit_get_label(w, c).trigraph, KIT_LABEL_DEFAULT.trigraph) == 0);
    CHECK(kit_has_scalars(w, c) && kit_has_hidden(w, c));
    CHECK_EQ(kit_count(w), 5);
    kit_world_free(w);
}

int main(void) {
    test_defaults_then_assign();
    test_prefab_with();
    return check_finish("test_spawn_overrides");
}
