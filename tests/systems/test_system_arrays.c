/* test_system_arrays.c: a system reading array and string fields (tests/systems/arrays.json):
 * of a soa, a struct-layout and a slot component, and of a singleton. Their context pointers
 * are const (read only); the generated code once assigned them without the conversion C11
 * needs, which -Wpedantic -Werror refused. The body's sums check the values arrive. */
#include <string.h>

#include "arr_ecs.h"
#include "check.h"

void arr_system_weigh(arr_weigh_t *ECS_RESTRICT s) {
    uint32_t scale = ARR_WEIGH_FIELD(s, config, scale, 0)[0] * ARR_WEIGH_FIELD(s, config, scale, 0)[1];
    for (size_t i = 0; i < s->count; i++) {
        uint32_t sum = 0;
        for (int k = 0; k < 3; k++) sum += ARR_WEIGH_FIELD(s, label, weights, i)[k];
        sum += ARR_WEIGH_FIELD(s, packed, bias, i)[0] + ARR_WEIGH_FIELD(s, packed, bias, i)[1];
        for (int k = 0; k < 4; k++) sum += ARR_WEIGH_FIELD(s, mark, bits, i)[k];
        ARR_WEIGH_FIELD(s, total, sum, i) = sum * scale;
        ARR_WEIGH_FIELD(s, total, letters, i) = (uint32_t)strlen(ARR_WEIGH_FIELD(s, label, text, i));
    }
}

int main(void) {
    arr_world_t *w = arr_world_new();
    CHECK(w != NULL);
    arr_singleton_config(w)->scale[0] = 2, arr_singleton_config(w)->scale[1] = 3;
    ecs_entity_t e[3];
    for (uint32_t k = 0; k < 3; k++) {
        arr_label_t label = { .weights = { k, 10u * k, 100u * k } };
        memcpy(label.text, "abcdefgh", 3 + k);
        e[k] = arr_spawn(w, &(arr_spawn_desc_t){ .label = &label, .packed = &(arr_packed_t){ .bias = { 1000u, k } },
                                                 .mark = &(arr_mark_t){ .bits = { 1, 2, 3, (uint8_t)k } },
                                                 .total = &(arr_total_t){ 0 } });
        CHECK(e[k] != ECS_NULL);
    }
    arr_step(w, 0.0f);
    for (uint32_t k = 0; k < 3; k++) {
        CHECK_EQ(arr_get_total(w, e[k]).sum, (111u * k + 1000u + k + 6u + k) * 6u);
        CHECK_EQ(arr_get_total(w, e[k]).letters, 3u + k);
    }
    arr_world_free(w);
    return check_finish("test_system_arrays");
}
