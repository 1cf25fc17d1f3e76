/* test_world_bytes.c: in fixed storage (the kitchen schema: max_entities 50000) world_new
 * allocates exactly KIT_WORLD_BYTES, the figure the header and docs promise: every pool's
 * rows and sparse set (32-bit slot indexes, or 64-bit ids for an owned view's driver), the
 * slot rows and masks, and each non-owned view's list (one row list for a slot-only query,
 * whose pools share it). A counting allocator sees every allocation. */
#include <stdlib.h>

#include "check.h"
#include "kit_ecs.h"

#define HEADER sizeof(max_align_t) /* each block carries its size in front */

static size_t live;

static void *counting_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    char *block = ptr ? (char *)ptr - HEADER : NULL;
    size_t old = block ? *(size_t *)(void *)block : 0;
    if (size == 0) {
        live -= old;
        free(block);
        return NULL;
    }
    char *grown = realloc(block, size + HEADER);
    if (!grown) return NULL;
    *(size_t *)(void *)grown = size;
    live = live - old + size;
    return grown + HEADER;
}

int main(void) {
    ecs_set_allocator(&(ecs_allocator_t){ counting_realloc, NULL });
    kit_world_t *w = kit_world_new();
    CHECK(w != NULL);
    CHECK_EQ(live, (size_t)KIT_WORLD_BYTES);
    kit_world_free(w);
    CHECK_EQ(live, 0);
    ecs_set_allocator(NULL);
    return check_finish("test_world_bytes");
}
