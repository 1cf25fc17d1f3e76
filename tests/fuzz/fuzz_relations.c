/* fuzz_relations.c: libFuzzer target for relations (tests/relations/rel.json): the model test
 * (tests/relations/test_relations_model.c) with its choices read from the input: spawns with
 * relations, add/set/remove with cycles and dead targets, cascade and clear destroys, deferred
 * changes, save/load round trips and refused documents, against its reference model, with
 * everything compared every 16 operations and at the end. Any divergence aborts. */
#define RELATIONS_FUZZ 1
#include "../relations/test_relations_model.c"
