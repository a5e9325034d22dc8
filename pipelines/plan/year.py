"""The year plan: the regional circuits' tables of one calendar year (docs/rules.md §5)
computed from their inputs and the rule parameters, Dagster-free.

`compute_year(inputs, families)` runs the PACA ranking (`paca`: computed from the first
tournament up to the year's last, each tournament's seeds coming from the ranking after
the previous one, across years; the year's rows kept) and the round-robin finals
(`finals`: Masters Grand Sud, Grand Est, and the Grand Est qualifying ranking of the
year). Each year asset asks for its family. Circuit names are read as written and turned
into codes through the parameters' circuit table (`circuits.csv`). Only reading here:
every rule is a transform (`transforms.circuits`, `transforms.round_robin`).
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from pipelines.reference.bundle import Parameters
from pipelines.reference.circuits import load_circuit_codes
from pipelines.warehouse import Warehouse
from transforms.circuits import circuit_tables, with_circuit_codes
from transforms.round_robin.year import round_robin_tables

Frames = dict[str, pl.DataFrame]

# ---------------------------------------------------------------------------- reading


def rows(
    wh: Warehouse, name: str, where: str = "", params: list[object] | None = None
) -> pl.DataFrame:
    """A table's rows (`where`: an SQL condition with `?` parameters); its declared empty
    frame when the warehouse does not hold it yet."""
    return wh.read_if(
        name, f'SELECT * FROM "{name}"' + (f" WHERE {where}" if where else ""), params
    )


def tournaments_until(wh: Warehouse, year: int, *, since: int | None = None) -> pl.DataFrame:
    """The tournaments ending in `year` or before (and in `since` or after), in event
    order."""
    where, params = "year(end_date) <= ?", [year]
    if since is not None:
        where, params = where + " AND year(end_date) >= ?", [*params, since]
    return wh.read(
        f"SELECT * FROM tournaments WHERE {where} "
        "ORDER BY end_date, coalesce(start_date, end_date), tournament_id",
        list(params),
    )


def results_until(
    wh: Warehouse, year: int, *, since: int | None = None, circuits_only: bool = False
) -> pl.DataFrame:
    """The results of the tournaments ending in `year` or before (and in `since` or
    after), with each tournament's `end_date, start_date, circuit, category`.
    `circuits_only`: only the tournaments of a circuit or named by a circuit calendar (the
    rest of the federation's results is no circuit's business, and reading every result
    of every earlier year for each year would cost the square of the years)."""
    where = ["year(end_date) <= ?"]
    params: list[object] = [year]
    if since is not None:
        where.append("year(end_date) >= ?")
        params.append(since)
    if circuits_only:
        named = (
            " OR tournament_id IN (SELECT trim(tournament_id) FROM circuit_calendar "
            "WHERE tournament_id IS NOT NULL)"
            if "circuit_calendar" in wh.tables()
            else ""
        )
        where.append(f"(circuit IS NOT NULL{named})")
    # the tournaments chosen first, then their results (half the work of filtering the
    # join of every result)
    return wh.read(
        f"WITH t AS (SELECT * FROM tournaments WHERE {' AND '.join(where)}) "
        "SELECT r.*, t.end_date, coalesce(t.start_date, t.end_date) AS start_date, t.circuit, "
        "t.category FROM results r JOIN t USING (tournament_id)",
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
    return wh.read_if(
        "matches",
        "SELECT m.* FROM matches m JOIN tournaments t USING (tournament_id) "
        "WHERE year(t.end_date) = ?",
        [year],
    )


# ---------------------------------------------------------------------------- families

# The PACA tables, by the attribute of `transforms.circuits.CircuitTables` holding them.
PACA_TABLES = {
    "circuit_points": "points",
    "circuit_club_points": "club_points",
    "circuit_rankings": "rankings",
    "circuit_club_rankings": "club_rankings",
    "circuit_ranking_windows": "windows",
    "circuit_masters_invitees": "masters",
}
# What a family computes besides its tables, for its asset's checks (not written).
PACA_POINTS_UNTIL = "_paca_points_until"  # every year's points up to this one
PAIRING_ISSUES = "_pairing_issues"  # matches off the Masters pairing table
FAMILY_NAMES = ("paca", "finals")


def _paca(wh: Warehouse, year: int, params: Parameters) -> Frames:
    paca = params.paca
    names = load_circuit_codes(params.folder, paca.circuit)
    computed = circuit_tables(
        with_circuit_codes(results_until(wh, year, circuits_only=True), names),
        circuit_games_until(wh, year),
        with_circuit_codes(rows(wh, "circuit_calendar", "year <= ?", [year]), names),
        with_circuit_codes(rows(wh, "published_circuit_rankings"), names),
        paca,
    )
    out = {
        name: getattr(computed, attribute).filter(pl.col("year") == year)
        for name, attribute in PACA_TABLES.items()
    }
    out[PACA_POINTS_UNTIL] = computed.points.filter(pl.col("year") <= year)
    return out


def _finals(wh: Warehouse, year: int, params: Parameters) -> Frames:
    masters, grand_est = params.masters, params.grand_est
    names = load_circuit_codes(params.folder, masters.circuit, grand_est.circuit)
    # the two years' tournaments (a final may close last year's championship); a final or
    # a qualifier names its circuit, so the results of the others are left in the warehouse
    tournaments = with_circuit_codes(tournaments_until(wh, year, since=year - 1), names)
    results = results_until(wh, year, since=year - 1, circuits_only=True).join(
        tournaments.select("tournament_id"), on="tournament_id", how="semi"
    )
    computed = round_robin_tables(
        tournaments,
        results,
        matches_of_year(wh, year),
        with_circuit_codes(rows(wh, "published_circuit_rankings"), names),
        masters,
        grand_est,
        params.final_categories,
        year,
    )
    return {
        "round_robin_standings": computed.standings,
        "grand_est_qualifying": computed.qualifying,
        PAIRING_ISSUES: computed.pairing_issues,
    }


_FAMILIES = {"paca": _paca, "finals": _finals}


def compute_year(
    wh: Warehouse, year: int, params: Parameters, families: Iterable[str] = FAMILY_NAMES
) -> Frames:
    """The circuits' tables of calendar year `year` (and, under names starting with `_`,
    what the checks read), computed from the warehouse's base tables. A circuit's data
    that its rules cannot rank raises `transforms.circuits.CircuitError` or
    `transforms.round_robin.params.RoundRobinError`."""
    wanted = set(families)
    unknown = wanted - set(FAMILY_NAMES)
    if unknown:
        raise ValueError(f"unknown year families: {', '.join(sorted(unknown))}")
    out: Frames = {}
    for name in FAMILY_NAMES:
        if name in wanted:
            out.update(_FAMILIES[name](wh, year, params))
    return out


def written(tables: Frames) -> Frames:
    """The tables `compute_year` returned that the warehouse holds."""
    return {name: frame for name, frame in tables.items() if not name.startswith("_")}
