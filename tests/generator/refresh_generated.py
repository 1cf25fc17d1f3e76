#!/usr/bin/env python3
"""Regenerates generated/ from every schema in schema/ (run: meson compile -C build refresh-generated)."""

import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    for schema in sorted(glob.glob(os.path.join(ROOT, "schema", "*.json"))):
        subprocess.run([sys.executable, os.path.join(ROOT, "generator", "ecsgen.py"), schema,
                        "--out", os.path.join(ROOT, "generated")], check=True)
    print("generated/ refreshed")


if __name__ == "__main__":
    main()
