"""Systems: the schema's "systems" section checked into System objects (build_systems), and the
schedule <name>_step runs, computed here at build time (schedule()): stages of systems that
may run at once, and the sync points where recorded structural changes are applied.

The rules (docs/systems.md says them for users):
- The systems run in one order: `after` first, then declaration order (a topological sort
  that always takes the earliest-declared system that is ready).
- Two systems conflict when one writes a component the other reads or writes (data), when
  one's structural effect (adds, removes, destroys: every component) touches a component the
  other reads, writes or iterates, when either spawns (a spawn hands out an id at once, so a
  spawning system runs alone), or when one names the other in `after`.
- A later system y must run in a later stage than an earlier x (a sync point between) when
  they conflict in data, when x's effects touch what y reads, writes or iterates (y sees
  them, as it would run one after the other), or by spawns or `after`. When only y's effects
  touch x (x must not see them) or both change the same components, y may share x's stage:
  changes are recorded during a stage and applied after it, in system order.
- Each system goes in the first stage after every system it must follow (ASAP levels);
  within a stage systems keep the order above, and so do their recorded changes.
- A depth-first system (`"depth_first": "<relation>"`) runs over the relation's forest, each
  target before its sources. It reads the relation (the rules above keep it apart from a
  system that adds, removes or writes it, or destroys) and is never split (a source reads
  its target's value, written earlier in the same call).
"""

from .errors import SchemaError, did_you_mean
from .outputs import SYSTEM_HEADER


class System:
    def __init__(self, names, name, path, query, reads, writes, adds, removes, spawns, destroys, after,
                 split, doc, any_of, depth_first=None):
        self.name = name
        self.path = path
        self.query = query
        self.reads = reads
        self.writes = writes
        self.adds = adds
        self.removes = removes
        self.spawns = spawns
        self.destroys = destroys
        self.after = after  # System objects, filled after every system is known
        self.split_wanted = split
        self.doc = doc
        self.any = any_of  # an inline query's `any`: matches keep those with one of them
        self.depth_first = depth_first  # a relation component: matches in its depth-first order, or None
        self.defined_in = None
        self.index = None  # its place in the schedule's order
        self.stage = None
        self.type = names.type(name)
        self.tag = names.fn(name)
        self.field_macro = names.macro(name, "FIELD")
        self.fn = names.fn("system", name)
        self.row_macro_prefix = f"{names.upper}__{name.upper()}_ROW_"  # + component name
        self.prepare_fn = names.internal("prepare", name)  # its context for this stage, from its view
        self.run_fn = names.internal("run", name)  # its body over a range of the prepared context
        self.upper = name.upper()
        self.header_guard = names.macro("system", name, "h")  # its own header's (system.h.j2)
        self.header_file = SYSTEM_HEADER.file.format(name=names.prefix, system=name)

    @property
    def members(self):
        """The components the context reaches per match: read or written data components of
        the query's `all`, in `all` order."""
        listed = set(c.name for c in self.reads + self.writes)
        return [c for c in self.query.data if c.name in listed]

    @property
    def picked(self):
        """Its matches are a list the step keeps (pick_<s>): those of an `any` filter, or a
        depth-first system's, in the relation's order."""
        return bool(self.any) or self.depth_first is not None

    @property
    def owned(self):
        """Its rows are plain i: an owned query, and no list of picked matches."""
        return self.query.owned and not self.picked

    @property
    def listed(self):
        """Its rows come from a list (row__): a non-owned query, or an `any` filter."""
        return not self.owned and bool(self.members)

    def row_expr(self, c):
        """C: the ROW macro's body for member c (arguments s, i)."""
        if c.singleton:
            return "0"
        if self.owned:
            return "(i)"
        if self.picked:
            return f"((s)->row__.{c.name}[i])"
        return f"((s)->row__.{c.name} ? (s)->row__.{c.name}[i] : (i))"

    @property
    def reaches_world(self):
        """Why its body needs the world's whole API, or "" when it does not: its own header
        (system.h.j2) then includes <name>_ecs.h instead of its few blocks."""
        if self.spawns:
            return "it spawns, and a spawn's desc names every component"
        if self.depth_first is not None:
            return f"it reads its {self.depth_first.name} targets' values through s->world"
        own = {c.name for c in self.members + self.singletons}
        other = [c.name for c in self.reads + self.writes if c.name not in own]
        if other:
            return f"it reaches {', '.join(other)} of other entities through s->world"
        return ""

    @property
    def header_types(self):
        """The data components whose value types its own header defines: its context's, and
        those its recorded adds and sets take."""
        seen = {c.name: c for c in self.members + self.singletons + self.deferred if not c.tag}
        return list(seen.values())

    @property
    def deferred(self):
        """The components it may record changes of (adds, removes), each once."""
        return list({c.name: c for c in self.adds + self.removes}.values())

    @property
    def singletons(self):
        return [c for c in self.reads + self.writes if c.singleton]

    def writable(self, c):
        return c in self.writes

    def field_decl(self, c, f):
        """A context member's field pointer: const for a component read only. Not restrict in
        a depth-first system: its body reads a target's values through s->world, values it
        wrote through these pointers earlier in the call."""
        const = "" if self.writable(c) else "const "
        restrict = "" if self.depth_first else "ECS_RESTRICT "
        if f.is_block:
            return f"{const}{f.element_c_type} (*{restrict}{f.name}){f.suffix}"
        return f"{const}{f.element_c_type} *{restrict}{f.name}"

    def field_source(self, c, f, expr):
        """expr (a pointer to f's rows, or to the singleton's value) as field_decl's member
        takes it: a read-only array field's pointer converted explicitly, since C before C23
        does not convert `T (*)[N]` to `const T (*)[N]` (-Wpedantic refuses it)."""
        if f is not None and f.is_block and not self.writable(c):
            return f"(const {f.element_c_type} (*){f.suffix}){expr}"
        return expr

    @property
    def effects(self):
        """The components whose membership its recorded changes touch (destroys: all)."""
        return set(c.name for c in self.adds + self.removes)

    @property
    def structural(self):
        return bool(self.adds or self.removes or self.spawns or self.destroys)

    @property
    def iterates(self):
        return [c for c in self.query.all + self.query.none + self.any]

    @property
    def scheduled_reads(self):
        """The components it reads, for the schedule: `reads`, and the relation it walks depth
        first (unless it writes that)."""
        names = {c.name for c in self.reads}
        if self.depth_first is not None and self.depth_first not in self.writes:
            names.add(self.depth_first.name)
        return names

    def walks(self, c):
        """Whether it uses component c (a name) only as the relation it walks depth first
        (for the reasons' text: "walks it depth first", not "reads it")."""
        plain = {x.name for x in self.reads + self.writes + self.iterates}
        return self.depth_first is not None and c == self.depth_first.name and c not in plain

    @property
    def split(self):
        """Whether its matches may be cut into ranges on several threads: not when it spawns,
        writes a singleton, or writes a component outside its matches' (another entity's,
        through s->world: two ranges could write one entity), nor when it walks a relation
        depth first (a source reads its target's values), nor when the schema says not."""
        own = set(c.name for c in self.query.data)
        return (self.split_wanted and self.depth_first is None and not self.spawns
                and not any(c.singleton for c in self.writes) and all(c.name in own for c in self.writes))

    def generated_names(self):
        return [self.type, self.tag, self.field_macro, self.fn, self.header_guard]

    def mask(self, items, components):
        """C: the bits of `items` (components) by metadata index, in 64-bit words."""
        words = [0] * ((len(components) + 63) // 64)
        for c in items:
            words[c.meta_index // 64] |= 1 << (c.meta_index % 64)
        return "{ " + ", ".join(f"UINT64_C(0x{w:016x})" for w in words) + " }"

    @property
    def access_text(self):
        """One line for docs: what it reads, writes and changes."""
        parts = []
        for word, items in (("reads", self.reads), ("writes", self.writes), ("adds", self.adds),
                            ("removes", self.removes)):
            if items:
                parts.append(f"{word} {', '.join(c.name for c in items)}")
        if self.spawns:
            parts.append("spawns")
        if self.destroys:
            parts.append("destroys")
        if self.after:
            parts.append(f"after {', '.join(x.name for x in self.after)}")
        if self.depth_first:
            parts.append(f"depth first over {self.depth_first.name}")
        return "; ".join(parts) or "no access"


def build_systems(errors, file, schema, by_name, specs, make_query, check_name):
    """System objects for the "systems" section (also on schema.systems), with inline queries
    added to schema.queries; errors appended, as the other sections do."""
    systems = []
    for sname, spec in specs.items():
        system = _build_system(errors, file, schema, by_name, sname, spec, make_query, check_name)
        if system:
            systems.append(system)
    for k, x in enumerate(systems):
        x.decl = k  # its entry in the generated tables
    known = {x.name: x for x in systems}
    for x in systems:
        for k, other in enumerate(x.after):
            where = f"{x.path}.after[{k}]"
            if other == x.name:
                errors.append(SchemaError(file, where, f"system '{x.name}' cannot run after itself"))
            elif other not in known:
                hint = did_you_mean(other, [n for n in specs if n != x.name])
                errors.append(SchemaError(file, where, f"unknown system '{other}'",
                                          hint if other not in specs else "that system has errors of its own"))
        x.after = [known[o] for o in dict.fromkeys(x.after) if o in known and o != x.name]
    cycle = _find_cycle(systems)
    if cycle:
        first = cycle[0]
        k = [o.name for o in first.after].index(cycle[1].name) if len(cycle) > 1 else 0
        chain = " -> ".join(x.name for x in cycle + [first])
        errors.append(SchemaError(file, f"{first.path}.after[{k}]", f"'after' makes a cycle: {chain} (each runs after the next)",
                                  "drop one 'after' of the cycle"))
        return systems
    schema.systems = systems
    return systems


def _names(errors, file, path, by_name, spec, key, what):
    out = []
    for k, cname in enumerate(spec.get(key, [])):
        where = f"{path}.{key}[{k}]"
        c = by_name.get(cname)
        if c is None:
            errors.append(SchemaError(file, where, f"unknown component '{cname}'", did_you_mean(cname, by_name)))
            continue
        if c in out:
            errors.append(SchemaError(file, where, f"'{cname}' is named twice in {key}"))
            continue
        if key in ("reads", "writes") and c.tag:
            errors.append(SchemaError(file, where, f"'{cname}' is a tag: it has no values to {what}",
                                      "filter with all/none; add or remove it with \"adds\"/\"removes\""))
            continue
        if key in ("adds", "removes") and c.singleton:
            errors.append(SchemaError(file, where, f"'{cname}' is a singleton: it is never {what}",
                                      "a singleton is always there: list it in \"writes\""))
            continue
        out.append(c)
    return out


def _build_system(errors, file, schema, by_name, sname, spec, make_query, check_name):
    path = f"systems.{sname}"
    before = len(errors)
    check_name(errors, file, path, sname, "system name")
    inline = [k for k in ("all", "none", "any") if k in spec]
    query = None
    any_of = []
    declared = [q for q in schema.queries if q.inline_of is None]
    if any(q.name == sname for q in declared):
        errors.append(SchemaError(file, path, f"a query is named '{sname}' too: both would make "
                                  f"{schema.names.macro(sname, 'FIELD')}", "rename the system or the query"))
        return None
    if "query" in spec:
        if inline:
            errors.append(SchemaError(file, f"{path}.{inline[0]}", "a system names a declared \"query\" or declares "
                                      "one inline (all/none/any), not both", "drop one of them"))
            return None
        query = next((q for q in declared if q.name == spec["query"]), None)
        if query is None:
            errors.append(SchemaError(file, f"{path}.query", f"unknown query '{spec['query']}'",
                                      did_you_mean(spec["query"], [q.name for q in declared])
                                      or "declare it under \"queries\", or give the system \"all\""))
            return None
    elif "all" not in spec:
        errors.append(SchemaError(file, path, "a system needs \"query\" (a declared query) or \"all\" (an inline one)",
                                  "e.g. \"all\": [\"position\", \"velocity\"]"))
        return None
    else:
        any_of = _names(errors, file, path, by_name, spec, "any", "")
        for k, c in enumerate(any_of):
            if c.singleton:
                errors.append(SchemaError(file, f"{path}.any[{k}]", f"'{c.name}' is a singleton",
                                          "singletons live in the world, not on entities"))
            elif c.name in spec.get("all", []) or c.name in spec.get("none", []):
                errors.append(SchemaError(file, f"{path}.any[{k}]", f"'{c.name}' is named twice in this query"))
        # Named so that no schema name can take it (no "__" there), and apart from the
        # system's own names (a view's FIELD macro would be the system's otherwise).
        query = make_query(f"{sname}__query", {k: spec[k] for k in ("all", "none") if k in spec}, path)
        if query is None:
            return None
        query.inline_of = sname
        query.packs = "depth_first" not in spec  # a depth-first system's order is the relation's
    reads = _names(errors, file, path, by_name, spec, "reads", "read")
    writes = _names(errors, file, path, by_name, spec, "writes", "write")
    for k, c in enumerate(reads):
        if c in writes:
            errors.append(SchemaError(file, f"{path}.reads[{k}]", f"'{c.name}' is in both reads and writes",
                                      "writes implies reads: list it in \"writes\" only"))
    adds = _names(errors, file, path, by_name, spec, "adds", "added")
    removes = _names(errors, file, path, by_name, spec, "removes", "removed")
    depth_first = _depth_first(errors, file, path, by_name, spec)
    if len(errors) != before:
        return None
    return System(schema.names, sname, path, query, reads, writes, adds, removes, spec.get("spawns", False),
                  spec.get("destroys", False), list(spec.get("after", [])), spec.get("split", True),
                  spec.get("doc", ""), any_of, depth_first)


def _depth_first(errors, file, path, by_name, spec):
    """The relation component a system walks depth first ("depth_first"), or None (errors
    appended when it names no relation, or the system asks to be split)."""
    if "depth_first" not in spec:
        return None
    name = spec["depth_first"]
    relations = [c.name for c in by_name.values() if c.relation]
    listed = f"the relations here: {', '.join(relations)}" if relations else \
        "this schema has no relation: declare one with \"relation\": { \"on_target_destroy\": ... }"
    c = by_name.get(name)
    if c is None:
        errors.append(SchemaError(file, f"{path}.depth_first", f"unknown component '{name}'",
                                  did_you_mean(name, relations) or listed))
        return None
    if c.relation is None:
        errors.append(SchemaError(file, f"{path}.depth_first", f"'{name}' is not a relation: "
                                  "a depth-first order follows a relation from targets to sources", listed))
        return None
    if spec.get("split") is True:
        errors.append(SchemaError(file, f"{path}.split", "a depth-first system is never split: a source "
                                  "reads its target's values, written earlier in the same call",
                                  "drop \"split\": a depth-first system runs as one call"))
        return None
    return c


def _find_cycle(systems):
    """A list of systems, each after the next (and the last after the first), or None."""
    state = {}

    def visit(x, stack):
        state[x.name] = 1
        stack.append(x)
        for y in x.after:
            if state.get(y.name) == 1:
                return stack[stack.index(y):]
            if not state.get(y.name):
                found = visit(y, stack)
                if found:
                    return found
        stack.pop()
        state[x.name] = 2
        return None

    for x in systems:
        if not state.get(x.name):
            found = visit(x, [])
            if found:
                return found
    return None


def order(systems):
    """`after` first, then declaration order: repeatedly the earliest-declared ready system."""
    done, out = set(), []
    while len(out) < len(systems):
        x = next(x for x in systems if x.name not in done and all(a.name in done for a in x.after))
        done.add(x.name)
        out.append(x)
    return out


def reasons(x, y):
    """Why y (after x in the order) cannot share x's stage: a list of (component or None,
    text); empty when it may."""
    why = []
    xr, xw = x.scheduled_reads, {c.name for c in x.writes}
    yr, yw = y.scheduled_reads, {c.name for c in y.writes}
    for c in sorted(xw & yw):
        why.append((c, f"both write {c}"))
    for c in sorted(xw & yr):
        why.append((c, f"{x.name} writes {c}, {y.name} {'walks it depth first' if y.walks(c) else 'reads it'}"))
    for c in sorted(xr & yw):
        reading = f"walks {c} depth first" if x.walks(c) else f"reads {c}"
        why.append((c, f"{x.name} {reading}, {y.name} writes it"))
    touched = yr | yw | {c.name for c in y.iterates}
    for c in sorted(x.effects & touched):
        verb = "adds" if c in {a.name for a in x.adds} else "removes"
        why.append((c, f"{x.name} {verb} {c}, {y.name} {'walks it depth first' if y.walks(c) else 'uses it'}"))
    if x.destroys and touched:
        why.append((None, f"{x.name} destroys entities, {y.name} uses their components"))
    if x.spawns or y.spawns:
        why.append((None, f"{x.name if x.spawns else y.name} spawns (a spawning system runs alone)"))
    if x in y.after:
        why.append((None, f"{y.name} runs after {x.name}"))
    return why


def _ordered_only(x, y):
    """y (later) changes what x uses or what x changes: y may share x's stage (its changes
    wait for the sync point) but not run in an earlier one."""
    y_changes = y.effects | ({"*"} if y.destroys else set())
    if not y_changes:
        return False
    x_uses = x.scheduled_reads | {c.name for c in x.writes + x.iterates}
    x_changes = x.effects | ({"*"} if x.destroys else set())
    return bool(y.destroys or x.destroys or y_changes & (x_uses | x_changes))


def schedule(schema):
    """Sets each system's index and stage; returns the stages, each a list of systems, and
    the pairs kept apart: [(x, y, reasons)] for consecutive conflicting systems."""
    systems = getattr(schema, "systems", [])
    ordered = order(systems)
    for k, x in enumerate(ordered):
        x.index = k
        stage = 0
        for prior in ordered[:k]:
            if reasons(prior, x):
                stage = max(stage, prior.stage + 1)
            elif _ordered_only(prior, x):
                stage = max(stage, prior.stage)
        x.stage = stage
    stages = [[] for _ in range(max((x.stage for x in ordered), default=-1) + 1)]
    for x in ordered:
        stages[x.stage].append(x)
    apart = []
    for k, x in enumerate(ordered):
        for y in ordered[k + 1:]:
            why = reasons(x, y)
            if why:
                apart.append((x, y, why))
    return stages, apart


class SystemNames:
    """The C names of the systems machinery (public: step, set_threads, threads)."""

    def __init__(self, names):
        n = names
        self.step = n.fn("step")
        self.set_threads = n.fn("set_threads")
        self.threads = n.fn("threads")
        self.deferred_tag = n.internal("deferred")  # the world's command buffer's struct, and each range's
        self.deferred_type = f"struct {self.deferred_tag}"  # (named in the world struct: C only)
        self.state_tag = n.internal("systems")  # the world's systems__: the pool and buffers
        self.buffer_var = n.internal("buffer")  # thread-local: the running range's buffer
        self.running_var = n.internal("running")  # thread-local: the running system (checks)
        self.info_type = n.internal("system_info_t")
        self.info_table = n.internal("system_info")
        self.buffer_fit_fn = n.internal("buffer", "fit")
        self.check_write_macro = f"{n.upper}__CHECK_WRITE"
        self.check_write_fn = n.internal("check", "write")
        self.check_direct_fn = n.internal("check", "direct")
        self.check_defer_fn = n.internal("check", "defer")
        self.free_fn = n.internal("systems", "free")
        self.state_fn = n.internal("systems", "state")
        self.apply_fn = n.internal("systems", "apply")
        self.run_task_fn = n.internal("systems", "run", "task")
        self.run_pooled_fn = n.internal("systems", "run", "pooled")
        self.run_stage_fn = n.internal("systems", "run", "stage")
        self.has_bit = n.internal("system", "has", "bit")
        self.fail_fn = n.internal("system", "fail")
        self.add_tasks_fn = n.internal("tasks", "add")
        self.chunk_macro = f"{n.upper}_SYSTEM_CHUNK"
        self.parallel_min_macro = f"{n.upper}_SYSTEM_PARALLEL_MIN"
