/* ecs_json_migrate.h: brings a saved world of an older schema into the current schema's shape
 * before it is read: components and fields that were renamed (`was` in the schema) take
 * their new names, removed ones (`removed_components`, `removed_fields`) are dropped and
 * reported; in lax mode unknown ones are dropped and reported too. Values are not touched:
 * the typed readers then accept every value that fits the new type (widening changes) and
 * refuse, with the path, one that does not (narrowing). */
#ifndef ECS_JSON_MIGRATE_H
#define ECS_JSON_MIGRATE_H

#include "ecs_json.h"

typedef struct ecs_json_rename {
    const char *from, *to;
} ecs_json_rename_t;

/* One component of the current schema, as the generator describes it. */
typedef struct ecs_json_component_map {
    const char *name;
    bool singleton;
    const char *const *fields; /* its current fields (none for a tag) */
    size_t field_count;
    const ecs_json_rename_t *renames; /* old field name -> current */
    size_t rename_count;
    const char *const *removed; /* fields it no longer has */
    size_t removed_count;
} ecs_json_component_map_t;

typedef struct ecs_json_migration {
    const ecs_json_component_map_t *components; /* every component, in schema order */
    size_t component_count;
    const ecs_json_rename_t *renames; /* old component name -> current */
    size_t rename_count;
    const char *const *removed; /* components the schema no longer has */
    size_t removed_count;
} ecs_json_migration_t;

/* What a load changed on the way in: keys renamed, values dropped (complete counts), and a
 * line per change ("entities[3].stats.mana: removed field of stats, dropped"), as many lines
 * as fit in 4 KiB. When some do not, truncated is set and the text's last line says so:
 * "... and N more changes not listed (...; ecsgen-dump check --schema SCHEMA.json FILE lists
 * every one)". */
#define ECS_JSON_REPORT_FOOTER 256 /* bytes of text kept for that line */
typedef struct ecs_load_report {
    size_t renamed;
    size_t dropped;
    char text[4096];
    bool truncated; /* more lines than fit in text */
} ecs_load_report_t;

/* Applies m to doc's "singletons" and to every object of its "entities" (other shapes are
 * left for the reader to refuse). False, with the path in c's error, when an object holds an
 * old name and its new name both. report may be NULL. */
bool ecs_json_migrate(ecs_json_ctx_t *c, cJSON *doc, const ecs_json_migration_t *m, bool lax,
                      ecs_load_report_t *report);

#endif
