#!/usr/bin/env python3
"""The systems benchmark's schema (docs/performance.md, "Systems"): N components c0..c{N-1},
each with one f32 field v, and N systems s0..s{N-1}, system k writing ck over all of ck; plus
a heavy system `heavy` over the query fighters (hp, pos) for the thread speed-up.

    gen_systems.py N OUT.json"""
import json
import sys


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    components = {f"c{k}": {"fields": {"v": "f32"}} for k in range(n)}
    components["pos"] = {"fields": {"x": "f32", "y": "f32"}}
    components["hp"] = {"fields": {"v": "f32"}}
    systems = {f"s{k}": {"all": [f"c{k}"], "writes": [f"c{k}"]} for k in range(n)}
    systems["heavy"] = {"query": "fighters", "reads": ["pos"], "writes": ["hp"]}
    schema = {"name": "sb", "doc": f"{n} one-component systems and one heavy one (bench/gen_systems.py)",
              "components": components, "queries": {"fighters": {"all": ["hp", "pos"]}}, "systems": systems}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(schema, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
