"""The validated model of a schema (checks.build_model makes it). It owns every C name and
literal: templates only print."""

import functools
import hashlib
import json

from .c_literals import c_float, c_int, c_string
from .naming import Names
from .relations import Relation, SchemaRelations
from .systems import SystemNames
from .types import zero_value


PAGE_SIZE = 4096  # ECS_PAGE_SIZE of runtime/ecs_sparse.h


class Field:
    def __init__(self, component, name, field_type, default, doc, path, was=()):
        self.name = name
        self.was = list(was)  # names it had before (schema evolution)
        self.type = field_type
        self.default = default
        self.doc = doc
        self.path = path
        names = component.names
        # Kept free for per-field C names, so `pos.x_y` beside `pos_x.y`, or a field `t` beside
        # the type `game_pos_t`, is refused rather than confusing.
        self.mangled = names.fn(component.name, name)
        self.enum_type = names.type(component.name, name) if field_type.scalar == "enum" else None
        self.enum_tag = names.fn(component.name, name) if self.enum_type else None
        self.enum_constants = [names.macro(component.name, name, v) for v in field_type.values]
        self.enum_count = names.macro(component.name, name, "COUNT") if self.enum_type else None
        # JSON: the key and the enum's names table.
        self.json_key = c_string(name)
        self.json_names = names.internal(component.name, name, "names") if self.enum_type else None
        self.json_names_literals = [c_string(v) for v in field_type.values]
        # Run-time metadata (ecs_meta.h): the element type's ecs_meta_type_t constant.
        self.meta_type = "ECS_META_" + field_type.scalar.upper()

    @property
    def element_c_type(self):
        if self.type.is_string:
            return "char"
        if self.enum_type:
            return self.enum_type
        from .types import SCALARS
        return SCALARS[self.type.scalar][0]

    @property
    def suffix(self):
        return f"[{self.type.length}]" if self.type.length is not None else ""

    @property
    def is_block(self):
        """Arrays and strings: copied with memcpy, reached through a pointer to an array."""
        return self.type.length is not None

    @property
    def c_decl(self):
        """As a struct member: `float x`, `char name[32]`."""
        return f"{self.element_c_type} {self.name}{self.suffix}"

    @property
    def pointer_decl(self):
        """A pointer to one value, or one row of an array field: `float *x`, `char (*name)[32]`."""
        if self.is_block:
            return f"{self.element_c_type} (*{self.name}){self.suffix}"
        return f"{self.element_c_type} *{self.name}"

    def pointer_decl_as(self, var):
        """pointer_decl with the variable named var: `float *var`, `char (*var)[32]`."""
        return f"{self.element_c_type} (*{var}){self.suffix}" if self.is_block else f"{self.element_c_type} *{var}"

    @property
    def type_text(self):
        """The type as the schema spells it; an enum with its values."""
        if self.enum_type:
            return "enum { " + ", ".join(self.type.values) + " }"
        return self.type.spelling

    @property
    def zero_default(self):
        """Whether the default is all zero bytes in C (-0.0 is not: repr tells them apart)."""
        return repr(self.default) == repr(zero_value(self.type))

    @property
    def default_text(self):
        return value_text(self, self.default)

    @property
    def temp_decl(self):
        """A local `t` holding one value (for swaps)."""
        return f"{self.element_c_type} t{self.suffix}"

    @property
    def restrict_decl(self):
        """As pointer_decl, restrict-qualified: field arrays never alias one another."""
        if self.is_block:
            return f"{self.element_c_type} (*ECS_RESTRICT {self.name}){self.suffix}"
        return f"{self.element_c_type} *ECS_RESTRICT {self.name}"

    def literal(self, value):
        t = self.type
        if t.is_string:
            return c_string(value)
        if t.is_array:
            return "{ " + ", ".join(self._scalar_literal(v) for v in value) + " }"
        return self._scalar_literal(value)

    def _scalar_literal(self, value):
        t = self.type
        if t.kind == "bool":
            return "true" if value else "false"
        if t.kind == "entity":
            return "ECS_NULL"
        if t.kind == "enum":
            return self.enum_constants[t.values.index(value)]
        if t.kind == "float":
            return c_float(value, t.bits)
        low, _ = t.int_range()
        return c_int(value, low < 0, t.bits)

    @property
    def c_default(self):
        return self.literal(self.default)


def meta_string(text):
    """A C string literal for the metadata table, or NULL for text longer than the 4095 bytes
    C compilers must support in a literal (a long array's default, a very long doc)."""
    return "NULL" if len(text.encode("utf-8")) > 4095 else c_string(text)


def value_text(field, value):
    """A field value as the schema spells it (JSON; an entity's is null), floats in their
    shortest exact form (0.016666668 for an f32, not its double 0.01666666753590107)."""
    if field.type.kind == "float":
        bits = field.type.bits
        if field.type.is_array:
            return "[" + ", ".join(c_float(v, bits).rstrip("f") for v in value) + "]"
        return c_float(value, bits).rstrip("f")
    return json.dumps(value, ensure_ascii=False)


class Component:
    def __init__(self, names, name, doc, tag, singleton, path, storage="sparse", layout="soa", was=(),
                 removed_fields=(), on_target_destroy=None):
        """on_target_destroy: "cascade" or "clear" for a relation, None otherwise."""
        self.names = names
        # "soa": one array per field (pool.f[row]); "struct": one array of the value struct
        # (pool.rows[row].f). The API is the same; cell() spells a field's place.
        self.layout = layout
        self.name = name
        self.doc = doc
        self.tag = tag
        self.singleton = singleton
        self.storage = storage  # "sparse": a sparse set; "slot": a row per entity slot, a mask bit
        self.path = path
        self.fields = []
        self.type = None if tag else names.type(name)
        self.struct_tag = None if tag else names.fn(name)
        self.ref_type = names.type(name, "ref") if not (tag or singleton) else None
        self.pool_type = names.type(name, "pool") if not singleton else None
        self.default_macro = names.macro(name, "DEFAULT") if not tag else None
        self.default_object = names.internal(name, "default") if not tag else None  # what the macro names
        self.has_fn = names.fn("has", name)
        self.count_fn = names.fn("count", name)
        self.get_fn = names.fn("get", name)
        self.set_fn = names.fn("set", name)
        self.add_fn = names.fn("add", name)
        self.remove_fn = names.fn("remove", name)
        self.erase_check_text = c_string(erase_check_text(names, name))
        self.ref_fn = names.fn("ref", name)
        self.singleton_fn = names.fn("singleton", name)
        self.hooks_fn = names.fn("on", name)  # registers its hooks
        self.insert_fn = names.internal(name, "insert")
        self.shape = None  # a sparse pool without a relation: its Shape (number_components)
        self.write_fn = names.internal(name, "write")
        self.erase_fn = names.internal(name, "erase")
        self.reserve_fn = names.internal(name, "reserve")
        self.defined_in = None  # the schema file that defines it, set by the pipeline
        self.json_keys = names.internal(name, "keys") if not tag else None
        # Run-time metadata (ecs_meta.h): its fields' table and its defaults as a value;
        # index: its place in the table.
        self.meta_fields = names.internal(name, "meta_fields") if not tag else None
        self.default_value = names.internal(name, "default_value") if not tag else None
        self.meta_index = None
        self.json_renames = names.internal(name, "renames")  # old field names -> current
        self.json_removed = names.internal(name, "removed_fields")  # fields it no longer has
        self.was = list(was)  # names it had before (schema evolution)
        self.removed_fields = list(removed_fields)
        self.json_key = c_string(name)
        self.swap_fn = names.internal(name, "swap")
        self.fill_fn = names.internal(name, "fill")
        # Group bookkeeping (not hooks): after an add, before and after a remove.
        self.groups_after_add_fn = names.internal(name, "groups", "after", "add")
        self.groups_before_remove_fn = names.internal(name, "groups", "before", "remove")
        self.groups_after_remove_fn = names.internal(name, "groups", "after", "remove")
        # Deferred changes: the recording calls, and each one's command code.
        self.defer_add_fn = names.fn("defer", "add", name)
        self.defer_set_fn = names.fn("defer", "set", name)
        self.defer_remove_fn = names.fn("defer", "remove", name)
        self.op_add = names.internal("op", "add", name)
        self.op_set = names.internal("op", "set", name)
        self.op_remove = names.internal("op", "remove", name)
        self.groups = []  # the groups owning this pool, outer first
        # A constant per component for the iteration macros to tell, at compile time, which
        # owning group a list of components names: 64 bits of a hash of the name.
        self.signature_value = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little")
        self.signature = f"UINT64_C(0x{self.signature_value:016x})"
        self.excluding_groups = []  # the groups whose `none` names this component, outer first
        self.pool_index = None  # its place among the pooled components: its bit in nonempty_pools
        self.slot_index = None  # slot storage: its bit in each entity's slot mask
        self.mask_layout = None  # slot storage: (bits per mask word, words per entity)
        # A relations.Relation when the component is one (made last: it reads the names above).
        self.relation = Relation(self, on_target_destroy) if on_target_destroy else None

    @property
    def shape_key(self):
        """What decides a sparse pool's insert and erase code besides names: its layout, and
        its fields' element types and lengths, in order (an enum field by its own C type:
        two enums are distinct types, not to be written through one another)."""
        return (self.layout, tuple((f.enum_type or f.type.scalar, f.type.length) for f in self.fields))

    @property
    def in_large_shape(self):
        """Whether its shape is large (Shape.small): called, not inlined, by spawn and destroy."""
        return bool(self.shape) and not self.shape.small

    @property
    def slot_insert_fn(self):
        """Slot storage: the insert with the mask's written bit as a parameter: add and set
        pass the bit (the next take's mark), the table's insert 0 (spawn, whose create
        marked the slot; the change function, which marks it)."""
        return self.names.internal(self.name, "insert", "written")

    @property
    def slot_erase_fn(self):
        """Slot storage: the erase with the written bit as a parameter, as slot_insert_fn
        (remove passes it; destroy, which marks the slot, and the change function 0)."""
        return self.names.internal(self.name, "erase", "written")

    @property
    def table_insert_fn(self):
        """The insert spawn's bodies and the change function call, (w, k, e, value): its
        shape's, or (slot storage, relations) its own over the header's insert."""
        return self.shape.insert_fn if self.shape else self.names.internal(self.name, "table", "insert")

    @property
    def table_erase_fn(self):
        """The erase destroy and the change function call, (w, k, e, row), as table_insert_fn."""
        return self.shape.erase_fn if self.shape else self.names.internal(self.name, "table", "erase")

    @property
    def struct_layout(self):
        return self.layout == "struct"

    def cell(self, pool, f, row):
        """C: field f of row `row` of the pool reached as `pool` ("p->", "w->components.c.")."""
        return f"{pool}rows[{row}].{f.name}" if self.struct_layout else f"{pool}{f.name}[{row}]"

    def marks(self, pool):
        """C lvalue: the change marks (ecs_marks_t) of the rows of the data component's pool
        reached as `pool` ("p->"); its sparse set keeps its own for the members it moves."""
        return f"{pool}marks"

    def meta_marks_offset(self, schema):
        """C: the offset of its rows' change marks in the world (0 for a tag: no rows)."""
        return f"offsetof({schema.world_type}, {self.marks(f'components.{self.name}.')})" if self.fields else "0"

    @property
    def meta_storage(self):
        return "ECS_META_SLOT" if self.slot else "ECS_META_SPARSE"

    def meta_sparse_offset(self, schema):
        """C: the offset of its pool's sparse set in the world (0 for slot storage)."""
        return "0" if self.slot else f"offsetof({schema.world_type}, components.{self.name}.set)"

    @property
    def pool_word(self):
        """The word of the world's nonempty_pools holding this pool's bit."""
        return self.pool_index // 64

    @property
    def pool_bit_value(self):
        """This pool's bit in its word of nonempty_pools (and of a spawn's bits), as a number."""
        return 1 << (self.pool_index % 64)

    @property
    def pool_bit(self):
        """This pool's bit in its word of nonempty_pools, as a C constant."""
        return f"(UINT64_C(1) << {self.pool_index % 64})"

    @property
    def mark_bit(self):
        """Its pool's class (pool index % 8) as a bit of an entity's mark byte, a C constant:
        set when the entity joins this sparse pool (see the schema's pools_of_fn)."""
        return f"(uint8_t)(1u << {self.pool_index % 8})"

    @property
    def pooled(self):
        return not self.singleton

    @property
    def slot(self):
        """Slot storage: row = the entity's slot index, presence = a bit of the slot's mask."""
        return self.storage == "slot"

    def mask_slot(self, w, index):
        """C lvalue: the word of slot `index`'s mask (in world `w`) holding this component's bit."""
        bits, words = self.mask_layout
        at = f"(size_t){index} * {words}u + {self.mask_word(bits)}u" if words > 1 else index
        return f"{w}->slot_mask[{at}]"

    def has_at(self, w, index):
        """C: nonzero when slot `index` (of a live entity) has this slot-storage component.
        A relation's row holds a live target exactly when the slot has it (a slot row without
        its component is zeroed, and ECS_NULL is never alive): testing the target reads the
        line get reads next, where the mask would be one more cache line."""
        if self.relation:
            return f"({index} < {w}->slot_rows && {self.cell(f'{w}->components.{self.name}.', self.fields[0], index)} != ECS_NULL)"
        return f"({self.mask_slot(w, index)} & {self.mask_bit(self.mask_layout[0])})"

    def row_of(self, w, e):
        """C: live entity e's row in this component's pool, or ECS_ROW_NONE."""
        if self.slot:
            return f"({self.has_at(w, f'ecs_entity_index({e})')} ? ecs_entity_index({e}) : ECS_ROW_NONE)"
        return f"ecs_sparse_row(&{w}->components.{self.name}.set, {e})"

    def version_of(self, w):
        """C: a count that changes whenever this component's members or rows change."""
        if self.slot:
            return f"{w}->slot_version[{self.slot_index}]"
        return f"{w}->components.{self.name}.set.version"

    def mask_word(self, bits):
        """Its word of an entity's slot mask, for words of `bits` bits (the top bit of each
        is the slot's written mark, Schema.mask_written: bits - 1 components a word)."""
        return self.slot_index // (bits - 1)

    def mask_bit(self, bits):
        """Its bit in that word, as a C constant."""
        at = self.slot_index % (bits - 1)
        return f"(UINT{bits}_C(1) << {at})" if bits == 64 else f"(1u << {at})"

    @property
    def row_bytes(self):
        """A C expression: the bytes one row of this component's fields takes ("0" for a tag)."""
        if self.struct_layout:
            return f"sizeof({self.type})"
        return " + ".join(f"sizeof({f.element_c_type}{f.suffix})" for f in self.fields) or "0"

    @property
    def c_size(self):
        """sizeof the component's struct as C lays it out (LP64): fields in order, each at
        its alignment, the whole rounded up to the largest (0 for a tag)."""
        size, align = 0, 1
        for f in self.fields:
            field_size, field_align = f.type.c_layout
            size = -(-size // field_align) * field_align + field_size
            align = max(align, field_align)
        return -(-size // align) * align

    @property
    def padded(self):
        """Whether its struct has padding bytes (as c_size lays it out)."""
        return self.c_size != sum(f.type.c_layout[0] for f in self.fields)

    @property
    def kind(self):
        return "tag" if self.tag else "singleton" if self.singleton else "data"

    def functions(self):
        """The generated functions for this component, in the header's order."""
        if self.singleton:
            return [self.singleton_fn]
        if self.tag:
            return [self.has_fn, self.count_fn, self.add_fn, self.remove_fn, self.hooks_fn, self.defer_add_fn,
                    self.defer_remove_fn]
        return [self.has_fn, self.count_fn, self.get_fn, self.set_fn, self.add_fn, self.remove_fn, self.ref_fn,
                self.hooks_fn, self.defer_add_fn, self.defer_set_fn, self.defer_remove_fn]

    def values_text(self, values):
        """A prefab's values as schema-style text, every field (defaults included)."""
        if values is None:
            return "true (tag)"
        return ", ".join(f"{f.name} = {value_text(f, values.get(f.name, f.default))}" for f in self.fields)

    def initializer(self, values):
        """A designated initializer with every field, `values` overriding the defaults."""
        parts = [f".{f.name} = {f.literal(values.get(f.name, f.default))}" for f in self.fields]
        return "{ " + ", ".join(parts) + " }"

    def generated_names(self):
        """Every file-scope C name this component produces (checked for clashes): the stem
        (`world`, `spawn` or `count` would clash), its types and macro, and its functions."""
        types = [self.type, self.struct_tag, self.ref_type, self.pool_type, self.default_macro, self.default_object]
        relation = self.relation.generated_names() if self.relation else []
        return [self.names.fn(self.name), *(t for t in types if t), *self.functions(), *relation]


def erase_check_text(names, name):
    """The loop check's message for an erase of component `name` inside a macro loop
    (destroy checks before it erases, with its own message)."""
    return (f"{names.fn('remove', name)} of an entity other than it.id inside a macro loop "
            f"({names.macro('EACH')}...): record it with {names.fn('defer', 'remove', name)} "
            f"and call {names.fn('apply', 'deferred')} after the loop (docs/iteration.md)")


SMALL_SHAPE = 4  # components; see Shape.small


class Shape:
    """The sparse pools without a relation whose components share a shape_key: the .c has one
    insert and one erase for them all (not one per component), reaching each pool through
    the pool table and the fields at the first component's offsets (static asserts check
    that the others' match)."""

    def __init__(self, names, index, comps):
        self.index = index
        self.comps = comps
        self.first = comps[0]
        self.insert_fn = names.internal(f"shape{index}", "insert")
        self.erase_fn = names.internal(f"shape{index}", "erase")

    @property
    def small(self):
        """A shape of a few components: its insert and erase are inline where spawn and
        destroy call them for each component (k constant: as fast as the component's own);
        a larger shape's are called, and destroy reaches them through one case."""
        return len(self.comps) <= SMALL_SHAPE

    @property
    def fields_text(self):
        """Its fields as the schema spells their types ("f32, f32"), for its comment."""
        return ", ".join(f.enum_type or f.type_text for f in self.first.fields) or "none (tags)"


class SpawnTest:
    """One test of spawn's body: kind "word" (a word of the spawn's bits), "block" or "run"
    (whether the desc names any of comps; then the children), or "component" (comps[0]'s
    insert)."""

    def __init__(self, kind, comps, children=()):
        self.kind = kind
        self.comps = comps
        self.children = list(children)


class MatchLister:
    """The loop that lists the matches of the non-owned queries of one list_shape: they share
    it, each passing its sparse sets and its row lists, so that ten systems over position,
    velocity and one more component compile one loop, not ten (the views part's compile
    time: docs/performance.md, "Rebuild time")."""

    def __init__(self, fn, queries):
        first = queries[0]
        self.fn = fn
        self.queries = queries
        self.any_slot = any(c.slot for c in first.all)
        # Per term, C for live entity e's row ("w", "e", "set" and "row" are the loop's
        # parameters): a sparse term's set is an argument, a slot term's mask bit a constant.
        # The indexes are those of the lists each view passes: sets_of(q) and q.data.
        sparse = self.sets_of(first)

        def row(c):
            return c.row_of("w", "e") if c.slot else f"ecs_sparse_row(set[{sparse.index(c)}], e)"

        # all: (row, the index of its row list, or None for a tag)
        self.all_rows = [(row(c), None if c.tag else first.data.index(c)) for c in first.all]
        self.none_rows = [row(c) for c in first.none]
        self.sets = len(sparse)  # the sparse terms' sets it takes
        self.lists = len(first.data)  # the row lists it fills

    @staticmethod
    def sets_of(q):
        """The query's sparse terms, in the order the loop takes their sets."""
        return [c for c in q.all + q.none if not c.slot]


class Query:
    def __init__(self, names, name, all_of, none_of, doc, owned, path):
        self.name = name
        self.all = all_of
        self.none = none_of
        self.doc = doc
        self.owned_hint = owned
        self.path = path
        self.each_macro = names.macro("EACH", name)
        self.defined_in = None

        self.view_type = names.type(name, "view")
        self.view_tag = names.fn(name, "view")
        self.query_fn = names.fn("query", name)
        self.owned_macro = names.macro(name, "OWNED")
        self.field_macro = names.macro(name, "FIELD")  # match i's field f of component c: FIELD(v, c, f, i)
        self.scratch_type = names.internal(name, "scratch_t")  # a non-owned view's match list
        self.scratch_fit_fn = names.internal(name, "scratch", "fit")
        self.check_text = c_string(f"{self.query_fn}(): its view was used after a structural change; inside a view "
                                   f"loop record spawns with components, destroys, adds and removes with the "
                                   f"{names.fn('defer')}_ calls and apply them after the loop (docs/iteration.md). "
                                   f"The change")
        self.group = None  # the Group it owns through, or None (served non-owning)
        self.inline_of = None  # the system that declares it inline, or None
        self.packs = True  # False: never owns (a depth-first system's inline query: rows are looked up)

    @property
    def owned(self):
        return self.group is not None

    @property
    def data(self):
        """The components of `all` that have fields: the view's members."""
        return [c for c in self.all if not c.tag]

    @property
    def slot_only(self):
        """Every term has slot storage, in one mask word per entity: a non-owned view finds its
        matches by their masks alone, and a match's row is its slot in every pool."""
        return all(c.slot and c.mask_layout[1] == 1 for c in self.all + self.none)

    @property
    def listed(self):
        """The components whose rows a non-owned view lists: one list serves every pool of a
        slot-only query."""
        return self.data[:1] if self.slot_only else self.data

    @property
    def list_shape(self):
        """What the loop that lists a non-owned view's matches depends on: each term's storage
        (a slot component by name: its mask bit is a constant of the loop), tag or not."""
        return (tuple((c.name if c.slot else None, c.tag) for c in self.all),
                tuple(c.name if c.slot else None for c in self.none))

    @property
    def driver(self):
        """The owned pool whose dense entity array is the view's `entity` (any owned pool)."""
        return self.group.pools[0]

    def generated_names(self):
        return [self.each_macro, self.view_type, self.view_tag, self.query_fn, self.owned_macro,
                self.field_macro]


class Prefab:
    def __init__(self, names, name, parts, path):
        self.name = name
        self.parts = parts  # [(component, {field: value} or None for a tag)]
        self.path = path
        self.spawn_fn = names.fn("spawn", name)
        self.spawn_with_fn = names.fn("spawn", name, "with")  # the prefab, with a desc's overrides
        self.defined_in = None


class Schema:
    def __init__(self, name, doc, version, max_entities, removed_components=()):
        self.name = name
        self.doc = doc
        self.version = version
        self.max_entities = max_entities
        self.names = Names(name)
        n = self.names
        self.guard = n.macro("ECS_H")
        # + _TYPE_<c>, _DEFER_<c>, _SYSTEM_<s>: the guard of a block that <name>_ecs.h and a
        # system's header both hold (_shared.j2)
        self.defined_guard = self.upper_internal("DEFINED")
        self.no_component_api_macro = self.upper_internal("NO_COMPONENT_API")  # part.c.j2 skips that
        self.world_type, self.world_tag = n.type("world"), n.fn("world")
        self.components_type, self.components_tag = n.type("components"), n.fn("components")
        self.singletons_type, self.singletons_tag = n.type("singletons"), n.fn("singletons")
        self.desc_type, self.desc_tag = n.type("spawn_desc"), n.fn("spawn_desc")
        self.iter_type, self.iter_tag = n.type("iter"), n.fn("iter")
        self.load_options_type, self.load_options_tag = n.type("load_options"), n.fn("load_options")
        self.migrate_fn_type = n.type("migrate_fn")
        self.hooks_type, self.hooks_tag = n.type("hooks"), n.fn("hooks")
        self.hook_fn_type = n.type("hook_fn")
        self.spawn_hooks_fn = self.names.internal("spawn", "hooks")
        self.spawn_overrides_fn = self.names.internal("spawn", "overrides")  # a prefab's _with
        self.destroy_hooks_fn = self.names.internal("destroy", "hooks")
        self.hooks_put_fn = self.names.internal("hooks", "put")
        self.hooks_at_fn = self.names.internal("hooks", "at")
        # removes and destroys whose on_remove hooks run (a nested one of the same does nothing)
        self.busy_type, self.busy_fn = self.names.internal("busy", "t"), self.names.internal("busy")
        self.pool_ops, self.pool_ops_type = self.names.internal("pool", "ops"), self.names.internal("pool", "ops", "t")
        self.change_fn = self.names.internal("change")  # add, set and remove through the metadata, hooks fired
        self.cold_macro = self.upper_internal("COLD")
        self.fns = {k: n.fn(*k.split(".")) for k in (
            "world_new", "world_free", "spawn", "destroy", "alive", "count",
            "world_to_json", "world_from_json", "world_save", "world_load", "entity_to_json",
            "world_from_json_opts", "world_load_opts", "world_hash",
            "defer_destroy", "defer_spawn", "apply_deferred", "deferred_count")}
        self.world_bytes_macro = n.macro("WORLD_BYTES")
        self.each_macro = n.macro("EACH")
        self.each_without_macro = n.macro("EACH", "WITHOUT")
        self.term_has_macro = self.upper_internal("HAS")
        self.term_not_macro = self.upper_internal("NOT")
        self.term_walk_macro = self.upper_internal("WALK")
        self.term_row_macro = self.upper_internal("ROW")
        self.term_sig_macro = self.upper_internal("SIG")
        self.term_decl_macro = self.upper_internal("DECL")
        self.term_use_macro = self.upper_internal("USE")
        self.field_macro = n.macro("FIELD")  # a loop's typed access to a field: FIELD(it, c, f)
        self.cell_macro = self.upper_internal("CELL")  # CELL_<c>(pool, f, row): a field's place, either layout
        self.loop_row_macro = n.macro("ROW")  # a loop's row in one of its pools: ROW(it, c)
        self.cursor_fn = self.names.internal("cursor")
        self.pools_of_fn = self.names.internal("pools", "of")  # the pools an entity may be in
        self.masks_fit_fn = self.names.internal("slot", "masks", "fit")  # a mask word per slot handed out
        self.rows_fit_fn = self.names.internal("slot", "rows", "fit")  # rows in each slot pool
        self.rows_clear_fn = self.names.internal("slot", "rows", "clear")  # a new slot's rows, zeroed
        self.slot_grown_fn = self.names.internal("slot", "grown")  # the capacity to grow to
        self.step_fn = self.names.internal("step")
        self.term_need_macro = self.upper_internal("NEED")
        self.term_direct_macro = self.upper_internal("DIRECT")
        self.term_slot_macro = self.upper_internal("SLOT")
        self.term_forward_macro = self.upper_internal("FORWARD")
        self.term_at_macro = self.upper_internal("AT")
        self.grouped_macro = self.upper_internal("GROUPED")
        self.flush_fn = self.names.internal("groups", "flush")
        # Debug checks (docs/iteration.md): CHECKS is the user's switch, the rest internal.
        self.checks_macro = n.macro("CHECKS")
        self.loop_checks_macro = self.upper_internal("LOOP_CHECKS")
        self.changed_macro = self.upper_internal("CHANGED")
        self.check_erase_macro = self.upper_internal("CHECK_ERASE")
        self.check_no_loop_macro = self.upper_internal("CHECK_NO_LOOP")
        self.check_view_macro = self.upper_internal("CHECK_VIEW")
        self.check_deferred_fn = self.names.internal("check", "deferred")  # changes left unapplied
        self.loop_scope_macro = self.upper_internal("LOOP_SCOPE")
        self.loop_outer_macro = self.upper_internal("LOOP_OUTER")
        self.loop_at_macro = self.upper_internal("LOOP_AT")
        self.loop_enter_fn = self.names.internal("loop", "enter")
        self.loop_leave_fn = self.names.internal("loop", "leave")
        self.pending_fn = self.names.internal("groups", "pending")
        self.pending_fit_fn = self.names.internal("groups", "pending", "fit")
        # Deferred changes: a command, the union of the values set/add commands carry.
        self.command_type = self.names.internal("command_t")
        self.value_type = self.names.internal("value_t")
        self.deferred_fit_fn = self.names.internal("deferred", "fit")
        self.deferred_grown_fn = self.names.internal("deferred", "grown")
        self.defer_fn = self.names.internal("defer")
        self.op_destroy = self.names.internal("op", "destroy")
        self.spawned_fn = self.names.internal("groups", "spawned")
        self.spawned_bits_fn = self.names.internal("groups", "spawned", "bits")
        self.spawn_desc_fn = self.names.internal("spawn", "desc")
        self.spawn_bits_fn = self.names.internal("spawn", "bits")
        self.spawn_bits_type = self.names.internal("spawn", "bits_t")
        self.desc_from_parts_fn = self.names.internal("desc", "from", "parts")
        self.spawn_undo_fn = self.names.internal("spawn", "undo")
        self.erase_check_fail_fn = self.names.internal("erase", "check", "fail")
        self.erase_check_format = c_string(erase_check_text(self.names, "%s"))  # its message, any component
        self.groups_drop_fn = self.names.internal("groups", "drop")
        self.settle_fn = self.names.internal("groups", "settle")
        # JSON internals: "__json__" cannot come from a schema name (no "__" there).
        self.json = {k: f"{name}__json__{k}" for k in (
            "world", "entity", "entity_from", "entities_from", "document_from", "document_keys",
            "entity_keys", "singleton_keys", "migration", "component_maps", "renames", "removed",
            "document_migrate", "scratch")}
        self.json_name = c_string(name)
        # Run-time metadata: the schema's table (public) and its parts.
        self.meta = n.fn("meta")
        self.meta_components = self.names.internal("meta", "components")
        self.meta_pooled = self.names.internal("meta", "pooled")
        self.desc_offsets = self.names.internal("desc", "offsets")
        self.desc_member_fn = self.names.internal("desc", "member")
        self.components = []
        self.removed_components = list(removed_components)  # names older saves may hold (dropped on load)
        self.queries = []
        self.prefabs = []
        self.groups = []  # outer before inner: entering walks forward, leaving backward
        self.shapes = []  # the sparse pools' inserts and erases (number_components)
        self.systems = []  # in declaration order (systems.py; the schedule's order is their index)
        self.stages, self.apart = [], []  # the schedule (systems.schedule)
        self.sysn = SystemNames(self.names)
        self.rel = SchemaRelations(self)
        self.source_name = None  # the schema file's name, and the files it includes (sources())
        self.included = []

    def number_components(self):
        """Each component's place: in the metadata table, among the pools (its bit in
        nonempty_pools) and, for slot storage, its bit in the slot masks. Once, after the
        last component is added."""
        for k, component in enumerate(self.components):
            component.meta_index = k
        for k, component in enumerate(self.pooled):
            component.pool_index = k
        for k, component in enumerate(self.slotted):
            component.slot_index = k
            component.mask_layout = (self.mask_bits, self.mask_words)
        by_key = {}
        for component in self.pooled:
            if not component.slot and not component.relation:
                by_key.setdefault(component.shape_key, []).append(component)
        self.shapes = [Shape(self.names, k, comps) for k, comps in enumerate(by_key.values())]
        for shape in self.shapes:
            for component in shape.comps:
                component.shape = shape

    def sources(self, source_name, included, defined_in):
        """Where the schema came from: its file's name, the files it includes, and
        defined_in(section, item), the file each component, query, prefab and system is
        defined in (relative paths: the docs read the same on every machine)."""
        self.source_name = source_name
        self.included = list(included)
        for section, items in (("components", self.components), ("queries", self.queries),
                               ("prefabs", self.prefabs), ("systems", self.systems)):
            for item in items:
                item.defined_in = defined_in(section, item)

    @property
    def world_bytes(self):
        """Fixed storage (max_entities > 0): a C expression for all the memory world_new
        allocates, the struct plus, per pool, its rows and sparse pages (see ecs_sparse_reserve)."""
        n = f"{self.max_entities}u"
        pages = -(-self.max_entities // PAGE_SIZE)
        per_pool = f"{pages}u * (sizeof(uint32_t *) + ECS_PAGE_SIZE * sizeof(uint32_t))"
        # the dense side: 64-bit ids in the pools that keep them, 32-bit slot indexes elsewhere
        dense = (f"{len(self.id_pools)}u * sizeof(ecs_entity_t) + "
                 f"{len(self.sparse_pooled) - len(self.id_pools)}u * sizeof(uint32_t)")
        rows = " + ".join([dense] + [c.row_bytes for c in self.data])
        if self.slotted:  # each slot's mask
            rows += f" + {self.mask_words}u * sizeof({self.mask_type})"
        for q in self.scratch_queries:  # a non-owned view's match list: an id and a row per listed component
            rows += f" + sizeof(ecs_entity_t) + {len(q.listed)}u * sizeof(uint32_t)"
        if self.groups:  # the ids waiting to join groups
            rows += " + sizeof(ecs_entity_t)"
        rows += "".join(f" + sizeof({self.rel.node_type})" for c in self.relations)  # relations' index
        rows += f" + sizeof({self.command_type})"  # deferred commands, and their values
        if self.data:
            rows += f" + sizeof({self.value_type})"
        # the entity table: a generation, a free-stack entry and a mark per slot, a live bit per slot
        table = (f"(size_t){n} * (2u * sizeof(uint32_t) + sizeof(uint8_t)) + "
                 f"{-(-self.max_entities // 64)}u * sizeof(uint64_t)")
        return (f"(sizeof({self.world_type}) + {table} + {len(self.sparse_pooled)}u * ({per_pool}) + "
                f"(size_t){n} * ({rows}))")

    @property
    def value_bytes(self):
        """C: the bytes any per-entity component's value takes (a scratch buffer's size)."""
        return f"sizeof({self.value_type})" if self.data else "1u"

    @property
    def fixed_storage_calls(self):
        """Fixed storage: the calls world_new makes after reserving entities, each false when
        out of memory: every pool, and every non-owned query's match list."""
        n = f"{self.max_entities}u"
        return ([f"{c.reserve_fn}(&w->components.{c.name})" for c in self.sparse_pooled] +
                ([f"{self.masks_fit_fn}(w, {n})"] if self.slotted else []) +
                ([f"{self.rows_fit_fn}(w, {n})"] if self.slotted_data else []) +
                [f"{q.scratch_fit_fn}(&w->scratch.{q.name}, {n})" for q in self.scratch_queries] +
                ([f"{self.pending_fit_fn}(w, {n})"] if self.groups else []) +
                [f"{self.rel.fit_fn}(&w->{c.relation.index}, {n})" for c in self.relations] +
                [f"{self.deferred_fit_fn}(w, {n}, {n})"])

    def upper_internal(self, what):
        return f"{self.names.upper}__{what}"

    @property
    def pooled(self):
        return [c for c in self.components if c.pooled]

    @property
    def relations(self):
        """The relation components, in schema order."""
        return [c for c in self.pooled if c.relation]

    @property
    def cascade_relations(self):
        """Those whose targets' destruction destroys their sources: acyclic all together."""
        return [c for c in self.relations if c.relation.cascade]

    @property
    def slotted(self):
        """The components with slot storage, in schema order: bit k of an entity's mask is the k-th's."""
        return [c for c in self.pooled if c.slot]

    @property
    def slotted_data(self):
        """The slot components that have rows (not tags): a slot without one holds zeros there."""
        return [c for c in self.slotted if not c.tag]

    @property
    def slot_scan(self):
        """Loops over slot components only scan the slot masks (one mask word per entity)."""
        return bool(self.slotted) and self.mask_words == 1

    @property
    def sparse_pooled(self):
        return [c for c in self.pooled if not c.slot]

    @property
    def mask_bits(self):
        """The bits of one word of an entity's slot mask: the smallest word that holds every
        slot component's bit and the written mark (mask_written), up to 64 (then several
        words, each with its mark)."""
        n = len(self.slotted)
        return next((b for b in (8, 16, 32) if n < b), 64)

    @property
    def mask_type(self):
        return f"uint{self.mask_bits}_t"

    @property
    def mask_words(self):
        """The words of one entity's slot mask: 63 components in each but the last."""
        return -(-len(self.slotted) // (self.mask_bits - 1))

    @property
    def mask_written(self):
        """C constant: the top bit of every slot mask word, set by each add and remove of a
        slot component in the store that changes its bit (no test: ecs_marks.h's marks cost
        a compare). A take turns the bits into the entity table's change marks and clears
        them (the snapshot part's fold); every other reader tests its own bits only. 0
        without marks (ECS_NO_CHANGE_MARKS)."""
        bits = self.mask_bits
        return f"((uint64_t)ECS_MARKS_WRITTEN << 63)" if bits == 64 else f"(ECS_MARKS_WRITTEN << {bits - 1})"

    @property
    def pooled_data(self):
        """The pooled components with values (not tags): those a spawn's parts point at."""
        return [c for c in self.pooled if not c.tag]

    @property
    def pool_words(self):
        """The 64-bit words of the world's nonempty_pools: one bit per pool."""
        return (len(self.pooled) + 63) // 64

    def pool_words_of(self, pools):
        """The bits of `pools` in each word of nonempty_pools, as C constants."""
        words = [0] * self.pool_words
        for c in pools:
            words[c.pool_word] |= c.pool_bit_value
        return [f"UINT64_C(0x{v:016x})" for v in words]

    @property
    def slot_pool_words(self):
        """Per word of nonempty_pools, the bits of the slot-storage pools (an entity's mark does
        not name them: its slot mask says exactly which it has)."""
        return self.pool_words_of(c for c in self.pooled if c.slot)

    def dropped_words(self, group):
        """The words of nonempty_pools (index, C constant) with bits of the pools whose
        outermost group is `group`: groups_drop_fn takes an entity in that group out of them,
        so destroy's walk need not probe them again."""
        mine = [c for c in self.pooled if c.groups and c.groups[0] is group]
        words = self.pool_words_of(mine)
        return [(k, words[k]) for k in sorted({c.pool_word for c in mine})]

    @property
    def data(self):
        return [c for c in self.components if c.pooled and not c.tag]

    @property
    def tags(self):
        return [c for c in self.components if c.tag]

    @property
    def singletons(self):
        return [c for c in self.components if c.singleton]

    def spawn_blocks(self, comps):
        """comps (pooled components, in pool order) in runs of 4, each run skipped with one
        test when the desc leaves it out: a desc naming two of 32 components tests 8 runs and
        4 pointers, not 32 pointers one by one. Past 16 runs (64 components) the runs go in
        blocks of 4, one more test each, so that 512 components cost 32 tests, not 128; the
        bits body tests each word of bits (4 blocks) first, so that it costs 8. A list of
        blocks, each a list of runs, 4 blocks to a word of bits; no run or block spans two
        words of bits (a test reads one word)."""
        words = {}
        for c in comps:
            words.setdefault(c.pool_word, []).append(c)
        runs = [cs[k:k + 4] for cs in words.values() for k in range(0, len(cs), 4)]
        if len(runs) <= 16:
            return [[run] for run in runs]
        blocks = []
        for run in runs:
            if blocks and len(blocks[-1]) < 4 and blocks[-1][0][0].pool_word == run[0].pool_word:
                blocks[-1].append(run)
            else:
                blocks.append([run])
        return blocks

    @property
    def large_shaped(self):
        """The pooled components of large shapes (Shape.small): spawn's bodies insert them in
        one loop through the pool table, not a line each."""
        return [c for c in self.pooled if c.in_large_shape]

    def spawn_tests(self, known):
        """spawn_blocks as the nested tests spawn's body makes (SpawnTest trees, in order):
        a block's test when there is more than one block, a run's when its block has more than
        one run, and, in the bits body (known) past 4 blocks, a word's test before each word's
        blocks (not for a last word of one block). The bits body leaves out large_shaped (a loop
        after reads their bits)."""
        comps = [c for c in self.pooled if not (known and c.in_large_shape)]
        if not comps:
            return []
        blocks = self.spawn_blocks(comps)
        by_word = known and len(blocks[0]) == 4 and len(blocks) > 4
        tests = []
        for k, block in enumerate(blocks):
            runs = [SpawnTest("run", run, [SpawnTest("component", [c]) for c in run]) for run in block]
            if len(block) == 1:
                runs = runs[0].children
            node = SpawnTest("block", [c for run in block for c in run], runs) if len(blocks) > 1 else None
            if by_word and len(blocks) - (k - k % 4) > 1:
                if k % 4 == 0:
                    tests.append(SpawnTest("word", node.comps, []))
                else:
                    tests[-1].comps = tests[-1].comps + node.comps
                tests[-1].children.append(node)
            else:
                tests.extend([node] if node else runs)
        return tests

    @property
    def large_pool_words(self):
        """Per word of nonempty_pools, the bits of large_shaped (C constants)."""
        return self.pool_words_of(self.large_shaped)

    @property
    def scratch_queries(self):
        return [q for q in self.queries if not q.owned]

    @functools.cached_property
    def match_listers(self):
        """The non-owned queries that are not slot-only, by list_shape: one loop lists the
        matches of each shape's queries (asked for after ownership is decided)."""
        by_shape = {}
        for q in self.scratch_queries:
            if not q.slot_only:
                by_shape.setdefault(q.list_shape, []).append(q)
        return [MatchLister(self.names.internal("list", str(k)), qs) for k, qs in enumerate(by_shape.values())]

    def lister_of(self, q):
        return next(b for b in self.match_listers if q in b.queries)

    @property
    def id_pools(self):
        """The pools whose sparse sets keep 64-bit ids on their dense side: an owned view's
        `entity` is its driver's dense array. Every other set keeps 32-bit slot indexes."""
        drivers = {q.driver.name for q in self.queries if q.owned}
        return [c for c in self.pooled if c.name in drivers]

    @property
    def snap(self):
        """Snapshots and the recorder: names and the world's blocks (snapshot.py)."""
        from .snapshot import Snapshot
        return Snapshot(self)

    def fixed_names(self):
        return [*self.snap.names(), self.guard, self.world_type, self.world_tag, self.components_type, self.components_tag,
                self.singletons_type, self.singletons_tag, self.desc_type, self.desc_tag, self.iter_type,
                self.iter_tag, self.load_options_type, self.load_options_tag, self.migrate_fn_type, self.hooks_type, self.hooks_tag, self.hook_fn_type,
                self.world_bytes_macro, self.each_macro, self.each_without_macro, self.checks_macro, self.field_macro, self.loop_row_macro, self.meta, *self.fns.values(),
                *(self.system_fns.values() if self.systems else ())]

    @property
    def system_fns(self):
        """The calls a schema with systems gets (docs/systems.md)."""
        return {k: self.names.fn(k) for k in ("step", "set_threads", "threads")}
