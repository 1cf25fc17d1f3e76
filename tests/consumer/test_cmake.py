#!/usr/bin/env python3
"""tests/consumer built with CMake and Ninja: with ecsgen as a source subdirectory
(add_subdirectory) and installed (meson install into a temporary prefix, find_package);
each run prints the expected output, and a second build with nothing changed does nothing."""

import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from projects import copy_repository, install, run  # noqa: E402

EXPECTED = "hero alive=1 hp=7 x=3 moved=1\narmor=none\n"


class CMakeTest(unittest.TestCase):
    def build_and_run(self, project, *options):
        build = os.path.join(project, "build")
        run("cmake", "-G", "Ninja", "-S", project, "-B", build, *options)
        run("cmake", "--build", build)
        self.assertEqual(run(os.path.join(build, "mygame")), EXPECTED)
        self.assertIn("no work to do", run("cmake", "--build", build))

    def consumer(self, tmp):
        project = os.path.join(tmp, "consumer")
        shutil.copytree(HERE, project, ignore=shutil.ignore_patterns("test_*.py", "projects.py", "meson.build", "__pycache__"))
        return project

    def test_as_a_source_subdirectory(self):
        with tempfile.TemporaryDirectory(prefix="ecsgen-cmake-sub-") as tmp:
            project = self.consumer(tmp)
            copy_repository(os.path.join(project, "ecsgen"))
            self.build_and_run(project, "-DECSGEN_SOURCE_DIR=ecsgen")

    def test_installed_with_find_package(self):
        with tempfile.TemporaryDirectory(prefix="ecsgen-cmake-inst-") as tmp:
            prefix = os.path.join(tmp, "prefix")
            build = os.path.join(tmp, "ecsgen-build")
            install(prefix, build)
            self.build_and_run(self.consumer(tmp), f"-DCMAKE_PREFIX_PATH={prefix}")


if __name__ == "__main__":
    unittest.main()
