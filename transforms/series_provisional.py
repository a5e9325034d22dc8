"""The provisional series classification of a season, after each of its events (docs/rules.md §3).

The provisional classification after event k is the cascade of §3 over the standings of
the events 1..k (population: the players with a result so far plus the season's new
licensees, who are series 7 until their first result). It is computed in one pass over
the season's events in docs/rules.md §0 order: each player's standings after each event they
played are cumulative sums over the (player, event) table, computed once; after event k
only the players of event k change their sums. `_CascadeState` keeps everyone's current
values and, per criterion, their sorted values (updated by deleting and inserting the
event's players), so the cascade of each event finds every bar by binary search instead
of sorting. Values may differ from `season_standings` in the last bits (summation order);
ties within TIE_TOLERANCE decide the same admissions.

Storage (`series_provisional`): the full table, every player after every event, is about
events × players (10 M rows a season for 20,000 players) and took longer to write than to
compute, so the asset stores only the *changes*: the row of a player after event k when
their series or criterion value differs from their row after the previous event, or it
is their first appearance (new licensees appear after the season's first event). A row
with a null series means the player left the classification (only possible when the
quotas have no rest series). `provisional_as_of` rebuilds the full classification after
any event; `provisional_classification` returns the full table.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import polars as pl

from transforms.calendar import ordered_events
from transforms.series import (
    _CRITERION_COLUMNS,
    _CRITERION_ROW,
    _PCT,
    CASCADE_SERIES,
    PROVISIONAL,
    TIE_TOLERANCE,
    SeriesParams,
    SeriesQuotas,
    _code_criterion,
    _criteria_matrix,
    event_coefficients,
    series_boundaries,
)
from transforms.series_labels import NEW_LICENSEE_SERIES

_PROVISIONAL_COLUMNS = PROVISIONAL.column_names
# Row order within an event: series, best value first, player id.
_PROVISIONAL_ORDER = ["series", "value", "player_id"]
_PROVISIONAL_DESCENDING = [False, True, False]


def _running_standings(
    scores: pl.DataFrame, order: pl.DataFrame, events: pl.DataFrame, params: SeriesParams
) -> pl.DataFrame:
    """`player_id, _k, pct_n1..pct_n4, pc`: each player's season standings (as
    `season_standings` computes them) after each event `_k` they played, by cumulative sums
    of the weighted %N1–%N4 numerators, the weights and the PC in event order."""
    w = pl.col("coefficient")
    per_event = (
        scores.join(order, on="tournament_id", how="inner")
        .join(event_coefficients(events, params), on="tournament_id", how="left")
        .with_columns(w.fill_null(float(params.default_coefficient)))
        .group_by(["player_id", "_k"])
        .agg(
            *[(w * pl.col(c)).sum().alias(c) for c in _PCT],
            w.sum().alias("_weight"),
            pl.col("pc").fill_null(0.0).sum(),
        )
        .sort(["player_id", "_k"])
    )
    weight = pl.col("_weight").cum_sum().over("player_id")
    divisor = pl.max_horizontal(weight, pl.lit(float(params.minimum_divisor)))
    return per_event.select(
        "player_id",
        "_k",
        *[(pl.col(c).cum_sum().over("player_id") / divisor).alias(c) for c in _PCT],
        pl.col("pc").cum_sum().over("player_id"),
    )


class _CascadeState:
    """Current %N1–%N4 and PC of the players so far, for the per-event cascade: the values
    (NaN ranked as −inf) plus, per criterion, the present players' values sorted ascending
    (one row each), kept sorted by deleting and inserting the values of the players of each
    event, so each series' bar needs no sort."""

    def __init__(self, criteria: int, players: int) -> None:
        self.values = np.full((criteria, players), -math.inf)
        self.present = np.zeros(players, dtype=bool)
        self.ascending = np.empty((criteria, 0), dtype=np.float64)

    def update(self, players: np.ndarray, values: np.ndarray) -> None:
        """New current values (a (criteria, m) array) of `players` (distinct indices)."""
        values = np.where(np.isnan(values), -math.inf, values)
        known = self.present[players]
        ascending = self.ascending
        rows, width = ascending.shape
        if known.any():
            old = np.sort(self.values[:, players[known]], axis=1)
            # Equal old values of a row go to distinct positions: first one + rank in the run.
            steps = np.arange(old.shape[1])
            first = np.ones(old.shape, dtype=bool)
            first[:, 1:] = old[:, 1:] != old[:, :-1]
            starts = np.where(first, steps, 0)
            offsets = steps - np.maximum.accumulate(starts, axis=1)
            flat = [
                r * width + np.searchsorted(ascending[r], old[r], side="left") + offsets[r]
                for r in range(rows)
            ]
            width -= old.shape[1]
            ascending = np.delete(ascending.ravel(), np.concatenate(flat)).reshape(rows, width)
        added = np.sort(values, axis=1)
        flat = [
            r * width + np.searchsorted(ascending[r], added[r], side="left") for r in range(rows)
        ]
        # Row r's values go before row r + 1's at a shared flat index (np.insert is stable).
        self.ascending = np.insert(ascending.ravel(), np.concatenate(flat), added.ravel()).reshape(
            rows, width + added.shape[1]
        )
        self.values[:, players] = values
        self.present[players] = True

    def cascade(self, n: int, bounds: Mapping[int, int]) -> np.ndarray:
        """`_cascade_codes` of the first `n` players (the present ones), from the sorted
        values: the bar of series s is the `wanted`-th best value among the players not
        admitted yet, found by counting, in the top values, those not admitted yet; as in
        `_admit_codes`, only values above 0 are admitted."""
        codes = np.zeros(n, dtype=np.int8)
        admitted = np.empty(0, dtype=np.int64)
        for s in CASCADE_SERIES:
            remaining = n - admitted.size
            if remaining == 0:
                break
            if s in bounds:
                wanted = bounds[s] - admitted.size
                if wanted <= 0:
                    continue
                row = _CRITERION_ROW[s]
                values = self.values[row, :n]
                # a value of 0 or none is never admitted (§3: a bar is never 0)
                open_ = (codes == 0) & (values > 0)
                if wanted < remaining:
                    bar = _bar_excluding(self.ascending[row], values[admitted], wanted)
                    chosen = np.flatnonzero(open_ & (values >= bar - TIE_TOLERANCE))
                else:
                    chosen = np.flatnonzero(open_)
            else:
                chosen = np.flatnonzero(codes == 0)
            codes[chosen] = s
            admitted = np.concatenate([admitted, chosen])
        return codes


def _bar_excluding(ascending: np.ndarray, excluded: np.ndarray, wanted: int) -> float:
    """The `wanted`-th largest value of the multiset `ascending` minus `excluded` (a
    sub-multiset; `wanted` ≤ the size of the difference). Only the top `wanted` + |excluded|
    values can hold it: it is the largest of them with at least `wanted` values ≥ it left
    (a count that never grows with the value: binary search)."""
    n, size = ascending.size, excluded.size
    if size == 0:
        return float(ascending[n - wanted])
    excluded = np.sort(excluded)

    def left(position: int) -> int:
        value = ascending[position]
        full = n - int(np.searchsorted(ascending, value, side="left"))
        return full - (size - int(np.searchsorted(excluded, value, side="left")))

    low, high = n - wanted - size, n - 1  # left(low) >= wanted
    while low < high:
        middle = (low + high + 1) // 2
        if left(middle) >= wanted:
            low = middle
        else:
            high = middle - 1
    return float(ascending[low])


def _provisional(
    scores: pl.DataFrame,
    events: pl.DataFrame,
    quotas: SeriesQuotas,
    params: SeriesParams,
    new_licensees: pl.DataFrame,
    *,
    changes_only: bool,
) -> pl.DataFrame:
    """Provisional classification after each event: every row, or only the changes."""
    played = scores.get_column("tournament_id").unique()
    ids = ordered_events(events.filter(pl.col("tournament_id").is_in(played.implode()))).get_column(
        "tournament_id"
    )
    if ids.len() == 0:
        return PROVISIONAL.empty()
    season = scores.get_column("season")[0]
    order = ids.to_frame().with_row_index("_k").with_columns(pl.col("_k").cast(pl.Int64))
    running = _running_standings(scores, order, events, params)

    # Player indices: players with results by first event then id (the players present
    # after event k are a prefix), then the new licensees without result.
    first = (
        running.group_by("player_id")
        .agg(pl.col("_k").min().alias("_first"))
        .sort(["_first", "player_id"])
    )
    new_ids = new_licensees.select(pl.col("player_id").cast(pl.String)).unique()
    absent_new = new_ids.join(first, on="player_id", how="anti").sort("player_id")
    players = pl.concat([first.get_column("player_id"), absent_new.get_column("player_id")])
    n_with_results, n_total = first.height, players.len()
    index = players.to_frame().with_row_index("_i").with_columns(pl.col("_i").cast(pl.Int64))
    is_new = players.is_in(new_ids.get_column("player_id").implode()).to_numpy()
    first_k = first.get_column("_first").to_numpy()
    new_first_k = np.sort(first_k[is_new[:n_with_results]])
    n_events = ids.len()
    steps = np.arange(n_events)
    present = np.searchsorted(first_k, steps, side="right")
    population = present + (int(is_new.sum()) - np.searchsorted(new_first_k, steps, "right"))

    rows = running.join(index, on="player_id").sort(["_k", "_i"])
    row_k = rows.get_column("_k").to_numpy()
    row_i = rows.get_column("_i").to_numpy()
    row_values = _criteria_matrix(rows)
    cuts = np.searchsorted(row_k, np.arange(n_events + 1))

    # Criterion row of each series code (0 = outside, 7 = new licensee: no value).
    code_row = np.zeros(8, dtype=np.int64)
    for s in CASCADE_SERIES:
        code_row[s] = _CRITERION_ROW[s]
    state = np.full((len(_CRITERION_COLUMNS), n_total), np.nan)
    ranking = _CascadeState(len(_CRITERION_COLUMNS), n_total)
    flat_columns = np.arange(n_total)
    base_codes = np.where(is_new, int(NEW_LICENSEE_SERIES), 0).astype(np.int8)
    previous_codes = np.zeros(n_total, dtype=np.int8)
    previous_values = np.full(n_total, np.nan)
    bounds_cache: dict[int, dict[int, int]] = {}
    out_k: list[np.ndarray] = []
    out_i: list[np.ndarray] = []
    out_code: list[np.ndarray] = []
    out_value: list[np.ndarray] = []
    for k in range(n_events):
        lo, hi = cuts[k], cuts[k + 1]
        state[:, row_i[lo:hi]] = row_values[:, lo:hi]
        ranking.update(row_i[lo:hi], row_values[:, lo:hi])
        size = int(population[k])
        if size not in bounds_cache:
            bounds_cache[size] = series_boundaries(quotas, size)
        n = int(present[k])
        codes = base_codes.copy()
        codes[:n] = ranking.cascade(n, bounds_cache[size])
        values = state.ravel()[code_row[codes] * n_total + flat_columns]
        values[(codes == 0) | (codes == int(NEW_LICENSEE_SERIES))] = np.nan
        if changes_only:
            same = (codes == previous_codes) & (
                (values == previous_values) | (np.isnan(values) & np.isnan(previous_values))
            )
            emit = np.flatnonzero(~same)
            previous_codes, previous_values = codes, values
        else:
            emit = np.flatnonzero(codes)
        out_k.append(np.full(emit.size, k, dtype=np.int64))
        out_i.append(emit)
        out_code.append(codes[emit])
        out_value.append(values[emit])

    steps_out, players_out = np.concatenate(out_k), np.concatenate(out_i)
    code = pl.col("_code")
    frame = pl.DataFrame(
        {
            "_k": steps_out,
            "after_tournament_id": ids.gather(steps_out),
            "player_id": players.gather(players_out),
            "_code": np.concatenate(out_code),
            "value": np.concatenate(out_value),
        }
    )
    return (
        frame.select(
            "_k",
            pl.lit(season, dtype=pl.String).alias("season"),
            "after_tournament_id",
            "player_id",
            pl.when(code > 0).then(code.cast(pl.String)).alias("series"),
            _code_criterion("_code").alias("criterion"),
            pl.when(code.is_between(1, CASCADE_SERIES[-1])).then(pl.col("value")).alias("value"),
        )
        .sort(
            ["_k", *_PROVISIONAL_ORDER],
            descending=[False, *_PROVISIONAL_DESCENDING],
            nulls_last=True,
        )
        .select(_PROVISIONAL_COLUMNS)
    )


def provisional_classification(
    scores: pl.DataFrame,
    events: pl.DataFrame,
    quotas: SeriesQuotas,
    params: SeriesParams,
    new_licensees: pl.DataFrame,
    federations: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Series 1–7 of every player after each event of a season, from the events so far
    (same cascade; the population is the players with a result so far plus the season's
    new licensees). Full table: about events × players rows. `federations` is unused (the
    cascade does not depend on it); kept for callers."""
    del federations
    return _provisional(scores, events, quotas, params, new_licensees, changes_only=False)


def provisional_changes(
    scores: pl.DataFrame,
    events: pl.DataFrame,
    quotas: SeriesQuotas,
    params: SeriesParams,
    new_licensees: pl.DataFrame,
) -> pl.DataFrame:
    """The rows of `provisional_classification` where a player's series or criterion value
    differs from their row after the previous event, plus each player's first appearance;
    a null series = left the classification. `provisional_as_of` rebuilds any event's
    full classification from it."""
    return _provisional(scores, events, quotas, params, new_licensees, changes_only=True)


def provisional_as_of(
    changes: pl.DataFrame, after_tournament_id: str, order: pl.DataFrame | Sequence[str]
) -> pl.DataFrame:
    """Full provisional classification after event `after_tournament_id`, rebuilt from the
    rows of `provisional_changes` (one season): each player's latest row up to that event.

    `order`: the season's events — a frame with `tournament_id` (and the dates), put in
    docs/rules.md §0 order by `ordered_events`, or tournament ids already in that order.
    """
    ids = (
        ordered_events(order).get_column("tournament_id").to_list()
        if isinstance(order, pl.DataFrame)
        else list(order)
    )
    if after_tournament_id not in ids:
        raise ValueError(f"unknown event {after_tournament_id!r}")
    upto = ids[: ids.index(after_tournament_id) + 1]
    rank = pl.DataFrame(
        {"after_tournament_id": upto, "_k": list(range(len(upto)))},
        schema={"after_tournament_id": pl.String, "_k": pl.Int64},
    )
    latest = (
        changes.join(rank, on="after_tournament_id", how="inner")
        .sort("_k", maintain_order=True)
        .unique("player_id", keep="last", maintain_order=True)
    )
    return (
        latest.filter(pl.col("series").is_not_null())
        .with_columns(pl.lit(after_tournament_id, dtype=pl.String).alias("after_tournament_id"))
        .sort(_PROVISIONAL_ORDER, descending=_PROVISIONAL_DESCENDING, nulls_last=True)
        .select(_PROVISIONAL_COLUMNS)
    )
