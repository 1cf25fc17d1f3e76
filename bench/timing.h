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

/* The median of t[0..n) (sorts t in place): the middle one, or the mean of the middle two. */
static inline double median(double *t, int n) {
    qsort(t, (size_t)n, sizeof *t, compare_doubles);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

#endif
