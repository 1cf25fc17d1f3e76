"""ecsgen: a JSON schema of components in, a typed C ECS out."""

import os
import re

_HERE = os.path.dirname(os.path.abspath(__file__))
# The version is written once, in the runtime's ecs_version.h: in the source tree
# runtime/ecs_version.h, installed the copy meson puts beside the generator (share/ecsgen/).
VERSION_FILES = (os.path.join(os.path.dirname(_HERE), "ecs_version.h"),
                 os.path.join(os.path.dirname(os.path.dirname(_HERE)), "runtime", "ecs_version.h"))


def _read_version():
    for path in VERSION_FILES:
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            parts = [re.search(rf"^#define ECS_VERSION_{p} (\d+)$", text, re.M) for p in ("MAJOR", "MINOR", "PATCH")]
            if all(parts):
                return path, ".".join(m.group(1) for m in parts)
            raise RuntimeError(f"{path}: no ECS_VERSION_MAJOR, _MINOR and _PATCH")
    raise RuntimeError(f"ecs_version.h not found (looked for {' and '.join(VERSION_FILES)})")


VERSION_FILE, VERSION = _read_version()
