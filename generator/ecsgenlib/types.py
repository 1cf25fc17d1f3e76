"""Field types: parsing `f32`, `char[16]`, `u8[4]`, the C each maps to, and checked defaults."""

import json
import math
import re
import struct


# name -> (C type, kind, bits)
SCALARS = {
    "bool": ("bool", "bool", 8),
    "i8": ("int8_t", "int", 8), "i16": ("int16_t", "int", 16),
    "i32": ("int32_t", "int", 32), "i64": ("int64_t", "int", 64),
    "u8": ("uint8_t", "uint", 8), "u16": ("uint16_t", "uint", 16),
    "u32": ("uint32_t", "uint", 32), "u64": ("uint64_t", "uint", 64),
    "f32": ("float", "float", 32), "f64": ("double", "float", 64),
    "entity": ("ecs_entity_t", "entity", 64),
}

MAX_LENGTH = 65535
# The most bytes a data component's (or singleton's) C struct may take: get/set/add pass a
# component by value, on the stack (docs/schema.md, Limits).
MAX_COMPONENT_BYTES = 1 << 20
# An array length: 1 to MAX_LENGTH, no leading zero.
_LENGTH = r"([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])"
assert MAX_LENGTH == 65535, "_LENGTH spells out 1..65535"


def type_pattern():
    """The regular expression a field type matches (JSON Schema's `pattern`, whole string):
    a scalar of the table or enum, or an array of a scalar or char. The generator validates
    with it; ecsgen.schema.json on disk has a looser one for editors."""
    scalars = "|".join(SCALARS)
    return f"^({scalars}|enum)$|^(char|{scalars})\\[{_LENGTH}\\]$"
# What people type for our scalar types, for "did you mean" hints.
ALIASES = {"float": "f32", "double": "f64", "int": "i32", "integer": "i32", "long": "i64",
           "short": "i16", "byte": "u8", "uint": "u32", "unsigned": "u32", "boolean": "bool",
           "string": "char[N]", "str": "char[N]", "char": "char[N]", "id": "entity", "ref": "entity"}
for _bits in (8, 16, 32, 64):
    ALIASES[f"int{_bits}_t"] = ALIASES[f"int{_bits}"] = f"i{_bits}"
    ALIASES[f"uint{_bits}_t"] = ALIASES[f"uint{_bits}"] = f"u{_bits}"


def _type_hint(word):
    """'did you mean' for a misspelt type, trying aliases (flaot -> float -> f32) too."""
    import difflib
    word = word.lower()
    if word in ALIASES:
        return f"did you mean '{ALIASES[word]}'?"
    choices = sorted(set(SCALARS) | set(ALIASES))
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if not close:
        return None
    return f"did you mean '{ALIASES.get(close[0], close[0])}'?"
_ARRAY = re.compile(r"^([a-z0-9]+)\[([0-9]+)\]$")


def describe_type_error(text):
    """(message, hint) for a type string that is not a valid type."""
    if not isinstance(text, str):
        return f"expected a type name, got {text!r}", None
    match = _ARRAY.match(text)
    if match:
        base, count = match.group(1), int(match.group(2))
        if base != "char" and base not in SCALARS:
            return f"unknown element type '{base}' in '{text}'", _type_hint(base)
        if count < 1 or count > MAX_LENGTH or match.group(2).startswith("0"):
            return f"array length {match.group(2)} in '{text}' is out of range", f"use 1 to {MAX_LENGTH}"
    if text.startswith("enum"):
        return f"unknown type '{text}'", "an enum is written {\"type\": \"enum\", \"values\": [...]}"
    return f"unknown type '{text}'", _type_hint(text) or \
        f"types: {', '.join(SCALARS)}, char[N], T[N], enum"


class DefaultError(ValueError):
    """A bad value inside a default; `where` continues the JSON path (e.g. "[2]")."""

    def __init__(self, message, where=""):
        super().__init__(message)
        self.where = where


class FieldType:
    """A parsed field type. `scalar` is a SCALARS key, 'char' or 'enum'; `length` is N for
    T[N] and char[N], else None; `values` are an enum's names."""

    def __init__(self, scalar, length=None, values=None):
        self.scalar = scalar
        self.length = length
        self.values = values or []

    @property
    def is_string(self):
        return self.scalar == "char"

    @property
    def is_array(self):
        return self.length is not None and not self.is_string

    @property
    def kind(self):
        if self.scalar in ("char", "enum"):
            return self.scalar
        return SCALARS[self.scalar][1]

    @property
    def spelling(self):
        return f"{self.scalar}[{self.length}]" if self.length is not None else self.scalar

    @property
    def bits(self):
        """A scalar's width in bits (bool: 8)."""
        return SCALARS[self.scalar][2]

    @property
    def c_layout(self):
        """(size, alignment) in bytes of a field of this type in C on LP64 (x86-64, aarch64):
        an enum of small values is an int, an entity a uint64_t."""
        element = 1 if self.is_string else 4 if self.scalar == "enum" else SCALARS[self.scalar][2] // 8
        return element * (self.length or 1), element

    def int_range(self):
        bits = SCALARS[self.scalar][2]
        if self.kind == "int":
            return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        return 0, (1 << bits) - 1

    def check_default(self, value):
        """The default normalised (floats rounded to f32 where needed), or raises ValueError
        with a message saying what was expected."""
        if self.is_string:
            if not isinstance(value, str):
                raise ValueError(f"expected a string for {self.spelling}, got {_show(value)}")
            size = len(value.encode("utf-8"))  # (loader.read_json refused lone surrogates)
            if size > self.length - 1:
                raise ValueError(f"string of {size} bytes does not fit {self.spelling} (at most {self.length - 1} bytes)")
            if "\0" in value:
                raise ValueError("a string default must not contain NUL")
            return value
        if self.is_array:
            if not isinstance(value, list) or len(value) != self.length:
                raise ValueError(f"expected a list of {self.length} values for {self.spelling}, got {_show(value)}")
            element = FieldType(self.scalar)
            out = []
            for k, item in enumerate(value):
                try:
                    out.append(element.check_default(item))
                except ValueError as e:
                    raise DefaultError(str(e), f"[{k}]") from None
            return out
        return self._check_scalar(value)

    def _check_scalar(self, value):
        kind = self.kind
        if kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"expected true or false, got {_show(value)}")
            return value
        if kind == "entity":
            if value is not None:
                raise ValueError(f"an entity default can only be null (no entity), got {_show(value)}")
            return None
        if kind == "enum":
            if value not in self.values:
                hint = f"one of: {', '.join(self.values)}"
                raise ValueError(f"'{value}' is not a value of this enum ({hint})" if isinstance(value, str)
                                 else f"expected the name of a value ({hint}), got {_show(value)}")
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"expected a number for {self.scalar}, got {_show(value)}")
        if kind in ("int", "uint"):
            if isinstance(value, float):
                raise ValueError(f"expected an integer for {self.scalar}, got {_show(value)}")
            low, high = self.int_range()
            if not low <= value <= high:
                raise ValueError(f"{value} is out of range for {self.scalar} [{low}, {high}]")
            return value
        given, value = value, float(value)
        if not math.isfinite(value):  # 1e999 reads as infinity; Python's json also takes NaN
            raise ValueError(f"expected a finite number, got {given!r} (a number beyond ±1.8e308 reads as infinity; "
                             f"the largest f64 is 1.7976931348623157e308)")
        if self.bits == 32:
            try:
                value = struct.unpack("<f", struct.pack("<f", value))[0]
            except OverflowError:
                value = math.inf
            if math.isinf(value):
                raise ValueError(f"{given!r} is out of range for {self.scalar} (at most about 3.4e38)")
        return value


def _show(value):
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return json.dumps(value)


def parse_type(spec, values=None):
    """FieldType for a type string already matched by the JSON Schema's pattern; values: an
    enum's names (kept only for an enum)."""
    match = _ARRAY.match(spec)
    if match:
        return FieldType(match.group(1), int(match.group(2)))
    return FieldType(spec, values=list(values) if spec == "enum" and values is not None else None)


def zero_value(field_type):
    """The value C's zero fill gives, as check_default would return it."""
    if field_type.is_string:
        return ""
    if field_type.is_array:
        return [zero_value(FieldType(field_type.scalar))] * field_type.length
    return {"bool": False, "entity": None, "enum": (field_type.values or [None])[0],
            "float": 0.0}.get(field_type.kind, 0)
