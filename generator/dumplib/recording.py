"""Recordings (<name>_recorder_save_all): a JSON document holding a run of frames, the first
as a whole saved world, each later one as what changed since the one before (format:
docs/debugging-with-dumps.md, "Flight recorder"). This module rebuilds any frame as an
ordinary saved world, which the rest of dumplib (diff, stats, check) reads as it reads a
dump; and prints one as cJSON_Print does, so an extracted frame is the text the program's
<name>_recorder_save_frame writes."""

import json

from .document import DumpError, Num, Obj, describe, key_text, parse_id


def is_recording(doc):
    return isinstance(doc, Obj) and "recording" in doc.keys() and "first" in doc.keys()


def _slot(file, path, v):
    parsed = parse_id(v)
    if parsed is None:
        raise DumpError(file, f'{path}: expected an entity id like "5v0", got {describe(v)}')
    return parsed[0]


def frames(file, doc):
    """Every frame of the recording as a saved world (an Obj), oldest first; DumpError naming
    the path in the recording where its shape is wrong."""
    first, deltas = doc.get("first"), doc.get("deltas")
    if not isinstance(first, Obj):
        raise DumpError(file, f"first: expected a saved world, got {describe(first)}")
    if not isinstance(deltas, list) or isinstance(deltas, Obj):
        raise DumpError(file, f"deltas: expected an array, got {describe(deltas)}")
    items = first.get("entities")
    if items is None:
        items = []
    if not isinstance(items, list) or isinstance(items, Obj):
        raise DumpError(file, f"first.entities: expected an array, got {describe(items)}")
    by_slot = {}
    for k, o in enumerate(items):
        if not isinstance(o, Obj):
            raise DumpError(file, f"first.entities[{k}]: expected an object, got {describe(o)}")
        by_slot[_slot(file, f"first.entities[{k}].id", o.get("id"))] = o
    singletons = first.get("singletons")
    singletons = Obj(singletons) if isinstance(singletons, Obj) else Obj()
    head = [(k, v) for k, v in first if k not in ("singletons", "entities")]
    out = [first]
    for n, d in enumerate(deltas):
        where = f"deltas[{n}]"
        if not isinstance(d, Obj):
            raise DumpError(file, f"{where}: expected an object, got {describe(d)}")
        for key in d.keys():
            if key not in ("singletons", "removed", "entities", "changed"):
                raise DumpError(file, f"{where}.{key_text(key)}: unknown key of a delta (expected singletons, removed, entities, changed)")
        changed = d.get("singletons", Obj())
        if not isinstance(changed, Obj):
            raise DumpError(file, f"{where}.singletons: expected an object, got {describe(changed)}")
        singletons = Obj(singletons)
        for name, value in changed:
            keys = singletons.keys()
            if name in keys:
                singletons[keys.index(name)] = (name, value)
            else:
                singletons.append((name, value))
        by_slot = dict(by_slot)
        for key in ("removed", "entities", "changed"):
            listed = d.get(key, [])
            if not isinstance(listed, list) or isinstance(listed, Obj):
                raise DumpError(file, f"{where}.{key}: expected an array, got {describe(listed)}")
            for k, item in enumerate(listed):
                if key == "removed":
                    slot = _slot(file, f"{where}.removed[{k}]", item)
                    if slot not in by_slot:
                        raise DumpError(file, f"{where}.removed[{k}]: no entity in this slot in the frame before")
                    del by_slot[slot]
                elif key == "entities":
                    if not isinstance(item, Obj):
                        raise DumpError(file, f"{where}.entities[{k}]: expected an object, got {describe(item)}")
                    by_slot[_slot(file, f"{where}.entities[{k}].id", item.get("id"))] = item
                else:  # values replaced in place
                    if not isinstance(item, Obj):
                        raise DumpError(file, f"{where}.changed[{k}]: expected an object, got {describe(item)}")
                    slot = _slot(file, f"{where}.changed[{k}].id", item.get("id"))
                    old = by_slot.get(slot)
                    if old is None or old.get("id") != item.get("id"):
                        raise DumpError(file, f"{where}.changed[{k}].id: no entity with this id in the frame before")
                    new = Obj(old)
                    names = new.keys()
                    for name, value in item:
                        if name == "id":
                            continue
                        if name not in names:
                            raise DumpError(file, f"{where}.changed[{k}].{name}: not a component of the entity in the "
                                                  "frame before (a new component goes in \"entities\")")
                        new[names.index(name)] = (name, value)
                    by_slot[slot] = new
        frame = Obj(head)
        frame.append(("singletons", singletons))
        frame.append(("entities", [by_slot[s] for s in sorted(by_slot)]))
        out.append(frame)
    return out


def pick(file, doc, frame):
    """Frame number `frame` (0 the oldest, -1 the newest) of a recording."""
    listed = frames(file, doc)
    try:
        k = int(frame)
    except ValueError:
        raise DumpError(file, f"frame {frame!r}: expected a number (0 the oldest, -1 the newest)") from None
    if not -len(listed) <= k < len(listed):
        raise DumpError(file, f"frame {k}: the recording holds frames 0 to {len(listed) - 1}")
    return listed[k]


def changes(before, after):
    """(changed, added, removed) entity counts from frame `before` to frame `after`."""
    a = {o.get("id"): o for o in before.get("entities") or []}
    b = {o.get("id"): o for o in after.get("entities") or []}
    from .document import same
    changed = sum(1 for i, o in b.items() if i in a and not same(a[i], o))
    return changed, sum(1 for i in b if i not in a), sum(1 for i in a if i not in b)


def _string(s):
    out = ['"']
    for ch in s:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif code < 32:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def to_cjson(v, depth=1):
    """v as cJSON_Print formats it (tabs, ':\\t', arrays on one line): a frame printed here is
    the text the program's save writes."""
    if isinstance(v, Num):
        return v.text
    if isinstance(v, Obj):
        if not v:
            return "{\n" + "\t" * (depth - 1) + "}"
        items = [("\t" * depth) + _string(k) + ":\t" + to_cjson(x, depth + 1) for k, x in v]
        return "{\n" + ",\n".join(items) + "\n" + "\t" * (depth - 1) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(to_cjson(x, depth + 1) for x in v) + "]"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, str):
        return _string(v)
    return json.dumps(v)
