/* ecs_json.c: JSON helpers for generated save/load code (format rules in ecs_json.h). */
#define _POSIX_C_SOURCE 200809L /* newlocale, uselocale: documents are parsed in the "C" locale */
#include "ecs_json.h"

#include <inttypes.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>
#if defined(__APPLE__)
#include <xlocale.h>
#endif

#include "ecs_alloc.h"

/* Integers of smaller magnitude than 2^53 are written as numbers: each is exactly one double,
 * and no other integer text parses to it. From 2^53 on (2^53 + 1 reads as 2^53) strings. */
#define ECS_JSON_EXACT (UINT64_C(1) << 53)

/* ---- Context and errors ------------------------------------------------------------- */

void ecs_json_ctx_init(ecs_json_ctx_t *c, ecs_error_t *err) {
    *c = (ecs_json_ctx_t){ .err = err };
    err->message[0] = '\0';
    err->code = ECS_ERR_NONE;
}

/* A reference at the last generation and where the document has it. */
struct ecs_json_last_ref {
    ecs_entity_t id;
    char *path;
};

void ecs_json_ctx_fini(ecs_json_ctx_t *c) {
    ecs_free(c->mentions);
    c->mentions = NULL;
    c->mention_count = c->mention_capacity = 0;
    for (size_t k = 0; k < c->last_ref_count; k++) ecs_free(c->last_refs[k].path);
    ecs_free(c->last_refs);
    c->last_refs = NULL;
    c->last_ref_count = c->last_ref_capacity = 0;
}

/* Notes reference e (above ECS_REF_GENERATION_MAX) at the current path, for ecs_json_restore_ids. */
static bool ecs_json_note_last_ref(ecs_json_ctx_t *c, ecs_entity_t e) {
    if (c->last_ref_count == c->last_ref_capacity) {
        size_t cap = c->last_ref_capacity ? c->last_ref_capacity * 2 : 8;
        struct ecs_json_last_ref *more = ecs_realloc_array(c->last_refs, cap, sizeof *more);
        if (!more) return ecs_json_oom(c);
        c->last_refs = more;
        c->last_ref_capacity = cap;
    }
    char *path = ecs_realloc_array(NULL, c->len + 1, 1);
    if (!path) return ecs_json_oom(c);
    memcpy(path, c->path, c->len + 1);
    c->last_refs[c->last_ref_count++] = (struct ecs_json_last_ref){ e, path };
    return true;
}

/* The UTF-8 sequence length at s (2 to 4), or 0 when s does not start a well-formed one. */
static size_t ecs_json_utf8_length(const unsigned char *s) {
    size_t n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    for (size_t k = 1; k < n; k++)
        if ((s[k] & 0xC0) != 0x80) return 0;
    return n;
}

size_t ecs_json_escape(char *dst, size_t size, const char *src) {
    size_t len = 0;
    while ((unsigned char)src[len] >= 0x20 && (unsigned char)src[len] < 0x7F) len++;
    if (!src[len] && len < size) { /* printable ASCII, the usual case: as it is */
        memcpy(dst, src, len + 1);
        return len;
    }
    len = 0;
    for (const unsigned char *p = (const unsigned char *)src; *p;) {
        char piece[8];
        size_t n = ecs_json_utf8_length(p);
        if (*p < 0x20 || *p == 0x7F) { /* C0 controls and DEL: ESC starts terminal sequences */
            snprintf(piece, sizeof piece, "\\u%04x", *p);
            n = 1;
        } else if (n == 2 && p[0] == 0xC2 && p[1] < 0xA0) { /* C1 controls, U+0080..U+009F */
            snprintf(piece, sizeof piece, "\\u%04x", p[1]);
        } else if (*p >= 0x80 && !n) { /* not UTF-8: a lone byte (0x9B is CSI to some terminals) */
            snprintf(piece, sizeof piece, "\\x%02x", *p);
            n = 1;
        } else {
            if (!n) n = 1;
            memcpy(piece, p, n);
            piece[n] = '\0';
        }
        size_t w = strlen(piece);
        if (size && len + w < size) memcpy(dst + len, piece, w);
        else if (size && len < size) size = len + 1; /* full: keep no piece in part */
        len += w;
        p += n;
    }
    if (size) dst[len < size ? len : size - 1] = '\0';
    return len;
}

/* Appends raw, escaped, to the path (no snprintf: loads enter a path for every value). */
static size_t ecs_json_append_path(ecs_json_ctx_t *c, const char *raw) {
    size_t mark = c->len;
    size_t room = sizeof c->path - c->len;
    size_t n = ecs_json_escape(c->path + c->len, room, raw);
    if (n >= room) { /* too deep or long: keep what fits, mark it cut */
        memcpy(c->path + sizeof c->path - 4, "...", 4);
        c->len = sizeof c->path - 1;
    } else {
        c->len += n;
    }
    return mark;
}

size_t ecs_json_enter(ecs_json_ctx_t *c, const char *key) {
    size_t mark = c->len;
    if (c->len) ecs_json_append_path(c, ".");
    ecs_json_append_path(c, key);
    return mark;
}

size_t ecs_json_enter_index(ecs_json_ctx_t *c, size_t i) {
    char buf[32];
    snprintf(buf, sizeof buf, "[%zu]", i);
    return ecs_json_append_path(c, buf);
}

static bool ecs_json_vfail(ecs_json_ctx_t *c, ecs_error_code_t code, const char *fmt, va_list ap) {
    char reason[320];
    vsnprintf(reason, sizeof reason, fmt, ap);
    snprintf(c->err->message, sizeof c->err->message, "%s: %s", c->len ? c->path : "(document)", reason);
    c->err->code = code;
    return false;
}

bool ecs_json_fail(ecs_json_ctx_t *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ecs_json_vfail(c, ECS_ERR_INVALID, fmt, ap);
    va_end(ap);
    return false;
}

bool ecs_json_fail_code(ecs_json_ctx_t *c, ecs_error_code_t code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ecs_json_vfail(c, code, fmt, ap);
    va_end(ap);
    return false;
}

bool ecs_json_oom(ecs_json_ctx_t *c) {
    return ecs_json_fail_code(c, ECS_ERR_OUT_OF_MEMORY, "out of memory");
}

/* What v is, for "got ..." in messages: the value itself when short. */
static const char *ecs_json_describe(const cJSON *v, char buf[64]) {
    if (cJSON_IsString(v)) {
        char shown[42]; /* control characters escaped: the message stays one plain line */
        if (ecs_json_escape(shown, sizeof shown, v->valuestring) <= 40) {
            snprintf(buf, 64, "\"%s\"", shown);
        } else {
            ecs_json_escape(shown, 38, v->valuestring);
            snprintf(buf, 64, "\"%s...\"", shown);
        }
    } else if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
        ecs_json_format_real(v->valuedouble, false, buf); /* as save writes an f64 */
    } else if (cJSON_IsNumber(v)) {
        snprintf(buf, 64, "%g", v->valuedouble); /* inf, -inf (a literal beyond a double's range) */
    } else {
        snprintf(buf, 64, "%s", cJSON_IsTrue(v) ? "true" : cJSON_IsFalse(v) ? "false" : cJSON_IsNull(v) ? "null"
                                : cJSON_IsArray(v) ? "an array" : "an object");
    }
    return buf;
}

static void ecs_json_position(const char *text, const char *at, unsigned long *line, unsigned long *column) {
    *line = 1, *column = 1;
    for (const char *p = text; p < at && *p; p++) {
        if (*p == '\n') ++*line, *column = 1;
        else ++*column;
    }
}

cJSON *ecs_json_parse(const char *text, ecs_error_t *err) {
    if (!text) {
        snprintf(err->message, sizeof err->message, "(document): no text (NULL)");
        err->code = ECS_ERR_ARGUMENT;
        return NULL;
    }
    unsigned long line, column;
    const char *end = NULL;
    /* cJSON reads numbers with strtod after swapping '.' for the first byte of the locale's
     * decimal point: under de_DE.UTF-8 that works, under ps_AF.UTF-8 (a two-byte point) every
     * fraction was cut off. Parse in the "C" locale, for this thread only (uselocale). */
    locale_t c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (!c_locale) {
        snprintf(err->message, sizeof err->message, "(document): out of memory");
        err->code = ECS_ERR_OUT_OF_MEMORY;
        return NULL;
    }
    locale_t previous = uselocale(c_locale);
    cJSON *root = cJSON_ParseWithOpts(text, &end, true); /* length + NUL, as its check needs */
    uselocale(previous);
    freelocale(c_locale);
    if (root) { /* cJSON is lenient: hold what it took to the RFC 8259 grammar */
        const char *why = NULL;
        char detail[96];
        const char *bad = ecs_json_strict_check(text, &why, detail);
        if (!bad) return root;
        cJSON_Delete(root);
        ecs_json_position(text, bad, &line, &column);
        snprintf(err->message, sizeof err->message, "line %lu, column %lu: %s", line, column, why);
        err->code = ECS_ERR_PARSE;
        return NULL;
    }
    if (!end || end < text) end = text;
    ecs_json_position(text, end, &line, &column);
    snprintf(err->message, sizeof err->message, "line %lu, column %lu: malformed JSON%s", line, column,
             *end ? "" : " (unexpected end)");
    err->code = ECS_ERR_PARSE;
    return NULL;
}

bool ecs_json_check_keys(ecs_json_ctx_t *c, const cJSON *v, const char *const *keys, size_t n, const char *what) {
    char got[64];
    if (!cJSON_IsObject(v)) return ecs_json_fail(c, "expected an object, got %s", ecs_json_describe(v, got));
    const cJSON *item;
    cJSON_ArrayForEach(item, v) {
        size_t k = 0;
        while (k < n && strcmp(keys[k], item->string) != 0) k++;
        size_t mark = ecs_json_enter(c, item->string);
        if (k == n) return ecs_json_fail(c, "unknown %s", what);
        for (const cJSON *prev = v->child; prev != item; prev = prev->next)
            if (!strcmp(prev->string, item->string)) return ecs_json_fail(c, "duplicate key");
        ecs_json_leave(c, mark);
    }
    return true;
}

bool ecs_json_check_header(ecs_json_ctx_t *c, const cJSON *doc, const char *schema, uint32_t version) {
    char got[64];
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(doc, "schema");
    const cJSON *number = cJSON_GetObjectItemCaseSensitive(doc, "version");
    size_t mark = ecs_json_enter(c, "schema");
    if (!name) return ecs_json_fail_code(c, ECS_ERR_SCHEMA_MISMATCH, "missing (a saved %s world names its schema)", schema);
    if (!cJSON_IsString(name) || strcmp(name->valuestring, schema) != 0)
        return ecs_json_fail_code(c, ECS_ERR_SCHEMA_MISMATCH, "this document is for schema %s, not %s", ecs_json_describe(name, got), schema);
    ecs_json_leave(c, mark);
    mark = ecs_json_enter(c, "version");
    if (!number) return ecs_json_fail_code(c, ECS_ERR_SCHEMA_MISMATCH, "missing (a saved world states its schema version)");
    uint32_t v;
    if (!ecs_json_read_u32(c, number, &v)) return false;
    if (v == 0) return ecs_json_fail(c, "versions start at 1, got 0");
    if (v > version)
        return ecs_json_fail_code(c, ECS_ERR_SCHEMA_MISMATCH, "document version %" PRIu32 " is newer than schema %s's version %" PRIu32
                             " (load it with a newer program)", v, schema, version);
    ecs_json_leave(c, mark);
    return true;
}

static bool ecs_json_read_entity_or_id(ecs_json_ctx_t *c, const cJSON *v, ecs_entity_t *out, bool is_id);

bool ecs_json_read_id(ecs_json_ctx_t *c, const cJSON *o, ecs_entity_t *out) {
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "id");
    size_t mark = ecs_json_enter(c, "id");
    if (!id) return ecs_json_fail(c, "missing (every entity has an id, e.g. \"5v0\")");
    if (cJSON_IsNull(id)) return ecs_json_fail(c, "expected an entity id like \"5v0\", got null");
    if (!ecs_json_read_entity_or_id(c, id, out, true)) return false;
    ecs_json_leave(c, mark);
    return true;
}

bool ecs_json_restore_ids(ecs_json_ctx_t *c, ecs_entities_t *t, const ecs_entity_t *ids, uint32_t n) {
    uint64_t max_slots = t->limit ? t->limit : (uint64_t)ECS_INDEX_MAX + 1u;
    /* Memory in proportion to the document: see ECS_JSON_SLOTS_DEFAULT. */
    uint64_t allowed = c->max_slots ? c->max_slots : ECS_JSON_SLOTS_DEFAULT;
    if (!c->max_slots && (uint64_t)n * 4u > allowed) allowed = (uint64_t)n * 4u;
    if (c->previous && c->previous->used > allowed) allowed = c->previous->used;
    uint64_t used = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t index = ecs_entity_index(ids[k]);
        if (index >= max_slots || index >= allowed) {
            size_t mark = ecs_json_enter_index(c, k);
            ecs_json_enter(c, "id");
            if (index >= max_slots)
                ecs_json_fail_code(c, ECS_ERR_LIMIT, "slot %" PRIu32 " is beyond the schema's max_entities (%" PRIu32 ")", index, t->limit);
            else
                ecs_json_fail_code(c, ECS_ERR_LIMIT, "slot %" PRIu32 " is beyond the %" PRIu64 " slots this load restores (a "
                                   "document of %" PRIu32 " entities; the load option max_slots raises the limit)", index, allowed, n);
            ecs_json_leave(c, mark);
            return false;
        }
        if (index >= used) used = (uint64_t)index + 1u;
    }
    /* A reference to a slot beyond the limits reserves nothing: it is kept as written. */
    for (size_t k = 0; k < c->mention_count; k++) {
        uint32_t index = ecs_entity_index(c->mentions[k]);
        if (index < max_slots && index < allowed && index >= used) used = (uint64_t)index + 1u;
    }
    /* Every slot the replaced table used stays: its handles must not be reissued. */
    if (c->previous && c->previous->used > used) used = c->previous->used;
    uint64_t *next = used ? ecs_calloc((size_t)used, sizeof *next) : NULL;
    uint32_t *owner = used ? ecs_calloc((size_t)used, sizeof *owner) : NULL; /* k + 1 */
    bool ok = !used || (next && owner);
    if (!ok) ecs_json_oom(c);
    for (uint32_t k = 0; ok && k < n; k++) {
        uint32_t index = ecs_entity_index(ids[k]);
        if (owner[index]) {
            char a[24], b[24];
            ecs_json_format_id(ids[k], a);
            ecs_json_format_id(ids[owner[index] - 1u], b);
            size_t mark = ecs_json_enter_index(c, k);
            ecs_json_enter(c, "id");
            ecs_json_fail(c, "duplicate id %s: slot %" PRIu32 " is already entities[%" PRIu32 "] (%s)", a, index,
                          owner[index] - 1u, b);
            ecs_json_leave(c, mark);
            ok = false;
        }
        if (ok) owner[index] = k + 1u;
    }
    /* A reference near the end of a slot's generations (ECS_REF_GENERATION_MAX), unless the
     * document has that slot live at least at its generation, would leave the slot few
     * entities (the last generation: none) before it is retired: refused (no save writes one). */
    for (size_t k = 0; ok && k < c->last_ref_count; k++) {
        ecs_entity_t m = c->last_refs[k].id;
        uint32_t index = ecs_entity_index(m);
        uint32_t live = index < used ? owner[index] : 0;
        if (live && ecs_entity_generation(ids[live - 1u]) >= ecs_entity_generation(m)) continue;
        char a[24];
        ecs_json_format_id(m, a);
        c->len = strlen(c->last_refs[k].path);
        memcpy(c->path, c->last_refs[k].path, c->len + 1);
        if (ecs_entity_generation(m) == UINT32_MAX)
            ok = ecs_json_fail_code(c, ECS_ERR_LIMIT, "%s is the last generation of slot %" PRIu32 " and no entity of the "
                                    "document has it: loading it would retire the slot for good", a, index);
        else
            ok = ecs_json_fail_code(c, ECS_ERR_LIMIT, "%s is within the last 2^24 generations of slot %" PRIu32 " and no "
                                    "entity of the document has that slot at it: loading it would leave the slot %" PRIu32
                                    " more entities before it is retired", a, index, UINT32_MAX - ecs_entity_generation(m));
    }
    for (size_t k = 0; ok && k < c->mention_count; k++) {
        ecs_entity_t m = c->mentions[k];
        uint32_t index = ecs_entity_index(m);
        uint64_t after = (uint64_t)ecs_entity_generation(m) + 1u;
        if (index < used && next[index] < after) next[index] = after;
        /* A reference to a later generation of a live slot would come alive once that entity
         * is destroyed and the slot reused: no saved world holds one. */
        uint32_t live = index < used ? owner[index] : 0;
        if (live && ecs_entity_generation(m) > ecs_entity_generation(ids[live - 1u])) {
            char a[24], b[24];
            ecs_json_format_id(m, a);
            ecs_json_format_id(ids[live - 1u], b);
            ecs_json_enter_index(c, live - 1u);
            ecs_json_enter(c, "id");
            ok = ecs_json_fail(c, "the document also names %s, a later generation of live %s's slot", a, b);
        }
    }
    /* A free slot's next generation is above every handle the replaced table issued for it
     * (a quick-save then quick-load must not bring a destroyed entity's handle back). */
    if (ok && c->previous && c->previous->used) {
        uint64_t *before = ecs_realloc_array(NULL, c->previous->used, sizeof *before);
        if (!before) {
            ok = ecs_json_oom(c);
        } else {
            ecs_entities_next_generations(c->previous, before);
            for (uint32_t i = 0; i < c->previous->used; i++)
                if (next[i] < before[i]) next[i] = before[i];
            ecs_free(before);
        }
    }
    if (ok && !ecs_entities_restore(t, ids, n, (uint32_t)used, next)) ok = ecs_json_oom(c);
    ecs_free(next);
    ecs_free(owner);
    return ok;
}

/* ---- Typed reads -------------------------------------------------------------------- */

bool ecs_json_read_bool(ecs_json_ctx_t *c, const cJSON *v, bool *out) {
    char got[64];
    if (!cJSON_IsBool(v)) return ecs_json_fail(c, "expected true or false, got %s", ecs_json_describe(v, got));
    *out = cJSON_IsTrue(v);
    return true;
}

/* Digits only (after an optional '-'), no overflow past UINT64_MAX. */
static bool ecs_json_parse_decimal(const char *s, bool *negative, uint64_t *out) {
    *negative = *s == '-';
    if (*negative) s++;
    if (!*s) return false;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return false;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10u) return false;
        v = v * 10u + d;
    }
    *out = v;
    return true;
}

/* An integer in [min, max]: a JSON number, or (when strings are allowed, for 64-bit fields)
 * a decimal string. Magnitudes are kept as uint64 plus a sign so all of i64 and u64 fit. */
static bool ecs_json_read_integer(ecs_json_ctx_t *c, const cJSON *v, int64_t min, uint64_t max, bool strings,
                                  bool *negative, uint64_t *magnitude) {
    char got[64];
    bool ok = false;
    const char *why = "";
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (isfinite(d) && d == floor(d)) {
            if (fabs(d) < (double)ECS_JSON_EXACT) {
                *negative = d < 0;
                *magnitude = (uint64_t)fabs(d);
                ok = true;
            } else if (strings) {
                why = " (write integers from 2^53 on as strings, e.g. \"9007199254740993\")";
            }
        }
    } else if (strings && cJSON_IsString(v)) {
        ok = ecs_json_parse_decimal(v->valuestring, negative, magnitude);
    }
    if (ok && *negative && *magnitude == 0) *negative = false; /* -0 */
    uint64_t lowest = min < 0 ? (uint64_t)(-(min + 1)) + 1u : 0;
    if (ok && (*negative ? *magnitude > lowest : *magnitude > max)) ok = false;
    if (ok) return true;
    if (min < 0)
        return ecs_json_fail(c, "expected integer in [%" PRId64 ", %" PRIu64 "], got %s%s", min, max,
                             ecs_json_describe(v, got), why);
    return ecs_json_fail(c, "expected integer in [0, %" PRIu64 "], got %s%s", max, ecs_json_describe(v, got), why);
}

#define ECS_JSON_READ_SIGNED(name, type, min, max, strings)                               \
    bool ecs_json_read_##name(ecs_json_ctx_t *c, const cJSON *v, type *out) {             \
        bool negative = false;                                                            \
        uint64_t m = 0;                                                                   \
        if (!ecs_json_read_integer(c, v, min, max, strings, &negative, &m)) return false; \
        *out = negative ? (type)(-(int64_t)(m - 1u) - 1) : (type)m;                       \
        return true;                                                                      \
    }
#define ECS_JSON_READ_UNSIGNED(name, type, max, strings)                                  \
    bool ecs_json_read_##name(ecs_json_ctx_t *c, const cJSON *v, type *out) {             \
        bool negative = false;                                                            \
        uint64_t m = 0;                                                                   \
        if (!ecs_json_read_integer(c, v, 0, max, strings, &negative, &m)) return false;   \
        *out = (type)m;                                                                   \
        return true;                                                                      \
    }
ECS_JSON_READ_SIGNED(i8, int8_t, INT8_MIN, INT8_MAX, false)
ECS_JSON_READ_SIGNED(i16, int16_t, INT16_MIN, INT16_MAX, false)
ECS_JSON_READ_SIGNED(i32, int32_t, INT32_MIN, INT32_MAX, false)
ECS_JSON_READ_SIGNED(i64, int64_t, INT64_MIN, INT64_MAX, true)
ECS_JSON_READ_UNSIGNED(u8, uint8_t, UINT8_MAX, false)
ECS_JSON_READ_UNSIGNED(u16, uint16_t, UINT16_MAX, false)
ECS_JSON_READ_UNSIGNED(u32, uint32_t, UINT32_MAX, false)
ECS_JSON_READ_UNSIGNED(u64, uint64_t, UINT64_MAX, true)

/* A number, or one of the strings standing for what JSON cannot spell. */
static bool ecs_json_read_real(ecs_json_ctx_t *c, const cJSON *v, double *out) {
    char got[64];
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
        *out = v->valuedouble;
        return true;
    }
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        if (!strcmp(s, "NaN")) return *out = NAN, true;
        if (!strcmp(s, "-NaN")) return *out = -NAN, true;
        if (!strcmp(s, "Infinity")) return *out = INFINITY, true;
        if (!strcmp(s, "-Infinity")) return *out = -INFINITY, true;
    }
    return ecs_json_fail(c, "expected number, got %s", ecs_json_describe(v, got));
}

bool ecs_json_read_f64(ecs_json_ctx_t *c, const cJSON *v, double *out) {
    return ecs_json_read_real(c, v, out);
}

bool ecs_json_read_f32(ecs_json_ctx_t *c, const cJSON *v, float *out) {
    double d = 0;
    if (!ecs_json_read_real(c, v, &d)) return false;
    if (isfinite(d) && fabs(d) >= 0x1.ffffffp127) { /* rounds to infinity as a float */
        char got[ECS_JSON_REAL_MAX];
        ecs_json_format_real(d, false, got);
        return ecs_json_fail(c, "expected number in f32 range (about ±3.4e38), got %s", got);
    }
    *out = (float)d;
    return true;
}

bool ecs_json_read_entity(ecs_json_ctx_t *c, const cJSON *v, ecs_entity_t *out) {
    return ecs_json_read_entity_or_id(c, v, out, false);
}

static bool ecs_json_read_entity_or_id(ecs_json_ctx_t *c, const cJSON *v, ecs_entity_t *out, bool is_id) {
    char got[64];
    if (cJSON_IsNull(v)) {
        *out = ECS_NULL;
        return true;
    }
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        const char *sep = strchr(s, 'v');
        char index_text[24];
        bool negative;
        uint64_t index, generation;
        if (sep && (size_t)(sep - s) < sizeof index_text) {
            memcpy(index_text, s, (size_t)(sep - s));
            index_text[sep - s] = '\0';
            if (ecs_json_parse_decimal(index_text, &negative, &index) && !negative && index <= ECS_INDEX_MAX &&
                ecs_json_parse_decimal(sep + 1, &negative, &generation) && !negative && generation <= UINT32_MAX) {
                ecs_entity_t e = ecs_entity_make((uint32_t)index, (uint32_t)generation);
                if (c->record) {
                    if (c->mention_count == c->mention_capacity) {
                        size_t cap = c->mention_capacity ? c->mention_capacity * 2 : 64;
                        ecs_entity_t *m = ecs_realloc_array(c->mentions, cap, sizeof *m);
                        if (!m) return ecs_json_oom(c);
                        c->mentions = m;
                        c->mention_capacity = cap;
                    }
                    c->mentions[c->mention_count++] = e;
                    if (!is_id && generation > ECS_REF_GENERATION_MAX && !ecs_json_note_last_ref(c, e)) return false;
                }
                *out = e;
                return true;
            }
        }
    }
    return ecs_json_fail(c, "expected an entity id like \"5v0\" or null, got %s", ecs_json_describe(v, got));
}

bool ecs_json_read_string(ecs_json_ctx_t *c, const cJSON *v, char *dst, size_t size) {
    char got[64];
    if (!cJSON_IsString(v)) return ecs_json_fail(c, "expected string, got %s", ecs_json_describe(v, got));
    size_t n = strlen(v->valuestring);
    if (n >= size)
        return ecs_json_fail(c, "string of %zu bytes does not fit char[%zu] (at most %zu bytes)", n, size, size - 1);
    memset(dst, 0, size);
    memcpy(dst, v->valuestring, n);
    return true;
}

bool ecs_json_read_enum(ecs_json_ctx_t *c, const cJSON *v, const char *const *names, int n, int *out) {
    char got[64];
    if (cJSON_IsString(v))
        for (int k = 0; k < n; k++)
            if (!strcmp(names[k], v->valuestring)) return *out = k, true;
    /* A value outside the enum, set from C, is saved as its number: load what save writes.
     * A value of the enum is spelled by name. */
    if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) && v->valuedouble >= INT_MIN &&
        v->valuedouble <= INT_MAX && (v->valuedouble < 0 || v->valuedouble >= n))
        return *out = (int)v->valuedouble, true;
    char list[256] = "";
    for (int k = 0; k < n && strlen(list) + strlen(names[k]) + 3 < sizeof list; k++)
        strcat(strcat(list, k ? ", " : ""), names[k]);
    return ecs_json_fail(c, "expected one of %s, got %s", list, ecs_json_describe(v, got));
}

bool ecs_json_read_tag(ecs_json_ctx_t *c, const cJSON *v) {
    char got[64];
    if (!cJSON_IsTrue(v)) return ecs_json_fail(c, "a tag's value is true, got %s", ecs_json_describe(v, got));
    return true;
}

bool ecs_json_check_array(ecs_json_ctx_t *c, const cJSON *v, int n) {
    char got[64];
    if (!cJSON_IsArray(v) && n < 0) return ecs_json_fail(c, "expected an array, got %s", ecs_json_describe(v, got));
    if (!cJSON_IsArray(v)) return ecs_json_fail(c, "expected an array of %d, got %s", n, ecs_json_describe(v, got));
    if (n < 0) return true;
    int size = cJSON_GetArraySize(v);
    if (size != n) return ecs_json_fail(c, "expected an array of %d, got an array of %d", n, size);
    return true;
}

/* ---- Writing ------------------------------------------------------------------------ */

cJSON *ecs_json_make_bool(bool v) {
    return cJSON_CreateBool(v);
}

cJSON *ecs_json_make_int(int64_t v) {
    char buf[24];
    uint64_t magnitude = v < 0 ? (uint64_t)(-(v + 1)) + 1u : (uint64_t)v;
    snprintf(buf, sizeof buf, magnitude >= ECS_JSON_EXACT ? "\"%" PRId64 "\"" : "%" PRId64, v);
    return cJSON_CreateRaw(buf);
}

cJSON *ecs_json_make_uint(uint64_t v) {
    char buf[24];
    snprintf(buf, sizeof buf, v >= ECS_JSON_EXACT ? "\"%" PRIu64 "\"" : "%" PRIu64, v);
    return cJSON_CreateRaw(buf);
}

/* NaN and infinities as strings; NULL for a finite value. */
static const char *ecs_json_special(double v) {
    if (isnan(v)) return signbit(v) ? "-NaN" : "NaN";
    if (isinf(v)) return v < 0 ? "-Infinity" : "Infinity";
    return NULL;
}

/* v's decimal digits rounded to `digits` significant ones (printf's %e: exact, ties to even)
 * as a digit string and the exponent of its first digit. The digits are picked out of printf's
 * text, so a locale's decimal point (',' or several bytes) never reaches the result. */
static int ecs_json_digits(double v, int digits, char *out) {
    char text[64];
    snprintf(text, sizeof text, "%.*e", digits - 1, fabs(v));
    const char *p = text;
    int n = 0;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') out[n++] = *p;
    out[n] = '\0';
    return *p == 'e' ? atoi(p + 1) : 0;
}

/* Rounds the p leading digits of many (40 significant digits of a value, printf-rounded) to
 * p digits as printf would round the value itself; false when only printf can tell (the rest
 * is 5 then zeros: a tie, or printf's 40 digits rounded up to one). */
static bool ecs_json_round_digits(const char *many, int p, char out[24], int *exp) {
    const char *rest = many + p;
    bool up = *rest > '5';
    if (*rest == '5') {
        for (const char *r = rest + 1; *r; r++) up |= *r != '0';
        if (!up) return false;
    }
    memcpy(out, many, (size_t)p);
    out[p] = '\0';
    for (int i = p - 1; up && i >= 0; i--) {
        if (out[i] == '9') {
            out[i] = '0';
        } else {
            out[i]++;
            up = false;
        }
    }
    if (up) { /* 99..9 became 00..0: 10..0, one place higher */
        out[0] = '1';
        ++*exp;
    }
    return true;
}

size_t ecs_json_format_real(double v, bool single, char out[ECS_JSON_REAL_MAX]) {
    char *o = out;
    if (signbit(v)) *o++ = '-';
    if (v == 0) {
        *o++ = '0', *o = '\0';
        return (size_t)(o - out);
    }
    /* One printf of 40 digits, rounded here to each length tried (a printf per length took
     * twice as long); the rare undecidable rounding asks printf for that length. */
    char many[48], digits[24], check[48];
    const int many_exp = ecs_json_digits(v, 40, many);
    int exp = 0;
    for (int p = 1; p <= 17; p++) {
        exp = many_exp;
        if (!ecs_json_round_digits(many, p, digits, &exp)) exp = ecs_json_digits(v, p, digits);
        /* Read back with no decimal point ("12345e-4"): strtod's reading of it does not
         * depend on the locale either. */
        char *c = check;
        if (signbit(v)) *c++ = '-';
        memcpy(c, digits, (size_t)p), c += p;
        *c++ = 'e';
        int e = exp - (p - 1);
        if (e < 0) *c++ = '-', e = -e;
        char tmp[8];
        int t = 0;
        do tmp[t++] = (char)('0' + e % 10); while ((e /= 10) > 0);
        while (t > 0) *c++ = tmp[--t];
        *c = '\0';
        double back = strtod(check, NULL);
        if (single) {
            if (fabs(back) >= 0x1.ffffffp127) continue; /* a float's infinity: the loader refuses it */
            float a = (float)back, b = (float)v;
            if (memcmp(&a, &b, sizeof a) == 0) break;
        } else if (memcmp(&back, &v, sizeof v) == 0) {
            break;
        }
    }
    int k = (int)strlen(digits);
    while (k > 1 && digits[k - 1] == '0') digits[--k] = '\0';
    /* Laid out as JavaScript's Number.prototype.toString does: plain from 1e-7 up to below
     * 1e21 (100, 730, 0.1, 0.000001, 1234567), else d.ddde+N / d.ddde-N (1e+21, 1e-7). */
    int n = exp + 1; /* the value is 0.DIGITS x 10^n */
    if (k <= n && n <= 21) {
        memcpy(o, digits, (size_t)k), o += k;
        for (int i = k; i < n; i++) *o++ = '0';
    } else if (0 < n && n <= 21) {
        memcpy(o, digits, (size_t)n), o += n;
        *o++ = '.';
        memcpy(o, digits + n, (size_t)(k - n)), o += k - n;
    } else if (-6 < n && n <= 0) {
        *o++ = '0', *o++ = '.';
        for (int i = 0; i < -n; i++) *o++ = '0';
        memcpy(o, digits, (size_t)k), o += k;
    } else {
        *o++ = digits[0];
        if (k > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)(k - 1)), o += k - 1;
        }
        o += snprintf(o, 8, "e%c%d", n - 1 < 0 ? '-' : '+', abs(n - 1));
    }
    *o = '\0';
    return (size_t)(o - out);
}

/* The shortest digits that read back (through strtod, as cJSON reads) to the same bits. */
static cJSON *ecs_json_make_real(double v, bool single) {
    const char *special = ecs_json_special(v);
    if (special) return cJSON_CreateString(special);
    char buf[ECS_JSON_REAL_MAX];
    ecs_json_format_real(v, single, buf);
    return cJSON_CreateRaw(buf);
}

cJSON *ecs_json_make_f32(float v) {
    return ecs_json_make_real(v, true);
}

cJSON *ecs_json_make_f64(double v) {
    return ecs_json_make_real(v, false);
}

void ecs_json_format_id(ecs_entity_t e, char buf[24]) {
    snprintf(buf, 24, "%" PRIu32 "v%" PRIu32, ecs_entity_index(e), ecs_entity_generation(e));
}

cJSON *ecs_json_make_entity(ecs_entity_t v) {
    if (v == ECS_NULL) return cJSON_CreateNull();
    char buf[24];
    ecs_json_format_id(v, buf);
    return cJSON_CreateString(buf);
}

cJSON *ecs_json_make_ref(const ecs_entities_t *t, ecs_entity_t v) {
    return ecs_json_make_entity(ecs_entities_saved_ref(t, v)); /* the rule the loader checks */
}

cJSON *ecs_json_make_string(const char *s, size_t size) {
    size_t n = 0;
    while (n + 1 < size && s[n]) n++;
    char small[256];
    char *copy = n < sizeof small ? small : malloc(n + 1);
    if (!copy) return NULL;
    memcpy(copy, s, n);
    copy[n] = '\0';
    cJSON *item = cJSON_CreateString(copy);
    if (copy != small) free(copy);
    return item;
}

cJSON *ecs_json_make_enum(int v, const char *const *names, int n) {
    if (v >= 0 && v < n) return cJSON_CreateString(names[v]);
    return ecs_json_make_int(v);
}

bool ecs_json_put(cJSON *obj, const char *key, cJSON *item) {
    if (!item) return false;
    if (cJSON_AddItemToObject(obj, key, item)) return true;
    cJSON_Delete(item);
    return false;
}

bool ecs_json_append(cJSON *array, cJSON *item) {
    if (!item) return false;
    if (cJSON_AddItemToArray(array, item)) return true;
    cJSON_Delete(item);
    return false;
}
