"""`ecsgen-dump check`: would a program of this schema load the dump? The rules, their order
and their messages are those of the generated loader (generator/templates/json.c.j2 over
runtime/ecs_json.c and ecs_json_migrate.c), loading into a fresh world: the document's shape
and header, then the schema's renames and removals (an older document, docs/schema.md "Schema evolution"), then every
value read by its current type (so a widened type loads and a value that no longer fits is
refused by its path), then the entity ids."""

import math

from . import ctext
from .document import DumpError, Num, Obj, describe, c_bytes, format_real, parse_decimal, parse_id, format_id, EXACT

SLOTS_DEFAULT = 1 << 20  # ECS_JSON_SLOTS_DEFAULT
LAST_GENERATION = 2 ** 32 - 1  # a reference there would retire its slot
REF_GENERATION_MAX = LAST_GENERATION - (1 << 24)  # ECS_REF_GENERATION_MAX: beyond, a reference is checked
INDEX_LIMIT = 2 ** 32 - 1  # ECS_INDEX_MAX + 1: slots a world without max_entities may have
DOCUMENT_KEYS = ("schema", "version", "singletons", "entities")
F32_LIMIT = float.fromhex("0x1.ffffffp127")  # from here on a double rounds to infinity as a float
INT_MIN, INT_MAX = -(2 ** 31), 2 ** 31 - 1


class Refused(Exception):
    """The loader's message, `json.path: what is wrong`, as bytes (args[0]). Paths are tuples
    of keys and array indexes, spelt as the loader spells them only when one is shown."""


def _fail(path, reason):
    raise Refused(ctext.message(_path_text(path), reason.encode("utf-8", "surrogateescape")))


def _path_text(path):
    return ctext.path_text(path, c_bytes)


def _key(path, key):
    return path + (key,)


def _note(report, path, text):
    """note() of ecs_json_migrate.c: one report line (512 bytes at most). Every line: the
    loader's report keeps what fits its 4096 bytes, and says so; check lists them all."""
    report.append((_path_text(path) + b": " + text.encode())[:511])


class Result:
    """A document the loader accepts: its version, entity count, and what the load changed
    on the way in (the report lines of world_load_opts)."""

    def __init__(self, version, entities, report):
        self.version = version
        self.entities = entities
        self.report = report


def check(document, schema, lax=False):
    """Result for a parsed document (document.parse) under the model of a schema
    (ecsgenlib.model.Schema); Refused with the loader's message otherwise."""
    report = []
    _check_keys((), document, DOCUMENT_KEYS, "top-level key")
    version = _check_header(document, schema)
    _migrate(document, schema, lax, report)
    mentions = _Mentions()
    if "singletons" in document.keys():
        singletons = document.get("singletons")
        _check_keys(("singletons",), singletons, {c.name for c in schema.singletons}, "singleton")
        for c in schema.singletons:
            if c.name in singletons.keys():
                _read_component(("singletons", c.name), singletons.get(c.name), c, mentions)
    ids = _read_entities(document, schema, mentions)
    _restore_ids(ids, mentions, schema)
    _check_relations(document, ids, schema)
    return Result(version, len(ids), report)


def _check_keys(path, v, keys, what):
    if not isinstance(v, Obj):
        _fail(path, f"expected an object, got {describe(v)}")
    seen = set()
    for k, _ in v:
        if k not in keys:
            _fail(_key(path, k), f"unknown {what}")
        if k in seen:
            _fail(_key(path, k), "duplicate key")
        seen.add(k)


def _check_header(doc, schema):
    name, number = doc.get("schema"), doc.get("version")
    if name is None and "schema" not in doc.keys():
        _fail(("schema",), f"missing (a saved {schema.name} world names its schema)")
    if not isinstance(name, str) or name != schema.name:
        _fail(("schema",), f"this document is for schema {describe(name)}, not {schema.name}")
    if number is None and "version" not in doc.keys():
        _fail(("version",), "missing (a saved world states its schema version)")
    version = _read_integer(("version",), number, 0, 2 ** 32 - 1, False)
    if version == 0:
        _fail(("version",), "versions start at 1, got 0")
    if version > schema.version:
        _fail(("version",), f"document version {version} is newer than schema {schema.name}'s version "
                         f"{schema.version} (load it with a newer program)")
    return version


# ---- An older document: renames and removals (ecs_json_migrate.c) ---------------------

def _migrate(doc, schema, lax, report):
    singletons = doc.get("singletons")
    if isinstance(singletons, Obj):
        _migrate_object(("singletons",), singletons, schema, lax, True, report)
    entities = doc.get("entities")
    if isinstance(entities, list) and not isinstance(entities, Obj):
        for k, o in enumerate(entities):
            if isinstance(o, Obj):
                _migrate_object(("entities", k), o, schema, lax, False, report)


def _migrate_object(path, obj, schema, lax, singletons, report):
    renames = [(old, c.name) for c in schema.components for old in c.was]
    _rename_keys(path, obj, renames, report)
    known = {c.name for c in schema.components if c.singleton == singletons}
    what = "singleton" if singletons else "component"
    removed = set(schema.removed_components)
    kept = []
    for pair in obj:
        k = pair[0]
        if k == "id" and not singletons or k in known or not lax and k not in removed:
            kept.append(pair)
            continue
        _note(report, _key(path, k), f"{'removed' if k in removed else 'unknown'} {what}, dropped")
    obj[:] = kept
    for c in schema.components:
        value = obj.get(c.name)
        if c.singleton != singletons or c.tag or not isinstance(value, Obj):
            continue
        where = _key(path, c.name)
        _rename_keys(where, value, [(old, f.name) for f in c.fields for old in f.was], report)
        fields, removed_fields = {f.name for f in c.fields}, set(c.removed_fields)
        kept = []
        for pair in value:
            k = pair[0]
            if k in fields or not lax and k not in removed_fields:
                kept.append(pair)
                continue
            _note(report, _key(where, k), f"{'removed' if k in removed_fields else 'unknown'} field of {c.name}, dropped")
        value[:] = kept


def _rename_keys(path, obj, renames, report):
    """Each old key takes its new name and moves to the end (cJSON_AddItemToObject appends)."""
    old_names = dict(renames)
    for pair in list(obj):
        to = old_names.get(pair[0])
        if to is None:
            continue
        if to in obj.keys():
            _fail(_key(path, pair[0]), f"'{pair[0]}' is the old name of '{to}', and both are given (keep one)")
        _note(report, _key(path, pair[0]), f"renamed to {to}")
        obj.remove(pair)
        obj.append((to, pair[1]))


# ---- Components and values (json.c.j2's per-component readers) ---------------------------

def _read_entities(document, schema, mentions):
    if "entities" not in document.keys():
        return []
    entities = document.get("entities")
    if not isinstance(entities, list) or isinstance(entities, Obj):
        _fail(("entities",), f"expected an array, got {describe(entities)}")
    keys = {"id"} | {c.name for c in schema.pooled}
    ids = []
    for k, o in enumerate(entities):
        path = ("entities", k)
        _check_keys(path, o, keys, "component")
        if "id" not in o.keys():
            _fail(path + ("id",), 'missing (every entity has an id, e.g. "5v0")')
        if o.get("id") is None:
            _fail(path + ("id",), 'expected an entity id like "5v0", got null')
        ids.append(_read_entity(path + ("id",), o.get("id"), mentions))
        for c in schema.pooled:
            if c.name not in o.keys():
                continue
            item = o.get(c.name)
            if c.tag:
                if item is not True:
                    _fail(_key(path, c.name), f"a tag's value is true, got {describe(item)}")
            else:
                _read_component(_key(path, c.name), item, c, mentions)
    return ids


def _read_component(path, o, component, mentions):
    _check_keys(path, o, {f.name for f in component.fields}, f"field of {component.name}")
    for f in component.fields:
        if f.name not in o.keys():
            continue
        where, item = _key(path, f.name), o.get(f.name)
        t = f.type
        if t.is_array:
            _check_array(where, item, t.length)
            for k, element in enumerate(item):
                _read_scalar(where + (k,), element, t.scalar, t, mentions)
        else:
            _read_scalar(where, item, t.scalar, t, mentions)


def _read_scalar(path, v, scalar, t, mentions):
    """One value of field type t (an array's element: scalar is its element type), by the
    type's kind and width (types.SCALARS), as the runtime's typed readers do."""
    kind = t.kind
    if kind == "bool":
        if v is not True and v is not False:
            _fail(path, f"expected true or false, got {describe(v)}")
    elif kind == "float":
        d = _read_real(path, v)
        if t.bits == 32 and math.isfinite(d) and abs(d) >= F32_LIMIT:
            _fail(path, f"expected number in {scalar} range (about ±3.4e38), got {format_real(d)}")
    elif kind == "entity":
        if v is not None:
            parsed = _read_entity(path, v, mentions)
            if parsed[1] > REF_GENERATION_MAX:
                mentions.last_refs.append((path, parsed))
    elif kind == "char":
        if not isinstance(v, str):
            _fail(path, f"expected string, got {describe(v)}")
        n = len(c_bytes(v))
        if n >= t.length:
            _fail(path, f"string of {n} bytes does not fit char[{t.length}] (at most {t.length - 1} bytes)")
    elif kind == "enum":
        _read_enum(path, v, t.values)
    else:  # int, uint
        low, high = t.int_range()
        _read_integer(path, v, low, high, t.bits == 64)


def _read_integer(path, v, low, high, strings):
    """ecs_json_read_integer: a number below 2^53 in magnitude, or (64-bit fields) a decimal
    string, within [low, high]."""
    value, why = None, ""
    if isinstance(v, Num):
        d = float(v)
        if math.isfinite(d) and d == math.floor(d):
            if abs(d) < EXACT:
                value = int(d)
            elif strings:
                why = ' (write integers from 2^53 on as strings, e.g. "9007199254740993")'
    elif strings and isinstance(v, str):
        parsed = parse_decimal(v)
        if parsed:
            value = -parsed[1] if parsed[0] else parsed[1]
    if value is not None and low <= value <= high:
        return value
    if low < 0:
        _fail(path, f"expected integer in [{low}, {high}], got {describe(v)}{why}")
    _fail(path, f"expected integer in [0, {high}], got {describe(v)}{why}")


def _read_real(path, v):
    if isinstance(v, Num) and math.isfinite(float(v)):
        return float(v)
    specials = {"NaN": math.nan, "-NaN": -math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
    if isinstance(v, str) and v in specials:
        return specials[v]
    _fail(path, f"expected number, got {describe(v)}")


def _read_enum(path, v, names):
    if isinstance(v, str) and v in names:
        return
    # A value outside the enum, set from C, is saved as its number: load what save writes.
    if isinstance(v, Num) and math.isfinite(float(v)) and float(v) == math.floor(float(v)) \
            and INT_MIN <= float(v) <= INT_MAX and (float(v) < 0 or float(v) >= len(names)):
        return
    listed = ""
    for k, name in enumerate(names):
        if len(listed) + len(name) + 3 >= 256:
            break
        listed += (", " if k else "") + name
    _fail(path, f"expected one of {listed}, got {describe(v)}")


class _Mentions(list):
    """Every id the document names, and the references in a slot's last 2^24 generations with
    their paths (the loader refuses those unless the document has that slot live at least at
    that generation)."""

    def __init__(self):
        super().__init__()
        self.last_refs = []


def _read_entity(path, v, mentions):
    parsed = parse_id(v)
    if parsed is None:
        _fail(path, f'expected an entity id like "5v0" or null, got {describe(v)}')
    mentions.append(parsed)
    return parsed


def _check_array(path, v, n):
    if not isinstance(v, list) or isinstance(v, Obj):
        _fail(path, f"expected an array of {n}, got {describe(v)}")
    if len(v) != n:
        _fail(path, f"expected an array of {n}, got an array of {len(v)}")


# ---- Ids (ecs_json_restore_ids, into a fresh world) --------------------------------------

def _restore_ids(ids, mentions, schema):
    limit = schema.max_entities or INDEX_LIMIT
    allowed = max(SLOTS_DEFAULT, len(ids) * 4)
    for k, (index, _) in enumerate(ids):
        if index >= limit:
            _fail(("entities", k, "id"), f"slot {index} is beyond the schema's max_entities ({schema.max_entities})")
        if index >= allowed:
            _fail(("entities", k, "id"), f"slot {index} is beyond the {allowed} slots this load restores (a document of "
                                       f"{len(ids)} entities; the load option max_slots raises the limit)")
    owner = {}
    for k, (index, generation) in enumerate(ids):
        if index in owner:
            j = owner[index]
            _fail(("entities", k, "id"), f"duplicate id {format_id(index, generation)}: slot {index} is already "
                                       f"entities[{j}] ({format_id(*ids[j])})")
        owner[index] = k
    # A reference near the end of a slot's generations, unless the document has that slot
    # live at least at its generation, would leave the slot few entities before it retires.
    for path, (index, generation) in mentions.last_refs:
        live = owner.get(index)
        if live is not None and ids[live][1] >= generation:
            continue
        if generation == LAST_GENERATION:
            _fail(path, f"{format_id(index, generation)} is the last generation of slot {index} and no entity of "
                        f"the document has it: loading it would retire the slot for good")
        _fail(path, f"{format_id(index, generation)} is within the last 2^24 generations of slot {index} and no "
                    f"entity of the document has that slot at it: loading it would leave the slot "
                    f"{LAST_GENERATION - generation} more entities before it is retired")
    for index, generation in mentions:
        live = owner.get(index)
        if live is not None and generation > ids[live][1]:
            _fail(("entities", live, "id"), f"the document also names {format_id(index, generation)}, a later "
                                          f"generation of live {format_id(*ids[live])}'s slot")


# ---- Relations (the generated <name>__relation_refused, as the staging world grows) ----------

def _check_relations(document, ids, schema):
    """Each relation's target must be an entity of the document, and no relation may close a
    cycle (the cascade relations all together, each clear relation alone), checked as the
    loader adds components: entity by entity in document order, components in schema order."""
    relations = [c for c in schema.pooled if c.relation]
    if not relations:
        return
    live = set(ids)
    targets = {}  # (entity, relation name) -> target, as added so far

    def reaches(start, e, r):
        todo, seen = [start], set()
        while todo:
            x = todo.pop()
            if x == e:
                return True
            if x in seen:
                continue
            seen.add(x)
            for c in relations:
                if (c is r or (r.relation.cascade and c.relation.cascade)) and (x, c.name) in targets:
                    todo.append(targets[(x, c.name)])
        return False

    for k, o in enumerate(document.get("entities") if "entities" in document.keys() else []):
        e = ids[k]
        for c in relations:
            if c.name not in o.keys():
                continue
            path = ("entities", k, c.name, "target")
            t = parse_id(o.get(c.name).get("target")) if "target" in o.get(c.name).keys() else None
            if t not in live:
                _fail(path, "the target is not an entity of the document (a relation must point at a live entity)")
            if reaches(t, e, c):
                _fail(path, "the relation makes a cycle (an entity would point at itself, at some depth)")
            targets[(e, c.name)] = t


def check_file(path, schema, lax=False):
    """check() of the dump in file path; DumpError (file: message) when it is refused."""
    from . import document
    doc = document.read(path)
    try:
        return check(doc, schema, lax)
    except Refused as e:
        raise DumpError(path, e.args[0]) from None
