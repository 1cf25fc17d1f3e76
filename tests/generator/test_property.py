#!/usr/bin/env python3
"""Property tests of the generator on random schemas.

Valid schemas: made from a seed (every field type, T[N] of every scalar, enums, extreme
defaults, tags, singletons, slot and sparse storage, soa and struct layout, relations that
clear or cascade (a forest of them built, checked and destroyed), systems over inline or
declared queries or depth first over a relation (stepped once on one thread, once on three; a
system writing an integer field flips its lowest bit in each match, so a match missed or
visited twice shows), prefabs, queries with
`none`, names near C
keywords and near the
clash rules); each is generated, its output compiled with gcc and clang at
-std=c11 -Wall -Wextra -Wpedantic -Werror together with a C smoke test written for it here
(defaults through <NAME>_<C>_DEFAULT, every prefab, set/get/has/add/remove/ref of every
component, every query macro, destroy), and the smoke test is run.

Mutations of those schemas (a key deleted, a type changed, a wrong JSON type, a default out of
range, duplicate or keyword names, unknown components, broken JSON text, ...): each must be
accepted (and then compile) or refused with exit 1, every stderr line of the form
`file: json.path: reason` or `file:line:col: reason`, no traceback, nothing written.

The expected values in the smoke tests are computed here from the schema, independently of
the generator: integers as C constant expressions, floats as their bit patterns.

    ECSGEN_PROPERTY_SCHEMAS=300 python3 tests/generator/test_property.py   # more schemas
    ECSGEN_PROPERTY_SEED=1234 ...        # another base seed (default 1; "random" for a fresh one)
    ECSGEN_PROPERTY_MUTATIONS=10 ...     # mutations per schema (default 4)
    ECSGEN_PROPERTY_KEEP=1 ...           # keep the work directory (schemas, smoke tests, output)
    ECSGEN_PROPERTY_FIRST=187 ECSGEN_PROPERTY_SCHEMAS=1 ...  # replay schema 187 of a seed

A failure prints the seed and the schema, so it can be replayed."""

import concurrent.futures
import copy
import glob
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ECSGEN = os.path.join(ROOT, "generator", "ecsgen.py")
RUNTIME = os.path.join(ROOT, "runtime")
CFLAGS = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]
JOBS = 2  # the machine is shared: at most two compilers at once

SCHEMAS = int(os.environ.get("ECSGEN_PROPERTY_SCHEMAS", "40"))
FIRST = int(os.environ.get("ECSGEN_PROPERTY_FIRST", "0"))  # replay from this schema index
MUTATIONS = int(os.environ.get("ECSGEN_PROPERTY_MUTATIONS", "4"))
_seed = os.environ.get("ECSGEN_PROPERTY_SEED", "1")
BASE_SEED = random.SystemRandom().randrange(1 << 30) if _seed == "random" else int(_seed)

# ---- Names --------------------------------------------------------------------------------

# Valid names chosen to sit next to the rules: C and C++ keywords with a twist, libc
# functions, the generator's local variables and macro parameters, the words of the fixed API.
TRICKY_NAMES = [
    "int_", "auto1", "Struct", "If", "Bool", "bool_", "true1", "Null", "NULL1", "errno_", "main",
    "asm_", "new1", "Class", "this_", "delete_", "Template", "operator1", "w", "e", "v", "p", "it",
    "row", "mem", "cap", "desc", "from", "data", "world_", "worlds", "spawn1", "has", "get",
    "set_", "count_", "iter_", "each", "x", "y", "T", "size", "index", "next", "free", "malloc",
    "memcpy", "strlen", "printf", "a_b", "A", "a", "z9", "ecs1", "Ecs2", "sizeof_",
    "cursor", "world", "entities", "components", "singletons", "dense", "pages", "m", "ctx",
    "sep", "none", "all", "doc", "value", "values", "default_", "Default", "Int64_t", "uint8_t",
    "int32_t", "size_t", "bool1", "fields", "tag", "singleton", "query", "view", "owned",
    "x" * 63, "Q" + "q_" * 30 + "Z",
]
WORDS = ["pos", "vel", "hp", "name", "target", "cargo", "mood", "clock", "score", "team",
         "angle", "mass", "flags", "ammo", "spin", "color", "alpha", "beta", "gamma", "delta"]

SCALARS = {  # name -> (C type, kind, bits)
    "bool": ("bool", "bool", 1), "i8": ("int8_t", "int", 8), "i16": ("int16_t", "int", 16),
    "i32": ("int32_t", "int", 32), "i64": ("int64_t", "int", 64), "u8": ("uint8_t", "uint", 8),
    "u16": ("uint16_t", "uint", 16), "u32": ("uint32_t", "uint", 32), "u64": ("uint64_t", "uint", 64),
    "f32": ("float", "float", 32), "f64": ("double", "float", 64), "entity": ("ecs_entity_t", "entity", 64),
}
F32_MAX = struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0]
F32_TRUE_MIN = struct.unpack("<f", struct.pack("<I", 1))[0]
F32_MIN = struct.unpack("<f", struct.pack("<I", 0x00800000))[0]
FLOATS32 = [0.0, -0.0, 1.5, 0.1, -3.25, F32_MAX, -F32_MAX, 3.4028235e38, F32_TRUE_MIN, F32_MIN,
            16777217, 1e10, 0.016666668, 2.5e-40, 100]
FLOATS64 = [0.0, -0.0, 0.1, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
            -1.7976931348623157e308, 1e-300, 123456789.125, 9007199254740993, 1 / 3]
STRINGS = ["", "a", "ship", "\"quoted\"", "back\\slash", "tri??/graph?", "new\nline\ttab",
           "é ü 日本", "%s %d", "*/ not a comment end", "\x01\x7f", "0123456789abcdef"]
DOCS = ["", "A doc.", "ends a comment */ here", "/* nested", "??/", "line\nbreak", "ünïcödé",
        "back\\", "%n"]

KEYWORDS = ["int", "while", "struct", "register", "auto", "static", "bool", "true", "_Bool",
            "typeof", "NULL", "assert", "restrict", "inline", "signed", "default", "case",
            "errno", "offsetof", "static_assert", "char", "void", "_Atomic", "constexpr",
            "new", "and", "or", "asm", "class", "this", "delete", "template", "operator", "xor_eq"]
HOSTILE_NAMES = KEYWORDS + ["INT8_MAX", "UINT64_MAX", "SIZE_MAX", "INT32_C", "NDEBUG", "EOF",
                            "ecs_x", "ECS_NULL", "ECS", "Ecs_a", "a__b", "9lives", "with space", "a-b", "",
                            "x" * 64, "id", "é", "pos.x", "A:B"]


class SchemaMaker:
    """Random valid schemas. Names are kept free of clashes by an independent model of the C
    names the design promises (`<name>_<c>_t`, `<NAME>_<C>_DEFAULT`, `<name>_has_<c>`, ...)."""

    def __init__(self, rng):
        self.rng = rng

    def name(self, taken):
        rng = self.rng
        for _ in range(200):
            if rng.random() < 0.45:
                candidate = rng.choice(TRICKY_NAMES)
            else:
                candidate = rng.choice(WORDS) + (str(rng.randrange(100)) if rng.random() < 0.3 else "")
            if candidate not in taken:
                return candidate
        return "n%d" % len(taken)

    def field_type(self):
        """At most 1000 bytes a field and 5 fields: far under the 1 MiB a component may take (a
        mutant's f64[65535] fields may pass it, and must then be refused cleanly)."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.45:
            return rng.choice(list(SCALARS))
        if roll < 0.6:
            return "char[%d]" % rng.choice([1, 2, 8, 32, 255, 1000])
        if roll < 0.85:
            return "%s[%d]" % (rng.choice(list(SCALARS)), rng.choice([1, 2, 3, 8]))
        return "enum"

    def scalar_value(self, scalar, values=None):
        rng = self.rng
        kind = SCALARS[scalar][1] if scalar in SCALARS else scalar
        if kind == "bool":
            return rng.random() < 0.5
        if kind == "entity":
            return None
        if kind == "enum":
            return rng.choice(values)
        if kind in ("int", "uint"):
            low, high = int_range(scalar)
            return rng.choice([low, high, 0, 1, low + 1, high - 1, rng.randint(low, high)])
        if scalar == "f32":
            return rng.choice(FLOATS32 + [round(rng.uniform(-1e6, 1e6), 3)])
        return rng.choice(FLOATS64 + [rng.uniform(-1e300, 1e300)])

    def value(self, spec):
        """A random valid value for a field spec (the schema's form)."""
        type_ = spec if isinstance(spec, str) else spec["type"]
        scalar, length = parse_type(type_)
        if scalar == "char":
            fits = [s for s in STRINGS if len(s.encode()) <= length - 1]
            return self.rng.choice(fits)
        values = None if isinstance(spec, str) else spec.get("values")
        if length is None:
            return self.scalar_value(scalar, values)
        return [self.scalar_value(scalar) for _ in range(length)]

    def field(self):
        rng = self.rng
        type_ = self.field_type()
        if type_ == "enum":
            count = rng.randint(1, 5)
            values = []
            while len(values) < count:
                v = self.name(set(values) | {x.upper() for x in values} | {x.lower() for x in values}
                              | {"COUNT", "count", "Count"})
                if v.upper() not in {x.upper() for x in values}:
                    values.append(v)
            spec = {"type": "enum", "values": values}
        elif rng.random() < 0.5:
            return type_
        else:
            spec = {"type": type_}
        if rng.random() < 0.7:
            spec["default"] = self.value(spec)
        if rng.random() < 0.2:
            spec["doc"] = rng.choice(DOCS)
        return spec

    def component(self, singleton=False):
        rng = self.rng
        if not singleton and rng.random() < 0.25:
            spec = {"tag": True}
        else:
            fields = {}
            for _ in range(rng.randint(1, 5)):
                fields[self.name(set(fields) | {"set"})] = self.field()
            spec = {"fields": fields}
            if singleton:
                spec["singleton"] = True
            elif rng.random() < 0.3:
                spec["layout"] = rng.choice(["struct", "soa"])
        if not singleton and rng.random() < 0.3:
            spec["storage"] = rng.choice(["slot", "slot", "sparse"])
        if rng.random() < 0.2:
            spec["doc"] = rng.choice(DOCS)
        return spec

    def schema(self):
        for _ in range(100):
            doc = self.attempt()
            if not c_name_clashes(doc):
                return doc
        raise AssertionError("could not make a clash-free schema")

    def attempt(self):
        rng = self.rng
        doc = {"name": self.name(set(["ecs"]))}
        if rng.random() < 0.3:
            doc["doc"] = rng.choice(DOCS)
        if rng.random() < 0.3:
            doc["version"] = rng.choice([1, 2, 2147483647])
        if rng.random() < 0.25:
            # Not huge: world_new reserves max_entities rows in every pool up front.
            doc["max_entities"] = rng.choice([0, 1, 3, 5, 1000])
        components = {}
        for _ in range(rng.randint(1, 8)):
            cname = self.name(set(components) | {"id"})
            components[cname] = self.component()
        for _ in range(rng.choice([0, 0, 1, 2])):
            cname = self.name(set(components) | {"id"})
            components[cname] = self.component(singleton=True)
        doc["components"] = components
        pooled = [c for c, s in components.items() if not s.get("singleton")]
        if not pooled:
            components[self.name(set(components) | {"id"})] = {"tag": True}
            pooled = [c for c, s in components.items() if not s.get("singleton")]
        queries = {}
        for _ in range(rng.randint(0, 3)):
            chosen = rng.sample(pooled, rng.randint(1, min(len(pooled), 16)))
            cut = rng.randint(1, len(chosen))
            spec = {"all": chosen[:cut]}
            if cut < len(chosen) or rng.random() < 0.2:
                spec["none"] = chosen[cut:]
            if rng.random() < 0.2:  # a query over slot storage cannot own pools
                spec["owned"] = rng.random() < 0.5 and not any(
                    components[c].get("storage") == "slot" for c in spec["all"])
            if rng.random() < 0.2:
                spec["doc"] = rng.choice(DOCS)
            queries[self.name(set(queries))] = spec
        if queries or rng.random() < 0.5:
            doc["queries"] = queries
        prefabs = {}
        for _ in range(rng.randint(0, 3)):
            spec = {}
            for cname in rng.sample(pooled, rng.randint(0, len(pooled))):
                comp = components[cname]
                if comp.get("tag"):
                    spec[cname] = True
                else:
                    fields = comp["fields"]
                    chosen = rng.sample(list(fields), rng.randint(0, len(fields)))
                    spec[cname] = {f: self.value(fields[f]) for f in chosen}
            prefabs[self.name(set(prefabs))] = spec
        if prefabs or rng.random() < 0.5:
            doc["prefabs"] = prefabs
        # Relations: no query, prefab or inline term names one (their values are entities, which
        # the smoke's random values leave out); a depth-first system walks one. The smoke program
        # builds a forest of each (Smoke.exercise_relations).
        relations = []
        for _ in range(rng.choice([0, 0, 1, 2])):
            spec = {"relation": {"on_target_destroy": rng.choice(["clear", "cascade"])}}
            if rng.random() < 0.3:
                spec["storage"] = "slot"
            relations.append(self.name(set(components) | set(queries) | set(prefabs) | {"id"}))
            components[relations[-1]] = spec
        # Systems over inline or declared queries, or depth first over a relation: the smoke
        # program defines each body (Smoke.flips says what it changes) and steps the world on one
        # thread, then on three. The context's own members (count, entity, dt, world) cannot be
        # component names there.
        context = {"count", "entity", "dt", "world"}
        data = [c for c in pooled if not components[c].get("tag") and c not in context]
        tags = [c for c in pooled if components[c].get("tag") and c not in context]
        singles = [c for c, s in components.items() if s.get("singleton") and c not in context]
        systems = {}
        # A system may run over a declared query instead (one that names no context member).
        declared = [q for q, spec in queries.items() if not context & set(spec["all"] + spec.get("none", []))]
        for _ in range(rng.choice([0, 0, 1, 2, 3]) if data else 0):
            if declared and rng.random() < 0.3:
                qname = rng.choice(declared)
                all_ = queries[qname]["all"]
                spec = {"query": qname}
            else:
                all_ = rng.sample(data, rng.randint(1, min(3, len(data)))) + rng.sample(tags, min(len(tags), rng.randint(0, 1)))
                spec = {"all": all_}
                others = [c for c in pooled if c not in all_ and c not in context]
                if others and rng.random() < 0.3:
                    spec["none"] = rng.sample(others, 1)
                others = [c for c in others if c not in spec.get("none", [])]
                if others and rng.random() < 0.2:
                    spec["any"] = rng.sample(others, min(len(others), rng.randint(1, 2)))
            for key in ("adds", "removes"):  # effects the schedule orders by; the bodies make none
                if rng.random() < 0.25:
                    spec[key] = rng.sample(pooled, min(len(pooled), rng.randint(1, 2)))
            for key in ("spawns", "destroys"):
                if rng.random() < 0.2:
                    spec[key] = True
            own = [c for c in all_ if c in data]
            writes = rng.sample(own, rng.randint(0, len(own)))
            reads = [c for c in own if c not in writes and rng.random() < 0.5] + [c for c in singles if rng.random() < 0.3]
            if writes:
                spec["writes"] = writes
            if reads:
                spec["reads"] = reads
            if systems and rng.random() < 0.4:
                spec["after"] = [rng.choice(list(systems))]
            if rng.random() < 0.2:
                spec["split"] = False
            named = set(all_) | {c for key in ("none", "any", "reads", "writes") for c in spec.get(key, [])}
            if relations and "target" not in named and rng.random() < 0.3:
                # Never split (a split depth-first system is refused); its context has a member
                # `target`, which a component's member of that name would clash with.
                spec["depth_first"] = rng.choice(relations)
            systems[self.name(set(systems) | set(queries) | set(components) | set(prefabs))] = spec
        if systems:
            doc["systems"] = systems
        return doc


def int_range(scalar):
    bits = SCALARS[scalar][2]
    if SCALARS[scalar][1] == "int":
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def parse_type(type_):
    """(scalar, length or None) of a valid type string."""
    match = re.match(r"^([a-z0-9]+)\[([0-9]+)\]$", type_)
    return (match.group(1), int(match.group(2))) if match else (type_, None)


def c_name_clashes(doc):
    """Whether two things in doc would make one C identifier, by the design's naming rules
    (kept here apart from the generator's own model, so each checks the other)."""
    p = doc["name"]
    up = p.upper()
    owners = {}
    clash = False

    def claim(identifier, owner):
        nonlocal clash
        if owners.setdefault(identifier, owner) != owner:
            clash = True

    for fixed in ("ECS_H", "EACH", "EACH_WITHOUT", "FIELD", "ROW"):
        claim(f"{up}_{fixed}", "fixed")
    for fixed in ("world", "components", "singletons", "spawn_desc", "iter", "world_new", "world_free",
                  "spawn", "destroy", "alive", "count", "world_to_json", "world_from_json", "world_save",
                  "world_load", "entity_to_json", "world_init", "world_fini", "query", "view",
                  "defer_destroy", "defer_spawn", "apply_deferred", "deferred_count", "hooks", "hook_fn",
                  "snapshot", "recorder", "snapshot_new", "snapshot_free", "snapshot_take", "snapshot_take_since",
                  "snapshot_restore", "snapshot_memory", "recorder_new", "recorder_free", "recorder_record",
                  "recorder_restore", "recorder_frames", "recorder_capacity", "recorder_save_frame",
                  "recorder_save_all", "recorder_load", "recorder_memory", "recorder_clear"):
        claim(f"{p}_{fixed}", "fixed")
        claim(f"{p}_{fixed}_t", "fixed")
    for cname, spec in doc["components"].items():
        owner = "c." + cname
        claim(f"{p}_{cname}", owner)
        claim(f"{p}_{cname}_t", owner)
        if "relation" in spec:  # one field, target; and its own loops and count
            spec = {"fields": {"target": "entity"}}
            claim(f"{p}_count_{cname}_of", owner)
            claim(f"{up}_EACH_{cname.upper()}_OF", owner)
            claim(f"{up}_EACH_{cname.upper()}_DEPTH_FIRST", owner)
        if not spec.get("tag"):
            claim(f"{up}_{cname.upper()}_DEFAULT", owner)
        if spec.get("singleton"):
            claim(f"{p}_singleton_{cname}", owner)
        else:
            claim(f"{p}_{cname}_pool_t", owner)
            verbs = ("has", "add", "remove", "on", "defer_add", "defer_remove")
            for verb in verbs + (() if spec.get("tag") else ("get", "set", "ref", "defer_set")):
                claim(f"{p}_{verb}_{cname}", owner)
            if not spec.get("tag"):
                claim(f"{p}_{cname}_ref_t", owner)
        for fname, fspec in spec.get("fields", {}).items():
            fowner = owner + "." + fname
            claim(f"{p}_{cname}_{fname}", fowner)
            if isinstance(fspec, dict) and fspec["type"] == "enum":
                claim(f"{p}_{cname}_{fname}_t", fowner)
                for v in fspec["values"] + ["COUNT"]:
                    claim(f"{up}_{cname.upper()}_{fname.upper()}_{v.upper()}", fowner)
    for qname in doc.get("queries", {}):
        claim(f"{up}_EACH_{qname.upper()}", "q." + qname)
        claim(f"{up}_{qname.upper()}_OWNED", "q." + qname)
        claim(f"{up}_{qname.upper()}_FIELD", "q." + qname)
        claim(f"{p}_query_{qname}", "q." + qname)
        claim(f"{p}_{qname}_view_t", "q." + qname)
    for pname in doc.get("prefabs", {}):
        claim(f"{p}_spawn_{pname}", "p." + pname)
        claim(f"{p}_spawn_{pname}_with", "p." + pname)
    if doc.get("systems"):
        for fixed in ("step", "set_threads", "threads"):
            claim(f"{p}_{fixed}", "fixed")
    for sname in doc.get("systems", {}):
        for identifier in (f"{p}_{sname}_t", f"{p}_{sname}", f"{up}_{sname.upper()}_FIELD", f"{p}_system_{sname}",
                           f"{up}_SYSTEM_{sname.upper()}_H"):
            claim(identifier, "x." + sname)
    return clash


# ---- C smoke test -----------------------------------------------------------------------


def c_int(value):
    """A C constant expression for any 64-bit integer value."""
    if value >= 0:
        return f"UINT64_C({value})"
    return f"(-INT64_C({-value - 1}) - 1)"


def c_bytes(text):
    return '"' + "".join(f"\\{b:03o}" for b in text.encode("utf-8")) + '"'


def float_bits(value, scalar):
    if scalar == "f32":
        return "UINT32_C(0x%08x)" % struct.unpack("<I", struct.pack("<f", float(value)))[0]
    return "UINT64_C(0x%016x)" % struct.unpack("<Q", struct.pack("<d", float(value)))[0]


def c_float_literal(value, scalar):
    """A hex float literal holding the value exactly (rounded to f32 first for f32)."""
    if scalar == "f32":
        value = struct.unpack("<f", struct.pack("<f", float(value)))[0]
        return float(value).hex() + "f"
    return float(value).hex()


class Field:
    def __init__(self, name, spec):
        self.name = name
        spec = {"type": spec} if isinstance(spec, str) else spec
        self.scalar, self.length = parse_type(spec["type"])
        self.values = spec.get("values", [])
        self.has_default = "default" in spec
        self.default = spec.get("default")

    def zero(self):
        if self.scalar == "char":
            return ""
        one = {"bool": False, "entity": None, "enum": self.values[0] if self.values else None}.get(
            SCALARS.get(self.scalar, ("", self.scalar))[1], 0)
        return one if self.length is None else [one] * self.length

    def effective_default(self):
        return self.default if self.has_default else self.zero()

    def scalar_literal(self, value):
        kind = SCALARS[self.scalar][1] if self.scalar in SCALARS else self.scalar
        if kind == "bool":
            return "true" if value else "false"
        if kind == "entity":
            return "ECS_NULL"
        if kind == "enum":
            return str(self.values.index(value))
        if kind == "float":
            return c_float_literal(value, self.scalar)
        return f"({SCALARS[self.scalar][0]}){c_int(value)}"

    def literal(self, value):
        if self.scalar == "char":
            return c_bytes(value)
        if self.length is not None:
            return "{ " + ", ".join(self.scalar_literal(v) for v in value) + " }"
        return self.scalar_literal(value)


class Smoke:
    """Writes a C program that checks one schema's generated API against values known here."""

    def __init__(self, doc, rng):
        self.doc = doc
        self.rng = rng
        self.p = doc["name"]
        self.up = self.p.upper()
        self.components = {}
        for cname, spec in doc["components"].items():
            self.components[cname] = [Field(f, s) for f, s in spec.get("fields", {}).items()]
        self.specs = {c: s for c, s in doc["components"].items() if "relation" not in s}  # (see attempt)
        self.components = {c: f for c, f in self.components.items() if c in self.specs}
        self.pooled = [c for c, s in self.specs.items() if not s.get("singleton")]
        self.data = [c for c in self.pooled if not self.specs[c].get("tag")]
        self.limit = doc.get("max_entities", 0)
        self.lines = []
        # A system that writes a component with an integer field flips that field's lowest bit in
        # each match (an XOR: no overflow, and a match visited twice or never shows).
        self.flips = {}
        for sname, spec in doc.get("systems", {}).items():
            for cname in spec.get("writes", []):
                ints = [f for f in self.components[cname]
                        if f.length is None and SCALARS.get(f.scalar, ("", ""))[1] in ("int", "uint")]
                if ints:
                    self.flips[sname] = (cname, ints[0].name)
                    break

    def emit(self, line):
        self.lines.append("    " + line)

    def struct_literal(self, cname, values):
        fields = self.components[cname]
        inits = ", ".join(f".{f.name} = {f.literal(values[f.name])}" for f in fields)
        return f"(({self.p}_{cname}_t){{ {inits} }})"

    def defaults(self, cname):
        return {f.name: f.effective_default() for f in self.components[cname]}

    def random_values(self, cname):
        maker = SchemaMaker(self.rng)
        out = {}
        for f in self.components[cname]:
            spec = self.specs[cname]["fields"][f.name]
            out[f.name] = maker.value(spec)
        return out

    def eq_function(self, cname):
        t = f"{self.p}_{cname}_t"
        fields = self.components[cname]
        parts = " && ".join(f"memcmp(&a.{f.name}, &b.{f.name}, sizeof a.{f.name}) == 0" for f in fields)
        return f"static bool eq_{cname}({t} a, {t} b) {{\n    return {parts};\n}}\n"

    def check_default_bits(self, cname, expr):
        """Checks the float fields of expr (a value) bit by bit against the schema's defaults."""
        for f in self.components[cname]:
            if f.scalar not in ("f32", "f64"):
                continue
            values = f.effective_default() if f.length is not None else [f.effective_default()]
            for k, v in enumerate(values):
                element = f"{expr}.{f.name}" + (f"[{k}]" if f.length is not None else "")
                utype = "uint32_t" if f.scalar == "f32" else "uint64_t"
                self.emit(f"{{ {utype} bits; memcpy(&bits, &{element}, sizeof bits); "
                          f"CHECK_EQ(bits, {float_bits(v, f.scalar)}); }}")

    def check_entity(self, var, model):
        """Checks has/get/ref of every pooled component of the entity in `var` against model."""
        p = self.p
        for cname in self.pooled:
            present = cname in model
            self.emit(f"CHECK({'' if present else '!'}{p}_has_{cname}(w, {var}));")
            if cname in self.data:
                first = self.components[cname][0].name
                self.emit(f"CHECK({p}_ref_{cname}(w, {var}).{first} {'!=' if present else '=='} NULL);")
                if present:
                    self.emit(f"CHECK(eq_{cname}({p}_get_{cname}(w, {var}), "
                              f"{self.struct_literal(cname, model[cname])}));")
                    for f in self.components[cname]:
                        self.emit(f"CHECK(memcmp({p}_ref_{cname}(w, {var}).{f.name}, "
                                  f"&{self.struct_literal(cname, model[cname])}.{f.name}, "
                                  f"sizeof {self.struct_literal(cname, model[cname])}.{f.name}) == 0);")

    def spawn_checked(self, k, chosen, models, alive, var="e"):
        """Emits var[k] = a spawn with the components `chosen` (random values), checked against
        its model, which goes into models[k]; 1 when it is alive, 0 when max_entities refused
        it."""
        p = self.p
        model = {c: (self.random_values(c) if c in self.data else True) for c in chosen}
        members = [f".{c} = &{self.struct_literal(c, model[c])}" if c in self.data else f".{c} = true"
                   for c in chosen]
        desc = f"&({p}_spawn_desc_t){{ {', '.join(members)} }}" if members else "NULL"
        self.emit(f"{var}[{k}] = {p}_spawn(w, {desc});")
        if self.limit and alive >= self.limit:
            self.emit(f"CHECK({var}[{k}] == ECS_NULL);")
            return 0
        self.emit(f"CHECK({var}[{k}] != ECS_NULL);")
        models[k] = model
        self.check_entity(f"{var}[{k}]", model)
        return 1

    def query_of(self, sname):
        """System sname's terms: its inline all/none/any or its declared query's."""
        spec = self.doc["systems"][sname]
        return self.doc["queries"][spec["query"]] if "query" in spec else spec

    def matches(self, sname, node, model, links):
        """Whether an entity with the components of `model` is a match of system sname; a
        depth-first system's matches are in its relation's forest: `links` (build_forest) when
        the entity is node `node` of it, None for an entity outside the forest."""
        spec = self.query_of(sname)
        walk = self.doc["systems"][sname].get("depth_first")
        if walk and not (links and (node in links[walk] or node in links[walk].values())):
            return False
        return (all(c in model for c in spec["all"]) and not any(c in model for c in spec.get("none", []))
                and (not spec.get("any") or any(c in model for c in spec["any"])))

    def apply_flips(self, models, links):
        """The models after one step: each flipping system's field, XOR 1 in each of its matches
        (`links`: the forest whose nodes `models` holds, or None, as in matches)."""
        for sname, (cname, fname) in self.flips.items():
            for node, model in models.items():
                if self.matches(sname, node, model, links):
                    model[cname] = {**model[cname], fname: model[cname][fname] ^ 1}

    NODES = 12  # the relations' forest (exercise_relations)

    def build_forest(self, models, alive):
        """Spawns the relations' forest into r[0..NODES-1], each with random components (its model
        in models[i], so systems' flips reach them too), each
        relation's targets spawned earlier than their sources (no cycle); returns the links
        {relation: {source: target}} as node numbers, or None without relations or room."""
        p, rng, emit = self.p, self.rng, self.emit
        relations = [c for c, spec in self.doc["components"].items() if "relation" in spec]
        if not relations or (self.limit and self.limit < alive + self.NODES):
            return None
        links = {r: {} for r in relations}
        emit(f"ecs_entity_t r[{self.NODES}];")
        for i in range(self.NODES):
            self.spawn_checked(i, [c for c in self.pooled if rng.random() < 0.5], models, alive, var="r")
            for rel in relations:
                if i and rng.random() < 0.6:
                    links[rel][i] = rng.randrange(i)
                    emit(f"CHECK({p}_add_{rel}(w, r[{i}], ({p}_{rel}_t){{ r[{links[rel][i]}] }}));")
        return links

    def exercise_relations(self, links, models, others):
        """The forest at run time, against `links`: refused sets to itself and to a descendant, a
        remove, two destroys that cascade or clear and then the rest, each followed by a check of
        every node's targets, every node's count and _OF loop and the depth-first loop.
        `others`: how many entities are alive besides the nodes."""
        p, up, rng, emit = self.p, self.up, self.rng, self.emit
        relations = list(links)
        cascade = {r for r in relations if self.doc["components"][r]["relation"]["on_target_destroy"] == "cascade"}
        alive = set(range(self.NODES))

        def ancestors(rel, i):
            while i in links[rel]:
                i = links[rel][i]
                yield i

        def check():
            emit(f"CHECK_EQ({p}_count(w), {others + len(alive)});")
            for i in range(self.NODES):
                emit(f"CHECK({'' if i in alive else '!'}{p}_alive(w, r[{i}]));")
            for i in sorted(alive):
                self.check_entity(f"r[{i}]", models[i])
            for rel in relations:
                for i in sorted(alive):
                    if i in links[rel]:
                        emit(f"CHECK({p}_has_{rel}(w, r[{i}]) && {p}_get_{rel}(w, r[{i}]).target == r[{links[rel][i]}]);")
                    else:
                        emit(f"CHECK(!{p}_has_{rel}(w, r[{i}]));")
                    sources = sum(1 for t in links[rel].values() if t == i)
                    emit(f"CHECK_EQ({p}_count_{rel}_of(w, r[{i}]), {sources});")
                    emit(f"{{ size_t n = 0; {up}_EACH_{rel.upper()}_OF(w, it, r[{i}]) {{ n++; CHECK({p}_get_{rel}(w, it.id).target == r[{i}]); }} CHECK_EQ(n, {sources}); }}")
                forest = set(links[rel]) | set(links[rel].values())
                emit(f"{{ size_t n = 0; {up}_EACH_{rel.upper()}_DEPTH_FIRST(w, it) {{ n++; "
                     f"CHECK(it.target == ({p}_has_{rel}(w, it.id) ? {p}_get_{rel}(w, it.id).target : ECS_NULL)); }} "
                     f"CHECK_EQ(n, {len(forest)}); }}")

        def destroy(i):
            for rel in sorted(cascade):
                for source in [s for s, t in links[rel].items() if t == i]:
                    if source in alive:
                        destroy(source)
            for rel in relations:
                for source in [s for s, t in links[rel].items() if t == i]:
                    del links[rel][source]
                links[rel].pop(i, None)
            alive.discard(i)
            models.pop(i, None)

        check()
        for rel in relations:
            emit(f"CHECK(!{p}_set_{rel}(w, r[0], ({p}_{rel}_t){{ r[0] }}));")  # itself
            chains = [(i, a) for i in sorted(links[rel]) for a in ancestors(rel, i)]
            if chains:  # an ancestor may not point at its descendant
                i, a = rng.choice(chains)
                emit(f"CHECK(!{p}_set_{rel}(w, r[{a}], ({p}_{rel}_t){{ r[{i}] }}));")
        if links[relations[0]]:
            i = rng.choice(sorted(links[relations[0]]))
            emit(f"CHECK({p}_remove_{relations[0]}(w, r[{i}]));")
            del links[relations[0]][i]
        check()
        for _ in range(2):
            i = rng.choice(sorted(alive))
            emit(f"CHECK({p}_destroy(w, r[{i}]));")
            destroy(i)
            check()
        while alive:
            i = min(alive)
            emit(f"CHECK({p}_destroy(w, r[{i}]));")
            destroy(i)
        check()

    def program(self):
        p, up = self.p, self.up
        rng = self.rng
        out = [f'#include "{p}_ecs.h"', "#include <string.h>", '#include "check.h"', ""]
        for cname in self.components:
            if not self.specs[cname].get("tag"):
                out.append(self.eq_function(cname))
        for sname, spec in self.doc.get("systems", {}).items():
            body = []
            if sname in self.flips:
                cname, fname = self.flips[sname]
                body.append(f"{up}_{sname.upper()}_FIELD(s, {cname}, {fname}, i) ^= 1;")
            walk = spec.get("depth_first")
            if walk:  # each match's target is its relation's, and no match after it is that target
                body.append(f"CHECK(s->target[i] == ({p}_has_{walk}(s->world, s->entity[i]) ? "
                            f"{p}_get_{walk}(s->world, s->entity[i]).target : ECS_NULL));")
                body.append("for (size_t j = i + 1; j < s->count; j++) CHECK(s->entity[j] != s->target[i]);")
            if body:
                loop = "".join(f"        {line}\n" for line in body)
                out.append(f"void {p}_system_{sname}({p}_{sname}_t *ECS_RESTRICT s) {{\n"
                           f"    for (size_t i = 0; i < s->count; i++) {{\n{loop}    }}\n}}\n")
            else:
                out.append(f"void {p}_system_{sname}({p}_{sname}_t *ECS_RESTRICT s) {{ (void)s; }}\n")
        emit = self.emit
        emit(f"{p}_world_t *w = {p}_world_new();")
        emit("CHECK(w != NULL);")
        emit("if (!w) return 1;")
        # Defaults, through the macro both as a value and as an address.
        for cname in self.components:
            if self.specs[cname].get("tag"):
                continue
            macro = f"{up}_{cname.upper()}_DEFAULT"
            emit(f"{{ {p}_{cname}_t d = {macro}; const {p}_{cname}_t *pd = &{macro};")
            emit(f"  CHECK(eq_{cname}(d, {self.struct_literal(cname, self.defaults(cname))}));")
            emit(f"  CHECK(eq_{cname}(*pd, d)); }}")
            self.check_default_bits(cname, macro)
            if self.specs[cname].get("singleton"):
                emit(f"CHECK(eq_{cname}(*{p}_singleton_{cname}(w), {macro}));")
                values = self.random_values(cname)
                emit(f"*{p}_singleton_{cname}(w) = {self.struct_literal(cname, values)};")
                emit(f"CHECK(eq_{cname}(*{p}_singleton_{cname}(w), {self.struct_literal(cname, values)}));")
        # Entities with random components; the model is {slot var: {component: values or True}}.
        emit("ecs_entity_t e[64] = { 0 };")
        emit(f"CHECK({p}_spawn(w, NULL) != ECS_NULL);")
        emit(f"CHECK_EQ({p}_count(w), 1);")
        emit(f"CHECK(!{p}_destroy(w, ECS_NULL));")
        models = {}
        alive = 1
        stale = []
        for k in range(rng.randint(4, 12)):
            alive += self.spawn_checked(k, [c for c in self.pooled if rng.random() < 0.5], models, alive)
        emit(f"CHECK_EQ({p}_count(w), {alive});")
        # Random operations, each checked against the model.
        for _ in range(rng.randint(10, 40)):
            if not models:
                break
            k = rng.choice(sorted(models))
            var, model = f"e[{k}]", models[k]
            cname = rng.choice(self.pooled)
            op = rng.choice(["set", "add", "remove", "destroy", "set", "add", "remove", "check"])
            if op == "destroy" and rng.random() < 0.5:
                op = "check"
            if op == "destroy":
                emit(f"CHECK({p}_destroy(w, {var}));")
                emit(f"CHECK(!{p}_destroy(w, {var}));")
                emit(f"CHECK(!{p}_alive(w, {var}));")
                del models[k]
                stale.append(var)
                alive -= 1
                continue
            elif op == "set" and cname in self.data:
                values = self.random_values(cname)
                emit(f"CHECK({p}_set_{cname}(w, {var}, {self.struct_literal(cname, values)}));")
                model[cname] = values
            elif op == "add":
                present = cname in model
                if cname in self.data:
                    values = self.random_values(cname)
                    emit(f"CHECK({'!' if present else ''}{p}_add_{cname}(w, {var}, "
                         f"{self.struct_literal(cname, values)}));")
                    if not present:
                        model[cname] = values
                else:
                    emit(f"CHECK({'!' if present else ''}{p}_add_{cname}(w, {var}));")
                    model[cname] = True
            elif op == "remove":
                present = cname in model
                emit(f"CHECK({'' if present else '!'}{p}_remove_{cname}(w, {var}));")
                model.pop(cname, None)
            self.check_entity(var, model)
        for var in stale:
            for cname in self.pooled:
                emit(f"CHECK(!{p}_has_{cname}(w, {var}));")
                emit(f"CHECK(!{p}_remove_{cname}(w, {var}));")
                if cname in self.data:
                    emit(f"CHECK(!{p}_set_{cname}(w, {var}, {up}_{cname.upper()}_DEFAULT));")
                    emit(f"CHECK({p}_ref_{cname}(w, {var}).{self.components[cname][0].name} == NULL);")
                else:
                    emit(f"CHECK(!{p}_add_{cname}(w, {var}));")
        for k, model in models.items():
            self.check_entity(f"e[{k}]", model)
        emit(f"CHECK_EQ({p}_count(w), {alive});")
        # Queries: the declared ones and the ad-hoc macros, counted against the model.
        for qname, spec in self.doc.get("queries", {}).items():
            all_, none = spec["all"], spec.get("none", [])
            expected = sum(1 for m in models.values() if all(c in m for c in all_) and not any(c in m for c in none))
            emit("{ size_t n = 0;")
            emit(f"  {up}_EACH_{qname.upper()}(w, it) {{")
            emit("    n++;")
            for c in all_:
                emit(f"    CHECK({p}_has_{c}(w, it.id));")
            for c in none:
                emit(f"    CHECK(!{p}_has_{c}(w, it.id));")
            emit("  }")
            emit(f"  CHECK_EQ(n, {expected}); }}")
        for _ in range(3):
            chosen = rng.sample(self.pooled, rng.randint(1, min(len(self.pooled), 16)))
            cut = rng.randint(1, len(chosen))
            all_, none = chosen[:cut], chosen[cut:]
            expected = sum(1 for m in models.values() if all(c in m for c in all_) and not any(c in m for c in none))
            emit("{ size_t n = 0;")
            if none:
                emit(f"  {up}_EACH_WITHOUT(w, it, ({', '.join(none)}), {', '.join(all_)}) {{ n++; }}")
            else:
                emit(f"  {up}_EACH(w, it, {', '.join(all_)}) {{ n++; }}")
            emit(f"  CHECK_EQ(n, {expected}); }}")
        # Prefabs: their components, with the prefab's values over the schema's defaults.
        for pname, spec in self.doc.get("prefabs", {}).items():
            model = {}
            for cname, values in spec.items():
                model[cname] = True if values is True else {**self.defaults(cname), **values}
            emit(f"{{ ecs_entity_t s = {p}_spawn_{pname}(w);")
            if self.limit and alive >= self.limit:
                emit("  CHECK(s == ECS_NULL); }")
                continue
            alive += 1
            emit("  CHECK(s != ECS_NULL);")
            self.check_entity("s", model)
            emit(f"  CHECK({p}_destroy(w, s)); }}")
            alive -= 1
        nodes = {}  # the relations' forest: its entities' models, by node (build_forest)
        links = self.build_forest(nodes, alive)
        if self.doc.get("systems"):  # the bodies flip a bit in each match (self.flips) or change nothing
            for k, sname in enumerate(self.flips, start=40):  # a match for each, whatever the operations left
                spec = self.query_of(sname)
                alive += self.spawn_checked(k, spec["all"] + spec.get("any", [])[:1], models, alive)
            for threads in (1, 3):
                # Once on one thread, then on a pool of 3: the smoke build makes every split
                # system's matches ranges of 1 and every stage worth the pool (build_and_run's -D flags).
                emit(f"{p}_set_threads(w, {threads});")
                emit(f"CHECK_EQ({p}_threads(w), {threads});")
                emit(f"{p}_step(w, 0.016f);")
                emit(f"CHECK_EQ({p}_count(w), {alive + len(nodes)});")
                self.apply_flips(models, None)
                self.apply_flips(nodes, links)
                for k, model in models.items():
                    self.check_entity(f"e[{k}]", model)
                for i, model in nodes.items():
                    self.check_entity(f"r[{i}]", model)
            emit(f"{p}_set_threads(w, 1);")
        if links:
            self.exercise_relations(links, nodes, alive)
        for k in sorted(models):
            emit(f"CHECK({p}_destroy(w, e[{k}]));")
        emit(f"CHECK_EQ({p}_count(w), 1);")
        emit(f"{p}_world_free(w);")
        emit(f'return check_finish("smoke {p}");')
        return "\n".join(out + ["int main(void) {"] + self.lines + ["}", ""])


# ---- Mutations ----------------------------------------------------------------------------


def nodes(value, path=()):
    """Every (path, value) in a JSON document, the root first."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from nodes(v, path + (k,))
    elif isinstance(value, list):
        for k, v in enumerate(value):
            yield from nodes(v, path + (k,))


def get_at(doc, path):
    for part in path:
        doc = doc[part]
    return doc


def set_at(doc, path, value):
    get_at(doc, path[:-1])[path[-1]] = value


def rename_key(mapping, old, new):
    items = [(new if k == old else k, v) for k, v in mapping.items()]
    mapping.clear()
    mapping.update(items)


class Mutator:
    """Random changes to a valid schema. Each returns (description, JSON text)."""

    def __init__(self, rng):
        self.rng = rng

    def mutate(self, doc):
        rng = self.rng
        doc = copy.deepcopy(doc)
        kinds = [self.delete_key, self.change_type, self.wrong_json_type, self.bad_default,
                 self.rename, self.unknown_component, self.duplicate_name, self.bad_number,
                 self.unknown_key, self.bad_prefab_value, self.bad_doc]
        done = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            done.append(rng.choice(kinds)(doc))
        text = json.dumps(doc, indent=1, ensure_ascii=rng.random() < 0.5)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: only JSON's \u escape can say it
            text = json.dumps(doc, indent=1)
        if rng.random() < 0.12:
            what, text = self.break_text(text)
            done.append(what)
        return "; ".join(done), text

    def pick(self, doc, want=lambda path, value: True):
        candidates = [(p, v) for p, v in nodes(doc) if p and want(p, v)]
        return self.rng.choice(candidates) if candidates else (None, None)

    def delete_key(self, doc):
        path, _ = self.pick(doc, lambda p, v: isinstance(p[-1], str))
        if path is None:
            return "nothing to delete"
        del get_at(doc, path[:-1])[path[-1]]
        return "deleted " + repr(path)

    def change_type(self, doc):
        path, _ = self.pick(doc, lambda p, v: len(p) == 4 and p[0] == "components" and p[2] == "fields")
        if path is None:
            return "no field"
        new = self.rng.choice(["flaot", "u7", "char[0]", "char[65536]", "char[65535]", "i32[]", "enum[3]",
                               "bool[1]", "entity[2]", "", "F32", " f32", "i64[01]", "char", "string",
                               "u8[99999]", "f16", "enum", "int", "uint64_t", "f64[65535]"])
        spec = get_at(doc, path)
        if isinstance(spec, dict):
            spec["type"] = new
        else:
            set_at(doc, path, new)
        return f"type of {path!r} -> {new!r}"

    def wrong_json_type(self, doc):
        path, _ = self.pick(doc)
        new = self.rng.choice([1, "x", None, [], {}, True, 1.5, -1, [1, "a"], {"a": 1}])
        set_at(doc, path, new)
        return f"{path!r} -> {new!r}"

    def bad_default(self, doc):
        path, _ = self.pick(doc, lambda p, v: len(p) == 4 and p[0] == "components" and p[2] == "fields")
        if path is None:
            return "no field"
        spec = get_at(doc, path)
        if not isinstance(spec, dict):  # an earlier mutation may have left any value here
            spec = {"type": spec if isinstance(spec, str) else "i32"}
            set_at(doc, path, spec)
        new = self.rng.choice([128, -129, 256, -1, 2 ** 63, 2 ** 64, -(2 ** 63) - 1, 1e39, -1e39, 1e309 / 1e309 * 0,
                               0.5, "x" * 300, "", [1], [0] * 9, True, None, "nope", 3.4028236e38, 1.7976931348623157e308,
                               5e-324, {"a": 1}, 65536, 4294967296, 2147483648, "\ud800", "\x00"])
        spec["default"] = new
        return f"default of {path!r} -> {new!r}"

    def rename(self, doc):
        rng = self.rng
        new = rng.choice(HOSTILE_NAMES)
        where = rng.choice(["name", "components", "fields", "queries", "prefabs", "values"])
        if where == "name":
            doc["name"] = new
            return f"name -> {new!r}"
        if where == "values":
            path, _ = self.pick(doc, lambda p, v: len(p) == 6 and p[4] == "values")
            if path is None:
                return "no enum"
            set_at(doc, path, new)
            return f"{path!r} -> {new!r}"
        if where == "fields":
            path, _ = self.pick(doc, lambda p, v: len(p) == 4 and p[2] == "fields")
        else:
            path, _ = self.pick(doc, lambda p, v: len(p) == 2 and p[0] == where)
        if path is None:
            return "nothing to rename"
        rename_key(get_at(doc, path[:-1]), path[-1], new)
        return f"renamed {path!r} -> {new!r}"

    def unknown_component(self, doc):
        rng = self.rng
        comps = doc.get("components") if isinstance(doc.get("components"), dict) else {}
        name = rng.choice(["nosuch", "Pos", "id"] + list(comps)[:1])
        single = [c for c, s in comps.items() if isinstance(s, dict) and s.get("singleton")]
        if single and rng.random() < 0.4:
            name = single[0]
        if rng.random() < 0.5:
            path, _ = self.pick(doc, lambda p, v: len(p) == 3 and p[0] == "queries" and isinstance(v, list))
            if path is not None:
                get_at(doc, path).append(name)
                return f"{path!r} += {name!r}"
        path, _ = self.pick(doc, lambda p, v: len(p) == 2 and p[0] == "prefabs" and isinstance(v, dict))
        if path is None:
            if not isinstance(doc.get("queries"), dict):
                doc["queries"] = {}
            doc["queries"]["qq"] = {"all": [name]}
            return f"query of {name!r}"
        get_at(doc, path)[name] = rng.choice([{}, True, {"x": 1}])
        return f"{path!r} gets {name!r}"

    def duplicate_name(self, doc):
        rng = self.rng
        comps = doc.get("components", {})
        if rng.random() < 0.5 and isinstance(comps, dict) and comps:
            first = next(iter(comps))
            twin = first.upper() if first != first.upper() else first.lower()
            if twin == first:
                twin = first + "_" if rng.random() < 0.5 else "x" + first
            comps[twin] = copy.deepcopy(comps[first])
            return f"component {twin!r} beside {first!r}"
        path, value = self.pick(doc, lambda p, v: len(p) == 5 and p[4] == "values" and isinstance(v, list))
        if path is None:
            return "no enum"
        value.append(rng.choice(value).upper() if value else "A")
        return f"duplicate value in {path!r}"

    def bad_number(self, doc):
        key = self.rng.choice(["version", "max_entities"])
        new = self.rng.choice([0, -1, 1.5, 2 ** 32, 2 ** 31, "1", None, 1e300])
        doc[key] = new
        return f"{key} -> {new!r}"

    def unknown_key(self, doc):
        path, value = self.pick(doc, lambda p, v: isinstance(v, dict))
        target = value if path is not None else doc
        target[self.rng.choice(["colour", "tags", "Fields", "defualt", "type", "singleton", "owned"])] = 1
        return f"unknown key in {path!r}"

    def bad_prefab_value(self, doc):
        path, value = self.pick(doc, lambda p, v: len(p) == 3 and p[0] == "prefabs")
        if path is None:
            return "no prefab part"
        set_at(doc, path, self.rng.choice([False, 1, {"nosuch": 1}, [], {"x": "y"}, None]))
        return f"prefab part {path!r} changed"

    def bad_doc(self, doc):
        path, _ = self.pick(doc, lambda p, v: isinstance(v, dict) and p[0] in ("components", "queries"))
        target = doc if path is None or self.rng.random() < 0.3 else get_at(doc, path)
        new = self.rng.choice(["nul\x00byte", "esc\x1b[0m", "form\x0cfeed", "lone \ud83d surrogate",
                               "\u2028line separator", "*/ #error x /*", "\\", "??=", 5, None])
        target["doc"] = new
        return f"doc of {path!r} -> {new!r}"

    def break_text(self, text):
        rng = self.rng
        at = rng.randrange(len(text))
        choice = rng.choice(["truncate", "junk", "nan", "dupkey", "bom"])
        if choice == "truncate":
            return f"truncated at {at}", text[:at]
        if choice == "junk":
            return f"junk at {at}", text[:at] + rng.choice(["}", ",", "'", "\x00", "//", "@"]) + text[at:]
        if choice == "nan":
            return "NaN", text.replace("\"name\"", "\"n\": NaN, \"name\"", 1)
        if choice == "dupkey":
            return "duplicate key", text.replace("{", "{\"name\": \"dup\", ", 1)
        return "BOM", "\ufeff" + text


# ---- Running ------------------------------------------------------------------------------


def run(cmd, cwd=None, timeout=300):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=timeout)


def cjson_cflags():
    result = subprocess.run(["pkg-config", "--cflags", "libcjson"], capture_output=True, text=True)
    return result.stdout.split() if result.returncode == 0 else []


ERROR_LINE = re.compile(r"^(?P<file>[^:]+?)(?::(?P<line>\d+):(?P<col>\d+))?: (?P<rest>.+)$")


class PropertyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ecsgen-property-")
        cls.cflags = cjson_cflags()
        cls.compilers = [c for c in ("gcc", "clang") if shutil.which(c)]
        cls.runtime_objects = {}
        for compiler in cls.compilers:  # the runtime once per compiler, not once per schema
            objdir = os.path.join(cls.tmp, "runtime-" + compiler)
            os.mkdir(objdir)
            objects = []
            for source in sorted(glob.glob(os.path.join(RUNTIME, "*.c"))):
                obj = os.path.join(objdir, os.path.basename(source)[:-2] + ".o")
                result = run([compiler, *CFLAGS, *cls.cflags, "-I", RUNTIME, "-c", source, "-o", obj])
                if result.returncode != 0:
                    raise AssertionError(f"{compiler} cannot build the runtime:\n{result.stderr}")
                objects.append(obj)
            cls.runtime_objects[compiler] = objects
        print(f"property test: base seed {BASE_SEED}, {SCHEMAS} schemas, {MUTATIONS} mutations each, "
              f"compilers: {' '.join(cls.compilers)}", file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        if os.environ.get("ECSGEN_PROPERTY_KEEP"):
            print(f"property test: kept {cls.tmp}", file=sys.stderr)
        else:
            shutil.rmtree(cls.tmp)

    def setUp(self):
        self.assertEqual(self.compilers, ["gcc", "clang"], "the property test needs gcc and clang")

    def build_and_run(self, work, name, smoke, compilers, seed):
        """'' when every compiler builds and the program passes, else what went wrong."""
        smoke_c = os.path.join(work, "smoke.c")
        with open(smoke_c, "w", encoding="utf-8") as f:
            f.write(smoke)
        for compiler in compilers:
            exe = os.path.join(work, "smoke-" + compiler)
            # Systems on threads even over a few matches (the smoke's pooled step): ranges of
            # 1 match, every stage on the pool.
            pooled = [f"-D{name.upper()}_SYSTEM_CHUNK=1u", f"-D{name.upper()}_SYSTEM_PARALLEL_MIN=0u"]
            result = run([compiler, *CFLAGS, *self.cflags, *pooled, "-I", RUNTIME, "-I", work,
                          "-I", os.path.join(ROOT, "tests"), smoke_c, os.path.join(work, name + "_ecs.c"),
                          *self.runtime_objects[compiler], "-lcjson", "-lm", "-pthread", "-o", exe])
            if result.returncode != 0:
                return f"{compiler} failed:\n{result.stderr[-6000:]}"
            result = run([exe], timeout=120)
            if result.returncode != 0:
                return f"{compiler} build ran and failed (exit {result.returncode}):\n{result.stderr[-6000:]}"
        return ""

    def check_valid(self, index):
        seed = BASE_SEED * 1000003 + index
        try:
            return self.check_valid_seed(index, seed)
        except Exception:  # a timeout or a bug here: report it with the seed, like any failure
            import traceback
            return f"seed {seed} (index {index}, base seed {BASE_SEED}): {traceback.format_exc()}", []

    def check_valid_seed(self, index, seed):
        rng = random.Random(seed)
        doc = SchemaMaker(rng).schema()
        work = tempfile.mkdtemp(prefix=f"s{index}-", dir=self.tmp)
        schema_file = os.path.join(work, "schema.json")
        with open(schema_file, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
        result = run([sys.executable, ECSGEN, schema_file, "--out", work])
        problem = ""
        if result.returncode != 0:
            problem = f"ecsgen refused a valid schema (exit {result.returncode}):\n{result.stderr}"
        else:
            problem = self.build_and_run(work, doc["name"], Smoke(doc, rng).program(), self.compilers, seed)
        mutations = []
        if not problem:
            mutator = Mutator(rng)
            for k in range(MUTATIONS):
                what, text = mutator.mutate(doc)
                outcome = self.check_mutation(work, k, doc["name"], what, text)
                mutations.append(outcome[0])
                if outcome[1]:
                    problem = outcome[1]
                    break
        if problem:
            return f"seed {seed} (index {index}, base seed {BASE_SEED}): {problem}\nschema:\n" + \
                json.dumps(doc, indent=1, ensure_ascii=False), mutations
        shutil.rmtree(work)
        return "", mutations

    def check_mutation(self, work, k, valid_name, what, text):
        """('accepted' or 'refused', problem or '')."""
        mdir = os.path.join(work, f"m{k}")
        out = os.path.join(mdir, "out")
        os.makedirs(out)
        schema_file = os.path.join(mdir, "mutant.json")
        with open(schema_file, "w", encoding="utf-8") as f:
            f.write(text)
        result = run([sys.executable, ECSGEN, "mutant.json", "--out", "out"], cwd=mdir)
        context = f"mutation {k} ({what}):\n{text}\n"
        if result.returncode == 0:
            produced = sorted(os.listdir(out))
            if len(produced) != 2 or result.stderr:
                return "accepted", context + f"accepted but wrote {produced}, stderr {result.stderr!r}"
            name = produced[0][:-len("_ecs.c")]
            # Links world_new and world_free without calling them: with a huge max_entities
            # world_new reserves (and touches) every row up front, which may take gigabytes.
            systems = json.loads(text).get("systems", {})  # accepted: valid JSON; their bodies are the program's
            bodies = "".join(f"void {name}_system_{x}({name}_{x}_t *ECS_RESTRICT s) {{ (void)s; }}\n" for x in systems)
            main = f'#include "{name}_ecs.h"\n{bodies}int main(void) {{\n' \
                   f'    {name}_world_t *(*make)(void) = {name}_world_new;\n' \
                   f'    void (*drop)({name}_world_t *) = {name}_world_free;\n' \
                   f'    return make == 0 || drop == 0;\n}}\n'
            problem = self.build_and_run(out, name, main, ["gcc"], None)
            return "accepted", (context + "accepted, but " + problem) if problem else ""
        problems = []
        if result.returncode != 1:
            problems.append(f"exit {result.returncode}, not 1")
        if "Traceback" in result.stderr:
            problems.append("a Python traceback")
        if result.stdout:
            problems.append(f"stdout {result.stdout!r}")
        if os.listdir(out):
            problems.append(f"wrote {os.listdir(out)}")
        lines = result.stderr.splitlines()
        if not lines:
            problems.append("no error message")
        for line in lines:
            match = ERROR_LINE.match(line)
            if not match or match.group("file") != "mutant.json":
                problems.append(f"stderr line not 'mutant.json: path: reason': {line!r}")
                continue
            if not match.group("line") and not self.path_ok(match.group("rest"), text):
                problems.append(f"error without a JSON path in the document: {line!r}")
        if problems:
            return "refused", context + "refused badly: " + "; ".join(problems) + "\nstderr:\n" + result.stderr
        return "refused", ""

    @staticmethod
    def path_ok(rest, text):
        """rest is `json.path: reason`, the path starting at a top-level key; or a reason about
        the whole document (no path)."""
        whole_document = ("missing key", "malformed JSON", "not UTF-8", "expected an object")
        if rest.startswith(whole_document):
            return True
        if ": " not in rest:
            return False
        path = rest.split(": ", 1)[0]
        top = re.split(r"[.\[]", path, 1)[0]
        try:
            keys = set(json.loads(text))
        except (ValueError, TypeError):
            keys = set()
        return top in {"name", "doc", "version", "max_entities", "components", "queries", "prefabs"} | keys

    def test_random_schemas_compile_run_and_mutants_are_handled(self):
        problems = []
        outcomes = {"accepted": 0, "refused": 0}
        with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as pool:
            for problem, mutations in pool.map(self.check_valid, range(FIRST, FIRST + SCHEMAS)):
                if problem:
                    problems.append(problem)
                for outcome in mutations:
                    outcomes[outcome] += 1
        print(f"property test: {SCHEMAS} valid schemas generated, compiled with gcc and clang and run; "
              f"{outcomes['accepted'] + outcomes['refused']} mutants: {outcomes['refused']} refused "
              f"cleanly, {outcomes['accepted']} accepted and compiled; {len(problems)} problems", file=sys.stderr)
        if problems:
            summary = "\n".join("  " + " | ".join(p.splitlines()[:4])[:400] for p in problems)
            self.fail(f"{len(problems)} of {SCHEMAS} schemas failed:\n{summary}\nthe first in full:\n{problems[0]}")


if __name__ == "__main__":
    unittest.main()
