/* static_capacity.c: a schema with max_entities (schema/server.json, 1024) gets fixed storage:
 * world_new allocates SERVER_WORLD_BYTES bytes and nothing is allocated after it, however the
 * world is used; spawn returns ECS_NULL when it is full. A counting allocator installed with
 * ecs_set_allocator sees every allocation. */
#include <stdalign.h>
#include <stdlib.h>

#include "../check.h"
#include "server_ecs.h"

typedef struct counter {
    size_t calls; /* allocations and resizes (frees not counted) */
    size_t live;  /* bytes currently allocated */
} counter_t;

/* Each block carries its size in front, so frees and resizes keep `live` exact. */
#define HEADER sizeof(max_align_t)

static void *counting_realloc(void *ptr, size_t size, void *user) {
    counter_t *c = user;
    size_t old = 0;
    char *block = NULL;
    if (ptr) {
        block = (char *)ptr - HEADER;
        old = *(size_t *)(void *)block;
    }
    if (size == 0) {
        c->live -= old;
        free(block);
        return NULL;
    }
    c->calls++;
    char *grown = realloc(block, size + HEADER);
    if (!grown) return NULL;
    *(size_t *)(void *)grown = size;
    c->live = c->live - old + size;
    return grown + HEADER;
}

int main(void) {
    counter_t count = { 0, 0 };
    ecs_set_allocator(&(ecs_allocator_t){ counting_realloc, &count });

    server_world_t *w = server_world_new();
    CHECK(w != NULL);
    CHECK_EQ(count.live, SERVER_WORLD_BYTES);
    size_t after_new = count.calls;
    CHECK(after_new > 0);

    /* Fill the world: every pool, up to the limit. */
    ecs_entity_t first = ECS_NULL, last = ECS_NULL;
    for (uint32_t i = 0; i < 1024; i++) {
        ecs_entity_t e = server_spawn(w, &(server_spawn_desc_t){
            .position = &(server_position_t){ (float)i, 0 },
            .velocity = &(server_velocity_t){ 1, 1 },
            .health = &SERVER_HEALTH_DEFAULT,
            .name = &(server_name_t){ "n" },
            .target = &(server_target_t){ ECS_NULL },
            .connection = &(server_connection_t){ i, 5 },
            .player = true,
            .replicated = true,
        });
        CHECK(e != ECS_NULL);
        if (i == 0) first = e;
        last = e;
    }
    CHECK_EQ(server_count(w), 1024);
    CHECK_EQ(server_spawn(w, NULL), ECS_NULL); /* full */
    CHECK_EQ(server_spawn_ship(w), ECS_NULL);
    CHECK_EQ(server_count(w), 1024);

    /* Churn: remove, re-add, destroy, respawn, iterate. */
    CHECK(server_remove_position(w, first));
    CHECK(server_add_position(w, first, (server_position_t){ 7, 7 }));
    CHECK(server_remove_replicated(w, last));
    CHECK(server_add_replicated(w, last));
    for (int round = 0; round < 3; round++) {
        CHECK(server_destroy(w, last));
        last = server_spawn_ship(w);
        CHECK(last != ECS_NULL);
        CHECK(server_set_connection(w, last, (server_connection_t){ 1, 2 }));
    }
    size_t moving = 0;
    SERVER_EACH_MOVEMENT(w, it) moving++;
    CHECK_EQ(moving, 1024);

    CHECK_EQ(count.calls, after_new); /* not one allocation after world_new */
    CHECK_EQ(count.live, SERVER_WORLD_BYTES);

    server_world_free(w);
    CHECK_EQ(count.live, 0);
    ecs_set_allocator(NULL);
    return check_finish("static_capacity");
}
