"""build_model(): a document that passed the JSON Schema into the model, with the semantic
checks a JSON Schema cannot express (C keywords, reserved names, defaults against types,
queries and prefabs naming real components, C names that would clash after mangling); it
reports every problem found as SchemaErrors."""

from .errors import SchemaError, SchemaErrors, did_you_mean
from .model import Component, Field, Prefab, Query, Schema
from .naming import C_KEYWORDS, C_MACROS, CPP_KEYWORDS
from .ownership import decide_ownership
from .systems import build_systems, schedule
from .types import MAX_COMPONENT_BYTES, parse_type, zero_value


def _check_name(errors, file, path, name, what):
    if name in C_KEYWORDS or name in C_MACROS:
        errors.append(SchemaError(file, path, f"{what} '{name}' is a C keyword or standard macro",
                                  "pick another name"))
    elif name in CPP_KEYWORDS:
        errors.append(SchemaError(file, path, f"{what} '{name}' is a C++ keyword",
                                  "the generated header also compiles as C++: pick another name"))
    elif "__" in name:
        errors.append(SchemaError(file, path, f"{what} '{name}' contains '__'",
                                  "double underscores are kept for ecsgen's internal names"))
    elif name.lower().startswith("ecs_") or name.lower() == "ecs":
        errors.append(SchemaError(file, path, f"{what} '{name}' uses the runtime's prefix 'ecs'",
                                  "pick another name"))
    else:
        return True
    return False


def build_model(document, file):
    """The Schema for a document that passed the structural check; SchemaErrors otherwise."""
    errors = []
    name = document["name"]
    _check_name(errors, file, "name", name, "schema name")
    schema = Schema(name, document.get("doc", ""), document.get("version", 1),
                    document.get("max_entities", 0), document.get("removed_components", []))
    by_name = {}
    for cname, spec in document["components"].items():
        component = _build_component(errors, file, schema.names, cname, spec)
        if component:
            schema.components.append(component)
            by_name[cname] = component
    schema.number_components()
    if document["components"] and not schema.pooled and not errors:
        errors.append(SchemaError(file, "components", "every component is a singleton",
                                  "an ECS needs at least one per-entity component"))
    for qname, spec in document.get("queries", {}).items():
        query = _build_query(errors, file, schema.names, by_name, qname, spec)
        if query:
            schema.queries.append(query)
    for pname, spec in document.get("prefabs", {}).items():
        prefab = _build_prefab(errors, file, schema.names, by_name, pname, spec)
        if prefab:
            schema.prefabs.append(prefab)
    if document.get("systems"):
        def inline_query(sname, spec, path):
            query = _build_query(errors, file, schema.names, by_name, sname, spec, path)
            if query:
                schema.queries.append(query)
            return query
        build_systems(errors, file, schema, by_name, document["systems"], inline_query, _check_name)
    _check_evolution(errors, file, schema)
    if not errors:
        decide_ownership(schema)
        schema.stages, schema.apart = schedule(schema)
        _check_clashes(errors, file, schema)
    if errors:
        raise SchemaErrors(errors)
    return schema


def _build_component(errors, file, names, cname, spec):
    path = f"components.{cname}"
    ok = _check_name(errors, file, path, cname, "component name")
    if cname == "id":
        errors.append(SchemaError(file, path, "the component name 'id' is reserved",
                                  "saved worlds use 'id' for the entity's id"))
        ok = False
    tag, singleton = spec.get("tag", False), spec.get("singleton", False)
    fields = spec.get("fields")
    relation = spec.get("relation")
    if relation is not None:
        fields = _relation_fields(errors, file, path, spec)
        if fields is None:
            return None
    if tag and singleton:
        errors.append(SchemaError(file, path, "a tag cannot be a singleton", "a singleton needs fields"))
        return None
    if tag and fields is not None:
        errors.append(SchemaError(file, f"{path}.fields", "a tag has no fields",
                                  "drop \"tag\": true to give it data"))
        return None
    if not tag and fields is None:
        errors.append(SchemaError(file, path, "a component needs \"fields\" or \"tag\": true"))
        return None
    storage = spec.get("storage", "sparse")
    if singleton and "storage" in spec:
        errors.append(SchemaError(file, f"{path}.storage", "a singleton has no storage choice",
                                  "it is stored once, in the world: drop \"storage\""))
        return None
    layout = spec.get("layout", "soa")
    if (tag or singleton) and "layout" in spec:
        errors.append(SchemaError(file, f"{path}.layout", f"a {'tag' if tag else 'singleton'} has no layout choice",
                                  "a tag has no fields to lay out: drop \"layout\"" if tag else
                                  "it is stored once, in the world: drop \"layout\""))
        return None
    if relation is not None and "layout" in spec:
        errors.append(SchemaError(file, f"{path}.layout", "a relation has no layout choice",
                                  "its one field, target, is kept as the relation's index reads it: drop \"layout\""))
        return None
    component = Component(names, cname, spec.get("doc", ""), tag, singleton, path, storage, layout,
                          spec.get("was", []), spec.get("removed_fields", []),
                          relation["on_target_destroy"] if relation is not None else None)
    if tag and component.removed_fields:
        errors.append(SchemaError(file, f"{path}.removed_fields", "a tag has no fields to remove",
                                  "a tag that had fields before: its old data is dropped with the component's"))
        return None
    for fname, fspec in (fields or {}).items():
        field = _build_field(errors, file, component, fname, fspec, f"{path}.fields.{fname}")
        if field:
            component.fields.append(field)
    if component.c_size > MAX_COMPONENT_BYTES:
        what = "singleton" if singleton else "component"
        errors.append(SchemaError(file, path, f"{what} '{cname}' takes {component.c_size} bytes, more than the "
                                  f"{MAX_COMPONENT_BYTES >> 20} MiB a component may have: get/set/add pass "
                                  "components by value on the stack",
                                  "split it into smaller components, or keep the data outside the world "
                                  "and store a handle or an index"))
        ok = False
    return component if ok else None


def _relation_fields(errors, file, path, spec):
    """A relation's one field, `target`; None (with the error) for a relation that is also
    a tag or a singleton, or declares fields."""
    for key, what, hint in (("tag", "a tag", "a relation holds its target: drop \"tag\""),
                            ("singleton", "a singleton", "a relation links entities: drop \"singleton\""),
                            ("fields", "given fields", "a relation's one field is `target` (an entity): drop \"fields\"")):
        if key in spec and spec[key] is not False:
            errors.append(SchemaError(file, f"{path}.{key}", f"a relation cannot be {what}", hint))
            return None
    return {"target": {"type": "entity", "doc": "the entity this one points at"}}


def _build_field(errors, file, component, fname, fspec, path):
    ok = _check_name(errors, file, path, fname, "field name")
    if isinstance(fspec, str):
        fspec = {"type": fspec}
    field_type = parse_type(fspec["type"], fspec.get("values"))
    if field_type.scalar == "enum":
        values = fspec.get("values")
        if values is None:
            errors.append(SchemaError(file, f"{path}.values", "an enum needs \"values\"",
                                      "e.g. \"values\": [\"idle\", \"chase\"]"))
            return None
        seen = {}
        for k, value in enumerate(values):
            key = value.upper()
            if key == "COUNT":  # <NAME>_<C>_<F>_COUNT is the number of values
                errors.append(SchemaError(file, f"{path}.values[{k}]",
                                          f"enum value '{value}' is reserved: its C name is the enum's value count",
                                          "rename it, e.g. 'count_'"))
                ok = False
            elif key in seen:
                errors.append(SchemaError(file, f"{path}.values[{k}]",
                                          f"duplicate enum value '{value}' (same C name as values[{seen[key]}])"))
                ok = False
            seen[key] = k
    elif "values" in fspec:
        errors.append(SchemaError(file, f"{path}.values", "only an enum field has \"values\"",
                                  f"this field's type is {fspec['type']}"))
        return None
    if "default" in fspec:
        try:
            default = field_type.check_default(fspec["default"])
        except ValueError as e:
            errors.append(SchemaError(file, f"{path}.default{getattr(e, 'where', '')}", str(e)))
            default = zero_value(field_type)  # the field still exists: a prefab may set it
    else:
        default = zero_value(field_type)
    if not ok:
        return None
    return Field(component, fname, field_type, default, fspec.get("doc", ""), path, fspec.get("was", []))


def _lookup(errors, file, path, by_name, cname, allow_singleton=False):
    component = by_name.get(cname)
    if component is None:
        errors.append(SchemaError(file, path, f"unknown component '{cname}'", did_you_mean(cname, by_name)))
    elif component.singleton and not allow_singleton:
        errors.append(SchemaError(file, path, f"'{cname}' is a singleton",
                                  "singletons live in the world, not on entities"))
        component = None
    return component


def _build_query(errors, file, names, by_name, qname, spec, inline_path=None):
    path = inline_path or f"queries.{qname}"
    ok = inline_path is not None or _check_name(errors, file, path, qname, "query name")
    terms = {"all": [], "none": []}
    for key in ("all", "none"):
        for k, cname in enumerate(spec.get(key, [])):
            where = f"{path}.{key}[{k}]"
            component = _lookup(errors, file, where, by_name, cname)
            if component is None:
                ok = False
            elif component in terms["all"] or component in terms["none"]:
                errors.append(SchemaError(file, where, f"'{cname}' is named twice in this query"))
                ok = False
            else:
                terms[key].append(component)
    if not ok:
        return None
    slotted = [c.name for c in terms["all"] if c.slot]
    if spec.get("owned", False) and slotted:
        errors.append(SchemaError(file, f"{path}.owned", f"a query over slot storage ({', '.join(slotted)}) cannot own pools",
                                  "slot components sit at their entity's slot already: drop \"owned\""))
        return None
    return Query(names, qname, terms["all"], terms["none"], spec.get("doc", ""), spec.get("owned", False), path)


def _build_prefab(errors, file, names, by_name, pname, spec):
    path = f"prefabs.{pname}"
    ok = _check_name(errors, file, path, pname, "prefab name")
    parts = []
    for cname, values in spec.items():
        where = f"{path}.{cname}"
        component = _lookup(errors, file, where, by_name, cname)
        if component is None:
            ok = False
            continue
        if component.tag:
            if values is not True:
                errors.append(SchemaError(file, where, f"'{cname}' is a tag: its value is true",
                                          "leave it out for an entity without it"))
                ok = False
            parts.append((component, None))
            continue
        if not isinstance(values, dict):
            errors.append(SchemaError(file, where, f"expected an object of field values, got {values!r}",
                                      "{} takes every default"))
            ok = False
            continue
        checked = {}
        fields = {f.name: f for f in component.fields}
        for fname, value in values.items():
            field = fields.get(fname)
            if field is None:
                errors.append(SchemaError(file, f"{where}.{fname}", f"'{cname}' has no field '{fname}'",
                                          did_you_mean(fname, fields)))
                ok = False
                continue
            try:
                checked[fname] = field.type.check_default(value)
            except ValueError as e:
                errors.append(SchemaError(file, f"{where}.{fname}{getattr(e, 'where', '')}", str(e)))
                ok = False
        parts.append((component, checked))
    return Prefab(names, pname, parts, path) if ok else None


def _check_evolution(errors, file, schema):
    """Old names (`was`, `removed_*`) must not be live names, and each old name maps to one
    place: a saved world's key then means exactly one thing."""

    def claim(old, live, live_what, names, where, hint, kind):
        """Records old names at paths `where[k]`; `kind` says what one maps to."""
        for k, name in enumerate(names):
            path = f"{where}[{k}]"
            if name == "id" and kind == "component":  # every entity object has the key "id"
                errors.append(SchemaError(file, path, "'id' cannot be an old component name: saved worlds use 'id' "
                                                      "for the entity's id", "no saved world has a component 'id'; drop it"))
            elif name in live:
                errors.append(SchemaError(file, path, f"'{name}' is {live_what}", hint))
            elif name in old:
                errors.append(SchemaError(file, path, f"'{name}' is claimed by {old[name]} too",
                                          f"an old name maps to one {kind}"))
            old[name] = path

    live = {c.name for c in schema.components}
    old = {}
    claim(old, live, "a component of this schema", schema.removed_components, "removed_components",
          "list only components the schema no longer has", "component")
    for c in schema.components:
        claim(old, live, "a component of this schema", c.was, f"{c.path}.was",
              "an old name cannot also be a live one", "component")
        fields, old_fields = {f.name for f in c.fields}, {}
        claim(old_fields, fields, f"a field of {c.name}", c.removed_fields, f"{c.path}.removed_fields",
              "list only fields the component no longer has", "field")
        for f in c.fields:
            claim(old_fields, fields, f"a field of {c.name}", f.was, f"{f.path}.was",
                  "an old name cannot also be a live one", "field")


def _check_clashes(errors, file, schema):
    """Refuses schemas whose names would make one C identifier twice, naming both paths."""
    owners = {}
    reported = set()  # a component can generate one name twice (a type and its tag): say it once

    def claim(identifier, path, scope=None):
        key = (scope, identifier)
        other = owners.setdefault(key, path)
        if other == path or (key, path) in reported:
            return
        reported.add((key, path))
        where = f" in {scope}" if scope else ""
        if other.startswith("("):
            errors.append(SchemaError(file, path, f"generates the C name '{identifier}'{where}, taken by {other[1:-1]}",
                                      "rename it"))
        else:
            errors.append(SchemaError(file, path, f"generates the C name '{identifier}'{where}, as {other} does",
                                      "rename one of them"))

    for identifier in schema.fixed_names():
        claim(identifier, "(ecsgen's fixed API)")
    for c in schema.components:
        for identifier in c.generated_names():
            claim(identifier, c.path)
        if c.pool_type and not c.tag:
            claim("set", "(the pool's sparse set member)", c.pool_type)
        for f in c.fields:
            claim(f.mangled, f.path)
            if f.enum_type:
                for identifier in [f.enum_type, f.enum_tag, f.enum_count, *f.enum_constants]:
                    claim(identifier, f.path)
            if c.pool_type:
                claim(f.name, f.path, c.pool_type)
    for q in schema.queries:
        for identifier in q.generated_names():
            claim(identifier, q.path)
        claim("count", "(the view's member count)", q.view_type)
        claim("entity", "(the view's member entity)", q.view_type)
        for k, c in enumerate(q.all):
            if not c.tag:
                claim(c.name, f"{q.path}.all[{k}]", q.view_type)
    for p in schema.prefabs:
        claim(p.spawn_fn, p.path)
        claim(p.spawn_with_fn, p.path)
    for x in schema.systems:
        for identifier in x.generated_names():
            claim(identifier, x.path)
        for member in ("count", "entity", "dt", "world") + (("target",) if x.depth_first else ()):
            claim(member, f"(the system context's member {member})", x.type)
        for c in x.members + x.singletons:
            claim(c.name, x.path, x.type)
