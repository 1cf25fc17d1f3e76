#!/usr/bin/env python3
"""The inspector's relation trees in a real browser: the scene example saves its world and
drive_relations.mjs opens it in the scene's page (examples/scene_inspector.html).
    test_relations_page.py SCENE PAGE.html [--screenshot FILE.png]"""

import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_inspector import ensure_packages  # noqa: E402


def main(argv):
    scene, page = argv[:2]
    ensure_packages()
    with tempfile.TemporaryDirectory(prefix="ecsgen-relations-page-") as work:
        shutil.copy(page, os.path.join(work, "scene_inspector.html"))
        subprocess.run([scene, work], check=True, stdout=subprocess.DEVNULL)
        return subprocess.run(["node", os.path.join(HERE, "drive_relations.mjs"), work, *argv[2:]], timeout=120).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
