"""A backtest from start to end: the games read (a raw folder through the build's own
ingest, or a warehouse opened read-only), every system's predictions, the scores, and the
outputs in their own folder (default `data/backtest/`, git-ignored): `backtest.duckdb`
(tables `rating_backtest`, `rating_backtest_calibration`), `index.html` (the French
report, self-contained) and `backtest.pdf`. Neither the raw folder nor the warehouse is
ever written."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from pipelines.backtest.params import load_backtest_params
from pipelines.backtest.report import render_report
from pipelines.ingest.batch import ingest_files
from pipelines.ingest.raw import read_raw, refused_paths
from pipelines.paths import PROJECT_ROOT
from pipelines.reference.bundle import Parameters
from pipelines.reports.html import write_atomic
from pipelines.reports.page import Rejected
from pipelines.reports.pdf import print_pdfs
from pipelines.warehouse import Warehouse
from transforms import backtest
from transforms.backtest import BacktestError, BacktestParams, Predictions, Scores, Verdict
from transforms.cote import CoteError
from transforms.elo import EloError

DEFAULT_BACKTEST_DIR = PROJECT_ROOT / "data" / "backtest"
DATABASE = "backtest.duckdb"
INDEX = "index.html"
PDF = "backtest.pdf"
INPUT_TABLES = ("tournaments", "results", "games", "rating_lists")
# The report covers every season at once: its notice lists refused files without the
# « [saison inconnue] » a season report puts before a file of no known season.
NO_SEASON = ""


@dataclass(frozen=True)
class Inputs:
    """The games' tables and the exports refused while reading them."""

    tables: dict[str, pl.DataFrame]
    rejected: list[Rejected]
    source: str  # what was read, as the report names it


def from_raw(raw_dir: Path, parameters: Parameters) -> Inputs:
    """Every export of a raw folder read and checked as a build does: a broken export is
    refused by name and the rest is read."""
    if not raw_dir.is_dir():
        raise BacktestError(f"dossier introuvable : {raw_dir}")
    result = ingest_files(read_raw(raw_dir), params=parameters, refused=refused_paths(raw_dir))
    rejected = [
        Rejected(path, message, NO_SEASON) for path, message in sorted(result.rejected.items())
    ]
    return Inputs(
        {name: result.tables[name] for name in INPUT_TABLES},
        rejected,
        f"exports du dossier {raw_dir}",
    )


def from_warehouse(path: Path) -> Inputs:
    """The base tables of a built warehouse (opened read-only), with the exports its build
    refused (`ingest_log`)."""
    if not path.exists():
        raise BacktestError(f"entrepôt introuvable : {path}")
    warehouse = Warehouse(path)
    with warehouse.reading():
        tables = {n: warehouse.read_if(n, f'SELECT * FROM "{n}"') for n in INPUT_TABLES}
        log = warehouse.read_if("ingest_log", "SELECT * FROM ingest_log WHERE status = 'rejected'")
    rejected = [
        Rejected(p, m or p, NO_SEASON)
        for p, m in log.select("path", "message").sort("path").iter_rows()
    ]
    return Inputs(tables, rejected, f"entrepôt {path}")


@dataclass
class Outputs:
    """What a backtest wrote, its numbers and how long each step took (seconds)."""

    folder: Path
    database: Path
    html: Path
    pdf: Path | None
    predictions: Predictions
    scores: Scores
    calibration: pl.DataFrame
    verdict: Verdict | None
    rejected: list[Rejected]
    pdf_error: str | None = None
    timings: dict[str, float] = field(default_factory=dict)  # predictions, scores, report, pdf


def run_backtest(
    inputs: Inputs,
    parameters: Parameters,
    *,
    out_dir: Path | None = None,
    systems: Sequence[str] | None = None,
    from_season: str | None = None,
    min_games: int | None = None,
    pdf: bool = True,
    progress: Callable[[str], None] | None = None,
) -> Outputs:
    """Predict, score and write everything; `BacktestError` (French) when there is nothing
    to score or a system is unknown."""
    say = progress or (lambda _message: None)
    timings: dict[str, float] = {}
    clock = time.perf_counter()
    params = load_backtest_params(parameters.folder)
    if min_games is not None:
        params = _with_min_games(params, min_games)
    known = backtest.system_names(list(parameters.elo_presets))
    chosen = list(systems) if systems else known
    unknown = [s for s in chosen if s not in known]
    if unknown:
        raise BacktestError(
            f"système inconnu : {', '.join(unknown)} (systèmes connus : {', '.join(known)})"
        )
    tables = inputs.tables
    say("Prédictions de chaque système…")
    try:
        predictions = backtest.predict(
            tables["tournaments"],
            tables["results"],
            tables["games"],
            tables["rating_lists"],
            cote=parameters.cote,
            elo_presets=parameters.elo_presets,
            params=params,
            systems=chosen,
        )
    except (CoteError, EloError) as err:  # a build refuses the same tables
        raise BacktestError(f"les classements ne peuvent pas être calculés : {err}") from err
    if predictions.games.height == 0:
        raise BacktestError(
            "aucune partie à évaluer : " + inputs.source + " ne contient aucune partie de "
            "classique (un tournoi sans parties détaillées ne peut pas être prédit)"
        )
    timings["predictions"] = time.perf_counter() - clock
    clock = time.perf_counter()
    say("Scores et intervalles (bootstrap)…")
    scores = backtest.score(predictions, params, from_season=from_season)
    calibration = backtest.calibration(predictions, params, from_season=from_season)
    verdict = backtest.verdict(scores, params)
    timings["scores"] = time.perf_counter() - clock
    clock = time.perf_counter()
    folder = out_dir or DEFAULT_BACKTEST_DIR
    folder.mkdir(parents=True, exist_ok=True)
    database = folder / DATABASE
    Warehouse(database).replace_tables(
        {"rating_backtest": scores.table, "rating_backtest_calibration": calibration}
    )
    html = folder / INDEX
    write_atomic(
        html,
        render_report(
            scores.table,
            calibration,
            verdict,
            predictions.cote_scales,
            rejected=inputs.rejected,
            as_of=tables["tournaments"]["end_date"].max(),
            source=inputs.source,
            params=params,
            from_season=from_season,
            pdf_name=PDF if pdf else None,
        ),
    )
    timings["report"] = time.perf_counter() - clock
    outputs = Outputs(
        folder, database, html, None, predictions, scores, calibration, verdict, inputs.rejected
    )
    if pdf:
        clock = time.perf_counter()
        say("Impression du PDF…")
        try:
            print_pdfs([(html, folder / PDF)], root=folder)
            outputs.pdf = folder / PDF
        except Exception as err:  # the tables and the page are written all the same
            outputs.pdf_error = str(err) or type(err).__name__
        timings["pdf"] = time.perf_counter() - clock
    outputs.timings = timings
    return outputs


def _with_min_games(params: BacktestParams, min_games: int) -> BacktestParams:
    from dataclasses import replace

    return replace(params, min_games=min_games)
