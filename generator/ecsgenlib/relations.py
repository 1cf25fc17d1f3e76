"""Relations (a component whose one field, `target`, names another entity): the names the
templates print for each relation, and those a schema with relations needs once."""


class Relation:
    """What component `component` generates as a relation: on_target_destroy is "cascade"
    (destroying a target destroys its sources) or "clear" (removes the relation from them)."""

    def __init__(self, component, on_target_destroy):
        n, r = component.names, component.name
        self.component = component
        self.on_target_destroy = on_target_destroy
        self.cascade = on_target_destroy == "cascade"
        self.count_of_fn = n.fn("count", r, "of")
        self.each_of_macro = n.macro("EACH", r, "OF")
        self.depth_first_macro = n.macro("EACH", r, "DEPTH_FIRST")
        self.of_iter_type = n.internal(r, "of_iter_t")
        self.of_begin_fn = n.internal(r, "of", "begin")
        self.of_next_fn = n.internal(r, "of", "next")
        self.df_iter_type = n.internal(r, "df_iter_t")
        self.df_start_fn = n.internal(r, "df", "start")  # an iterator before its first segment
        self.df_begin_fn = n.internal(r, "df", "begin")
        self.df_next_fn = n.internal(r, "df", "next")  # the next segment of the order
        self.df_load_fn = n.internal(r, "df", "load")  # the segment's current entity into the iterator
        self.df_root_fn = n.internal(r, "df", "root")
        self.df_walk_fn = n.internal(r, "df", "walk")  # the links' pre-order, one step
        self.df_step_fn = n.internal(r, "df", "step")
        self.df_build_fn = n.internal(r, "df", "build")  # the cached order, made when stale
        self.check_fn = n.internal(r, "check")  # why a target is refused (0: it is not)
        self.admit_fn = n.internal(r, "admit")  # the check, and room in the index
        self.retarget_fn = n.internal(r, "retarget")  # set of an existing row: moves e
        self.retarget_value_fn = n.internal(r, "retarget", "value")  # the same, for the change table
        self.index = f"relations.{r}"  # the world's member: the reverse index

    def generated_names(self):
        return [self.count_of_fn, self.each_of_macro, self.depth_first_macro]


class SchemaRelations:
    """The internal names a schema with relations uses once."""

    def __init__(self, schema):
        n = schema.names
        self.node_type = n.internal("rel_node_t")
        self.index_type = n.internal("rel_index_t")
        self.fit_fn = n.internal("rel", "fit")
        self.link_fn = n.internal("rel", "link")
        self.unlink_fn = n.internal("rel", "unlink")
        self.has_sources_fn = n.internal("rel", "has", "sources")
        self.reaches_fn = n.internal("rel", "reaches")  # up through every cascade relation
        self.drop_sources_fn = n.internal("rel", "drop", "sources")
        self.destroy_one_fn = n.internal("destroy", "one")
        self.destroy_tree_fn = n.internal("destroy", "tree")
        self.verify_fn = n.internal("relations", "verify")  # tests: the index agrees with the targets
        self.refused_fn = n.internal("relation", "refused")  # why a value of a relation is refused
