#!/usr/bin/env python3
"""The fast-rebuild outputs (docs/systems.md, "A header per system"; README.md, "Rebuilding
fast"): for every schema checked into this repository,
- `--split-c` writes <name>_ecs.c, <name>_ecs_views.c and <name>_ecs_data.c; each compiles
  warning-free on its own, and together they define exactly the external symbols the one
  <name>_ecs.c defines (nothing lost, nothing twice); the header is the same either way;
- `--system-headers` writes one header per system; each compiles alone, before and after
  <name>_ecs.h in one file, and one for a body that uses only its context does not include
  <name>_ecs.h (the world);
- `--list-outputs` with the schema names exactly the files `--out` writes.
A change to one component leaves the header of a system that does not use it unchanged, byte
for byte (which is what keeps its file from recompiling).

    test_split.py [CC [CC ARGS...]]     (default: cc)"""

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ECSGEN = os.path.join(ROOT, "generator", "ecsgen.py")
CC = sys.argv[1:] or ["cc"]
FLAGS = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O0", "-I" + os.path.join(ROOT, "runtime")]


def schemas():
    """Every schema file in the repository that generates (the bad ones are other tests')."""
    found = []
    for pattern in ("schema/*.json", "tests/**/*.json", "examples/*.json", "bench/*.json"):
        for path in sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)):
            if "/bad/" in path or "/fuzz/corpus" in path:
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    document = json.load(f)
            except (OSError, ValueError):
                continue
            if isinstance(document, dict) and "name" in document and "components" in document:
                found.append(path)
    return found


def ecsgen(*args, check=True):
    return subprocess.run([sys.executable, ECSGEN, *args], capture_output=True, text=True, check=check)


def compile_c(source, include, obj=None):
    """(ok, stderr) of compiling source; to obj, or syntax only."""
    out = ["-c", "-o", obj] if obj else ["-fsyntax-only"]
    run = subprocess.run([*CC, *FLAGS, "-I" + include, *out, source], capture_output=True, text=True)
    return run.returncode == 0, run.stderr


def defined_symbols(objects):
    run = subprocess.run(["nm", "-g", "--defined-only", *objects], capture_output=True, text=True, check=True)
    return sorted(line.split()[2] for line in run.stdout.splitlines() if len(line.split()) == 3)


class SplitTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ecsgen-split-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def check_schema(self, index, path):
        """The problems found with one schema (a list of strings; empty: none)."""
        problems = []
        one, parts = os.path.join(self.dir, f"{index}-one"), os.path.join(self.dir, f"{index}-parts")
        ecsgen(path, "--out", one)
        ecsgen(path, "--out", parts, "--split-c", "--system-headers")
        listed = ecsgen(path, "--split-c", "--system-headers", "--list-outputs").stdout.split()
        if sorted(listed) != sorted(os.listdir(parts)):
            problems.append(f"--list-outputs names {listed}, --out wrote {sorted(os.listdir(parts))}")
        name = listed[0][:-len("_ecs.h")]
        with open(os.path.join(one, listed[0]), "rb") as a, open(os.path.join(parts, listed[0]), "rb") as b:
            if a.read() != b.read():
                problems.append("the header differs with --split-c")
        ok, err = compile_c(os.path.join(one, name + "_ecs.c"), one, os.path.join(one, "one.o"))
        if not ok:
            return problems + ["the one .c does not compile:\n" + err]
        objects = []
        for file in sorted(f for f in os.listdir(parts) if f.endswith(".c")):
            objects.append(os.path.join(parts, file[:-2] + ".o"))
            ok, err = compile_c(os.path.join(parts, file), parts, objects[-1])
            if not ok:
                return problems + [f"{file} does not compile:\n{err}"]
        if defined_symbols(objects) != defined_symbols([os.path.join(one, "one.o")]):
            problems.append("the parts do not define the one .c's symbols")
        for header in sorted(f for f in os.listdir(parts) if "_system_" in f):
            with open(os.path.join(parts, header), encoding="utf-8") as f:
                whole_api = f'#include "{name}_ecs.h"' in f.read()
            guard = name.upper() + "_ECS_H"
            tests = {"alone": f'#include "{header}"\n' + ("" if whole_api else
                                                           f'#ifdef {guard}\n#error "holds the world"\n#endif\n'),
                     "before the header": f'#include "{header}"\n#include "{name}_ecs.h"\n',
                     "after the header": f'#include "{name}_ecs.h"\n#include "{header}"\n'}
            for how, text in tests.items():
                source = os.path.join(parts, "use.c")
                with open(source, "w", encoding="utf-8") as f:
                    f.write(text)
                ok, err = compile_c(source, parts)
                if not ok:
                    problems.append(f"{header} {how} does not compile:\n{err}")
        return problems

    def test_every_schema(self):
        paths = schemas()
        self.assertGreater(len(paths), 20)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = list(pool.map(lambda item: (item[1], self.check_schema(*item)), enumerate(paths)))
        with_systems = 0
        for path, problems in results:
            with self.subTest(schema=os.path.relpath(path, ROOT)):
                self.assertEqual(problems, [])
        for index in range(len(paths)):
            with_systems += any("_system_" in f for f in os.listdir(os.path.join(self.dir, f"{index}-parts")))
        self.assertGreaterEqual(with_systems, 3)  # the systems' schemas were among them

    def test_an_edit_leaves_other_systems_headers_alone(self):
        document = {"name": "ed", "components": {
            "position": {"fields": {"x": "f32"}}, "velocity": {"fields": {"x": "f32"}},
            "health": {"fields": {"hp": "i32"}}},
            "systems": {"move": {"all": ["position", "velocity"], "reads": ["velocity"], "writes": ["position"]},
                        "hurt": {"all": ["health"], "writes": ["health"]}}}
        path = os.path.join(self.dir, "ed.json")

        def generate():
            with open(path, "w", encoding="utf-8") as f:
                json.dump(document, f)
            out = os.path.join(self.dir, "out")
            ecsgen(path, "--out", out, "--split-c", "--system-headers")
            texts = {}
            for file in os.listdir(out):
                with open(os.path.join(out, file), encoding="utf-8") as f:
                    texts[file] = f.read()
            return texts

        before = generate()
        document["components"]["health"]["fields"]["armor"] = "u8"
        after = generate()
        self.assertEqual(before["ed_system_move.h"], after["ed_system_move.h"])
        self.assertNotEqual(before["ed_system_hurt.h"], after["ed_system_hurt.h"])
        self.assertIn("armor", after["ed_system_hurt.h"])
        self.assertNotEqual(before["ed_ecs.h"], after["ed_ecs.h"])

    def test_the_flags_need_out(self):
        path = os.path.join(ROOT, "schema", "game.json")
        for flag in ("--split-c", "--system-headers"):
            run = ecsgen(path, flag, "--check", check=False)
            self.assertEqual(run.returncode, 2)
            self.assertIn(f"{flag} writes into the --out directory", run.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
