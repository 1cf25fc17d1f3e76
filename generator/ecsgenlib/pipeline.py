"""Schema file in, file texts out: read, check, model, render. main() alone writes."""

import functools
import os
import sys

from . import VERSION_FILE, background, checks, loader, outputs, writer
from .errors import SchemaErrors


def generate(schema_file, out=None, files=None, system_headers=False, split_c=False):
    """({path: text}, [input files]) for a schema: the outputs of outputs.OUTPUTS that have a
    name in directory `out` (when given), there with `system_headers` also a header per system
    and with `split_c` the .c in parts, and each opt-in output at the path `files` maps its
    flag's dest to ({"docs": "game.md"}); raises SchemaError(s), writes nothing. The render runs
    beside the structure check (background.py)."""
    work = functools.partial(_generate, schema_file, out, files or {}, system_headers, split_c)
    return background.render_while_checking(work, lambda: loader.load(schema_file))


def _generate(schema_file, out, files, system_headers, split_c, checked):
    from . import render  # imports jinja2: here, in the process that renders (background.py)
    schema, inputs = build(schema_file, checked)
    split_c = bool(out and split_c)
    paths = [(o, os.path.join(out, o.file.format(name=schema.name))) for o in outputs.in_out_dir() if out]
    paths += [(o, files[outputs.dest(o)]) for o in outputs.opt_in() if files.get(outputs.dest(o))]
    rendered = {path: render.render_output(schema, o, os.path.basename(path), split=split_c) for o, path in paths}
    for output, file, variables in _extras(schema, system_headers and out, split_c):
        rendered[os.path.join(out, file)] = render.render_output(schema, output, file, **variables)
    return rendered, inputs + generator_files()


def output_names(schema_file, system_headers=False, split_c=False):
    """The file names --out writes for this schema (with `system_headers` its systems' too,
    with `split_c` the .c's other parts)."""
    schema, _ = build(schema_file)
    return outputs.out_files(schema.name) + [file for _, file, _ in _extras(schema, system_headers, split_c)]


def _extras(schema, system_headers, split_c):
    """(output, file name, its template's variables) of each file outputs.EXTRAS adds."""
    extras = []
    if split_c:
        extras += [(outputs.SPLIT_C, file, {"part": part, "split": True})
                   for part, file in zip(outputs.SPLIT_C_PARTS, outputs.split_c_files(schema.name))]
    if system_headers:
        extras += [(outputs.SYSTEM_HEADER, x.header_file, {"x": x}) for x in schema.systems]
    return extras


def build(schema_file, checked=True):
    """(the model, every schema file read: the schema and what it includes); unchecked, for
    background.py only, without the structure check."""
    display = loader.display_name(schema_file)
    loaded = loader.load(schema_file, check=checked)
    try:
        schema = checks.build_model(loaded.document, display)
    except SchemaErrors as e:
        raise SchemaErrors(loader.relocate(e.errors, loaded, display)) from None
    here = os.path.dirname(os.path.abspath(schema_file))
    relative = {key: os.path.relpath(os.path.abspath(path), here) for key, path in loaded.origin_paths.items()}

    def defined_in(section, item):  # an inline query is defined where its system is
        inline = getattr(item, "inline_of", None)
        return relative[("systems", inline) if inline else (section, item.name)]
    schema.sources(os.path.basename(schema_file), [os.path.relpath(path, here) for path in loaded.files[1:]],
                   defined_in)
    return schema, loaded.files


def generator_files():
    """The generator's own files: editing any of them must regenerate."""
    from . import render
    here = os.path.dirname(os.path.abspath(__file__))
    modules = sorted(os.path.join(here, f) for f in os.listdir(here) if f.endswith(".py"))
    return [os.path.abspath(sys.argv[0]), loader.SCHEMA_OF_SCHEMAS, VERSION_FILE, *modules, *render.template_files()]


def write_outputs(outputs, depfile, inputs):
    """Writes every output and the depfile, all or none (writer.write_all); WriteError."""
    files = dict(outputs)
    if depfile:
        targets = " ".join(_escape(path) for path in sorted(outputs))
        deps = " ".join(_escape(p) for p in inputs)
        files[depfile] = f"{targets}: {deps}\n"
    writer.write_all(files)


def _escape(path):
    return path.replace(" ", "\\ ")
