#!/usr/bin/env python3
"""The generator's compiled-template cache (generator/ecsgenlib/render.py): a run with a
cold cache, one with a warm cache and one with a damaged cache write the same bytes, the
golden output."""

import glob
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ECSGEN = os.path.join(ROOT, "generator", "ecsgen.py")


def generate(schema, out, tmpdir):
    env = dict(os.environ, TMPDIR=tmpdir)
    subprocess.run([sys.executable, ECSGEN, schema, "--out", out], env=env, check=True,
                   capture_output=True)
    return {name: open(os.path.join(out, name), "rb").read() for name in sorted(os.listdir(out))}


class TemplateCacheTest(unittest.TestCase):
    def test_cold_warm_and_damaged_cache_write_the_goldens(self):
        schema = os.path.join(ROOT, "schema", "game.json")
        with tempfile.TemporaryDirectory(prefix="ecsgen-cache-") as tmp:
            cold = generate(schema, os.path.join(tmp, "cold"), tmp)
            cached = glob.glob(os.path.join(tmp, "_jinja2-cache-*", "__ecsgen_*.cache"))
            self.assertTrue(cached, "the first run left no compiled templates")
            self.assertEqual(generate(schema, os.path.join(tmp, "warm"), tmp), cold)
            for k, path in enumerate(cached):  # damaged files are compiled again
                with open(path, "r+b") as f:
                    f.truncate(os.path.getsize(path) // 2 if k % 2 else 20)  # 20: inside the checksum
            self.assertEqual(generate(schema, os.path.join(tmp, "damaged"), tmp), cold)
            for name, data in cold.items():
                with open(os.path.join(ROOT, "generated", name), "rb") as f:
                    self.assertEqual(data, f.read(), name)
            shutil.rmtree(os.path.join(tmp, "cold"))


if __name__ == "__main__":
    unittest.main()
