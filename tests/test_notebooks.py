"""The analyst notebooks run headless against a warehouse built from the sample, read-only."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import duckdb
import plotly.graph_objects as go
import polars as pl
import pytest

from pipelines.resources import PROJECT_ROOT

pytestmark = pytest.mark.slow

NOTEBOOKS = PROJECT_ROOT / "notebooks"


@pytest.fixture(scope="module")
def warehouse(sample_site: Path) -> Path:
    return sample_site / "w.duckdb"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"notebook_{name}", NOTEBOOKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(name: str, warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """Run every cell of a notebook through marimo's API; returns the cells' definitions."""
    monkeypatch.setenv("CLASSEMENT_WAREHOUSE", str(warehouse))
    _, defs = _load(name).app.run()
    return dict(defs)


@pytest.mark.parametrize("name", ["explore_warehouse", "cote_vs_elo", "series_movements"])
def test_notebook_runs_as_a_script(name: str, warehouse: Path) -> None:
    """`python notebooks/<name>.py` succeeds while this process holds the warehouse open
    read-only: DuckDB lets a second process in only if it opens read-only too."""
    held = duckdb.connect(str(warehouse), read_only=True)
    try:
        done = subprocess.run(
            [sys.executable, str(NOTEBOOKS / f"{name}.py")],
            env={**os.environ, "CLASSEMENT_WAREHOUSE": str(warehouse)},
            capture_output=True,
            text=True,
            timeout=120,
            cwd=PROJECT_ROOT,
        )
    finally:
        held.close()
    assert done.returncode == 0, done.stderr[-3000:]


def test_explore_warehouse(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    defs = _run("explore_warehouse", warehouse, monkeypatch)
    counts = defs["row_counts"]
    assert isinstance(counts, pl.DataFrame)
    as_dict = dict(counts.iter_rows())
    assert as_dict["tournaments"] > 0 and as_dict["series_movements"] > 0
    assert defs["seasons"].height > 0  # type: ignore[attr-defined]
    assert defs["top_cote"].height >= 5  # type: ignore[attr-defined]
    assert defs["top_cote"]["name"].null_count() == 0  # type: ignore[index]
    assert defs["series_sizes"].height > 0  # type: ignore[attr-defined]


def test_cote_vs_elo(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    defs = _run("cote_vs_elo", warehouse, monkeypatch)
    figure = defs["figure"]
    assert isinstance(figure, go.Figure)
    assert [t.name for t in figure.data] == ["Cote", "Elo"]
    assert all(len(t.x) >= 2 for t in figure.data)
    changes = defs["changes"]
    assert isinstance(changes, pl.DataFrame) and changes.height >= 1
    agreement = defs["agreement"]
    assert agreement["changes"][0] > 0  # type: ignore[index]
    assert -1 <= agreement["correlation"][0] <= 1  # type: ignore[index]


def test_series_movements(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    defs = _run("series_movements", warehouse, monkeypatch)
    moves = defs["moves"]
    assert isinstance(moves, pl.DataFrame) and moves.height > 0
    summary = defs["summary"]
    assert summary["players"].sum() == moves.height  # type: ignore[index]
    transitions = defs["transitions"]
    assert isinstance(transitions, pl.DataFrame)
    # The matrix accounts for every player of the season.
    counted = transitions.drop("série tenue").sum_horizontal().sum()
    assert counted == moves.height
    figure = defs["figure"]
    assert isinstance(figure, go.Figure) and len(figure.data) == 2
