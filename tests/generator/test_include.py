#!/usr/bin/env python3
"""Schema composition: "include" merges shared files (relative paths, diamonds once), reports
names defined twice with both files and paths, refuses cycles and whole schemas as fragments,
points errors inside a shared file at that file, and lists every included file in the depfile
(so editing a shared file regenerates). Also --docs and the CLI's help."""

import glob
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
ECSGEN = os.path.join(ROOT, "generator", "ecsgen.py")
TEMPLATES = os.path.join(ROOT, "generator", "templates")
sys.path.insert(0, os.path.join(ROOT, "generator"))
from ecsgenlib import outputs  # noqa: E402

POS = {"fields": {"x": "f32", "y": "f32"}}


class IncludeTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ecsgen-include-")
        self.out = os.path.join(self.dir, "out")
        os.mkdir(self.out)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, document):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(document, f, indent=2)
        return path

    def run_ecsgen(self, *args):
        return subprocess.run([sys.executable, ECSGEN, *args], cwd=self.dir, capture_output=True, text=True)

    def test_a_chain_of_includes_deeper_than_32_is_refused(self):
        # 2000 files each including the next: once a RecursionError traceback.
        for k in range(2000):
            self.write(f"f{k}.json", {"include": [f"f{k + 1}.json"]} if k < 1999 else {"components": {"position": POS}})
        self.write("game.json", {"name": "g", "include": ["f0.json"]})
        result = self.run_ecsgen("game.json", "--out", "out")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stderr, "f30.json: include[0]: includes nested more than 32 files deep "
                                        "(include the shared files from fewer levels)\n")
        self.assertEqual(os.listdir(self.out), [])
        # 32 files in the chain (the schema, f0..f30) are fine.
        self.write("f30.json", {"components": {"position": POS}})
        self.assertEqual(self.run_ecsgen("game.json", "--out", "out").returncode, 0)

    def test_components_queries_prefabs_merge_in_order(self):
        self.write("common/base.json", {"components": {"position": POS, "player": {"tag": True}},
                                        "queries": {"players": {"all": ["position", "player"]}}})
        self.write("common/more.json", {"include": ["base.json"], "components": {"hp": {"fields": {"v": "i32"}}},
                                        "prefabs": {"hero": {"position": {}, "player": True}}})
        # base.json is reached twice (directly and through more.json): merged once.
        self.write("game.json", {"name": "g", "include": ["common/more.json", "common/base.json"],
                                 "components": {"bullet": {"tag": True}}})
        result = self.run_ecsgen("game.json", "--out", "out", "--depfile", "out/g.d")
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(self.out, "g_ecs.h"), encoding="utf-8") as f:
            header = f.read()
        order = [header.index(f"g_{c}_pool_t;") for c in ("position", "player", "hp", "bullet")]
        self.assertEqual(order, sorted(order))
        self.assertIn("#define G_EACH_PLAYERS(w, it)", header)
        self.assertIn("ecs_entity_t g_spawn_hero(g_world_t *w);", header)
        with open(os.path.join(self.out, "g.d"), encoding="utf-8") as f:
            deps = f.read().split(": ", 1)[1].split()
        for name in ("game.json", "common/more.json", "common/base.json"):
            self.assertIn(os.path.join(self.dir, name), deps)

    def test_a_name_defined_twice_names_both_files_and_paths(self):
        self.write("shared.json", {"components": {"position": POS}})
        self.write("game.json", {"name": "g", "include": ["shared.json"], "components": {"position": POS}})
        result = self.run_ecsgen("game.json", "--check")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stderr, "game.json: components.position: 'position' is defined twice: here and in "
                                        "shared.json: components.position (rename one, or define it in one file only)\n")

    def test_include_cycles_are_refused(self):
        self.write("a.json", {"include": ["b.json"], "components": {"position": POS}})
        self.write("b.json", {"include": ["a.json"]})
        self.write("game.json", {"name": "g", "include": ["a.json"]})
        result = self.run_ecsgen("game.json", "--check")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stderr, "b.json: include[0]: include cycle: a.json -> b.json -> a.json "
                                        "(a file cannot include itself, even indirectly)\n")
        self.write("self.json", {"name": "g", "include": ["self.json"], "components": {"position": POS}})
        result = self.run_ecsgen("self.json", "--check")
        self.assertIn("self.json: include[0]: include cycle: self.json -> self.json", result.stderr)

    def test_missing_include_and_fragment_keys(self):
        self.write("game.json", {"name": "g", "include": ["nope.json"], "components": {"position": POS}})
        result = self.run_ecsgen("game.json", "--check")
        self.assertEqual(result.stderr, "game.json: include[0]: cannot read 'nope.json': no such file "
                                        "(include paths are relative to game.json)\n")
        self.write("lib/shared.json", {"components": {"position": POS}})
        self.write("game.json", {"name": "g", "include": ["lib/shraed.json"]})
        result = self.run_ecsgen("game.json", "--check")
        self.assertEqual(result.stderr, "game.json: include[0]: cannot read 'lib/shraed.json': no such file "
                                        "(did you mean 'lib/shared.json'?)\n")
        self.write("game.json", {"name": "g", "inclde": ["lib/shared.json"]})
        result = self.run_ecsgen("game.json", "--check")
        self.assertIn("game.json: inclde: unknown key 'inclde' (did you mean 'include'?)", result.stderr)
        self.write("whole.json", {"name": "other", "max_entities": 5, "components": {"position": POS}})
        self.write("game.json", {"name": "g", "include": ["whole.json"]})
        result = self.run_ecsgen("game.json", "--check")
        self.assertEqual(result.returncode, 1)
        self.assertIn("whole.json: max_entities: 'max_entities' is not allowed in an included file", result.stderr)
        self.assertIn("whole.json: name: 'name' is not allowed in an included file", result.stderr)

    def test_errors_inside_a_shared_file_name_that_file(self):
        self.write("shared.json", {"components": {"position": {"fields": {"x": "flaot"}},
                                                  "mover": {"fields": {"v": {"type": "f32", "default": "x"}}}},
                                   "queries": {"q": {"all": ["postion"]}}})
        self.write("game.json", {"name": "g", "include": ["shared.json"]})
        result = self.run_ecsgen("game.json", "--check")
        self.assertEqual(result.returncode, 1)
        self.assertIn("shared.json: components.position.fields.x: unknown type 'flaot' (did you mean 'f32'?)",
                      result.stderr)
        self.write("shared.json", {"components": {"mover": {"fields": {"v": {"type": "f32", "default": "x"}}}},
                                   "queries": {"q": {"all": ["movr"]}}})
        result = self.run_ecsgen("game.json", "--check")
        self.assertIn("shared.json: components.mover.fields.v.default:", result.stderr)
        self.assertIn("shared.json: queries.q.all[0]: unknown component 'movr' (did you mean 'mover'?)", result.stderr)
        self.assertNotIn("game.json", result.stderr)

    def test_a_fragment_alone_is_not_a_schema(self):
        self.write("shared.json", {"components": {"position": POS}})
        result = self.run_ecsgen("shared.json", "--check")
        self.assertEqual(result.returncode, 1)
        self.assertIn("shared.json: missing key 'name'", result.stderr)
        self.write("empty.json", {"name": "g"})
        result = self.run_ecsgen("empty.json", "--check")
        self.assertIn("empty.json: missing key 'components'", result.stderr)


class DocsAndCliTest(unittest.TestCase):
    def test_docs_name_every_part(self):
        with tempfile.TemporaryDirectory() as out:
            docs = os.path.join(out, "server.md")
            result = subprocess.run([sys.executable, ECSGEN, os.path.join(ROOT, "schema", "server.json"),
                                     "--docs", docs], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(os.listdir(out), ["server.md"])  # --docs alone writes only the docs
            with open(docs, encoding="utf-8") as f:
                text = f.read()
        for needle in ("# `server`: schema reference", "| `max` | `i32` | `100` |", "`server_get_health`",
                       "| [`position`](#position) | data | 2 | `shared.json` |", "SERVER_WORLD_BYTES",
                       "### movement (from `shared.json`)", "`SERVER_EACH_REPLICATION(w, it) { ... }`",
                       "ecs_entity_t server_spawn_ship(server_world_t *w)", "| `name` | value = \"ship\" |"):
            self.assertIn(needle, text)
        # Values as the schema spells them: floats shortest (an f32's, not its double's digits).
        schema = {"name": "d", "components": {
            "clock": {"singleton": True, "fields": {"dt": {"type": "f32", "default": 0.016666668}}},
            "mood": {"fields": {"state": {"type": "enum", "values": ["idle", "chase"]}, "items": "u16[3]",
                                "w": {"type": "f64[2]", "default": [0.1, 2]}}}},
            "prefabs": {"calm": {"mood": {"state": "chase"}}}}
        with tempfile.TemporaryDirectory() as out:
            with open(os.path.join(out, "d.json"), "w", encoding="utf-8") as f:
                json.dump(schema, f)
            result = subprocess.run([sys.executable, ECSGEN, "d.json", "--docs", "d.md"], cwd=out,
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(out, "d.md"), encoding="utf-8") as f:
                text = f.read()
        for needle in ("| `dt` | `f32` | `0.016666668` |", "| `state` | `enum { idle, chase }` | `\"idle\"` |",
                       "| `items` | `u16[3]` | `[0, 0, 0]` |", "| `w` | `f64[2]` | `[0.1, 2.0]` |",
                       "| [`clock`](#clock) | singleton | 1 | `d.json` |",
                       "| `mood` | state = \"chase\", items = [0, 0, 0], w = [0.1, 2.0] |"):
            self.assertIn(needle, text)

    def test_hostile_file_names_stay_text_in_the_docs(self):
        """A schema or shared file named like HTML or Markdown shows as its name: each file name
        is one code span (no raw HTML for a renderer, no backtick or pipe breaking out)."""
        name = "x--><svg onload=alert(document.title)>``.json"
        shared = "a|b`c.json"
        with tempfile.TemporaryDirectory() as out:
            with open(os.path.join(out, shared), "w", encoding="utf-8") as f:
                json.dump({"components": {"p": POS}}, f)
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                json.dump({"name": "h", "include": [shared], "components": {"q": POS}}, f)
            result = subprocess.run([sys.executable, ECSGEN, name, "--docs", "h.md"], cwd=out,
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(out, "h.md"), encoding="utf-8") as f:
                text = f.read()
        self.assertIn("Generated by ecsgen from ```x--><svg onload=alert(document.title)>``.json```, which includes "
                      "``a|b`c.json``. Do not edit: change the schema and regenerate "
                      "(```ecsgen x--><svg onload=alert(document.title)>``.json --docs FILE.md```).", text)
        self.assertIn("| [`p`](#p) | data | 2 | ``a\\|b`c.json`` |", text)
        self.assertIn("| [`q`](#q) | data | 2 | ```x--><svg onload=alert(document.title)>``.json``` |", text)

    def test_every_output_is_registered_and_each_flag_writes_its_own(self):
        # A template no other template includes is an output: it must be a row of the registry.
        included = set()
        for path in glob.glob(os.path.join(TEMPLATES, "*.j2")):
            with open(path, encoding="utf-8") as f:
                included |= set(re.findall(r'{%-? *(?:include|import) "([^"]+)"', f.read()))
        roots = sorted(os.path.basename(p) for p in glob.glob(os.path.join(TEMPLATES, "*.j2"))
                       if os.path.basename(p) not in included)
        self.assertEqual(roots, sorted(o.template for o in outputs.OUTPUTS + outputs.EXTRAS))
        result = subprocess.run([sys.executable, ECSGEN, "--list-outputs"], capture_output=True, text=True)
        self.assertEqual((result.returncode, result.stdout.split()), (0, [o.file for o in outputs.in_out_dir()]))
        schema = os.path.join(ROOT, "schema", "server.json")
        with tempfile.TemporaryDirectory() as out:
            result = subprocess.run([sys.executable, ECSGEN, schema, "--out", out], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(sorted(os.listdir(out)), sorted(outputs.out_files("server")))
        for output in outputs.opt_in():
            with self.subTest(output.flag), tempfile.TemporaryDirectory() as out:
                path = os.path.join(out, "server.out")
                result = subprocess.run([sys.executable, ECSGEN, schema, output.flag, path],
                                        capture_output=True, text=True)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertEqual(os.listdir(out), ["server.out"])  # its flag alone writes only it
                self.assertGreater(os.path.getsize(path), 1000)

    def test_help_explains_every_option_with_an_example(self):
        result = subprocess.run([sys.executable, ECSGEN, "--help"], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0)
        for option in ("--out", "--check", "--depfile", "--list-outputs", "--version",
                       *(o.flag for o in outputs.opt_in())):
            self.assertIn(option, result.stdout)
        for example in ("--out build/", "--check", "--depfile build/game.d", *(o.example for o in outputs.opt_in())):
            self.assertIn(example, result.stdout)
        result = subprocess.run([sys.executable, ECSGEN, "--version"], capture_output=True, text=True)
        self.assertRegex(result.stdout, r"^ecsgen \d+\.\d+\.\d+\n$")


if __name__ == "__main__":
    unittest.main()
