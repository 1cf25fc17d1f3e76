#!/usr/bin/env python3
"""Every symbol the given object files or libraries export starts with one of the given
prefixes (several generated ECSs and the runtime link into one program without clashes).

    check_symbols.py --prefix game_ --prefix ecs_ lib1.a lib2.a
"""

import argparse
import subprocess
import sys


# AddressSanitizer adds one `__odr_asan.<global>` symbol per exported global (its
# one-definition-rule check); what matters is the global it names.
SANITIZER_PREFIX = "__odr_asan."


def exported(path):
    """Names of the defined external symbols of an object file or archive (nm -g)."""
    result = subprocess.run(["nm", "-g", "--defined-only", "-P", path],
                            capture_output=True, text=True, check=True)
    names = []
    for line in result.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and not line.endswith(":"):  # "lib.a[x.o]:" headers have no type
            names.append(parts[0].removeprefix(SANITIZER_PREFIX))
    return names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prefix", action="append", required=True)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    bad = []
    total = 0
    for path in args.files:
        for name in exported(path):
            total += 1
            if not name.startswith(tuple(args.prefix)):
                bad.append(f"{path}: {name}")
    for line in bad:
        print("unprefixed symbol:", line)
    print(f"{total} exported symbols, {len(bad)} without a prefix ({', '.join(args.prefix)})")
    # An empty list would prove nothing: each prefix must actually be in use.
    names = [n for path in args.files for n in exported(path)]
    unused = [p for p in args.prefix if not any(n.startswith(p) for n in names)]
    for p in unused:
        print("no symbol starts with", p)
    return 1 if bad or unused or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
