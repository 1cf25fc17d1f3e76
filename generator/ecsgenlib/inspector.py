"""The schema's metadata for the inspector page (--inspector): what a dump's components,
fields, types, enum names and doc strings are, as plain data the page's script reads."""


def metadata(schema):
    """A JSON-ready dict, in the schema's order (so the page is the same bytes every run)."""
    return {
        "name": schema.name,
        "version": schema.version,
        "doc": schema.doc,
        "components": [_component(c) for c in schema.components],
        "removed_components": list(schema.removed_components),
        "queries": [{"name": q.name, "all": [c.name for c in q.all], "none": [c.name for c in q.none],
                     "doc": q.doc or ""} for q in schema.queries],
        "schedule": _schedule(schema),
    }


def _schedule(schema):
    """The systems' schedule, from the same source as --docs' stage table: the stages in
    order, each system's access, and each pair kept apart with its reasons."""
    names = lambda cs: [c.name for c in cs]  # noqa: E731
    return {
        "stages": [{"systems": [x.name for x in stage], "sync": any(x.structural for x in stage)}
                   for stage in schema.stages],
        "systems": [{"name": x.name, "stage": x.stage, "doc": x.doc or "", "reads": names(x.reads),
                     "writes": names(x.writes), "adds": names(x.adds), "removes": names(x.removes),
                     "spawns": bool(x.spawns), "destroys": bool(x.destroys), "split": bool(x.split)}
                    for stage in schema.stages for x in stage],
        "apart": [{"first": x.name, "then": y.name,
                   "because": [{"component": c, "text": text} for c, text in why]}
                  for x, y, why in schema.apart],
    }


def _component(c):
    return {
        "name": c.name,
        "doc": c.doc or "",
        "kind": c.kind,  # "data", "tag" or "singleton"
        "storage": c.storage,
        "relation": c.relation.on_target_destroy if c.relation else None,  # "cascade", "clear" or null
        "fields": [_field(f) for f in c.fields],
    }


def _field(f):
    t = f.type
    return {
        "name": f.name,
        "type": t.spelling,  # as the schema spells it: f32, char[32], u16[8], enum
        "kind": t.kind,  # bool int uint float entity char enum
        "length": t.length,  # N of T[N] and char[N], else null
        "values": list(t.values),  # an enum's names, in order
        "doc": f.doc or "",
    }
