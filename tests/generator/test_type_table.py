"""The field-type table (SCALARS in generator/ecsgenlib/types.py): the generator's type
pattern derives from it, ecsgen.schema.json's looser pattern admits it, the runtime's type
enum, names and JSON readers and the property test's independent copy agree with it, and a
copy of the generator with one more row generates with the new type. Adding a type to the
table without the runtime (or the other way round) fails here, naming the place."""
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
sys.path.insert(0, os.path.join(ROOT, "generator"))
sys.path.insert(0, HERE)

from ecsgenlib import types  # noqa: E402


def read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def file_type_pattern():
    """ecsgen.schema.json's own pattern for a field type (what editors check)."""
    found = set()

    def walk(node):
        if isinstance(node, dict):
            if node.get("title") == "field type":
                found.add(node["pattern"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(json.loads(read("generator", "ecsgen.schema.json")))
    assert len(found) == 1, f"expected one field type pattern in ecsgen.schema.json, found {sorted(found)}"
    return re.compile(found.pop())


def whole(pattern, text):
    m = pattern.search(text)
    return m is not None and m.end() == len(text)


class TypeTableTest(unittest.TestCase):
    def test_generator_accepts_exactly_the_table(self):
        pattern = re.compile(types.type_pattern())
        for name in types.SCALARS:
            self.assertTrue(whole(pattern, name), f"the generator refuses the type {name}")
            self.assertTrue(whole(pattern, f"{name}[4]"), f"the generator refuses the type {name}[4]")
        for name in ("enum", "char[16]", "char[65535]"):
            self.assertTrue(whole(pattern, name), name)
        for name in ("f16", "i128", "char", "enum[2]", "u8[0]", "u8[65536]", "string", "u8[01]"):
            self.assertFalse(whole(pattern, name), f"the generator accepts {name}, which the table has not")

    def test_file_pattern_is_looser(self):
        """Editors check the shape only (a word, maybe [N]), so a new type needs no edit there;
        the array length limits are the same."""
        pattern = file_type_pattern()
        for name in [*types.SCALARS, "enum", "char[16]", "f16", "u8[65535]"]:
            self.assertTrue(whole(pattern, name), name)
        for name in ("u8[0]", "u8[65536]", "F32", "f32 ", "u8[01]"):
            self.assertFalse(whole(pattern, name), name)

    def test_a_new_type_needs_only_the_table(self):
        """A copy of the generator with one more row in SCALARS (a test-only type) accepts
        the type, alone and as an array, checks its defaults by kind and width, and puts its
        C type in the struct: nothing else on the generator's side needed editing (the
        runtime's type enum and reader are the other half, see CONTRIBUTING.md)."""
        with tempfile.TemporaryDirectory() as tmp:
            gen = os.path.join(tmp, "generator")
            shutil.copytree(os.path.join(ROOT, "generator"), gen,
                            ignore=shutil.ignore_patterns("__pycache__"))
            # the generator reads its version from the runtime beside it
            os.makedirs(os.path.join(tmp, "runtime"))
            shutil.copy(os.path.join(ROOT, "runtime", "ecs_version.h"), os.path.join(tmp, "runtime"))
            table = os.path.join(gen, "ecsgenlib", "types.py")
            with open(table, encoding="utf-8") as f:
                text = f.read()
            row = '    "entity": ("ecs_entity_t", "entity", 64),\n'
            self.assertIn(row, text)
            with open(table, "w", encoding="utf-8") as f:
                f.write(text.replace(row, row + '    "tst": ("int16_t", "int", 16),\n'))
            schema = os.path.join(tmp, "t.json")

            def generate(field):
                with open(schema, "w", encoding="utf-8") as f:
                    json.dump({"name": "t", "components": {"c": {"fields": {"a": field}}}}, f)
                return subprocess.run([sys.executable, os.path.join(gen, "ecsgen.py"), schema, "--out", tmp],
                                      capture_output=True, text=True)

            ok = generate({"type": "tst[3]", "default": [1, -2, 32767]})
            self.assertEqual(ok.returncode, 0, ok.stderr)
            with open(os.path.join(tmp, "t_ecs.h"), encoding="utf-8") as f:
                self.assertIn("int16_t a[3];", f.read())
            bad = generate({"type": "tst", "default": 40000})
            self.assertNotEqual(bad.returncode, 0)
            self.assertIn("40000 is out of range for tst [-32768, 32767]", bad.stderr)

    def test_runtime_lists_every_type(self):
        names = re.search(r"names\[\] = \{([^}]*)\}", read("runtime", "ecs_meta.c")).group(1)
        self.assertEqual(re.findall(r'"(\w+)"', names), [*types.SCALARS, "char", "enum"],
                         "runtime/ecs_meta.c: ecs_meta_type_name's names, in the table's order")
        header = read("runtime", "ecs_meta.h")
        enum = re.findall(r"\bECS_META_([A-Z0-9]+)\b", header[header.index("ECS_META_BOOL"):])
        self.assertEqual(enum[:len(types.SCALARS) + 2], [n.upper() for n in [*types.SCALARS, "char", "enum"]],
                         "runtime/ecs_meta.h: the type enum, in the table's order")
        readers = read("runtime", "ecs_json.h")
        for name in types.SCALARS:
            self.assertRegex(readers, rf"\bbool ecs_json_read_{name}\(", f"runtime/ecs_json.h: no reader for {name}")

    def test_property_test_copy_agrees(self):
        import test_property
        self.assertEqual(list(test_property.SCALARS), list(types.SCALARS))
        for name, (c_type, kind, _) in types.SCALARS.items():
            self.assertEqual(test_property.SCALARS[name][:2], (c_type, kind), name)


if __name__ == "__main__":
    unittest.main()
