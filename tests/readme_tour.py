"""README.md's tour, as written: its C snippets compile (-Wall -Wextra -Wpedantic -Werror) and
the first one runs. The snippets are read from README.md at test time, so README and this
test cannot drift apart.

    readme_tour.py SOURCE_ROOT PYTHON CC [CC ARGS...]

The first snippet (it starts with the #include) becomes the body of a function with `dt`; each
later one the body of a function given the `w` and `e` the tour made, with the functions it
calls "your code" declared; a snippet about the scene graph (it names scene_ calls) gets a
world of examples/scene.json instead. schema/game.json and examples/scene.json are generated
into a temporary directory; the functions a snippet defines (system bodies) go to file
scope, and the schema's other systems get empty bodies; the program is built with README's plain build line (cc, the generated .c, runtime/*.c, -lcjson -lm).
The tour is C: it takes addresses of compound literals, which C++ refuses."""
import json
import pathlib
import re
import subprocess
import sys
import tempfile

YOUR_CODE = """
static ecs_entity_t first_hit(game_world_t *w, ecs_entity_t e) { (void)w, (void)e; return ECS_NULL; }
static void grid_insert(game_world_t *w, ecs_entity_t e, void *user) { (void)w, (void)e, (void)user; }
static void grid_move(game_world_t *w, ecs_entity_t e, void *user) { (void)w, (void)e, (void)user; }
static void grid_erase(game_world_t *w, ecs_entity_t e, void *user) { (void)w, (void)e, (void)user; }
static int grid_cells;
static void *grid = &grid_cells;
"""


def main():
    root, python, cc = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    readme = (root / "README.md").read_text()
    tour = re.search(r"^## A tour\n(.*?)^## ", readme, re.S | re.M).group(1)
    snippets = re.findall(r"^```c\n(.*?)^```", tour, re.S | re.M)
    if len(snippets) < 2 or not snippets[0].startswith('#include "game_ecs.h"\n'):
        print(f"README.md's tour: expected C snippets, the first starting with #include; found {len(snippets)}")
        return 1
    first = snippets[0].split("\n", 1)
    program = [first[0], '#include "scene_ecs.h"', "#include <stdio.h>", YOUR_CODE, "static void tour(float dt) {",
               first[1], "}"]
    calls = ""
    defined = set()
    for k, body in enumerate(snippets[1:], 1):
        functions = re.findall(r"^void \w+\([^\n]*\) \{\n.*?^\}\n", body, re.S | re.M)
        for f in functions:
            body = body.replace(f, "")
            program.append(f)
            defined.add(re.match(r"void (\w+)", f).group(1))
        if "scene_" in body:
            program += [f"static void tour_{k}(scene_world_t *w) {{", body, "}"]
            calls += f"    scene_world_t *scene = scene_world_new();\n    tour_{k}(scene);\n    scene_world_free(scene);\n"
        else:
            program += [f"static void tour_{k}(game_world_t *w, ecs_entity_t e) {{", "    (void)w, (void)e;", body, "}"]
            calls += f"    tour_{k}(w, e);\n"
    systems = json.loads((root / "schema/game.json").read_text()).get("systems", {})
    program += [f"void game_system_{name}(game_{name}_t *s) {{ (void)s; }}"
                for name in systems if f"game_system_{name}" not in defined]
    program.append(f"""
int main(void) {{
    tour(1.0f / 60);
    game_world_t *w = game_world_new();
    ecs_entity_t e = game_spawn(w, &(game_spawn_desc_t){{ .position = &GAME_POSITION_DEFAULT, .health = &GAME_HEALTH_DEFAULT }});
{calls}    game_world_free(w);
    puts("tour: ran");
    return 0;
}}
""")
    with tempfile.TemporaryDirectory() as out:
        for schema in ("schema/game.json", "examples/scene.json"):
            subprocess.run([python, str(root / "generator/ecsgen.py"), str(root / schema), "--out", out], check=True)
        source = pathlib.Path(out) / "tour.c"
        source.write_text("\n".join(program))
        # The tour keeps values it does not use again (s, t, h, r): a tour, not a program.
        build = subprocess.run([*cc, "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                                "-Wno-unused-variable", "-Wno-unused-but-set-variable",
                                f"-I{root / 'runtime'}", f"-I{out}", str(source), f"{out}/game_ecs.c", f"{out}/scene_ecs.c",
                                *map(str, sorted((root / "runtime").glob("*.c"))), "-lcjson", "-lm",
                                "-o", f"{out}/tour"], capture_output=True, text=True)
        if build.returncode != 0:
            print(f"README.md's tour does not compile:\n{build.stderr}\nas:\n{source.read_text()}")
            return 1
        run = subprocess.run([f"{out}/tour"], capture_output=True, text=True)
        print(run.stdout + run.stderr, end="")
        return run.returncode


if __name__ == "__main__":
    sys.exit(main())
