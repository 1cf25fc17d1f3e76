#!/usr/bin/env python3
"""ecsgen-dump (generator/ecsgen_dump.py) on dumps saved by real programs (the demo; the
evolution test's version-1 program) and on handwritten ones: diff's exact lines and exit
status, stats against examples/inspect's counts, and check against the generated loader
itself (load_dump, built for the `ak` and `evo` schemas): for every document both give the
same verdict and the same message or report.

    test_dump.py DEMO INSPECT LOAD_DUMP_AK LOAD_DUMP_EVO V1_JSON V1_NARROWING_JSON
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(ROOT, "generator", "ecsgen_dump.py")
GAME = os.path.join(ROOT, "schema", "game.json")
AK = os.path.join(ROOT, "tests", "json", "allkinds.json")
EVO = os.path.join(ROOT, "tests", "json", "evolve.json")
DEMO = INSPECT = LOAD_AK = LOAD_EVO = V1 = V1_NARROWING = None

# Documents of the ak schema (tests/json/allkinds.json, version 3) that its loader refuses,
# one per rule, with the message (after "FILE: ").
DOC = '{"schema": "ak", "version": 3, "entities": [%s]}'
REFUSED = [
    ('{"schema": "ak",\n  "version": 3,,}', None),  # malformed: the column may differ from cJSON's
    ("[]", "(document): expected an object, got an array"),
    ('{"version": 1}', "schema: missing (a saved ak world names its schema)"),
    ('{"schema": "game", "version": 1}', 'schema: this document is for schema "game", not ak'),
    ('{"schema": "ak"}', "version: missing (a saved world states its schema version)"),
    ('{"schema": "ak", "version": 4}', "version: document version 4 is newer than schema ak's version 3 "
                                       "(load it with a newer program)"),
    ('{"schema": "ak", "version": 0}', "version: versions start at 1, got 0"),
    ('{"schema": "ak", "version": "3"}', 'version: expected integer in [0, 4294967295], got "3"'),
    ('{"schema": "ak", "version": 3, "extra": 1}', "extra: unknown top-level key"),
    ('{"schema": "ak", "version": 3, "entities": {}}', "entities: expected an array, got an object"),
    ('{"schema": "ak", "version": 3, "entities": null}', "entities: expected an array, got null"),
    ('{"schema": "ak", "version": 3, "singletons": null}', "singletons: expected an object, got null"),
    ('{"schema": "ak", "version": 3, "singletons": {"clock": {}}}', "singletons.clock: unknown singleton"),
    ('{"schema": "ak", "version": 3, "singletons": {"config": {"seed": -1}}}',
     "singletons.config.seed: expected integer in [0, 18446744073709551615], got -1"),
    (DOC % "7", "entities[0]: expected an object, got 7"),
    (DOC % '{"ints": {}}', 'entities[0].id: missing (every entity has an id, e.g. "5v0")'),
    (DOC % '{"id": null}', 'entities[0].id: expected an entity id like "5v0", got null'),
    (DOC % '{"id": "4294967295v0"}', 'entities[0].id: expected an entity id like "5v0" or null, got "4294967295v0"'),
    (DOC % '{"id": "0v0", "bogus": {}}', "entities[0].bogus: unknown component"),
    (DOC % '{"id": "0v0", "config": {}}', "entities[0].config: unknown component"),
    (DOC % '{"id": "0v0", "ints": {"z": 1}}', "entities[0].ints.z: unknown field of ints"),
    (DOC % '{"id": "0v0", "ints": 3}', "entities[0].ints: expected an object, got 3"),
    (DOC % '{"id": "0v0", "ints": {"a": 1, "a": 2}}', "entities[0].ints.a: duplicate key"),
    (DOC % '{"id": "0v0", "ints": {"a": 128}}', "entities[0].ints.a: expected integer in [-128, 127], got 128"),
    (DOC % '{"id": "0v0", "ints": {"e": -1}}', "entities[0].ints.e: expected integer in [0, 255], got -1"),
    (DOC % '{"id": "0v0", "ints": {"c": 1.5}}',
     "entities[0].ints.c: expected integer in [-2147483648, 2147483647], got 1.5"),
    (DOC % '{"id": "0v0", "ints": {"c": "12"}}',
     'entities[0].ints.c: expected integer in [-2147483648, 2147483647], got "12"'),
    (DOC % '{"id": "0v0", "ints": {"h": 9007199254740993}}',
     "entities[0].ints.h: expected integer in [0, 18446744073709551615], got 9007199254740992 "
     '(write integers from 2^53 on as strings, e.g. "9007199254740993")'),
    (DOC % '{"id": "0v0", "ints": {"h": "18446744073709551616"}}',
     'entities[0].ints.h: expected integer in [0, 18446744073709551615], got "18446744073709551616"'),
    (DOC % '{"id": "0v0", "reals": {"s": "abc"}}', 'entities[0].reals.s: expected number, got "abc"'),
    (DOC % '{"id": "0v0", "reals": {"s": 1e39}}',
     "entities[0].reals.s: expected number in f32 range (about ±3.4e38), got 1e+39"),
    (DOC % '{"id": "0v0", "flags": {"on": 1}}', "entities[0].flags.on: expected true or false, got 1"),
    (DOC % '{"id": "0v0", "flags": {"mask": [true]}}', "entities[0].flags.mask: expected an array of 3, got an array of 1"),
    (DOC % '{"id": "0v0", "flags": {"mask": true}}', "entities[0].flags.mask: expected an array of 3, got true"),
    (DOC % '{"id": "0v0", "arrays": {"i": [1, "x", 3]}}',
     'entities[0].arrays.i[1]: expected integer in [-9223372036854775808, 9223372036854775807], got "x"'),
    (DOC % '{"id": "0v0", "text": {"tiny": 7}}', "entities[0].text.tiny: expected string, got 7"),
    (DOC % '{"id": "0v0", "text": {"tiny": "abcd"}}',
     "entities[0].text.tiny: string of 4 bytes does not fit char[4] (at most 3 bytes)"),
    (DOC % '{"id": "0v0", "text": {"tiny": "\\u00e9\\u00e9"}}',
     "entities[0].text.tiny: string of 4 bytes does not fit char[4] (at most 3 bytes)"),
    (DOC % '{"id": "0v0", "text": {"tiny": "a\\u0000b"}}',
     "line 1, column 78: a string holds \\u0000 (C strings end at NUL; the rest would be lost)"),
    (DOC % '{"id": "0v0", "link": {"to": 5}}', 'entities[0].link.to: expected an entity id like "5v0" or null, got 5'),
    (DOC % '{"id": "0v0", "link": {"to": "2v4294967295"}}',
     "entities[0].link.to: 2v4294967295 is the last generation of slot 2 and no entity of the document has it: "
     "loading it would retire the slot for good"),
    (DOC % '{"id": "0v0", "link": {"to": "5x0"}}',
     'entities[0].link.to: expected an entity id like "5v0" or null, got "5x0"'),
    (DOC % '{"id": "0v0", "state": {"mode": "medium"}}',
     'entities[0].state.mode: expected one of off, slow, fast, got "medium"'),
    (DOC % '{"id": "0v0", "state": {"mode": 1}}', "entities[0].state.mode: expected one of off, slow, fast, got 1"),
    (DOC % '{"id": "0v0", "marked": 1}', "entities[0].marked: a tag's value is true, got 1"),
    (DOC % '{"id": "0v0", "marked": true, "marked": true}', "entities[0].marked: duplicate key"),
    (DOC % '{"id": "0v0"}, {"id": "1v0"}, {"id": "0v0"}',
     "entities[2].id: duplicate id 0v0: slot 0 is already entities[0] (0v0)"),
    (DOC % '{"id": "1v2"}, {"id": "0v0", "link": {"many": [null, "1v5"]}}',
     "entities[0].id: the document also names 1v5, a later generation of live 1v2's slot"),
    (DOC % '{"id": "2000000v0"}',
     "entities[0].id: slot 2000000 is beyond the 1048576 slots this load restores (a document of 1 entities; "
     "the load option max_slots raises the limit)"),
    # A lone surrogate escape: cJSON refuses it (Python's json took it: "loads").
    (DOC % '{"id": "0v0", "text": {"tiny": "\\ud800"}}', "line 1, column 77: malformed JSON"),
    (DOC % '{"id": "0v0", "state": {"mode": -1e400}}', "entities[0].state.mode: expected one of off, slow, fast, got -inf"),
    # The RFC 8259 check's own messages, where cJSON took the text.
    ('{"schema": "ak", "version": 03}', "line 1, column 29: malformed JSON: a number with a leading zero (JSON has no octal)"),
    ('{"schema": "ak", "version": 3, "entities": [{"id": "0v0\x01"}]}',
     "line 1, column 56: malformed JSON: a raw control character (U+0001) in a string (JSON writes it as \\u0001)"),
    ('{"schema": "ak", "version": 3}\x0b', "line 1, column 31: malformed JSON: text after the document (only spaces, "
                                          "tabs and line breaks may follow)"),
    # Keys and values escaped as the loader escapes them: no terminal escape gets through.
    (DOC % '{"id": "0v0", "\\u001b]0;pwned\\u0007": 1}', "entities[0].\\u001b]0;pwned\\u0007: unknown component"),
    (DOC % '{"id": "0v0", "text": {"tiny": "\\u009b31m\\u001b"}}',
     "entities[0].text.tiny: string of 6 bytes does not fit char[4] (at most 3 bytes)"),
    (DOC % '{"id": "0v0", "ints": {"c": "\\u001b[2J\\u00e9"}}',
     'entities[0].ints.c: expected integer in [-2147483648, 2147483647], got "\\u001b[2J\u00e9"'),
]

# Documents the ak loader takes: defaults, enum values outside the enum (as save writes them),
# 64-bit strings, NaN, a stale reference, an older version.
ACCEPTED = [
    DOC % '{"id": "7v2", "state": {}, "text": {"tiny": "ab"}, "reals": {"s": 1}}',
    DOC % '{"id": "0v0", "state": {"mode": 7}, "ints": {"h": "18446744073709551615", "d": "-9223372036854775808"}}',
    DOC % '{"id": "0v0", "reals": {"s": "NaN", "d": "-Infinity"}, "link": {"to": "9v4", "many": ["0v0", null]}}',
    '{"schema": "ak", "version": 1, "singletons": {"counter": {"n": 1}}, "entities": []}',
]


def run(*command):
    return subprocess.run(command, capture_output=True, text=True)


def tool(*args):
    return run(sys.executable, TOOL, *args)


class DumpTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ecsgen-dump-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text if isinstance(text, str) else json.dumps(text, indent=1))
        return path

    def demo_dump(self, name="demo.json", seconds="1"):
        path = os.path.join(self.dir, name)
        result = run(DEMO, "--seconds", seconds, "--seed", "3", "--save", path)
        self.assertEqual(result.returncode, 0, result.stderr)
        return path

    # ---- diff ----------------------------------------------------------------------------

    def test_diff_of_handwritten_dumps(self):
        a = self.write("a.json", '{"schema": "ak", "version": 3, "singletons": {"counter": {"n": 42}}, "entities": ['
                                 '{"id": "0v0", "ints": {"c": 5}, "marked": true}, '
                                 '{"id": "1v0", "link": {"to": "0v0", "many": [null, null]}}, '
                                 '{"id": "2v0", "reals": {"s": 1.5, "d": 2.5}, "flags": {"mask": [true, false]}}]}')
        b = self.write("b.json", '{"schema": "ak", "version": 3, "singletons": {"counter": {"n": 43}}, "entities": ['
                                 '{"id": "1v0", "link": {"to": null, "many": [null, "2v0"]}}, '
                                 '{"id": "2v0", "reals": {"s": 2, "d": 2.5e0}, "hidden": true, "flags": {"mask": [true]}}, '
                                 '{"id": "0v1", "ints": {"c": 5}}]}')
        result = tool("diff", a, b)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(result.stdout.splitlines(), [
            "singletons.counter.n: 42 -> 43",
            'entities[0v0]: removed {"ints": {"c": 5}, "marked": true}',
            'entities[0v1]: added {"ints": {"c": 5}}',
            'entities[1v0].link.to: "0v0" -> null',
            'entities[1v0].link.many[1]: null -> "2v0"',
            "entities[2v0].reals.s: 1.5 -> 2",
            "entities[2v0].flags.mask: [true, false] -> [true]",
            "entities[2v0].hidden: added true",
        ])
        self.assertEqual(tool("diff", a, a).returncode, 0)
        # Entities are matched by id, not by place: b's list in another order is the same world.
        c = self.write("c.json", '{"schema": "ak", "version": 3, "singletons": {"counter": {"n": 43}}, "entities": ['
                                 '{"id": "0v1", "ints": {"c": 5}}, {"id": "2v0", "hidden": true, '
                                 '"flags": {"mask": [true]}, "reals": {"d": 2.5, "s": 2.0}}, '
                                 '{"id": "1v0", "link": {"to": null, "many": [null, "2v0"]}}]}')
        self.assertEqual((tool("diff", b, c).returncode, tool("diff", b, c).stdout), (0, ""))
        zero = self.write("zero.json", '{"entities": [{"id": "0v0", "reals": {"s": 0}}]}')
        minus = self.write("minus.json", '{"entities": [{"id": "0v0", "reals": {"s": -0.0}}]}')
        self.assertEqual(tool("diff", zero, minus).stdout, "entities[0v0].reals.s: 0 -> -0.0\n")

    def test_diff_of_demo_dumps(self):
        a = self.demo_dump()
        self.assertEqual((tool("diff", a, a).returncode, tool("diff", a, a).stdout), (0, ""))
        with open(a) as f:
            doc = json.load(f)
        entities = doc["entities"]
        moved, gone = entities[5], entities[6]
        moved["position"]["x"] = 1.25
        entities.remove(gone)
        entities.append({"id": "999v3", "frozen": True})
        doc["singletons"]["clock"]["frame"] += 1
        b = self.write("b.json", doc)
        result = tool("diff", a, b)
        self.assertEqual(result.returncode, 1, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(lines[0], "singletons.clock.frame: 60 -> 61")
        self.assertRegex(lines[1], rf"^entities\[{moved['id']}\]\.position\.x: -?[0-9.e+-]+ -> 1\.25$")
        self.assertTrue(lines[2].startswith(f"entities[{gone['id']}]: removed {{\"position\": "), lines[2])
        self.assertEqual(lines[3:], ['entities[999v3]: added {"frozen": true}'])
        # A longer run of the same game: frames, moved entities, spawned and destroyed ones.
        later = self.demo_dump("later.json", seconds="2")
        lines = tool("diff", a, later).stdout.splitlines()
        self.assertEqual(lines[0], "singletons.clock.frame: 60 -> 120")
        self.assertTrue(any(re.match(r"^entities\[\d+v\d+\]: added \{", line) for line in lines))
        self.assertTrue(any(re.match(r"^entities\[0v0\]\.position\.x: ", line) for line in lines))

    def test_diff_errors_exit_2(self):
        good = self.write("good.json", '{"entities": []}')
        cases = [
            ("missing.json", None, "missing.json: cannot open (No such file or directory)"),
            ("bad.json", '{"entities": [}', "bad.json: line 1, column 15: malformed JSON"),
            ("nan.json", '{"entities": [NaN]}', "nan.json: line 1, column 15: malformed JSON"),
            ("list.json", "[]", "list.json: (document): expected an object, got an array"),
            ("noid.json", '{"entities": [{"x": {}}]}',
             'noid.json: entities[0].id: missing (every entity has an id, e.g. "5v0")'),
            ("twice.json", '{"entities": [{"id": "3v0"}, {"id": "3v0"}]}',
             "twice.json: entities[1].id: duplicate id 3v0: already entities[0]"),
        ]
        for name, text, message in cases:
            path = self.write(name, text) if text is not None else os.path.join(self.dir, name)
            result = tool("diff", good, path)
            self.assertEqual(result.returncode, 2, name)
            self.assertEqual(result.stdout, "")
            self.assertEqual(result.stderr, os.path.join(self.dir, message) + "\n")

    # ---- stats ---------------------------------------------------------------------------

    def test_stats_of_a_handwritten_dump(self):
        path = self.write("w.json", '{"schema": "ak", "version": 3, "singletons": {"counter": {"n": 42}}, "entities": ['
                                    '{"id": "0v0", "ints": {"c": 5}, "marked": true}, {"id": "4v2", "marked": true}]}')
        result = tool("stats", path)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, f"{path}: schema \"ak\", version 3\n"
                                        "entities: 2 in 5 slots (1 with a generation above 0: their slot was reused)\n"
                                        "component  entities\n"
                                        "ints              1\n"
                                        "marked            2\n"
                                        "singletons:\n"
                                        '  counter {"n": 42}\n')

    def test_stats_agree_with_inspect(self):
        path = self.demo_dump()
        inspected = run(INSPECT, path).stdout
        stats = tool("stats", path).stdout
        live = re.search(r"^entities: (\d+) live", inspected, re.M).group(1)
        self.assertRegex(stats, rf"(?m)^entities: {live} in \d+ slots")
        for name, count in re.findall(r"(?m)^([a-z]+) +(\d+) +\d+$", inspected):
            if count != "0":
                self.assertRegex(stats, rf"(?m)^{name} +{count}$")
        self.assertRegex(stats, r'(?m)^  clock \{"frame": 60, "dt": 0\.016666668\}$')

    # ---- check ---------------------------------------------------------------------------

    def assert_same_verdict(self, loader, schema, path, *flags):
        """The tool and the generated loader agree on path: (tool result, loader result)."""
        ours, theirs = tool("check", path, "--schema", schema, *flags), run(loader, *flags, path)
        self.assertEqual(ours.returncode != 0, theirs.returncode != 0, (ours.stderr, theirs.stderr))
        if theirs.returncode:
            self.assertEqual(ours.stderr, theirs.stderr)
        else:
            report = [line for line in ours.stdout.splitlines() if not re.match(r"^[^:]*: (loads|version): ", line)]
            self.assertEqual(report, theirs.stdout.splitlines())
        return ours, theirs

    def test_check_refuses_what_the_loader_refuses(self):
        paths = [self.write(f"bad{k}.json", text) for k, (text, _) in enumerate(REFUSED)]
        ours = tool("check", *paths, "--schema", AK)  # one message per dump, in order
        self.assertEqual((ours.returncode, ours.stdout), (1, ""))
        messages = ours.stderr.splitlines()
        self.assertEqual(len(messages), len(REFUSED), ours.stderr)
        for path, (text, expected), message in zip(paths, REFUSED, messages):
            if expected is None:  # malformed: the column may differ from cJSON's
                self.assertRegex(message, rf"^{re.escape(path)}: line 2, column \d+: malformed JSON$")
            else:
                self.assertEqual(message, f"{path}: {expected}", text)
        theirs = run(LOAD_AK, *paths[1:])
        self.assertEqual(theirs.returncode, 1)
        self.assertEqual(theirs.stderr.splitlines(), messages[1:])

    def test_check_accepts_what_the_loader_accepts(self):
        for k, text in enumerate(ACCEPTED):
            path = self.write(f"good{k}.json", text)
            ours, _ = self.assert_same_verdict(LOAD_AK, AK, path)
            self.assertEqual(ours.returncode, 0, ours.stderr)
        demo = self.demo_dump()
        result = tool("check", demo, "--schema", GAME)
        self.assertEqual(result.returncode, 0, result.stderr)
        live = re.search(r"^entities: (\d+) live", run(INSPECT, demo).stdout, re.M).group(1)
        self.assertEqual(result.stdout, f"{demo}: loads: schema game version 1, {live} entities\n")

    def test_check_of_an_older_dump(self):
        """A version-1 save of tests/json/evolve_v1/evo.json under version 2 (evolve.json):
        renames and drops reported, widened values accepted, a narrowed one refused."""
        ours, _ = self.assert_same_verdict(LOAD_EVO, EVO, V1)
        self.assertEqual(ours.returncode, 0, ours.stderr)
        lines = ours.stdout.splitlines()
        self.assertEqual(lines[:2], [
            f"{V1}: loads: schema evo version 1, 4 entities",
            f"{V1}: version: document version 1 is older than schema evo's 2: read through the schema's renames "
            "and removals (a program's migration callback would run first)"])
        for line in ("singletons.clock.old_dt: removed field of clock, dropped", "entities[0].pos: renamed to place",
                     "entities[0].old_tag: renamed to marked", "entities[0].stats.hp: renamed to health",
                     "entities[0].stats.mana: removed field of stats, dropped",
                     "entities[1].legacy: removed component, dropped"):
            self.assertIn(f"{V1}: {line}", lines)
        ours, _ = self.assert_same_verdict(LOAD_EVO, EVO, V1_NARROWING)
        self.assertEqual(ours.returncode, 1)
        self.assertEqual(ours.stderr, f"{V1_NARROWING}: entities[4].narrow.v: expected integer in [-128, 127], got 1000\n")
        # Edited by hand: an old name beside its new one; a removed and an unknown component, lax.
        both = self.write("both.json", '{"schema": "evo", "version": 1, "entities": [{"id": "0v0", '
                                       '"stats": {"hp": 1, "health": 2}}]}')
        ours, _ = self.assert_same_verdict(LOAD_EVO, EVO, both)
        self.assertEqual(ours.stderr, f"{both}: entities[0].stats.hp: 'hp' is the old name of 'health', and both are "
                                      "given (keep one)\n")
        unknown = self.write("unknown.json", '{"schema": "evo", "version": 2, "entities": [{"id": "0v0", '
                                             '"legacy": {"code": 1}, "ghost": true, "stats": {"ghost": 1, "luck": 9}}]}')
        ours, _ = self.assert_same_verdict(LOAD_EVO, EVO, unknown)
        self.assertEqual(ours.stderr, f"{unknown}: entities[0].ghost: unknown component\n")
        ours, _ = self.assert_same_verdict(LOAD_EVO, EVO, unknown, "--lax")
        self.assertEqual(ours.stdout.splitlines()[1:], [
            f"{unknown}: entities[0].legacy: removed component, dropped",
            f"{unknown}: entities[0].ghost: unknown component, dropped",
            f"{unknown}: entities[0].stats.ghost: unknown field of stats, dropped"])

    def test_check_summarises_long_reports(self):
        """Many entities with the same rename: from 51 report lines on one line per kind
        (entities[*]), with how many and the first; --each prints every line, --summary always
        summarises."""
        entities = ", ".join(f'{{"id": "{k}v0", "pos": {{"x": 1, "y": 2}}, "stats": {{"hp": 3, "mana": 4}}}}'
                             for k in range(60))
        many = self.write("many.json", f'{{"schema": "evo", "version": 1, "entities": [{entities}]}}')
        ours = tool("check", many, "--schema", EVO)
        self.assertEqual(ours.returncode, 0, ours.stderr)
        self.assertEqual(ours.stdout.splitlines()[2:], [
            f"{many}: entities[*].pos: renamed to place (60 entities, first entities[0])",
            f"{many}: entities[*].stats.hp: renamed to health (60 entities, first entities[0])",
            f"{many}: entities[*].stats.mana: removed field of stats, dropped (60 entities, first entities[0])",
            f"{many}: report: 180 lines summarised (--each prints every one)"])
        each = tool("check", many, "--schema", EVO, "--each")
        self.assertEqual(len(each.stdout.splitlines()), 2 + 180)
        self.assertIn(f"{many}: entities[59].stats.mana: removed field of stats, dropped", each.stdout.splitlines())
        # A short report is printed whole unless --summary is asked for.
        self.assertIn(f"{V1}: entities[0].pos: renamed to place", tool("check", V1, "--schema", EVO).stdout.splitlines())
        summary = tool("check", V1, "--schema", EVO, "--summary").stdout.splitlines()
        self.assertTrue(any(line.startswith(f"{V1}: entities[*].") for line in summary), summary)
        self.assertRegex(summary[-1], rf"^{re.escape(V1)}: report: \d+ lines summarised \(--each prints every one\)$")

    def test_check_trouble_exits_2(self):
        good = self.write("good.json", ACCEPTED[0])
        result = tool("check", os.path.join(self.dir, "missing.json"), "--schema", AK)
        self.assertEqual((result.returncode, result.stderr),
                         (2, f"{self.dir}/missing.json: cannot open (No such file or directory)\n"))
        schema = self.write("schema.json", '{"name": "ak", "components": {"p": {"fields": {"x": "flaot"}}}}')
        result = tool("check", good, "--schema", schema)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr, f"{schema}: components.p.fields.x: unknown type 'flaot' (did you mean 'f32'?)\n")
        self.assertEqual(tool("check", good).returncode, 2)  # --schema is required

    def test_fast_path_agrees_with_the_walk(self):
        """document.parse lets Python's json parse a text it can vouch for and hands any other
        to ctext's walk (cJSON's parse, then the RFC 8259 check): both must give one verdict."""
        sys.path.insert(0, os.path.join(ROOT, "generator"))
        from dumplib import ctext, document
        texts = ['{"a": "N"}', '{"a": NaN}', '{"a": "x\\"N"}', '{"a": "\\u0000"}', '{"a": "\\\\u0000"}',
                 '{"a": "\\\\"} N', '{"a": "abc', '{"a": "abc I', '{"a": "a\\\nb", "b": Infinity}',
                 '["I", "\\\\", I]', '["\\"", -Infinity]', '{"Inf": "NaN", "x": [1, 2]}', '"\\ud800"',
                 '"\\ud83d\\ude00"', '"\\\\ud800"', '[' * 1000 + ']' * 1000, '[' * 1001 + ']' * 1001,
                 '{"a": [' + '{}, ' * 600 + '[[1]]]}', '\ufeff[1]', '\ufeff', ' [1] ', '[1]\x0c', '1' * 100]
        for text in texts:
            with self.subTest(text=text[:40]):
                try:
                    document.parse(text)
                    verdict = None
                except document.DumpError as e:
                    verdict = e.raw
                self.assertEqual(verdict, ctext.first_fault(text.encode("utf-8", "surrogatepass")))

    def test_linear_time_on_hostile_dumps(self):
        """Quadratic before: an 80 KB unterminated string of \\" pairs took 30 s in stats (a
        regular expression backtracked from every quote); diff of one entity with 20,000
        unknown keys 13 s (a list lookup per key). Twice those sizes, linear now: well under
        the bound (about 0.2 s here), far over it when quadratic."""
        unterminated = self.write("q.json", '{"schema": "ak", "version": 3, "entities": [{"id": "0v0", "x": "'
                                  + '\\"' * 80000)
        started = time.monotonic()
        result = subprocess.run([sys.executable, TOOL, "stats", unterminated], capture_output=True, text=True, timeout=60)
        self.assertLess(time.monotonic() - started, 15)
        self.assertEqual((result.returncode, result.stderr),
                         (2, f"{unterminated}: line 1, column 65: malformed JSON\n"))
        keys = ", ".join(f'"k{k}": {k}' for k in range(40000))
        a = self.write("wide_a.json", '{"entities": [{"id": "0v0", %s}]}' % keys)
        b = self.write("wide_b.json", '{"entities": [{"id": "0v0", %s, "k0": 1}]}' % keys.replace('"k1": 1', '"k1": 2'))
        started = time.monotonic()
        result = subprocess.run([sys.executable, TOOL, "diff", a, b], capture_output=True, text=True, timeout=60)
        self.assertLess(time.monotonic() - started, 15)
        self.assertEqual((result.returncode, result.stdout), (1, "entities[0v0].k1: 1 -> 2\n"))

    def test_keys_and_values_cannot_drive_the_terminal(self):
        """diff and stats print a dump's keys and values escaped as the loader escapes them
        (C0 and C1 controls, DEL as \\u00XX, bytes that are not UTF-8 as \\xNN)."""
        a = self.write("a.json", '{"entities": [{"id": "0v0", "\\u001b]0;pwned\\u0007": {"\\u009b2J": 1}}]}')
        b = self.write("b.json", '{"entities": [{"id": "0v0", "\\u001b]0;pwned\\u0007": {"\\u009b2J": "\\u001bc\\u007f"}}]}')
        result = subprocess.run([sys.executable, TOOL, "diff", a, b], capture_output=True)
        self.assertEqual((result.returncode, result.stdout),
                         (1, b'entities[0v0].\\u001b]0;pwned\\u0007.\\u009b2J: 1 -> "\\u001bc\\u007f"\n'))
        result = subprocess.run([sys.executable, TOOL, "stats", a], capture_output=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn(b"\n\\u001b]0;pwned\\u0007         1\n", result.stdout)
        self.assertNotIn(b"\x1b", result.stdout)

    def test_no_traceback_on_hostile_dumps(self):
        """Each of these raised a Python exception (exit 1, which means "different" or
        "refused"): now the loader's verdict, or a clean line."""
        deep = self.write("deep.json", '{"schema": "evo", "version": 1, "entities": [{"id": "0v0", "legacy": '
                          + "[" * 995 + "]" * 995 + "}]}")  # RecursionError
        ours, _ = self.assert_same_verdict(LOAD_EVO, EVO, deep)
        self.assertEqual(ours.stdout.splitlines()[2:], [f"{deep}: entities[0].legacy: removed component, dropped"])
        zeros = self.write("zeros.json", DOC % ('{"id": "0v%s"}' % ("0" * 5000)))  # ValueError; the loader: 0v0
        ours, _ = self.assert_same_verdict(LOAD_AK, AK, zeros)
        self.assertEqual(ours.returncode, 0, ours.stderr)
        self.assertEqual(tool("stats", zeros).returncode, 0)
        minus = self.write("minus.json", DOC % '{"id": "0v0", "state": {"mode": -1e400}}')  # OverflowError
        ours, _ = self.assert_same_verdict(LOAD_AK, AK, minus)
        self.assertEqual(ours.returncode, 1)
        for name in ("a", "b"):  # UnicodeEncodeError: bytes FF FE in a char field, under a UTF-8 locale
            with open(os.path.join(self.dir, f"bytes_{name}.json"), "wb") as f:
                f.write(b'{"schema": "ak", "version": 3, "entities": [{"id": "0v0", "text": {"tiny": "'
                        + (b"\xff\xfe" if name == "a" else b"ok") + b'"}}]}')
        env = dict(os.environ, LC_ALL="C.UTF-8", PYTHONIOENCODING="utf-8")
        result = subprocess.run([sys.executable, TOOL, "diff", os.path.join(self.dir, "bytes_a.json"),
                                 os.path.join(self.dir, "bytes_b.json")], capture_output=True, env=env)
        self.assertEqual((result.returncode, result.stdout, result.stderr),
                         (1, b'entities[0v0].text.tiny: "\\xff\\xfe" -> "ok"\n', b""))
        ours, _ = self.assert_same_verdict(LOAD_AK, AK, os.path.join(self.dir, "bytes_a.json"))
        self.assertEqual(ours.returncode, 0)
        for command in (["stats", deep], ["stats", zeros], ["diff", deep, zeros], ["diff", zeros, minus]):
            result = subprocess.run([sys.executable, TOOL, *command], capture_output=True, env=env)
            self.assertNotIn(b"Traceback", result.stderr, command)
            self.assertIn(result.returncode, (0, 1), (command, result.stderr))

    def test_devices_and_fifos_are_refused(self):
        """stats /dev/zero raised MemoryError; a FIFO would wait for a writer."""
        fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(fifo)
        for path, kind in (("/dev/zero", "a device"), (fifo, "a FIFO (pipe)")):
            result = subprocess.run([sys.executable, TOOL, "stats", path], capture_output=True, text=True, timeout=30)
            self.assertEqual((result.returncode, result.stderr),
                             (2, f"{path}: cannot open (not a regular file: it is {kind})\n"))
            result = subprocess.run([sys.executable, TOOL, "check", path, "--schema", AK], capture_output=True,
                                    text=True, timeout=30)
            self.assertEqual(result.returncode, 2, result.stderr)

    # ---- recordings ------------------------------------------------------------------------

    def test_recording_of_the_demo(self):
        """The demo's flight recorder (--record): its newest frame, extracted, is byte for byte
        the dump --save writes; stats lists the frames; diff compares two of them; the
        inspector program (the C loader) loads an extracted frame."""
        rec, last = os.path.join(self.dir, "rec.json"), os.path.join(self.dir, "last.json")
        result = run(DEMO, "--seconds", "1", "--seed", "3", "--save", last, "--record", rec)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("recorded the last 60 frames to", result.stdout)
        newest = tool("frame", rec, "-1")
        self.assertEqual(newest.returncode, 0, newest.stderr)
        with open(last, encoding="utf-8") as f:
            self.assertEqual(newest.stdout, f.read())
        self.assertEqual(tool("frame", rec, "59").stdout, newest.stdout)
        lines = tool("stats", rec).stdout.splitlines()
        self.assertEqual(lines[0], f"{rec}: recording of 60 frames (0 the oldest, 59 the newest)")
        self.assertRegex(lines[2], r"^frame 1: \d+ entities; \d+ changed, \d+ added, \d+ removed$")
        diff = tool("diff", rec, "57", "59")
        self.assertEqual(diff.returncode, 1, diff.stderr)
        self.assertEqual(diff.stdout.splitlines()[0], "singletons.clock.frame: 58 -> 60")
        self.assertEqual((tool("diff", rec, "59", "-1").returncode, tool("diff", rec, "59", "-1").stdout), (0, ""))
        frame = self.write("frame.json", tool("frame", rec, "10").stdout)
        loaded = run(INSPECT, frame)
        self.assertEqual(loaded.returncode, 0, loaded.stderr)
        # A failed frame check writes the frames that led to it, then aborts.
        crash = os.path.join(self.dir, "crash.json")
        result = run(DEMO, "--seconds", "2", "--seed", "3", "--record", crash, "--fail-at", "50")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn(f"demo: the last 50 frames are in {crash}", result.stderr)
        self.assertIn("recording of 50 frames", tool("stats", crash).stdout)
        # Trouble: a frame not held, a recording given where two dumps are expected, a bad delta.
        self.assertIn("the recording holds frames 0 to 59", tool("frame", rec, "60").stderr)
        self.assertEqual(tool("diff", rec, last).returncode, 2)
        self.assertEqual(tool("frame", last, "0").returncode, 2)
        with open(rec, encoding="utf-8") as f:
            doc = json.load(f)
        doc["deltas"][3]["removed"] = ["99999v0"]
        bad = self.write("bad.json", doc)
        result = tool("frame", bad, "-1")
        self.assertEqual((result.returncode, result.stderr),
                         (2, f"{bad}: deltas[3].removed[0]: no entity in this slot in the frame before\n"))

    def test_cli(self):
        self.assertRegex(tool("--version").stdout, r"^ecsgen-dump \d+\.\d+\.\d+\n$")
        self.assertEqual(tool().returncode, 2)
        self.assertIn("entities[5v0].position.x: 1.5 -> 2", tool("--help").stdout)


if __name__ == "__main__":
    DEMO, INSPECT, LOAD_AK, LOAD_EVO, V1, V1_NARROWING = sys.argv[1:7]
    del sys.argv[1:7]
    unittest.main()
