"""Test helpers in one place: hand-made exports and frames, ingest, hashes and snapshots.

Nothing here imports Dagster (it is heavy, and the rule tests must not load it): the
helpers that need it (materialising assets, whole builds) are in `tests/builds.py`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from pipelines.ingest.batch import IngestResult, ingest_files
from pipelines.ingest.raw import read_raw, refused_paths
from pipelines.paths import PROJECT_ROOT, REFERENCE_DIR
from pipelines.reference.bundle import load_parameters
from pipelines.reference.seasons import load_calendar
from pipelines.warehouse import Warehouse
from transforms.tables import table

SAMPLE = PROJECT_ROOT / "data" / "sample"
# The generated federation several test files read (`generated` in conftest: made once a
# run): `simulator.GenerateConfig(**GENERATED)`
GENERATED: dict[str, int] = {"seed": 7, "seasons": 2, "players": 300, "first_season": 2021}
FIXTURES = PROJECT_ROOT / "tests" / "fixtures"

CALENDAR = load_calendar(REFERENCE_DIR)
PARAMETERS = load_parameters(REFERENCE_DIR)  # the project's rule parameters, one bundle


# ---------------------------------------------------------------------------- frames


def declared(**frames: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """Hand-made frames completed to their declared tables (missing columns as nulls)."""
    return {name: table(name).complete(frame) for name, frame in frames.items()}


def rows_frame(
    rows: Sequence[Sequence[Any]], schema: Mapping[str, Any] | Sequence[str], *, of: str = ""
) -> pl.DataFrame:
    """A frame from row tuples. `schema` maps column names to types, or only names them
    when `of` names the declared table the types are taken from (ISO date strings are
    read as dates in a date column)."""
    if of:
        declared_schema = table(of).schema
        schema = {name: declared_schema[name] for name in schema}
    assert isinstance(schema, Mapping)
    dates = [i for i, t in enumerate(schema.values()) if t == pl.Date]
    if dates:
        rows = [
            tuple(dt.date.fromisoformat(v) if i in dates and isinstance(v, str) else v
                  for i, v in enumerate(row))
            for row in rows
        ]  # fmt: skip
    return pl.DataFrame([tuple(r) for r in rows], schema=dict(schema), orient="row")


GAMES_SCHEMA = {
    "tournament_id": pl.String,
    "round": pl.Int64,
    "player_id": pl.String,
    "opponent_id": pl.String,
    "player_score": pl.Int64,
    "opponent_score": pl.Int64,
}


def games_frame(rows: Sequence[tuple]) -> pl.DataFrame:
    """Games as (tournament, round, player, opponent, player_score, opponent_score)."""
    return rows_frame(rows, GAMES_SCHEMA)


# ---------------------------------------------------------------------------- exports

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

RATING_LIST = (
    "player_id,as_of,cote,elo,elo_games,series\n100,2023-08-31,1800,1650,40,3\n"
    "101,2023-08-31,1500,1500,0,5\n"
)


def write_raw(folder: Path) -> Path:
    """A valid raw folder: one classique tournament with games, one duplicate, one list
    (what the `raw` fixture gives)."""
    (folder / "2023-2024").mkdir(parents=True)
    (folder / "2023-2024" / "C1.csv").write_text(results_csv("C1", PLAYERS), encoding="utf-8")
    (folder / "2023-2024" / "C1_games.csv").write_text(games_csv("C1", C1_GAMES), encoding="utf-8")
    duplicate = (
        "Id tournoi;Tournoi;Discipline;Date de fin;Licence;Nom;Prénom;Rang;Série;Score;Top;"
        "Parties\n"
        "D1;Festival de Cannes;duplicate;2024-02-11;100;Dupont;Jean;2;3;912;1000;3\n"
        "D1;Festival de Cannes;duplicate;2024-02-11;104;Gérard;Zoé;1;2;950;1000;3\n"
    )
    (folder / "2023-2024" / "D1.csv").write_bytes(duplicate.encode("cp1252"))
    (folder / "liste_2023-08-31.csv").write_text(RATING_LIST, encoding="utf-8")
    return folder


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
    (folder / "liste_2023-08-31.csv").write_text(RATING_LIST, encoding="utf-8")
    return folder


# ---------------------------------------------------------------------------- ingest


def ingested(source: Path | Mapping[str, str | bytes], *, refused: bool = False) -> IngestResult:
    """Exports read and checked as a build does, without a warehouse: a raw folder (with
    `refused`, its files the build refuses to read too) or a mapping name → content."""
    if isinstance(source, Path):
        return ingest_files(
            read_raw(source), params=PARAMETERS, refused=refused_paths(source) if refused else None
        )
    data = {k: v.encode("utf-8") if isinstance(v, str) else v for k, v in source.items()}
    return ingest_files(data, params=PARAMETERS)


# ---------------------------------------------------------------------------- outputs


def tree_hashes(folder: Path) -> dict[str, str]:
    """Every file below `folder` (relative path) → its SHA-256."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


# The home page's warnings of a raw folder that shrank since the last build
# (`pipelines.shrink`): they tell the build's history, which a fresh build has not.
_SHRINK = re.compile(rb'<p class="shrink">.*?</p>')


def all_tables(path: Path) -> dict[str, pl.DataFrame]:
    """Every table of the warehouse at `path` (`Warehouse.table` of each), read through
    one read-only connection rather than one a table."""
    warehouse = Warehouse(path)
    names = warehouse.tables()
    with warehouse.connect(read_only=True) as con:
        return {name: con.sql(f'SELECT * FROM "{name}"').pl() for name in names}


def snapshot(root: Path) -> tuple[dict[str, list[tuple]], dict[str, bytes]]:
    """What a build left in `root` (`w.duckdb`, `reports/`): every table's rows (sorted)
    and every report file's bytes (the home page's shrink warnings left out). The tables
    are read through one read-only connection (`Warehouse.table` opens the file for each:
    45 tables, 1,3 of the 1,4 CPU-s of a snapshot)."""
    frames = all_tables(root / "w.duckdb")
    tables = {n: sorted(frame.rows(), key=repr) for n, frame in frames.items()}
    reports = root / "reports"
    pages = {
        p.relative_to(reports).as_posix(): p.read_bytes()
        for p in sorted(reports.rglob("*"))
        if p.is_file()
    }
    if "index.html" in pages:
        pages["index.html"] = _SHRINK.sub(b"", pages["index.html"])
    return tables, pages
