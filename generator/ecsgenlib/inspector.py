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
