/* ecs.h: the ecsgen runtime, everything generated code includes. C11; C++17 and later can
 * include it (and generated headers) too: the system headers come first, outside extern "C". */
#ifndef ECS_H
#define ECS_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#ifdef __cplusplus
#include <initializer_list>
#endif

/* The spellings generated headers use where C and C++ differ. */
#ifdef __cplusplus
#define ECS_RESTRICT __restrict
#define ECS_ZERO {}
/* C++ has no compound literals: an initializer_list's array lives to the end of the full
 * expression, as a compound literal's does for what the generated loops use it for. */
#define ECS_ARRAY(T, ...) (std::initializer_list<T>{ __VA_ARGS__ }.begin())
#else
#define ECS_RESTRICT restrict
#define ECS_ZERO { 0 }
#define ECS_ARRAY(T, ...) ((T[]){ __VA_ARGS__ })
#endif

#ifdef __cplusplus
extern "C" {
#endif

#include "ecs_alloc.h"
#include "ecs_check.h"
#include "ecs_entities.h"
#include "ecs_hash.h"
#include "ecs_iter.h"
#include "ecs_json.h"
#include "ecs_json_fields.h"
#include "ecs_json_migrate.h"
#include "ecs_meta.h"
#include "ecs_recorder.h"
#include "ecs_snapshot.h"
#include "ecs_sparse.h"
#include "ecs_tasks.h"
#include "ecs_types.h"

#ifdef __cplusplus
}
#endif

#endif
