"""Every file a schema can produce: OUTPUTS, one file each, and EXTRAS, the files --out DIR
adds with a flag for a fast rebuild (the .c in parts, a header per system). The command's
options (ecsgen.py), the pipeline (pipeline.generate), the renderer (render.py), the tests
and the meson output lists (`ecsgen --list-outputs`) all read them: a new output is a row
here and a template in generator/templates/. Standard library only: `--list-outputs`
without a schema runs before the generator checks for jinja2."""

from collections import namedtuple

# template: in generator/templates/, rendered with s (the model) and file (the output's
#   base name), plus what `context` adds.
# flag: the option that asks for it. "--out DIR" writes every output that has a `file`
#   name, into DIR; an opt-in output (file None) is written to the FILE its own flag names.
# file: the name in the --out directory, "{name}" standing for the schema's name.
# what, example, summary: the option's help, an example of it and what the example does
#   (a line of `ecsgen --help`).
# context: the name of a function in render.py giving more template variables, or None.
Output = namedtuple("Output", "template flag file what example summary context", defaults=(None,) * 5)

OUT_FLAG = "--out"

OUTPUTS = (
    Output("ecs.h.j2", OUT_FLAG, file="{name}_ecs.h"),
    Output("ecs.c.j2", OUT_FLAG, file="{name}_ecs.c"),
    Output("docs.md.j2", "--docs",
           what="write a Markdown reference of the schema (components, fields, types, defaults, queries, "
                "prefabs, generated names) to FILE",
           example="--docs game.md", summary="write a Markdown reference of the schema"),
    Output("inspector.html.j2", "--inspector",
           what="write the world inspector to FILE: one static HTML page that opens this schema's saved "
                "worlds in a browser",
           example="--inspector game_inspector.html", summary="write the world inspector page",
           context="inspector_context"),
)


# With --system-headers, --out DIR also writes one header per system of the schema ("{system}"
# standing for its name): what a file defining that system needs, without the world.
SYSTEM_HEADER = Output("system.h.j2", "--system-headers", file="{name}_system_{system}.h",
                       what="with --out, also write a header per system of the schema "
                            "({name}_system_{system}.h): a file that defines the system and includes "
                            "only that recompiles only when the system or its components change")

# With --split-c, --out DIR writes the .c as three files that compile in parallel: one per
# part here ("{part}" standing for its name) beside {name}_ecs.c, which keeps the rest.
SPLIT_C = Output("part.c.j2", "--split-c", file="{name}_ecs_{part}.c",
                 what="with --out, write the C code as three files that compile in parallel: {name}_ecs.c, "
                      "{name}_ecs_views.c (views and systems) and {name}_ecs_data.c (metadata, JSON, "
                      "snapshots)")
SPLIT_C_PARTS = ("views", "data")

# Outputs written into --out only when their flag (which takes no value) is given.
EXTRAS = (SPLIT_C, SYSTEM_HEADER)


def split_c_files(name):
    """The file names --split-c adds for a schema called `name`."""
    return [SPLIT_C.file.format(name=name, part=part) for part in SPLIT_C_PARTS]


def in_out_dir():
    """The outputs --out DIR writes, in the order meson lists them (the header first)."""
    return [o for o in OUTPUTS if o.file]


def opt_in():
    """The outputs written only when their own flag names a file."""
    return [o for o in OUTPUTS if not o.file]


def out_files(name):
    """The file names --out writes for a schema called `name`."""
    return [o.file.format(name=name) for o in in_out_dir()]


def dest(output):
    """The attribute argparse stores the output's flag in ("--docs" -> "docs")."""
    return output.flag.lstrip("-").replace("-", "_")
