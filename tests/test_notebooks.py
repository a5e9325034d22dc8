"""The analyst notebooks run headless against a warehouse built from the sample, read-only."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import duckdb
import plotly.graph_objects as go
import polars as pl
import pytest

from pipelines.paths import PROJECT_ROOT

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


# ---------------------------------------------------------------------------- issue 17


def test_a_missing_warehouse_is_a_clear_error_from_any_folder(tmp_path: Path) -> None:
    """Started from another folder, with no warehouse: a French error naming the path
    looked for, never empty tables."""
    missing = tmp_path / "nulle-part.duckdb"
    done = subprocess.run(
        [sys.executable, str(NOTEBOOKS / "explore_warehouse.py")],
        env={**os.environ, "CLASSEMENT_WAREHOUSE": str(missing)},
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode != 0
    assert f"Entrepôt introuvable : {missing}" in done.stderr
    assert "classement build" in done.stderr


def test_the_default_warehouse_does_not_depend_on_the_folder(
    warehouse: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pipelines.reports.data
    from pipelines.reports.data import notebook_warehouse

    monkeypatch.delenv("CLASSEMENT_WAREHOUSE", raising=False)
    monkeypatch.setattr(pipelines.reports.data, "DEFAULT_WAREHOUSE", warehouse)
    monkeypatch.chdir(tmp_path)
    assert notebook_warehouse() == warehouse.resolve()


def test_display_frames_are_french() -> None:
    import datetime as dt

    from pipelines.reports.data import display_frame

    frame = pl.DataFrame(
        {
            "n": [1234, None],
            "x": [0.256, -3.0],
            "d": [dt.date(2024, 3, 10), None],
            "b": [True, False],
        }
    )
    shown = display_frame(
        frame, {"n": "Joueurs", "x": "Écart", "d": "Date", "b": "Actif"}, {"x": 2}
    )
    assert shown.columns == ["Joueurs", "Écart", "Date", "Actif"]
    assert shown.text().row(0) == ("1\u202f234", "0,26", "10/03/2024", "oui")
    assert shown.text().row(1) == (None, "−3,00", None, "non")
    # the columns keep their types (issue 27, item 3): numbers stay numbers
    assert shown.frame.schema == {
        "Joueurs": pl.Int64,
        "Écart": pl.Float64,
        "Date": pl.Date,
        "Actif": pl.Boolean,
    }
    markup = shown._mime_()[1]
    assert '<th data-type="nombre" class="num">Joueurs</th>' in markup
    assert '<th data-type="date">Date</th>' in markup
    assert '<td class="num" data-value="1234">1\u202f234</td>' in markup
    assert '<td class="num" data-value="-3.0">−3,00</td>' in markup


def test_notebooks_show_charts_and_spelled_out_federations(
    warehouse: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    defs = _run("cote_vs_elo", warehouse, monkeypatch)
    scatter = defs["scatter"]
    assert isinstance(scatter, go.Figure) and scatter.data[0].type == "scatter"
    assert len(scatter.data[0].x) == defs["agreement"]["changes"][0]  # type: ignore[index]
    assert defs["figure"].layout.legend.orientation == "h"  # type: ignore[attr-defined]
    defs = _run("series_movements", warehouse, monkeypatch)
    federations = set(defs["moves"]["federation"].drop_nulls().to_list())  # type: ignore[index]
    assert federations and "*" not in federations
    assert any(f.endswith("(FRA)") for f in federations), federations
    defs = _run("explore_warehouse", warehouse, monkeypatch)
    assert isinstance(defs["per_discipline"], go.Figure)
    sizes = defs["sizes"]
    assert isinstance(sizes, go.Figure) and len(sizes.data) >= 1


def test_the_html_export_works_as_a_file_without_the_internet(
    warehouse: Path, tmp_path: Path
) -> None:
    """Issue 27, item 3: the exported page opened as a file (file://) in Chromium, every
    request outside the file refused, shows its charts and its tables, whose number
    columns are typed as numbers."""
    from playwright import sync_api

    from pipelines.reports.pdf import CHARTS_DRAWN, CHROMIUM_ARGS, chromium_path

    out = tmp_path / "html"
    done = subprocess.run(
        [sys.executable, "-m", "classement", "notebook-html", "series_movements", "--out", out],
        env={**os.environ, "CLASSEMENT_WAREHOUSE": str(warehouse)},
        capture_output=True,
        text=True,
        timeout=300,
        cwd=PROJECT_ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(p.name for p in out.iterdir()) == ["series_movements.html"]
    path = out / "series_movements.html"
    html = path.read_text(encoding="utf-8")
    assert "<marimo-" not in html and 'type="module"' not in html
    assert re.search(r"<script[^>]*\bsrc=", html) is None
    requests: list[str] = []
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=chromium_path(), args=list(CHROMIUM_ARGS))
        page = chromium.new_page(viewport={"width": 1200, "height": 900})

        def outside(route: sync_api.Route) -> None:
            requests.append(route.request.url)
            route.abort()

        page.route(re.compile(r"^(?!file:|data:)"), outside)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(path.resolve().as_uri(), wait_until="load")
        page.wait_for_function(CHARTS_DRAWN, timeout=30_000)
        page.screenshot(path=str(tmp_path / "notebook.png"), full_page=True)
        text = page.inner_text("body")
        drawn = page.evaluate(
            "() => Array.from(document.querySelectorAll('.plot')).map("
            "d => d.querySelectorAll('.barlayer .trace path').length)"
        )
        kinds = page.eval_on_selector_all(
            "table.notebook-table:first-of-type thead th",
            "els => els.map(e => [e.textContent, e.dataset.type])",
        )
        chromium.close()
    assert requests == [] and errors == [], (requests, errors)
    assert "Mouvements des séries duplicate" in text
    assert re.search(r"Saison classée : \d{4}-\d{4}", " ".join(text.split())), text[:500]
    assert drawn and all(n >= 1 for n in drawn), drawn
    assert ["Joueurs", "nombre"] in kinds and ["Mouvement", "texte"] in kinds, kinds
