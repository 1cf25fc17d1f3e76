"""The generated loader's text rules, byte for byte, for `ecsgen-dump check` to give the
loader's verdict and message on any text (docs/debugging-with-dumps.md):

- `first_fault(data)`: where and why the loader refuses a text before reading it as a world:
  cJSON 1.7's parse (ecs_json_parse: a text cJSON refuses is "malformed JSON" at the offset
  cJSON gives up, with "(unexpected end)" there at the end), then the RFC 8259 check over a
  text cJSON took (runtime/ecs_json_strict.c, with its messages). Both are walks with their
  own stack (no recursion) that jump over runs with regular expressions: linear time.
- `escape(raw)`: ecs_json_escape, how the loader shows keys, values and file names.
- `path_text(segments)`: the loader's `json.path` (ecs_json_enter into its 160-byte buffer,
  cut with "..." as the loader cuts it).
- `message(...)`, `in_file(...)`: its fixed-size message buffers (the same truncations).

Everything here is bytes: a dump may hold any bytes but NUL in its strings, and the loader
measures columns and limits in bytes."""

import re

NESTING_LIMIT = 1000  # CJSON_NESTING_LIMIT; ecs_json_strict.c's ECS_JSON_MAX_DEPTH is the same
PATH_BYTES = 160  # ecs_json_ctx_t.path
MESSAGE_BYTES = 512  # ecs_error_t.message
REASON_BYTES = 320  # ecs_json_fail's reason buffer
BOM = b"\xef\xbb\xbf"

_WS_CJSON = re.compile(rb"[\x00-\x20]*")  # cJSON skips every byte up to space
_WS = re.compile(rb"[ \t\n\r]*")
_CJSON_STRING = re.compile(rb'(?:[^"\\]|\\.)*', re.S)  # to the closing quote, escapes skipped
# What parse_number hands strtod: the whole run of these characters (cJSON 1.7.19, and the
# 1.7.15 of Debian 12 with its fixes; 1.7.15 itself cut a number at 63 characters).
_NUMBER_COPY = re.compile(rb"[0-9+\-eE.]*")
_STRTOD = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_PLAIN = re.compile(rb'[^"\\\x00-\x1f]*')  # string bytes that need no look
_DIGITS = re.compile(rb"[0-9]*")
_HEX = b"0123456789abcdefABCDEF"
_ESCAPES = b'"\\/bfnrt'
_CLOSE = {0x7B: 0x7D, 0x5B: 0x5D}  # { } [ ]


class Fault(Exception):
    pass


# ---- cJSON 1.7 (cJSON_ParseWithOpts(text, &end, true)): accepts or not, and where --------

def _hex4(b, at):
    """parse_hex4: the value of 4 hex digits at b[at], 0 when one is not hex."""
    h = 0
    for k in range(4):
        c = b[at + k] if at + k < len(b) else 0
        if c not in _HEX:
            return 0
        h = h * 16 + int(chr(c), 16)
    return h


def _utf16_length(b, p, end):
    """utf16_literal_to_utf8: bytes a \\u escape at p takes (6, or 12 for a surrogate pair);
    0 when cJSON refuses it (a lone surrogate, or the text ends)."""
    if end - p < 6:
        return 0
    first = _hex4(b, p + 2)
    if 0xDC00 <= first <= 0xDFFF:
        return 0
    if 0xD800 <= first <= 0xDBFF:
        s = p + 6
        if end - s < 6 or b[s] != 0x5C or b[s + 1] != 0x75:
            return 0
        second = _hex4(b, s + 2)
        return 12 if 0xDC00 <= second <= 0xDFFF else 0
    return 6


def _cjson_string(b, off):
    """parse_string at off: the offset after it, or Fault(offset cJSON reports)."""
    if b[off] != 0x22:
        raise Fault(off + 1)  # cJSON's input_pointer starts past the quote it expected
    end = _CJSON_STRING.match(b, off + 1).end()
    if end >= len(b) or b[end] != 0x22:
        raise Fault(off + 1)
    p = b.find(b"\\", off + 1, end)
    while p >= 0:
        c = b[p + 1]
        if c in _ESCAPES:
            p += 2
        elif c == 0x75:  # u
            n = _utf16_length(b, p, end)
            if not n:
                raise Fault(p)
            p += n
        else:
            raise Fault(p)
        p = b.find(b"\\", p, end)
    return end + 1


def _cjson_ws(b, off):
    """buffer_skip_whitespace: past bytes up to space, but never past the last (the NUL)."""
    if off >= len(b):
        return off
    off = _WS_CJSON.match(b, off).end()
    return off - 1 if off == len(b) else off


def cjson_fault(data):
    """None when cJSON parses data (a NUL-terminated text); else the offset it reports."""
    b = data + b"\0"
    n = len(b)
    off = 3 if n > 4 and b.startswith(BOM) else 0
    try:
        off = _cjson_ws(b, off)
        stack = []
        state = "value"
        while True:
            if state == "value":
                c = b[off] if off < n else -1
                if b.startswith(b"null", off) or b.startswith(b"true", off):
                    off += 4
                elif b.startswith(b"false", off):
                    off += 5
                elif c == 0x22:
                    off = _cjson_string(b, off)
                elif c == 0x2D or 0x30 <= c <= 0x39:
                    copied = _NUMBER_COPY.match(b, off).group()
                    m = _STRTOD.match(copied)
                    if not m:
                        raise Fault(off)
                    off += m.end()
                elif c in (0x5B, 0x7B):
                    if len(stack) >= NESTING_LIMIT:
                        raise Fault(off)
                    off = _cjson_ws(b, off + 1)
                    if off < n and b[off] == _CLOSE[c]:
                        off += 1
                    else:
                        if off >= n:
                            raise Fault(off - 1)
                        stack.append(c)
                        state = "key" if c == 0x7B else "value"
                        continue
                else:
                    raise Fault(off)
                state = "after"
            elif state == "key":
                off = _cjson_ws(b, _cjson_string(b, off))
                if off >= n or b[off] != 0x3A:
                    raise Fault(off)
                off = _cjson_ws(b, off + 1)
                state = "value"
            else:  # after a value
                if not stack:
                    off = _cjson_ws(b, off)
                    if off >= n or b[off] != 0:
                        raise Fault(off)
                    return None
                off = _cjson_ws(b, off)
                if off < n and b[off] == 0x2C:
                    off = _cjson_ws(b, off + 1)
                    state = "key" if stack[-1] == 0x7B else "value"
                elif off >= n or b[off] != _CLOSE[stack[-1]]:
                    raise Fault(off)
                else:
                    stack.pop()
                    off += 1
    except Fault as f:
        at = f.args[0]
        return at if at < n else n - 1


# ---- The RFC 8259 check over a text cJSON took (runtime/ecs_json_strict.c) --------------

def _strict_string(b, p):
    """The offset after the string whose quote is at p, or Fault((offset, why))."""
    p += 1
    while True:
        p = _PLAIN.match(b, p).end()
        c = b[p]
        if c == 0x22:
            return p + 1
        if c == 0x5C:
            e = b[p + 1]
            if e == 0x75:
                for k in range(2, 6):
                    if b[p + k] not in _HEX or not b[p + k]:
                        raise Fault((p, "malformed JSON: a \\u escape needs 4 hex digits"))
                if b[p + 2:p + 6] == b"0000":
                    raise Fault((p, "a string holds \\u0000 (C strings end at NUL; the rest would be lost)"))
                p += 6
            elif e in _ESCAPES and e:
                p += 2
            else:
                raise Fault((p, "malformed JSON: an unknown escape in a string (JSON has \\\" \\\\ \\/ \\b \\f \\n "
                                "\\r \\t \\uXXXX)"))
        elif c == 0:
            raise Fault((p, "malformed JSON: a string without its closing quote"))
        else:
            raise Fault((p, "malformed JSON: a raw control character (U+%04X) in a string (JSON writes it as "
                            "\\u%04x)" % (c, c)))


def _strict_number(b, p):
    if b[p] == 0x2D:
        p += 1
    if b[p] == 0x30:
        p += 1
        if 0x30 <= b[p] <= 0x39:
            raise Fault((p - 1, "malformed JSON: a number with a leading zero (JSON has no octal)"))
    elif 0x30 <= b[p] <= 0x39:
        p = _DIGITS.match(b, p).end()
    else:
        raise Fault((p, "malformed JSON: a digit must follow '-'"))
    if b[p] == 0x2E:
        p += 1
        if not 0x30 <= b[p] <= 0x39:
            raise Fault((p, "malformed JSON: a digit must follow a number's '.'"))
        p = _DIGITS.match(b, p).end()
    if b[p] in (0x65, 0x45):
        p += 1
        if b[p] in (0x2B, 0x2D):
            p += 1
        if not 0x30 <= b[p] <= 0x39:
            raise Fault((p, "malformed JSON: a digit must follow a number's exponent"))
        p = _DIGITS.match(b, p).end()
    return p


def strict_fault(data):
    """None when data keeps to RFC 8259 (ecs_json_strict_check); else (offset, why)."""
    b = data + b"\0" * 8  # the C walk reads up to the NUL; a few more for lookahead
    end = len(data)
    p = 3 if data.startswith(BOM) else 0
    p = _WS.match(b, p).end()
    stack = []
    state = "value"
    try:
        while True:
            if state == "value":
                c = b[p]
                if c in (0x7B, 0x5B):
                    if len(stack) == NESTING_LIMIT:
                        return p, f"malformed JSON: nested deeper than {NESTING_LIMIT} levels"
                    stack.append(c)
                    p = _WS.match(b, p + 1).end()
                    if b[p] == _CLOSE[c]:
                        stack.pop()
                        p += 1
                        state = "after"
                    else:
                        state = "key" if c == 0x7B else "value"
                    continue
                if c == 0x22:
                    p = _strict_string(b, p)
                elif b.startswith(b"true", p) or b.startswith(b"null", p):
                    p += 4
                elif b.startswith(b"false", p):
                    p += 5
                elif c == 0x2D or 0x30 <= c <= 0x39:
                    p = _strict_number(b, p)
                else:
                    return p, "malformed JSON: expected a value"
                state = "after"
            elif state == "key":
                if b[p] != 0x22:
                    return p, "malformed JSON: expected a key in double quotes"
                p = _WS.match(b, _strict_string(b, p)).end()
                if b[p] != 0x3A:
                    return p, "malformed JSON: expected ':' after a key"
                p = _WS.match(b, p + 1).end()
                state = "value"
            else:
                p = _WS.match(b, p).end()
                if not stack:
                    if p < end:
                        return p, "malformed JSON: text after the document (only spaces, tabs and line breaks may follow)"
                    return None
                if b[p] == 0x2C:
                    p = _WS.match(b, p + 1).end()
                    state = "key" if stack[-1] == 0x7B else "value"
                elif b[p] == _CLOSE[stack[-1]]:
                    stack.pop()
                    p += 1
                else:
                    return p, "malformed JSON: expected ',' or '}'" if stack[-1] == 0x7B else \
                        "malformed JSON: expected ',' or ']'"
    except Fault as f:
        return f.args[0]


def position(data, at):
    """ecs_json_position: (line, column) of byte offset at, both from 1, in bytes."""
    line = data.count(b"\n", 0, at) + 1
    return line, at - (data.rfind(b"\n", 0, at) + 1) + 1


def first_fault(data):
    """None when the loader parses data (no NUL inside); else its message, as bytes:
    b"line L, column C: malformed JSON..." (ecs_json_parse)."""
    at = cjson_fault(data)
    if at is not None:
        line, column = position(data, at)
        return b"line %d, column %d: malformed JSON%s" % (line, column, b" (unexpected end)" if at >= len(data) else b"")
    fault = strict_fault(data)
    if fault is None:
        return None
    at, why = fault
    line, column = position(data, at)
    return b"line %d, column %d: " % (line, column) + why.encode()


# ---- How the loader shows text: ecs_json_escape, paths, message buffers ------------------

def _utf8_length(raw, p):
    c = raw[p]
    n = 2 if 0xC2 <= c <= 0xDF else 3 if 0xE0 <= c <= 0xEF else 4 if 0xF0 <= c <= 0xF4 else 0
    for k in range(1, n):
        if p + k >= len(raw) or raw[p + k] & 0xC0 != 0x80:
            return 0
    return n


def _pieces(raw):
    p = 0
    while p < len(raw):
        c = raw[p]
        n = _utf8_length(raw, p)
        if c < 0x20 or c == 0x7F:  # C0 controls and DEL: ESC starts terminal sequences
            piece, n = b"\\u%04x" % c, 1
        elif n == 2 and c == 0xC2 and raw[p + 1] < 0xA0:  # C1 controls
            piece = b"\\u%04x" % raw[p + 1]
        elif c >= 0x80 and not n:  # not UTF-8: a lone byte
            piece, n = b"\\x%02x" % c, 1
        else:
            n = n or 1
            piece = raw[p:p + n]
        yield piece
        p += n


_SAFE = re.compile(rb"[\x20-\x7e]*")


def escape(raw, size=None):
    """ecs_json_escape(dst, size, raw): (the text written, the whole escaped length). With a
    size, only whole pieces that fit in size - 1 bytes are written."""
    if _SAFE.fullmatch(raw) and (size is None or len(raw) < size):
        return raw, len(raw)
    out, total, full = bytearray(), 0, True
    for piece in _pieces(raw):
        if full and (size is None or total + len(piece) < size):
            out += piece
        else:
            full = False
        total += len(piece)
    return bytes(out), total


def path_text(segments, to_bytes):
    """The loader's path for segments (keys, and ints for array indexes): ecs_json_enter and
    ecs_json_enter_index into the 160-byte path, cut as ecs_json_append_path cuts it.
    to_bytes: a key's bytes. b"" for the document itself."""
    buf = bytearray(PATH_BYTES + 1)
    length = 0

    def append(raw):
        nonlocal length
        room = PATH_BYTES - length
        written, total = escape(raw, room)
        buf[length:length + len(written)] = written
        buf[length + len(written)] = 0
        if total >= room:  # too deep or long: keep what fits, mark it cut
            buf[PATH_BYTES - 4:PATH_BYTES] = b"...\0"
            length = PATH_BYTES - 1
        else:
            length += total

    for segment in segments:
        if isinstance(segment, int):
            append(b"[%d]" % segment)
        else:
            if length:
                append(b".")
            append(to_bytes(segment))
    return bytes(buf[:buf.index(0)]) if length else b""


def message(path, reason):
    """ecs_json_fail: "path: reason" ("(document)" for no path) in its buffers."""
    return ((path if path else b"(document)") + b": " + reason[:REASON_BYTES - 1])[:MESSAGE_BYTES - 1]


def in_file(file, text):
    """ecs_json_error_in_file: "%.200s: %.300s" of the escaped file name and the message."""
    shown, _ = escape(file, 384)
    return (shown[:200] + b": " + text[:300])[:MESSAGE_BYTES - 1]
