/* baseline.c: the hand-written comparison code (see baseline.h). */
#include "baseline.h"

#include <stdio.h>
#include <stdlib.h>

static void *grow(void *p, size_t n, size_t elem) {
    void *q = realloc(p, n * elem);
    if (!q) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    return q;
}

void base_world_init(base_world_t *w) {
    *w = (base_world_t){ 0 };
}

void base_world_fini(base_world_t *w) {
    free(w->generation);
    free(w->next_free);
    free(w->px);
    free(w->py);
    free(w->vx);
    free(w->vy);
    *w = (base_world_t){ 0 };
}

uint64_t base_create(base_world_t *w, float px, float py, float vx, float vy) {
    uint32_t slot;
    if (w->free_head) {
        slot = w->free_head - 1u;
        w->free_head = w->next_free[slot];
    } else {
        if (w->used == w->capacity) {
            w->capacity = w->capacity ? w->capacity * 2u : 64u;
            w->generation = grow(w->generation, w->capacity, sizeof *w->generation);
            w->next_free = grow(w->next_free, w->capacity, sizeof *w->next_free);
            w->px = grow(w->px, w->capacity, sizeof *w->px);
            w->py = grow(w->py, w->capacity, sizeof *w->py);
            w->vx = grow(w->vx, w->capacity, sizeof *w->vx);
            w->vy = grow(w->vy, w->capacity, sizeof *w->vy);
        }
        slot = w->used++;
        w->generation[slot] = 1;
    }
    w->px[slot] = px;
    w->py[slot] = py;
    w->vx[slot] = vx;
    w->vy[slot] = vy;
    w->alive++;
    return (uint64_t)w->generation[slot] << 32 | slot;
}

void base_destroy(base_world_t *w, uint64_t e) {
    uint32_t slot = (uint32_t)e;
    if (slot >= w->used || w->generation[slot] != (uint32_t)(e >> 32)) return;
    w->generation[slot]++;
    w->next_free[slot] = w->free_head;
    w->free_head = slot + 1u;
    w->alive--;
}

size_t base_memory(const base_world_t *w) {
    return (size_t)w->capacity * (sizeof *w->generation + sizeof *w->next_free + 4 * sizeof(float));
}

void base_sparse_init(base_sparse_t *s, uint32_t slots) {
    s->sparse = grow(NULL, slots, sizeof *s->sparse);
    s->dense = grow(NULL, slots, sizeof *s->dense);
    s->value = grow(NULL, slots, sizeof *s->value);
    for (uint32_t k = 0; k < slots; k++) s->sparse[k] = UINT32_MAX;
    s->count = 0;
}

void base_sparse_fini(base_sparse_t *s) {
    free(s->sparse);
    free(s->dense);
    free(s->value);
    *s = (base_sparse_t){ 0 };
}

void base_sparse_add(base_sparse_t *s, uint32_t slot, float v) {
    if (s->sparse[slot] != UINT32_MAX) return;
    s->sparse[slot] = s->count;
    s->dense[s->count] = slot;
    s->value[s->count++] = v;
}

void base_sparse_remove(base_sparse_t *s, uint32_t slot) {
    uint32_t row = s->sparse[slot];
    if (row == UINT32_MAX) return;
    uint32_t last = --s->count;
    s->dense[row] = s->dense[last];
    s->value[row] = s->value[last];
    s->sparse[s->dense[row]] = row;
    s->sparse[slot] = UINT32_MAX;
}
