"""A saved world's JSON text as the C loader sees it: numbers are doubles (as cJSON reads
them) that keep their text, objects keep their key order and duplicate keys, and the text is
refused where cJSON refuses it (NaN literals, a \\u0000 escape, a NUL byte)."""

import json
import math
import os
import re
import struct

MAX_BYTES = 256 << 20  # ECS_JSON_MAX_BYTES_DEFAULT: what world_load reads at most
EXACT = 1 << 53  # integers from here on are written as strings (ecs_json.c)
INDEX_MAX = 2 ** 32 - 2  # ECS_INDEX_MAX: the highest slot index
GENERATION_MAX = 2 ** 32 - 1


class DumpError(Exception):
    """`file: json.path: what is wrong`, as world_load reports it."""

    def __init__(self, file, message):
        super().__init__(f"{file}: {message}")
        self.file = file
        self.message = message


class Unreadable(DumpError):
    """The file could not be read at all (missing, a directory, no permission)."""


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


def read(path):
    """The document in file path, or DumpError (cannot read, too large, malformed)."""
    try:
        size = os.path.getsize(path)
        if size > MAX_BYTES:
            raise DumpError(path, f"larger than the {MAX_BYTES} bytes a load reads (the load option max_bytes raises it)")
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Unreadable(path, f"cannot open ({e.strerror})") from None
    if b"\0" in data:
        raise DumpError(path, "not a JSON text (contains a NUL byte)")
    try:
        return parse(data.decode("utf-8", "surrogateescape"))
    except DumpError as e:
        raise DumpError(path, e.message) from None


def parse(text):
    """The document in text; DumpError (with file None) naming the line and column."""
    if text.startswith("\ufeff"):  # cJSON skips a UTF-8 byte order mark
        text = text[1:]
    bad = _scan(text)
    if bad is not None:
        at, what = bad
        raise DumpError(None, f"{_position(text, at)}: {what}")
    decoder = json.JSONDecoder(object_pairs_hook=Obj, parse_float=Num, parse_int=Num)
    try:
        return decoder.decode(text)
    except json.JSONDecodeError as e:
        end = " (unexpected end)" if e.pos >= len(text.rstrip()) else ""
        raise DumpError(None, f"line {e.lineno}, column {e.colno}: malformed JSON{end}") from None


# A complete JSON string, for blanking out strings before looking for NaN/Infinity.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)


def _scan(text):
    """(index, reason) of the first thing outside JSON that Python's json would take: a
    NaN/Infinity literal (malformed), or a \\u0000 escape (C strings end at NUL); else None.
    A regular expression clears the usual document (no \\u0000, no N or I outside strings);
    only a text it cannot clear takes the walk below, which finds the first position."""
    if "\\u0000" not in text:
        outside = _STRING.sub('""', text)
        if "N" not in outside and "I" not in outside:
            return None
    return _walk(text)


def _walk(text):
    in_string = False
    k = 0
    while k < len(text):
        ch = text[k]
        if not in_string:
            if ch == '"':
                in_string = True
            elif ch in "NI":
                return k, "malformed JSON"
        elif ch == '"':
            in_string = False
        elif ch == "\\" and k + 1 < len(text):
            if text.startswith("u0000", k + 1):
                return k, "a string holds \\u0000 (C strings end at NUL; the rest would be lost)"
            k += 1
        k += 1
    return None


def _position(text, at):
    line = text.count("\n", 0, at) + 1
    return f"line {line}, column {at - (text.rfind(chr(10), 0, at) + 1) + 1}"


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
    """What v is, for "got ..." in messages, exactly as ecs_json.c describes it."""
    if isinstance(v, str):
        raw = c_bytes(v)
        shown = raw if len(raw) <= 40 else raw[:37]
        text = shown.decode("utf-8", "replace") if len(raw) <= 40 else shown.decode("utf-8", "ignore")
        text = "".join("?" if ord(ch) < 0x20 else ch for ch in text)
        return f'"{text}"' if len(raw) <= 40 else f'"{text}..."'
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


def to_text(v):
    """v as compact JSON, numbers as written: for diff and stats lines."""
    if isinstance(v, Num):
        return v.text
    if isinstance(v, Obj):
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {to_text(x)}" for k, x in v) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(to_text(x) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


def same(a, b):
    """Equal values: numbers by their doubles (1 and 1.0 agree, -0 and 0 do not)."""
    if isinstance(a, Num) and isinstance(b, Num):
        x, y = float(a), float(b)
        return x == y and math.copysign(1, x) == math.copysign(1, y) or (math.isnan(x) and math.isnan(y))
    if isinstance(a, Num) or isinstance(b, Num):
        return False
    if isinstance(a, Obj) and isinstance(b, Obj):
        return len(a) == len(b) and sorted(a.keys()) == sorted(b.keys()) and all(same(v, b.get(k)) for k, v in a)
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
