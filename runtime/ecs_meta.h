/* ecs_meta.h: run-time metadata of a schema, generated as a const table (<name>_meta): its
 * components, their fields (name, type, offset, array length, enum names, default, doc) and
 * access to a world through void pointers, for editors, inspectors, consoles and the
 * generated save/load code, which walks the same table. */
#ifndef ECS_META_H
#define ECS_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
    /* Texts: NULL when longer than the 4095 bytes a C string literal may portably hold (the
     * default of a long array, say: default_value has every default). */
    const char *type_text;    /* as the schema spells it: "f32", "u8[4]", "char[32]", "enum { a, b }" */
    const char *default_text; /* the schema's default, as JSON: "0", "[1, 2]", "\"idle\"", "null" */
    const char *doc;          /* "" when the schema has none */
    size_t column_offset;     /* per-entity components: the offset in the world of the pointer
                               * to the field's values, row after row: the field's own column
                               * ("layout": "soa"), or the pool's rows of value structs, shared
                               * by every field ("layout": "struct") */
    size_t row_stride;        /* "layout": "struct": the bytes from one row to the next (the value
                               * struct's size), the field at `offset` in each; 0: "soa" (a
                               * column of the field alone, `size` bytes a row) */
} ecs_meta_field_t;

/* Where a per-entity component's values live (the schema's "storage"). */
typedef enum ecs_meta_storage {
    ECS_META_SPARSE, /* a pool with a sparse set (ecs_sparse_t) */
    ECS_META_SLOT    /* a row per entity slot, presence in the slot's mask */
} ecs_meta_storage_t;

typedef enum ecs_meta_kind {
    ECS_META_DATA,     /* per entity, with fields */
    ECS_META_TAG,      /* per entity, membership only: no fields, no value */
    ECS_META_SINGLETON /* one value in the world */
} ecs_meta_kind_t;

typedef enum ecs_meta_op { ECS_META_OP_ADD, ECS_META_OP_SET, ECS_META_OP_REMOVE } ecs_meta_op_t;

struct ecs_meta_schema;

/* One component. Reads (has, count, get) go through the layout below; changes through
 * `change`, the generated add, set and remove (hooks and groups do their part there). */
typedef struct ecs_meta_component {
    const char *name;
    const char *doc; /* "" when the schema has none */
    ecs_meta_kind_t kind;
    size_t size;                /* sizeof the value struct; 0 for a tag */
    const void *default_value;  /* the schema's defaults as a value struct; NULL for a tag */
    const ecs_meta_field_t *fields;
    uint32_t field_count;
    const char *const *field_names; /* the fields' names, in order (NULL for a tag) */
    const struct ecs_meta_schema *schema;
    size_t singleton_offset;    /* singletons: the value's offset in the world struct */
    ecs_meta_storage_t storage; /* per-entity components: */
    size_t sparse_offset;       /* ECS_META_SPARSE: its pool's ecs_sparse_t's offset in the world */
    uint32_t slot_index;        /* ECS_META_SLOT: its bit in an entity's slot mask */
    size_t marks_offset;        /* its rows' change marks (ecs_marks_t) in the world; 0: none (a
                                 * singleton, a tag) */
    /* The schema's add (value ignored for a tag), set or remove of this component (c) for
     * world w (the schema's <name>_world_t) and a value struct of it, hooks fired as the
     * generated add, set and remove fire them; NULL for a singleton. */
    bool (*change)(void *w, const struct ecs_meta_component *c, ecs_entity_t e, ecs_meta_op_t op, const void *value);
} ecs_meta_component_t;

/* A schema: its components in schema order (per-entity and singletons alike) and the places
 * in its world struct the access functions below read. */
typedef struct ecs_meta_schema {
    const char *name;
    const char *doc;
    uint32_t version;
    const ecs_meta_component_t *components;
    uint32_t component_count;
    const uint32_t *pooled; /* the per-entity components' indexes in components, in pool order */
    uint32_t pooled_count;
    size_t entities_offset;   /* the world's ecs_entities_t */
    size_t slot_mask_offset;  /* slot storage: the world's mask array (a pointer) */
    size_t slot_count_offset; /* slot storage: the world's uint32_t per slot component */
    uint32_t mask_word_size;  /* slot storage: bytes of one mask word (1, 2, 4 or 8): 8 x that - 1
                               * components in each, the top bit the slot's written mark */
    uint32_t mask_words;      /* slot storage: words of one entity's mask */
} ecs_meta_schema_t;

/* Access to world w (the schema's <name>_world_t) for a per-entity component c, as the
 * generated functions of the same names do. get copies e's value into out (a value struct
 * of c) and is false, out untouched, when e is stale or lacks c; add and set take a value
 * struct (NULL for a tag). */
bool ecs_meta_has(const void *w, const ecs_meta_component_t *c, ecs_entity_t e);
/* e's row in c's columns (its slot for slot storage), or ECS_ROW_NONE when e is stale or lacks c. */
uint32_t ecs_meta_row(const void *w, const ecs_meta_component_t *c, ecs_entity_t e);
/* Overwrites row `row` of c's columns with value (a value struct of c), and marks the row
 * written (ecs_marks.h). */
void ecs_meta_write(void *w, const ecs_meta_component_t *c, uint32_t row, const void *value);
size_t ecs_meta_count(const void *w, const ecs_meta_component_t *c);
bool ecs_meta_get(const void *w, const ecs_meta_component_t *c, ecs_entity_t e, void *out);
static inline bool ecs_meta_add(void *w, const ecs_meta_component_t *c, ecs_entity_t e, const void *value) {
    return c->change(w, c, e, ECS_META_OP_ADD, value);
}
static inline bool ecs_meta_set(void *w, const ecs_meta_component_t *c, ecs_entity_t e, const void *value) {
    return c->change(w, c, e, ECS_META_OP_SET, value);
}
static inline bool ecs_meta_remove(void *w, const ecs_meta_component_t *c, ecs_entity_t e) {
    return c->change(w, c, e, ECS_META_OP_REMOVE, NULL);
}

/* Grows sparse-storage component c's pool in world w to its next capacity, the columns
 * first and the sparse set last, so running out of memory leaves the pool as it was (some
 * columns merely larger); false then, or when the set is at its largest. The generated
 * insert calls it when the pool is full. */
bool ecs_meta_grow_pool(void *w, const ecs_meta_component_t *c);

/* Frees every per-entity component's columns and sparse set in world w (world_free). */
void ecs_meta_free_pools(void *w, const ecs_meta_schema_t *s);

/* Field f's column in world w (the pool's array of that field, or its rows of value
 * structs): a pointer stored at an offset. */
static inline char *ecs_meta_column(const void *w, const ecs_meta_field_t *f) {
    char *column;
    memcpy(&column, (const char *)w + f->column_offset, sizeof column);
    return column;
}

/* The columns of per-entity component c: every field's, or the first's alone when the
 * fields share the pool's rows ("layout": "struct"); none for a tag. */
static inline uint32_t ecs_meta_column_count(const ecs_meta_component_t *c) {
    return c->field_count && c->fields[0].row_stride ? 1u : c->field_count;
}

/* The bytes of one row of column f (the value struct's size for "layout": "struct"). */
static inline size_t ecs_meta_column_stride(const ecs_meta_field_t *f) {
    return f->row_stride ? f->row_stride : f->size;
}

/* Field f of row `row` in world w's pool, in either layout. */
static inline void *ecs_meta_cell(const void *w, const ecs_meta_field_t *f, uint32_t row) {
    char *column;
    memcpy(&column, (const char *)w + f->column_offset, sizeof column);
    return f->row_stride ? column + (size_t)row * f->row_stride + f->offset : column + (size_t)row * f->size;
}

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
static inline const void *ecs_meta_singleton_const(const void *w, const ecs_meta_component_t *c) {
    return (const char *)w + c->singleton_offset;
}
/* ECS_META_SPARSE: the pool's sparse set in world w (its count, capacity and memory). */
static inline const struct ecs_sparse *ecs_meta_sparse(const void *w, const ecs_meta_component_t *c) {
    return (const struct ecs_sparse *)(const void *)((const char *)w + c->sparse_offset);
}
/* The name of a type ("f32", "entity", "char", "enum"). */
const char *ecs_meta_type_name(ecs_meta_type_t t);

/* An integer element (bool, i8..u64, entity, enum) widened to 64 bits: signed types sign-
 * extended, the others zero-extended (an enum as its C type's unsigned bits). */
uint64_t ecs_meta_load_bits(const void *element, const ecs_meta_field_t *f);
/* Stores v (truncated to the element's size) into an integer element. */
void ecs_meta_store_bits(void *element, const ecs_meta_field_t *f, uint64_t v);

/* Folds value (a value struct of c) into h, references as they are. */
uint64_t ecs_meta_hash_value(uint64_t h, const ecs_meta_component_t *c, const void *value);
/* Singleton c's value in world w, as the generated world hash folds it: references as a save
 * writes them (ecs_entities_saved_ref), so a world and its reload hash equal. */
uint64_t ecs_meta_hash_singleton(uint64_t h, const void *w, const ecs_meta_component_t *c);
/* The same for e's value of per-entity component c in world w, read in place (no copy: a
 * value may be larger than the stack); h unchanged when e lacks c or c is a tag. */
uint64_t ecs_meta_hash_entity(uint64_t h, const void *w, const ecs_meta_component_t *c, ecs_entity_t e);

#endif
