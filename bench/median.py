#!/usr/bin/env python3
"""Several runs of one bench build, cell by cell: for each workload, storage and N, the
median of the runs' ratios (each itself bench's median over its --runs). A Markdown table
on stdout, in the order bench prints its rows: docs/performance.md's "Results".

    python3 bench/median.py --bench build-rel/bench/bench --times 10 -- --components 32 --runs 5
    python3 bench/median.py RUN.json ... [--storage sparse --storage slot]

--bench EXE --times K: runs `EXE --json ARGS` K times in turn (ARGS after --); or give the
JSON outputs of earlier runs (`bench --json > run1.json`). --storage: only those storages
(every one the runs hold by default). Rows in bytes per entity (the memory rows) show the
median of ecsgen's figure, not a ratio.
"""

import argparse
import collections
import json
import statistics
import subprocess
import sys


def bytes_row(r):
    return r["unit"].startswith("bytes")


def runs_of(args):
    """Each run's rows: from the files, or from running the bench --times times."""
    if args.bench:
        for _ in range(args.times):
            out = subprocess.run([args.bench, "--json"] + args.bench_args, capture_output=True, text=True)
            if out.returncode != 0:
                sys.exit(f"{args.bench}: exit {out.returncode}: {out.stderr.strip()}")
            yield args.bench, out.stdout
        return
    for path in args.runs:
        try:
            with open(path, encoding="utf-8") as f:
                yield path, f.read()
        except OSError as e:
            sys.exit(f"{path}: {e.strerror}")


def main():
    argv = sys.argv[1:]
    bench_args = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="*", help="bench --json outputs")
    ap.add_argument("--bench", help="a bench executable to run --times times")
    ap.add_argument("--times", type=int, default=10)
    ap.add_argument("--storage", action="append")
    args = ap.parse_args(argv)
    args.bench_args = bench_args
    if bool(args.bench) == bool(args.runs) or args.times < 1:
        ap.error("give either JSON files or --bench EXE (--times at least 1)")
    cells = collections.defaultdict(list)  # (workload, storage, n) -> the runs' values
    order, sizes, memory, count = [], [], {}, 0
    for where, text in runs_of(args):
        try:  # (workload, storage), n, the value, a bytes row: per row of the run
            rows = [((r["workload"], r["storage"]), r["n"], r["ecsgen"] if bytes_row(r) else r["ratio"], bytes_row(r))
                    for r in json.loads(text)]
        except (ValueError, TypeError, KeyError) as e:
            sys.exit(f"{where}: not a bench --json output: {e!r}")
        count += 1
        for key, n, value, in_bytes in rows:
            if args.storage and key[1] not in args.storage:
                continue
            if key not in order:
                order.append(key)
            if n not in sizes:
                sizes.append(n)
            memory[key[0]] = in_bytes
            cells[key + (n,)].append(value)
    if not order:
        sys.exit("median: no rows (check --storage)")
    sizes.sort()
    print("| workload | storage | " + " | ".join(f"{n:,}" for n in sizes) + " |")
    print("| --- | --- |" + " ---: |" * len(sizes))
    for workload, storage in order:
        out = []
        for n in sizes:
            values = cells.get((workload, storage, n))
            if not values:
                out.append("-")
            elif memory[workload]:
                out.append(f"{statistics.median(values):.1f}")
            else:
                out.append(f"{statistics.median(values):.2f}x")
        print(f"| {workload} | {storage} | " + " | ".join(out) + " |")
    print(f"median: {count} runs", file=sys.stderr)


if __name__ == "__main__":
    main()
