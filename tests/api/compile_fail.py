"""Checked loop and view access (FIELD, ROW): compile_fail/ok_*.c must compile warning-free,
and each bad_*.c must fail to compile with the text its first line names (`/* expect: TEXT */`).

A schema edit must not silently change what code means: each edit_*.c names, after its
expect line, the schema before the edit and after it (`/* before: PATCH */`, `/* after:
PATCH */`, JSON merge patches of tests/schemas/kitchen.json, none meaning kitchen.json as it
is). It must compile against the schema before and fail with TEXT against the schema after,
and every ok_*.c must compile against both: code written with FIELD keeps compiling.

    compile_fail.py SOURCE_ROOT PYTHON CC [CC ARGS...]

The schemas are generated into a temporary directory with the generator (as a user would),
and each snippet is checked with -fsyntax-only against them and the runtime."""
import json
import pathlib
import re
import subprocess
import sys
import tempfile


def merge(doc, patch):
    """RFC 7386 JSON merge patch."""
    if not isinstance(patch, dict):
        return patch
    out = dict(doc) if isinstance(doc, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge(out.get(key), value)
    return out


def main():
    root, python, cc = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    snippets = sorted((root / "tests/api/compile_fail").glob("*.c"))
    kitchen = json.loads((root / "tests/schemas/kitchen.json").read_text())
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        generated = {}

        def schema_dir(patch):
            """The kitchen schema with `patch` applied, generated once; its directory."""
            key = json.dumps(patch, sort_keys=True)
            if key not in generated:
                out = pathlib.Path(tmp) / f"s{len(generated)}"
                out.mkdir()
                (out / "kitchen.json").write_text(json.dumps(merge(kitchen, patch) if patch else kitchen))
                subprocess.run([python, str(root / "generator/ecsgen.py"), str(out / "kitchen.json"),
                                "--out", str(out)], check=True)
                generated[key] = out
            return generated[key]

        def compile_(snippet, patch):
            run = subprocess.run([*cc, "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only",
                                  f"-I{root / 'runtime'}", f"-I{schema_dir(patch)}", str(snippet)],
                                 capture_output=True, text=True)
            return run.returncode, run.stderr.replace("\u2018", "'").replace("\u2019", "'")  # gcc's quotes

        def patch_of(text, name):
            found = re.search(rf"/\* {name}: (.+?) \*/", text)
            return json.loads(found.group(1)) if found else None

        edits = [patch_of(s.read_text(), which) for s in snippets if s.name.startswith("edit_")
                 for which in ("before", "after")]
        for snippet in snippets:
            text = snippet.read_text()
            if snippet.name.startswith("ok_"):
                why = ""
                for patch in [None, *edits]:
                    rc, err = compile_(snippet, patch)
                    if rc != 0:
                        why += f"does not compile with the schema patched by {patch}:\n{err}"
                ok = not why
            else:
                expect = re.match(r"/\* expect: (.+?) \*/", text).group(1)
                why = ""
                if snippet.name.startswith("edit_"):
                    rc, err = compile_(snippet, patch_of(text, "before"))
                    if rc != 0:
                        why = f"does not compile before the edit:\n{err}"
                rc, err = compile_(snippet, patch_of(text, "after"))
                if rc == 0:
                    why += "compiles" + (" after the edit" if snippet.name.startswith("edit_") else "")
                elif expect not in err:
                    why += f"fails without '{expect}':\n{err}"
                ok = not why
            print(f"{snippet.name}: {'ok' if ok else why}")
            failures += not ok
    print(f"compile_fail: {len(snippets)} snippets, {failures} wrong")
    return 1 if failures or not snippets else 0


if __name__ == "__main__":
    sys.exit(main())
