#!/usr/bin/env python3
"""Floats as text: the C writer (ecs_json_format_real, through tests/json/float_text.c),
ecsgen-dump (dumplib.document.format_real) and the inspector (formatReal in
generator/templates/inspector.js, run by node) write every value of one corpus identically:
the fewest digits that read back bit-exact, plain from 1e-7 up to below 1e21. The corpus: the
edge cases (0, -0, subnormals, FLT_MAX, DBL_MAX, 1e21, 1e-7, 0.1, 1/3, integers up to 2^24 and
2^53, exact ties), values people write, and random bit patterns. float_text also saves a world
of every value, loads it and saves again: byte-identical, every value bit-exact.

Usage: test_float_text.py FLOAT_TEXT_PROGRAM [--locales]
With --locales, the same program runs under de_DE.UTF-8 (decimal comma) and ps_AF.UTF-8 (a
two-byte decimal point, U+066B) and must print exactly what it prints in the C locale (save
and load ignore the locale). Locales missing from the system are generated with localedef
into a temporary directory (LOCPATH); only when that is impossible does the test skip (77),
saying so loudly."""

import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "generator"))
from dumplib.document import format_real  # noqa: E402

LOCALES = ("de_DE.UTF-8", "ps_AF.UTF-8")

# What a person reads: value -> text, for f32 (True) and f64 (False).
EXPECTED = [
    (True, 100.0, "100"), (True, 730.0, "730"), (True, 0.1, "0.1"), (True, 1234567.0, "1234567"),
    (True, -2.5, "-2.5"), (True, 0.0, "0"), (True, -0.0, "-0"), (True, 16777216.0, "16777216"),
    (True, 1 / 3, "0.33333334"), (True, 3.4028234663852886e38, "3.4028235e+38"),
    (True, 1.401298464324817e-45, "1e-45"), (True, 1e-7, "1e-7"), (True, 1e-6, "0.000001"),
    (True, 2097152.25, "2097152.2"),  # an exact tie at 8 digits: to even, as printf
    (False, 100.0, "100"), (False, 0.1, "0.1"), (False, 1 / 3, "0.3333333333333333"),
    (False, 9007199254740992.0, "9007199254740992"), (False, 1e21, "1e+21"),
    (False, 1e20, "100000000000000000000"), (False, 1e-7, "1e-7"), (False, 1.5e-7, "1.5e-7"),
    (False, 0.000001, "0.000001"), (False, 5e-324, "5e-324"), (False, 1.7976931348623157e308, "1.7976931348623157e+308"),
    (False, -123.456, "-123.456"), (False, 2.5, "2.5"),
]


def bits(single, x):
    return struct.unpack("<I", struct.pack("<f", x))[0] if single else struct.unpack("<Q", struct.pack("<d", x))[0]


def value(single, b):
    return struct.unpack("<f", struct.pack("<I", b))[0] if single else struct.unpack("<d", struct.pack("<Q", b))[0]


def corpus():
    """[(single, bits)]: edge cases, round and everyday numbers, ties, then random bits."""
    rng = random.Random(29)
    values = []
    f32_edges = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
                 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x3F800000, 0x3EAAAAAB, 0x4B800000, 0x4B7FFFFF]
    f64_edges = [0, 1 << 63, 1, (1 << 63) | 1, 0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FEFFFFFFFFFFFFF,
                 0xFFEFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000,
                 0x3FF0000000000000, 0x3FD5555555555555, 0x4340000000000000, 0x433FFFFFFFFFFFFF]
    values += [(True, b) for b in f32_edges] + [(False, b) for b in f64_edges]
    values += [(single, bits(single, x)) for single, x, _ in EXPECTED]
    people = [0.1, 0.2, 0.3, 0.5, 1.5, 2.5, 3.14159, 9.81, 60.0, 100.0, 730.0, 1234567.0, 1e6, 1e7, 1e-3,
              1e-6, 1e-7, 1e-8, 1e20, 1e21, 1e22, 123456789.0, 0.000123, 1 / 3, 2 / 3, 1e-5, 999999.9, 33554432.0]
    for x in people:
        for s in (1, -1):
            values += [(True, bits(True, s * x)), (False, bits(False, s * x))]
            values += [(False, bits(False, s * value(True, bits(True, x))))]  # an f32's value as an f64
    for k in range(-30, 39):  # powers of ten and their neighbours
        for single in (True, False):
            b = bits(single, 10.0 ** k)
            values += [(single, b - 1), (single, b), (single, b + 1)]
    values += [(True, bits(True, float(i))) for i in (1 << 24, (1 << 24) - 1, (1 << 24) + 2, 12345678)]
    values += [(False, bits(False, float(i))) for i in (1 << 53, (1 << 53) - 1, (1 << 53) + 2, 2 ** 70)]
    # Exact ties (a value of p+1 significant digits ending in 5 whose p-digit neighbours both
    # read back): f32 from 2^21 with a .25/.75 part, f64 from 2^50 likewise.
    values += [(True, bits(True, 2097152.0 + k + q)) for k in range(0, 40, 3) for q in (0.25, 0.75)]
    values += [(False, bits(False, 2.0 ** 50 + k + q)) for k in range(0, 40, 3) for q in (0.25, 0.75)]
    values += [(True, rng.getrandbits(32)) for _ in range(3000)]
    values += [(False, rng.getrandbits(64)) for _ in range(3000)]
    values += [(True, rng.getrandbits(23) | (rng.randrange(100, 160) << 23)) for _ in range(1000)]  # plain range
    values += [(False, rng.getrandbits(52) | (rng.randrange(1000, 1090) << 52)) for _ in range(1000)]
    return values


def run(command, stdin, env=None):
    result = subprocess.run(command, input=stdin, capture_output=True, text=True, env=env, errors="surrogateescape")
    return result.returncode, result.stdout, result.stderr


def corpus_text(values):
    return "".join(f"f32 {b:08x}\n" if single else f"f64 {b:016x}\n" for single, b in values)


def make_locales(tmp):
    """LOCPATH for LOCALES (None: the system has them all), or a reason none could be made."""
    have = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout.lower().replace("utf8", "utf-8")
    if all(name.lower() in have.split() for name in LOCALES):
        return None, None
    if not shutil.which("localedef"):
        return None, "no localedef"
    for name in LOCALES:
        source, charmap = name.split(".")
        made = subprocess.run(["localedef", "-i", source, "-f", charmap, os.path.join(tmp, name)],
                              capture_output=True, text=True)
        if not os.path.isdir(os.path.join(tmp, name)):
            return None, f"localedef -i {source} -f {charmap} failed ({made.stderr.strip()[:200]}): install Debian's " \
                         "`locales` package (bash .ci/setup --test does)"
    return tmp, None


def main(argv):
    program = argv[1]
    values = corpus()
    stdin = corpus_text(values)
    code, out, err = run([program], stdin)
    if code != 0:
        print(f"float_text failed ({code}):\n{err}", file=sys.stderr)
        return 1
    lines, save = out.split("---\n", 1)
    c_text = lines.splitlines()
    failures = 0

    if "--locales" in argv:
        with tempfile.TemporaryDirectory(prefix="ecsgen-locales-") as tmp:
            locpath, why = make_locales(tmp)
            if why:
                print(f"\n*** SKIPPED: cannot get the locales {', '.join(LOCALES)}: {why} ***\n", file=sys.stderr)
                return 77
            env = dict(os.environ, LOCPATH=locpath) if locpath else None
            for name in LOCALES:
                code, other, err = run([program, name], stdin, env=env)
                if code != 0:
                    print(f"under {name}: float_text failed ({code}):\n{err}", file=sys.stderr)
                    failures += 1
                elif other != out:
                    diff = next(k for k, (a, b) in enumerate(zip(other.splitlines(), out.splitlines())) if a != b)
                    print(f"under {name}: line {diff + 1} is {other.splitlines()[diff]!r}, "
                          f"in the C locale {out.splitlines()[diff]!r}", file=sys.stderr)
                    failures += 1
                else:
                    print(f"under {name}: {len(values)} values and the save identical to the C locale's")
        return 1 if failures else 0

    # The three writers agree.
    js = subprocess.run(["node", os.path.join(HERE, "float_text.mjs"), os.path.join(ROOT, "generator", "templates", "inspector.js")],
                        input=stdin, capture_output=True, text=True)
    if js.returncode != 0:
        print(f"node failed:\n{js.stderr}", file=sys.stderr)
        return 1
    js_text = js.stdout.splitlines()
    assert len(c_text) == len(js_text) == len(values), (len(c_text), len(js_text), len(values))
    for (single, b), c, j in zip(values, c_text, js_text):
        x = value(single, b)
        kind = "f32" if single else "f64"
        if not math.isfinite(x):
            special = ("-NaN" if math.copysign(1, x) < 0 else "NaN") if math.isnan(x) else ("-Infinity" if x < 0 else "Infinity")
            if c != f'"{special}"':
                print(f"{kind} {b:x}: C writes {c}, expected the string \"{special}\"", file=sys.stderr)
                failures += 1
            continue
        p = format_real(x, single)
        if not (c == p == j):
            print(f"{kind} {b:x} ({x!r}): C {c!r}, ecsgen-dump {p!r}, inspector {j!r}", file=sys.stderr)
            failures += 1
            continue
        back = float(c)
        if (bits(single, back) if single else bits(False, back)) != b:
            print(f"{kind} {b:x}: {c} reads back as another value", file=sys.stderr)
            failures += 1
        if single and len(c.lstrip("-").replace(".", "").split("e")[0].strip("0")) > 9 or \
                len(c.lstrip("-").replace(".", "").split("e")[0].strip("0")) > 17:
            print(f"{kind} {b:x}: {c} has more digits than the type needs", file=sys.stderr)
            failures += 1
    for single, x, text in EXPECTED:
        got = format_real(value(single, bits(single, x)), single)
        c = c_text[values.index((single, bits(single, x)))]
        if got != text or c != text:
            print(f"{'f32' if single else 'f64'} {x!r}: expected {text}, ecsgen-dump {got}, C {c}", file=sys.stderr)
            failures += 1
    # The save holds the values as written above.
    for needle in ('"reals": {"s": 100,', '"reals": {"s": 0.1,', '"reals": {"s": 0, "d": 1e+21}', '"d": 0.3333333333333333}'):
        if needle.replace(": ", ":").replace(", ", ",") not in save.replace(": ", ":").replace(", ", ",").replace("\t", "").replace("\n", ""):
            print(f"the save lacks {needle}", file=sys.stderr)
            failures += 1
    print(f"{len(values)} values: C, ecsgen-dump and the inspector agree; save -> load -> save byte-identical, bit-exact"
          if not failures else f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
