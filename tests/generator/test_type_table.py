"""The field-type table (SCALARS in generator/ecsgenlib/types.py) against every other place
that lists the types: the JSON Schema's type pattern, the C sizes of model.py, the runtime's
type enum, names and JSON readers, and the property test's independent copy. Adding a type
to the table without the others (or the other way round) fails here, naming the place."""
import json
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "generator"))
sys.path.insert(0, HERE)

from ecsgenlib import model, types  # noqa: E402


def read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def type_pattern():
    """The JSON Schema's pattern for a field type (the value of a field, or its "type")."""
    found = set()

    def walk(node):
        if isinstance(node, dict):
            p = node.get("pattern")
            if isinstance(p, str) and "f32" in p:
                found.add(p)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(json.loads(read("generator", "ecsgen.schema.json")))
    assert len(found) == 1, f"expected one type pattern in ecsgen.schema.json, found {sorted(found)}"
    return re.compile(found.pop())


class TypeTableTest(unittest.TestCase):
    def test_json_schema_accepts_exactly_the_table(self):
        pattern = type_pattern()
        for name in types.SCALARS:
            self.assertTrue(pattern.search(name), f"ecsgen.schema.json refuses the type {name}")
            self.assertTrue(pattern.search(f"{name}[4]"), f"ecsgen.schema.json refuses the type {name}[4]")
        for name in ("enum", "char[16]", "char[65535]"):
            self.assertTrue(pattern.search(name), name)
        for name in ("f16", "i128", "char", "enum[2]", "u8[0]", "u8[65536]", "string"):
            self.assertFalse(pattern.search(name), f"ecsgen.schema.json accepts {name}, which the table has not")

    def test_model_knows_every_c_size(self):
        for name, (c_type, _, bits) in types.SCALARS.items():
            self.assertIn(c_type, model._SIZES_64, f"model._SIZES_64 lacks {c_type} ({name})")
            if name != "bool":
                self.assertEqual(model._SIZES_64[c_type] * 8, bits, name)

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
