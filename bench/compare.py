#!/usr/bin/env python3
"""Two builds of bench, row by row: for each workload, storage and N, the median over
rounds of (the new build's ratio to its hand-written baseline) / (the old build's), the two
binaries run in turn so that both see the machine alike. Below 1: the new build is faster
against the same baseline. A Markdown table on stdout (docs/performance.md).

    python3 bench/compare.py OLD/bench/bench NEW/bench/bench [--rounds 5] [--runs 5]
        [--storage sparse --storage slot] [--n 10000 --n 100000 --n 1000000] [--workload TEXT]

--workload: only the workloads whose name contains TEXT (bench's own filter).
"""

import argparse
import collections
import json
import statistics
import subprocess
import sys


def rows(exe, storage, n, runs, workload):
    filter_args = ["--workload", workload] if workload else []
    out = subprocess.run([exe, "--json", "--runs", str(runs), "--n", str(n), "--components", "32",
                          "--storage", storage] + filter_args, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--storage", action="append")
    ap.add_argument("--n", type=int, action="append")
    ap.add_argument("--workload")
    args = ap.parse_args()
    storages = args.storage or ["sparse", "slot"]
    sizes = args.n or [10000, 100000, 1000000]
    ratios = collections.defaultdict(lambda: {"old": [], "new": []})
    for storage in storages:
        for n in sizes:
            for _ in range(args.rounds):
                for side in ("old", "new"):
                    for r in rows(getattr(args, side), storage, n, args.runs, args.workload):
                        ratios[(r["workload"], storage, n)][side].append(r["ratio"])
            print(f"compare: {storage} at {n} done", file=sys.stderr, flush=True)
    table = collections.defaultdict(dict)
    for (workload, storage, n), sides in ratios.items():
        if sides["old"] and sides["new"]:  # rows both builds have
            table[(workload, storage)][n] = statistics.median(sides["new"]) / statistics.median(sides["old"])
    print("| workload | storage | " + " | ".join(f"{n:,}" for n in sizes) + " |")
    print("| --- | --- |" + " ---: |" * len(sizes))
    for (workload, storage), by_n in sorted(table.items()):
        print(f"| {workload} | {storage} | " + " | ".join(f"{by_n[n]:.2f}" if n in by_n else "-" for n in sizes) + " |")


if __name__ == "__main__":
    main()
