#!/usr/bin/env python3
"""The hook events (CONTRIBUTING.md, "a new hook event"): every member of the generated
`<name>_hooks_t` is tested by hooks_put (which sets `any__`, the one test the unhooked path
makes), fired by the generated .c, documented in docs/hooks.md and exercised by
tests/api/test_hooks.c. A copy of the generator whose ecs.h.j2 declares one more event and
nothing else fails the check, naming each place the row lists."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def read(*parts):
    with open(os.path.join(*parts), encoding="utf-8") as f:
        return f.read()


def events(header, prefix):
    """The hook members of `<prefix>_hooks_t` in a generated header."""
    body = re.search(r"typedef struct %s_hooks \{(.*?)\} %s_hooks_t;" % (prefix, prefix), header, re.S)
    assert body, "no hooks struct in the header"
    names = []
    for line in body.group(1).split(";"):
        line = re.sub(r"/\*.*?\*/", "", line, flags=re.S).strip()
        if line.startswith(f"{prefix}_hook_fn_t "):
            names += [n.strip() for n in line[len(f"{prefix}_hook_fn_t "):].split(",")]
    return names


def gaps(header, source, prefix, docs, test):
    """Each place a hook event is missing from, as `event: where`."""
    found = events(header, prefix)
    any_test = re.search(r"if \(([^)]*)\) w->hooks\.any__ = true;", source)
    tested = set(re.findall(r"h->(\w+)", any_test.group(1))) if any_test else set()
    out = []
    for e in found:
        if e not in tested:
            out.append(f"{e}: not in hooks_put's any__ test (ecs.c.j2)")
        if not re.search(r"h->%s\(w, e, h->user\)" % e, source):
            out.append(f"{e}: never fired (the Hooks section of ecs.c.j2)")
        if f"`{e}`" not in docs:
            out.append(f"{e}: not in docs/hooks.md")
        if f".{e} = " not in test:
            out.append(f"{e}: not set in tests/api/test_hooks.c")
    return found, out


class HookEventsTest(unittest.TestCase):
    def check(self, generated_dir):
        return gaps(read(generated_dir, "game_ecs.h"), read(generated_dir, "game_ecs.c"), "game",
                    read(ROOT, "docs", "hooks.md"), read(ROOT, "tests", "api", "test_hooks.c"))

    def test_every_event_is_tested_fired_documented_and_exercised(self):
        found, missing = self.check(os.path.join(ROOT, "generated"))
        self.assertEqual(found[:3], ["on_add", "on_remove", "on_set"])
        self.assertEqual(missing, [])

    def test_an_event_declared_alone_is_caught(self):
        with tempfile.TemporaryDirectory(prefix="ecsgen-hooks-") as tmp:
            generator = os.path.join(tmp, "generator")
            shutil.copytree(os.path.join(ROOT, "generator"), generator,
                            ignore=shutil.ignore_patterns("__pycache__"))
            # the generator reads its version from the runtime beside it
            os.makedirs(os.path.join(tmp, "runtime"))
            shutil.copy(os.path.join(ROOT, "runtime", "ecs_version.h"), os.path.join(tmp, "runtime"))
            template = os.path.join(generator, "templates", "ecs.h.j2")
            text = read(template)
            member = "    void *user;\n} {{ s.hooks_type }};"
            self.assertIn(member, text)
            with open(template, "w", encoding="utf-8") as f:
                f.write(text.replace(member, "    void *user;\n    {{ s.hook_fn_type }} on_touch;\n} {{ s.hooks_type }};"))
            out = os.path.join(tmp, "out")
            subprocess.run([sys.executable, os.path.join(generator, "ecsgen.py"),
                            os.path.join(ROOT, "schema", "game.json"), "--out", out], check=True)
            found, missing = self.check(out)
        self.assertEqual(found, ["on_add", "on_remove", "on_set", "on_touch"])
        self.assertEqual(missing, ["on_touch: not in hooks_put's any__ test (ecs.c.j2)",
                                   "on_touch: never fired (the Hooks section of ecs.c.j2)",
                                   "on_touch: not in docs/hooks.md",
                                   "on_touch: not set in tests/api/test_hooks.c"])


if __name__ == "__main__":
    unittest.main()
