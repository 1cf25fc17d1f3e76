/* float_text.c: the C side of tests/json/test_float_text.py. Reads values from stdin, one a
 * line ("f32 <8 hex digits of the bits>" or "f64 <16 hex digits>"), and prints each as save
 * writes it (ecs_json_make_f32/f64, then cJSON's unformatted print: NaN and the infinities
 * are strings). Then it saves a world holding every value (one entity each, in reals.s for
 * f32 and reals.d for f64), loads that save, saves again, and checks that both saves are the
 * same bytes and every value came back bit-exact (a NaN: a NaN of the same sign). Prints
 * "---" and the save. With an argument, runs under that locale (setlocale(LC_ALL, it)). */
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_ecs.h"

#define MAX_VALUES 100000

static struct value {
    int single;
    float f;
    double d;
} values[MAX_VALUES];

static int same_bits(double a, double b) {
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b) && !signbit(a) == !signbit(b);
    return memcmp(&a, &b, sizeof a) == 0;
}

static int same_float(float a, float b) {
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b) && !signbit(a) == !signbit(b);
    return memcmp(&a, &b, sizeof a) == 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && !setlocale(LC_ALL, argv[1])) {
        fprintf(stderr, "float_text: locale %s is not available\n", argv[1]);
        return 2;
    }
    int n = 0;
    char kind[8];
    uint64_t bits;
    while (n < MAX_VALUES && scanf("%7s %" SCNx64, kind, &bits) == 2) {
        struct value *v = &values[n++];
        v->single = !strcmp(kind, "f32");
        cJSON *item;
        if (v->single) {
            uint32_t b = (uint32_t)bits;
            memcpy(&v->f, &b, sizeof b);
            item = ecs_json_make_f32(v->f);
        } else {
            memcpy(&v->d, &bits, sizeof bits);
            item = ecs_json_make_f64(v->d);
        }
        char *text = item ? cJSON_PrintUnformatted(item) : NULL;
        if (!text) return 1;
        printf("%s\n", text);
        cJSON_free(text);
        cJSON_Delete(item);
    }

    static ecs_entity_t ids[MAX_VALUES];
    ak_world_t *w = ak_world_new();
    for (int k = 0; k < n; k++) {
        ecs_entity_t e = ids[k] = ak_spawn(w, NULL);
        ak_reals_t r = { 0, 0 };
        if (values[k].single) r.s = values[k].f;
        else r.d = values[k].d;
        if (!ak_set_reals(w, e, r)) return 1;
    }
    char *first = ak_world_to_json(w);
    ak_world_t *back = ak_world_new();
    ecs_error_t err;
    if (!first || !ak_world_from_json(back, first, &err)) {
        fprintf(stderr, "float_text: the save does not load: %s\n", first ? err.message : "no save");
        return 1;
    }
    char *second = ak_world_to_json(back);
    int failures = 0;
    if (!second || strcmp(first, second) != 0) {
        fprintf(stderr, "float_text: save -> load -> save is not byte-identical\n");
        failures++;
    }
    for (int k = 0; k < n; k++) {
        ecs_entity_t e = ids[k];
        if (!ak_alive(back, e)) {
            fprintf(stderr, "float_text: entity %d missing after the load\n", k);
            failures++;
            continue;
        }
        ak_reals_t r = ak_get_reals(back, e);
        int ok = values[k].single ? same_float(r.s, values[k].f) : same_bits(r.d, values[k].d);
        if (!ok) {
            fprintf(stderr, "float_text: value %d (%s %.17g) came back as %.17g\n", k, values[k].single ? "f32" : "f64",
                    values[k].single ? (double)values[k].f : values[k].d, values[k].single ? (double)r.s : r.d);
            failures++;
        }
    }
    printf("---\n%s\n", first);
    free(first);
    free(second);
    ak_world_free(w);
    ak_world_free(back);
    return failures ? 1 : 0;
}
