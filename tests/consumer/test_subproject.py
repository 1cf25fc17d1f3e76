#!/usr/bin/env python3
"""ecsgen as a meson subproject: copies tests/consumer and this repository (as
subprojects/ecsgen) into a temporary directory, builds and runs the consumer, then edits the
shared schema file it includes and checks that a plain rebuild regenerates the API."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from projects import copy_repository, run  # noqa: E402




class SubprojectTest(unittest.TestCase):
    def test_builds_and_regenerates_on_schema_edits(self):
        with tempfile.TemporaryDirectory(prefix="ecsgen-consumer-") as tmp:
            project = os.path.join(tmp, "consumer")
            shutil.copytree(HERE, project, ignore=shutil.ignore_patterns("test_*.py", "projects.py", "__pycache__"))
            copy_repository(os.path.join(project, "subprojects", "ecsgen"))
            build = os.path.join(project, "build")
            run("meson", "setup", build, cwd=project)
            run("meson", "compile", "-C", build, cwd=project)
            out = run(os.path.join(build, "mygame"), cwd=project)
            self.assertEqual(out, "hero alive=1 hp=7 x=3 moved=1\narmor=none\n")

            # Edit the included file only: the depfile names it, so the build regenerates.
            shared = os.path.join(project, "schema", "shared.json")
            with open(shared, encoding="utf-8") as f:
                document = json.load(f)
            document["components"]["armor"] = {"fields": {"points": {"type": "u8", "default": 5}}}
            with open(shared, "w", encoding="utf-8") as f:
                json.dump(document, f)
            run("meson", "compile", "-C", build, cwd=project)
            out = run(os.path.join(build, "mygame"), cwd=project)
            self.assertEqual(out, "hero alive=1 hp=7 x=3 moved=1\narmor=5\n")
            with open(os.path.join(build, "mygame_ecs.h"), encoding="utf-8") as f:
                self.assertIn("static inline bool mygame_add_armor(mygame_world_t *w, ecs_entity_t e, mygame_armor_t v) {", f.read())

            # Nothing installs from a subproject.
            staged = os.path.join(tmp, "stage")
            env = dict(os.environ, DESTDIR=staged)
            subprocess.run(["meson", "install", "-C", build], cwd=project, env=env, capture_output=True, check=True)
            installed = [os.path.join(d, f) for d, _, files in os.walk(staged) for f in files]
            self.assertEqual(installed, [])


if __name__ == "__main__":
    unittest.main()
