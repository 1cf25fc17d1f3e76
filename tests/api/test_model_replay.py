"""test_model --inject-bug (a deliberate error in the reference model) is caught: the run fails,
prints the seed and the failing operation, bisects to the shortest failing prefix, and the
replay command it prints fails, while one operation fewer passes. The bug shows only when a
later check looks at the entity, so the prefix is shorter than the failing run.

    python3 test_model_replay.py BUILD/tests/api/test_model
"""
import re
import shlex
import subprocess
import sys


def run(args):
    p = subprocess.run(args, capture_output=True, text=True, timeout=240)
    return p.returncode, p.stdout + p.stderr


def main():
    exe = sys.argv[1]
    failures = []

    def check(cond, what, output=""):
        if not cond:
            failures.append(what)
            print(f"FAILED: {what}\n{output}", file=sys.stderr)

    # Without the bug this seed passes (a short run, so the test stays quick everywhere).
    rc, out = run([exe, "--seed", "3", "--ops", "20000"])
    check(rc == 0 and "no divergence" in out, "seed 3, 20000 operations, no --inject-bug: passes", out)

    rc, out = run([exe, "--seed", "3", "--ops", "20000", "--inject-bug"])
    check(rc == 1, "--inject-bug: exit status 1", out)
    first = re.search(r"DIVERGENCE: seed 3, operation (\d+):", out)
    check(first is not None, "--inject-bug: the divergence names the seed and the operation", out)
    prefix = re.search(r"shortest failing prefix: (\d+) operations", out)
    replay = re.search(r"replay: (.+)$", out, re.M)
    check(prefix is not None and replay is not None, "--inject-bug: a prefix and a replay command", out)
    if failures:
        return 1
    op, n = int(first.group(1)), int(prefix.group(1))
    check(1 <= n < op + 1, f"the prefix ({n}) is shorter than the failing run ({op + 1})", out)

    cmd = shlex.split(replay.group(1))
    check(cmd[0] == exe and "--inject-bug" in cmd and cmd[cmd.index("--ops") + 1] == str(n),
          "the replay command runs this program with --inject-bug and the prefix's length", replay.group(1))
    rc, out2 = run(cmd)
    check(rc == 1 and "DIVERGENCE: seed 3," in out2, "the replay fails", out2)
    # One operation fewer passes: the prefix is the shortest.
    shorter = list(cmd)
    shorter[shorter.index("--ops") + 1] = str(n - 1)
    rc, out3 = run(shorter)
    check(rc == 0 and "no divergence" in out3, f"{n - 1} operations pass", out3)
    print(f"inject-bug: diverged at operation {op}, shortest prefix {n}, replay reproduces it")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
