"""`ecsgen-dump stats DUMP`: what a saved world holds: its schema and version, the number of
entities and of slots their ids span, entities per component, and the singletons' values."""

from .document import Obj, entities, key_text, to_text


def stats(file, doc):
    """The summary lines; DumpError when the document is not a world's shape."""
    listed = entities(file, doc)
    schema, version = doc.get("schema"), doc.get("version")
    lines = [f"schema {to_text(schema)}, version {to_text(version)}"]
    if listed:
        slots = max(index for (index, _), _ in listed) + 1
        reused = sum(1 for (_, generation), _ in listed if generation > 0)
        lines.append(f"entities: {len(listed)} in {slots} slots ({reused} with a generation above 0: their slot was reused)")
    else:
        lines.append("entities: 0")
    counts = {}
    for _, o in listed:
        for key in dict.fromkeys(o.keys()):
            if key != "id":
                counts[key_text(key)] = counts.get(key_text(key), 0) + 1
    if counts:
        width = max(len("component"), *(len(name) for name in counts))
        lines.append(f"{'component':<{width}}  entities")
        lines += [f"{name:<{width}}  {n:>8}" for name, n in counts.items()]
    singletons = doc.get("singletons")
    if isinstance(singletons, Obj) and singletons:
        lines.append("singletons:")
        lines += [f"  {key_text(name)} {to_text(value)}" for name, value in singletons]
    else:
        lines.append("singletons: none")
    return lines
