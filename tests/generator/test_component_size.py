#!/usr/bin/env python3
"""The model's size of a component (Component.c_size, which the 1 MiB limit checks) is the
`sizeof` of the generated struct, padding included: a schema of components with awkward
alignment is generated, and a program compiled with each C compiler found prints the sizes.
The limit itself: a component of exactly 1 MiB is accepted (one byte more is refused, see
bad/component_too_big)."""

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
from ecsgenlib.types import MAX_COMPONENT_BYTES  # noqa: E402

SCHEMA = {
    "name": "sz",
    "components": {
        "mixed": {"fields": {"a": "u8", "b": "f64", "c": "u16"}},          # 1 + 7 pad + 8 + 2, to 24
        "text": {"fields": {"on": "bool", "name": "char[5]", "n": "i16"}},  # 8
        "state": {"fields": {"mode": {"type": "enum", "values": ["idle", "run"]}, "k": "u8"}},  # 8
        "link": {"fields": {"tag": "u8[3]", "to": "entity"}},               # 3 + 5 pad + 8
        "shorts": {"fields": {"v": "i16[3]", "b": "u8"}},                   # 7, to 8
        "floats": {"fields": {"x": "f32", "y": "f64[2]", "z": "u32"}},       # 4 + 4 pad + 16 + 4, to 32
        "one": {"fields": {"b": "u8"}},
        "wide": {"fields": {"a": "i64", "b": "u64[3]", "c": "char[1]"}},    # 33, to 40
        "exact": {"fields": {"a": "f64[65535]", "b": "f64[65535]", "c": "u8[16]"}},  # the limit
        "clock": {"singleton": True, "fields": {"frame": "u64", "dt": "f32"}},
    },
}


def compilers():
    found = [c for c in (os.environ.get("CC"), "gcc", "clang", "cc") if c and shutil.which(c)]
    return list(dict.fromkeys(found))


class ComponentSize(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ecsgen-size-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_model_size_is_sizeof(self):
        schema_file = os.path.join(self.tmp, "sz.json")
        with open(schema_file, "w", encoding="utf-8") as f:
            json.dump(SCHEMA, f)
        model, _ = pipeline.build(schema_file)
        expected = {c.name: c.c_size for c in model.components}
        self.assertEqual(expected["exact"], MAX_COMPONENT_BYTES)
        self.assertEqual(expected["mixed"], 24)  # padding counted, not just the fields' bytes
        result = subprocess.run([sys.executable, ECSGEN, schema_file, "--out", self.tmp],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        program = os.path.join(self.tmp, "size.c")
        with open(program, "w", encoding="utf-8") as f:
            f.write('#include <stdio.h>\n#include "sz_ecs.h"\nint main(void) {\n')
            for c in model.components:
                f.write(f'    printf("%s %zu\\n", "{c.name}", sizeof({c.type}));\n')
            f.write("    return 0;\n}\n")
        ccs = compilers()
        self.assertTrue(ccs, "no C compiler found")
        for cc in ccs:
            with self.subTest(cc):
                exe = os.path.join(self.tmp, "size-" + os.path.basename(cc))
                result = subprocess.run([cc, "-std=c11", "-I", self.tmp, "-I", os.path.join(ROOT, "runtime"),
                                         program, "-o", exe], capture_output=True, text=True)
                self.assertEqual(result.returncode, 0, result.stderr)
                out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
                measured = {name: int(size) for name, size in (line.split() for line in out.splitlines())}
                self.assertEqual(measured, expected)


if __name__ == "__main__":
    unittest.main()
