/* ecs_types.h: the runtime's basic types: entity ids and the error struct. */
#ifndef ECS_TYPES_H
#define ECS_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecs_version.h"

/* The runtime API level generated code once checked; frozen, kept for code that tests it.
 * Generated headers now check the whole version (ecs_version.h). */
#define ECS_RUNTIME_API 8

/* For the one-line tests every hot path makes (liveness): inline even where the compiler's
 * size heuristics would not (a generated destroy or spawn calls them from many places). */
#if defined(__GNUC__) || defined(__clang__)
#define ECS_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ECS_ALWAYS_INLINE inline
#endif

/* An entity id: generation in the high 32 bits, slot index + 1 in the low 32 bits, so that
 * 0 is never a valid id. A destroyed id stays stale forever: its slot's generation moves on. */
typedef uint64_t ecs_entity_t;

#define ECS_NULL ((ecs_entity_t)0)
/* Slot indexes run from 0 to ECS_INDEX_MAX. */
#define ECS_INDEX_MAX (UINT32_MAX - 1u)

static inline uint32_t ecs_entity_index(ecs_entity_t e) {
    return (uint32_t)(e & UINT32_MAX) - 1u; /* ECS_NULL gives UINT32_MAX: no slot */
}

static inline uint32_t ecs_entity_generation(ecs_entity_t e) {
    return (uint32_t)(e >> 32);
}

static inline ecs_entity_t ecs_entity_make(uint32_t index, uint32_t generation) {
    return ((ecs_entity_t)generation << 32) | ((ecs_entity_t)index + 1u);
}

/* The index of the lowest set bit of x (x != 0): for walking a bitmask set bit by set bit. */
static inline unsigned ecs_lowest_bit(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned k = 0;
    while (!(x & 1u)) x >>= 1, k++;
    return k;
#endif
}

/* What kind of failure an ecs_error_t reports, for programs that act on it (the message is
 * for people). A call that fails sets both; a load that succeeds leaves an empty message and
 * ECS_ERR_NONE. The values keep their numbers: new ones are added at the end. */
typedef enum ecs_error_code {
    ECS_ERR_NONE = 0,
    ECS_ERR_ARGUMENT,        /* a NULL text or file path, an empty path */
    ECS_ERR_IO,              /* a file cannot be opened, read, written, flushed or replaced, or is
                              * not a regular file */
    ECS_ERR_PARSE,           /* the text is not JSON (RFC 8259), or holds a NUL byte */
    ECS_ERR_SCHEMA_MISMATCH, /* a document of another schema or of a newer version, or without
                              * the "schema" and "version" every saved world has */
    ECS_ERR_INVALID,         /* JSON of this schema that breaks its rules: a wrong type, a value out
                              * of range, an unknown or duplicate key, a bad or duplicate id, a
                              * relation cycle (the message's JSON path says where) */
    ECS_ERR_LIMIT,           /* beyond a limit of the world or of the load: max_entities, the
                              * slots or memory a load may use, max_bytes, the last generations */
    ECS_ERR_MIGRATION,       /* the program's migration callback refused the document */
    ECS_ERR_BUSY,            /* a load called from a hook or while deferred commands are applied */
    ECS_ERR_OUT_OF_MEMORY
} ecs_error_code_t;

/* A caller-owned error: the first failure's message, with the JSON path where it applies,
 * and its kind. */
typedef struct ecs_error {
    char message[512];
    ecs_error_code_t code;
} ecs_error_t;

#endif
