"""Reads a schema file: strict JSON, its structure checked against ecsgen.schema.json, and the
files it includes merged in (load())."""

import functools
import json
import os
import re

from . import files
from .errors import SchemaError, SchemaErrors, did_you_mean, json_path
from .types import describe_type_error, type_pattern

SCHEMA_OF_SCHEMAS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                 "ecsgen.schema.json")


class _DuplicateKey(ValueError):
    pass


def _reject_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def read_json(file, display):
    """The parsed document; SchemaError with line and column for malformed JSON."""
    try:
        # Newlines as text mode reads them (line and column numbers of errors)
        text = files.read_regular(file, MAX_BYTES).decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except files.NotRegular as e:
        raise SchemaError(display, "", f"cannot read the schema: {e}", "a schema is a JSON file") from None
    except files.TooLarge:
        raise SchemaError(display, "", f"cannot read the schema: larger than {MAX_BYTES} bytes",
                          "a schema of 10,000 components is about 2 MB") from None
    except OSError as e:
        raise SchemaError(display, "", f"cannot read the schema: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise SchemaError(display, "", f"not UTF-8 text (byte {e.start})", "save the schema as UTF-8") from None
    try:
        document = json.loads(text, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant)
    except RecursionError:  # only far deeper than MAX_DEPTH: _check_depth reports where
        document = None
    except json.JSONDecodeError as e:
        raise SchemaError(f"{display}:{e.lineno}:{e.colno}", "", f"malformed JSON: {e.msg}") from None
    except _DuplicateKey as e:
        line, col = _find_key(text, str(e))
        raise SchemaError(f"{display}:{line}:{col}", "", f"duplicate key '{e}'",
                          "JSON objects must not repeat a key: the second would silently win") from None
    except ValueError as e:
        raise SchemaError(display, "", f"malformed JSON: {e}", "JSON has no NaN or Infinity") from None
    _check_depth(text, display)
    _check_text(document, display)
    return document


def _check_text(document, display):
    """JSON's \\ud800-\\udfff escapes can spell a lone surrogate, which is not text (a doc or a name
    holding one could not be written into the generated files): refused, by path."""
    errors = []

    def shown(key):  # a path names the key with its surrogate escaped, as the JSON spelled it
        return key.encode("utf-8", "backslashreplace").decode("utf-8")

    def check(text, path):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:
            errors.append(SchemaError(display, path, f"not valid Unicode: a lone surrogate at character {e.start}",
                                      "an escape \\ud800-\\udbff spells a character only followed by one of \\udc00-\\udfff"))

    def walk(value, parts):
        if isinstance(value, str):
            check(value, json_path(parts))
        elif isinstance(value, dict):
            for key, item in value.items():
                here = parts + [shown(key)]
                check(key, json_path(here))
                walk(item, here)
        elif isinstance(value, list):
            for k, item in enumerate(value):
                walk(item, parts + [k])

    walk(document, [])
    if errors:
        raise SchemaErrors(errors)


# The most bytes a schema file may hold (a 10,000-component schema is about 2 MB): a device
# such as /dev/zero is refused as not a regular file, and a file is read to this at most.
MAX_BYTES = 64 << 20

# A schema is a few levels deep (components.pos.fields.x.default[0]); far deeper nesting is
# hostile, and would overflow Python's recursion in the parser or the structure check.
MAX_DEPTH = 64
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _check_depth(text, display):
    """SchemaError at the line and column where objects and lists nest deeper than MAX_DEPTH."""
    depth = 0
    for token in _NESTING.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                at = token.start()
                line = text.count("\n", 0, at) + 1
                column = at - (text.rfind("\n", 0, at) + 1) + 1
                raise SchemaError(f"{display}:{line}:{column}", "", f"nested more than {MAX_DEPTH} levels deep",
                                  "a schema is a few objects and lists deep")
        elif bracket in "]}":
            depth -= 1


def _find_key(text, key):
    """Line and column of the second occurrence of "key" (good enough for a message)."""
    needle = json.dumps(key)
    first = text.find(needle)
    second = text.find(needle, first + 1)
    at = second if second >= 0 else max(first, 0)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def _describe(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    return json.dumps(value)


_JSON_TYPE_NAMES = {"object": "an object", "array": "a list", "string": "a string",
                    "integer": "an integer", "number": "a number", "boolean": "true or false"}


def _translate(error, display):
    """One jsonschema error as a SchemaError with a plain message."""
    path = list(error.absolute_path)
    kind = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    value = error.instance
    if kind == "type":
        expected = error.validator_value
        expected = [expected] if isinstance(expected, str) else expected
        wanted = " or ".join(_JSON_TYPE_NAMES.get(t, t) for t in expected)
        return SchemaError(display, json_path(path), f"expected {wanted}, got {_describe(value)}")
    if kind == "additionalProperties":
        allowed = set(schema.get("properties", {}))
        extra = sorted(set(value) - allowed)
        key = extra[0] if extra else "?"
        hint = did_you_mean(key, allowed) or (f"allowed: {', '.join(sorted(allowed))}" if allowed else None)
        return SchemaError(display, json_path(path + [key]), f"unknown key '{key}'", hint)
    if kind == "required":
        missing = [k for k in error.validator_value if k not in value]
        return SchemaError(display, json_path(path), f"missing key '{missing[0]}'")
    if kind == "propertyNames":
        return SchemaError(display, json_path(path + [str(error.instance)]),
                           f"'{error.instance}' is not a valid name",
                           "names are C identifiers: a letter, then letters, digits or _")
    if kind in ("pattern", "maxLength") and schema.get("title") == "C identifier":
        if kind == "maxLength":
            return SchemaError(display, json_path(path), f"name '{value}' is longer than 63 characters")
        return SchemaError(display, json_path(path), f"'{value}' is not a valid name",
                           "names are C identifiers: a letter, then letters, digits or _")
    if kind == "pattern" and schema.get("title") == "field type":
        message, hint = describe_type_error(value)
        return SchemaError(display, json_path(path), message, hint)
    if kind in ("minimum", "maximum"):
        word = "at least" if kind == "minimum" else "at most"
        return SchemaError(display, json_path(path), f"must be {word} {error.validator_value}, got {_describe(value)}")
    if kind == "minProperties":
        return SchemaError(display, json_path(path), "must not be empty")
    if kind == "minItems":
        return SchemaError(display, json_path(path), "must list at least one name")
    if kind == "maxItems":
        return SchemaError(display, json_path(path), f"lists more than {error.validator_value} names")
    if kind == "const":
        return SchemaError(display, json_path(path), f"must be {_describe(error.validator_value)}, got {_describe(value)}")
    return SchemaError(display, json_path(path), error.message)


def _whole_string_pattern(validator, pattern, instance, schema):
    """JSON Schema's `pattern`, except that `$` does not also match before a trailing newline
    as Python's does: "pos\n" is not the identifier "pos", nor "f32\n" the type f32."""
    if not validator.is_type(instance, "string"):
        return
    match = re.search(pattern, instance)
    if match is None or (pattern.endswith("$") and match.end() != len(instance)):
        yield _jsonschema().ValidationError(f"{instance!r} does not match {pattern!r}")


def _jsonschema():
    """jsonschema, imported when a structure is first checked: a generator run checks in a
    child process (background.py), so that the parent never pays its import."""
    import jsonschema
    return jsonschema


@functools.cache
def _validator():
    jsonschema = _jsonschema()
    with open(SCHEMA_OF_SCHEMAS, encoding="utf-8") as f:
        meta = json.load(f)
    # The field types come from the type table (types.SCALARS); the file's own pattern is a
    # looser one for editors, so that a new type touches the table only.
    meta["definitions"]["type"]["pattern"] = type_pattern()
    return jsonschema.validators.extend(jsonschema.Draft7Validator, {"pattern": _whole_string_pattern})(meta)


def check_structure(document, display):
    """Validates against ecsgen.schema.json; SchemaErrors listing every problem, by path."""
    validator = _validator()
    found = sorted(validator.iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path])
    errors = []
    seen = set()
    for error in found:
        translated = _translate(error, display)
        if str(translated) not in seen:  # if/then/else can report one problem twice
            seen.add(str(translated))
            errors.append(translated)
    if errors:
        raise SchemaErrors(errors)


# Includes deeper than this are refused (a real chain is a few files; a hostile one of
# thousands would overflow Python's recursion).
MAX_INCLUDE_DEPTH = 32

# Keys an included (shared) file may hold: the parts of an ECS, not the identity of one.
FRAGMENT_KEYS = ("$schema", "doc", "include", "components", "queries", "prefabs", "systems")
SECTIONS = ("components", "queries", "prefabs", "systems")


class Loaded:
    """A schema with its includes merged: the document the model builds from, where each
    item came from ({(section, name): display file}), and every file read."""

    def __init__(self, document, origins, files):
        self.document = document
        self.origins = {key: display for key, (display, _) in origins.items()}
        self.origin_paths = {key: path for key, (_, path) in origins.items()}
        self.files = files


def display_name(path, relative=None):
    """How errors name a file: as given; included files as the schema was (relative or not)."""
    relative = not os.path.isabs(path) if relative is None else relative
    return os.path.relpath(path) if relative else os.path.abspath(path)


def load(schema_file, check=True):
    """The merged Loaded for a schema file; SchemaError(s) naming the file and JSON path.
    With check=False no file's structure is checked: only for a caller that has the same load
    made with the check elsewhere and takes its verdict first (background.py)."""
    display = display_name(schema_file)
    merged = {key: {} for key in SECTIONS}
    origins = {}
    files = []
    errors = []
    show = functools.partial(display_name, relative=not os.path.isabs(schema_file))
    checker = check_structure if check else lambda document, display: None
    root = _load_file(os.path.abspath(schema_file), display, merged, origins, files, errors, [], set(), show,
                      checker)
    if errors:
        raise SchemaErrors(errors)
    if "name" not in root:
        raise SchemaError(display, "", "missing key 'name'",
                          "a file without a name is a shared fragment: check a schema that includes it")
    if not merged["components"]:
        raise SchemaError(display, "", "missing key 'components'",
                          "a schema needs components, its own or included")
    document = {k: v for k, v in root.items() if k not in SECTIONS and k != "include"}
    for key in SECTIONS:
        if merged[key] or key == "components":
            document[key] = merged[key]
    return Loaded(document, origins, files)


def _load_file(path, display, merged, origins, files, errors, stack, done, show, check):
    """Reads one file and, depth first, what it includes; merges its items after theirs."""
    document = read_json(path, display)
    check(document, display)
    files.append(path)
    done.add(path)
    if stack:  # an included file: a fragment
        for key in document:
            if key not in FRAGMENT_KEYS:
                errors.append(SchemaError(display, key, f"'{key}' is not allowed in an included file",
                                          "a shared file holds components, queries and prefabs; "
                                          "the including schema sets name, version and max_entities"))
    for k, relative in enumerate(document.get("include", [])):
        target = os.path.normpath(os.path.join(os.path.dirname(path), relative))
        where = f"include[{k}]"
        chain_from = [*stack, path]
        if target in chain_from:
            chain = " -> ".join(show(p) for p in chain_from[chain_from.index(target):] + [target])
            errors.append(SchemaError(display, where, f"include cycle: {chain}",
                                      "a file cannot include itself, even indirectly"))
            continue
        if target in done:  # already merged through another include (a diamond): once is enough
            continue
        if len(chain_from) >= MAX_INCLUDE_DEPTH:
            errors.append(SchemaError(display, where, f"includes nested more than {MAX_INCLUDE_DEPTH} files deep",
                                      "include the shared files from fewer levels"))
            continue
        if not os.path.isfile(target):
            errors.append(_missing_include(display, where, relative, path))
            continue
        _load_file(target, show(target), merged, origins, files, errors, [*stack, path], done, show, check)
    for key in SECTIONS:
        for name, spec in document.get(key, {}).items():
            if (key, name) in origins:
                first = origins[(key, name)][0]
                errors.append(SchemaError(display, f"{key}.{name}",
                                          f"'{name}' is defined twice: here and in {first}: {key}.{name}",
                                          "rename one, or define it in one file only"))
                continue
            merged[key][name] = spec
            origins[(key, name)] = (display, path)
    return document


def _missing_include(display, where, relative, including):
    """The error for an include naming no file, with the closest .json file beside it as hint."""
    folder = os.path.dirname(os.path.normpath(os.path.join(os.path.dirname(including), relative)))
    near = sorted(f for f in os.listdir(folder)
                  if f.endswith(".json") and os.path.join(folder, f) != including) if os.path.isdir(folder) else []
    close = did_you_mean(os.path.basename(relative), near)
    if close and os.path.dirname(relative):  # keep the directory the user wrote
        close = close.replace("'", f"'{os.path.dirname(relative)}/", 1)
    return SchemaError(display, where, f"cannot read '{relative}': no such file",
                       close or f"include paths are relative to {os.path.basename(including)}")


def relocate(errors, loaded, display):
    """Errors the model reported against the merged document, re-pointed at the file that
    defines the item (components.x.fields.y -> the file that defines component x)."""
    out = []
    for error in errors:
        parts = error.path.split(".")
        origin = loaded.origins.get(tuple(parts[:2])) if len(parts) >= 2 else None
        if origin and origin != display and error.file == display:
            error = SchemaError(origin, error.path, error.message, error.hint)
        out.append(error)
    return out
