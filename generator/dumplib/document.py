"""A saved world's JSON text as the C loader sees it: numbers are doubles (as cJSON reads
them) that keep their text, objects keep their key order and duplicate keys, and the text is
refused where and as the loader refuses it (ctext: cJSON's parse, then the RFC 8259 check)."""

import json
import math
import os
import re
import struct
import sys

from ecsgenlib import files

from . import ctext

# The loader reads 1000 levels of nesting; Python's json parser and the walks over values
# (to_text, same, diff) recurse once or twice per level.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))

MAX_BYTES = 256 << 20  # ECS_JSON_MAX_BYTES_DEFAULT: what world_load reads at most
EXACT = 1 << 53  # integers from here on are written as strings (ecs_json.c)
INDEX_MAX = 2 ** 32 - 2  # ECS_INDEX_MAX: the highest slot index
GENERATION_MAX = 2 ** 32 - 1


def _text(b):
    return b.decode("utf-8", "surrogateescape") if isinstance(b, bytes) else b


def _bytes(t):
    return t.encode("utf-8", "surrogateescape") if isinstance(t, str) else t


class DumpError(Exception):
    """`file: json.path: what is wrong`, as world_load reports it; message: str or bytes.
    line(): the bytes the loader's err.message would hold (file name escaped; after the
    file is read, "%.200s: %.300s" as ecs_json_error_in_file cuts it)."""

    read_error = False  # before the text is parsed: "FILE: message", no cut

    def __init__(self, file, message):
        super().__init__(f"{file}: {_text(message)}")
        self.file = file
        self.message = _text(message)
        self.raw = _bytes(message)

    def line(self):
        file = os.fsencode(self.file) if self.file is not None else b"(text)"
        if self.read_error:
            return (ctext.escape(file, 384)[0] + b": " + self.raw)[:ctext.MESSAGE_BYTES - 1]
        return ctext.in_file(file, self.raw)


class Unreadable(DumpError):
    """The file could not be read at all (missing, a directory, a device, no permission)."""

    read_error = True


class ReadError(DumpError):
    """Read, but refused before parsing (too large, a NUL byte)."""

    read_error = True


class Num(float):
    """A JSON number: its value as a double, and the text it was written as."""

    def __new__(cls, text):
        number = super().__new__(cls, text)
        number.text = text
        return number


class Obj(list):
    """A JSON object as its (key, value) pairs, in order, duplicates kept."""

    def get(self, key, default=None):
        """The first value under key, as cJSON_GetObjectItemCaseSensitive finds it."""
        for k, v in self:
            if k == key:
                return v
        return default

    def keys(self):
        return [k for k, _ in self]

    def first(self):
        """{key: its first value}: get() for every key, in one pass."""
        out = {}
        for k, v in self:
            out.setdefault(k, v)
        return out


def read(path):
    """The document in file path, or DumpError (cannot read, too large, malformed). Only a
    regular file is read (a device or FIFO is refused), and only to MAX_BYTES."""
    try:
        data = files.read_regular(path, MAX_BYTES)
    except files.TooLarge:
        raise ReadError(path, f"larger than the {MAX_BYTES} bytes a load reads (the load option max_bytes "
                              "raises it)") from None
    except files.NotRegular as e:
        raise Unreadable(path, f"cannot open ({e})") from None
    except OSError as e:
        raise Unreadable(path, f"cannot open ({e.strerror})") from None
    if b"\0" in data:
        raise ReadError(path, "not a JSON text (contains a NUL byte)")
    try:
        return parse(data)
    except DumpError as e:
        raise DumpError(path, e.raw) from None


class _Slow(Exception):
    """The fast path cannot vouch for the text: ctext decides."""


def _constant(name):  # NaN, Infinity: Python's json takes them, JSON and cJSON do not
    raise _Slow


_DECODER = json.JSONDecoder(object_pairs_hook=Obj, parse_float=Num, parse_int=Num, parse_constant=_constant)
_PLAIN_DECODER = json.JSONDecoder(object_pairs_hook=Obj, parse_float=Num, parse_int=Num)
# Escapes Python's json takes and the loader may not: \u0000, surrogates (cJSON refuses a
# lone one). A hit only sends the text the slow way; an escaped backslash before "u" too.
_RISKY = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")


def _depth(doc):
    """How deep a parsed document nests (a scalar 0, [] 1): a walk with its own stack."""
    if not isinstance(doc, list):
        return 0
    deepest, stack = 1, [(doc, 1)]
    while stack:
        v, depth = stack.pop()
        deepest = max(deepest, depth)
        for x in (y for _, y in v) if isinstance(v, Obj) else v:
            if isinstance(x, list):
                stack.append((x, depth + 1))
    return deepest


def parse(data):
    """The document in data (bytes; a str is taken as its UTF-8), read as the loader reads
    it; DumpError (with file None) naming the line and column as the loader does. Python's
    json parses a text the loader takes (no NaN, no risky escape, at most 1000 levels
    deep); any other text goes to ctext's walk for the verdict."""
    data = _bytes(data)
    text = data.decode("utf-8", "surrogateescape")
    try:
        if text.startswith("\ufeff"):  # a byte order mark, which both skip (cJSON from 4 bytes on)
            if len(data) < 4:
                raise _Slow
            text = text[1:]
        if _RISKY.search(text):
            raise _Slow
        doc = _DECODER.decode(text)
        if text.count("[") + text.count("{") > ctext.NESTING_LIMIT and _depth(doc) > ctext.NESTING_LIMIT:
            raise _Slow
        return doc
    except (_Slow, ValueError, RecursionError):
        pass
    fault = ctext.first_fault(data)
    if fault is not None:
        raise DumpError(None, fault)
    return _PLAIN_DECODER.decode(text)  # the loader takes it (a risky escape that was not one)


def c_bytes(s):
    """The bytes of string s as cJSON holds them (UTF-8; undecodable input bytes as they were)."""
    try:
        return s.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate spelt as a \\ud800 escape
        return s.encode("utf-8", "surrogatepass")


def format_real(d, single=False):
    """Finite d as the C writer writes it (ecs_json_format_real; f32 when single): the fewest
    significant digits that read back to the same bits (through a double, then a float for
    f32), laid out as JavaScript's Number.prototype.toString (plain from 1e-7 up to below
    1e21). The inspector's formatReal is the same rule; tests/json/test_float_text.py holds
    all three to one corpus. A non-finite d (a literal beyond a double's range) as C's %g."""
    if not math.isfinite(d):
        return "%g" % d
    sign = "-" if math.copysign(1.0, d) < 0 else ""
    if d == 0:
        return sign + "0"
    want = struct.pack("<f", d) if single else struct.pack("<d", d)
    for p in range(1, 18):
        mantissa, exponent = ("%.*e" % (p - 1, abs(d))).split("e")  # exact, ties to even, as C's
        digits, exp = mantissa.replace(".", ""), int(exponent)
        back = float(f"{sign}{digits}e{exp - (p - 1)}")
        try:
            if (struct.pack("<f", back) if single else struct.pack("<d", back)) == want:
                break
        except OverflowError:  # a float's infinity: the loader refuses it
            pass
    digits = digits.rstrip("0") or "0"
    k, n = len(digits), exp + 1  # the value is 0.DIGITS x 10^n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        text = digits[0] + ("." + digits[1:] if k > 1 else "") + f"e{'-' if n - 1 < 0 else '+'}{abs(n - 1)}"
    return sign + text


def describe(v):
    """What v is, for "got ..." in messages, exactly as ecs_json.c describes it (a string
    escaped by ecs_json_escape: 40 bytes, or 37 and "...")."""
    if isinstance(v, str):
        raw = c_bytes(v)
        shown, n = ctext.escape(raw, 42)
        if n <= 40:
            return f'"{_text(shown)}"'
        return f'"{_text(ctext.escape(raw, 38)[0])}..."'
    if isinstance(v, Num):
        return format_real(float(v))
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    return "an array" if isinstance(v, list) and not isinstance(v, Obj) else "an object"


def parse_decimal(s):
    """(negative, magnitude) for digits after an optional '-', below 2^64; else None."""
    negative = s.startswith("-")
    digits = s[1:] if negative else s
    if not digits or not all("0" <= ch <= "9" for ch in digits):
        return None
    digits = digits.lstrip("0") or "0"
    if len(digits) > 20:  # past 2^64 (and int() refuses over 4300 digits)
        return None
    value = int(digits)
    return None if value >= 1 << 64 else (negative, value)


def parse_id(v):
    """(index, generation) of an entity id string like "5v0", or None when it is not one."""
    if not isinstance(v, str) or "v" not in v:
        return None
    index_text, generation_text = v.split("v", 1)
    if len(c_bytes(index_text)) >= 24:
        return None
    index, generation = parse_decimal(index_text), parse_decimal(generation_text)
    if not index or index[0] or index[1] > INDEX_MAX:
        return None
    if not generation or generation[0] or generation[1] > GENERATION_MAX:
        return None
    return index[1], generation[1]


def format_id(index, generation):
    return f"{index}v{generation}"


# What json.dumps leaves raw and a terminal takes as a control: DEL and C1 controls, and
# bytes that are not UTF-8 (held as U+DC80..U+DCFF).
_RAW_CONTROLS = re.compile("[\x7f-\x9f\udc80-\udcff]")


def _control(m):
    ch = ord(m.group())
    return "\\x%02x" % (ch - 0xDC00) if ch >= 0xDC00 else "\\u%04x" % ch


def _string_text(s):
    return _RAW_CONTROLS.sub(_control, json.dumps(s, ensure_ascii=False))


def key_text(key):
    """A key for a path in diff and stats lines, escaped as the loader escapes its paths."""
    return _text(ctext.escape(c_bytes(key))[0])


def to_text(v):
    """v as compact JSON, numbers as written, strings with every control escaped: for diff
    and stats lines."""
    if isinstance(v, Num):
        return v.text
    if isinstance(v, Obj):
        return "{" + ", ".join(f"{_string_text(k)}: {to_text(x)}" for k, x in v) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(to_text(x) for x in v) + "]"
    if isinstance(v, str):
        return _string_text(v)
    return json.dumps(v)


def same(a, b):
    """Equal values: numbers by their doubles (1 and 1.0 agree, -0 and 0 do not)."""
    if isinstance(a, Num) and isinstance(b, Num):
        x, y = float(a), float(b)
        return x == y and math.copysign(1, x) == math.copysign(1, y) or (math.isnan(x) and math.isnan(y))
    if isinstance(a, Num) or isinstance(b, Num):
        return False
    if isinstance(a, Obj) and isinstance(b, Obj):
        if len(a) != len(b) or sorted(a.keys()) != sorted(b.keys()):
            return False
        first = a.first()
        other = b.first()
        return all(same(v, other[k]) for k, v in first.items())
    if isinstance(a, list) and isinstance(b, list) and not isinstance(a, Obj) and not isinstance(b, Obj):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def entities(file, doc):
    """[((index, generation), entity object)] of a document, in its order; DumpError when the
    document is not a world's shape (README.md "Saving and loading": an object whose "entities" is a list of objects with
    distinct ids)."""
    if not isinstance(doc, Obj):
        raise DumpError(file, f"(document): expected an object, got {describe(doc)}")
    if "entities" not in doc.keys():
        return []
    items = doc.get("entities")
    if not isinstance(items, list) or isinstance(items, Obj):
        raise DumpError(file, f"entities: expected an array, got {describe(items)}")
    out, seen = [], {}
    for k, o in enumerate(items):
        if not isinstance(o, Obj):
            raise DumpError(file, f"entities[{k}]: expected an object, got {describe(o)}")
        if "id" not in o.keys():
            raise DumpError(file, f'entities[{k}].id: missing (every entity has an id, e.g. "5v0")')
        parsed = parse_id(o.get("id"))
        if parsed is None:
            raise DumpError(file, f'entities[{k}].id: expected an entity id like "5v0", got {describe(o.get("id"))}')
        if parsed in seen:
            raise DumpError(file, f"entities[{k}].id: duplicate id {format_id(*parsed)}: already entities[{seen[parsed]}]")
        seen[parsed] = k
        out.append((parsed, o))
    return out
