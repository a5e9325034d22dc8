"""Reads of a calendar year's inputs for the regional circuits (docs/rules.md §5).

Only reading here: every rule is a transform (`transforms.circuits`,
`transforms.round_robin`). Circuit names are returned as written; the assets turn them
into codes through `data/reference/circuits.csv`."""

from __future__ import annotations

import polars as pl

from pipelines.warehouse import Warehouse


def rows(
    wh: Warehouse, name: str, where: str = "", params: list[object] | None = None
) -> pl.DataFrame:
    """A table's rows (`where`: an SQL condition with `?` parameters); its declared empty
    frame when the warehouse does not hold it yet."""
    if name not in wh.tables():
        return wh.empty(name)
    return wh.read(f'SELECT * FROM "{name}"' + (f" WHERE {where}" if where else ""), params)


def tournaments_until(wh: Warehouse, year: int) -> pl.DataFrame:
    """The tournaments ending in `year` or before, in event order."""
    return wh.read(
        "SELECT * FROM tournaments WHERE year(end_date) <= ? "
        "ORDER BY end_date, coalesce(start_date, end_date), tournament_id",
        [year],
    )


def results_until(
    wh: Warehouse, year: int, *, since: int | None = None, circuits_only: bool = False
) -> pl.DataFrame:
    """The results of the tournaments ending in `year` or before (and in `since` or
    after), with each tournament's `end_date, start_date, circuit, category`.
    `circuits_only`: only the tournaments of a circuit or named by a circuit calendar (the
    rest of the federation's results is no circuit's business, and reading every result
    of every earlier year for each year would cost the square of the years)."""
    where = ["year(t.end_date) <= ?"]
    params: list[object] = [year]
    if since is not None:
        where.append("year(t.end_date) >= ?")
        params.append(since)
    if circuits_only:
        named = (
            " OR r.tournament_id IN (SELECT trim(tournament_id) FROM circuit_calendar "
            "WHERE tournament_id IS NOT NULL)"
            if "circuit_calendar" in wh.tables()
            else ""
        )
        where.append(f"(t.circuit IS NOT NULL{named})")
    return wh.read(
        "SELECT r.*, t.end_date, coalesce(t.start_date, t.end_date) AS start_date, t.circuit, "
        "t.category FROM results r JOIN tournaments t USING (tournament_id) "
        f"WHERE {' AND '.join(where)}",
        params,
    )


def circuit_games_until(wh: Warehouse, year: int) -> pl.DataFrame:
    """The games of the tournaments of a circuit ending in `year` or before."""
    return wh.read(
        "SELECT g.* FROM games g JOIN tournaments t USING (tournament_id) "
        "WHERE year(t.end_date) <= ? AND t.circuit IS NOT NULL",
        [year],
    )


def matches_of_year(wh: Warehouse, year: int) -> pl.DataFrame:
    """The matches of the tournaments ending in `year`."""
    if "matches" not in wh.tables():
        return wh.empty("matches")
    return wh.read(
        "SELECT m.* FROM matches m JOIN tournaments t USING (tournament_id) "
        "WHERE year(t.end_date) = ?",
        [year],
    )
