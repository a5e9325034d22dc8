"""What the controller of a run on several workers prepares once, before the workers start,
so that none of the processes of the run (the workers, and the `classement` commands and
Dagster processes the tests start) does it again:

- Numba's loops compiled into their cache (`pipelines/compiled.py`), in a process of its own so
  that it runs on one core while the controller does the rest on the other;
- the project's Python files compiled to bytecode (`compileall`), and the test modules
  rewritten by pytest's assertion rewriting into pytest's own bytecode files.

Without it, a process that finds no bytecode compiles every module it imports: always so
when `PYTHONDONTWRITEBYTECODE` is set (no process writes any), as it is in the shells
these tests are run from. Measured (2 December 2026, a clone of the tree): collecting the
suite 12 CPU-s without the files, 6 with them (of which the rewriting of the 72 test
modules ~3,5 s, the project's modules ~2,5 s), in each of the 3 workers and again each
run; a `classement build` command about 0,6 CPU-s more without them. Compiling everything
here costs about 0,7 CPU-s plus the rewriting, once (then only the files that changed).
The bytecode files go to `__pycache__/` folders (ignored by git), as Python's own would.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pipelines.bytecode import ROOT, compile_sources

TESTS = ROOT / "tests"


def start_numba_warm_up() -> subprocess.Popen[bytes]:
    """`python -m pipelines.compiled` started (not waited for)."""
    return subprocess.Popen(
        [sys.executable, "-m", "pipelines.compiled"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def rewrite_test_modules(config: pytest.Config, tests: Path = TESTS) -> int:
    """The test modules and `conftest.py` of `tests` rewritten as pytest's import hook rewrites them
    (its assertion messages), written where the hook looks for them first; the up-to-date
    ones skipped. Returns how many were written. Uses pytest's own functions (private;
    pytest is pinned by requirements.lock): if they move, nothing is written and each
    worker rewrites the modules itself, as without this step."""
    try:
        from _pytest.assertion import rewrite
    except ImportError:
        return 0
    needed = ("assertstate_key", "get_cache_dir", "PYC_TAIL", "_read_pyc", "_rewrite_test")
    if not all(hasattr(rewrite, name) for name in (*needed, "_write_pyc")):
        return 0
    state = config.stash.get(rewrite.assertstate_key, None)
    if state is None:  # --assert=plain: nothing is rewritten
        return 0
    written = 0
    for source in [*sorted(tests.glob("test_*.py")), tests / "conftest.py"]:
        folder = rewrite.get_cache_dir(source)
        pyc = folder / (source.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(source, pyc) is not None:
            continue
        try:
            folder.mkdir(exist_ok=True)
        except OSError:  # a read-only tree: the workers rewrite the modules themselves
            return written
        source_hash, code = rewrite._rewrite_test(source, config)
        written += bool(rewrite._write_pyc(state, code, source_hash, pyc))
    return written


def prepare(config: pytest.Config) -> None:
    """The whole preparation: Numba's warm-up on one core, the bytecode on the other.
    A warm-up that fails stops nothing (the tests that run the loops will say why); it
    is reported on the terminal."""
    warming = start_numba_warm_up()
    compile_sources()
    rewrite_test_modules(config)
    _, errors = warming.communicate()
    if warming.returncode != 0:
        last = errors.decode("utf-8", "replace").strip().splitlines()[-1:]
        sys.stderr.write(
            "Préchauffage de Numba en échec (code "
            f"{warming.returncode}) : chaque processus compilera lui-même. {' '.join(last)}\n"
        )
