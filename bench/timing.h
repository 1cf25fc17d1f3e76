/* timing.h: the clock and the median of the bench programs (bench, recorder, frame_bench,
 * systems_bench, json_speed). Include after defining _POSIX_C_SOURCE (clock_gettime). */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <stdlib.h>
#include <time.h>

/* Monotonic time in nanoseconds. */
static inline double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static inline int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The end of one timed frame of a loop workload, on both sides of a ratio. Without it gcc -O3
 * may fuse the frames of a loop over restrict arrays (unroll-and-jam: two frames per pass,
 * each element loaded and stored once for both), which a program whose frames do other work
 * in between never gets: the hand-written 1-in-4 loop ran at about half its real cost so. */
static inline void frame_end(void) {
    __asm__ __volatile__("" ::: "memory");
}

/* The median of t[0..n) (sorts t in place): the middle one, or the mean of the middle two. */
static inline double median(double *t, int n) {
    qsort(t, (size_t)n, sizeof *t, compare_doubles);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

#endif
