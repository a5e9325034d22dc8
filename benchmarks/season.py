"""One season of the benchmark: its inputs read from a warehouse (`read_season_inputs`),
the fast transforms run on them exactly as the Dagster assets run them (`fast_season`),
and the comparison of two sets of outputs (`same_numbers`).

`read_season_inputs` does all the I/O, with the readers the assets use
(`pipelines.season_inputs`, `Warehouse.read/table`), so that timing `fast_season` or
`benchmarks.naive.run_season` measures the rules alone.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
from pipelines.season_inputs import season_results, season_rows, season_tournaments

from pipelines.defs.classique.assets import _history_before
from pipelines.reference.classique import load_cote_params, load_elo_params
from pipelines.reference.federations import load_federations
from pipelines.reference.seasons import load_calendar
from pipelines.reference.series import load_series_params, load_series_quotas
from pipelines.warehouse import Warehouse
from transforms import cote, elo
from transforms.calendar import previous_season
from transforms.cote import CoteParams
from transforms.elo import EloParams
from transforms.federations import AliasTable
from transforms.series import (
    SeriesParams,
    SeriesQuotas,
    classify_season,
    duplicate_event_scores,
    season_standings,
)
from transforms.series_population import (
    event_series,
    new_licensees,
    player_federations,
    season_series,
    series_held,
)
from transforms.series_provisional import provisional_changes

# The tables one season computes, and the key each is compared by (`same_numbers`).
TABLE_KEYS: dict[str, tuple[str, ...]] = {
    "cote_history": ("tournament_id", "player_id"),
    "elo_history": ("tournament_id", "player_id"),
    "duplicate_event_scores": ("tournament_id", "player_id"),
    "series_standings": ("season", "player_id"),
    "series_classification": ("player_id",),
    "series_bars": ("series", "federation", "subseries"),
    "series_movements": ("player_id",),
    "series_provisional": ("after_tournament_id", "player_id"),
}
# Tables sorted by a float (best value first): rows whose sort columns are equal within the
# tolerance may come in either order, since the last bits of a weighted mean depend on the
# order of its sum (the fast code sums by group, the naive one row by row).
FLOAT_ORDER: dict[str, tuple[str, ...]] = {
    "series_classification": ("series", "subseries", "value"),
    "series_provisional": ("after_tournament_id", "series", "value"),
}
RELATIVE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class SeasonInputs:
    """Everything the cote, Elo and duplicate series assets of one season read."""

    season: str
    season_start: dt.date
    season_end: dt.date
    cote_params: CoteParams
    elo_params: EloParams
    series_params: SeriesParams
    quotas: SeriesQuotas
    federations: AliasTable
    tournaments: pl.DataFrame  # the season's tournaments, every discipline
    results: pl.DataFrame  # the season's results (`season_results`), every discipline
    games: pl.DataFrame  # the season's games
    duplicate_events: pl.DataFrame  # the season's duplicate tournaments
    duplicate_results: pl.DataFrame  # the season's duplicate results
    rating_lists: pl.DataFrame  # every rating list
    all_results: pl.DataFrame  # every results row (birth years for the Elo K)
    players: pl.DataFrame
    previous_classification: pl.DataFrame  # series_classification of the previous season
    previous_standings: pl.DataFrame  # series_standings of the previous season
    prior_cote_history: pl.DataFrame  # cote_history of the earlier seasons, event order
    prior_elo_history: pl.DataFrame  # elo_history of the earlier seasons, event order


def read_season_inputs(warehouse: Warehouse, season: str, reference_dir: Path) -> SeasonInputs:
    """Read one season's inputs from a built warehouse (the earlier seasons' histories,
    classification and standings included) and the parameters from `reference_dir`."""
    start, end = load_calendar(reference_dir).bounds(season)
    previous = previous_season(season)
    return SeasonInputs(
        season=season,
        season_start=start,
        season_end=end,
        cote_params=load_cote_params(reference_dir),
        elo_params=load_elo_params(reference_dir),
        series_params=load_series_params(reference_dir),
        quotas=load_series_quotas(reference_dir),
        federations=load_federations(reference_dir),
        tournaments=season_tournaments(warehouse, season),
        results=season_results(warehouse, season),
        games=warehouse.read(
            "SELECT g.* FROM games g JOIN tournaments t USING (tournament_id) WHERE t.season = ?",
            [season],
        ),
        duplicate_events=season_tournaments(warehouse, season, "duplicate"),
        duplicate_results=season_results(warehouse, season, "duplicate"),
        rating_lists=warehouse.table("rating_lists"),
        all_results=warehouse.table("results"),
        players=warehouse.table("players"),
        previous_classification=season_rows(warehouse, "series_classification", previous),
        previous_standings=season_rows(warehouse, "series_standings", previous),
        prior_cote_history=_history_before(warehouse, "cote_history", season, inclusive=False),
        prior_elo_history=_history_before(warehouse, "elo_history", season, inclusive=False),
    )


def entries(inputs: SeasonInputs, results: pl.DataFrame) -> pl.DataFrame:
    """The rows `pipelines.season_inputs.held_series` hands to `event_series`."""
    return results.select(
        "tournament_id", "player_id", "series", pl.lit(inputs.season).alias("season"), "start"
    )


def fast_season(inputs: SeasonInputs) -> dict[str, pl.DataFrame]:
    """The season's tables computed by the fast transforms, as the assets compute them
    (pipelines/defs/classique/assets.py, pipelines/defs/series/assets.py)."""
    i = inputs
    held_all = event_series(entries(i, i.results), i.previous_classification, i.rating_lists)
    cote_history = cote.cote_history(
        i.tournaments,
        i.results,
        i.rating_lists,
        i.cote_params,
        series=held_all,
        prior=cote.last_cotes(i.prior_cote_history),
    )
    elo_history = elo.elo_history(
        i.tournaments,
        i.games,
        i.rating_lists,
        i.all_results,
        i.elo_params,
        prior=elo.last_elo(i.prior_elo_history, i.elo_params),
    )
    held = event_series(entries(i, i.duplicate_results), i.previous_classification, i.rating_lists)
    scores = duplicate_event_scores(i.duplicate_results, i.duplicate_events, held)
    standings = season_standings(
        scores,
        i.duplicate_events,
        i.series_params,
        federations=player_federations(i.players, i.duplicate_results),
        previous=i.previous_standings,
    )
    new = new_licensees(
        i.players, i.duplicate_results, i.rating_lists, i.season_start, i.season_end
    )
    held_in_season = series_held(
        scores,
        i.duplicate_events,
        season_series(i.season, i.previous_classification, i.rating_lists, i.season_end),
    )
    result = classify_season(
        standings,
        new.with_columns(pl.lit(i.season).alias("season")),
        i.quotas,
        i.series_params,
        held_in_season,
        federations=i.federations,
    )
    season = pl.lit(i.season).alias("season")
    return {
        "cote_history": cote_history,
        "elo_history": elo_history,
        "duplicate_event_scores": scores,
        "series_standings": standings,
        "series_classification": result.classification.with_columns(season),
        "series_bars": result.bars.with_columns(season),
        "series_movements": result.movements.with_columns(season),
        "series_provisional": provisional_changes(
            scores, i.duplicate_events, i.quotas, i.series_params, new
        ),
    }


# ----------------------------------------------------------------------------- comparison


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=RELATIVE_TOLERANCE, abs_tol=0.0) or a == b
    return bool(a == b) and type(a) is type(b)


def _sort_key(row: Mapping[str, Any], key: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple((row[k] is None, row[k]) for k in key)


def compare_table(
    name: str, fast: pl.DataFrame, naive: pl.DataFrame, key: tuple[str, ...]
) -> list[str]:
    """Differences between two frames of one table: schema, height, row order (the keys
    row by row; in a table sorted by a float, `FLOAT_ORDER`, two rows tied within the
    tolerance may be swapped), then every value of the rows sorted by the key (floats
    within 1e-9 relative, everything else exactly). Empty when they agree."""
    if fast.schema != naive.schema:
        return [f"{name}: schema {dict(fast.schema)} (fast) != {dict(naive.schema)} (naive)"]
    if fast.height != naive.height:
        return [f"{name}: {fast.height} rows (fast) != {naive.height} rows (naive)"]
    problems: list[str] = []
    fast_rows, naive_rows = fast.to_dicts(), naive.to_dicts()
    fast_keys = [tuple(r[k] for k in key) for r in fast_rows]
    naive_keys = [tuple(r[k] for k in key) for r in naive_rows]
    order = FLOAT_ORDER.get(name, ())
    for at, (fast_key, naive_key) in enumerate(zip(fast_keys, naive_keys, strict=True)):
        if fast_key == naive_key:
            continue
        # Another player at this place: only a tie of the sort values, within the
        # tolerance, may explain it (a float sort column, the rest equal).
        first, second = fast_rows[at], naive_rows[at]
        if not order or not all(_same_value(first[c], second[c]) for c in order):
            problems.append(
                f"{name}: row order differs from row {at}: {fast_key} (fast) != {naive_key} (naive)"
            )
            break
    fast_rows.sort(key=lambda r: _sort_key(r, key))
    naive_rows.sort(key=lambda r: _sort_key(r, key))
    for a, b in zip(fast_rows, naive_rows, strict=True):
        for column in fast.columns:
            if not _same_value(a[column], b[column]):
                problems.append(
                    f"{name} {dict((k, a[k]) for k in key)} {column}: {a[column]!r} (fast) != "
                    f"{b[column]!r} (naive)"
                )
                if len(problems) >= 20:
                    return [*problems, f"{name}: … (stopped at 20 differences)"]
    return problems


def same_numbers(fast: Mapping[str, pl.DataFrame], naive: Mapping[str, pl.DataFrame]) -> list[str]:
    """Every difference between the fast and the naive tables of a season (empty when
    they give the same numbers)."""
    problems = [f"{n}: missing from the naive tables" for n in fast if n not in naive]
    problems += [f"{n}: missing from the fast tables" for n in naive if n not in fast]
    for name in fast:
        if name in naive:
            key = TABLE_KEYS.get(name, tuple(fast[name].columns))
            problems += compare_table(name, fast[name], naive[name], key)
    return problems
