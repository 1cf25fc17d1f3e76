#!/usr/bin/env python3
"""`ecsgen-dump check` against the generated loader itself, on thousands of mutated dumps:
for every document both must give the same verdict, and the same bytes of message (refused)
or of report (loaded). The seeds are the fuzzer's corpus (tests/fuzz/corpus, dumps of the
`ak` schema: every field type) and the JSON files of tests/json, and for the `evo` schema
(renames and removals) the version-1 saves of tests/json/evolve_v1; the mutations are
seeded (the same documents every run; ECSGEN_DIFF_SEED=N picks others, ECSGEN_DIFF_COUNT=N
how many) and reach both the text rules (cJSON's parse and the RFC 8259 check: where and why
a text is malformed) and the loader's value rules (types, ranges, ids, keys, old names), as
dumps and --lax.

    test_dump_differential.py LOAD_DUMP_AK LOAD_DUMP_EVO V1_JSON...
"""

import glob
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(ROOT, "generator", "ecsgen_dump.py")
AK = os.path.join(ROOT, "tests", "json", "allkinds.json")
EVO = os.path.join(ROOT, "tests", "json", "evolve.json")
SEED = int(os.environ.get("ECSGEN_DIFF_SEED", "30"))
COUNT = int(os.environ.get("ECSGEN_DIFF_COUNT", "3000"))
LOAD_AK = LOAD_EVO = None
V1 = []

# Bytes and pieces that sit on the rules: structure, escapes (good, bad, surrogates, \u0000),
# numbers (leading zeros, exponents, 63+ characters), controls, bytes that are not UTF-8.
PIECES = [b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b" ", b"\t", b"\n", b"\r", b"\x01", b"\x1b",
          b"\x7f", b"\x0b", b"\xff", b"\xc2\x9b", b"\xef\xbb\xbf", b"\xed\xa0\x80", b"0", b"-", b"1e5", b"01",
          b"1.", b".5", b"-0", b"1e", b"1e+", b"NaN", b"Infinity", b"true", b"fals", b"null", b"nul",
          b"\\u0000", b"\\ud800", b"\\udc00", b"\\ud83d\\ude00", b"\\ud800\\u0041", b"\\u00e9", b"\\uZZZZ", b"\\u12",
          b"\\x", b"\\/", b'\\"', b"1" * 70, b"0." + b"1" * 70, b"9" * 30, b"\"0v0\"", b"\"4294967294v4294967295\"",
          b'"0v' + b"0" * 5000 + b'"', b"-1e400", b"1e400", b"[" * 1001, b"]" * 5, b"\xe2\x80\xa8",
          b'"id"', b'"ints"', b'"link"', b'"text"', b'"marked"', b'"\\u001b]0;x\\u0007"']

# Values for structural mutations: each field kind's edges and wrong types.
VALUES = [0, -1, 1, 127, 128, -129, 255, 256, 65535, 65536, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, 2 ** 53, 2 ** 53 + 1,
          2 ** 63, 2 ** 64, 1.5, -0.0, 1e39, -1e39, 3.4028235e38, 1e-320, "18446744073709551615",
          "18446744073709551616", "-9223372036854775808", "-9223372036854775809", "00012", "-0", "", "abc",
          "abcd", "\u00e9\u00e9", "NaN", "-NaN", "Infinity", "-Infinity", "\x1b[31m", "\u009b", "0v0", "1v0",
          "3v7", "2v4294967295", "0v4294967295", "1v4278190079", "1v4278190080", "0v4294967290", "4294967295v0", "0v4294967296", "5x0", "v0", "0v", "off", "slow", "fast",
          "medium", True, False, None, [], [1, 2, 3], [True, False, True], [None, "0v0"], {}, {"a": 1}]
KEYS = ["id", "ints", "reals", "flags", "text", "link", "arrays", "state", "marked", "hidden", "config",
        "counter", "bogus", "a", "b", "c", "e", "h", "s", "d", "on", "mask", "tiny", "wide", "to", "many",
        "i", "u", "mode", "n", "seed", "gain", "title", "\x1b]0;t\x07", "k\u009b", "constructor", "",
        "stats", "hp", "health", "mana", "place", "pos", "old_tag", "legacy", "narrow", "clock", "old_dt", "ticks"]


def seeds(schema):
    """The seed documents of a schema ("ak" or "evo"): (name, bytes)."""
    if schema == "evo":
        paths = V1
    else:
        paths = sorted(glob.glob(os.path.join(ROOT, "tests", "fuzz", "corpus", "*.json")) +
                       glob.glob(os.path.join(ROOT, "tests", "json", "*.json")) +
                       glob.glob(os.path.join(ROOT, "tests", "json", "*", "*.json")))
    out = []
    for path in paths:
        with open(path, "rb") as f:
            out.append((path, f.read()))
    return out


def mutate_text(rng, data):
    """A few byte-level edits: insert, delete, replace, duplicate, truncate."""
    data = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        at = rng.randrange(len(data) + 1)
        op = rng.randrange(6)
        if op == 0:
            data[at:at] = rng.choice(PIECES)
        elif op == 1 and data:
            del data[at:at + rng.choice([1, 1, 2, 5])]
        elif op == 2 and at < len(data):
            data[at:at + 1] = rng.choice(PIECES)
        elif op == 3 and data:
            start = rng.randrange(len(data))
            data[at:at] = data[start:start + rng.randrange(1, 40)]
        elif op == 4:
            del data[at:]
        else:
            data[at:at] = bytes([rng.randrange(256)])
    return bytes(data.replace(b"\0", b"0"))  # a NUL is refused by the file read alone


def _containers(v, out):
    if isinstance(v, dict):
        out.append(v)
        for x in v.values():
            _containers(x, out)
    elif isinstance(v, list):
        out.append(v)
        for x in v:
            _containers(x, out)
    return out


def mutate_value(rng, doc):
    """A few edits of the parsed document: a value, a key, an entity, the header."""
    for _ in range(rng.choice([1, 1, 2])):
        places = _containers(doc, [])
        target = rng.choice(places)
        value = rng.choice(VALUES)
        if isinstance(target, dict):
            keys = list(target)
            op = rng.randrange(4)
            if op == 0 and keys:
                target[rng.choice(keys)] = value
            elif op == 1 and keys:
                old = rng.choice(keys)
                target[rng.choice(KEYS)] = target.pop(old)
            elif op == 2:
                target[rng.choice(KEYS)] = rng.choice([value, {}, True, {"c": 1}])
            elif keys:
                del target[rng.choice(keys)]
        elif target:
            op = rng.randrange(3)
            k = rng.randrange(len(target))
            if op == 0:
                target[k] = value
            elif op == 1:
                target.append(rng.choice([value, {"id": rng.choice(["0v0", "1v0", "9v1", "0v1"])}]))
            else:
                del target[k]
    return doc


def documents(schema, count, seed):
    rng = random.Random(seed)
    out = []
    pool = seeds(schema)
    parsed = []
    for _, data in pool:
        try:
            doc = json.loads(data)
        except ValueError:
            continue
        if isinstance(doc, dict) and doc.get("schema") == schema:  # the loader's own dumps
            parsed.append(doc)
    while len(out) < count:
        if rng.random() < 0.4 or not parsed:
            _, data = rng.choice(pool)
            out.append(mutate_text(rng, data))
        else:
            doc = mutate_value(rng, json.loads(json.dumps(rng.choice(parsed))))
            text = json.dumps(doc, indent=rng.choice([None, 1]), ensure_ascii=rng.random() < 0.5)
            out.append(text.encode("utf-8", "surrogatepass"))
    return out


def by_file(lines, paths):
    """{path: [line, ...]} of output lines that start with a path (then ": ")."""
    out = {p: [] for p in paths}
    for line in lines:
        path = line.split(b": ", 1)[0].decode()
        out.setdefault(path, []).append(line)
    return out


class Differential(unittest.TestCase):
    def compare(self, schema, loader, paths, *flags):
        ours = subprocess.run([sys.executable, TOOL, "check", *paths, "--schema", schema, *flags], capture_output=True)
        theirs = subprocess.run([loader, *flags, *paths], capture_output=True)
        self.assertNotIn(b"Traceback", ours.stderr)
        our_errors = by_file(ours.stderr.splitlines(), paths)
        their_errors = by_file(theirs.stderr.splitlines(), paths)
        our_out = by_file([line for line in ours.stdout.splitlines()
                           if not line.split(b": ", 2)[1].startswith((b"loads", b"version"))], paths)
        their_out = by_file(theirs.stdout.splitlines(), paths)
        mismatches = []
        for path in paths:
            ours_listed, theirs_listed = our_out[path], their_out[path]
            cut = [line for line in theirs_listed if line.split(b": ", 1)[1].startswith((b"(report cut)", b"... and "))]
            if cut:  # the loader's report keeps what fits its buffer, and says so; check lists every line
                theirs_listed = [line for line in theirs_listed if line not in cut]
                ours_listed = ours_listed[:len(theirs_listed)]
            if our_errors[path] != their_errors[path] or ours_listed != theirs_listed:
                with open(path, "rb") as f:
                    mismatches.append((f.read()[:300], our_errors[path] or our_out[path],
                                       their_errors[path] or their_out[path]))
        refused = sum(1 for p in paths if their_errors[p])
        print(f"{len(paths)} documents of {os.path.basename(schema)} {' '.join(flags)}: {refused} refused by the loader, "
              f"{len(mismatches)} differ", file=sys.stderr)
        self.assertEqual(mismatches[:5], [], f"{len(mismatches)} of {len(paths)} differ")
        return refused

    def run_schema(self, name, schema, loader, count):
        # First (so --lax, every fourth, has it too): a report longer than the loader keeps.
        many = ", ".join(f'"unknown_{k}": {{}}' for k in range(300))
        docs = [f'{{"schema": "{name}", "version": 1, "entities": [{{"id": "0v0", {many}}}]}}'.encode()]
        if name == "ak":  # references in a slot's last 2^24 generations: refused unless that slot is live there
            docs += [(b'{"schema": "ak", "version": 3, "entities": [{"id": "0v%d", "link": {"to": "%dv%d"}}]}'
                      % (generation, index, reference)) for generation, index, reference in
                     ((0, 3, 4278190080), (4278190081, 0, 4278190080), (7, 0, 4294967290), (4294967295, 0, 4294967295))]
        docs += documents(name, count, SEED)
        with tempfile.TemporaryDirectory(prefix="ecsgen-diff-") as work:
            paths = []
            for k, data in enumerate(docs):
                path = os.path.join(work, f"d{k:05}.json")
                with open(path, "wb") as f:
                    f.write(data)
                paths.append(path)
            refused = self.compare(schema, loader, paths)
            self.assertGreater(refused, len(paths) // 4)  # the mutations reach the rules
            self.assertLess(refused, len(paths) - len(paths) // 50)  # and many documents load
            self.compare(schema, loader, paths[::4], "--lax")

    def test_check_matches_the_loader_every_field_type(self):
        self.run_schema("ak", AK, LOAD_AK, COUNT)

    def test_check_matches_the_loader_old_names(self):
        self.run_schema("evo", EVO, LOAD_EVO, COUNT // 4)


if __name__ == "__main__":
    LOAD_AK, LOAD_EVO = sys.argv[1:3]
    V1 = [path for path in sys.argv[3:] if path.endswith(".json")]
    del sys.argv[1:]
    unittest.main()
