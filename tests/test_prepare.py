"""What the controller prepares before the workers start (`tests/prepare.py`) is what the
workers and the commands they run look for: every test module's rewritten bytecode where
pytest's import hook reads it, every module of the project's packages compiled."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest
from _pytest.assertion import rewrite

from pipelines.bytecode import PACKAGES, compile_sources
from tests.prepare import ROOT, TESTS, rewrite_test_modules


def _rewritten(source: Path) -> bool:
    """Whether pytest's import hook finds `source` rewritten (and up to date)."""
    pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)
    return rewrite._read_pyc(source, pyc) is not None


def test_a_copy_of_the_tree_is_found_rewritten_and_compiled(
    pytestconfig: pytest.Config, tmp_path: Path
) -> None:
    """On a copy with no bytecode at all (a fresh clone): written, then found."""
    tests = tmp_path / "tests"
    tests.mkdir()
    for name in ("conftest.py", "test_prepare.py", "test_warm.py"):
        shutil.copy(TESTS / name, tests / name)
    shutil.copytree(
        ROOT / "transforms", tmp_path / "transforms", ignore=shutil.ignore_patterns("__pycache__")
    )
    modules = [*sorted(tests.glob("test_*.py")), tests / "conftest.py"]
    sources = sorted((tmp_path / "transforms").rglob("*.py"))
    assert sources and not any(_rewritten(m) for m in modules)
    assert not any(Path(importlib.util.cache_from_source(str(p))).exists() for p in sources)

    assert rewrite_test_modules(pytestconfig, tests) == len(modules)
    compile_sources(tmp_path)
    assert all(_rewritten(m) for m in modules)
    assert all(Path(importlib.util.cache_from_source(str(p))).exists() for p in sources)
    assert rewrite_test_modules(pytestconfig, tests) == 0  # up to date: nothing written


def test_the_tree_itself_is_prepared(pytestconfig: pytest.Config) -> None:
    compile_sources()
    rewrite_test_modules(pytestconfig)
    modules = [*sorted(TESTS.glob("test_*.py")), TESTS / "conftest.py"]
    assert TESTS / "test_prepare.py" in modules
    assert [m.name for m in modules if not _rewritten(m)] == []
    sources = [p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))]
    assert ROOT / "pipelines" / "build.py" in sources
    missing = [p for p in sources if not Path(importlib.util.cache_from_source(str(p))).exists()]
    assert missing == []
