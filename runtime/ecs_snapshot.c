/* ecs_snapshot.c: block images and deltas (see ecs_snapshot.h). */
#include "ecs_snapshot.h"

#include <string.h>

#include "ecs_alloc.h"
#include "ecs_meta.h"
#include "ecs_sparse.h"

/* ---- Buffers ------------------------------------------------------------------------ */

static bool buf_fit(ecs_snap_buf_t *b, size_t size) {
    if (size <= b->capacity) return true;
    size_t cap = b->capacity ? b->capacity : 64u;
    while (cap < size) cap = cap > SIZE_MAX / 2u ? size : cap * 2u;
    unsigned char *mem = ecs_realloc_array(b->data, cap, 1);
    if (!mem) return false;
    b->data = mem;
    b->capacity = cap;
    return true;
}

/* Exactly `size` bytes of room (an image's block: no slack, so that a full copy costs one
 * world's bytes). */
static bool buf_fit_exact(ecs_snap_buf_t *b, size_t size) {
    if (size <= b->capacity) return true;
    unsigned char *mem = ecs_realloc_array(b->data, size, 1);
    if (!mem) return false;
    b->data = mem;
    b->capacity = size;
    return true;
}

static bool image_count(ecs_snap_image_t *img, uint32_t n) {
    if (img->count == n) return true;
    for (uint32_t k = n; k < img->count; k++) ecs_free(img->blocks[k].data);
    ecs_snap_buf_t *blocks = ecs_realloc_array(img->blocks, n ? n : 1u, sizeof *blocks);
    if (!blocks) return false;
    for (uint32_t k = img->count; k < n; k++) blocks[k] = (ecs_snap_buf_t){ 0 };
    img->blocks = blocks;
    img->count = n;
    return true;
}

void ecs_snap_image_fini(ecs_snap_image_t *img) {
    for (uint32_t k = 0; k < img->count; k++) ecs_free(img->blocks[k].data);
    ecs_free(img->blocks);
    *img = (ecs_snap_image_t){ 0 };
}

void ecs_snap_delta_fini(ecs_snap_delta_t *d) {
    ecs_free(d->sizes);
    ecs_free(d->ranges.data);
    *d = (ecs_snap_delta_t){ 0 };
}

size_t ecs_snap_image_memory(const ecs_snap_image_t *img) {
    size_t bytes = (size_t)img->count * sizeof *img->blocks;
    for (uint32_t k = 0; k < img->count; k++) bytes += img->blocks[k].capacity;
    return bytes;
}

size_t ecs_snap_delta_memory(const ecs_snap_delta_t *d) {
    return (d->count ? (2u * (size_t)d->count + 1u) * sizeof(size_t) : 0) + d->ranges.capacity;
}

/* A failed image holds no copy: a restore from it is refused rather than half made. */
static bool image_failed(ecs_snap_image_t *img) {
    for (uint32_t k = 0; k < img->count; k++) img->blocks[k].size = 0;
    img->count = 0;
    return false;
}

bool ecs_snap_image_take(ecs_snap_image_t *img, const ecs_snap_block_t *blocks, uint32_t n) {
    if (!image_count(img, n)) return image_failed(img);
    for (uint32_t k = 0; k < n; k++) {
        ecs_snap_buf_t *b = &img->blocks[k];
        if (!buf_fit_exact(b, blocks[k].size)) return image_failed(img);
        if (blocks[k].size) memcpy(b->data, blocks[k].data, blocks[k].size);
        b->size = blocks[k].size;
    }
    return true;
}

bool ecs_snap_image_copy(ecs_snap_image_t *dst, const ecs_snap_image_t *src) {
    if (!image_count(dst, src->count)) return image_failed(dst);
    for (uint32_t k = 0; k < src->count; k++) {
        if (!buf_fit_exact(&dst->blocks[k], src->blocks[k].size)) return image_failed(dst);
        if (src->blocks[k].size) memcpy(dst->blocks[k].data, src->blocks[k].data, src->blocks[k].size);
        dst->blocks[k].size = src->blocks[k].size;
    }
    return true;
}

/* ---- Finding differences ------------------------------------------------------------ */

enum { SNAP_SCAN = 256, SNAP_STEP = 32 };

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

static inline uint64_t load64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Whether a[i..i+w) and b[i..i+w) differ, w = min(32, n - i). */
static inline bool step_differs(const unsigned char *a, const unsigned char *b, size_t i, size_t n) {
    if (n - i >= SNAP_STEP)
        return ((load64(a + i) ^ load64(b + i)) | (load64(a + i + 8) ^ load64(b + i + 8)) |
                (load64(a + i + 16) ^ load64(b + i + 16)) | (load64(a + i + 24) ^ load64(b + i + 24))) != 0;
    return memcmp(a + i, b + i, n - i) != 0;
}

/* The range that starts at i, a's and b's first differing word: it runs in steps of 32
 * bytes while they differ (one equal step, more than a record's header, ends it). */
static inline bool range_at(const unsigned char *a, const unsigned char *b, size_t n, size_t i, size_t *at, size_t *start,
                            size_t *end) {
    *start = i;
    i += n - i < 8u ? n - i : 8u;
    size_t last = i;
    while (i < n && step_differs(a, b, i, n)) {
        i += n - i < SNAP_STEP ? n - i : SNAP_STEP;
        last = i;
    }
    *end = last;
    *at = last;
    return true;
}

/* The next range at or after *at where a and b (n bytes each) differ: it starts at the
 * first differing 8-byte word and runs in steps of 32 bytes while they differ (one equal
 * step, more than a record's header, ends it). False when none is left. */
static bool next_range(const unsigned char *a, const unsigned char *b, size_t n, size_t *at, size_t *start, size_t *end) {
    size_t i = *at;
    while (i < n) { /* equal spans, a call per 256 bytes */
        size_t len = n - i < SNAP_SCAN ? n - i : SNAP_SCAN;
        if (memcmp(a + i, b + i, len) != 0) break;
        i += len;
    }
    if (i >= n) return false;
    for (;;) { /* the first differing word (there is one in this span) */
        if (n - i >= 8u) {
            if (load64(a + i) != load64(b + i)) break;
            i += 8u;
        } else {
            if (memcmp(a + i, b + i, n - i) != 0) break;
            i = n;
        }
    }
    return range_at(a, b, n, i, at, start, end);
}

/* The parts of a block's first `common` bytes that may differ from the image taken when
 * its marks were reset: each run of marked chunks, then everything past the marks. With no
 * marks (or marks not trusted) that is the whole. */
typedef struct {
    const uint64_t *bits, *also; /* also: the block's second marks' bits (NULL: none) */
    size_t chunks; /* chunks the marks cover (both, with also) */
    size_t chunk, common, at;
    bool tail_done;
} spans_t;

static spans_t spans_of(const ecs_snap_block_t *b, size_t common, bool marked) {
    spans_t s = { 0 };
    s.common = common;
    s.chunk = b->chunk;
    if (marked && b->marks && b->chunk) {
        s.bits = b->marks->bits;
        s.chunks = b->marks->rows >> ECS_MARK_SHIFT;
        if (b->also) {
            size_t also_chunks = b->also->rows >> ECS_MARK_SHIFT;
            if (also_chunks < s.chunks) s.chunks = also_chunks; /* past either's rows: compared */
            s.also = b->also->bits;
        }
    }
    return s;
}

/* The 64 chunks' bits of word i: marked in the block's marks or in its second ones. */
static inline uint64_t marked_word(const spans_t *s, size_t i) {
    return s->also ? s->bits[i] | s->also[i] : s->bits[i];
}

static inline bool chunk_marked(const spans_t *s, size_t c) {
    return (marked_word(s, c >> 6) >> (c & 63u)) & 1u;
}

static bool next_span(spans_t *s, size_t *lo, size_t *hi) {
    while (s->at < s->chunks && s->at * s->chunk < s->common) {
        uint64_t word = marked_word(s, s->at >> 6) >> (s->at & 63u);
        if (!word) {
            s->at = (s->at | 63u) + 1u;
            continue;
        }
        s->at += ecs_lowest_bit(word);
        if (s->at >= s->chunks) break;
        size_t first = s->at;
        while (s->at < s->chunks && chunk_marked(s, s->at)) s->at++;
        *lo = first * s->chunk;
        *hi = s->at * s->chunk < s->common ? s->at * s->chunk : s->common;
        if (*lo < *hi) return true;
    }
    if (s->tail_done) return false;
    s->tail_done = true;
    *lo = s->chunks * s->chunk;
    *hi = s->common;
    return *lo < *hi;
}

/* next_range for a span of at most SNAP_SCAN bytes (a few marked rows): the same ranges'
 * rule, word by word inline, without a memcmp call per span. */
static inline bool next_small_range(const unsigned char *a, const unsigned char *b, size_t n, size_t *at, size_t *start,
                                    size_t *end) {
    size_t i = *at;
    while (n - i >= 8u && load64(a + i) == load64(b + i)) i += 8u;
    if (n - i < 8u && (i == n || memcmp(a + i, b + i, n - i) == 0)) return false;
    return range_at(a, b, n, i, at, start, end);
}

/* ---- Deltas ------------------------------------------------------------------------- */

static bool delta_begin(ecs_snap_delta_t *d, uint32_t n) {
    if (d->count != n || !d->sizes) {
        size_t *mem = ecs_realloc_array(d->sizes, 2u * (size_t)n + 1u, sizeof *mem);
        if (!mem) return false;
        d->sizes = mem;
        d->count = n;
    }
    d->starts = d->sizes + n;
    d->ranges.size = 0;
    return true;
}

/* Appends a record: offset, size, then `size` bytes from src (padded to 8). */
static bool delta_put(ecs_snap_delta_t *d, uint64_t offset, const unsigned char *src, size_t size) {
    size_t padded = (size + 7u) & ~(size_t)7u;
    if (!buf_fit(&d->ranges, d->ranges.size + 16u + padded)) return false;
    unsigned char *p = d->ranges.data + d->ranges.size;
    uint64_t head[2] = { offset, size };
    memcpy(p, head, sizeof head);
    memcpy(p + 16, src, size);
    if (padded > size) memset(p + 16 + size, 0, padded - size);
    d->ranges.size += 16u + padded;
    return true;
}

/* Where a block differs from its copy `was` (common bytes each, as the spans allow): each
 * range goes to `d` as the block's bytes; or, when `head` is `was` (a recorder's step back),
 * as was's bytes, and head then takes the block's. Spans are taken a batch at a
 * time and their first lines prefetched: marked rows are scattered, and comparing them one
 * by one waited for each one's cache misses in turn. False when out of memory. */
/* A take's run of a few marked rows is kept whole: comparing it read the copy's lines too,
 * cold ones, and cost up to 8x more. A record compares, for the memory of its frames. */
static inline bool kept_whole(size_t lo, size_t hi, const unsigned char *head) {
    return !head && hi - lo <= SNAP_SCAN;
}

/* The first and last lines of a span: the block's, and the copy's when they will be compared.
 * A chunk of 16 rows is 64 bytes, but an array from malloc starts 16 bytes into a line, so
 * most chunks cross two: prefetching the first alone left the second's miss to the compare
 * (a record at 1 % of 1M entities took a quarter longer). */
static inline void prefetch_span(const unsigned char *was, const unsigned char *now, size_t lo, size_t hi,
                                 const unsigned char *head) {
    PREFETCH(now + lo);
    PREFETCH(now + hi - 1);
    if (!kept_whole(lo, hi, head)) {
        PREFETCH(was + lo);
        PREFETCH(was + hi - 1);
    }
}

static bool diff_block(ecs_snap_delta_t *d, const unsigned char *was, const unsigned char *now, spans_t *spans,
                       unsigned char *head) {
    enum { BATCH = 256, AHEAD = 16 };
    size_t lo[BATCH], hi[BATCH], count;
    do {
        for (count = 0; count < BATCH && next_span(spans, &lo[count], &hi[count]); count++) {
            if (count < AHEAD) prefetch_span(was, now, lo[count], hi[count], head);
        }
        for (size_t i = 0, start, end; i < count; i++) {
            if (i + AHEAD < count) prefetch_span(was, now, lo[i + AHEAD], hi[i + AHEAD], head);
            if (kept_whole(lo[i], hi[i], head)) {
                if (!delta_put(d, lo[i], now + lo[i], hi[i] - lo[i])) return false;
                continue;
            }
            while (hi[i] - lo[i] <= SNAP_SCAN ? next_small_range(was, now, hi[i], &lo[i], &start, &end)
                                              : next_range(was, now, hi[i], &lo[i], &start, &end)) {
                if (!delta_put(d, start, (head ? was : now) + start, end - start)) return false;
                if (head) memcpy(head + start, now + start, end - start);
            }
        }
    } while (count == BATCH);
    return true;
}

bool ecs_snap_delta_take(ecs_snap_delta_t *d, const ecs_snap_image_t *base, const ecs_snap_block_t *blocks, uint32_t n,
                         bool marked) {
    if (base->count != n || !delta_begin(d, n)) return false;
    for (uint32_t k = 0; k < n; k++) {
        const unsigned char *old = base->blocks[k].data, *now = blocks[k].data;
        size_t na = base->blocks[k].size, nb = blocks[k].size, common = na < nb ? na : nb;
        d->sizes[k] = nb;
        d->starts[k] = d->ranges.size;
        spans_t spans = spans_of(&blocks[k], common, marked);
        if (!diff_block(d, old, now, &spans, NULL)) return false;
        if (nb > na && !delta_put(d, na, now + na, nb - na)) return false;
    }
    d->starts[n] = d->ranges.size;
    return true;
}

bool ecs_snap_record(ecs_snap_image_t *head, ecs_snap_delta_t *back, const ecs_snap_block_t *blocks, uint32_t n,
                     bool marked) {
    if (head->count != n) { /* the first frame (or a failed one): a full copy */
        if (back && !delta_begin(back, 0)) return false;
        return ecs_snap_image_take(head, blocks, n);
    }
    if (!delta_begin(back, n)) return image_failed(head);
    for (uint32_t k = 0; k < n; k++) {
        ecs_snap_buf_t *h = &head->blocks[k];
        const unsigned char *now = blocks[k].data;
        size_t na = h->size, nb = blocks[k].size, common = na < nb ? na : nb;
        back->sizes[k] = na;
        back->starts[k] = back->ranges.size;
        spans_t spans = spans_of(&blocks[k], common, marked);
        if (!diff_block(back, h->data, now, &spans, h->data)) return image_failed(head);
        if (na > nb && !delta_put(back, nb, h->data + nb, na - nb)) return image_failed(head);
        if (nb > na) {
            if (!buf_fit_exact(h, nb)) return image_failed(head);
            memcpy(h->data + na, now + na, nb - na);
        }
        h->size = nb;
    }
    back->starts[n] = back->ranges.size;
    return true;
}

/* Writes block k's records of d over dst. */
static void apply_ranges(const ecs_snap_delta_t *d, uint32_t k, unsigned char *dst) {
    for (size_t at = d->starts[k]; at < d->starts[k + 1];) {
        uint64_t head[2];
        memcpy(head, d->ranges.data + at, sizeof head);
        memcpy(dst + head[0], d->ranges.data + at + 16, (size_t)head[1]);
        at += 16u + (((size_t)head[1] + 7u) & ~(size_t)7u);
    }
}

bool ecs_snap_apply(ecs_snap_image_t *img, const ecs_snap_delta_t *d) {
    if (d->count != img->count) return image_failed(img);
    for (uint32_t k = 0; k < d->count; k++) {
        ecs_snap_buf_t *b = &img->blocks[k];
        if (!buf_fit_exact(b, d->sizes[k])) return image_failed(img);
        apply_ranges(d, k, b->data);
        b->size = d->sizes[k];
    }
    return true;
}

void ecs_snap_write_block(const ecs_snap_image_t *base, const ecs_snap_delta_t *d, uint32_t k, void *dst) {
    size_t size = ecs_snap_block_size(base, d, k), have = base->blocks[k].size;
    if (size > have) size = have;
    if (size) memcpy(dst, base->blocks[k].data, size);
    if (d) apply_ranges(d, k, dst);
}

void ecs_snap_write_marked(const ecs_snap_image_t *base, uint32_t k, const ecs_snap_block_t *blocks) {
    const ecs_snap_block_t *b = &blocks[k];
    size_t size = b->size < base->blocks[k].size ? b->size : base->blocks[k].size, lo, hi;
    spans_t spans = spans_of(b, size, true);
    while (next_span(&spans, &lo, &hi)) memcpy((unsigned char *)b->data + lo, base->blocks[k].data + lo, hi - lo);
}

bool ecs_snap_matches(const ecs_snap_image_t *base, const ecs_snap_delta_t *d, const ecs_snap_block_t *blocks, uint32_t first,
                      uint32_t n, uint32_t *block, size_t *offset) {
    for (uint32_t k = first; k < n; k++) {
        size_t size = blocks[k].size;
        *block = k;
        *offset = 0;
        if (k >= base->count || ecs_snap_block_size(base, d, k) != size) return false;
        if (!size) continue;
        unsigned char *was = d ? ecs_realloc_array(NULL, size, 1) : base->blocks[k].data;
        if (!was) return *offset = SIZE_MAX, false;
        if (d) ecs_snap_write_block(base, d, k, was);
        const unsigned char *now = blocks[k].data;
        size_t i = 0;
        while (i < size && was[i] == now[i]) i++;
        if (d) ecs_free(was);
        if (i < size) return *offset = i, false;
    }
    return true;
}

/* ---- Sparse sets -------------------------------------------------------------------- */

uint32_t ecs_snap_pool_blocks(ecs_snap_block_t *b, const void *o, const void *w, const ecs_meta_component_t *c) {
    const ecs_sparse_t *set = (const ecs_sparse_t *)(const void *)((const char *)w + c->sparse_offset);
    size_t n = ((const ecs_sparse_t *)(const void *)((const char *)o + c->sparse_offset))->count;
    size_t member = set->keeps_ids ? sizeof *set->id : sizeof *set->index;
    void *members = set->keeps_ids ? (void *)set->id : (void *)set->index;
    b[0] = (ecs_snap_block_t){ members, n * member, &set->marks, ECS_MARK_ROWS * member, NULL };
    const ecs_marks_t *marks = (const ecs_marks_t *)(const void *)((const char *)w + c->marks_offset);
    uint32_t columns = ecs_meta_column_count(c);
    for (uint32_t k = 0; k < columns; k++) {
        size_t stride = ecs_meta_column_stride(&c->fields[k]);
        b[1 + k] = (ecs_snap_block_t){ ecs_meta_column(w, &c->fields[k]), n * stride, marks, ECS_MARK_ROWS * stride, NULL };
    }
    return 1u + columns;
}

static inline uint32_t member_at(const ecs_sparse_t *set, const void *members, uint32_t r) {
    if (set->keeps_ids) {
        ecs_entity_t e;
        memcpy(&e, (const unsigned char *)members + (size_t)r * sizeof e, sizeof e);
        return ecs_entity_index(e);
    }
    uint32_t i;
    memcpy(&i, (const unsigned char *)members + (size_t)r * sizeof i, sizeof i);
    return i;
}

bool ecs_snap_sparse_fit(ecs_sparse_t *set, const void *then, uint32_t n, uint32_t used) {
    bool pages = true;
    for (uint32_t p = 0; n && pages && (size_t)p << ECS_PAGE_BITS < used; p++) pages = p < set->page_count && set->pages[p];
    if (pages) return true;
    for (uint32_t r = 0; then && r < n; r++)
        if (!ecs_sparse_reserve_page(set, ecs_entity_make(member_at(set, then, r), 0))) return false;
    for (uint32_t p = 0; !then && (size_t)p << ECS_PAGE_BITS < used; p++)
        if (!ecs_sparse_reserve_page(set, ecs_entity_make(p << ECS_PAGE_BITS, 0))) return false;
    return true;
}

/* Whether n members `now` and `then` (width bytes each) are the same: where the members'
 * block's marks say they may differ (members NULL: everywhere). */
static bool same_members(const void *now, const void *then, size_t n, size_t width, const ecs_snap_block_t *members) {
    if (!members) return memcmp(now, then, n * width) == 0;
    size_t lo, hi;
    spans_t spans = spans_of(members, n * width, true);
    while (next_span(&spans, &lo, &hi))
        if (memcmp((const unsigned char *)now + lo, (const unsigned char *)then + lo, hi - lo) != 0) return false;
    return true;
}

ecs_snap_members_t ecs_snap_sparse_leave(ecs_sparse_t *set, const void *then, uint32_t n, const ecs_snap_block_t *members) {
    uint32_t old_n = set->count;
    const void *now = set->keeps_ids ? (const void *)set->id : (const void *)set->index;
    size_t width = set->keeps_ids ? sizeof(ecs_entity_t) : sizeof(uint32_t);
    if (!then && n) { /* not at hand: every entry again, after the copy */
        for (uint32_t r = 0; r < old_n; r++) *ecs_sparse_entry(set, member_at(set, now, r)) = 0;
        return ECS_SNAP_MEMBERS_LEFT;
    }
    if (old_n == n && (!n || same_members(now, then, n, width, members))) return ECS_SNAP_MEMBERS_SAME;
    uint32_t common = old_n < n ? old_n : n;
    for (uint32_t r = 0; r < old_n; r++)
        if (r >= common || member_at(set, now, r) != member_at(set, then, r)) *ecs_sparse_entry(set, member_at(set, now, r)) = 0;
    for (uint32_t r = 0; r < n; r++)
        if (r >= common || member_at(set, now, r) != member_at(set, then, r)) *ecs_sparse_entry(set, member_at(set, then, r)) = r + 1u;
    return ECS_SNAP_MEMBERS_MOVED;
}

void ecs_snap_sparse_enter(ecs_sparse_t *set) {
    for (uint32_t r = 0; r < set->count; r++) *ecs_sparse_entry(set, ecs_sparse_member(set, r)) = r + 1u;
}
