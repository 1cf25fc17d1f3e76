/* test_json_huge.c: a component of 20 f64[65535] fields (10 MB, more than a thread's 8 MB
 * stack) and a singleton of 1 MB, in a thread with a 1 MB stack. Making a world, saving,
 * hashing and loading must not copy either onto the stack (they once overflowed it); values
 * are given and checked through the heap, refs and the singleton's pointer. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "huge_ecs.h"
#include "check.h"

/* Small numbers (quick to print), and a mark at element `field` of each field, so a mixed-up
 * field shows. */
static double value_at(int field, int k) {
    return k == field ? 100 + field : k % 9;
}

static int mismatches(huge_world_t *w, ecs_entity_t e) {
    huge_big_ref_t r = huge_ref_big(w, e);
    double (*fields[20])[65535] = { r.f0, r.f1, r.f2, r.f3, r.f4, r.f5, r.f6, r.f7, r.f8, r.f9,
                                    r.f10, r.f11, r.f12, r.f13, r.f14, r.f15, r.f16, r.f17, r.f18, r.f19 };
    int wrong = 0;
    for (int f = 0; f < 20; f++) {
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
    double (*fields[20])[65535] = { &big->f0, &big->f1, &big->f2, &big->f3, &big->f4, &big->f5, &big->f6,
                                    &big->f7, &big->f8, &big->f9, &big->f10, &big->f11, &big->f12, &big->f13,
                                    &big->f14, &big->f15, &big->f16, &big->f17, &big->f18, &big->f19 };
    for (int f = 0; f < 20; f++)
        for (int k = 0; k < 65535; k++) (*fields[f])[k] = value_at(f, k);
    ecs_entity_t plain = huge_spawn(w, &(huge_spawn_desc_t){ .small = &(huge_small_t){ 1.5f } });
    ecs_entity_t e = huge_spawn(w, &(huge_spawn_desc_t){ .big = big, .small = &(huge_small_t){ 2.5f } });
    CHECK(plain != ECS_NULL && e != ECS_NULL);
    CHECK_EQ(mismatches(w, e), 0);

    char *text = huge_world_to_json(w);
    CHECK(text != NULL && strstr(text, "\"f19\":\t[0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 119, 2, ") != NULL);
    ecs_error_t err;
    CHECK(text && huge_world_from_json(back, text, &err));
    CHECK_EQ(huge_count(back), 2u);
    CHECK_EQ(mismatches(back, e), 0);
    CHECK_EQ(huge_get_small(back, e).x, 2.5f);
    CHECK_EQ(huge_get_small(back, plain).x, 1.5f);
    CHECK_EQ(huge_singleton_table(back)->b[65534], 7.0);
    CHECK_EQ(huge_singleton_table(back)->scale, 2.5f);
    CHECK_EQ(huge_world_hash(back), huge_world_hash(w));
    (*huge_ref_big(w, e).f7)[123] = -1.0; /* the hash reads every element */
    CHECK(huge_world_hash(back) != huge_world_hash(w));

    free(text);
    free(big);
    huge_world_free(w);
    huge_world_free(back);
    return NULL;
}

int main(void) {
    pthread_attr_t attr;
    pthread_t thread;
    CHECK(pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, 1u << 20) == 0);
    CHECK(pthread_create(&thread, &attr, run, NULL) == 0 && pthread_join(thread, NULL) == 0);
    pthread_attr_destroy(&attr);
    return check_finish("test_json_huge");
}
