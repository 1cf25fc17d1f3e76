/* ecs_json_fields.h: a component's value as JSON and back, walking its metadata (ecs_meta.h):
 * the save/load code of every schema, written once. The format is ecs_json.h's. */
#ifndef ECS_JSON_FIELDS_H
#define ECS_JSON_FIELDS_H

#include "ecs_json.h"
#include "ecs_meta.h"

/* value (a value struct of c) as an object of its fields in schema order; entity fields
 * through ecs_json_make_ref with the world's table t. NULL when out of memory. */
cJSON *ecs_json_make_value(const ecs_meta_component_t *c, const ecs_entities_t *t, const void *value);
/* Reads object o into out (a value struct of c): the schema's defaults, then the fields o
 * has. False with the path in the context's error on an unknown or duplicate key or a bad
 * value (out then holds a partial value). */
bool ecs_json_read_value(ecs_json_ctx_t *c, const cJSON *o, const ecs_meta_component_t *m, void *out);

#endif
