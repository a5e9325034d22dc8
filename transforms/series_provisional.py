"""The provisional series classification of a season, after each of its events (docs/rules.md §3).

The provisional classification after event k is the cascade of §3 over the standings of
the events 1..k (population: the players with a result so far plus the season's new
licensees, who are series 7 until their first result). It is computed in one pass over
the season's events in docs/rules.md §0 order: each player's standings after each event they
played are cumulative sums over the (player, event) table, computed once; after event k
only the players of event k change their sums. The pass over the events is one compiled
loop (Numba, `_provisional_steps`): it keeps everyone's current values and, per criterion,
the present players sorted by value, where only the event's players are taken out and put
back (`_merge_event`), so the cascade of each event walks each criterion from its best
value to its bar instead of sorting (`_cascade_present`). Values may differ from
`season_standings` in the last bits (summation order); ties within TIE_TOLERANCE decide
the same admissions.

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

from collections.abc import Sequence

import numba
import numpy as np
import polars as pl

from transforms.calendar import ordered_events
from transforms.series import (
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
    series_boundaries_array,
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


@numba.njit(cache=True, nogil=True)
def _lower_bound(values: np.ndarray, ids: np.ndarray, size: int, value: float, key: int) -> int:
    """First position of the `size` (value, id) pairs sorted ascending not below (value, key)."""
    low, high = 0, size
    while low < high:
        middle = (low + high) // 2
        v = values[middle]
        if v < value or (v == value and ids[middle] < key):
            low = middle + 1
        else:
            high = middle
    return low


@numba.njit(cache=True, nogil=True)
def _merge_event(
    values: np.ndarray,
    ids: np.ndarray,
    size: int,
    out_values: np.ndarray,
    out_ids: np.ndarray,
    old: np.ndarray,
    new: np.ndarray,
    players: np.ndarray,
    moving: np.ndarray,
    placed: np.ndarray,
) -> None:
    """One criterion's present players sorted by (value, player), `values` and `ids`, after
    the event whose `players` go from `old` to `new` values (`moving`: those already
    present; `placed`: the order of their new pairs), written to `out_values`, `out_ids`:
    the moving players' old pairs are found and the new pairs placed by binary search, and
    the runs between them copied whole."""
    m = players.size
    removed = np.empty(m, dtype=np.int64)
    n_removed = 0
    for q in range(m):
        if moving[q]:
            removed[n_removed] = _lower_bound(values, ids, size, old[q], players[q])
            n_removed += 1
    for q in range(1, n_removed):  # insertion sort: an event's players are few
        at, position = q, removed[q]
        while at > 0 and removed[at - 1] > position:
            removed[at] = removed[at - 1]
            at -= 1
        removed[at] = position
    inserted = np.empty(m, dtype=np.int64)
    for q in range(m):
        j = placed[q]
        inserted[q] = _lower_bound(values, ids, size, new[j], players[j])
    source, out, r, q = 0, 0, 0, 0
    while r < n_removed or q < m:
        # at one position, a new pair goes before the pair there, which may be removed
        insert = q < m and (r >= n_removed or inserted[q] <= removed[r])
        at = inserted[q] if insert else removed[r]
        run = at - source
        out_values[out : out + run] = values[source:at]
        out_ids[out : out + run] = ids[source:at]
        out += run
        source = at
        if insert:
            j = placed[q]
            out_values[out] = new[j]
            out_ids[out] = players[j]
            out += 1
            q += 1
        else:
            source += 1
            r += 1
    run = size - source
    out_values[out : out + run] = values[source:size]
    out_ids[out : out + run] = ids[source:size]


@numba.njit(cache=True, nogil=True)
def _cascade_present(
    codes: np.ndarray,
    n: int,
    sorted_values: np.ndarray,
    sorted_ids: np.ndarray,
    bounds: np.ndarray,
    series_row: np.ndarray,
    tolerance: float,
) -> None:
    """`_cascade_codes` of the `n` present players into `codes[:n]`, from each criterion's
    present players sorted by value (`sorted_values`, `sorted_ids`): the bar of series s is
    the `wanted`-th best value among the players not admitted yet, found by walking the
    row from its best value; as in `_admit_codes`, only values above 0 are admitted.
    `bounds`: the cumulative boundary of each series 1–6 (−1: the rest series)."""
    codes[:n] = 0
    admitted = 0
    for s in range(1, 7):
        remaining = n - admitted
        if remaining == 0:
            break
        chosen = 0
        if bounds[s - 1] >= 0:
            wanted = bounds[s - 1] - admitted
            if wanted <= 0:
                continue
            values = sorted_values[series_row[s]]
            line = sorted_ids[series_row[s]]
            threshold = -np.inf
            if wanted < remaining:
                count = 0
                for p in range(n - 1, -1, -1):
                    if codes[line[p]] == 0:
                        count += 1
                        if count == wanted:
                            threshold = values[p] - tolerance
                            break
            for p in range(n - 1, -1, -1):
                v = values[p]
                if v < threshold or v <= 0:
                    break  # sorted: nothing lower is admitted
                j = line[p]
                if codes[j] == 0:
                    codes[j] = s
                    chosen += 1
        else:
            for j in range(n):
                if codes[j] == 0:
                    codes[j] = s
                    chosen += 1
        admitted += chosen


@numba.njit(cache=True, nogil=True)
def _grow(array: np.ndarray, size: int) -> np.ndarray:
    bigger = np.empty(max(2 * array.size, size), dtype=array.dtype)
    bigger[: array.size] = array
    return bigger


@numba.njit(cache=True, nogil=True)
def _provisional_steps(
    row_i: np.ndarray,
    row_values: np.ndarray,
    row_order: np.ndarray,
    cuts: np.ndarray,
    present: np.ndarray,
    event_bounds: np.ndarray,
    base_codes: np.ndarray,
    series_row: np.ndarray,
    new_licensee: int,
    tolerance: float,
    changes_only: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The provisional classification after each event, in one compiled pass over the
    season's events: (event, player, series code, value) of every row emitted (`changes_only`:
    the rows that differ from the player's previous one; else every classified row).

    After event k only its players' values change: they are written into the current values
    and merged into each criterion's sorted row (`_merge_event`), and the cascade of the
    present players reads the sorted rows (`_cascade_present`)."""
    criteria, n_total = row_values.shape[0], base_codes.size
    state = np.full((criteria, n_total), np.nan)  # the values as computed (NaN kept)
    ranked = np.full((criteria, n_total), -np.inf)  # NaN ranked as -inf
    # each criterion's present players sorted by (value, player), and a second buffer
    sorted_values = np.empty((criteria, n_total))
    sorted_ids = np.empty((criteria, n_total), dtype=np.int64)
    spare_values = np.empty((criteria, n_total))
    spare_ids = np.empty((criteria, n_total), dtype=np.int64)
    codes = base_codes.copy()
    previous_codes = np.zeros(n_total, dtype=np.int8)
    previous_values = np.full(n_total, np.nan)
    out_k = np.empty(4 * n_total + 16, dtype=np.int64)
    out_i = np.empty(out_k.size, dtype=np.int64)
    out_code = np.empty(out_k.size, dtype=np.int8)
    out_value = np.empty(out_k.size, dtype=np.float64)
    emitted = 0
    size = 0
    for k in range(cuts.size - 1):
        lo, hi = cuts[k], cuts[k + 1]
        players = row_i[lo:hi]
        moving = players < size  # present before: their old pairs leave the sorted rows
        for r in range(criteria):
            old = ranked[r][players]
            for q in range(players.size):
                v = row_values[r, lo + q]
                state[r, players[q]] = v
                ranked[r, players[q]] = -np.inf if np.isnan(v) else v
            new = ranked[r][players]
            _merge_event(
                sorted_values[r], sorted_ids[r], size, spare_values[r], spare_ids[r],
                old, new, players, moving, row_order[r, lo:hi] - lo,
            )  # fmt: skip
        sorted_values, spare_values = spare_values, sorted_values
        sorted_ids, spare_ids = spare_ids, sorted_ids
        n = present[k]
        size = n
        _cascade_present(
            codes, n, sorted_values, sorted_ids, event_bounds[k], series_row, tolerance
        )
        if emitted + n_total > out_k.size:
            out_k = _grow(out_k, emitted + n_total)
            out_i = _grow(out_i, emitted + n_total)
            out_code = _grow(out_code, emitted + n_total)
            out_value = _grow(out_value, emitted + n_total)
        for i in range(n_total):
            code = codes[i]
            value = np.nan
            if code != 0 and code != new_licensee:
                value = state[series_row[code], i]
            if changes_only:
                before = previous_values[i]
                if code == previous_codes[i] and (
                    value == before or (np.isnan(value) and np.isnan(before))
                ):
                    continue
                previous_codes[i] = code
                previous_values[i] = value
            elif code == 0:
                continue
            out_k[emitted] = k
            out_i[emitted] = i
            out_code[emitted] = code
            out_value[emitted] = value
            emitted += 1
    return out_k[:emitted], out_i[:emitted], out_code[:emitted], out_value[:emitted]


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
    n_with_results = first.height
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
    series_row = np.zeros(8, dtype=np.int64)
    for s in CASCADE_SERIES:
        series_row[s] = _CRITERION_ROW[s]
    # The cumulative boundaries of series 1–6 after each event (−1: the rest series).
    event_bounds = series_boundaries_array(quotas, population)
    base_codes = np.where(is_new, int(NEW_LICENSEE_SERIES), 0).astype(np.int8)
    # Each criterion's rows in (event, value, player) order, NaN as -inf: the order in
    # which an event's players enter the sorted rows.
    ranked = np.where(np.isnan(row_values), -np.inf, row_values)
    row_order = np.stack([np.lexsort((row_i, r, row_k)) for r in ranked]).astype(np.int64)
    steps_out, players_out, codes_out, values_out = _provisional_steps(
        np.ascontiguousarray(row_i, dtype=np.int64),
        np.ascontiguousarray(row_values, dtype=np.float64),
        row_order,
        cuts.astype(np.int64),
        present.astype(np.int64),
        event_bounds,
        base_codes,
        series_row,
        int(NEW_LICENSEE_SERIES),
        TIE_TOLERANCE,
        changes_only,
    )

    code = pl.col("_code")
    frame = pl.DataFrame(
        {
            "_k": steps_out,
            "after_tournament_id": ids.gather(steps_out),
            "player_id": players.gather(players_out),
            "_code": codes_out,
            "value": values_out,
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
