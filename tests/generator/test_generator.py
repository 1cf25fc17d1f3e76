#!/usr/bin/env python3
"""Generator tests: golden output, determinism, no needless rewrites, the depfile, the CLI,
and the corpus of bad schemas (bad/NAME.json must fail with exactly bad/NAME.err, exit 1,
and write nothing)."""

import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ECSGEN = os.path.join(ROOT, "generator", "ecsgen.py")
BAD = os.path.join(HERE, "bad")
sys.path.insert(0, os.path.join(ROOT, "generator"))
from ecsgenlib import outputs  # noqa: E402  the output registry: which files --out writes
from refresh_generated import whole_schemas  # noqa: E402  the schemas generated/ holds (beside this file)
GAME_FILES = sorted(outputs.out_files("game"))  # game_ecs.c, game_ecs.h


def run_ecsgen(*args, cwd=None, env=None):
    return subprocess.run([sys.executable, ECSGEN, *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


def snapshot(directory):
    """{name: (bytes, mtime_ns)} of every file in directory."""
    out = {}
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        with open(path, "rb") as f:
            out[name] = (f.read(), os.stat(path).st_mtime_ns)
    return out


class GeneratorTest(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.mkdtemp(prefix="ecsgen-test-")

    def tearDown(self):
        shutil.rmtree(self.out)

    def test_golden_generated_is_fresh(self):
        schemas = whole_schemas()
        self.assertTrue(schemas)
        for schema in schemas:
            docs = os.path.join(self.out, os.path.basename(schema)[:-5] + ".md")
            result = run_ecsgen(schema, "--out", self.out, "--docs", docs)
            self.assertEqual(result.returncode, 0, result.stderr)
        produced = sorted(os.listdir(self.out))
        # Every checked-in file comes from a schema: nothing left behind from a removed one.
        self.assertEqual(sorted(os.listdir(os.path.join(ROOT, "generated"))), produced)
        for name in produced:
            with open(os.path.join(ROOT, "generated", name), encoding="utf-8") as a, \
                    open(os.path.join(self.out, name), encoding="utf-8") as b:
                golden, fresh = a.read(), b.read()
            if golden != fresh:
                diff = difflib.unified_diff(golden.splitlines(True), fresh.splitlines(True),
                                            f"generated/{name}", f"{name} as generated now")
                self.fail(f"generated/{name} is stale: run `meson compile -C build refresh-generated`; "
                          "the first lines of the difference:\n" + "".join(list(diff)[:40]))

    def test_same_schema_same_bytes_whatever_the_hash_seed(self):
        texts = []
        for seed in ("1", "2"):
            out = os.path.join(self.out, seed)
            os.mkdir(out)
            env = dict(os.environ, PYTHONHASHSEED=seed)
            result = run_ecsgen(os.path.join(ROOT, "schema", "game.json"), "--out", out, env=env)
            self.assertEqual(result.returncode, 0, result.stderr)
            texts.append({k: v[0] for k, v in snapshot(out).items()})
        self.assertEqual(texts[0], texts[1])
        self.assertEqual(sorted(texts[0]), GAME_FILES)

    def test_unchanged_output_is_not_rewritten(self):
        schema = os.path.join(ROOT, "schema", "game.json")
        self.assertEqual(run_ecsgen(schema, "--out", self.out).returncode, 0)
        before = snapshot(self.out)
        self.assertEqual(run_ecsgen(schema, "--out", self.out).returncode, 0)
        self.assertEqual(snapshot(self.out), before)  # same bytes and same mtimes

    def test_changed_output_is_replaced_without_leftovers(self):
        schema = os.path.join(ROOT, "schema", "game.json")
        with open(os.path.join(self.out, "game_ecs.h"), "w") as f:
            f.write("old\n")
        self.assertEqual(run_ecsgen(schema, "--out", self.out).returncode, 0)
        self.assertEqual(sorted(os.listdir(self.out)), GAME_FILES)  # no temp files
        with open(os.path.join(self.out, "game_ecs.h")) as f:
            self.assertIn("#ifndef GAME_ECS_H", f.read())

    def test_header_guards_are_braced(self):
        """Every if/for/while body in a generated header is a { block }: for a one-statement
        body followed by another statement, gcc's -Wmisleading-indentation (in -Wall) reads
        the header's lines again through its line cache, which doubled the time of a file
        that only includes a 100-component header (docs/performance.md, "Rebuild time")."""
        schemas = whole_schemas() + [os.path.join(ROOT, "tests", *p) for p in
                                     (("relations", "rel.json"), ("views", "nested.json"), ("schemas", "kitchen.json"))]
        guard = re.compile(r"^\s*(?:(?:else )?if|for|while) \(")
        for schema in schemas:
            result = run_ecsgen(schema, "--out", self.out)
            self.assertEqual(result.returncode, 0, result.stderr)
        headers = glob.glob(os.path.join(self.out, "*_ecs.h"))
        self.assertGreaterEqual(len(headers), len(schemas))
        for header in headers:
            with open(header, encoding="utf-8") as f:
                in_macro = False
                for number, line in enumerate(f, 1):
                    macro_line = in_macro or line.lstrip().startswith("#define")
                    in_macro = line.rstrip().endswith("\\")
                    if macro_line:
                        continue  # a macro's lines: gcc does not look at what a macro expands to
                    unbraced = re.match(r"^\s*else (?!\{|if )", line)
                    if guard.match(line):
                        depth, end = 0, None
                        for k, ch in enumerate(line):
                            depth += ch == "("
                            if ch == ")":
                                depth -= 1
                                if depth == 0:
                                    end = k
                                    break
                        rest = line[end + 1:].strip() if end is not None else "{"
                        unbraced = unbraced or (rest and not rest.startswith("{"))
                    self.assertFalse(unbraced, f"{os.path.basename(header)}:{number}: a guarded statement without braces: {line.strip()}")

    def test_banner_names_the_schema(self):
        self.assertEqual(run_ecsgen(os.path.join(ROOT, "schema", "game.json"), "--out", self.out).returncode, 0)
        for name in GAME_FILES:
            with open(os.path.join(self.out, name)) as f:
                first = f.readline()
            self.assertIn("game.json", first)
            self.assertIn("Do not edit", first)
        # The header names the generator's version, which is the runtime's (runtime/ecs_version.h),
        # and checks it (tests/api/compile_fail/bad_runtime_version.c: another version fails).
        with open(os.path.join(ROOT, "runtime", "ecs_version.h")) as f:
            version = ".".join(re.findall(r"^#define ECS_VERSION_(?:MAJOR|MINOR|PATCH) (\d+)$", f.read(), re.M))
        with open(os.path.join(self.out, "game_ecs.h")) as f:
            text = f.read()
        self.assertIn(f"generated by ecsgen {version}.", text.splitlines()[0])
        major, minor, patch = version.split(".")
        self.assertIn(f"ECS_VERSION_MAJOR != {major} || ECS_VERSION_MINOR != {minor} || ECS_VERSION_PATCH != {patch}", text)

    def test_depfile_lists_every_input_and_nothing_else(self):
        depfile = os.path.join(self.out, "game.d")
        schema = os.path.join(ROOT, "schema", "game.json")
        self.assertEqual(run_ecsgen(schema, "--out", self.out, "--depfile", depfile).returncode, 0)
        with open(depfile) as f:
            targets, deps = f.read().split(": ", 1)
        self.assertEqual(sorted(targets.split()), [os.path.join(self.out, n) for n in GAME_FILES])
        expected = [schema, ECSGEN, os.path.join(ROOT, "generator", "ecsgen.schema.json"),
                    os.path.join(ROOT, "runtime", "ecs_version.h")]  # the version, written once
        expected += glob.glob(os.path.join(ROOT, "generator", "ecsgenlib", "*.py"))
        for pattern in ("*.j2", "*.js", "*.css"):  # the inspector's script and style are inlined
            expected += glob.glob(os.path.join(ROOT, "generator", "templates", pattern))
        self.assertEqual(sorted(deps.split()), sorted(os.path.abspath(p) for p in expected))

    def test_check_validates_without_writing(self):
        result = run_ecsgen(os.path.join(ROOT, "schema", "game.json"), "--check")
        self.assertEqual((result.returncode, os.listdir(self.out)), (0, []))
        result = run_ecsgen("unknown_type.json", "--check", cwd=BAD)
        self.assertEqual(result.returncode, 1)
        self.assertIn("did you mean 'f32'?", result.stderr)

    def test_cli_errors(self):
        result = run_ecsgen(os.path.join(ROOT, "schema", "game.json"))
        self.assertEqual(result.returncode, 2)
        self.assertIn("--out DIR is required", result.stderr)
        # A missing --out directory is made, with its parents, but only for a valid schema.
        made = os.path.join(self.out, "made", "here")
        result = run_ecsgen(os.path.join(BAD, "enum_value_count.json"), "--out", made)
        self.assertEqual(result.returncode, 1)
        self.assertFalse(os.path.exists(os.path.join(self.out, "made")))
        result = run_ecsgen(os.path.join(ROOT, "schema", "game.json"), "--out", made)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(sorted(os.listdir(made)), GAME_FILES)
        result = run_ecsgen(os.path.join(ROOT, "schema", "game.json"), "--out", os.path.join(made, "game_ecs.h"))
        self.assertEqual(result.returncode, 2)
        self.assertIn("not a directory", result.stderr)
        result = run_ecsgen(os.path.join(self.out, "missing.json"), "--out", self.out)
        self.assertEqual(result.returncode, 1)
        self.assertIn("missing.json: cannot read the schema", result.stderr)

    def test_an_output_that_cannot_be_written_replaces_no_other(self):
        # game_ecs.h is a directory: game_ecs.c (written first, in name order) must not be
        # replaced either, or the pair would be out of step.
        schema = os.path.join(ROOT, "schema", "game.json")
        os.mkdir(os.path.join(self.out, "game_ecs.h"))
        with open(os.path.join(self.out, "game_ecs.c"), "w") as f:
            f.write("old\n")
        depfile = os.path.join(self.out, "game.d")
        result = run_ecsgen(schema, "--out", self.out, "--depfile", depfile)
        self.assertEqual((result.returncode, result.stdout), (1, ""))
        self.assertEqual(result.stderr, os.path.join(self.out, "game_ecs.h") + ": cannot write: it is a directory\n")
        self.assertEqual(sorted(os.listdir(self.out)), ["game_ecs.c", "game_ecs.h"])  # no temp files, no depfile
        with open(os.path.join(self.out, "game_ecs.c")) as f:
            self.assertEqual(f.read(), "old\n")

    def test_an_unwritable_out_is_a_clean_error(self):
        # As root no directory is read-only to us, so use places no file can be made in:
        # /proc/self (the kernel's), below a regular file, and a 555 directory when not root.
        schema = os.path.join(ROOT, "schema", "game.json")
        blocker = os.path.join(self.out, "file")
        with open(blocker, "w") as f:
            f.write("x\n")
        cases = [("/proc/self", "/proc/self/game_ecs.c: cannot write in /proc/self: No such file or directory\n"),
                 (os.path.join(blocker, "sub"),
                  f"{blocker}/sub/game_ecs.c: cannot make the directory {blocker}: Not a directory\n")]
        if os.geteuid() != 0:
            locked = os.path.join(self.out, "locked")
            os.mkdir(locked, 0o555)
            cases.append((locked, f"{locked}/game_ecs.c: cannot write in {locked}: Permission denied\n"))
        for out, expected in cases:
            with self.subTest(out):
                result = run_ecsgen(schema, "--out", out)
                self.assertEqual((result.returncode, result.stderr, result.stdout), (1, expected, ""))
        self.assertEqual(sorted(os.listdir(self.out)), sorted(["file"] + (["locked"] if len(cases) > 2 else [])))

    def test_directories_made_for_outputs_are_removed_when_writing_fails(self):
        schema = os.path.join(ROOT, "schema", "game.json")
        os.mkdir(os.path.join(self.out, "game.d"))
        result = run_ecsgen(schema, "--out", os.path.join(self.out, "new", "dir"),
                            "--depfile", os.path.join(self.out, "game.d"))
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(os.listdir(self.out), ["game.d"])

    def test_outputs_follow_the_umask(self):
        """Outputs are made as open() would make them, 0666 less the umask (they were 0644
        whatever the umask: a group-shared checkout under umask 002 lost group write)."""
        schema = os.path.join(ROOT, "schema", "game.json")
        for mask, mode in ((0o027, 0o640), (0o002, 0o664), (0o077, 0o600)):
            out = os.path.join(self.out, oct(mask))
            result = subprocess.run([sys.executable, ECSGEN, schema, "--out", out, "--docs", os.path.join(out, "g.md")],
                                    capture_output=True, text=True, preexec_fn=lambda: os.umask(mask))
            self.assertEqual(result.returncode, 0, result.stderr)
            for name in GAME_FILES + ["g.md"]:
                self.assertEqual(oct(os.stat(os.path.join(out, name)).st_mode & 0o777), oct(mode), (mask, name))

    def test_devices_fifos_and_huge_files_are_refused(self):
        """A schema or an output that is not a regular file is refused at once: /dev/zero
        as a schema grew memory until the OOM killer, `--docs /dev/zero` raised MemoryError
        (the unchanged-output check read it), a FIFO waited for a writer forever."""
        schema = os.path.join(ROOT, "schema", "game.json")
        fifo = os.path.join(self.out, "fifo")
        os.mkfifo(fifo)
        huge = os.path.join(self.out, "huge.json")
        with open(huge, "wb") as f:
            f.truncate((64 << 20) + 1)  # sparse: 64 MiB of zeros and one byte more
        cases = [
            ((os.devnull.replace("null", "zero"), "--check"),
             "/dev/zero: cannot read the schema: not a regular file: it is a device (a schema is a JSON file)\n"),
            ((fifo, "--check"), f"{fifo}: cannot read the schema: not a regular file: it is a FIFO (pipe) "
                                "(a schema is a JSON file)\n"),
            ((huge, "--check"), f"{huge}: cannot read the schema: larger than 67108864 bytes "
                                "(a schema of 10,000 components is about 2 MB)\n"),
            ((schema, "--docs", "/dev/zero"), "/dev/zero: cannot write: a device (outputs are written to a temporary "
                                              "file renamed over the path: give a file name)\n"),
            ((schema, "--docs", fifo), f"{fifo}: cannot write: a FIFO (pipe) (outputs are written to a temporary "
                                       "file renamed over the path: give a file name)\n"),
        ]
        for args, expected in cases:
            with self.subTest(args):
                result = subprocess.run([sys.executable, ECSGEN, *args], capture_output=True, text=True, timeout=20)
                self.assertEqual((result.returncode, result.stderr), (1, expected))
        self.assertEqual(sorted(os.listdir(self.out)), ["fifo", "huge.json"])

    def test_a_schema_nested_100000_deep_is_refused(self):
        schema = os.path.join(self.out, "deep.json")
        with open(schema, "w") as f:
            f.write('{"name": "deep", "components": {"a": {"fields": {"x": "f32"}}}, "doc": '
                    + "[" * 100000 + "]" * 100000 + "}")
        result = run_ecsgen(schema, "--out", self.out)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stderr, f"{schema}:1:135: nested more than 64 levels deep "
                                        "(a schema is a few objects and lists deep)\n")
        self.assertEqual(os.listdir(self.out), ["deep.json"])

    def test_bad_schemas_are_refused_exactly_and_write_nothing(self):
        cases = sorted(glob.glob(os.path.join(BAD, "*.json")))
        self.assertGreaterEqual(len(cases), 40)
        # A file already in the output directory must survive untouched.
        keep = os.path.join(self.out, "bad_ecs.h")
        with open(keep, "w") as f:
            f.write("keep me\n")
        before = snapshot(self.out)
        for case in cases:
            name = os.path.basename(case)
            with self.subTest(name):
                result = run_ecsgen(name, "--out", self.out, cwd=BAD)
                with open(case[:-5] + ".err", encoding="utf-8") as f:
                    expected = f.read()
                self.assertEqual(result.returncode, 1)
                self.assertEqual(result.stderr, expected)
                self.assertNotIn("Traceback", result.stderr)
                self.assertEqual(result.stdout, "")
                self.assertEqual(snapshot(self.out), before)

    def test_every_error_names_file_and_path(self):
        for err in sorted(glob.glob(os.path.join(BAD, "*.err"))):
            with open(err, encoding="utf-8") as f:
                for line in f:
                    name = os.path.basename(err)[:-4] + ".json"
                    with self.subTest(err):
                        self.assertTrue(line.startswith(name + ":"), line)


    def test_float_literals_at_the_edges(self):
        sys.path.insert(0, os.path.join(ROOT, "generator"))
        from ecsgenlib.c_literals import c_float
        import struct
        f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
        self.assertEqual(c_float(f32(3.4028234663852886e38), 32), "3.4028235e+38f")  # FLT_MAX
        self.assertEqual(c_float(f32(1e-45), 32), "1e-45f")  # smallest subnormal
        self.assertEqual(c_float(f32(0.1), 32), "0.1f")
        self.assertEqual(c_float(-0.0, 32), "-0.0f")
        self.assertEqual(c_float(5e-324, 64), "5e-324")
        self.assertEqual(c_float(-0.0, 64), "-0.0")

if __name__ == "__main__":
    unittest.main()
