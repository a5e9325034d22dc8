"""Reads of one season's inputs that several season-partitioned domains share.

Only reading here: every rule is a transform (`transforms.series_population`)."""

from __future__ import annotations

import polars as pl

from pipelines.warehouse import Warehouse
from transforms.calendar import previous_season
from transforms.series_population import event_series


def season_rows(wh: Warehouse, name: str, season: str) -> pl.DataFrame:
    """A season-partitioned table's rows of `season` (none before its first build)."""
    if name not in wh.tables():
        return wh.empty(name)
    return wh.read(f'SELECT * FROM "{name}" WHERE season = ?', [season])


def season_tournaments(wh: Warehouse, season: str, discipline: str | None = None) -> pl.DataFrame:
    """The season's tournaments (of one discipline when given)."""
    if discipline is None:
        return wh.read("SELECT * FROM tournaments WHERE season = ?", [season])
    return wh.read(
        "SELECT * FROM tournaments WHERE season = ? AND discipline = ?", [season, discipline]
    )


def season_results(wh: Warehouse, season: str, discipline: str | None = None) -> pl.DataFrame:
    """The season's results rows (of one discipline when given), with each tournament's
    dates: `results` columns plus `end_date` and `start` (the start date, else the end)."""
    where = "t.season = ?" + ("" if discipline is None else " AND t.discipline = ?")
    params: list[object] = [season] if discipline is None else [season, discipline]
    return wh.read(
        "SELECT r.*, t.end_date, coalesce(t.start_date, t.end_date) AS start "
        f"FROM results r JOIN tournaments t USING (tournament_id) WHERE {where}",
        params,
    )


def held_series(wh: Warehouse, season: str, results: pl.DataFrame) -> pl.DataFrame:
    """The series each player holds in each event of `results` (rows of `season_results`):
    docs/rules.md §3's order — the row, last season's classification, the rating lists, 7."""
    entries = results.select(
        "tournament_id", "player_id", "series", pl.lit(season).alias("season"), "start"
    )
    return event_series(
        entries,
        season_rows(wh, "series_classification", previous_season(season)),
        wh.table("rating_lists"),
    )
