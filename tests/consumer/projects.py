"""What the tests that build a project outside this tree share (test_subproject.py,
test_cmake.py, tests/install/test_install.py) and bench/measure_rebuild.py: a command run
that fails loudly, a clean copy of this repository, and ecsgen installed into a prefix."""

import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*command, cwd=None, env=None, check=True):
    """The command's stdout; an AssertionError with its output when it fails. With
    check=False: the finished process, whatever its exit status."""
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if not check:
        return result
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


def copy_repository(target):
    """The source tree as a clean checkout has it: no .git, build directories or caches."""
    def ignore(directory, names):
        skip = {n for n in names if n in (".git", "__pycache__") or n.endswith(".pyc")}
        if os.path.samefile(directory, ROOT):
            skip |= {n for n in names if n.startswith("build")}
        return skip
    shutil.copytree(ROOT, target, ignore=ignore, symlinks=True)


def install(prefix, build):
    """meson setup (tests off) and install of this repository into prefix, built in build."""
    run("meson", "setup", build, ROOT, f"--prefix={prefix}", "--libdir=lib", "-Dtests=false")
    run("meson", "install", "-C", build)
