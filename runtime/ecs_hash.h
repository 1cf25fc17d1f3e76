/* ecs_hash.h: the pieces of <name>_world_hash: a 64-bit mix of values, each value in the form
 * the saved document keeps of it, so that worlds saving to the same document hash equal. */
#ifndef ECS_HASH_H
#define ECS_HASH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Folds x into h (splitmix64's finaliser over h and x): order matters, as in a document. */
static inline uint64_t ecs_hash_mix(uint64_t h, uint64_t x) {
    uint64_t z = h ^ (x + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Floats by their bits, except NaN: a document keeps only a NaN's sign ("NaN", "-NaN"). */
static inline uint64_t ecs_hash_f64(uint64_t h, double v) {
    uint64_t bits;
    if (v != v) return ecs_hash_mix(h, signbit(v) ? UINT64_C(0xfff8000000000000) : UINT64_C(0x7ff8000000000000));
    memcpy(&bits, &v, sizeof bits);
    return ecs_hash_mix(h, bits);
}

static inline uint64_t ecs_hash_f32(uint64_t h, float v) {
    return ecs_hash_f64(h, (double)v); /* exact: every float is a double */
}

/* A char[N]: the bytes up to the first NUL (what the document keeps), then its length. */
static inline uint64_t ecs_hash_string(uint64_t h, const char *s, size_t size) {
    size_t n = 0;
    for (; n < size && s[n]; n++) h = ecs_hash_mix(h, (unsigned char)s[n]);
    return ecs_hash_mix(h, n);
}

#endif
