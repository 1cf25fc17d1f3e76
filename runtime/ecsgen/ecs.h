/* ecsgen/ecs.h: the runtime as generated code includes it (#include "ecsgen/ecs.h"), so a
 * project's own ecs.h cannot shadow it. Installed, the real header sits at this path; in the
 * source tree this file forwards to it. */
#include "../ecs.h"
