#!/usr/bin/env python3
"""Regenerates generated/ from every whole schema in schema/ (shared fragments, the files
without a "name", are generated through the schemas that include them): the C files and
the Markdown reference (run: meson compile -C build refresh-generated)."""

import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def whole_schemas():
    """schema/*.json that are whole schemas (shared fragments have no "name"): the schemas
    whose output generated/ holds (test_generator.py checks the same list)."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "schema", "*.json"))):
        with open(path, encoding="utf-8") as f:
            if "name" in json.load(f):
                out.append(path)
    return out


def main():
    generated = os.path.join(ROOT, "generated")
    for schema in whole_schemas():
        name = os.path.splitext(os.path.basename(schema))[0]
        subprocess.run([sys.executable, os.path.join(ROOT, "generator", "ecsgen.py"), schema,
                        "--out", generated, "--docs", os.path.join(generated, name + ".md")], check=True)
    print("generated/ refreshed")


if __name__ == "__main__":
    main()
