/* ecs_alloc.c: the allocator hook. */
#include "ecs_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void *ecs_libc_realloc(void *ptr, size_t size, void *user) {
    (void)user;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, size);
}

static ecs_allocator_t ecs_allocator = { ecs_libc_realloc, NULL };

void ecs_set_allocator(const ecs_allocator_t *allocator) {
    ecs_allocator.realloc = allocator ? allocator->realloc : ecs_libc_realloc;
    ecs_allocator.user = allocator ? allocator->user : NULL;
}

void *ecs_realloc_array(void *ptr, size_t n, size_t elem) {
    if (n == 0 || elem == 0 || n > SIZE_MAX / elem) return NULL;
    return ecs_allocator.realloc(ptr, n * elem, ecs_allocator.user);
}

void *ecs_calloc(size_t n, size_t elem) {
    /* libc's calloc skips the clearing where memory comes zeroed from the system */
    if (ecs_allocator.realloc == ecs_libc_realloc) return n && elem ? calloc(n, elem) : NULL;
    void *p = ecs_realloc_array(NULL, n, elem);
    if (p) memset(p, 0, n * elem);
    return p;
}

void ecs_free(void *ptr) {
    if (ptr) ecs_allocator.realloc(ptr, 0, ecs_allocator.user);
}
