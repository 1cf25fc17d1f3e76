#!/usr/bin/env python3
"""README.md's "Use from your project" snippets, taken from README.md when the test runs (so
they cannot drift) and built as written: the meson one with ecsgen as a subproject, the
shell one ("Installed") and the CMake ones ("From CMake", and "From C++" with its main.cpp)
against a `meson install` into a temporary prefix. The schema is schema/game.json; main.c is
this test's (the README's snippets name it and leave it to you). Each program runs; a second
CMake build does nothing."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from projects import copy_repository  # noqa: E402

MAIN_C = """#include <stdio.h>

#include "game_ecs.h"

int main(void) {
    game_world_t *w = game_world_new();
    ecs_entity_t e = game_spawn(w, &(game_spawn_desc_t){ .position = &(game_position_t){ 1, 2 } });
    GAME_EACH(w, it, position) { GAME_FIELD(it, position, x) += 1; }
    printf("x=%g\\n", (double)game_get_position(w, e).x);
    game_world_free(w);
    return 0;
}
"""


def readme_block(marker, language, nth=0):
    """The nth ```language block after the paragraph starting with marker."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index(marker)
    blocks = re.findall(rf"^```{language}\n(.*?)^```$", text[start:], re.M | re.S)
    return blocks[nth]


def run(*command, cwd=None, env=None):
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


class ReadmeTest(unittest.TestCase):
    def project(self, tmp, name, files):
        path = os.path.join(tmp, name)
        os.makedirs(path)
        # game.json's systems need the demo's bodies (examples/game_systems.c); the README's
        # main.c uses the data API only, so its project gets the schema without them.
        with open(os.path.join(ROOT, "schema", "game.json"), encoding="utf-8") as f:
            schema = json.load(f)
        schema.pop("systems", None)
        with open(os.path.join(path, "game.json"), "w", encoding="utf-8") as f:
            json.dump(schema, f, indent=2)
        for file, text in files.items():
            with open(os.path.join(path, file), "w", encoding="utf-8") as f:
                f.write(text)
        return path

    def test_installed_shell_cmake_and_cpp(self):
        with tempfile.TemporaryDirectory(prefix="ecsgen-readme-") as tmp:
            prefix = os.path.join(tmp, "prefix")
            run("meson", "setup", os.path.join(tmp, "ecsgen-build"), ROOT, f"--prefix={prefix}", "--libdir=lib",
                "-Dtests=false")
            run("meson", "install", "-C", os.path.join(tmp, "ecsgen-build"))
            env = dict(os.environ, PATH=os.path.join(prefix, "bin") + os.pathsep + os.environ["PATH"],
                       PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))

            # "Installed": the shell lines as they stand.
            work = self.project(tmp, "sh", {"main.c": MAIN_C})
            run("bash", "-euc", readme_block("**Installed.**", "sh"), cwd=work, env=env)
            self.assertEqual(run(os.path.join(work, "mygame")), "x=2\n")

            # "From CMake" (C) and "From C++" (a C++-only project and its main.cpp).
            cpp = readme_block("**From C++.**", "cpp")
            for name, lists, files in (("cmake", readme_block("**From CMake.**", "cmake"), {"main.c": MAIN_C}),
                                       ("cpp", readme_block("**From C++.**", "cmake"), {"main.cpp": cpp})):
                work = self.project(tmp, name, {"CMakeLists.txt": lists, **files})
                build = os.path.join(work, "build")
                run("cmake", "-G", "Ninja", "-S", work, "-B", build, f"-DCMAKE_PREFIX_PATH={prefix}", env=env)
                run("cmake", "--build", build, env=env)
                self.assertEqual(run(os.path.join(build, "mygame")), "x=2\n", name)
                self.assertIn("no work to do", run("cmake", "--build", build, env=env), name)

    def test_meson_subproject(self):
        with tempfile.TemporaryDirectory(prefix="ecsgen-readme-meson-") as tmp:
            work = self.project(tmp, "meson", {"main.c": MAIN_C,
                                               "meson.build": readme_block("**As a meson subproject.**", "meson")})
            copy_repository(os.path.join(work, "subprojects", "ecsgen"))
            build = os.path.join(work, "build")
            run("meson", "setup", build, cwd=work)
            run("meson", "compile", "-C", build, cwd=work)
            self.assertEqual(run(os.path.join(build, "mygame")), "x=2\n")


if __name__ == "__main__":
    unittest.main()
