/* scene.c: a small scene graph with relations (docs/relations.md). A sun, two planets and a
 * moon, each a child_of its parent; a camera follows the moon. One depth-first pass turns
 * local offsets into world positions; the moon moves to the other planet (a re-parent); the
 * world is saved before and after, loaded back, and the sun's destruction takes its whole
 * tree with it while the camera only loses what it followed.
 *
 *     scene DIR     writes DIR/scene_before.json and DIR/scene_after.json; then
 *     ecsgen-dump diff DIR/scene_before.json DIR/scene_after.json   says "3v0: child_of 1v0 -> 2v0"
 *     and build/examples/scene_inspector.html shows the tree (docs/inspector.md) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_ecs.h"

static ecs_entity_t node(scene_world_t *w, const char *name, float x, float y, ecs_entity_t parent) {
    scene_name_t n = { 0 };
    snprintf(n.value, sizeof n.value, "%s", name);
    return scene_spawn_node_with(w, &(scene_spawn_desc_t){
        .name = &n,
        .local = &(scene_local_t){ x, y },
        .child_of = parent ? &(scene_child_of_t){ parent } : NULL,
    });
}

/* World positions: each node's parent is updated before it. */
static void propagate(scene_world_t *w) {
    SCENE_EACH_CHILD_OF_DEPTH_FIRST(w, it) {
        scene_local_t l = scene_get_local(w, it.id);
        scene_global_t p = it.target ? scene_get_global(w, it.target) : (scene_global_t){ 0, 0 };
        scene_set_global(w, it.id, (scene_global_t){ p.x + l.x, p.y + l.y });
    }
}

/* The tree under e, indented. */
static void print_tree(const scene_world_t *w, ecs_entity_t e, int depth) {
    scene_global_t g = scene_get_global(w, e);
    printf("%*s%s at (%g, %g), %zu children\n", depth * 2, "", scene_get_name(w, e).value, g.x, g.y,
           scene_count_child_of_of(w, e));
    SCENE_EACH_CHILD_OF_OF(w, it, e) print_tree(w, it.id, depth + 1);
}

static int save(const scene_world_t *w, const char *dir, const char *file) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    ecs_error_t err;
    if (!scene_world_save(w, path, &err)) {
        fprintf(stderr, "scene: %s\n", err.message);
        return 1;
    }
    printf("saved %s\n", path);
    return 0;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    scene_world_t *w = scene_world_new();
    if (!w) return 1;
    ecs_entity_t sun = node(w, "sun", 0, 0, ECS_NULL);
    ecs_entity_t earth = node(w, "earth", 10, 0, sun);
    ecs_entity_t mars = node(w, "mars", 0, 15, sun);
    ecs_entity_t moon = node(w, "moon", 1, 0, earth);
    ecs_entity_t camera = node(w, "camera", 0, 0, ECS_NULL);
    scene_add_follows(w, camera, (scene_follows_t){ moon });
    /* relations stay a forest: the sun cannot become the moon's child */
    if (scene_set_child_of(w, sun, (scene_child_of_t){ moon })) return 1;
    propagate(w);
    print_tree(w, sun, 0);
    if (save(w, dir, "scene_before.json")) return 1;

    scene_set_child_of(w, moon, (scene_child_of_t){ mars }); /* the moon changes planet */
    propagate(w);
    print_tree(w, sun, 0);
    if (save(w, dir, "scene_after.json")) return 1;

    /* load the first save back: the same world (its hash), the tree as it was */
    char *after = scene_world_to_json(w);
    uint64_t hash_after = scene_world_hash(w);
    char path[4096];
    snprintf(path, sizeof path, "%s/scene_before.json", dir);
    ecs_error_t err;
    if (!scene_world_load(w, path, &err)) {
        fprintf(stderr, "scene: %s\n", err.message);
        return 1;
    }
    printf("loaded %s: the moon is earth's again (%zu child)\n", path, scene_count_child_of_of(w, earth));
    if (scene_get_child_of(w, moon).target != earth || scene_world_hash(w) == hash_after) return 1;
    if (!scene_world_from_json(w, after, &err)) return 1;
    free(after);
    if (scene_world_hash(w) != hash_after) return 1;

    scene_destroy(w, sun); /* the whole tree goes; the camera stays, following nothing */
    printf("after destroying the sun: %zu entities, the camera follows %s\n", scene_count(w),
           scene_has_follows(w, camera) ? "something" : "nothing");
    int ok = scene_count(w) == 1 && !scene_has_follows(w, camera);
    scene_world_free(w);
    return ok ? 0 : 1;
}
