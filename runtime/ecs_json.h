/* ecs_json.h: the JSON helpers generated save/load code calls: typed, range-checked reads
 * that report the JSON path, lossless writes, ids, and whole files.
 *
 * Format rules (README.md, "Saving and loading"), decided here once for every schema:
 * - f32/f64: the fewest digits that read back bit-exact, plain where a person would write
 *   them (100, 730, 0.1), an exponent only from 1e21 and below 1e-7 (ecs_json_format_real;
 *   inserted with cJSON_CreateRaw, since cJSON's own %1.15g rounds). Writes and reads do not
 *   depend on the C locale. JSON has no NaN or infinity: they are written as the
 *   strings "NaN", "-NaN", "Infinity" and "-Infinity" and read back as such (a NaN comes
 *   back as the default quiet NaN of its sign; its payload bits are not kept).
 * - i64/u64: a JSON number when |v| < 2^53 (every reader gets it exactly), else a decimal
 *   string, because cJSON (and JavaScript) hold numbers as doubles and would round. Reads
 *   accept both; a number of 2^53 or more is refused rather than silently rounded.
 * - entity ids: "<index>v<generation>" (e.g. "5v0"); ECS_NULL is null.
 * - enums: the value's name (a value outside the enum, set from C, as its number, read back
 *   as such, so a save always loads; a number naming a value of the enum is refused); tags: true; char[N]: a string of at most N-1 bytes. */
#ifndef ECS_JSON_H
#define ECS_JSON_H

#include <cjson/cJSON.h>

#include "ecs_entities.h"
#include "ecs_types.h"

/* ---- Reading: a context carrying the error and the JSON path being read ------------- */

typedef struct ecs_json_ctx {
    ecs_error_t *err;
    char path[160];        /* e.g. "entities[3].hp" */
    size_t len;
    ecs_entity_t *mentions; /* every non-null id the document names (ids and references) */
    size_t mention_count, mention_capacity;
    bool record;            /* whether entity reads go into mentions */
    const ecs_entities_t *previous; /* the table the load replaces (NULL: none): no handle it
                                     * issued may come alive again after the load */
    uint32_t max_slots;     /* highest slot index + 1 a document may restore; 0: ECS_JSON_SLOTS_DEFAULT */
    struct ecs_json_last_ref *last_refs; /* references above ECS_REF_GENERATION_MAX, with their paths */
    size_t last_ref_count, last_ref_capacity;
} ecs_json_ctx_t;

void ecs_json_ctx_init(ecs_json_ctx_t *c, ecs_error_t *err);
void ecs_json_ctx_fini(ecs_json_ctx_t *c);

/* Appends ".key" or "[i]" to the path and returns the length to go back to. */
size_t ecs_json_enter(ecs_json_ctx_t *c, const char *key);
size_t ecs_json_enter_index(ecs_json_ctx_t *c, size_t i);
static inline void ecs_json_leave(ecs_json_ctx_t *c, size_t mark) {
    c->len = mark;
    c->path[mark] = '\0';
}

/* Copies src into dst (size bytes, NUL-terminated, never cutting an escape in two) with what
 * a terminal could act on escaped: C0 controls, DEL and C1 controls as \u001b and the like,
 * bytes that are not UTF-8 as \x9b. Returns the length all of src needs (as snprintf). Every
 * key, value and file path a load or save echoes in a message goes through it. */
size_t ecs_json_escape(char *dst, size_t size, const char *src);

/* Sets err->message to "<path>: <reason>" and err->code to ECS_ERR_INVALID (the document
 * breaks a rule: most failures); returns false, for `return ecs_json_fail(...)`. */
bool ecs_json_fail(ecs_json_ctx_t *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The same with another code (ECS_ERR_LIMIT, ECS_ERR_SCHEMA_MISMATCH, ...). */
bool ecs_json_fail_code(ecs_json_ctx_t *c, ecs_error_code_t code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The document's root, or NULL with "line L, column C: malformed JSON..." in err. Strict:
 * text cJSON would take but RFC 8259 does not (raw control characters in strings, numbers
 * such as 03, 3. or -, whitespace other than space, tab, CR and LF) is refused, naming
 * what and where; so is a \u0000 escape (a C string cannot hold it). */
cJSON *ecs_json_parse(const char *text, ecs_error_t *err);

/* The first byte of text at which it stops being one RFC 8259 JSON value (NULL: none), with
 * the reason in *why (a static string, or detail). Used by ecs_json_parse. */
const char *ecs_json_strict_check(const char *text, const char **why, char detail[96]);

/* Checks that v is an object whose keys are all in keys[0..n) and appear once; `what` names
 * them in errors ("component", "field of position"). */
bool ecs_json_check_keys(ecs_json_ctx_t *c, const cJSON *v, const char *const *keys, size_t n, const char *what);

/* Restoring ids costs memory in proportion to the highest slot a document names, not to its
 * size: a live id's slot must be below max(ECS_JSON_SLOTS_DEFAULT, 4 x the document's
 * entities) unless the caller sets another limit (ctx max_slots), else the load is refused
 * with the path. A reference (an entity field) to a slot beyond that is kept as written and
 * reserves nothing. */
#define ECS_JSON_SLOTS_DEFAULT (UINT32_C(1) << 20)

/* Checks the document's "schema" (must be `schema`) and "version" (an integer from 1 to
 * `version`: older documents load, newer ones are refused). */
bool ecs_json_check_header(ecs_json_ctx_t *c, const cJSON *doc, const char *schema, uint32_t version);

/* Reads entity object o's required "id" (not null) into *out. */
bool ecs_json_read_id(ecs_json_ctx_t *c, const cJSON *o, ecs_entity_t *out);

/* Makes exactly ids[0..n) live in t (the k-th from the path's "[k].id"), refusing duplicate
 * slots and slots beyond t's limit, and references above ECS_REF_GENERATION_MAX (near the
 * last generation) to a slot the document has no live id of at least that generation: the
 * slot would be retired for good (or after a few entities), so a small document could use
 * up every slot of a fixed-size world (a save writes such a reference as null, see
 * ecs_entities_saved_ref). Every other slot up to the highest the document
 * mentions (c->mentions: ids and references) becomes free with a generation above any
 * mentioned for it, so stale references stay stale and later spawns get fresh ids. */
bool ecs_json_restore_ids(ecs_json_ctx_t *c, ecs_entities_t *t, const ecs_entity_t *ids, uint32_t n);

/* ---- The load's memory ------------------------------------------------------------ */

/* A load allocates the world it builds in one go, and some of that memory follows the slot
 * numbers a document names, not its length: slot storage has a row in every slot pool per
 * slot up to the highest one holding a slot component, a sparse pool a page of 16 KiB for
 * every 4096 slots it has a member in. So a load first estimates, in bytes, what it will
 * allocate (entity table and masks up to the highest slot restored, slot rows, sparse pages,
 * the pools' members) and refuses a document that would need more than its budget, naming
 * the entity at which the estimate passes it: by default max(ECS_JSON_MEMORY_DEFAULT,
 * ECS_JSON_MEMORY_PER_BYTE x the document's length) (a 68-byte document may not make a load
 * allocate 4 GB); the load option max_memory sets another. Worlds with fixed storage
 * (max_entities) are exempt: world_new allocated everything already. */
#define ECS_JSON_MEMORY_DEFAULT ((uint64_t)64 << 20)
#define ECS_JSON_MEMORY_PER_BYTE 16u
#define ECS_JSON_MEMORY_OF(text_bytes)                                                            \
    ((uint64_t)(text_bytes) * ECS_JSON_MEMORY_PER_BYTE > ECS_JSON_MEMORY_DEFAULT                  \
         ? (uint64_t)(text_bytes) * ECS_JSON_MEMORY_PER_BYTE                                     \
         : ECS_JSON_MEMORY_DEFAULT)

struct ecs_meta_schema;
typedef struct ecs_json_cost {
    const struct ecs_meta_schema *schema;
    uint64_t budget, allowed, member_bytes, slot_row_bytes;
    size_t text_bytes, mentions_seen;
    uint32_t used, slot_rows, page_slots, sparse_pools;
    uint64_t *pages; /* the sparse pages counted (a set) */
    size_t page_count, page_capacity;
    bool fixed;
} ecs_json_cost_t;

/* For a load of a document of text_bytes with n entities into t (a fresh world of schema s;
 * c's previous and max_slots as the load has them); budget 0: the default above. */
void ecs_json_cost_init(ecs_json_cost_t *k, const ecs_json_ctx_t *c, const struct ecs_meta_schema *s,
                        const ecs_entities_t *t, uint32_t n, uint64_t budget, size_t text_bytes);
/* Adds entity object o (id `id`, already checked) and the references read so far; false,
 * with the reason at c's path, once the estimate passes the budget (or out of memory). */
bool ecs_json_cost_entity(ecs_json_cost_t *k, ecs_json_ctx_t *c, ecs_entity_t id, const cJSON *o);
void ecs_json_cost_fini(ecs_json_cost_t *k);

/* Typed reads of v at the current path: false (err set, *out untouched) on a wrong type or
 * an out-of-range value. */
bool ecs_json_read_bool(ecs_json_ctx_t *c, const cJSON *v, bool *out);
bool ecs_json_read_i8(ecs_json_ctx_t *c, const cJSON *v, int8_t *out);
bool ecs_json_read_i16(ecs_json_ctx_t *c, const cJSON *v, int16_t *out);
bool ecs_json_read_i32(ecs_json_ctx_t *c, const cJSON *v, int32_t *out);
bool ecs_json_read_i64(ecs_json_ctx_t *c, const cJSON *v, int64_t *out);
bool ecs_json_read_u8(ecs_json_ctx_t *c, const cJSON *v, uint8_t *out);
bool ecs_json_read_u16(ecs_json_ctx_t *c, const cJSON *v, uint16_t *out);
bool ecs_json_read_u32(ecs_json_ctx_t *c, const cJSON *v, uint32_t *out);
bool ecs_json_read_u64(ecs_json_ctx_t *c, const cJSON *v, uint64_t *out);
bool ecs_json_read_f32(ecs_json_ctx_t *c, const cJSON *v, float *out);
bool ecs_json_read_f64(ecs_json_ctx_t *c, const cJSON *v, double *out);
/* An id or null; a non-null id is recorded in c->mentions when c->record is set. */
bool ecs_json_read_entity(ecs_json_ctx_t *c, const cJSON *v, ecs_entity_t *out);
/* A string of at most size-1 bytes, copied NUL-terminated (and zero-padded) into dst. */
bool ecs_json_read_string(ecs_json_ctx_t *c, const cJSON *v, char *dst, size_t size);
/* One of names[0..n), stored as its position. */
bool ecs_json_read_enum(ecs_json_ctx_t *c, const cJSON *v, const char *const *names, int n, int *out);
/* A tag's value: true. */
bool ecs_json_read_tag(ecs_json_ctx_t *c, const cJSON *v);
/* Checks that v is an array of exactly n items (n < 0: of any length). */
bool ecs_json_check_array(ecs_json_ctx_t *c, const cJSON *v, int n);
/* Records "out of memory" (ECS_ERR_OUT_OF_MEMORY) at the current path; returns false. */
bool ecs_json_oom(ecs_json_ctx_t *c);

/* ---- Writing: ecs_json_make_* make a new cJSON item of a C value (ecs_json_read_* the
 * reverse), NULL when out of memory ------------------------------------------------- */

cJSON *ecs_json_make_bool(bool v);
cJSON *ecs_json_make_int(int64_t v);   /* i8..i64 */
cJSON *ecs_json_make_uint(uint64_t v); /* u8..u64 */
cJSON *ecs_json_make_f32(float v);
cJSON *ecs_json_make_f64(double v);
/* Finite v as save writes it (f32 when single): the fewest significant digits that read back
 * to the same bits (through a double, then a float for f32), laid out as JavaScript's
 * Number.prototype.toString: plain from 1e-7 up to below 1e21, else with an exponent
 * ("1e+21", "1.5e-7"). Never depends on the C locale. Returns the length. */
#define ECS_JSON_REAL_MAX 32
size_t ecs_json_format_real(double v, bool single, char out[ECS_JSON_REAL_MAX]);
cJSON *ecs_json_make_entity(ecs_entity_t v);
/* An entity field's value in world table t: as ecs_json_make_entity, except that an id t never
 * issued, a later generation of a live slot (another world's id, say), is written as null:
 * loading it would make a reference that comes alive once the slot is reused. So is a dead id
 * above ECS_REF_GENERATION_MAX (the loader refuses such references): ecs_entities_saved_ref.
 * Other stale ids of t and ids beyond its slots are kept (they stay stale through a load). */
cJSON *ecs_json_make_ref(const ecs_entities_t *t, ecs_entity_t v);
cJSON *ecs_json_make_string(const char *s, size_t size); /* at most size-1 bytes of s */
cJSON *ecs_json_make_enum(int v, const char *const *names, int n); /* out of range: the number */

/* Adds item (may be NULL: then false) to obj under key; on failure item is freed. */
bool ecs_json_put(cJSON *obj, const char *key, cJSON *item);
/* Appends item (may be NULL: then false) to array; on failure item is freed. */
bool ecs_json_append(cJSON *array, cJSON *item);

/* Writes "<index>v<generation>" into buf (at least 24 bytes). */
void ecs_json_format_id(ecs_entity_t e, char buf[24]);

/* ---- Files (ecs_json_file.c, POSIX) ------------------------------------------------- */

/* Saves text to path crash-safely: path holds either the old or the new contents, never a
 * torn file, also after a power cut.
 * - The text goes to a temporary file ".ecsgen-save-<pid>-<n>.tmp" in the same directory
 *   (short, so any file name that fits NAME_MAX works), is flushed to disk (fsync), renamed
 *   over the target, and then the directory is flushed (fsync), so the rename lasts too.
 *   Every failure removes the temporary file; only a crash between its creation and the
 *   rename can leave one behind (safe to delete).
 * - A symbolic link is written through: the target is the file the link (chain) leads to,
 *   and the link stays. An existing target that is not a regular file (a directory, a
 *   device) is refused.
 * - The new file keeps the replaced file's permission bits (and its group where the saver
 *   may set it, else the group bits are dropped); a new file gets 0666 less the umask, as
 *   fopen gives. Owner: the saver.
 * - Thread-safe: saves from several threads at once pick distinct temporary names.
 * False with the path and the system's reason in err; the target is then unchanged (except
 * "saved, but cannot flush its directory to disk": the new contents are in place, their
 * durability is not sure). */
bool ecs_json_write_file(const char *path, const char *text, ecs_error_t *err);
/* Prefixes err->message with "path: " (for errors inside a loaded file). */
void ecs_json_error_in_file(ecs_error_t *err, const char *path);
/* The whole file, malloc'ed and NUL-terminated; NULL with the path and reason in err, also
 * when the file holds more than max_bytes (0: ECS_JSON_MAX_BYTES_DEFAULT, 256 MiB), so a
 * wrong path (a log) fails early instead of filling memory: the buffer never grows past
 * max_bytes + 2, and a file whose size says more is refused unread. Only regular files are
 * read: a FIFO, a device (/dev/zero) or a directory is refused at once, never waited on. */
#define ECS_JSON_MAX_BYTES_DEFAULT ((size_t)256 << 20)
char *ecs_json_read_file(const char *path, size_t max_bytes, ecs_error_t *err);

#endif
