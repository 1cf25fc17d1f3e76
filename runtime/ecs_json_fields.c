/* ecs_json_fields.c: component values as JSON and back, driven by the metadata tables. */
#include "ecs_json_fields.h"

#include <stdio.h>
#include <string.h>

/* One element (or a whole string) at `at`. */
static cJSON *ecs_json_make_element(const ecs_meta_field_t *f, const ecs_entities_t *t, const void *at) {
    switch (f->type) {
    case ECS_META_BOOL: {
        bool v;
        memcpy(&v, at, sizeof v);
        return ecs_json_make_bool(v);
    }
    case ECS_META_I8:
    case ECS_META_I16:
    case ECS_META_I32:
    case ECS_META_I64:
        return ecs_json_make_int((int64_t)ecs_meta_load_bits(at, f));
    case ECS_META_U8:
    case ECS_META_U16:
    case ECS_META_U32:
    case ECS_META_U64:
        return ecs_json_make_uint(ecs_meta_load_bits(at, f));
    case ECS_META_F32: {
        float v;
        memcpy(&v, at, sizeof v);
        return ecs_json_make_f32(v);
    }
    case ECS_META_F64: {
        double v;
        memcpy(&v, at, sizeof v);
        return ecs_json_make_f64(v);
    }
    case ECS_META_ENTITY: {
        ecs_entity_t v;
        memcpy(&v, at, sizeof v);
        return ecs_json_make_ref(t, v);
    }
    case ECS_META_CHAR:
        return ecs_json_make_string(at, f->size);
    case ECS_META_ENUM: /* as C converts the enum to int: its bits */
        return ecs_json_make_enum((int)ecs_meta_load_bits(at, f), f->enum_names, (int)f->enum_count);
    }
    return NULL;
}

cJSON *ecs_json_make_value(const ecs_meta_component_t *c, const ecs_entities_t *t, const void *value) {
    cJSON *o = cJSON_CreateObject(), *a;
    if (!o) return NULL;
    for (uint32_t k = 0; k < c->field_count; k++) {
        const ecs_meta_field_t *f = &c->fields[k];
        const char *at = ecs_meta_field_cptr(value, f);
        if (f->length && f->type != ECS_META_CHAR) {
            if (!ecs_json_put(o, f->name, a = cJSON_CreateArray())) goto fail;
            for (uint32_t i = 0; i < f->length; i++, at += f->element_size)
                if (!ecs_json_append(a, ecs_json_make_element(f, t, at))) goto fail;
        } else if (!ecs_json_put(o, f->name, ecs_json_make_element(f, t, at))) {
            goto fail;
        }
    }
    return o;
fail:
    cJSON_Delete(o);
    return NULL;
}

/* Reads v into one element at `at` (a whole string for char[N]). */
static bool ecs_json_read_element(ecs_json_ctx_t *c, const cJSON *v, const ecs_meta_field_t *f, void *at) {
    union {
        bool b;
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
        float f32;
        double f64;
        ecs_entity_t e;
    } x;
    bool ok;
    switch (f->type) {
    case ECS_META_BOOL: ok = ecs_json_read_bool(c, v, &x.b); break;
    case ECS_META_I8: ok = ecs_json_read_i8(c, v, &x.i8); break;
    case ECS_META_I16: ok = ecs_json_read_i16(c, v, &x.i16); break;
    case ECS_META_I32: ok = ecs_json_read_i32(c, v, &x.i32); break;
    case ECS_META_I64: ok = ecs_json_read_i64(c, v, &x.i64); break;
    case ECS_META_U8: ok = ecs_json_read_u8(c, v, &x.u8); break;
    case ECS_META_U16: ok = ecs_json_read_u16(c, v, &x.u16); break;
    case ECS_META_U32: ok = ecs_json_read_u32(c, v, &x.u32); break;
    case ECS_META_U64: ok = ecs_json_read_u64(c, v, &x.u64); break;
    case ECS_META_F32: ok = ecs_json_read_f32(c, v, &x.f32); break;
    case ECS_META_F64: ok = ecs_json_read_f64(c, v, &x.f64); break;
    case ECS_META_ENTITY: ok = ecs_json_read_entity(c, v, &x.e); break;
    case ECS_META_CHAR: return ecs_json_read_string(c, v, at, f->size);
    case ECS_META_ENUM: {
        int k;
        if (!ecs_json_read_enum(c, v, f->enum_names, (int)f->enum_count, &k)) return false;
        ecs_meta_store_bits(at, f, (uint64_t)(int64_t)k);
        return true;
    }
    default: return false;
    }
    if (ok) memcpy(at, &x, f->element_size); /* every member starts at the union's first byte */
    return ok;
}

/* Whether every key of object o names a field of m, once: the common case, checked without
 * building ecs_json_check_keys's "field of <name>". */
static bool ecs_json_keys_fit(const cJSON *o, const ecs_meta_component_t *m) {
    if (!cJSON_IsObject(o)) return false;
    uint32_t seen = 0;
    for (const cJSON *item = o->child; item; item = item->next, seen++) {
        if (!ecs_meta_find_field(m, item->string)) return false;
        for (const cJSON *prev = o->child; prev != item; prev = prev->next)
            if (!strcmp(prev->string, item->string)) return false;
    }
    return seen <= m->field_count;
}

bool ecs_json_read_value(ecs_json_ctx_t *c, const cJSON *o, const ecs_meta_component_t *m, void *out) {
    if (!ecs_json_keys_fit(o, m)) { /* the same check again, for its message */
        char what[320];
        snprintf(what, sizeof what, "field of %s", m->name);
        if (!ecs_json_check_keys(c, o, m->field_names, m->field_count, what)) return false;
    }
    memcpy(out, m->default_value, m->size);
    for (uint32_t k = 0; k < m->field_count; k++) {
        const ecs_meta_field_t *f = &m->fields[k];
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, f->name);
        if (!item) continue;
        size_t mark = ecs_json_enter(c, f->name);
        char *at = ecs_meta_field_ptr(out, f);
        if (f->length && f->type != ECS_META_CHAR) {
            if (!ecs_json_check_array(c, item, (int)f->length)) return false;
            const cJSON *element = item->child;
            for (uint32_t i = 0; i < f->length; i++, element = element->next, at += f->element_size) {
                size_t at_mark = ecs_json_enter_index(c, i);
                if (!ecs_json_read_element(c, element, f, at)) return false;
                ecs_json_leave(c, at_mark);
            }
        } else if (!ecs_json_read_element(c, item, f, at)) {
            return false;
        }
        ecs_json_leave(c, mark);
    }
    return true;
}
