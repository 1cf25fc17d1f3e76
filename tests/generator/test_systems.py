#!/usr/bin/env python3
"""Systems in the generator: the schedule computed for known schemas (stages, sync points, the
reasons two systems are kept apart), systems merged from included files (and their errors
pointing at the file that defines them), --docs showing the schedule, and no systems code at
all for a schema without systems."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ECSGEN = os.path.join(ROOT, "generator", "ecsgen.py")
sys.path.insert(0, os.path.join(ROOT, "generator"))
from ecsgenlib import pipeline  # noqa: E402

POS = {"fields": {"x": "f32", "y": "f32"}}
COMPONENTS = {"position": POS, "velocity": POS, "health": {"fields": {"hp": "i32"}},
              "sprite": {"fields": {"id": "u16"}}, "dead": {"tag": True},
              "clock": {"singleton": True, "fields": {"now": "f64"}}}


class SystemsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ecsgen-systems-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, document):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(document, f, indent=2)
        return path

    def schedule(self, systems, queries=None):
        """[[names of stage 0], ...] and {(x, y): reasons} for a schema with these systems."""
        path = self.write("s.json", {"name": "s", "components": COMPONENTS, "queries": queries or {},
                                     "systems": systems})
        schema, _ = pipeline.build(path)
        stages = [[x.name for x in stage] for stage in schema.stages]
        apart = {(x.name, y.name): [text for _, text in why] for x, y, why in schema.apart}
        return stages, apart, schema

    def test_readers_share_a_stage_and_a_writer_waits(self):
        stages, apart, _ = self.schedule({
            "draw": {"all": ["position", "sprite"], "reads": ["position", "sprite"]},
            "sound": {"all": ["position"], "reads": ["position", "clock"]},
            "move": {"all": ["position", "velocity"], "reads": ["velocity"], "writes": ["position"]},
            "hurt": {"all": ["health"], "writes": ["health"]},
            "time": {"all": ["position"], "writes": ["clock"]},
        })
        # move writes what draw and sound read: after them (declaration order); hurt touches
        # nothing of theirs: stage 0; time writes the clock sound reads.
        self.assertEqual(stages, [["draw", "sound", "hurt"], ["move", "time"]])
        self.assertEqual(apart[("draw", "move")], ["draw reads position, move writes it"])
        self.assertEqual(apart[("sound", "time")], ["sound reads clock, time writes it"])
        self.assertNotIn(("draw", "sound"), apart)

    def test_after_overrides_declaration_order(self):
        stages, apart, schema = self.schedule({
            "draw": {"all": ["position"], "reads": ["position"], "after": ["move"]},
            "move": {"all": ["position", "velocity"], "reads": ["velocity"], "writes": ["position"]},
            "idle": {"all": ["sprite"], "reads": ["sprite"], "after": ["move"]},
        })
        self.assertEqual(stages, [["move"], ["draw", "idle"]])
        self.assertEqual(apart[("move", "idle")], ["idle runs after move"])
        self.assertEqual([x.index for x in schema.systems], [1, 0, 2])

    def test_structural_effects_and_sync_points(self):
        stages, apart, schema = self.schedule({
            "mark": {"all": ["health"], "reads": ["health"], "adds": ["dead"]},
            "reap": {"all": ["dead"], "destroys": True},
            "draw": {"all": ["sprite"], "reads": ["sprite"]},
            "spawner": {"all": ["sprite"], "spawns": True},
            "late": {"all": ["velocity"], "reads": ["velocity"]},
        })
        # reap iterates what mark adds: a later stage; reap destroys, so every later system
        # that uses components (draw) waits for its sync point; a spawning system runs alone.
        self.assertEqual(stages, [["mark"], ["reap"], ["draw"], ["spawner"], ["late"]])
        self.assertEqual(apart[("mark", "reap")], ["mark adds dead, reap uses it"])
        self.assertIn("reap destroys entities, late uses their components", apart[("reap", "late")])
        self.assertIn("spawner spawns (a spawning system runs alone)", apart[("draw", "spawner")])
        self.assertEqual([bool(s) for s in (x.structural for x in schema.systems)], [True, True, False, True, False])

    def test_later_change_may_share_but_not_precede(self):
        # strip removes sprite, which draw (declared first) reads: strip may share draw's stage
        # (its removal waits for the sync point), and writing health is no conflict with
        # iterating it: stage 0. hurt2 writes what hurt writes: stage 1.
        stages, apart, _ = self.schedule({
            "hurt": {"all": ["health"], "writes": ["health"]},
            "hurt2": {"all": ["health"], "writes": ["health"]},
            "draw": {"all": ["sprite"], "reads": ["sprite"]},
            "strip": {"all": ["health"], "removes": ["sprite"]},
            "unstrip": {"all": ["velocity"], "adds": ["sprite"]},
        })
        self.assertEqual(apart[("hurt", "hurt2")], ["both write health"])
        self.assertNotIn(("draw", "strip"), apart)
        # unstrip adds what strip removes: it shares strip's stage, after it, so that the
        # changes apply in declaration order (strip's, then unstrip's).
        self.assertEqual(stages, [["hurt", "draw", "strip", "unstrip"], ["hurt2"]])

    def test_the_test_schemas_schedule(self):
        schema, _ = pipeline.build(os.path.join(ROOT, "tests", "systems", "systems.json"))
        self.assertEqual([[x.name for x in stage] for stage in schema.stages],
                         [["tick"], ["move", "age"], ["ignite"], ["burn"], ["fire"], ["tally", "chase", "thaw"],
                          ["heal", "glow"]])
        split = {x.name: x.split for x in schema.systems}
        self.assertEqual(split, {"tick": False, "move": True, "age": True, "ignite": True, "burn": True, "fire": False,
                                 "tally": False, "heal": True, "chase": True, "thaw": True, "glow": True})
        schema, _ = pipeline.build(os.path.join(ROOT, "tests", "systems", "depth_first.json"))
        self.assertEqual([[x.name for x in stage] for stage in schema.stages],
                         [["drift", "reparent", "decay"], ["flip", "propagate"]])
        self.assertEqual({x.name: x.split for x in schema.systems},
                         {"drift": True, "reparent": True, "decay": True, "flip": True, "propagate": False})

    def test_depth_first_reads_its_relation(self):
        # propagate walks child_of: what adds, removes or destroys it before propagate runs in
        # an earlier stage; a reader of child_of shares its stage, and so may a later adder
        # (its change waits for the sync point). It is never split.
        components = dict(COMPONENTS, child_of={"relation": {"on_target_destroy": "cascade"}})
        propagate = {"depth_first": "child_of", "all": ["position", "velocity"], "reads": ["velocity"],
                     "writes": ["position"]}
        path = self.write("d.json", {"name": "d", "components": components, "systems": {
            "look": {"all": ["sprite"], "reads": ["child_of"]},
            "adopt": {"all": ["sprite"], "adds": ["child_of"]},
            "reap": {"all": ["health"], "destroys": True},
            "propagate": propagate,
            "late": {"all": ["health"], "adds": ["child_of"]}}})
        schema, _ = pipeline.build(path)
        stages = [[x.name for x in stage] for stage in schema.stages]
        apart = {(x.name, y.name): [text for _, text in why] for x, y, why in schema.apart}
        self.assertEqual(stages, [["look", "adopt", "reap"], ["propagate", "late"]])
        self.assertEqual(apart[("adopt", "propagate")], ["adopt adds child_of, propagate walks it depth first"])
        self.assertEqual(apart[("reap", "propagate")], ["reap destroys entities, propagate uses their components"])
        self.assertNotIn(("look", "propagate"), apart)
        self.assertNotIn(("propagate", "late"), apart)
        x = schema.systems[3]
        self.assertFalse(x.split)
        self.assertIn("depth first over child_of", x.access_text)
        self.assertFalse(x.query.owned)  # its rows are looked up: its inline query packs nothing
        # writing the relation's values conflicts both ways
        path = self.write("d.json", {"name": "d", "components": components, "systems": {
            "mover": {"all": ["sprite"], "writes": ["child_of"]},
            "propagate": propagate,
            "unmover": {"all": ["health"], "writes": ["child_of"]}}})
        schema, _ = pipeline.build(path)
        apart = {(x.name, y.name): [text for _, text in why] for x, y, why in schema.apart}
        self.assertEqual([[x.name for x in stage] for stage in schema.stages], [["mover"], ["propagate"], ["unmover"]])
        self.assertEqual(apart[("mover", "propagate")], ["mover writes child_of, propagate walks it depth first"])
        self.assertEqual(apart[("propagate", "unmover")], ["propagate walks child_of depth first, unmover writes it"])
        # the generated context, FIELD's row lookup, the walk, and --docs
        out = os.path.join(self.dir, "out")
        result = subprocess.run([sys.executable, ECSGEN, path, "--out", out, "--docs", os.path.join(out, "d.md")],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(out, "d_ecs.h"), encoding="utf-8") as f:
            header = f.read()
        self.assertIn("    const ecs_entity_t *target; /* target[i]: match i's child_of target (ECS_NULL: a root) */\n",
                      header)
        self.assertIn("#define D__PROPAGATE_ROW_position(s, i) ((s)->row__.position[i])\n", header)
        with open(os.path.join(out, "d_ecs.c"), encoding="utf-8") as f:
            self.assertIn("    D_EACH_CHILD_OF_DEPTH_FIRST(w, it) {\n", f.read())
        with open(os.path.join(out, "d.md"), encoding="utf-8") as f:
            docs = f.read()
        self.assertIn("| `mover` | `propagate` | mover writes child_of, propagate walks it depth first |", docs)
        self.assertIn("one call per step, the matches in `child_of`'s depth-first order", docs)

    def test_included_systems_and_their_errors(self):
        self.write("shared.json", {"components": {"position": POS, "velocity": POS},
                                   "systems": {"move": {"all": ["position", "velocity"], "reads": ["velocity"],
                                                        "writes": ["position"]}}})
        self.write("game.json", {"name": "g", "include": ["shared.json"],
                                 "systems": {"draw": {"all": ["position"], "reads": ["position"], "after": ["move"]}}})
        out = os.path.join(self.dir, "out")
        result = subprocess.run([sys.executable, ECSGEN, "game.json", "--out", out, "--docs", "g.md"], cwd=self.dir,
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(out, "g_ecs.h"), encoding="utf-8") as f:
            header = f.read()
        self.assertIn("void g_system_move(g_move_t *ECS_RESTRICT s);", header)
        self.assertIn("void g_system_draw(g_draw_t *ECS_RESTRICT s);", header)
        self.assertIn(" *   stage 0: move\n *   stage 1: draw\n", header)
        with open(os.path.join(self.dir, "g.md"), encoding="utf-8") as f:
            docs = f.read()
        self.assertIn("### move (from `shared.json`)", docs)
        self.assertIn("| `move` | `draw` | move writes position, draw reads it; draw runs after move |", docs)
        # an error in the shared file's system names that file
        self.write("shared.json", {"components": {"position": POS},
                                   "systems": {"move": {"all": ["position"], "writes": ["positon"]}}})
        self.write("game.json", {"name": "g", "include": ["shared.json"]})
        result = subprocess.run([sys.executable, ECSGEN, "game.json", "--out", out], cwd=self.dir,
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stderr, "shared.json: systems.move.writes[0]: unknown component 'positon' "
                                        "(did you mean 'position'?)\n")

    def test_same_schedule_whatever_the_hash_seed(self):
        schema = os.path.join(ROOT, "tests", "systems", "systems.json")
        texts = []
        for seed in ("1", "2"):
            out = os.path.join(self.dir, "seed" + seed)
            env = dict(os.environ, PYTHONHASHSEED=seed)
            result = subprocess.run([sys.executable, ECSGEN, schema, "--out", out, "--docs", os.path.join(out, "s.md")],
                                    capture_output=True, text=True, env=env)
            self.assertEqual(result.returncode, 0, result.stderr)
            texts.append([open(os.path.join(out, f), encoding="utf-8").read() for f in sorted(os.listdir(out))])
        self.assertEqual(texts[0], texts[1])

    def test_no_systems_no_step(self):
        path = self.write("n.json", {"name": "n", "components": {"position": POS}})
        out = os.path.join(self.dir, "out")
        result = subprocess.run([sys.executable, ECSGEN, path, "--out", out], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        for name in ("n_ecs.h", "n_ecs.c"):
            with open(os.path.join(out, name), encoding="utf-8") as f:
                text = f.read()
            self.assertNotIn("pthread", text)
            self.assertNotIn("n_step", text)
            self.assertNotIn("_Thread_local", text)


if __name__ == "__main__":
    unittest.main()
