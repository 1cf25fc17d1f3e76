/* ecs_json_strict.c: the RFC 8259 grammar, checked over a text cJSON has accepted. cJSON is
 * lenient: it takes raw control characters inside strings, numbers such as 03 and 3., and
 * any byte up to space as whitespace. A save never writes those, and other JSON readers
 * refuse them, so the loader does too (ecs_json_parse). One pass, no allocation. */
#include <stdio.h>

#include "ecs_json.h"

/* Deeper nesting is refused (cJSON's own limit, CJSON_NESTING_LIMIT, is the same). */
#define ECS_JSON_MAX_DEPTH 1000

static const char *ecs_json_skip_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

static bool ecs_json_is_digit(char c) {
    return c >= '0' && c <= '9';
}

static bool ecs_json_is_hex(char c) {
    return ecs_json_is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string from its opening quote at p: the byte after its closing quote, or NULL with *at
 * and *why naming the fault. */
static const char *ecs_json_strict_string(const char *p, const char **at, const char **why, char *detail) {
    for (p++;; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"') return p + 1;
        if (c == '\\') {
            char e = p[1];
            if (e == 'u') {
                for (int k = 2; k < 6; k++)
                    if (!ecs_json_is_hex(p[k])) return *at = p, *why = "malformed JSON: a \\u escape needs 4 hex digits", NULL;
                if (p[2] == '0' && p[3] == '0' && p[4] == '0' && p[5] == '0')
                    return *at = p, *why = "a string holds \\u0000 (C strings end at NUL; the rest would be lost)", NULL;
                p += 5;
            } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
                p++;
            } else {
                return *at = p, *why = "malformed JSON: an unknown escape in a string (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", NULL;
            }
        } else if (c < 0x20) {
            if (!c) return *at = p, *why = "malformed JSON: a string without its closing quote", NULL;
            snprintf(detail, 96, "malformed JSON: a raw control character (U+%04X) in a string (JSON writes it as \\u%04x)", c, c);
            return *at = p, *why = detail, NULL;
        }
    }
}

/* A number at p: the byte after it, or NULL with *at and *why naming the fault. */
static const char *ecs_json_strict_number(const char *p, const char **at, const char **why) {
    if (*p == '-') p++;
    if (*p == '0') {
        p++;
        if (ecs_json_is_digit(*p)) return *at = p - 1, *why = "malformed JSON: a number with a leading zero (JSON has no octal)", NULL;
    } else if (ecs_json_is_digit(*p)) {
        while (ecs_json_is_digit(*p)) p++;
    } else {
        return *at = p, *why = "malformed JSON: a digit must follow '-'", NULL;
    }
    if (*p == '.') {
        if (!ecs_json_is_digit(*++p)) return *at = p, *why = "malformed JSON: a digit must follow a number's '.'", NULL;
        while (ecs_json_is_digit(*p)) p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!ecs_json_is_digit(*p)) return *at = p, *why = "malformed JSON: a digit must follow a number's exponent", NULL;
        while (ecs_json_is_digit(*p)) p++;
    }
    return p;
}

static bool ecs_json_literal(const char *p, const char *word, size_t n) {
    for (size_t k = 0; k < n; k++)
        if (p[k] != word[k]) return false;
    return true;
}

const char *ecs_json_strict_check(const char *text, const char **why, char detail[96]) {
    char open[ECS_JSON_MAX_DEPTH]; /* '{' or '[' per level */
    size_t depth = 0;
    const char *at = NULL;
    const char *p = text;
    if ((unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
        p += 3; /* a UTF-8 byte order mark, which RFC 8259 lets a reader ignore (cJSON does) */
    p = ecs_json_skip_space(p);
value:
    switch (*p) {
    case '{':
    case '[':
        if (depth == ECS_JSON_MAX_DEPTH) return *why = "malformed JSON: nested deeper than 1000 levels", p;
        open[depth++] = *p;
        p = ecs_json_skip_space(p + 1);
        if (*p == (open[depth - 1] == '{' ? '}' : ']')) {
            depth--;
            p++;
            goto after;
        }
        if (open[depth - 1] == '{') goto key;
        goto value;
    case '"':
        if (!(p = ecs_json_strict_string(p, &at, why, detail))) return at;
        goto after;
    case 't':
        if (!ecs_json_literal(p, "true", 4)) break;
        p += 4;
        goto after;
    case 'f':
        if (!ecs_json_literal(p, "false", 5)) break;
        p += 5;
        goto after;
    case 'n':
        if (!ecs_json_literal(p, "null", 4)) break;
        p += 4;
        goto after;
    default:
        if (*p == '-' || ecs_json_is_digit(*p)) {
            if (!(p = ecs_json_strict_number(p, &at, why))) return at;
            goto after;
        }
    }
    return *why = "malformed JSON: expected a value", p;
key:
    if (*p != '"') return *why = "malformed JSON: expected a key in double quotes", p;
    if (!(p = ecs_json_strict_string(p, &at, why, detail))) return at;
    p = ecs_json_skip_space(p);
    if (*p != ':') return *why = "malformed JSON: expected ':' after a key", p;
    p = ecs_json_skip_space(p + 1);
    goto value;
after:
    p = ecs_json_skip_space(p);
    if (!depth) return *p ? (*why = "malformed JSON: text after the document (only spaces, tabs and line breaks may follow)", p) : NULL;
    if (*p == ',') {
        p = ecs_json_skip_space(p + 1);
        if (open[depth - 1] == '{') goto key;
        goto value;
    }
    if (*p == (open[depth - 1] == '{' ? '}' : ']')) {
        depth--;
        p++;
        goto after;
    }
    return *why = open[depth - 1] == '{' ? "malformed JSON: expected ',' or '}'" : "malformed JSON: expected ',' or ']'", p;
}
