/* ecs_alloc.h: every allocation of the runtime and of generated code goes through here, so
 * a program can supply its own allocator (arenas, counting, fault injection). */
#ifndef ECS_ALLOC_H
#define ECS_ALLOC_H

#include <stddef.h>

/* One function does all: realloc(ptr, size, user). ptr NULL allocates; size 0 frees and
 * returns NULL; otherwise it resizes and returns NULL on failure, leaving ptr untouched. */
typedef void *(*ecs_realloc_fn)(void *ptr, size_t size, void *user);

typedef struct ecs_allocator {
    ecs_realloc_fn realloc;
    void *user;
} ecs_allocator_t;

/* Installs an allocator for all later calls; NULL restores the libc one. Swap it only while
 * no world exists: memory must be freed by the allocator that made it. */
void ecs_set_allocator(const ecs_allocator_t *allocator);

/* Resizes to n elements of size elem; NULL (and ptr untouched) when out of memory or when
 * n * elem overflows. */
void *ecs_realloc_array(void *ptr, size_t n, size_t elem);
/* As ecs_realloc_array from NULL, with the memory zeroed. */
void *ecs_calloc(size_t n, size_t elem);
void ecs_free(void *ptr);

#endif
