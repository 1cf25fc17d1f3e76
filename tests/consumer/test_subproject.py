#!/usr/bin/env python3
"""ecsgen as a meson subproject: copies tests/consumer and this repository (as
subprojects/ecsgen) into a temporary directory, builds and runs the consumer, then edits the
shared schema file it includes and checks that a plain rebuild regenerates the API. A C++
program (main.cpp) builds the same way in a project whose languages are 'c' and 'cpp' (meson
compiles the generated .c in the consumer's project, so 'c' must be among them: README.md)."""

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

    def test_cpp_program(self):
        with tempfile.TemporaryDirectory(prefix="ecsgen-consumer-cpp-") as tmp:
            project = os.path.join(tmp, "consumer")
            shutil.copytree(HERE, project, ignore=shutil.ignore_patterns("test_*.py"))
            copy_repository(os.path.join(project, "subprojects", "ecsgen"))
            path = os.path.join(project, "meson.build")
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for old, new in (("project('consumer', 'c',", "project('consumer', 'c', 'cpp',"),
                             ("executable('mygame', 'main.c',", "executable('mygame', 'main.cpp',"),
                             # C++ without -Wpedantic (README.md, "From C++")
                             ("dependencies: ecsgen_dep)", "dependencies: ecsgen_dep, override_options: ['warning_level=2'])")):
                self.assertIn(old, text)
                text = text.replace(old, new)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            build = os.path.join(project, "build")
            run("meson", "setup", build, cwd=project)
            run("meson", "compile", "-C", build, cwd=project)
            self.assertEqual(run(os.path.join(build, "mygame"), cwd=project), "hero alive=1 hp=7 x=3 moved=1\narmor=none\n")
            with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
                self.assertIn("main.cpp", f.read())


if __name__ == "__main__":
    unittest.main()
