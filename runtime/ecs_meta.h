/* ecs_meta.h: run-time metadata of a schema, generated as a const table (<name>_meta): its
 * components, their fields (name, type, offset, array length, enum names, default, doc) and
 * access to a world through void pointers, for editors, inspectors, consoles and the
 * generated save/load code, which walks the same table. */
#ifndef ECS_META_H
#define ECS_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecs_entities.h"

/* A field's element type, as the schema spells it. */
typedef enum ecs_meta_type {
    ECS_META_BOOL,
    ECS_META_I8,
    ECS_META_I16,
    ECS_META_I32,
    ECS_META_I64,
    ECS_META_U8,
    ECS_META_U16,
    ECS_META_U32,
    ECS_META_U64,
    ECS_META_F32,
    ECS_META_F64,
    ECS_META_ENTITY, /* ecs_entity_t */
    ECS_META_CHAR,   /* char[N]: a NUL-terminated string of at most N-1 bytes */
    ECS_META_ENUM    /* a generated C enum, valued 0..enum_count-1 */
} ecs_meta_type_t;

typedef struct ecs_meta_field {
    const char *name;
    ecs_meta_type_t type;
    size_t offset;       /* offsetof the field in the component's value struct */
    size_t size;         /* sizeof the field (every element, every char of a string) */
    size_t element_size; /* sizeof one element (a char for a string) */
    uint32_t length;     /* elements of an array field, N of char[N]; 0 for a scalar */
    const char *const *enum_names; /* ECS_META_ENUM: enum_count names, value k is enum_names[k] */
    uint32_t enum_count;
    const char *type_text;    /* as the schema spells it: "f32", "u8[4]", "char[32]", "enum { a, b }" */
    const char *default_text; /* the schema's default, as JSON: "0", "[1, 2]", "\"idle\"", "null" */
    const char *doc;          /* "" when the schema has none */
} ecs_meta_field_t;

typedef enum ecs_meta_kind {
    ECS_META_DATA,     /* per entity, with fields */
    ECS_META_TAG,      /* per entity, membership only: no fields, no value */
    ECS_META_SINGLETON /* one value in the world */
} ecs_meta_kind_t;

/* One component. The function pointers take the schema's world (<name>_world_t *) as void *
 * and its value struct (<name>_<component>_t) as void *; each is the generated function of the
 * same name (hooks fire as they do there). NULL where the kind has none: a tag has no get/set,
 * a singleton only its place in the world (singleton_offset). */
typedef struct ecs_meta_component {
    const char *name;
    const char *doc; /* "" when the schema has none */
    ecs_meta_kind_t kind;
    size_t size;                /* sizeof the value struct; 0 for a tag */
    const void *default_value;  /* the schema's defaults as a value struct; NULL for a tag */
    const ecs_meta_field_t *fields;
    uint32_t field_count;
    const char *const *field_names; /* the fields' names, in order (NULL for a tag) */
    size_t singleton_offset;    /* singletons: the value's offset in the world struct */
    bool (*has)(const void *w, ecs_entity_t e);
    size_t (*count)(const void *w);
    bool (*get)(const void *w, ecs_entity_t e, void *out); /* false (out untouched) when e lacks it */
    bool (*set)(void *w, ecs_entity_t e, const void *value);
    bool (*add)(void *w, ecs_entity_t e, const void *value); /* value: NULL for a tag */
    bool (*remove)(void *w, ecs_entity_t e);
} ecs_meta_component_t;

/* A schema: its components in schema order (per-entity and singletons alike). */
typedef struct ecs_meta_schema {
    const char *name;
    const char *doc;
    uint32_t version;
    const ecs_meta_component_t *components;
    uint32_t component_count;
    const uint32_t *pooled; /* the per-entity components' indexes in components, in pool order */
    uint32_t pooled_count;
} ecs_meta_schema_t;

/* For the generated tables: sizeof member m of struct type T. */
#define ECS_META_SIZEOF(T, m) sizeof(((T *)0)->m)

/* The component named name, or NULL. */
const ecs_meta_component_t *ecs_meta_find(const ecs_meta_schema_t *s, const char *name);
/* The field named name of c, or NULL. */
const ecs_meta_field_t *ecs_meta_find_field(const ecs_meta_component_t *c, const char *name);
/* Address of field f (element 0 of an array) in value, a value struct of f's component. */
static inline void *ecs_meta_field_ptr(void *value, const ecs_meta_field_t *f) {
    return (char *)value + f->offset;
}
static inline const void *ecs_meta_field_cptr(const void *value, const ecs_meta_field_t *f) {
    return (const char *)value + f->offset;
}
/* Singletons: the value in world w. */
static inline void *ecs_meta_singleton(void *w, const ecs_meta_component_t *c) {
    return (char *)w + c->singleton_offset;
}
/* The name of a type ("f32", "entity", "char", "enum"). */
const char *ecs_meta_type_name(ecs_meta_type_t t);

/* An integer element (bool, i8..u64, entity, enum) widened to 64 bits: signed types sign-
 * extended, the others zero-extended (an enum as its C type's unsigned bits). */
uint64_t ecs_meta_load_bits(const void *element, const ecs_meta_field_t *f);
/* Stores v (truncated to the element's size) into an integer element. */
void ecs_meta_store_bits(void *element, const ecs_meta_field_t *f, uint64_t v);

/* Folds value (a value struct of c) into h as the generated world hash does. */
uint64_t ecs_meta_hash_value(uint64_t h, const ecs_meta_component_t *c, const void *value);

#endif
