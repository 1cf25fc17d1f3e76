#!/usr/bin/env python3
"""ecsgen: turns a JSON schema of components into a typed C ECS (see README.md).

    python3 generator/ecsgen.py schema/game.json --out generated/
"""

import argparse
import os
import sys

from ecsgenlib import interpreter

EXAMPLES = """\
examples:
  ecsgen schema/game.json --out build/          write build/game_ecs.h and build/game_ecs.c
  ecsgen schema/game.json --check               validate only: exit 0, or 1 with the errors
  ecsgen schema/game.json --docs game.md        write a Markdown reference of the schema
  ecsgen schema/game.json --inspector game_inspector.html   write the world inspector page
  ecsgen game.json --out gen/ --depfile gen/game.d   (what a meson custom_target runs)

A schema may include shared files ("include": ["shared.json"], relative to it): their
components, queries and prefabs merge in; a shared file has no "name". Errors read
`file: json.path: what is wrong (hint)`; exit status 1, and nothing is written.
The schema format: docs/schema.md; its JSON Schema: ecsgen.schema.json beside ecsgen.py.
"""


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="ecsgen",
        description="Generate a typed C ECS (<name>_ecs.h, <name>_ecs.c) from a JSON schema.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("schema", help="the schema file, e.g. schema/game.json")
    parser.add_argument("--out", metavar="DIR",
                        help="write <name>_ecs.h and <name>_ecs.c into DIR, made if missing (only when the "
                             "schema is valid) (e.g. --out build/); unchanged files are not rewritten")
    parser.add_argument("--docs", metavar="FILE",
                        help="write a Markdown reference of the schema (components, fields, types, "
                             "defaults, queries, prefabs, generated names) to FILE (e.g. --docs game.md)")
    parser.add_argument("--inspector", metavar="FILE",
                        help="write the world inspector to FILE: one static HTML page that opens "
                             "this schema's saved worlds in a browser (e.g. --inspector game_inspector.html)")
    parser.add_argument("--check", action="store_true",
                        help="validate the schema and what it includes; write nothing "
                             "(e.g. ecsgen game.json --check)")
    parser.add_argument("--depfile", metavar="FILE",
                        help="also write a make-style depfile listing every input: the schema, the "
                             "files it includes and the generator's own (e.g. --depfile build/game.d)")
    parser.add_argument("--version", action="version", version="ecsgen " + _version(),
                        help="print the version (ecsgen X.Y.Z) and exit")
    args = parser.parse_args(argv)
    if args.check and (args.out or args.docs or args.inspector or args.depfile):
        parser.error("--check writes nothing: drop --out, --docs, --inspector and --depfile, or --check")
    if not args.check and not args.out and not args.docs and not args.inspector:
        parser.error("--out DIR is required (or --docs FILE, --inspector FILE, or --check to validate only)")
    if args.out and os.path.exists(args.out) and not os.path.isdir(args.out):
        parser.error(f"--out {args.out}: not a directory")
    if args.docs and os.path.isdir(args.docs):
        parser.error(f"--docs {args.docs}: is a directory, expected a file name")
    if args.inspector and os.path.isdir(args.inspector):
        parser.error(f"--inspector {args.inspector}: is a directory, expected a file name")
    return args


def _version():
    from ecsgenlib import VERSION
    return VERSION


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    interpreter.ensure_modules("ecsgen", __file__)
    from ecsgenlib.errors import SchemaError, SchemaErrors
    from ecsgenlib import pipeline
    from ecsgenlib.writer import WriteError
    try:
        outputs, inputs = pipeline.generate(args.schema, args.out, args.docs, args.inspector)
    except SchemaError as e:
        print(e, file=sys.stderr)
        return 1
    except SchemaErrors as e:
        for error in e.errors:
            print(error, file=sys.stderr)
        return 1
    if args.check:
        return 0
    try:
        pipeline.write_outputs(outputs, args.depfile, inputs)
    except WriteError as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
