"""The one error type of the generator: a problem at a place in a schema file."""

import difflib
import sys


class SchemaError(Exception):
    """`file: json.path: message (hint)`, the form every schema problem is reported in."""

    def __init__(self, file, path, message, hint=None):
        super().__init__(message)
        self.file = file
        self.path = path
        self.message = message
        self.hint = hint

    def __str__(self):
        where = f" {self.path}:" if self.path else ""
        text = f"{self.file}:{where} {self.message}"
        return _printable(f"{text} ({self.hint})" if self.hint else text)


class SchemaErrors(Exception):
    """Every problem found in one schema, in the order they were found (its text: one line
    each)."""

    def __init__(self, errors):
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = list(errors)


SCHEMA_PROBLEMS = (SchemaError, SchemaErrors)  # what building a model from a schema may raise


def report(error):
    """How ecsgen and ecsgen-dump print a problem (a SchemaError, every error of a
    SchemaErrors, a dump's DumpError, a WriteError): its text on stderr, one line per
    problem, each already saying `file: where: what`. A dump's error gives its line as bytes,
    escaped as the C loader escapes them (a dump may hold bytes that are not UTF-8)."""
    sys.stdout.flush()
    line = error.line() if callable(getattr(error, "line", None)) else str(error).encode("utf-8", "surrogateescape")
    sys.stderr.flush()
    sys.stderr.buffer.write(line + b"\n")
    sys.stderr.buffer.flush()


def _printable(text):
    """One line of visible text: a newline, form feed or NUL quoted from a hostile schema is
    shown as an escape (\\n, \\x0c, \\x00), so every error stays one line."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape", "backslashreplace").decode("ascii")
                   for ch in text)


def json_path(parts):
    """['components', 'pos', 'fields', 'x'] -> components.pos.fields.x; indexes as [3]."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + str(part)
    return text


def did_you_mean(word, choices):
    """A hint naming the closest choice, or None."""
    close = difflib.get_close_matches(str(word), sorted(choices), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None
