"""The project's Python files compiled to bytecode, once, where Python looks for it.

The project is installed editable (`uv pip install -e .`): the installer compiles the
dependencies' bytecode, not the project's. Where `PYTHONDONTWRITEBYTECODE` is set (it is in
the shells and the CI of this project's machines), no process writes any, so every
process compiles each project module it imports again: a `classement build` about 0.4 to
0.6 CPU-s (the 206 modules of pipelines/, transforms/ and classement/ compile in 0.62 s,
measured 6 December 2026), paid by every build, each build of `classement bench` and
every command the tests start. `make setup` (hence `make build` and `make test`), the
test suite's controller (`tests/prepare.py`) and `classement bench` call
`compile_sources` first: the files up to date are skipped (a stat each).
"""

from __future__ import annotations

import compileall
import py_compile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The project's packages (what the builds, the commands and the tests import)
PACKAGES = ("pipelines", "transforms", "classement", "benchmarks", "simulator", "tests")


def compile_sources(root: Path = ROOT) -> None:
    """Every module of the project's packages (below `root`) compiled to bytecode (those
    up to date skipped). `compileall` writes the files even under
    `PYTHONDONTWRITEBYTECODE`."""
    for package in PACKAGES:
        if (root / package).is_dir():
            # by modification time whatever SOURCE_DATE_EPOCH says (set, it would make
            # hash-checked files, written again at every call)
            compileall.compile_dir(
                root / package, quiet=1, invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP
            )


if __name__ == "__main__":  # `make setup`
    compile_sources()
