#!/usr/bin/env python3
"""Writes the API fuzzer's seed corpus (tests/fuzz/corpus_api/seed_*): small op sequences in
the byte encoding fuzz_api.c reads, one per feature, so that the fuzzer starts from inputs
that reach every op. Run from anywhere: python3 tests/fuzz/make_api_seeds.py [DIR]"""
import os
import struct
import sys

# Components (bit k of a desc mask, the comp argument of component ops).
POS, VEL, KINDS, MARKED = 0, 1, 2, 3
# Loops, in fuzz_api.c's order.
Q_POS, Q_MOVE, Q_FAST, Q_TAGGED, Q_KINDS_NO_VEL, Q_MARKED = range(6)
ADD, SET, REMOVE = 0, 1, 2


def live(i):
    return [4, i]


def stale(i):
    return [1, i]


def never(i):
    return [2, 0, i]


def made_up(gen, i):
    return [3, gen, i]


NULL = [0]

# Entity field values (pick_ref): ECS_NULL, a stale id, a live id.
REF_NULL = [0]


def ref_stale(i):
    return [1, i]


def ref_live(i):
    return [2, i]


def f32(v):
    """A small float: v * 2 must be an integer in -64..95."""
    return [int(v * 2) & 0xff]


def f32_bits(bits):
    return [0xc0] + list(struct.pack("<I", bits))


def f64(v):
    """A small double: v * 4 must be an integer in -64..95."""
    return [int(v * 4) & 0xff]


def f64_bits(bits):
    return [0xc0] + list(struct.pack("<Q", bits))


def text(s):
    alphabet = 'ab"\\/\n\t\x01\x7f\xc3 zZ09{}'
    return [len(s)] + [alphabet.index(ch) for ch in s]


def pos_value(x=1, y=2):
    return [1] + f32(x) + f32(y)


def vel_value(x=0.5):
    return [1] + f64(x)


def kinds_value(rich=False, refs=None):
    if not rich:
        return [0x80, 2]  # only the enum: fast
    refs = refs or [REF_NULL, REF_NULL, REF_NULL]
    out = [0xff]
    out += [1, 0x80] + [0xff, 0x7f] + list(struct.pack("<I", 0x80000000)) + list(struct.pack("<Q", 2**63))
    out += [255] + [0xff, 0xff] + list(struct.pack("<I", 2**32 - 1)) + list(struct.pack("<Q", 2**64 - 1))
    out += f32_bits(0x00000001) + f64_bits(0x8000000000000000)  # a denormal, -0.0
    out += refs[0]
    out += text('a"\\\xc3')
    out += [1, 0, 2, 0, 3, 0] + [1, 0]
    out += refs[1] + refs[2]
    out += [0]
    return out


def value(comp, **kw):
    return {POS: pos_value, VEL: vel_value, KINDS: kinds_value}[comp](**kw) if comp != MARKED else []


def desc(mask, rich=False):
    out = [mask]
    if mask & 1:
        out += pos_value()
    if mask & 2:
        out += vel_value()
    if mask & 4:
        out += kinds_value(rich)
    return out


def spawn(mask=0xf, rich=False):
    return [0, 0] + desc(mask, rich)


def spawn_null():
    return [0, 1]


def spawn_prefab(k):  # 2 ship, 3 crate, 4 empty
    return [0, k]


def destroy(target):
    return [2] + target


def component(target, comp, how, **kw):
    return [3] + target + [comp, how] + (value(comp, **kw) if how != REMOVE else [])


def singleton(tick, label):
    return [6] + list(struct.pack("<Q", tick)) + text(label)


def loop(q, visits):
    """visits: one list of in-loop changes per visit (each already encoded), in visit order."""
    out = [7, q]
    for changes in visits:
        out += [len(changes)]
        for c in changes:
            out += c
        out += [0]  # do not break
    return out


def loop_break(q):
    return [7, q, 0, 0xff]


# In-loop changes (fuzz_api_body.h, loop_change).
def c_destroy_current():
    return [0]


def c_current(comp, how, **kw):
    return [1, comp, how] + (value(comp, **kw) if how != REMOVE and comp != MARKED else [])


def c_other(target, comp, how=ADD, **kw):
    return [3] + target + [comp, how] + (value(comp, **kw) if comp != MARKED else [])


def c_spawn(mask=0xf):
    return [4] + [0] + desc(mask)


def c_defer(d):
    return [5] + d


def c_poke(target_index, x):
    return [7, target_index] + f32(x)


def c_tick(n):
    return [8, n]


def c_view():
    return [9]


# Deferred changes (op_defer): what % 13: 0-3 add, 4-6 set, 7-10 remove (of component what,
# what - 4, what - 7), 11 destroy, 12 spawn.
def d_add(comp, target, **kw):
    return [comp] + target + value(comp, **kw)


def d_set(comp, target, **kw):
    return [4 + comp] + target + value(comp, **kw)


def d_remove(comp, target):
    return [7 + comp] + target


def d_destroy(target):
    return [11] + target


def d_spawn(mask=0xf):
    return [12] + desc(mask)


def defer(d):
    return [10] + d


def apply():
    return [11]


def json(reload=0, pick=0):
    return [12, reload, pick]


def views():
    return [13, 0]  # below 192: the views check


def reenter(mode, target, remove=False):
    """pos's on_remove destroys (0), removes pos (1), applies the buffer (2) or loads (3),
    during destroy(target) or remove_pos(target)."""
    return [13, 192 + mode] + target + [1 if remove else 0]


def fault(countdown, onwards=0):
    return [14, countdown, onwards]


def burst(n, mask=0xf, add=VEL):
    out = [15, n]
    for _ in range(n):
        out += [0] + desc(mask) + [add] + (value(add) if add != MARKED else [])
    return out


def view_loop(which, n, defers=(), apply_after=1):
    """which: 0 move, 1 fast, 2 tagged; n elements, each with a defer (or none)."""
    out = [9, which]
    defers = list(defers)
    for k in range(n):
        d = defers[k] if k < len(defers) else None
        if d is None:
            out += [1]
        else:
            out += [0] + d  # rd_u8 % 4 == 0: a defer; op_defer reads `what` next
        if which == 2:
            out += [1]  # no spawn
    return out + [apply_after]


def seeds():
    s = {}
    four = spawn(0xf) + spawn(0x7) + spawn(0x3) + spawn(0x1)
    s["spawn_kinds"] = spawn(0xf, rich=True) + spawn(0x7, rich=True) + views()
    s["entity_refs"] = four + destroy(live(0)) + component(live(1), KINDS, SET, rich=True, refs=[ref_live(0), ref_stale(0), ref_live(2)]) + json(reload=1) + spawn() + views()
    s["spawn_prefabs"] = spawn_prefab(2) + spawn_prefab(3) + spawn_prefab(4) + spawn_null() + views()
    s["destroy_ids"] = four + destroy(live(0)) + destroy(stale(0)) + destroy(never(3)) + destroy(made_up(1, 2)) + destroy(NULL)
    s["components"] = four + sum((component(live(i), c, h) for i in range(4) for c in range(4) for h in range(3)), [])
    s["stale_calls"] = four + destroy(live(1)) + sum((component(stale(0), c, h) for c in range(4) for h in range(3)), [])
    s["singleton"] = singleton(2**64 - 1, 'ab"\\') + singleton(7, "\xc3zz") + json()
    for q in range(6):
        s[f"loop_{q}"] = (four + spawn(0xb) + loop(q, [[]] * 5) + loop(q, [[c_destroy_current()]] * 5) + four +
                          spawn(0xb) + views() + loop(q, [[c_other(live(k), MARKED), c_other(live(k + 1), KINDS)] for k in range(5)]))
    # Adding an excluded component (marked) to an entity the loop has not reached yet.
    s["loop_excluded_add"] = spawn(0x7) * 3 + loop(Q_POS, [[c_other(live(0), MARKED)], [], []]) + views()
    s["loop_remove_current"] = four + views() + loop(Q_POS, [[c_current(c, REMOVE)] for c in range(4)])
    s["loop_add_current"] = four + loop(Q_MOVE, [[c_current(KINDS, ADD), c_current(MARKED, ADD)]] * 4)
    s["loop_spawn_inner_view"] = four + loop(Q_POS, [[c_view(), c_spawn(), c_view()]] * 4)
    s["loop_defer"] = four + loop(Q_POS, [[c_defer(d_destroy(live(1))), c_defer(d_remove(VEL, live(2))), c_defer(d_spawn())]] * 4) + apply() + views()
    s["loop_poke_tick"] = four + loop(Q_TAGGED, [[c_poke(0, 3), c_tick(5)]] * 4)
    s["loop_break"] = four + loop_break(Q_POS) + views()
    s["defer_all"] = four + sum((defer(d_add(c, live(i))) + defer(d_set(c, live(i))) for i in range(4) for c in range(3)), []) + defer(d_destroy(live(0))) + defer(d_add(MARKED, live(1))) + apply() + views()
    s["defer_stale"] = four + destroy(live(0)) + defer(d_destroy(stale(0))) + defer(d_add(POS, stale(0))) + defer(d_destroy(never(1))) + apply()
    s["defer_spawns"] = sum((defer(d_spawn(m)) for m in range(16)), []) + apply() + views()
    s["view_loops"] = four + spawn(0xb) + view_loop(0, 3, [d_destroy(live(0))]) + view_loop(1, 2) + view_loop(2, 2, [d_spawn()])
    s["json_round_trip"] = spawn(0xf, rich=True) + spawn(0x7, rich=True) + destroy(live(0)) + spawn(0x4, rich=True) + json() + json(reload=1)
    s["json_reload_defer"] = four + defer(d_destroy(live(0))) + json(reload=1) + apply() + views()
    s["json_floats"] = [0, 0, 0x3, 1] + f32_bits(0x7fc00001) + f32_bits(0xff800000) + [1] + f64_bits(0xfff8000000000001) + json(reload=1)
    s["fault_spawn"] = fault(1) + spawn() + fault(2, 1) + spawn() + spawn() + fault(0) + spawn() + views()
    # Three pending ids per visit, pools with room: the list (64) cannot grow with every allocation failing.
    s["fault_loop_overflow"] = burst(30, 0xf, VEL) + views() + fault(1, 1) + loop(Q_POS, [[c_current(MARKED, REMOVE), c_current(MARKED, ADD), c_current(MARKED, REMOVE)]] * 30) + fault(0) + views()
    s["fault_json"] = four + fault(3) + json() + fault(5, 1) + json(reload=1) + fault(0) + json()
    s["fault_defer_apply"] = four + sum((defer(d_set(POS, live(i))) for i in range(4)), []) + fault(1) + apply() + fault(0) + apply()
    s["fault_views"] = four + spawn(0x9) + fault(1, 1) + views() + fault(0) + views()
    s["burst"] = burst(30) + views() + burst(20, 0x3, KINDS) + views()
    # Plain ops only (NULL spawns, adds of pos, deferred changes), so the bytes stay in step.
    three = [0, 1] * 3 + sum(([3] + live(i) + [POS, ADD, 0] for i in range(3)), [])
    queued = [10, 3] + live(1) + [10, 7 + POS] + live(2) + [10, 11] + live(0)  # add marked, remove pos, destroy
    for mode in range(4):
        s[f"hook_reenter_{mode}"] = (three + queued + reenter(mode, live(0)) + three + queued +
                                     reenter(mode, live(1), remove=True) + reenter(mode, stale(0)) + views())
    fixed = {}
    fixed["fixed_full"] = burst(24) + spawn() + spawn_prefab(2) + destroy(live(3)) + spawn_prefab(3) + views()
    fixed["fixed_overflow_loop"] = burst(24, 0x1, MARKED) + views() + loop(Q_POS, [[c_current(VEL, ADD), c_current(VEL, REMOVE), c_current(VEL, ADD)]] * 24) + views()
    fixed["fixed_defer_full"] = four + sum((defer(d_set(POS, live(i % 4))) for i in range(30)), []) + apply()
    fixed["fixed_hook_reenter"] = s["hook_reenter_2"] + reenter(0, live(2))
    fixed["fixed_json"] = spawn(0xf, rich=True) + burst(10) + json(reload=1) + spawn() + views()
    fixed["fixed_loops"] = four + spawn(0xb) + loop(Q_FAST, [[c_other(live(0), MARKED)]] * 3) + loop(Q_POS, [[c_spawn(), c_current(MARKED, ADD)]] * 5)
    out = {f"seed_{k}": bytes([0]) + bytes(v) for k, v in s.items()}
    out.update({f"seed_{k}": bytes([1]) + bytes(v) for k, v in fixed.items()})
    out.update({f"seed_fixed_{k}": bytes([1]) + bytes(v) for k, v in s.items() if k in ("loop_0", "loop_2", "json_round_trip", "defer_all")})
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "corpus_api")
    os.makedirs(out, exist_ok=True)
    for name, data in sorted(seeds().items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print(f"{len(seeds())} seeds in {out}")


if __name__ == "__main__":
    main()
