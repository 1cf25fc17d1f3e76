/* test_relations_clear.c: a schema whose relations all clear (tests/relations/relclear.json).
 * Its destroy of a target has no cascade to walk: the sources lose the relation, keep their
 * other components and stay alive; the target goes. (This schema once generated a destroy
 * with the cascade walk's unused variables, which -Werror refused.) */
#include "check.h"
#include "relclear_ecs.h"

int main(void) {
    relclear_world_t *w = relclear_world_new();
    CHECK(w != NULL);
    ecs_entity_t boss = relclear_spawn(w, &(relclear_spawn_desc_t){ .position = &(relclear_position_t){ 1.0f } });
    ecs_entity_t a = relclear_spawn(w, &(relclear_spawn_desc_t){ .owner = &(relclear_owner_t){ boss },
                                                                .position = &(relclear_position_t){ 2.0f } });
    ecs_entity_t b = relclear_spawn(w, &(relclear_spawn_desc_t){ .owner = &(relclear_owner_t){ boss },
                                                                .tied_to = &(relclear_tied_to_t){ boss } });
    ecs_entity_t c = relclear_spawn(w, &(relclear_spawn_desc_t){ .owner = &(relclear_owner_t){ a } }); /* a's source */
    CHECK(a != ECS_NULL && b != ECS_NULL && c != ECS_NULL);
    CHECK(!relclear_add_tied_to(w, boss, (relclear_tied_to_t){ b })); /* a cycle is refused here too */
    CHECK(relclear_add_tied_to(w, boss, (relclear_tied_to_t){ c })); /* boss is a source itself */
    CHECK(relclear__relations_verify(w));

    CHECK(relclear_destroy(w, boss));
    CHECK(!relclear_alive(w, boss));
    CHECK(relclear_alive(w, a) && relclear_alive(w, b) && relclear_alive(w, c));
    CHECK(!relclear_has_owner(w, a) && !relclear_has_owner(w, b) && !relclear_has_tied_to(w, b));
    CHECK(relclear_has_position(w, a) && relclear_get_position(w, a).x == 2.0f);
    CHECK(relclear_has_owner(w, c) && relclear_get_owner(w, c).target == a); /* not a source of boss: kept */
    CHECK_EQ(relclear_count(w), 3);
    CHECK(relclear__relations_verify(w));

    CHECK(relclear_destroy(w, a)); /* a has a source (c): cleared, c stays */
    CHECK(relclear_alive(w, c) && !relclear_has_owner(w, c));
    CHECK(!relclear_destroy(w, a)); /* already gone */
    CHECK_EQ(relclear_count(w), 2);
    CHECK(relclear__relations_verify(w));
    relclear_world_free(w);
    return check_finish("test_relations_clear");
}
