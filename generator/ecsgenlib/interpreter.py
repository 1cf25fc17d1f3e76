"""Finding a Python that has what the generator needs. Imports nothing outside the standard
library, so a command can call it before anything else."""

import importlib.util
import os
import sys

REQUIRED_MODULES = ("jinja2", "jsonschema")
DEBIAN_PYTHON = "/usr/bin/python3"


def ensure_modules(prog, script):
    """Re-runs `script` under Debian's python3 when this interpreter lacks jinja2 or jsonschema
    (a pyenv python3 first on PATH often does), else exits explaining what to install."""
    # Found, not imported: a generator run imports jsonschema and jinja2 in two processes
    # (background.py), each only the one it uses.
    missing = [module for module in REQUIRED_MODULES if importlib.util.find_spec(module) is None]
    if not missing:
        return
    if (os.path.exists(DEBIAN_PYTHON) and os.path.realpath(sys.executable) != os.path.realpath(DEBIAN_PYTHON)
            and not os.environ.get("ECSGEN_REEXEC")):
        os.environ["ECSGEN_REEXEC"] = "1"
        os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON, os.path.abspath(script), *sys.argv[1:]])
    packages = " ".join("python3-" + m for m in missing)
    print(f"{prog}: missing Python modules: {', '.join(missing)} (install them: apt-get install {packages})",
          file=sys.stderr)
    sys.exit(2)
