/* test_shapes.c: the .c's insert and erase per shape make the world the header's make.
 *
 * shapes.json has shapes of five or six components each (soa floats, struct layout with
 * and without padding, strings and arrays, tags), which the .c inserts and erases through
 * one function per shape called with the component's place, and one component alone. World
 * A takes random spawns through spawn's two bodies (a desc built at run time; literals),
 * and adds and removes with a hook on every component (the change function: the shapes'
 * functions through the pool table); world B takes the same as an empty spawn and the
 * header's inline add and remove of each component. Destroys go to both. They must save to
 * the same document and hash alike throughout, A's hooks must count every add, and a
 * snapshot of A must come back after more changes. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "shp_ecs.h"

/* Every pooled component: X(name). */
#define SHP_DATA(X)                                                                                  \
    X(p0) X(p1) X(p2) X(p3) X(p4) X(p5) X(r0) X(r1) X(r2) X(r3) X(r4) X(q0) X(q1) X(q2) X(q3) X(q4) \
    X(s0) X(s1) X(s2) X(s3) X(s4) X(one)
#define SHP_TAGS(X) X(t0) X(t1) X(t2) X(t3) X(t4)

enum { COMPONENTS = 27, IDS = 400, STEPS = 20000 };

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(uint32_t n) { return (uint32_t)(check_xorshift(&rng) % n); }

/* A value of each data component, its fields random (metadata-driven), zeroed first. */
typedef union {
    shp_p0_t p;
    shp_r0_t r;
    shp_q0_t q;
    shp_s0_t s;
    shp_one_t one;
} value_t;

static void random_value(const ecs_meta_component_t *c, void *out) {
    memset(out, 0, c->size);
    for (uint32_t k = 0; k < c->field_count; k++) {
        const ecs_meta_field_t *f = &c->fields[k];
        char *at = ecs_meta_field_ptr(out, f);
        if (f->type == ECS_META_CHAR) {
            at[0] = (char)('a' + rnd(26));
            at[1] = (char)('a' + rnd(26));
        } else if (f->type == ECS_META_F32) {
            float v = (float)rnd(1000) / 4.0f;
            memcpy(at, &v, sizeof v);
        } else if (f->type == ECS_META_F64) {
            double v = (double)rnd(100000) / 8.0;
            memcpy(at, &v, sizeof v);
        } else {
            uint32_t n = f->length ? f->length : 1u;
            for (uint32_t i = 0; i < n; i++) ecs_meta_store_bits(at + i * f->element_size, f, rnd(250));
        }
    }
}

/* The component at place k of the table, by name in the X lists' order. */
static const char *const names[COMPONENTS] = {
#define NAME(n) #n,
    SHP_DATA(NAME) SHP_TAGS(NAME)
#undef NAME
};

typedef struct {
    bool named[COMPONENTS];
    value_t values[COMPONENTS];
} case_t;

static void random_case(case_t *c) {
    for (uint32_t k = 0; k < COMPONENTS; k++) {
        c->named[k] = rnd(3) == 0;
        const ecs_meta_component_t *m = ecs_meta_find(&shp_meta, names[k]);
        CHECK(m != NULL);
        if (m->kind == ECS_META_DATA) random_value(m, &c->values[k]);
    }
}

static shp_spawn_desc_t desc_of(const case_t *c) {
    shp_spawn_desc_t d = { 0 };
    uint32_t k = 0;
#define MEMBER(n) d.n = c->named[k] ? (const shp_##n##_t *)(const void *)&c->values[k] : NULL, k++;
#define FLAG(n) d.n = c->named[k], k++;
    SHP_DATA(MEMBER) SHP_TAGS(FLAG)
#undef MEMBER
#undef FLAG
    return d;
}

/* B's way: an empty spawn, then the header's inline add of each named component. */
static ecs_entity_t spawn_by_adds(shp_world_t *w, const case_t *c) {
    ecs_entity_t e = shp_spawn(w, NULL);
    uint32_t k = 0;
#define ADD(n) CHECK(!c->named[k] || shp_add_##n(w, e, *(const shp_##n##_t *)(const void *)&c->values[k])); k++;
#define ADD_TAG(n) CHECK(!c->named[k] || shp_add_##n(w, e)); k++;
    SHP_DATA(ADD) SHP_TAGS(ADD_TAG)
#undef ADD
#undef ADD_TAG
    return e;
}

/* Removes component k of e: the inline remove (through the change function while a hook is set). */
static bool remove_one(shp_world_t *w, ecs_entity_t e, uint32_t k) {
    uint32_t at = 0;
    bool removed = false;
#define REMOVE(n) if (at++ == k) removed = shp_remove_##n(w, e);
    SHP_DATA(REMOVE) SHP_TAGS(REMOVE)
#undef REMOVE
    return removed;
}

static uint32_t added;

static void count_add(shp_world_t *w, ecs_entity_t e, void *user) {
    (void)w, (void)e, (void)user;
    added++;
}

static void same(const shp_world_t *a, const shp_world_t *b) {
    char *ja = shp_world_to_json(a), *jb = shp_world_to_json(b);
    CHECK(ja && jb && strcmp(ja, jb) == 0);
    free(ja);
    free(jb);
    CHECK_EQ(shp_world_hash(a), shp_world_hash(b));
    CHECK_EQ(shp_query_pp((shp_world_t *)a).count, shp_query_pp((shp_world_t *)b).count);
}

int main(void) {
    shp_world_t *a = shp_world_new(), *b = shp_world_new();
    CHECK(a && b);
#define HOOK(n) shp_on_##n(a, &(shp_hooks_t){ .on_add = count_add });
    SHP_DATA(HOOK) SHP_TAGS(HOOK)
#undef HOOK
    static ecs_entity_t ids[IDS];
    uint32_t expected_adds = 0;
    shp_p0_t pv = { 1.5f, 2.5f };
    shp_r2_t rv = { 7, 0.25 };
    shp_s4_t sv = { "lit", { 1, 2, 3 } };
    shp_one_t ov = { -4 };
    for (int step = 0; step < STEPS; step++) {
        uint32_t at = rnd(IDS), op = rnd(8);
        if (ids[at] == ECS_NULL && op < 6) { /* a spawn: a desc of run time, or a literal */
            case_t c;
            random_case(&c);
            if (op == 0) { /* the literal below, for B as adds */
                memset(c.named, 0, sizeof c.named);
                c.named[0] = c.named[3] = c.named[8] = c.named[20] = c.named[21] = c.named[23] = true;
                memcpy(&c.values[0], &pv, sizeof pv);
                memcpy(&c.values[3], &pv, sizeof pv);
                memcpy(&c.values[8], &rv, sizeof rv);
                memcpy(&c.values[20], &sv, sizeof sv);
                memcpy(&c.values[21], &ov, sizeof ov);
                ids[at] = shp_spawn(a, &(shp_spawn_desc_t){ .p0 = &pv, .p3 = (const shp_p3_t *)(const void *)&pv,
                                                              .r2 = &rv, .s4 = &sv, .one = &ov, .t1 = true });
            } else {
                shp_spawn_desc_t d = desc_of(&c);
                ids[at] = shp__spawn_desc(a, &d);
            }
            CHECK_EQ(ids[at], spawn_by_adds(b, &c));
            for (uint32_t k = 0; k < COMPONENTS; k++) expected_adds += c.named[k];
        } else if (ids[at] != ECS_NULL && op == 6) {
            CHECK(shp_destroy(a, ids[at]));
            CHECK(shp_destroy(b, ids[at]));
            ids[at] = ECS_NULL;
        } else if (ids[at] != ECS_NULL) { /* remove a component, or add one back */
            uint32_t k = rnd(COMPONENTS);
            bool removed = remove_one(a, ids[at], k);
            CHECK_EQ(removed, remove_one(b, ids[at], k));
            if (!removed) {
                const ecs_meta_component_t *m = ecs_meta_find(&shp_meta, names[k]);
                value_t v;
                memset(&v, 0, sizeof v);
                if (m->kind == ECS_META_DATA) random_value(m, &v);
                CHECK(ecs_meta_add(a, m, ids[at], m->kind == ECS_META_DATA ? &v : NULL));
                case_t one;
                memset(&one, 0, sizeof one);
                one.named[k] = true;
                one.values[k] = v;
                uint32_t at_k = 0;
#define ADD(n) if (at_k++ == k) { CHECK(shp_add_##n(b, ids[at], *(const shp_##n##_t *)(const void *)&one.values[k])); }
#define ADD_TAG(n) if (at_k++ == k) { CHECK(shp_add_##n(b, ids[at])); }
                SHP_DATA(ADD) SHP_TAGS(ADD_TAG)
#undef ADD
#undef ADD_TAG
                expected_adds++;
            }
        }
        if (step % 1000 == 0) same(a, b);
    }
    same(a, b);
    CHECK_EQ(added, expected_adds);

    /* A snapshot of A comes back after destroys and spawns. */
    char *before = shp_world_to_json(a);
    shp_snapshot_t *snap = shp_snapshot_new();
    CHECK(before && snap && shp_snapshot_take(a, snap));
    for (uint32_t k = 0; k < IDS; k += 2)
        if (ids[k] != ECS_NULL) shp_destroy(a, ids[k]);
    shp_spawn(a, &(shp_spawn_desc_t){ .p5 = (const shp_p5_t *)(const void *)&pv, .t4 = true });
    CHECK(shp_snapshot_restore(a, snap));
    char *after = shp_world_to_json(a);
    CHECK(after && strcmp(before, after) == 0);
    free(before);
    free(after);
    shp_snapshot_free(snap);
    shp_world_free(a);
    shp_world_free(b);
    return check_finish("shapes");
}
