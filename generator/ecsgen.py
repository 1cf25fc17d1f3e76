#!/usr/bin/env python3
"""ecsgen: turns a JSON schema of components into a typed C ECS (see README.md).

    python3 generator/ecsgen.py schema/game.json --out generated/
"""

import argparse
import os
import sys

from ecsgenlib import interpreter, outputs

EXAMPLES = """\
examples:
  ecsgen schema/game.json --out build/          write {out_files}
  ecsgen schema/game.json --check               validate only: exit 0, or 1 with the errors
{opt_in}  ecsgen game.json --out gen/ --depfile gen/game.d   (what a meson custom_target runs)

A schema may include shared files ("include": ["shared.json"], relative to it): their
components, queries and prefabs merge in; a shared file has no "name". Errors read
`file: json.path: what is wrong (hint)`; exit status 1, and nothing is written.
The schema format: docs/schema.md; its JSON Schema: ecsgen.schema.json beside ecsgen.py.
"""


def _examples():
    lines = "".join(f"  ecsgen schema/game.json {o.example:<20}  {o.summary}\n" for o in outputs.opt_in())
    return EXAMPLES.format(out_files=" and ".join("build/" + f for f in outputs.out_files("game")), opt_in=lines)


def parse_args(argv):
    in_dir = " and ".join(outputs.out_files("<name>"))
    parser = argparse.ArgumentParser(
        prog="ecsgen",
        description=f"Generate a typed C ECS ({', '.join(outputs.out_files('<name>'))}) from a JSON schema.",
        epilog=_examples(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("schema", nargs="?", help="the schema file, e.g. schema/game.json")
    parser.add_argument(outputs.OUT_FLAG, metavar="DIR",
                        help=f"write {in_dir} into DIR, made if missing (only when the "
                             "schema is valid) (e.g. --out build/); unchanged files are not rewritten")
    for output in outputs.opt_in():
        parser.add_argument(output.flag, metavar="FILE", help=f"{output.what} (e.g. {output.example})")
    parser.add_argument("--check", action="store_true",
                        help="validate the schema and what it includes; write nothing "
                             "(e.g. ecsgen game.json --check)")
    parser.add_argument("--depfile", metavar="FILE",
                        help="also write a make-style depfile listing every input: the schema, the "
                             "files it includes and the generator's own (e.g. --depfile build/game.d)")
    for output in outputs.EXTRAS:
        parser.add_argument(output.flag, action="store_true", help=output.what)
    parser.add_argument("--list-outputs", action="store_true",
                        help="print the file names --out writes, one a line, and exit (what meson's "
                             "output lists are made from): {name} standing for the schema's name, or "
                             "with a schema given, that schema's (e.g. ecsgen game.json "
                             "--system-headers --list-outputs)")
    parser.add_argument("--version", action="version", version="ecsgen " + _version(),
                        help="print the version (ecsgen X.Y.Z) and exit")
    args = parser.parse_args(argv)
    if args.list_outputs:
        return args
    if args.schema is None:
        parser.error("the following arguments are required: schema")
    opt_in = {o.flag: getattr(args, outputs.dest(o)) for o in outputs.opt_in()}
    for output in outputs.EXTRAS:
        if getattr(args, outputs.dest(output)) and not args.out:
            parser.error(f"{output.flag} writes into the --out directory: add --out DIR")
    writes = [outputs.OUT_FLAG] * bool(args.out) + [flag for flag, path in opt_in.items() if path]
    if args.check and (writes or args.depfile):
        flags = [outputs.OUT_FLAG, *opt_in, "--depfile"]
        parser.error(f"--check writes nothing: drop {', '.join(flags[:-1])} and {flags[-1]}, or --check")
    if not args.check and not writes:
        others = "".join(f"{flag} FILE, " for flag in opt_in)
        parser.error(f"--out DIR is required (or {others}or --check to validate only)")
    if args.out and os.path.exists(args.out) and not os.path.isdir(args.out):
        parser.error(f"--out {args.out}: not a directory")
    for flag, path in opt_in.items():
        if path and os.path.isdir(path):
            parser.error(f"{flag} {path}: is a directory, expected a file name")
    return args


def _version():
    from ecsgenlib import VERSION
    return VERSION


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.list_outputs and args.schema is None:
        names = [o.file for o in outputs.in_out_dir()]
        names += outputs.split_c_files("{name}") * args.split_c + [outputs.SYSTEM_HEADER.file] * args.system_headers
        print("\n".join(names))
        return 0
    interpreter.ensure_modules("ecsgen", __file__)
    from ecsgenlib.errors import SCHEMA_PROBLEMS, report
    from ecsgenlib import pipeline
    from ecsgenlib.writer import WriteError
    try:
        if args.list_outputs:
            print("\n".join(pipeline.output_names(args.schema, args.system_headers, args.split_c)))
            return 0
        files = {outputs.dest(o): getattr(args, outputs.dest(o)) for o in outputs.opt_in()}
        written, inputs = pipeline.generate(args.schema, args.out, files, args.system_headers, args.split_c)
    except SCHEMA_PROBLEMS as e:
        report(e)
        return 1
    if args.check:
        return 0
    try:
        pipeline.write_outputs(written, args.depfile, inputs)
    except WriteError as e:
        report(e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
