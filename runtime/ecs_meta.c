/* ecs_meta.c: look-ups and value access over the generated metadata tables (ecs_meta.h). */
#include "ecs_meta.h"

#include <string.h>

#include "ecs_alloc.h"
#include "ecs_hash.h"
#include "ecs_sparse.h"

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

/* ---- World access: the layout the table describes --------------------------------- */

static const ecs_entities_t *ecs_meta_entities(const void *w, const ecs_meta_component_t *c) {
    return (const ecs_entities_t *)(const void *)((const char *)w + c->schema->entities_offset);
}

/* Whether slot `index` (of a live entity) has slot component c. */
static bool ecs_meta_slot_has(const void *w, const ecs_meta_component_t *c, uint32_t index) {
    const ecs_meta_schema_t *s = c->schema;
    const unsigned char *mask;
    memcpy(&mask, (const char *)w + s->slot_mask_offset, sizeof mask);
    uint32_t bits = s->mask_word_size * 8u - 1u; /* components a word: its top bit is the slot's written mark */
    uint64_t word = 0; /* the word holding c's bit, in the machine's byte order */
    const unsigned char *at = mask + ((size_t)index * s->mask_words + c->slot_index / bits) * s->mask_word_size;
    switch (s->mask_word_size) {
    case 1: { uint8_t v; memcpy(&v, at, 1); word = v; break; }
    case 2: { uint16_t v; memcpy(&v, at, 2); word = v; break; }
    case 4: { uint32_t v; memcpy(&v, at, 4); word = v; break; }
    default: memcpy(&word, at, 8); break;
    }
    return (word >> (c->slot_index % bits)) & 1u;
}

uint32_t ecs_meta_row(const void *w, const ecs_meta_component_t *c, ecs_entity_t e) {
    if (c->kind == ECS_META_SINGLETON || !ecs_entities_alive(ecs_meta_entities(w, c), e)) return ECS_ROW_NONE;
    if (c->storage == ECS_META_SLOT)
        return ecs_meta_slot_has(w, c, ecs_entity_index(e)) ? ecs_entity_index(e) : ECS_ROW_NONE;
    return ecs_sparse_row(ecs_meta_sparse(w, c), e);
}

bool ecs_meta_has(const void *w, const ecs_meta_component_t *c, ecs_entity_t e) {
    return ecs_meta_row(w, c, e) != ECS_ROW_NONE;
}

size_t ecs_meta_count(const void *w, const ecs_meta_component_t *c) {
    if (c->kind == ECS_META_SINGLETON) return 0;
    if (c->storage == ECS_META_SPARSE) return ecs_meta_sparse(w, c)->count;
    uint32_t n;
    memcpy(&n, (const char *)w + c->schema->slot_count_offset + c->slot_index * sizeof n, sizeof n);
    return n;
}

bool ecs_meta_get(const void *w, const ecs_meta_component_t *c, ecs_entity_t e, void *out) {
    uint32_t row = ecs_meta_row(w, c, e);
    if (row == ECS_ROW_NONE) return false;
    for (uint32_t k = 0; k < c->field_count; k++) {
        const ecs_meta_field_t *f = &c->fields[k];
        memcpy(ecs_meta_field_ptr(out, f), ecs_meta_cell(w, f, row), f->size);
    }
    return true;
}

void ecs_meta_write(void *w, const ecs_meta_component_t *c, uint32_t row, const void *value) {
    if (c->marks_offset) ecs_mark((ecs_marks_t *)(void *)((char *)w + c->marks_offset), row);
    for (uint32_t k = 0; k < c->field_count; k++) {
        const ecs_meta_field_t *f = &c->fields[k];
        memcpy(ecs_meta_cell(w, f, row), ecs_meta_field_cptr(value, f), f->size);
    }
}

bool ecs_meta_grow_pool(void *w, const ecs_meta_component_t *c) {
    ecs_sparse_t *set = (ecs_sparse_t *)(void *)((char *)w + c->sparse_offset);
    uint32_t cap;
    if (!ecs_sparse_next_capacity(set, &cap)) return false;
    for (uint32_t k = 0; k < ecs_meta_column_count(c); k++) {
        const ecs_meta_field_t *f = &c->fields[k];
        void *column = ecs_realloc_array(ecs_meta_column(w, f), cap, ecs_meta_column_stride(f));
        if (!column) return false;
        memcpy((char *)w + f->column_offset, &column, sizeof column);
    }
    return ecs_sparse_set_capacity(set, cap);
}

void ecs_meta_free_pools(void *w, const ecs_meta_schema_t *s) {
    for (uint32_t k = 0; k < s->pooled_count; k++) {
        const ecs_meta_component_t *c = &s->components[s->pooled[k]];
        for (uint32_t i = 0; i < ecs_meta_column_count(c); i++) ecs_free(ecs_meta_column(w, &c->fields[i]));
        if (c->storage == ECS_META_SPARSE) ecs_sparse_fini((ecs_sparse_t *)(void *)((char *)w + c->sparse_offset));
        if (c->marks_offset) ecs_marks_fini((ecs_marks_t *)(void *)((char *)w + c->marks_offset));
    }
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

/* Folds field f's value at `at` into h: a string's bytes up to NUL, floats by their bits,
 * integers widened (signed ones sign-extended). */
/* t: the world's table, to hash references as a save writes them (NULL: as they are). */
static uint64_t ecs_meta_hash_field(uint64_t h, const ecs_meta_field_t *f, const char *at, const ecs_entities_t *t) {
    if (f->type == ECS_META_CHAR) return ecs_hash_string(h, at, f->size);
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
        } else if (f->type == ECS_META_ENTITY && t) {
            ecs_entity_t v;
            memcpy(&v, at, sizeof v);
            h = ecs_hash_mix(h, ecs_entities_saved_ref(t, v));
        } else {
            h = ecs_hash_mix(h, ecs_meta_load_bits(at, f));
        }
    }
    return h;
}

uint64_t ecs_meta_hash_value(uint64_t h, const ecs_meta_component_t *c, const void *value) {
    for (uint32_t k = 0; k < c->field_count; k++)
        h = ecs_meta_hash_field(h, &c->fields[k], ecs_meta_field_cptr(value, &c->fields[k]), NULL);
    return h;
}

uint64_t ecs_meta_hash_singleton(uint64_t h, const void *w, const ecs_meta_component_t *c) {
    const ecs_entities_t *t = ecs_meta_entities(w, c);
    const char *value = (const char *)w + c->singleton_offset;
    for (uint32_t k = 0; k < c->field_count; k++)
        h = ecs_meta_hash_field(h, &c->fields[k], ecs_meta_field_cptr(value, &c->fields[k]), t);
    return h;
}

uint64_t ecs_meta_hash_entity(uint64_t h, const void *w, const ecs_meta_component_t *c, ecs_entity_t e) {
    uint32_t row = ecs_meta_row(w, c, e);
    if (row == ECS_ROW_NONE) return h;
    for (uint32_t k = 0; k < c->field_count; k++) {
        const ecs_meta_field_t *f = &c->fields[k];
        h = ecs_meta_hash_field(h, f, ecs_meta_cell(w, f, row), ecs_meta_entities(w, c));
    }
    return h;
}
