/* ecs_marks.c: change marks' allocation (see ecs_marks.h). */
#include "ecs_marks.h"

#include <stdatomic.h>
#include <string.h>

#include "ecs_alloc.h"

void (ecs_marks_reset)(ecs_marks_t *m, uint32_t rows) {
#ifdef ECS_NO_CHANGE_MARKS
    rows = 0; /* cover none: every take compares all (ecs_marks.h) */
#endif
    size_t need = ((size_t)rows + (64u << ECS_MARK_SHIFT) - 1u) >> (ECS_MARK_SHIFT + 6u); /* 64 bits a word */
    if (need > m->words) {
        uint64_t *bits = ecs_realloc_array(m->bits, need, sizeof *bits);
        if (!bits) {
            m->rows = 0;
            return;
        }
        m->bits = bits;
        m->words = (uint32_t)need;
    }
    if (m->words) memset(m->bits, 0, (size_t)m->words * sizeof *m->bits); /* a few KiB per million rows */
    m->rows = rows & ~(ECS_MARK_ROWS - 1u);
}

void ecs_marks_moved(ecs_marks_t *m, ecs_marks_t *also, uint32_t a, uint32_t b) {
    ecs_mark(m, a);
    ecs_mark(m, b);
    if (also) {
        ecs_mark(also, a);
        ecs_mark(also, b);
    }
}

void ecs_marks_fini(ecs_marks_t *m) {
    ecs_free(m->bits);
    *m = (ecs_marks_t){ 0 };
}

uint64_t ecs_marks_epoch(void) {
    static _Atomic uint64_t last;
    return atomic_fetch_add(&last, 1u) + 1u;
}
