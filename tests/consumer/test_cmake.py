#!/usr/bin/env python3
"""tests/consumer built with CMake and Ninja: with ecsgen as a source subdirectory
(add_subdirectory) and installed (meson install into a temporary prefix, find_package); as a
C project and as a C++-only one (project(consumer CXX), main.cpp), with the consumer's
cmake_minimum_required at 3.16 (policy CMP0116 OLD: depfiles passed to Ninja as written) and at
the running CMake's version. Each run prints the expected output, and a second build with
nothing changed does nothing (Ninja explains no step); editing the file the schema includes
regenerates (C++, 3.16 and current). find_package(ecsgen VERSION) takes the
installed version file: 0.<minor> is found, a newer version is refused. With SPLIT_C and
SYSTEM_HEADERS, a file that defines a system and includes only its header is not recompiled
after an edit of a component the system does not use, and is after one it uses."""

import json
import os
import re
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from projects import ROOT, copy_repository, install, run  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "generator"))
from ecsgenlib import VERSION  # noqa: E402  (read from runtime/ecs_version.h, as CMakeLists.txt reads it)

EXPECTED = "hero alive=1 hp=7 x=3 moved=1\narmor=none\n"


def cmake_version():
    return re.search(r"cmake version (\d+\.\d+)", run("cmake", "--version")).group(1)


class CMakeTest(unittest.TestCase):
    def build_and_run(self, project, *options, name="build"):
        build = os.path.join(project, name)
        run("cmake", "-G", "Ninja", "-S", project, "-B", build, *options)
        run("cmake", "--build", build)
        self.assertEqual(run(os.path.join(build, "mygame")), EXPECTED)
        # A no-op build: nothing re-runs (the generator, a compile or a link).
        self.assertIn("no work to do", run("cmake", "--build", build))
        explain = run("ninja", "-C", build, "-n", "-d", "explain", check=False)
        self.assertEqual(explain.returncode, 0)
        self.assertNotIn("ninja explain", explain.stdout + explain.stderr)

    def edit_the_include(self, project, name="build"):
        """Editing the file the schema includes regenerates (the depfile names it)."""
        shared = os.path.join(project, "schema", "shared.json")
        with open(shared, encoding="utf-8") as f:
            document = json.load(f)
        document["components"]["armor"] = {"fields": {"points": {"type": "u8", "default": 5}}}
        with open(shared, "w", encoding="utf-8") as f:
            json.dump(document, f)
        build = os.path.join(project, name)
        run("cmake", "--build", build)
        self.assertEqual(run(os.path.join(build, "mygame")), EXPECTED.replace("armor=none", "armor=5"))
        self.assertIn("no work to do", run("cmake", "--build", build))

    def consumer(self, tmp, cxx=False, minimum=None, find="find_package(ecsgen REQUIRED)", name="consumer"):
        """tests/consumer, as a C++-only project with cxx, with another cmake_minimum_required
        or another find_package line."""
        project = os.path.join(tmp, name)
        shutil.copytree(HERE, project, ignore=shutil.ignore_patterns("test_*.py", "projects.py", "meson.build", "__pycache__"))
        path = os.path.join(project, "CMakeLists.txt")
        with open(path) as f:
            text = f.read()
        edits = [("find_package(ecsgen REQUIRED)", find)]
        if minimum:
            edits.append(("cmake_minimum_required(VERSION 3.20)", f"cmake_minimum_required(VERSION {minimum})"))
        if cxx:
            edits += [("project(consumer C)", "project(consumer CXX)"), ("main.c)", "main.cpp)")]
        for old, new in edits:
            self.assertIn(old, text)
            text = text.replace(old, new)
        with open(path, "w") as f:
            f.write(text)
        return project

    def test_as_a_source_subdirectory(self):
        with tempfile.TemporaryDirectory(prefix="ecsgen-cmake-sub-") as tmp:
            for cxx, minimum in ((False, None), (True, "3.16")):
                project = self.consumer(tmp, cxx=cxx, minimum=minimum, name=f"consumer-{cxx}")
                copy_repository(os.path.join(project, "ecsgen"))
                self.build_and_run(project, "-DECSGEN_SOURCE_DIR=ecsgen")

    def test_split_c_and_system_headers(self):
        with tempfile.TemporaryDirectory(prefix="ecsgen-cmake-sys-") as tmp:
            project = self.consumer(tmp, find="add_subdirectory(ecsgen)", name="systems")
            copy_repository(os.path.join(project, "ecsgen"))
            path = os.path.join(project, "CMakeLists.txt")
            with open(path) as f:
                text = f.read()
            for old, new in (("SCHEMA schema/mygame.json)", "SCHEMA schema/mygame.json SPLIT_C SYSTEM_HEADERS)"),
                             ("add_executable(mygame main.c)", "add_executable(mygame main.c move.c)")):
                self.assertIn(old, text)
                text = text.replace(old, new)
            with open(path, "w") as f:
                f.write(text)
            schema = os.path.join(project, "schema", "mygame.json")
            with open(schema, encoding="utf-8") as f:
                document = json.load(f)
            document["systems"] = {"move": {"query": "movement", "reads": ["velocity"], "writes": ["position"]}}
            with open(schema, "w", encoding="utf-8") as f:
                json.dump(document, f)
            with open(os.path.join(project, "move.c"), "w") as f:
                f.write('#include "mygame_system_move.h"\n#ifdef MYGAME_ECS_H\n#error "the world header came in"\n#endif\n\n'
                        "void mygame_system_move(mygame_move_t *ECS_RESTRICT s) {\n"
                        "    for (size_t i = 0; i < s->count; i++) MYGAME_MOVE_FIELD(s, position, x, i) += 1.0f;\n}\n")
            self.build_and_run(project)
            build = os.path.join(project, "build")
            for name in ("mygame_ecs_views.c", "mygame_ecs_data.c", "mygame_system_move.h"):
                self.assertTrue(os.path.exists(os.path.join(build, "mygame_ecs", name)), name)

            def edit(file, component, field, kind):
                """Adds a field to a component of schema/<file>, then builds: the build's output."""
                path = os.path.join(project, "schema", file)
                with open(path, encoding="utf-8") as f:
                    document = json.load(f)
                document["components"][component]["fields"][field] = kind
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(document, f)
                return run("cmake", "--build", build)

            unrelated = edit("mygame.json", "health", "max", "i32")  # move does not use health
            self.assertIn("mygame_ecs_data.c.o", unrelated)
            self.assertIn("main.c.o", unrelated)
            self.assertNotIn("move.c.o", unrelated)
            self.assertEqual(run(os.path.join(build, "mygame")), EXPECTED)
            self.assertIn("no work to do", run("cmake", "--build", build))
            used = edit("shared.json", "velocity", "z", "f32")  # move reads velocity
            self.assertIn("move.c.o", used)
            self.assertEqual(run(os.path.join(build, "mygame")), EXPECTED)

    def test_installed_with_find_package(self):
        with tempfile.TemporaryDirectory(prefix="ecsgen-cmake-inst-") as tmp:
            prefix = os.path.join(tmp, "prefix")
            build = os.path.join(tmp, "ecsgen-build")
            install(prefix, build)
            self.assertTrue(os.path.exists(os.path.join(prefix, "lib/cmake/ecsgen/ecsgenConfigVersion.cmake")))
            found = f"-DCMAKE_PREFIX_PATH={prefix}"
            major, minor = VERSION.split(".")[:2]
            self.build_and_run(self.consumer(tmp, find=f"find_package(ecsgen {major}.{minor} REQUIRED)"), found)
            # C++ only, with the oldest supported and the running CMake's policies.
            for minimum in ("3.16", cmake_version()):
                project = self.consumer(tmp, cxx=True, minimum=minimum, name=f"cxx-{minimum}")
                self.build_and_run(project, found)
                self.edit_the_include(project)

            # Versions: a newer one than installed is refused; so is another 0.x minor.
            for wanted in (f"{int(major) + 1}.0", f"{major}.{int(minor) + 1}"):
                project = self.consumer(tmp, find=f"find_package(ecsgen {wanted} REQUIRED)", name=f"v{wanted}")
                result = run("cmake", "-G", "Ninja", "-S", project, "-B", os.path.join(project, "build"), found,
                             check=False)
                self.assertNotEqual(result.returncode, 0, wanted)
                self.assertIn(f'Could not find a configuration file for package "ecsgen" that is compatible with requested version "{wanted}"', result.stderr.replace("\n  ", " "), result.stderr)

            # ecsgen_generate called from a function in a C++-only project cannot enable C:
            # it stops at configure time and says what to add.
            project = self.consumer(tmp, cxx=True, name="in-function", find="find_package(ecsgen REQUIRED)\n"
                                    "function(make_ecs)\n  ecsgen_generate(mygame_ecs SCHEMA schema/mygame.json)\n"
                                    "endfunction()\nmake_ecs()\nreturn()")
            result = run("cmake", "-G", "Ninja", "-S", project, "-B", os.path.join(project, "build"), found, check=False)
            self.assertNotEqual(result.returncode, 0)
            message = " ".join(result.stderr.split())
            self.assertIn("ecsgen_generate(mygame_ecs): the generated code is C and C is not enabled here. Add C to "
                          "your project's languages, e.g. project(consumer C CXX), or call enable_language(C) at file "
                          "scope before calling make_ecs().", message)


if __name__ == "__main__":
    unittest.main()
