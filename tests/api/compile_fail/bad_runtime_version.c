/* expect: needs the runtime of that version: regenerate it */
/* A generated header refuses a runtime of another version: here the runtime's header is
 * read first and its minor version changed before the generated header checks it. */
#include "ecsgen/ecs.h"
#undef ECS_VERSION_MINOR
#define ECS_VERSION_MINOR 999
#include "kit_ecs.h"

int main(void) {
    return 0;
}
