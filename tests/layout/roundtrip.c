/* roundtrip.c: built twice, on the kitchen schema (every component "layout": "soa") and on
 * its struct-layout copy (tests/layout/to_struct.py). Both layouts must save the same world
 * as the same document, load each other's documents, and hash alike.
 *     roundtrip write OUT     builds a fixed world through the metadata, saves it to OUT
 *     roundtrip load IN OUT   loads IN, saves it again to OUT
 * Each prints the world's hash. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kit_ecs.h"

static uint8_t scratch[1 << 16];

/* Element j of field f in value v, a value derived from entity index i. */
static void fill(void *v, const ecs_meta_field_t *f, uint32_t i, const ecs_entity_t *live, uint32_t nlive) {
    uint32_t n = f->length && f->type != ECS_META_CHAR ? f->length : 1u;
    for (uint32_t j = 0; j < n; j++) {
        char *at = (char *)ecs_meta_field_ptr(v, f) + (size_t)j * f->element_size;
        uint32_t x = i * 2654435761u + j * 40503u + f->type;
        switch (f->type) {
        case ECS_META_BOOL: ecs_meta_store_bits(at, f, x & 1u); break;
        case ECS_META_ENUM: ecs_meta_store_bits(at, f, x % f->enum_count); break;
        case ECS_META_ENTITY: ecs_meta_store_bits(at, f, x % 3u ? live[x % nlive] : ECS_NULL); break;
        case ECS_META_F32: { float g = (float)(int32_t)x / 1024.0f; memcpy(at, &g, sizeof g); break; }
        case ECS_META_F64: { double g = (double)(int32_t)x / 3.0; memcpy(at, &g, sizeof g); break; }
        case ECS_META_CHAR: snprintf(at, f->size, "e%" PRIu32 "-%" PRIu32, i, x % 97u); break;
        default: ecs_meta_store_bits(at, f, (uint64_t)x * 0x9E3779B97F4A7C15u); break;
        }
    }
}

static int write_world(const char *out) {
    kit_world_t *w = kit_world_new();
    enum { N = 300 };
    ecs_entity_t e[N];
    for (uint32_t i = 0; i < N; i++) e[i] = kit_spawn(w, NULL);
    const ecs_meta_schema_t *s = &kit_meta;
    for (uint32_t k = 0; k < s->pooled_count; k++) {
        const ecs_meta_component_t *c = &s->components[s->pooled[k]];
        for (uint32_t i = 0; i < N; i++) {
            if ((i + k) % 4u == 0) continue; /* some lack it: holes in the pools */
            if (c->kind == ECS_META_TAG) { ecs_meta_add(w, c, e[i], NULL); continue; }
            memcpy(scratch, c->default_value, c->size);
            if (i % 5u)
                for (uint32_t f = 0; f < c->field_count; f++) fill(scratch, &c->fields[f], i + k, e, N);
            if (!ecs_meta_add(w, c, e[i], scratch)) return fprintf(stderr, "add %s failed\n", c->name), 1;
        }
    }
    /* Removes and destroys move rows (swap-remove, groups) and leave generations. */
    for (uint32_t i = 0; i < N; i += 7) kit_destroy(w, e[i]);
    for (uint32_t k = 0; k < s->pooled_count; k++)
        for (uint32_t i = 1; i < N; i += 11) ecs_meta_remove(w, &s->components[s->pooled[k]], e[i]);
    for (uint32_t i = 0; i < N / 10; i++) kit_spawn(w, NULL);
    ecs_error_t err;
    if (!kit_world_save(w, out, &err)) return fprintf(stderr, "save: %s\n", err.message), 1;
    printf("%016" PRIx64 "\n", kit_world_hash(w));
    kit_world_free(w);
    return 0;
}

static int load_world(const char *in, const char *out) {
    kit_world_t *w = kit_world_new();
    ecs_error_t err;
    if (!kit_world_load(w, in, &err)) return fprintf(stderr, "load: %s\n", err.message), 1;
    if (!kit_world_save(w, out, &err)) return fprintf(stderr, "save: %s\n", err.message), 1;
    printf("%016" PRIx64 "\n", kit_world_hash(w));
    kit_world_free(w);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "write")) return write_world(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "load")) return load_world(argv[2], argv[3]);
    fprintf(stderr, "usage: roundtrip write OUT | roundtrip load IN OUT\n");
    return 2;
}
