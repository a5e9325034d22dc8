"""One season of the benchmark: its inputs read from a warehouse (`read_season_inputs`),
the ratings' and series' families of the season plan run on them (`fast_season`: the
function the assets and the what-if compute a season with, `pipelines.plan.season`), and
the comparison of two sets of outputs (`same_numbers`).

`read_season_inputs` does all the I/O first, so that timing `fast_season` or
`benchmarks.naive.run_season` measures the rules alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl

from pipelines.plan.season import RATING_INPUTS, RATINGS_AND_SERIES, SeasonInputs, compute_season
from pipelines.reference.bundle import Parameters, load_parameters
from pipelines.warehouse import Warehouse

__all__ = ["SeasonInputs", "fast_season", "read_season_inputs", "same_numbers"]

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


def read_season_inputs(
    warehouse: Warehouse, season: str, parameters: Parameters | Path | None = None
) -> SeasonInputs:
    """One season's inputs of the ratings and the series, read now from a built warehouse
    (the earlier seasons' histories, classification and standings included), with the
    parameters given (a bundle, or a reference folder: `load_parameters`)."""
    params = parameters if isinstance(parameters, Parameters) else load_parameters(parameters)
    return SeasonInputs(warehouse, season, params).load(RATING_INPUTS)


def fast_season(inputs: SeasonInputs) -> dict[str, pl.DataFrame]:
    """The season's cote, Elo and duplicate series tables, by the season plan."""
    return compute_season(inputs, RATINGS_AND_SERIES)


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
