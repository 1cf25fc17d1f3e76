"""Which queries own their pools: the groups (entities matching a query kept in the first
rows of every pool it names) and the choice of which queries get one."""


class Group:
    """Entities matching `all` and `none`, kept in rows 0..count-1 of every pool in `all`, at
    the same row in each. Groups sharing a pool nest (one's matches a subset of the other's),
    so in each pool they form a chain: the innermost group's members first."""

    def __init__(self, query):
        self.all = list(query.all)
        self.none = list(query.none)
        self.pools = self.all
        self.queries = [query]

    def number(self, names, index):
        self.index = index
        self.count_member = f"g{index}"  # the member of the world's `groups` holding its member count
        self.enter_fn = names.internal("group" + str(index), "enter")
        self.leave_fn = names.internal("group" + str(index), "leave")

    @property
    def signature(self):
        return f"UINT64_C(0x{sum(c.signature_value for c in self.all) % 2**64:016x})"

    def nests_in(self, other):
        """Every match of self matches other (checked on the terms, as all the generator knows)."""
        return set(other.all) <= set(self.all) and set(other.none) <= set(self.none)

    @property
    def names_text(self):
        return ", ".join(q.name for q in self.queries)


def decide_ownership(schema):
    """Which queries own their pools. Queries marked "owned" go first, then declaration order;
    a query owns when every group already owning one of its pools nests with it (either way),
    so the groups of each pool stay a chain. A query with the same terms as an owned one
    shares its group. The rest are served non-owning: never an error."""
    order = [q for q in schema.queries if q.owned_hint] + [q for q in schema.queries if not q.owned_hint]
    groups = []
    for q in order:
        if any(c.slot for c in q.all) or not q.packs:
            continue  # slot rows are entity slots, or its order is not the pools': nothing to pack
        same = [g for g in groups if set(g.all) == set(q.all) and set(g.none) == set(q.none)]
        if same:
            same[0].queries.append(q)
            q.group = same[0]
            continue
        candidate = Group(q)
        sharing = [g for g in groups if set(g.all) & set(q.all)]
        if all(candidate.nests_in(g) or g.nests_in(candidate) for g in sharing):
            groups.append(candidate)
            q.group = candidate
    # Outer before inner: a group's terms strictly include those of every group it nests in.
    schema.groups = sorted(groups, key=lambda g: len(g.all) + len(g.none))
    for k, g in enumerate(schema.groups):
        g.number(schema.names, k)
        g.queries.sort(key=schema.queries.index)
        for c in g.pools:
            c.groups.append(g)
        for c in g.none:
            c.excluding_groups.append(g)
