"""Relations in dumps: the scene example (examples/scene.c) saves its world before and after a
re-parent, and `ecsgen-dump diff` reports the move as `3v0: child_of 1v0 -> 2v0`; `ecsgen-dump
check` refuses exactly what the scene's own loader (load_dump_scene) refuses when a relation
points at an entity the document lacks or closes a cycle, with the same message.

    test_dump_relations.py SCENE LOAD_DUMP_SCENE"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(ROOT, "generator", "ecsgen_dump.py")
SCHEMA = os.path.join(ROOT, "examples", "scene.json")
SCENE, LOADER = sys.argv[1], sys.argv[2]
del sys.argv[1:3]


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True)


class RelationDumps(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="ecsgen-rel-")
        result = run(SCENE, cls.dir)
        assert result.returncode == 0, result.stderr
        cls.before = os.path.join(cls.dir, "scene_before.json")
        cls.after = os.path.join(cls.dir, "scene_after.json")

    def test_a_re_parent_is_a_move(self):
        result = run(sys.executable, TOOL, "diff", self.before, self.after)
        self.assertEqual(result.returncode, 1)
        lines = result.stdout.splitlines()
        self.assertEqual(lines[0], "3v0: child_of 1v0 -> 2v0")
        self.assertEqual(lines[1:], ["entities[3v0].global.x: 11 -> 1", "entities[3v0].global.y: 0 -> 15"])

    def test_saves_pass_check(self):
        result = run(sys.executable, TOOL, "check", self.before, self.after, "--schema", SCHEMA)
        self.assertEqual(result.returncode, 0, result.stderr)

    def broken(self, name, change):
        with open(self.before, encoding="utf-8") as f:
            doc = json.load(f)
        change(doc["entities"])
        path = os.path.join(self.dir, name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
        return path

    def assert_same_refusal(self, path, message):
        tool = run(sys.executable, TOOL, "check", path, "--schema", SCHEMA)
        loader = run(LOADER, path)
        self.assertEqual((tool.returncode, loader.returncode), (1, 1), (tool.stderr, loader.stderr))
        self.assertIn(message, loader.stderr)
        self.assertIn(message, tool.stderr)

    def test_cycle_refused_like_the_loader(self):
        def cycle(entities):  # the sun (0v0) under the moon (3v0), its grandchild
            entities[0]["child_of"] = {"target": "3v0"}
        self.assert_same_refusal(self.broken("cycle", cycle),
                                 "entities[3].child_of.target: the relation makes a cycle")

    def test_self_refused_like_the_loader(self):
        def own(entities):  # the camera follows itself
            entities[4]["follows"] = {"target": "4v0"}
        self.assert_same_refusal(self.broken("self", own),
                                 "entities[4].follows.target: the relation makes a cycle")

    def test_missing_target_refused_like_the_loader(self):
        def missing(entities):
            entities[1]["child_of"] = {"target": "9v0"}
        self.assert_same_refusal(self.broken("missing", missing),
                                 "entities[1].child_of.target: the target is not an entity of the document")

    def test_null_target_refused_like_the_loader(self):
        def null(entities):
            entities[4]["follows"] = {"target": None}
        self.assert_same_refusal(self.broken("null", null), "entities[4].follows.target: the target is not")


if __name__ == "__main__":
    unittest.main()
