"""Schema file in, file texts out: read, check, model, render. main() alone writes."""

import os
import sys

from . import loader, model, render, writer


def generate(schema_file):
    """({file name: text}, [input files]) for a schema; raises SchemaError(s), writes nothing."""
    display = os.path.relpath(schema_file) if not os.path.isabs(schema_file) else schema_file
    document = loader.read_json(schema_file, display)
    loader.check_structure(document, display)
    schema = model.build_model(document, display)
    schema.source_name = os.path.basename(schema_file)
    return render.render(schema), [os.path.abspath(schema_file)] + generator_files()


def generator_files():
    """The generator's own files: editing any of them must regenerate."""
    here = os.path.dirname(os.path.abspath(__file__))
    modules = sorted(os.path.join(here, f) for f in os.listdir(here) if f.endswith(".py"))
    return [os.path.abspath(sys.argv[0]), loader.SCHEMA_OF_SCHEMAS, *modules, *render.template_files()]


def write_outputs(directory, outputs, depfile, inputs):
    """Writes every output (only after all rendered), then the depfile."""
    for name in sorted(outputs):
        writer.write_if_changed(os.path.join(directory, name), outputs[name])
    if depfile:
        targets = " ".join(_escape(os.path.join(directory, name)) for name in sorted(outputs))
        deps = " ".join(_escape(p) for p in inputs)
        writer.write_if_changed(depfile, f"{targets}: {deps}\n")


def _escape(path):
    return path.replace(" ", "\\ ")
