#!/usr/bin/env python3
"""The world inspector page in a real browser: make_worlds saves two 100k-entity worlds of
schema/game.json and the demo saves its world; drive.mjs opens them in the generated page in
headless Chromium (puppeteer-core) and checks the table, filter, sort, paging, entity view,
references, diff and bad-input messages. Prints the time from opening the dump to the filtered table.

    test_inspector.py MAKE_WORLDS DEMO PAGE.html [--screenshot FILE.png]

Installs its npm packages (package-lock.json) into tests/inspector/node_modules when missing."""

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ENTITIES = 100000


def ensure_packages():
    """npm ci once (under a lock: several builds may run this test at the same time)."""
    with open(os.path.join(tempfile.gettempdir(), "ecsgen-inspector-npm.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.isdir(os.path.join(HERE, "node_modules", "puppeteer-core")):
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HERE, check=True)


def main(argv):
    make_worlds, demo, page = argv[:3]
    ensure_packages()
    with tempfile.TemporaryDirectory(prefix="ecsgen-inspector-") as work:
        shutil.copy(page, os.path.join(work, "game_inspector.html"))
        a, b, c, d = (os.path.join(work, name + ".json") for name in "abcd")
        subprocess.run([make_worlds, str(ENTITIES), a, b], check=True)
        subprocess.run([make_worlds, "2000", c, d], check=True)
        subprocess.run([demo, "--seconds", "1", "--save", os.path.join(work, "demo.json")], check=True,
                       stdout=subprocess.DEVNULL)
        # a recording of the demo's last 300 frames (its flight recorder), and the newest frame as a dump
        subprocess.run([demo, "--seconds", "6", "--record", os.path.join(work, "rec.json"),
                        "--save", os.path.join(work, "rec_last.json")], check=True, stdout=subprocess.DEVNULL)
        # ecsgen-dump's own diff (of the small pair: Python takes long over 100k entities):
        # the page must list the same lines.
        diff = subprocess.run([sys.executable, os.path.join(ROOT, "generator", "ecsgen_dump.py"), "diff", c, d],
                              capture_output=True, text=True)
        assert diff.returncode == 1, diff.stderr
        with open(os.path.join(work, "diff.txt"), "w") as f:
            f.write(diff.stdout)
        with open(os.path.join(work, "other.json"), "w") as f:
            f.write('{"schema": "server", "version": 1, "singletons": {}, "entities": [{"id": "0v0"}]}\n')
        with open(a) as src, open(os.path.join(work, "broken.json"), "w") as f:
            f.write(src.read(5000))  # cut off mid-document, as a crash while copying would
        # 3000 nested arrays in a field: deeper than a load reads (the page overflowed its stack).
        with open(os.path.join(work, "deep.json"), "w") as f:
            f.write('{"schema": "game", "version": 1, "entities": [{"id": "0v0", "cargo": {"items": '
                    + "[" * 3000 + "]" * 3000 + "}}]}\n")
        # Components named like Object.prototype's members: the page must count, filter and
        # diff them by the dump's own keys, as ecsgen-dump does.
        proto = os.path.join(work, "proto.json")
        with open(proto, "w") as f:
            f.write('{"name": "proto", "components": {"constructor": {"tag": true}, '
                    '"toString": {"fields": {"valueOf": "i32"}}, "hasOwnProperty": {"tag": true}}}\n')
        subprocess.run([sys.executable, os.path.join(ROOT, "generator", "ecsgen.py"), proto, "--inspector",
                        os.path.join(work, "proto_inspector.html")], check=True)
        with open(os.path.join(work, "proto_a.json"), "w") as f:
            f.write('{"schema": "proto", "version": 1, "entities": [{"id": "0v0", "toString": {"valueOf": 1}}, '
                    '{"id": "1v0"}, {"id": "2v0", "hasOwnProperty": true}]}\n')
        with open(os.path.join(work, "proto_b.json"), "w") as f:
            f.write('{"schema": "proto", "version": 1, "entities": [{"id": "0v0", "toString": {"valueOf": 2}, '
                    '"constructor": true}, {"id": "1v0", "valueOf": {"x": 1}}, {"id": "2v0"}]}\n')
        proto_diff = subprocess.run([sys.executable, os.path.join(ROOT, "generator", "ecsgen_dump.py"), "diff",
                                     os.path.join(work, "proto_a.json"), os.path.join(work, "proto_b.json")],
                                    capture_output=True, text=True)
        assert proto_diff.returncode == 1, proto_diff.stderr
        with open(os.path.join(work, "proto_diff.txt"), "w") as f:
            f.write(proto_diff.stdout)
        return subprocess.run(["node", os.path.join(HERE, "drive.mjs"), work, *argv[3:]], timeout=150).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
