/* ecs_version.h: the ecsgen release this runtime belongs to, written here and nowhere else:
 * meson.build, CMakeLists.txt and the generator (ecsgenlib/__init__.py) read these lines.
 * A generated header names the version that made it and does not compile against a runtime
 * of another one (its code relies on this runtime's structs and functions). */
#ifndef ECS_VERSION_H
#define ECS_VERSION_H

#define ECS_VERSION_MAJOR 0
#define ECS_VERSION_MINOR 7
#define ECS_VERSION_PATCH 0

#define ECS_VERSION_TEXT__(x) #x
#define ECS_VERSION_TEXT_(x) ECS_VERSION_TEXT__(x)
/* "0.7.0" */
#define ECS_VERSION_STRING                                                                        \
    ECS_VERSION_TEXT_(ECS_VERSION_MAJOR) "." ECS_VERSION_TEXT_(ECS_VERSION_MINOR) "." ECS_VERSION_TEXT_(ECS_VERSION_PATCH)

#endif
