"""Shared fixtures: small raw folders written by hand, and temporary warehouses."""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl
import pytest

from pipelines.build import run_build
from pipelines.paths import PROJECT_ROOT, REFERENCE_DIR
from pipelines.reference.bundle import load_parameters
from pipelines.reference.seasons import load_calendar
from pipelines.resources import WarehouseResource
from transforms.tables import table

CALENDAR = load_calendar(REFERENCE_DIR)
PARAMETERS = load_parameters(REFERENCE_DIR)  # the project's rule parameters, one bundle


@pytest.fixture(autouse=True, scope="session")
def _reproducible_dates() -> None:
    """Reports state when they were generated: the tests fix that moment
    (`SOURCE_DATE_EPOCH`, 2025-01-15 12:00 UTC), so the same inputs give the same bytes."""
    os.environ["SOURCE_DATE_EPOCH"] = "1736942400"


def declared(**frames: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """Hand-made frames completed to their declared tables (missing columns as nulls)."""
    return {name: table(name).complete(frame) for name, frame in frames.items()}


RESULTS_HEADER = (
    "tournament_id,tournament_name,discipline,end_date,player_id,last_name,first_name,rank,"
    "category,games"
)


def results_csv(
    tournament: str,
    rows: list[tuple[str, str, str, int]],
    *,
    date: str = "2024-01-14",
    discipline: str = "classique",
    name: str = "Open de Vichy",
    category: str = "open",
    games: int = 3,
) -> str:
    """A canonical results CSV: rows are (player_id, last_name, first_name, rank)."""
    lines = [RESULTS_HEADER]
    for player, last, first, rank in rows:
        lines.append(
            f"{tournament},{name},{discipline},{date},{player},{last},{first},{rank},{category},{games}"
        )
    return "\n".join(lines) + "\n"


GAMES_HEADER = "tournament_id,round,player_id,opponent_id,player_score,opponent_score"


def games_csv(tournament: str, rows: list[tuple[int, str, str, int | str, int | str]]) -> str:
    lines = [GAMES_HEADER]
    for rnd, player, opponent, ps, os_ in rows:
        lines.append(f"{tournament},{rnd},{player},{opponent},{ps},{os_}")
    return "\n".join(lines) + "\n"


PLAYERS = [
    ("100", "Dupont", "Jean", 1),
    ("101", "Martin", "Hélène", 2),
    ("102", "Durand", "Luc", 3),
    ("103", "Lefèvre", "Anne", 4),
]


# The games of tournament C1 between the four PLAYERS: (round, player, opponent, scores).
C1_GAMES: list[tuple[int, str, str, int | str, int | str]] = [
    (1, "100", "101", 420, 380),
    (1, "102", "103", 400, 399),
    (2, "100", "102", 450, 300),
    (2, "101", "103", 390, 410),
]


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    """A valid raw folder: one classique tournament with games, one duplicate, one list."""
    folder = tmp_path / "raw"
    (folder / "2023-2024").mkdir(parents=True)
    (folder / "2023-2024" / "C1.csv").write_text(results_csv("C1", PLAYERS), encoding="utf-8")
    (folder / "2023-2024" / "C1_games.csv").write_text(
        games_csv("C1", C1_GAMES),
        encoding="utf-8",
    )
    duplicate = (
        "Id tournoi;Tournoi;Discipline;Date de fin;Licence;Nom;Prénom;Rang;Série;Score;Top;"
        "Parties\n"
        "D1;Festival de Cannes;duplicate;2024-02-11;100;Dupont;Jean;2;3;912;1000;3\n"
        "D1;Festival de Cannes;duplicate;2024-02-11;104;Gérard;Zoé;1;2;950;1000;3\n"
    )
    (folder / "2023-2024" / "D1.csv").write_bytes(duplicate.encode("cp1252"))
    (folder / "liste_2023-08-31.csv").write_text(
        "player_id,as_of,cote,elo,elo_games,series\n100,2023-08-31,1800,1650,40,3\n"
        "101,2023-08-31,1500,1500,0,5\n",
        encoding="utf-8",
    )
    return folder


@pytest.fixture
def resource(tmp_path: Path, raw: Path) -> WarehouseResource:
    return WarehouseResource(
        raw_dir=str(raw),
        warehouse_path=str(tmp_path / "out" / "warehouse.duckdb"),
        reports_dir=str(tmp_path / "out" / "reports"),
    )


# ---------------------------------------------------------------------------- builds
# Whole builds are the slow part of the suite: each is made once per test session and shared.

SAMPLE = PROJECT_ROOT / "data" / "sample"
SEASON = "2023-2024"
EVIL = "<script>alert(1)</script>"
EVIL_FIRST = "</script><img src=x onerror=alert(2)>"
EVIL_EVENT = 'Open <b>&amp; "Vichy"</b></script>'


def write_evil_raw(folder: Path) -> Path:
    """A tiny raw folder whose player and tournament names try to inject markup."""
    season = folder / SEASON
    season.mkdir(parents=True)
    players = [
        ("100", EVIL, EVIL_FIRST, 1),
        ("101", "Martin", "Hélène", 2),
        ("102", "Durand", "Luc", 3),
        ("103", "Lefèvre", "Anne", 4),
    ]
    (season / "C1.csv").write_text(results_csv("C1", players, name=EVIL_EVENT), encoding="utf-8")
    (season / "C1_games.csv").write_text(games_csv("C1", C1_GAMES), encoding="utf-8")
    (season / "C2.csv").write_text(
        results_csv("C2", players[::-1], date="2024-03-10", name="Coupe de Lyon"),
        encoding="utf-8",
    )
    duplicate = (
        "tournament_id,tournament_name,discipline,end_date,player_id,last_name,first_name,"
        "rank,series,score,top_total,games\n"
        f"D1,{EVIL_EVENT},duplicate,2024-02-11,100,{EVIL},{EVIL_FIRST},2,3,912,1000,3\n"
        f"D1,{EVIL_EVENT},duplicate,2024-02-11,104,Gérard,Zoé,1,2,950,1000,3\n"
        f"D1,{EVIL_EVENT},duplicate,2024-02-11,101,Martin,Hélène,3,5,700,1000,3\n"
    )
    (season / "D1.csv").write_text(duplicate, encoding="utf-8")
    (folder / "liste_2023-08-31.csv").write_text(
        "player_id,as_of,cote,elo,elo_games,series\n100,2023-08-31,1800,1650,40,3\n"
        "101,2023-08-31,1500,1500,0,5\n",
        encoding="utf-8",
    )
    return folder


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of a build of the bundled sample (`w.duckdb`, `reports/` with the PDFs),
    built once per session and shared by the report, browser, PDF and notebook tests."""
    if not any(SAMPLE.glob("*/*.csv")):
        pytest.fail("data/sample/ holds no export")
    root = tmp_path_factory.mktemp("sample-site")
    run_build(SAMPLE, root / "w.duckdb", root / "reports", emit=lambda _: None)
    return root


@pytest.fixture(scope="session")
def evil_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of a build of `write_evil_raw` (no PDF), built once per session."""
    root = tmp_path_factory.mktemp("evil")
    raw = write_evil_raw(root / "raw")
    summary = run_build(raw, root / "w.duckdb", root / "reports", emit=lambda _: None, pdf=False)
    assert summary.rejected == [], summary.rejected
    assert summary.seasons_built == [SEASON]
    return root
