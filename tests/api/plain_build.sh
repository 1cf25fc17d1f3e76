#!/usr/bin/env bash
# README's build without meson ("Building"): generate the kitchen schema into a temporary directory
# with generator/ecsgen.py, compile with the plain line, run the program.
#     plain_build.sh SOURCE_ROOT [PYTHON]
# PYTHON defaults to python3; meson passes the interpreter it found with jinja2 and jsonschema.
set -euo pipefail
root=$1
python=${2:-python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cd "$root"
"$python" generator/ecsgen.py tests/schemas/kitchen.json --out "$dir"
test -f "$dir/kit_ecs.h" && test -f "$dir/kit_ecs.c"
cp tests/api/plain_prog.c "$dir/prog.c"
cd "$dir"
cc -I"$root/runtime" -I"$dir" prog.c "$dir/kit_ecs.c" "$root"/runtime/*.c -lcjson -lm -o prog
./prog
