"""Snapshots and the flight recorder (templates snapshot.h.j2 / snapshot.c.j2): their names,
and the list of a world's owned memory blocks that a snapshot copies.

Every array a world owns and that holds state is a block here: a snapshot copies each one's
live bytes, a restore writes them back, the recorder compares them frame to frame. A new
structure in the world (a relation's reverse index, say) is covered by adding its arrays to
`blocks` (and what its sizes are counted by to `scalars`, its growth to `fits`)."""

from collections import namedtuple

# what: a comment; data: the world's array (an lvalue of world `w`); count: its live elements,
# read from world `o` (the taken world's struct, or `w` itself when taking); marks: the
# ecs_marks_t its writes are marked in (an lvalue of `w`; None: compared whole) and chunk, the
# bytes of 16 rows (one mark bit) when a row is not one element of data (None: it is).
# pool: the sparse component whose pool the block is part of: the blocks function lists these
# from the metadata table (ecs_snap_pool_blocks), so only `what` is set; None for the others.
# also: second marks whose bits count as the block's (ecs_snap_block_t): the entity table's for
# a slot pool's rows, which a slot insert or erase marks by marking the slot there.
Block = namedtuple("Block", "what data count marks chunk pool also", defaults=(None, None, None, None))
ENTITY_MARKS = "w->entities.marks"


class Snapshot:
    def __init__(self, schema):
        s = self.s = schema
        n = schema.names
        self.type, self.tag = n.type("snapshot"), n.fn("snapshot")
        self.recorder_type, self.recorder_tag = n.type("recorder"), n.fn("recorder")
        self.fns = {k: n.fn(*k.split(".")) for k in (
            "snapshot_new", "snapshot_free", "snapshot_take", "snapshot_take_since", "snapshot_restore",
            "snapshot_memory", "recorder_new", "recorder_free", "recorder_record", "recorder_restore",
            "recorder_frames", "recorder_capacity", "recorder_save_frame", "recorder_save_all",
            "recorder_load", "recorder_memory", "recorder_clear")}
        self.blocks_fn = n.internal("snap", "blocks")
        self.restore_fn = n.internal("snap", "restore")
        self.fit_fn = n.internal("snap", "fit")
        self.block_count = schema.upper_internal("SNAP_BLOCKS")
        self.save_frame_fn = n.internal("snap", "frame", "world")
        self.marks_reset_fn = n.internal("snap", "marks", "reset")
        self.fold_fn = n.internal("snap", "marks", "fold")
        self.check_marks_fn = n.internal("snap", "check", "marks")

    def names(self):
        return [self.type, self.tag, self.recorder_type, self.recorder_tag, *self.fns.values()]

    @property
    def blocks(self):
        """Every owned array, in a fixed order; block 0 (the world struct) comes first and is
        not listed here."""
        s = self.s
        out = [
            Block("generations", "w->entities.generation", "o->entities.used", ENTITY_MARKS),
            Block("live bits", "w->entities.live", "((size_t)o->entities.used + 63u) / 64u", ENTITY_MARKS, "ECS_MARK_ROWS / 8u"),
            Block("marks", "w->entities.mark", "o->entities.used", ENTITY_MARKS),
            Block("free stack", "w->entities.free", "o->entities.free_count"),
        ]
        for c in s.sparse_pooled:
            out.append(Block(f"{c.name}: members", None, None, pool=c))
            out += [Block(f"{c.name}.{col}", None, None, pool=c) for col in _columns(c)]
        if s.slotted:
            out.append(Block("slot masks", "w->slot_mask", f"(size_t)o->entities.used * {s.mask_words}u", ENTITY_MARKS,
                             f"ECS_MARK_ROWS * {s.mask_words}u * sizeof *w->slot_mask"))
            rows = "(o->entities.used < o->slot_rows ? o->entities.used : o->slot_rows)"
            for c in s.slotted_data:
                for col in _columns(c):
                    data = f"w->components.{c.name}.{col}"
                    out.append(Block(f"{c.name}.{col} (slot rows)", data, rows, c.marks(f"w->components.{c.name}."),
                                     also=ENTITY_MARKS))
        if s.groups:
            out.append(Block("pending group members", "w->pending.ids", "o->pending.count"))
        out.append(Block("deferred commands", "w->deferred.commands", "o->deferred.count"))
        if s.data:
            out.append(Block("deferred values", "w->deferred.values", "o->deferred.value_count"))
        for c in s.relations:  # the reverse index: a node per slot (its depth-first cache is remade)
            out.append(Block(f"{c.name}: index", f"w->{c.relation.index}.node", "o->entities.used"))
        return out

    @property
    def scalars(self):
        """The world struct's members a restore copies from the taken world (lvalues of `w`,
        read as the same member of `o`); capacities, hooks and checks stay the world's own."""
        s = self.s
        out = ["entities.free_count", "entities.used", "entities.alive"]  # (and each sparse set's count)
        out += ["nonempty_pools", "singletons"] if s.singletons else ["nonempty_pools"]
        if s.slotted:
            out.append("slot_count")
        if s.groups:
            out += ["groups", "pending.count", "pending.overflow"]
        out += ["deferred.count", "deferred.value_count"] if s.data else ["deferred.count"]
        return out


def _columns(c):
    """A data component's arrays in its pool: one per field (soa), or `rows` (struct layout)."""
    return ["rows"] if c.struct_layout else [f.name for f in c.fields]
