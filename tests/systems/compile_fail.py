"""Systems' typed access (FIELD): compile_fail/ok_*.c must compile warning-free, and each bad_*.c
must fail to compile with the text its first line names (`/* expect: TEXT */`).

    compile_fail.py SOURCE_ROOT PYTHON CC [CC ARGS...]

tests/systems/systems.json is generated into a temporary directory (as a user would), and each
snippet is checked with -fsyntax-only against it and the runtime."""
import pathlib
import re
import subprocess
import sys
import tempfile


def main():
    root, python, cc = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    snippets = sorted((root / "tests/systems/compile_fail").glob("*.c"))
    failures = 0
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([python, str(root / "generator/ecsgen.py"), str(root / "tests/systems/systems.json"),
                        "--out", out], check=True)
        base = [*cc, "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only",
                f"-I{root / 'runtime'}", f"-I{out}"]
        for snippet in snippets:
            run = subprocess.run([*base, str(snippet)], capture_output=True, text=True)
            if snippet.name.startswith("ok_"):
                ok = run.returncode == 0
                why = "does not compile:\n" + run.stderr
            else:
                expect = re.match(r"/\* expect: (.+?) \*/", snippet.read_text()).group(1)
                ok = run.returncode != 0 and expect in run.stderr
                why = "compiles" if run.returncode == 0 else f"fails without '{expect}':\n{run.stderr}"
            print(f"{snippet.name}: {'ok' if ok else why}")
            failures += not ok
    print(f"compile_fail: {len(snippets)} snippets, {failures} wrong")
    return 1 if failures or not snippets else 0


if __name__ == "__main__":
    sys.exit(main())
