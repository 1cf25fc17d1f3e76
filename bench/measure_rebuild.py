#!/usr/bin/env python3
"""Measures the edit -> rebuild loop of a project that uses ecsgen (docs/performance.md,
"Rebuild time").

Builds, in a temporary directory, a meson project that uses this checkout as its
subprojects/ecsgen (the way README.md shows) with a schema of COUNT components from
bench/gen_schema.py, a main.c and SYSTEMS user translation units that each use position,
velocity and one filler component, in one of two styles:
- "each": each file includes the generated header and loops with EACH (ad-hoc code);
- "systems": the schema declares the SYSTEMS systems, generated with --system-headers and
  --split-c, and each file defines one, including only that system's header
  (docs/systems.md, "A header per system").
Then it adds a field to one component (filler50, which no user file names), rebuilds,
removes it again, rebuilds, EDITS times each way, and reports per rebuild: wall time, what
ninja ran (from .ninja_log: the generator, each compile, the link, with their own times)
and how many translation units recompiled. Also a from-scratch build of a
LARGE-component schema.

    measure_rebuild.py [--count 100] [--systems 10] [--edits 3] [--large 512] [--rounds 1]
                       [--opt 2 --opt 0] [--style systems --style each] [--json] [--keep DIR]

--rounds R measures each rebuild row R times, each round in a project of its own, and ends
with each row's R medians and their median (on a shared machine one round is not a figure).

Run it under `nice` on a shared machine; figures move with the machine's load (it prints
the load average before and after)."""

import argparse
import json
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "consumer"))
import gen_schema  # noqa: E402  (bench/gen_schema.py, beside this file)
from projects import copy_repository, run  # noqa: E402  (what the consumer tests use too)

EDITED = "filler50"

# The generator's flags in each project style (the module's docstring).
STYLE_FLAGS = {"systems": ["--system-headers", "--split-c"], "each": []}

MESON_BUILD = """project('rebuild', 'c', default_options: ['c_std=c11', 'warning_level=3', 'werror=true'])
ecsgen_dep = dependency('ecsgen', fallback: ['ecsgen', 'ecsgen_dep'])
ecsgen = find_program('ecsgen')
ecs = custom_target('{name}_ecs', input: '{name}.json', output: [{outputs}],
  depfile: '{name}_ecs.d', command: [ecsgen, '@INPUT@', '--out', '@OUTDIR@', '--depfile', '@DEPFILE@'{flags}])
executable('game', 'main.c', {systems}, ecs, dependencies: ecsgen_dep)
"""

SYSTEM_C = """#include "{name}_ecs.h"

/* A system: moves every entity and counts those with filler{k}. */
int system_{k}({name}_world_t *w, float dt) {{
    int n = 0;
    {NAME}_EACH(w, it, position, velocity) {{
        {NAME}_FIELD(it, position, x) += {NAME}_FIELD(it, velocity, x) * dt;
    }}
    {NAME}_EACH(w, it, filler{k}) {{
        n += (int){NAME}_FIELD(it, filler{k}, value);
    }}
    return n;
}}
"""

SYSTEM_DEFINED_C = """#include "{name}_system_s{k}.h"

/* System s{k}: moves its matches (position, velocity and filler{k}) by velocity. */
void {name}_system_s{k}({name}_s{k}_t *ECS_RESTRICT s) {{
    for (size_t i = 0; i < s->count; i++) {{
        {NAME}_S{k}_FIELD(s, position, x, i) += {NAME}_S{k}_FIELD(s, velocity, x, i) * s->dt;
        {NAME}_S{k}_FIELD(s, position, y, i) += (float){NAME}_S{k}_FIELD(s, filler{k}, value, i);
    }}
}}
"""

MAIN_C = """#include <stdio.h>
#include "{name}_ecs.h"

{decls}
int main(void) {{
    {name}_world_t *w = {name}_world_new();
    if (!w) return 1;
    for (int i = 0; i < 100; i++) {{
        ecs_entity_t e = {name}_spawn(w, &({name}_spawn_desc_t){{.position = &({name}_position_t){{0}},
            .velocity = &({name}_velocity_t){{1, 0}}}});
        {name}_add_filler0(w, e, ({name}_filler0_t){{1}});
    }}
{body}    {name}_world_free(w);
    return 0;
}}
"""


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def make_project(directory, count, systems, style):
    """The consumer project for a COUNT-component schema in `style` ("each" or "systems");
    returns the schema's name."""
    document = gen_schema.schema(count)
    name = document["name"]
    outputs = [f"{name}_ecs.h", f"{name}_ecs.c"]
    files = [f"system_{k}.c" for k in range(systems)]
    if style == "systems":
        document["systems"] = {f"s{k}": {"all": ["position", "velocity", f"filler{k}"],
                                         "reads": ["velocity", f"filler{k}"], "writes": ["position"]}
                               for k in range(systems)}
        outputs += [f"{name}_ecs_views.c", f"{name}_ecs_data.c"] + [f"{name}_system_s{k}.h" for k in range(systems)]
        for k in range(systems):
            write(os.path.join(directory, files[k]), SYSTEM_DEFINED_C.format(name=name, NAME=name.upper(), k=k))
        body = f'    {name}_step(w, 0.5f);\n    printf("%zu\\n", {name}_count_position(w));\n'
        write(os.path.join(directory, "main.c"), MAIN_C.format(name=name, decls="", body=body))
    else:
        for k in range(systems):
            write(os.path.join(directory, files[k]), SYSTEM_C.format(name=name, NAME=name.upper(), k=k))
        decls = "".join(f"int system_{k}({name}_world_t *w, float dt);\n" for k in range(systems))
        calls = "".join(f"    n += system_{k}(w, 0.5f);\n" for k in range(systems))
        body = f'    int n = 0;\n{calls}    printf("%d\\n", n);\n'
        write(os.path.join(directory, "main.c"), MAIN_C.format(name=name, decls=decls, body=body))
    write(os.path.join(directory, name + ".json"), json.dumps(document, indent=1) + "\n")
    write(os.path.join(directory, "meson.build"),
          MESON_BUILD.format(name=name, systems=", ".join(f"'{f}'" for f in files),
                             outputs=", ".join(f"'{o}'" for o in outputs),
                             flags="".join(f", '{flag}'" for flag in STYLE_FLAGS[style])))
    return name


def ninja_log_lines(build):
    """The step lines of build/.ninja_log, in order (none before the first build)."""
    try:
        with open(os.path.join(build, ".ninja_log"), encoding="utf-8") as f:
            return [line for line in f if not line.startswith("#")]
    except FileNotFoundError:
        return []


def ninja_log_mark(build):
    """Where the next run's lines of build/.ninja_log will start. ninja appends a line per
    output it builds; compacted first, the log is not rewritten during the next run, so
    its new lines are exactly those past this mark. (An output's mtime in the log does not
    tell which ran: for a generator's outputs, which ninja restats, it is the newest
    input's, the schema's, from before the run.)"""
    run("ninja", "-C", build, "-t", "recompact", cwd=build)
    return len(ninja_log_lines(build))


def ninja_steps(build, mark):
    """The steps ninja ran since ninja_log_mark returned mark: (start ms, end ms, output)."""
    steps = []
    for line in ninja_log_lines(build)[mark:]:
        start, end, _, output = line.rstrip("\n").split("\t")[:4]
        steps.append((int(start), int(end), output))
    return steps


def classify(output, name):
    """Which part of the rebuild an output of ninja is."""
    if output.startswith(name + "_") and output.endswith((".h", ".c")):  # what the generator writes
        return "generator"
    if output.endswith(".o") and f"{name}_ecs" in output:
        return "generated .c"
    if output.endswith(".o") and "subprojects" in output:
        return "runtime"
    if output.endswith(".o"):
        return "user TU"
    if output.endswith(".so") or output.endswith(".a") or output == "game":
        return "link"
    return "other"


# The environment a user's build runs in. Python keeps the generator's modules compiled
# (__pycache__) unless PYTHONDONTWRITEBYTECODE is set, as some sandboxes and CI images do: then
# every generator run compiles them again (0.1 s of its 0.4 s here).
USER_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed_build(build, name):
    """Runs ninja in the build directory, as `meson compile` does after its own start (about
    0.3 s of Python, not counted: `ninja -C build` skips it); returns wall and CPU seconds
    (user + system, every process) and the steps ninja ran, by part."""
    mark = ninja_log_mark(build)
    start, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    run("ninja", "-C", build, cwd=build, env=USER_ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
    steps = {}
    seen = set()
    for begin, end, output in ninja_steps(build, mark):
        part = classify(output, name)
        key = (begin, end, part)
        if part == "generator" and key in seen:  # one run writes both files
            continue
        seen.add(key)
        steps.setdefault(part, []).append((end - begin) / 1000)
    return wall, cpu, steps


def cpu_of(command, cwd):
    """CPU seconds (user + system) of one command run alone."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, check=True, capture_output=True, env=USER_ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def parts_alone(project, build, name, style, repeat=3):
    """The CPU time of each part of a rebuild, each run alone (best of REPEAT: the least
    disturbed by other jobs): the generator, each generated .c's compile, a user TU's compile
    (system_0.c) and an empty TU that only includes the header."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = {os.path.basename(c["file"]): c for c in json.load(f)}
    empty = os.path.join(project, "empty.c")
    write(empty, f'#include "{name}_ecs.h"\n')

    def compile_alone(source, file):
        argv = shlex.split(commands[source]["command"])
        out = []
        skip = False
        for a in argv:  # no dependency file, the object to /dev/null
            if skip:
                skip = False
            elif a in ("-MD", "-MMD"):
                continue
            elif a in ("-MQ", "-MF", "-o"):
                skip = True
            elif a == commands[source]["file"]:
                out.append(file)
            else:
                out.append(a)
        return out + ["-o", os.devnull]

    generator = [sys.executable, os.path.join(project, "subprojects", "ecsgen", "generator", "ecsgen.py"),
                 os.path.join(project, name + ".json"), "--out", os.path.join(project, "alone"), *STYLE_FLAGS[style]]
    steps = {"generator": generator}
    for source in sorted(s for s in commands if s.startswith(name + "_ecs")):
        steps[source] = compile_alone(source, commands[source]["file"])
    steps["user TU (system_0.c)"] = compile_alone("system_0.c", commands["system_0.c"]["file"])
    steps["TU that only includes the header"] = compile_alone("system_0.c", empty)
    return {part: round(min(cpu_of(command, build) for _ in range(repeat)), 2) for part, command in steps.items()}


def edit(schema_path, add):
    with open(schema_path, encoding="utf-8") as f:
        document = json.load(f)
    fields = document["components"][EDITED]["fields"]
    if add:
        fields["added"] = "f32"
    else:
        fields.pop("added")
    write(schema_path, json.dumps(document, indent=1) + "\n")


def lines(path):
    with open(path, encoding="utf-8") as f:
        return sum(1 for _ in f)


def measure(tmp, count, systems, opt, edits, style):
    project = os.path.join(tmp, f"c{count}-O{opt}-{style}")
    os.makedirs(project)
    copy_repository(os.path.join(project, "subprojects", "ecsgen"))
    name = make_project(project, count, systems, style)
    build = os.path.join(project, "build")
    run("meson", "setup", build, f"-Doptimization={opt}", "-Ddebug=false", cwd=project)
    full_wall, full_cpu, full_steps = timed_build(build, name)
    result = {"components": count, "optimization": f"-O{opt}", "style": style, "user TUs": systems + 1,
              "header lines": lines(os.path.join(build, f"{name}_ecs.h")),
              ".c lines": lines(os.path.join(build, f"{name}_ecs.c")),
              "from scratch": {"wall s": round(full_wall, 2), "cpu s": round(full_cpu, 2),
                               "steps": summarise(full_steps)},
              "rebuilds": []}
    for k in range(2 * edits):
        edit(os.path.join(project, name + ".json"), add=(k % 2 == 0))
        wall, cpu, steps = timed_build(build, name)
        result["rebuilds"].append({"wall s": round(wall, 2), "cpu s": round(cpu, 2), "steps": summarise(steps)})
    result["parts alone, CPU s"] = parts_alone(project, build, name, style)
    if result["rebuilds"]:
        for key in ("wall s", "cpu s"):
            result["rebuild median " + key] = round(statistics.median(r[key] for r in result["rebuilds"]), 2)
    return result


def summarise(steps):
    """Per part: how many steps ninja ran and the sum of their own times."""
    return {part: {"n": len(times), "s": round(sum(times), 2), "max s": round(max(times), 2)}
            for part, times in sorted(steps.items())}


def print_result(r):
    print(f"{r['components']} components, {r['optimization']}, {r['style']}: header {r['header lines']:,} lines, "
          f".c {r['.c lines']:,} lines, {r['user TUs']} user TUs")
    def show(label, entry):
        parts = ", ".join(f"{part} {v['n']} x ({v['s']} s, longest {v['max s']} s)"
                          for part, v in entry["steps"].items())
        print(f"  {label}: {entry['wall s']:.2f} s wall, {entry['cpu s']:.2f} s CPU; {parts}")
    show("from scratch", r["from scratch"])
    for k, entry in enumerate(r["rebuilds"]):
        show(f"edit {k + 1} ({'add' if k % 2 == 0 else 'remove'} a field of {EDITED})", entry)
    print("  each part alone (CPU s, best of 3): " + ", ".join(f"{k} {v}" for k, v in r["parts alone, CPU s"].items()))
    if "rebuild median wall s" in r:
        print(f"  rebuild after an edit: median {r['rebuild median wall s']:.2f} s wall, "
              f"{r['rebuild median cpu s']:.2f} s CPU")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100, help="components of the edited schema")
    parser.add_argument("--systems", type=int, default=10, help="user TUs beside main.c")
    parser.add_argument("--edits", type=int, default=3, help="add+remove pairs")
    parser.add_argument("--opt", type=int, action="append", help="optimization levels (default 2 and 0)")
    parser.add_argument("--large", type=int, default=512, help="from-scratch schema size (0: none)")
    parser.add_argument("--style", action="append", choices=["systems", "each"],
                        help="how the user files use the schema (default both; see above)")
    parser.add_argument("--rounds", type=int, default=1, help="measure each rebuild row this many times")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", metavar="DIR", help="build in DIR and keep it")
    args = parser.parse_args()
    if args.count < 51:
        sys.exit("--count must be at least 51 (the edit is to filler50)")
    tmp = args.keep or tempfile.mkdtemp(prefix="ecsgen-rebuild-")
    results = []
    try:
        load = os.getloadavg()[0]
        styles = args.style or ["systems", "each"]
        runs = [(args.count, opt, args.edits, style) for style in styles for opt in args.opt or [2, 0]]
        runs += [(args.large, 2, 0, style) for style in styles] if args.large else []
        medians = {}  # each rebuild row's median per round
        for r in range(max(args.rounds, 1)):
            where = os.path.join(tmp, f"round{r + 1}") if args.rounds > 1 else tmp
            os.makedirs(where, exist_ok=True)
            for count, opt, edits, style in runs if r == 0 else [x for x in runs if x[2]]:
                results.append(measure(where, count, args.systems, opt, edits, style))
                if "rebuild median wall s" in results[-1]:
                    medians.setdefault(f"{count} components, -O{opt}, {style}", []).append(
                        results[-1]["rebuild median wall s"])
                if not args.json:
                    print_result(results[-1])
        if args.rounds > 1 and not args.json:
            for row, values in medians.items():
                print(f"{row}: rebuild medians of {len(values)} rounds "
                      f"{', '.join(f'{v:.2f}' for v in sorted(values))} s; their median "
                      f"{statistics.median(values):.2f} s, {sum(v <= 2.0 for v in values)} of {len(values)} at or under 2 s")
        if args.json:
            print(json.dumps(results, indent=1))
        else:
            print(f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after; {os.cpu_count()} CPUs")
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
