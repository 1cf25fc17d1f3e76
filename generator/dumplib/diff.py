"""`ecsgen-dump diff A B`: what changed between two saved worlds, one line per difference,
by path: entities are matched by id (`entities[5v0]`, slot 5 generation 0), never by their
place in the list, so a spawn or destroy elsewhere shows as one added or removed entity."""

from .document import Obj, entities, format_id, key_text, same, to_text


def diff(file_a, doc_a, file_b, doc_b):
    """The difference lines, in a stable order: the header and singletons in document order,
    then entities by slot and generation; within an entity, A's components in A's order, then
    those only B has. DumpError when either is not a world's shape."""
    list_a, list_b = entities(file_a, doc_a), entities(file_b, doc_b)
    lines = []
    rest_a = Obj((k, v) for k, v in doc_a if k != "entities")
    rest_b = Obj((k, v) for k, v in doc_b if k != "entities")
    _diff_value("", rest_a, rest_b, lines)
    by_id_a, by_id_b = dict(list_a), dict(list_b)
    for key in sorted(set(by_id_a) | set(by_id_b)):
        path = f"entities[{format_id(*key)}]"
        a, b = by_id_a.get(key), by_id_b.get(key)
        if b is None:
            lines.append(f"{path}: removed {to_text(_content(a))}")
        elif a is None:
            lines.append(f"{path}: added {to_text(_content(b))}")
        else:
            _diff_entity(format_id(*key), path, _content(a), _content(b), lines)
    return lines


def _diff_entity(name, path, a, b, lines):
    """As _diff_value, but a relation (a component whose one field is `target`, an id) whose
    target changed is a move: `3v0: child_of 1v0 -> 2v0`."""
    first_a, first_b = a.first(), b.first()  # by key, in document order: linear in the keys
    moved = {k for k, x in first_a.items()
             if k in first_b and _is_relation(x) and _is_relation(first_b[k]) and not same(x, first_b[k])}
    if not moved:
        _diff_value(path, a, b, lines)
        return
    for key in first_a:
        if key in moved:
            lines.append(f"{name}: {key_text(key)} {_target(first_a[key])} -> {_target(first_b[key])}")
    _diff_value(path, Obj((k, v) for k, v in a if k not in moved), Obj((k, v) for k, v in b if k not in moved), lines)


def _is_relation(v):
    return isinstance(v, Obj) and v.keys() == ["target"] and (isinstance(v.get("target"), str) or v.get("target") is None)


def _target(v):
    """The target's id as written (escaped as keys are), or null."""
    t = v.get("target")
    return key_text(t) if isinstance(t, str) else to_text(t)


def _content(entity):
    return Obj((k, v) for k, v in entity if k != "id")


def _join(path, key):
    return f"{path}.{key_text(key)}" if path else key_text(key)


def _diff_value(path, a, b, lines):
    if isinstance(a, Obj) and isinstance(b, Obj):
        first_a, first_b = a.first(), b.first()  # by key, in document order: linear in the keys
        for key, value in first_a.items():
            if key not in first_b:
                lines.append(f"{_join(path, key)}: removed {to_text(value)}")
            else:
                _diff_value(_join(path, key), value, first_b[key], lines)
        for key, value in first_b.items():
            if key not in first_a:
                lines.append(f"{_join(path, key)}: added {to_text(value)}")
    elif _is_array(a) and _is_array(b) and len(a) == len(b):
        for k, (x, y) in enumerate(zip(a, b)):
            _diff_value(f"{path}[{k}]", x, y, lines)
    elif not same(a, b):
        lines.append(f"{path}: {to_text(a)} -> {to_text(b)}")


def _is_array(v):
    return isinstance(v, list) and not isinstance(v, Obj)

