/* ecs_meta.c: look-ups and value access over the generated metadata tables (ecs_meta.h). */
#include "ecs_meta.h"

#include <string.h>

#include "ecs_hash.h"

const ecs_meta_component_t *ecs_meta_find(const ecs_meta_schema_t *s, const char *name) {
    for (uint32_t k = 0; k < s->component_count; k++)
        if (!strcmp(s->components[k].name, name)) return &s->components[k];
    return NULL;
}

const ecs_meta_field_t *ecs_meta_find_field(const ecs_meta_component_t *c, const char *name) {
    for (uint32_t k = 0; k < c->field_count; k++)
        if (!strcmp(c->fields[k].name, name)) return &c->fields[k];
    return NULL;
}

const char *ecs_meta_type_name(ecs_meta_type_t t) {
    static const char *const names[] = { "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
                                         "f32", "f64", "entity", "char", "enum" };
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

static bool ecs_meta_signed(ecs_meta_type_t t) {
    return t == ECS_META_I8 || t == ECS_META_I16 || t == ECS_META_I32 || t == ECS_META_I64;
}

uint64_t ecs_meta_load_bits(const void *element, const ecs_meta_field_t *f) {
    bool sign = ecs_meta_signed(f->type);
    switch (f->element_size) { /* memcpy: an enum's element has its own C type */
    case 1: {
        uint8_t v;
        memcpy(&v, element, 1);
        return sign ? (uint64_t)(int64_t)(int8_t)v : v;
    }
    case 2: {
        uint16_t v;
        memcpy(&v, element, 2);
        return sign ? (uint64_t)(int64_t)(int16_t)v : v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, element, 4);
        return sign ? (uint64_t)(int64_t)(int32_t)v : v;
    }
    default: {
        uint64_t v;
        memcpy(&v, element, 8);
        return v;
    }
    }
}

void ecs_meta_store_bits(void *element, const ecs_meta_field_t *f, uint64_t v) {
    uint8_t b1 = (uint8_t)v;
    uint16_t b2 = (uint16_t)v;
    uint32_t b4 = (uint32_t)v;
    switch (f->element_size) {
    case 1: memcpy(element, &b1, 1); break;
    case 2: memcpy(element, &b2, 2); break;
    case 4: memcpy(element, &b4, 4); break;
    default: memcpy(element, &v, 8); break;
    }
}

uint64_t ecs_meta_hash_value(uint64_t h, const ecs_meta_component_t *c, const void *value) {
    for (uint32_t k = 0; k < c->field_count; k++) {
        const ecs_meta_field_t *f = &c->fields[k];
        const char *at = ecs_meta_field_cptr(value, f);
        if (f->type == ECS_META_CHAR) {
            h = ecs_hash_string(h, at, f->size);
            continue;
        }
        uint32_t n = f->length ? f->length : 1u;
        for (uint32_t i = 0; i < n; i++, at += f->element_size) {
            if (f->type == ECS_META_F32) {
                float v;
                memcpy(&v, at, sizeof v);
                h = ecs_hash_f32(h, v);
            } else if (f->type == ECS_META_F64) {
                double v;
                memcpy(&v, at, sizeof v);
                h = ecs_hash_f64(h, v);
            } else {
                h = ecs_hash_mix(h, ecs_meta_load_bits(at, f));
            }
        }
    }
    return h;
}
