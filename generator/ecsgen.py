#!/usr/bin/env python3
"""ecsgen: turns a JSON schema of components into a typed C ECS (see README.md).

    python3 generator/ecsgen.py schema/game.json --out generated/
"""

import argparse
import os
import sys

REQUIRED_MODULES = ("jinja2", "jsonschema")
DEBIAN_PYTHON = "/usr/bin/python3"


def _ensure_modules():
    """Re-runs under Debian's python3 when this interpreter lacks jinja2 or jsonschema (a
    pyenv python3 first on PATH often does), else explains what to install."""
    missing = []
    for module in REQUIRED_MODULES:
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if not missing:
        return
    if (os.path.exists(DEBIAN_PYTHON) and os.path.realpath(sys.executable) != os.path.realpath(DEBIAN_PYTHON)
            and not os.environ.get("ECSGEN_REEXEC")):
        os.environ["ECSGEN_REEXEC"] = "1"
        os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON, os.path.abspath(__file__), *sys.argv[1:]])
    packages = " ".join("python3-" + m for m in missing)
    sys.exit(f"ecsgen: missing Python modules: {', '.join(missing)} (install them: apt-get install {packages})")


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="ecsgen",
        description="Generate a typed C ECS (<name>_ecs.h, <name>_ecs.c) from a JSON schema.",
        epilog="example: ecsgen schema/game.json --out build/  ->  build/game_ecs.h, build/game_ecs.c")
    parser.add_argument("schema", help="the schema file, e.g. schema/game.json")
    parser.add_argument("--out", metavar="DIR", help="directory for the generated files (must exist)")
    parser.add_argument("--check", action="store_true", help="validate the schema only; write nothing")
    parser.add_argument("--depfile", metavar="FILE",
                        help="also write a make-style depfile listing every input (for meson/ninja)")
    parser.add_argument("--version", action="version", version="ecsgen " + _version())
    args = parser.parse_args(argv)
    if not args.check and not args.out:
        parser.error("--out DIR is required (or --check to validate only)")
    if args.out and not os.path.isdir(args.out):
        parser.error(f"--out {args.out}: no such directory")
    return args


def _version():
    from ecsgenlib import VERSION
    return VERSION


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    _ensure_modules()
    from ecsgenlib.errors import SchemaError, SchemaErrors
    from ecsgenlib import pipeline
    try:
        outputs, inputs = pipeline.generate(args.schema)
    except SchemaError as e:
        print(e, file=sys.stderr)
        return 1
    except SchemaErrors as e:
        for error in e.errors:
            print(error, file=sys.stderr)
        return 1
    if args.check:
        return 0
    pipeline.write_outputs(args.out, outputs, args.depfile, inputs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
