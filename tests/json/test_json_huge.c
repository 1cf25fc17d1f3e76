/* test_json_huge.c: a component of 2 f64[65535] fields and a singleton, each just under the
 * generator's 1 MiB limit, in a thread with a 256 KiB stack. Making a world, saving, hashing
 * and loading must not copy either onto the stack (they once overflowed it; a copy here
 * overflows the small stack and crashes); values are given and checked through the heap,
 * refs and the singleton's pointer. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "huge_ecs.h"
#include "check.h"

#define STACK_BYTES (256u * 1024u)
#define GUARD_BYTES (4u * 1024u * 1024u)

/* Small numbers (quick to print), and a mark at element `field` of each field, so a mixed-up
 * field shows. */
static double value_at(int field, int k) {
    return k == field ? 100 + field : k % 9;
}

static int mismatches(huge_world_t *w, ecs_entity_t e) {
    huge_big_ref_t r = huge_ref_big(w, e);
    double (*fields[2])[65535] = { r.f0, r.f1 };
    int wrong = 0;
    for (int f = 0; f < 2; f++) {
        if (!fields[f]) return -1;
        for (int k = 0; k < 65535; k++) wrong += (*fields[f])[k] != value_at(f, k);
    }
    return wrong;
}

static void *run(void *unused) {
    (void)unused;
    huge_big_t *big = malloc(sizeof *big);
    huge_world_t *w = huge_world_new(), *back = huge_world_new();
    CHECK(big && w && back);
    if (!big || !w || !back) return NULL;
    CHECK_EQ(huge_singleton_table(w)->scale, 2.5f); /* the default, set without a copy */
    huge_singleton_table(w)->b[65534] = 7;
    double (*fields[2])[65535] = { &big->f0, &big->f1 };
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < 65535; k++) (*fields[f])[k] = value_at(f, k);
    ecs_entity_t plain = huge_spawn(w, &(huge_spawn_desc_t){ .small = &(huge_small_t){ 1.5f } });
    ecs_entity_t e = huge_spawn(w, &(huge_spawn_desc_t){ .big = big, .small = &(huge_small_t){ 2.5f } });
    CHECK(plain != ECS_NULL && e != ECS_NULL);
    CHECK_EQ(mismatches(w, e), 0);

    char *text = huge_world_to_json(w);
    CHECK(text != NULL && strstr(text, "\"f1\":\t[0, 101, 2, 3, 4, 5, 6, 7, 8, 0, 1, ") != NULL);
    ecs_error_t err;
    CHECK(text && huge_world_from_json(back, text, &err));
    CHECK_EQ(huge_count(back), 2u);
    CHECK_EQ(mismatches(back, e), 0);
    CHECK_EQ(huge_get_small(back, e).x, 2.5f);
    CHECK_EQ(huge_get_small(back, plain).x, 1.5f);
    CHECK_EQ(huge_singleton_table(back)->b[65534], 7.0);
    CHECK_EQ(huge_singleton_table(back)->scale, 2.5f);
    CHECK_EQ(huge_world_hash(back), huge_world_hash(w));
    (*huge_ref_big(w, e).f1)[123] = -1.0; /* the hash reads every element */
    CHECK(huge_world_hash(back) != huge_world_hash(w));

    free(text);
    free(big);
    huge_world_free(w);
    huge_world_free(back);
    return NULL;
}

int main(void) {
    /* Smaller than either component (about 1 MiB), so a copy of one on the stack crashes: it
     * lands in the guard below the stack, made larger than a component for that. */
    _Static_assert(sizeof(huge_big_t) > 3 * STACK_BYTES && sizeof(huge_table_t) > 3 * STACK_BYTES,
                   "a copy of a component must not fit the thread's stack");
    pthread_attr_t attr;
    pthread_t thread;
    CHECK(pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, STACK_BYTES) == 0 &&
          pthread_attr_setguardsize(&attr, GUARD_BYTES) == 0);
    CHECK(pthread_create(&thread, &attr, run, NULL) == 0 && pthread_join(thread, NULL) == 0);
    pthread_attr_destroy(&attr);
    return check_finish("test_json_huge");
}
