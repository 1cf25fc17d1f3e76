#!/usr/bin/env python3
"""The fast rebuild (docs/systems.md, "A header per system"): a meson project that generates
its schema with --split-c and --system-headers, each system's file including only its own
header (the project bench/measure_rebuild.py times, at 60 components and 2 systems, -O0).
After an edit of a component no system uses, the rebuild recompiles the three parts of the
generated .c and main.c (which includes <name>_ecs.h), not the systems' files; after an edit
of filler1, which system s1 iterates, s1's file recompiles and s0's does not. What ninja ran
is read from its log."""

import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench"))
from projects import copy_repository, run  # noqa: E402
import measure_rebuild  # noqa: E402  (bench/: the project it times)


class RebuildTest(unittest.TestCase):
    def compiled(self, build):
        """The sources ninja compiled in a build run now (base names)."""
        mark = measure_rebuild.ninja_log_mark(build)
        run("ninja", "-C", build, cwd=build)
        outputs = [output for _, _, output in measure_rebuild.ninja_steps(build, mark)]
        return sorted(os.path.basename(o)[:-2].replace("meson-generated_.._", "") for o in outputs if o.endswith(".o"))

    def edit(self, schema, component):
        with open(schema, encoding="utf-8") as f:
            document = json.load(f)
        document["components"][component]["fields"]["added"] = "f32"
        with open(schema, "w", encoding="utf-8") as f:
            json.dump(document, f, indent=1)

    def test_an_edit_recompiles_only_the_files_of_what_changed(self):
        with tempfile.TemporaryDirectory(prefix="ecsgen-rebuild-") as project:
            copy_repository(os.path.join(project, "subprojects", "ecsgen"))
            name = measure_rebuild.make_project(project, 60, 2, "systems")
            build = os.path.join(project, "build")
            run("meson", "setup", build, "-Doptimization=0", cwd=project)
            first = self.compiled(build)
            self.assertIn("system_0.c", first)
            parts = [f"{name}_ecs.c", f"{name}_ecs_data.c", f"{name}_ecs_views.c"]
            self.assertEqual(self.compiled(build), [])  # nothing to do

            schema = os.path.join(project, name + ".json")
            self.edit(schema, "filler50")
            self.assertEqual(self.compiled(build), sorted(parts + ["main.c"]))

            self.edit(schema, "filler1")
            self.assertEqual(self.compiled(build), sorted(parts + ["main.c", "system_1.c"]))
            run(os.path.join(build, "game"), cwd=project)  # links and runs


if __name__ == "__main__":
    unittest.main()
