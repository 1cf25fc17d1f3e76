"""Renders the model through the jinja2 templates into file texts (nothing is written here)."""

import functools
import hashlib
import os
import re

import jinja2

from .c_literals import c_string
from . import VERSION
from .model import meta_string

_BACKTICKS = re.compile("`+")
TEMPLATES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "templates")


def _comment(text):
    """Text safe inside a C block comment, on one line: no control characters (a NUL or a
    lone surrogate breaks the file), no "*/" or "/*" (gcc -Wcomment warns on the latter) and
    no "??" (a trigraph: "??/" at a line's end would splice the next line)."""
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in str(text)).split())
    while "*/" in text or "/*" in text or "??" in text:
        text = text.replace("*/", "* /").replace("/*", "/ *").replace("??", "? ?")
    return text


def _cell(text):
    """Text safe in one Markdown table cell."""
    return " ".join(str(text).replace("|", "\\|").split())


class _Cache(jinja2.FileSystemBytecodeCache):
    """jinja2's cache, where a file that cannot be read or written (a full disk, a damaged
    file) means compiling the template, never a failed run."""

    def load_bytecode(self, bucket):
        try:
            super().load_bytecode(bucket)
        except Exception:  # noqa: BLE001  any damage: compile instead
            bucket.reset()

    def dump_bytecode(self, bucket):
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _bytecode_cache():
    """Compiling the templates is most of a run's time (1.3 of 1.8 s under cProfile for a
    100-component schema); jinja2 keeps the compiled code in a private per-user directory of the system's
    temporary folder, keyed by each template's source. The file names carry a digest of this
    module, whose environment options change the compiled code too. None (compile every run)
    where that directory cannot be made."""
    with open(__file__, "rb") as f:
        digest = hashlib.sha1(f.read()).hexdigest()[:12]
    try:
        return _Cache(pattern=f"__ecsgen_{digest}_%s.cache")
    except (OSError, RuntimeError):
        return None


def _code(text, cell=False):
    """Text as one Markdown code span, shown as it is: file names come from the user, and a
    backtick, a line break or raw HTML (`x--><svg onload=...>.json`) in one must stay text.
    The fence is one backtick longer than any run inside; `cell`: in a table row, where a
    pipe ends the cell even in a code span unless escaped."""
    text = "".join(ch if ch.isprintable() else " " for ch in str(text))
    runs = [len(m) for m in _BACKTICKS.findall(text)]
    fence = "`" * (max(runs, default=0) + 1)
    if text.startswith(("`", " ")) or text.endswith(("`", " ")):
        text = f" {text} "  # CommonMark strips one space at each end when both have one
    if cell:
        text = text.replace("|", "\\|")
    return f"{fence}{text}{fence}"


@functools.lru_cache(maxsize=None)
def _environment():
    """One environment for every output, so a template that several include (_macros.j2,
    change.h.j2) is compiled once per run."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # HTML templates (the inspector page) escape every value unless marked safe; the C and
        # Markdown templates escape by their own filters (comment, c_string, code, cell).
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
        undefined=jinja2.StrictUndefined,
        bytecode_cache=_bytecode_cache(),
    )
    env.filters["comment"] = _comment
    env.filters["cell"] = _cell
    env.filters["code"] = _code
    env.filters["c_string"] = c_string
    env.filters["meta_string"] = meta_string
    env.globals["ecsgen_version"] = VERSION  # the banner and the runtime check
    env.globals["split"] = False  # ecs.c.j2: the whole .c (True: --split-c's first part)
    return env


def render_output(schema, output, file, **variables):
    """The text of one output (a row of outputs.OUTPUTS or EXTRAS) of the schema, `file` its
    base name; `variables`: more for its template (split=True: the .c in parts; part: which
    part, for part.c.j2; x: the system, for system.h.j2)."""
    env = _environment()
    extra = globals()[output.context](env, schema) if output.context else {}
    return env.get_template(output.template).render(s=schema, file=file, **variables, **extra)


def inspector_context(env, schema):
    """The inspector page is one self-contained HTML file: the schema's metadata embedded as
    JSON and the page's script and style (plain files beside the templates) inlined."""
    from .inspector import metadata
    script, style = (env.loader.get_source(env, name)[0] for name in ("inspector.js", "inspector.css"))
    return {"meta": metadata(schema), "script": script, "style": style}


def template_files():
    """Every template (and the inspector's script and style), for the build's dependency list."""
    return sorted(os.path.join(TEMPLATES, f) for f in os.listdir(TEMPLATES) if f.endswith((".j2", ".js", ".css")))
