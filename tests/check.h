/* check.h: the C tests' assertions. A failed CHECK prints where and what, and the test
 * goes on; check_finish() makes the exit status non-zero if any failed. */
#ifndef CHECK_H
#define CHECK_H

#include <inttypes.h>
#include <stdio.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        check_count++;                                                                  \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);    \
            check_failures++;                                                           \
        }                                                                               \
    } while (0)

/* Compares two integers and prints both on failure. */
#define CHECK_EQ(a, b)                                                                  \
    do {                                                                                \
        check_count++;                                                                  \
        uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b);                    \
        if (check_a_ != check_b_) {                                                     \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%" PRIu64 " vs %" PRIu64 ")\n", \
                    __FILE__, __LINE__, #a, #b, check_a_, check_b_);                    \
            check_failures++;                                                           \
        }                                                                               \
    } while (0)

/* The tests' random numbers: xorshift64 (Marsaglia's shifts 13, 7, 17). Advances *state, which
 * must not start at 0, and returns its new value; a fixed seed gives the same cases every run. */
static inline uint64_t check_xorshift(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* Writes text to the file at path (replacing it), checked. */
static inline void check_write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static inline int check_finish(const char *name) {
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

#endif
