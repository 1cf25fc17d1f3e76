#!/usr/bin/env python3
"""`ecsgen --inspector`: the page carries the schema's metadata (and its systems' schedule, as
--docs prints it) intact and safely (a doc string
cannot end the script), is the same bytes every run, and a bad schema writes no page."""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ECSGEN = os.path.join(ROOT, "generator", "ecsgen.py")


def ecsgen(*args):
    return subprocess.run([sys.executable, ECSGEN, *args], capture_output=True, text=True)


def metadata(page):
    """The JSON of <script id="schema-meta">, as the page's script reads it."""
    match = re.search(r'<script id="schema-meta" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(match.group(1))


class InspectorPage(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="ecsgen-page-")
        self.out = self.dir.name

    def tearDown(self):
        self.dir.cleanup()

    def write_schema(self, document):
        path = os.path.join(self.out, "s.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(document, f)
        return path

    def test_game_metadata_and_same_bytes_every_run(self):
        pages = []
        for name in ("one.html", "two.html"):
            path = os.path.join(self.out, name)
            result = ecsgen(os.path.join(ROOT, "schema", "game.json"), "--inspector", path)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(path, "rb") as f:
                pages.append(f.read())
        self.assertEqual(pages[0], pages[1])
        meta = metadata(pages[0].decode("utf-8"))
        with open(os.path.join(ROOT, "schema", "game.json"), encoding="utf-8") as f:
            schema = json.load(f)
        self.assertEqual([c["name"] for c in meta["components"]], list(schema["components"]))
        mood = next(c for c in meta["components"] if c["name"] == "mood")
        self.assertEqual(mood["fields"], [{"name": "state", "type": "enum", "kind": "enum", "length": None,
                                           "values": ["idle", "chase", "flee"], "doc": ""}])
        position = next(c for c in meta["components"] if c["name"] == "position")
        self.assertEqual(position["doc"], "World position in metres")
        self.assertEqual([c["name"] for c in meta["components"] if c["kind"] == "singleton"], ["clock", "stats"])
        cargo = next(c for c in meta["components"] if c["name"] == "cargo")
        self.assertEqual([(f["type"], f["length"]) for f in cargo["fields"]], [("u16[8]", 8), ("u8", None)])

    def test_schedule_is_the_docs_stage_table(self):
        """The page's schedule (stages, sync, pairs kept apart and why) is the one --docs prints."""
        page, docs = os.path.join(self.out, "p.html"), os.path.join(self.out, "d.md")
        game = os.path.join(ROOT, "schema", "game.json")
        for args in (("--inspector", page), ("--docs", docs)):
            result = ecsgen(game, *args)
            self.assertEqual(result.returncode, 0, result.stderr)
        with open(page, encoding="utf-8") as f:
            sched = metadata(f.read())["schedule"]
        with open(docs, encoding="utf-8") as f:
            text = f.read()
        rows = re.findall(r"^\| (\d+) \| (.*?) \| (yes|no) \|$", text, re.M)
        self.assertEqual([(str(k), ", ".join(f"`{x}`" for x in st["systems"]), "yes" if st["sync"] else "no")
                          for k, st in enumerate(sched["stages"])], rows)
        self.assertEqual([st["systems"] for st in sched["stages"]], [["fire"], ["move", "expire"], ["collide"]])
        kept = text.split("Kept apart", 1)[1].split("\n\n", 2)[1]  # the table after the heading
        apart = re.findall(r"^\| `(\w+)` \| `(\w+)` \| (.*) \|$", kept, re.M)
        self.assertEqual(len(apart), 5)
        self.assertEqual([(p["first"], p["then"], "; ".join(r["text"] for r in p["because"])) for p in sched["apart"]], apart)
        move = next(p for p in sched["apart"] if (p["first"], p["then"]) == ("fire", "move"))
        self.assertIn({"component": "position", "text": "fire reads position, move writes it"}, move["because"])
        collide = next(x for x in sched["systems"] if x["name"] == "collide")
        self.assertEqual((collide["stage"], collide["writes"], collide["spawns"], collide["destroys"]),
                         (2, ["health", "stats"], True, True))

    def test_no_systems_no_schedule(self):
        path = self.write_schema({"name": "s", "components": {"p": {"fields": {"x": "f32"}}}})
        page = os.path.join(self.out, "s.html")
        result = ecsgen(path, "--inspector", page)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(page, encoding="utf-8") as f:
            self.assertEqual(metadata(f.read())["schedule"], {"stages": [], "systems": [], "apart": []})

    def test_doc_strings_cannot_break_out_of_the_page(self):
        doc = "</script><script>alert(1)</script> <!-- & 'quotes' \"too\" \u2028"
        path = self.write_schema({"name": "t", "doc": doc, "components": {
            "c": {"doc": doc, "fields": {"f": {"type": "i32", "doc": doc}}}}})
        page_path = os.path.join(self.out, "t.html")
        result = ecsgen(path, "--inspector", page_path)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(page_path, encoding="utf-8") as f:
            page = f.read()
        # Two script elements (the metadata, the code): the doc string closed none.
        self.assertEqual(page.count("</script>"), 2)
        self.assertNotIn("<!--", page.split('<script id="schema-meta"')[1])
        meta = metadata(page)
        self.assertEqual((meta["doc"], meta["components"][0]["doc"], meta["components"][0]["fields"][0]["doc"]),
                         (doc, doc, doc))

    def test_the_schema_file_name_cannot_break_out_of_the_page(self):
        """The page's banner comment names the schema file: a name holding `-->` and markup
        must not end the comment (the page renders with HTML autoescape)."""
        name = "x--><svg onload=alert(document.title)>.json"
        path = os.path.join(self.out, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"name": "t", "components": {"c": {"fields": {"f": "i32"}}}}, f)
        page_path = os.path.join(self.out, "t.html")
        result = ecsgen(path, "--inspector", page_path)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(page_path, encoding="utf-8") as f:
            page = f.read()
        head = page.split("<html", 1)[0]
        self.assertEqual(head.count("-->"), 1, head)  # the banner's own end, nothing before it
        self.assertIn("x--&gt;&lt;svg onload=alert(document.title)&gt;.json", head)
        self.assertFalse("<svg onload" in page)
        self.assertEqual(metadata(page)["name"], "t")

    def test_bad_schema_writes_no_page(self):
        path = self.write_schema({"name": "t", "components": {"c": {"fields": {"f": "flaot"}}}})
        page_path = os.path.join(self.out, "t.html")
        result = ecsgen(path, "--inspector", page_path)
        self.assertEqual(result.returncode, 1)
        self.assertIn("components.c.fields.f", result.stderr)
        self.assertFalse(os.path.exists(page_path))
        self.assertEqual(sorted(os.listdir(self.out)), ["s.json"])  # no temporary file left either

    def test_check_refuses_an_inspector_path(self):
        result = ecsgen(os.path.join(ROOT, "schema", "game.json"), "--check", "--inspector", "x.html")
        self.assertEqual(result.returncode, 2)
        self.assertIn("--check writes nothing", result.stderr)


if __name__ == "__main__":
    unittest.main()
