"""C spellings of values: defaults as C literals."""

import re
import struct

_INT_MIN_MACROS = {8: "INT8_MIN", 16: "INT16_MIN", 32: "INT32_MIN", 64: "INT64_MIN"}


def c_float(value, bits):
    """The shortest literal that reads back as exactly `value` (already an f32 when bits=32)."""
    if bits == 64:
        text = repr(value)
    else:
        for digits in range(1, 10):
            text = f"{value:.{digits}g}"
            try:
                if struct.unpack("<f", struct.pack("<f", float(text)))[0] == value:
                    break
            except OverflowError:  # rounded up past FLT_MAX (3e+38 for 3.4028235e+38)
                continue
    if "e" not in text and "." not in text:
        text += ".0"
    return text + ("f" if bits == 32 else "")


def c_int(value, signed, bits):
    if signed and value == -(1 << (bits - 1)):
        return _INT_MIN_MACROS[bits]
    if bits == 64:
        return f"{'INT64_C' if signed else 'UINT64_C'}({value})"
    if not signed and value > 0x7FFFFFFF:
        return f"{value}u"
    return str(value)


# What c_string escapes: a byte outside printable ASCII, a quote, a backslash, '?' (trigraphs).
_NEEDS_ESCAPE = re.compile(r'[^\x20-\x7e]|["\\?]')


def c_string(text):
    """A C string literal holding text's UTF-8 bytes exactly."""
    if not _NEEDS_ESCAPE.search(text):  # most names and docs: the text itself
        return '"' + text + '"'
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in "\"\\":
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif 0x20 <= byte < 0x7F and char != "?":  # '?' avoids trigraphs
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")  # octal: at most 3 digits, never swallows the next
    return '"' + "".join(out) + '"'
