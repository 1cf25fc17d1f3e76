#!/usr/bin/env python3
"""`meson install` into a temporary prefix, then a consumer built with nothing but the
installed `ecsgen` command, a C compiler and `pkg-config --cflags --libs ecsgen` (no meson),
once against the shared library (run without LD_LIBRARY_PATH) and once statically; a
project ecs.h that must not shadow the runtime's; the shared library's soname (from the
version: runtime/meson.build); the generator run from a moved prefix and with the
configure-time Python gone."""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CONSUMER = os.path.join(os.path.dirname(HERE), "consumer")
sys.path.insert(0, CONSUMER)
from projects import install, run  # noqa: E402


def soversion(version):
    """runtime/meson.build's rule: major.minor before 1.0 (a 0.x minor release may break the
    ABI), the major from 1.0 on."""
    major, minor = version.split(".")[:2]
    return f"{major}.{minor}" if major == "0" else major


class InstallTest(unittest.TestCase):
    def test_install_then_build_a_consumer_with_pkg_config(self):
        with tempfile.TemporaryDirectory(prefix="ecsgen-install-") as tmp:
            prefix = os.path.join(tmp, "prefix")
            build = os.path.join(tmp, "build")
            install(prefix, build)
            for path in ("bin/ecsgen", "bin/ecsgen-dump", "lib/libecsgen.a", "lib/libecsgen.so", "lib/pkgconfig/ecsgen.pc",
                         "include/ecsgen/ecs.h", "include/ecsgen/ecs_version.h", "share/ecsgen/ecs_version.h", "share/ecsgen/ecsgen.py", "share/ecsgen/ecsgen.schema.json",
                         "share/ecsgen/templates/ecs.h.j2", "share/ecsgen/ecsgenlib/model.py",
                         "share/ecsgen/ecsgen_dump.py", "share/ecsgen/dumplib/check.py"):
                self.assertTrue(os.path.exists(os.path.join(prefix, path)), path)

            work = os.path.join(tmp, "consumer")
            shutil.copytree(CONSUMER, work, ignore=shutil.ignore_patterns("test_*.py", "projects.py", "meson.build", "__pycache__"))
            env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
            ecsgen = os.path.join(prefix, "bin", "ecsgen")
            self.assertRegex(run(ecsgen, "--version", env=env), r"^ecsgen \d+\.\d+\.\d+$")
            # One version, in runtime/ecs_version.h: the installed generator's --version reads it
            # (from its installed copy), the pkg-config file and the shared library's soname
            # follow it, and a program records that name.
            version = run(ecsgen, "--version", env=env).split()[1]
            with open(os.path.join(ROOT, "runtime", "ecs_version.h")) as f:
                written = re.findall(r"^#define ECS_VERSION_(?:MAJOR|MINOR|PATCH) (\d+)$", f.read(), re.M)
            self.assertEqual(".".join(written), version)
            self.assertEqual(run("pkg-config", "--modversion", "ecsgen", env=env).strip(), version)
            soname = f"libecsgen.so.{soversion(version)}"
            self.assertTrue(os.path.exists(os.path.join(prefix, "lib", soname)), soname)
            dynamic = run("readelf", "-d", os.path.join(prefix, "lib", "libecsgen.so"))
            self.assertEqual(re.findall(r"\(SONAME\)\s+Library soname: \[(.*)\]", dynamic), [soname])
            os.mkdir(os.path.join(work, "gen"))
            run(ecsgen, "schema/mygame.json", "--out", "gen", cwd=work, env=env)
            # The installed dump tool checks a dump against the consumer's schema.
            with open(os.path.join(work, "world.json"), "w") as f:
                f.write('{"schema": "mygame", "version": 1, "entities": [{"id": "0v0", "health": {"current": 3}}]}')
            self.assertEqual(run(os.path.join(prefix, "bin", "ecsgen-dump"), "check", "world.json", "--schema",
                                 "schema/mygame.json", cwd=work, env=env),
                             "world.json: loads: schema mygame version 1, 1 entities\n")
            cc = shlex.split(os.environ.get("CC", "cc"))
            flags = shlex.split(run("pkg-config", "--cflags", "--libs", "ecsgen", env=env))
            self.assertIn(f"-I{prefix}/include", flags)
            self.assertIn(f"-I{prefix}/include/ecsgen", flags)
            # The project's own ecs.h, first on the include path: generated code must not pick it.
            with open(os.path.join(work, "ecs.h"), "w") as f:
                f.write('#error "the project\'s own ecs.h was included"\n')
            run(*cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-I.", "-Igen", "main.c", "gen/mygame_ecs.c",
                "-o", "mygame", *flags, cwd=work, env=env)
            self.assertIn(f"{soname} => {prefix}/lib/{soname}", run("ldd", os.path.join(work, "mygame"), env=env))
            expected = "hero alive=1 hp=7 x=3 moved=1\narmor=none\n"
            self.assertEqual(run(os.path.join(work, "mygame"), env=env), expected)
            # The old include spelling keeps working for hand-written code.
            with open(os.path.join(work, "old.c"), "w") as f:
                f.write('#include "ecs.h"\nint main(void) { return sizeof ECS_VERSION_STRING > 1 && ECS_RUNTIME_API == 8 ? 0 : 1; }\n')
            os.remove(os.path.join(work, "ecs.h"))
            run(*cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "old.c", "-o", "old", *flags, cwd=work, env=env)
            run(os.path.join(work, "old"), env=env)
            static = shlex.split(run("pkg-config", "--cflags", "--libs", "--static", "ecsgen", env=env))
            run(*cc, "-std=c11", "-Igen", "main.c", "gen/mygame_ecs.c", "-o", "mygame-static",
                os.path.join(prefix, "lib", "libecsgen.a"), *[f for f in static if f != "-lecsgen"], cwd=work, env=env)
            self.assertEqual(run(os.path.join(work, "mygame-static"), env=env), expected)

            # A moved prefix, and the Python meson found at configure time gone: bin/ecsgen finds
            # share/ecsgen/ next to itself and falls back to a python3 that has the modules.
            moved = os.path.join(tmp, "moved")
            shutil.move(prefix, moved)
            script = os.path.join(moved, "bin", "ecsgen")
            with open(script) as f:
                text = f.read()
            with open(script, "w") as f:
                f.write(text.replace("'/", "'/nonexistent/", 2))
            with open(script) as f:
                self.assertNotIn(f"'{prefix}", f.read())
            out = os.path.join(tmp, "moved-gen")
            os.mkdir(out)
            run(script, os.path.join(work, "schema", "mygame.json"), "--out", out, env=env)
            self.assertTrue(os.path.exists(os.path.join(out, "mygame_ecs.h")))
            self.assertRegex(run(os.path.join(moved, "bin", "ecsgen-dump"), "--version", env=env),
                             r"^ecsgen-dump \d+\.\d+\.\d+$")
            # Through symbolic links (~/bin/ecsgen -> the moved prefix's, relative, then a link
            # to that link): the launcher looks next to the file, not next to the link.
            links = os.path.join(tmp, "links")
            os.makedirs(os.path.join(links, "deeper"))
            os.symlink(os.path.relpath(script, links), os.path.join(links, "ecsgen"))
            os.symlink(os.path.join(links, "ecsgen"), os.path.join(links, "deeper", "ecsgen"))
            for link in (os.path.join(links, "ecsgen"), os.path.join(links, "deeper", "ecsgen")):
                linked_out = os.path.join(tmp, "linked-gen-" + os.path.basename(os.path.dirname(link)))
                run(link, os.path.join(work, "schema", "mygame.json"), "--out", linked_out, env=env)
                self.assertTrue(os.path.exists(os.path.join(linked_out, "mygame_ecs.h")), link)
            bad_env = dict(env, ECSGEN_PYTHON="/nonexistent/python3")
            result = subprocess.run([script, "--version"], env=bad_env, capture_output=True, text=True)
            self.assertNotEqual(result.returncode, 0)


if __name__ == "__main__":
    unittest.main()
