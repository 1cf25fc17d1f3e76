/* ecs.h: the ecsgen runtime, everything generated code includes. */
#ifndef ECS_H
#define ECS_H

#include "ecs_alloc.h"
#include "ecs_entities.h"
#include "ecs_hash.h"
#include "ecs_iter.h"
#include "ecs_json.h"
#include "ecs_json_migrate.h"
#include "ecs_sparse.h"
#include "ecs_types.h"

#endif
