/* test_slot_rows.c: a slot row without its component holds zeros (get reads it unchecked
 * under NDEBUG) in every slot handed out, while growing the rows zeroes only the rows of
 * slots already handed out and spawn zeroes a new slot's rows. An allocator that fills every
 * byte it hands out with 0xA5 stands for memory that realloc does not zero, in a growable
 * world (sw: rows grow as slot components are added past them) and in fixed storage (kit:
 * world_new allocates every row, none zeroed), through spawn, destroy and reuse, and load. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kit_ecs.h"
#include "sw_ecs.h"

#define HEADER sizeof(max_align_t) /* each block carries its size in front */

/* realloc that fills the bytes a block gains with 0xA5. */
static void *poisoning_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    char *block = ptr ? (char *)ptr - HEADER : NULL;
    size_t old = block ? *(size_t *)(void *)block : 0;
    if (size == 0) {
        free(block);
        return NULL;
    }
    char *grown = realloc(block, size + HEADER);
    if (!grown) return NULL;
    *(size_t *)(void *)grown = size;
    if (size > old) memset(grown + HEADER + old, 0xA5, size - old);
    return grown + HEADER;
}

/* Rows of sw's s0 and s69 that slots handed out hold without the component and are not 0. */
static uint32_t sw_dirty_rows(const sw_world_t *w) {
    uint32_t dirty = 0;
    for (uint32_t k = 0; k < w->entities.used && k < w->slot_rows; k++) {
        ecs_entity_t e = ecs_entities_at(&w->entities, k);
        dirty += (e == ECS_NULL || !sw_has_s0(w, e)) && w->components.s0.v[k] != 0;
        dirty += (e == ECS_NULL || !sw_has_s69(w, e)) && w->components.s69.v[k] != 0;
    }
    return dirty;
}

/* The same for kit's vel (both fields). */
static uint32_t kit_dirty_rows(const kit_world_t *w) {
    uint32_t dirty = 0;
    for (uint32_t k = 0; k < w->entities.used; k++) {
        ecs_entity_t e = ecs_entities_at(&w->entities, k);
        if (e == ECS_NULL || !kit_has_vel(w, e)) dirty += w->components.vel.dx[k] != 0 || w->components.vel.dy[k] != 0;
    }
    return dirty;
}

static void growable(void) {
    sw_world_t *w = sw_world_new();
    CHECK(w != NULL);
    enum { N = 2000 };
    static ecs_entity_t ids[N];
    /* Bare entities past the rows, then ones with slot components (the rows grow past slots
     * already handed out), then bare ones into rows that exist. */
    for (int k = 0; k < N; k++) {
        const sw_spawn_desc_t *d = k < 300 || k >= 1500 ? NULL : &(sw_spawn_desc_t){ .s0 = &(sw_s0_t){ k + 1 } };
        CHECK((ids[k] = sw_spawn(w, d)) != ECS_NULL);
    }
    CHECK(w->slot_rows > 1500); /* rows exist past the slots handed out while they grew */
    CHECK_EQ(sw_dirty_rows(w), 0);
    /* s69 on a bare entity handed out before the rows reached it */
    CHECK(sw_add_s69(w, ids[10], (sw_s69_t){ 7 }));
    CHECK_EQ(sw_get_s69(w, ids[10]).v, 7);
    CHECK_EQ(sw_dirty_rows(w), 0);
    /* destroy and reuse: freed slots come back with zeroed rows */
    for (int k = 0; k < N; k += 7) CHECK(sw_destroy(w, ids[k]));
    for (int k = 0; k < N; k += 7) CHECK((ids[k] = sw_spawn(w, k % 2 ? NULL : &(sw_spawn_desc_t){ .s69 = &(sw_s69_t){ -k } })) != ECS_NULL);
    CHECK_EQ(sw_dirty_rows(w), 0);
    sw_world_free(w);
}

static void fixed_storage(void) {
    kit_world_t *w = kit_world_new();
    CHECK(w != NULL);
    enum { N = 500 };
    static ecs_entity_t ids[N];
    for (int k = 0; k < N; k++) {
        const kit_spawn_desc_t *d = k % 3 ? NULL : &(kit_spawn_desc_t){ .vel = &(kit_vel_t){ k + 1, -k - 1 } };
        CHECK((ids[k] = kit_spawn(w, d)) != ECS_NULL);
    }
    CHECK_EQ(kit_dirty_rows(w), 0);
    CHECK(kit_remove_vel(w, ids[0]));
    CHECK_EQ(kit_dirty_rows(w), 0);
    /* a load into a fresh fixed-storage world: every slot the document hands out */
    char *json = kit_world_to_json(w);
    CHECK(json != NULL);
    kit_world_t *back = kit_world_new();
    CHECK(back != NULL);
    ecs_error_t err;
    CHECK(kit_world_from_json(back, json, &err));
    CHECK_EQ(kit_count(back), (size_t)N);
    CHECK_EQ(kit_get_vel(back, ids[3]).dx, 4);
    CHECK_EQ(kit_dirty_rows(back), 0);
    free(json);
    kit_world_free(back);
    kit_world_free(w);
}

int main(void) {
    ecs_set_allocator(&(ecs_allocator_t){ poisoning_realloc, NULL });
    growable();
    fixed_storage();
    ecs_set_allocator(NULL);
    return check_finish("test_slot_rows");
}
