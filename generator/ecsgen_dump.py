#!/usr/bin/env python3
"""ecsgen-dump: looks at saved worlds (the JSON of <name>_world_save) without a program.

    python3 generator/ecsgen_dump.py diff before.json after.json
    python3 generator/ecsgen_dump.py stats world.json
    python3 generator/ecsgen_dump.py check world.json --schema schema/game.json
    python3 generator/ecsgen_dump.py diff recording.json 297 299
    python3 generator/ecsgen_dump.py frame recording.json -1 > last.json
"""

import argparse
import os
import signal
import sys

from ecsgenlib import interpreter

EXAMPLES = """\
commands:
  diff A B         what changed from A to B, one line per difference, by path:
                     entities[5v0].position.x: 1.5 -> 2
                     entities[9v1]: added {"position": {"x": 0, "y": 0}}
                   entities are matched by id; exit 0 same, 1 different, 2 trouble
  diff REC A B     the same between frames A and B of a recording (0 the oldest, -1 the newest)
  stats DUMP       schema, version, entities, entities per component, singletons; of a
                   recording: its frames, what changed in each, and the newest frame's stats
  frame REC K      frame K of a recording as an ordinary dump, on stdout (the text the
                   program's <name>_recorder_save_frame writes)
  check DUMP... --schema SCHEMA
                   would a program of SCHEMA load DUMP? The generated loader's rules and
                   messages (`DUMP: json.path: what is wrong`), older documents included:
                   renames and removals are reported, values read by today's types.
                   Up to 50 report lines are printed each; more are summarised, one
                   line per kind with entities[*] for the index (--each: every line,
                   --summary: always summarise).
                   Exit 0 loads, 1 refused, 2 trouble (bad schema, unreadable file)

See docs/debugging-with-dumps.md.
"""


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="ecsgen-dump", description="Diff, summarise and check saved ecsgen worlds (JSON dumps).",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version="ecsgen-dump " + _version(),
                        help="print the version (ecsgen-dump X.Y.Z) and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    diff = commands.add_parser("diff", help="what changed between two dumps (exit 0 same, 1 different, 2 trouble)")
    diff.add_argument("a", metavar="A", help="the earlier dump, e.g. before.json")
    diff.add_argument("b", metavar="B", help="the later dump, e.g. after.json")
    diff.add_argument("c", metavar="C", nargs="?", help="with a recording as A: diff REC FRAME_A FRAME_B")
    stats = commands.add_parser("stats", help="entities, entities per component, singletons")
    stats.add_argument("dump", metavar="DUMP", help="a dump, e.g. world.json")
    frame = commands.add_parser("frame", help="a frame of a recording as an ordinary dump, on stdout")
    frame.add_argument("recording", metavar="REC", help="a recording (<name>_recorder_save_all)")
    frame.add_argument("frame", metavar="K", help="the frame: 0 the oldest, -1 the newest")
    check = commands.add_parser("check", help="validate dumps against a schema as its loader would")
    check.add_argument("dumps", metavar="DUMP", nargs="+", help="dumps, e.g. world.json")
    check.add_argument("--schema", required=True, metavar="SCHEMA", help="the schema file, e.g. schema/game.json")
    check.add_argument("--lax", action="store_true",
                       help="as the load option lax: drop (and report) unknown components and fields "
                            "instead of refusing them")
    shown = check.add_mutually_exclusive_group()
    shown.add_argument("--each", dest="report", action="store_const", const="each",
                       help="print every report line (the default up to %d lines)" % SUMMARY_FROM)
    shown.add_argument("--summary", dest="report", action="store_const", const="summary",
                       help="summarise the report: one line per kind of line, with entities[*] for the entity's "
                            "index, how many and the first (the default from %d lines on)" % SUMMARY_FROM)
    return parser.parse_args(argv)


SUMMARY_FROM = 51  # report lines from which check summarises unless told --each


def _version():
    from ecsgenlib import VERSION
    return VERSION


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return {"diff": run_diff, "stats": run_stats, "check": run_check, "frame": run_frame}[args.command](args)
    except (RecursionError, MemoryError) as e:  # exit 1 means "different" or "refused": never this
        _err(f"ecsgen-dump: {type(e).__name__}: cannot finish ({e or 'out of memory'})")
        return 2


def _out(line):
    """A line on stdout as bytes (a dump's text may hold bytes that are not UTF-8; keys and
    values are escaped as the loader escapes them, so none drives the terminal)."""
    sys.stdout.flush()
    sys.stdout.buffer.write((line if isinstance(line, bytes) else line.encode("utf-8", "surrogateescape")) + b"\n")


def _err(line):
    sys.stdout.flush()
    sys.stderr.flush()
    sys.stderr.buffer.write((line if isinstance(line, bytes) else line.encode("utf-8", "surrogateescape")) + b"\n")
    sys.stderr.buffer.flush()


def _shown(path):
    from dumplib import ctext
    return ctext.escape(os.fsencode(path))[0]


def run_diff(args):
    from dumplib import document, diff, recording
    from ecsgenlib.errors import report
    try:
        a = document.read(args.a)
        if recording.is_recording(a):
            if args.c is None:
                raise document.DumpError(args.a, "a recording: name two of its frames (diff REC FRAME_A FRAME_B)")
            name_a, name_b = f"{args.a} frame {args.b}", f"{args.a} frame {args.c}"
            lines = diff.diff(name_a, recording.pick(args.a, a, args.b), name_b, recording.pick(args.a, a, args.c))
        elif args.c is not None:
            raise document.DumpError(args.a, "not a recording: diff A B takes two dumps")
        else:
            b = document.read(args.b)
            if recording.is_recording(b):
                raise document.DumpError(args.b, "a recording: diff REC FRAME_A FRAME_B compares its frames")
            lines = diff.diff(args.a, a, args.b, b)
    except document.DumpError as e:
        report(e)
        return 2
    for line in lines:
        _out(line)
    return 1 if lines else 0


def run_stats(args):
    from dumplib import document, recording, stats
    from ecsgenlib.errors import report
    try:
        doc = document.read(args.dump)
        if recording.is_recording(doc):
            listed = recording.frames(args.dump, doc)
            lines = [f"recording of {len(listed)} frames (0 the oldest, {len(listed) - 1} the newest)"]
            for k, frame in enumerate(listed):
                count = len(frame.get("entities") or [])
                if k:
                    changed, added, removed = recording.changes(listed[k - 1], frame)
                    lines.append(f"frame {k}: {count} entities; {changed} changed, {added} added, {removed} removed")
                else:
                    lines.append(f"frame 0: {count} entities")
            lines.append(f"frame {len(listed) - 1}, the newest: " + "\n".join(stats.stats(args.dump, listed[-1])))
        else:
            lines = stats.stats(args.dump, doc)
    except document.DumpError as e:
        report(e)
        return 2
    _out(_shown(args.dump) + b": " + "\n".join(lines).encode("utf-8", "surrogateescape"))
    return 0


def run_frame(args):
    from dumplib import document, recording
    from ecsgenlib.errors import report
    try:
        doc = document.read(args.recording)
        if not recording.is_recording(doc):
            raise document.DumpError(args.recording, "not a recording (no \"recording\" and \"first\" keys)")
        text = recording.to_cjson(recording.pick(args.recording, doc, args.frame))
    except document.DumpError as e:
        report(e)
        return 2
    sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
    return 0


def run_check(args):
    interpreter.ensure_modules("ecsgen-dump", __file__)
    from dumplib import check, document
    from ecsgenlib import pipeline
    from ecsgenlib.errors import SCHEMA_PROBLEMS, report
    try:
        schema, _ = pipeline.build(args.schema)
    except SCHEMA_PROBLEMS as e:
        report(e)
        return 2
    status = 0
    for path in args.dumps:
        try:
            result = check.check_file(path, schema, args.lax)
        except document.Unreadable as e:
            report(e)
            status = 2
            continue
        except document.DumpError as e:
            report(e)
            status = max(status, 1)
            continue
        shown = _shown(path)
        _out(shown + f": loads: schema {schema.name} version {result.version}, {result.entities} entities".encode())
        if result.version < schema.version:
            _out(shown + f": version: document version {result.version} is older than schema {schema.name}'s "
                         f"{schema.version}: read through the schema's renames and removals (a program's migration "
                         f"callback would run first)".encode())
        summarise = args.report == "summary" or args.report is None and len(result.report) >= SUMMARY_FROM
        for line in summary(result.report) if summarise else result.report:
            _out(shown + b": " + line)
        if summarise:
            _out(shown + f": report: {len(result.report)} lines summarised (--each prints every one)".encode())
    return status


def summary(report):
    """The report's lines (bytes, escaped as the loader escapes them) grouped by what they say,
    the entity's index as entities[*], in the order each kind first appears: `entities[*].pos:
    renamed to place (3 entities, first entities[0])`; a kind seen once stays as it was."""
    import re
    kinds = {}
    for line in report:
        match = re.match(rb"entities\[(\d+)\]", line)
        key = b"entities[*]" + line[match.end():] if match else (line, len(kinds))  # only entities merge
        kinds.setdefault(key, []).append(line)
    out = []
    for key, lines in kinds.items():
        if len(lines) == 1:
            out.append(lines[0])
        else:
            path, _, what = key.partition(b": ")
            first = re.match(rb"entities\[\d+\]", lines[0]).group(0)
            out.append(path + b": " + what + f" ({len(lines)} entities, first ".encode() + first + b")")
    return out

if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `ecsgen-dump diff A B | head` ends quietly
    sys.exit(main())
