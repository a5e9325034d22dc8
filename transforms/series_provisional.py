"""The provisional series classification of a season, after each of its events (docs/rules.md §3).

The provisional classification after event k is the cascade of §3 over the standings of
the events 1..k (population: the players with a result so far plus the season's new
licensees, who are series 7 until their first result). It is computed in one pass over
the season's events in docs/rules.md §0 order: each player's standings after each event they
played are cumulative sums over the (player, event) table, computed once; after event k
only the players of event k change their sums. The pass over the events is one compiled
loop (Numba, `_provisional_steps`): every (player, event) row has a slot in its
criterion's order of the whole season, sorted once (`_slots`); the present players are a
bit per slot, where only the event's players move their bit, so the cascade of each
event walks each criterion's set bits from its best value to its bar instead of sorting
(`_cascade_present`, `_admit`), and only the event's players and those whose series
changed are compared with their previous row. Values may differ from
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


# A row count inside the compiled loops: an int64 whether it started as NumPy's or Python's
Count = int | np.int64


def _running_standings(
    scores: pl.DataFrame, order: pl.DataFrame, events: pl.DataFrame, params: SeriesParams
) -> pl.DataFrame:
    """`player_id, _k, pct_n1..pct_n4, pc`: each player's season standings (as
    `season_standings` computes them) after each event `_k` they played, by cumulative sums
    of the weighted %N1–%N4 numerators, the weights and the PC in event order (each
    player's sums in one compiled pass, `_running_sums`: the same additions, in the same
    order, as Polars' `cum_sum().over("player_id")`)."""
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
    sums = np.ascontiguousarray(
        per_event.select(*_PCT, "_weight", "pc").to_numpy().T, dtype=np.float64
    )
    first = per_event.select(pl.col("player_id").is_first_distinct()).to_series().to_numpy()
    running = _running_sums(sums, first, float(params.minimum_divisor), np.empty_like(sums))
    return per_event.select("player_id", "_k").with_columns(
        *[pl.Series(c, running[r]) for r, c in enumerate(_PCT)],
        pl.Series("pc", running[len(_PCT) + 1]),
    )


@numba.njit(cache=True, nogil=True)
def _running_sums(
    sums: np.ndarray, first: np.ndarray, minimum_divisor: float, out: np.ndarray
) -> np.ndarray:
    """Rows %N1–%N4 numerators, weight, PC of (player, event) rows sorted by player then
    event (`first`: a player's first row): each running sum restarted at a player's first
    row, the %N sums divided by max(running weight, `minimum_divisor`), written into `out`
    (an array of the shape of `sums`, allocated by the caller: no compiled np.empty_like)."""
    columns, rows = sums.shape
    for r in range(columns):
        total = 0.0
        for q in range(rows):
            total = sums[r, q] if first[q] else total + sums[r, q]
            out[r, q] = total
    weight = columns - 2
    for q in range(rows):
        divisor = max(out[weight, q], minimum_divisor)
        for r in range(weight):
            out[r, q] = out[r, q] / divisor
    return out


def _debruijn_table() -> np.ndarray:
    """Bit index of each power of two by its de Bruijn product's top 6 bits (`_admit`)."""
    table = np.zeros(64, dtype=np.int64)
    for bit in range(64):
        table[(((1 << bit) * _DEBRUIJN_CONSTANT) & 0xFFFFFFFFFFFFFFFF) >> 58] = bit
    return table


_DEBRUIJN_CONSTANT = 0x03F79D71B4CB0A89
_DEBRUIJN = np.uint64(_DEBRUIJN_CONSTANT)
_BIT_INDEX = _debruijn_table()


@numba.njit(cache=True, nogil=True)
def _admit(
    occupied: np.ndarray,
    slot_player: np.ndarray,
    slot_value: np.ndarray,
    codes: np.ndarray,
    wanted: int,
    tolerance: float,
    series: int,
) -> int:
    """Series `series` given to the best `wanted` players not admitted yet (`codes` 0) of
    one criterion, ties with the bar (the `wanted`-th value, within `tolerance`) admitted
    too, values of 0 or less never (as `_admit_codes`): one walk over the present players
    from the best value (`occupied`: a bit per slot, slots in (value, player) order best
    first). Returns how many were admitted."""
    chosen = 0
    threshold = -np.inf
    for word in range(occupied.size):
        bits = occupied[word]
        while bits != 0:
            low = bits & (~bits + np.uint64(1))
            bits ^= low
            slot = (word << 6) | _BIT_INDEX[(low * _DEBRUIJN) >> np.uint64(58)]
            value = slot_value[slot]
            if value < threshold or value <= 0:
                return chosen  # sorted: nothing lower is admitted
            player = slot_player[slot]
            if codes[player] == 0:
                codes[player] = series
                chosen += 1
                if chosen == wanted:
                    threshold = value - tolerance
    return chosen


@numba.njit(cache=True, nogil=True)
def _cascade_present(
    codes: np.ndarray,
    n: int,
    occupied: np.ndarray,
    slot_player: np.ndarray,
    slot_value: np.ndarray,
    bounds: np.ndarray,
    series_row: np.ndarray,
    tolerance: float,
) -> None:
    """`_cascade_codes` of the `n` present players into `codes[:n]`, each series admitted
    by `_admit` from its criterion's occupied slots. `bounds`: the cumulative boundary of
    each series 1–6 (−1: the rest series)."""
    codes[:n] = 0
    admitted = 0
    for s in range(1, 7):
        if n - admitted == 0:
            break
        if bounds[s - 1] >= 0:
            wanted = bounds[s - 1] - admitted
            if wanted > 0:
                r = series_row[s]
                admitted += _admit(
                    occupied[r], slot_player[r], slot_value[r], codes, wanted, tolerance, s
                )
        else:
            for j in range(n):
                if codes[j] == 0:
                    codes[j] = s
                    admitted += 1


@numba.njit(cache=True, nogil=True)
def _grow(array: np.ndarray, size: Count) -> np.ndarray:
    """`array` copied into a new array of at least `size` items (twice its size or more).

    The copy is a loop: a slice assignment (`bigger[: n] = array`) makes Numba compile its
    shape-mismatch error message (string formatting of the shapes), about 4 of the 12
    CPU seconds of compiling this module in a process without the cache."""
    bigger = np.empty(max(2 * array.size, size), dtype=array.dtype)
    for j in range(array.size):
        bigger[j] = array[j]
    return bigger


@numba.njit(cache=True, nogil=True)
def _value(
    state: np.ndarray, code: int, i: int, series_row: np.ndarray, new_licensee: int
) -> float:
    """Player `i`'s value of the criterion of series `code` (NaN: none, or series 7)."""
    if code == 0 or code == new_licensee:
        return np.nan
    return float(state[series_row[code], i])


@numba.njit(cache=True, nogil=True)
def _emit(
    out: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    emitted: Count,
    k: int,
    i: int,
    code: int,
    value: float,
) -> Count:
    """Row `emitted` of the output arrays (event, player, code, value); the next row."""
    out[0][emitted] = k
    out[1][emitted] = i
    out[2][emitted] = code
    out[3][emitted] = value
    return emitted + 1


def _step_arrays(
    rows: tuple[int, int], n_total: int
) -> tuple[
    tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
]:
    """The working arrays of `_provisional_steps` for a criteria × rows matrix and `n_total`
    players: (occupied slot bits, each player's current slot per criterion (−1: none),
    their values as computed (NaN kept), previous code, previous value), and its first
    output arrays (event, player, code, value; grown by `_grow`)."""
    criteria, size = rows
    work = (
        np.zeros((criteria, (size + 63) >> 6), dtype=np.uint64),
        np.full((criteria, n_total), -1, dtype=np.int64),
        np.full((criteria, n_total), np.nan),
        np.zeros(n_total, dtype=np.int8),
        np.full(n_total, np.nan),
    )
    capacity = 4 * n_total + 16
    out = (
        np.empty(capacity, dtype=np.int64),
        np.empty(capacity, dtype=np.int64),
        np.empty(capacity, dtype=np.int8),
        np.empty(capacity, dtype=np.float64),
    )
    return work, out


def _slots(row_i: np.ndarray, row_values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each criterion's rows in (value, player) order, best first, NaN as −inf: the slot of
    each row (`row_slot`), and the player and value of each slot."""
    ranked = np.where(np.isnan(row_values), -np.inf, row_values)
    criteria, size = ranked.shape
    by_player = np.argsort(row_i, kind="stable")
    row_slot = np.empty((criteria, size), dtype=np.int64)
    slot_player = np.empty((criteria, size), dtype=np.int64)
    slot_value = np.empty((criteria, size), dtype=np.float64)
    for r in range(criteria):
        order = by_player[np.argsort(ranked[r, by_player], kind="stable")][::-1]
        row_slot[r, order] = np.arange(size)
        slot_player[r] = row_i[order]
        slot_value[r] = ranked[r, order]
    return row_slot, slot_player, slot_value


@numba.njit(cache=True, nogil=True)
def _provisional_steps(
    row_i: np.ndarray,
    row_values: np.ndarray,
    row_slot: np.ndarray,
    slot_player: np.ndarray,
    slot_value: np.ndarray,
    cuts: np.ndarray,
    present: np.ndarray,
    event_bounds: np.ndarray,
    codes: np.ndarray,
    series_row: np.ndarray,
    new_licensee: int,
    tolerance: float,
    changes_only: bool,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    out: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The provisional classification after each event, in one compiled pass over the
    season's events: (event, player, series code, value) of every row emitted (`changes_only`:
    the rows that differ from the player's previous one; else every classified row).

    Every (player, event) row has a slot in each criterion's order of the whole season
    (`_slots`); a player's current row occupies its slot (a bit of `occupied`). After event
    k only its players' rows change: their bits move, and the cascade of the present
    players walks the occupied slots (`_cascade_present`). Changes: the event's players,
    and the players whose series changed (the others' values are unchanged).

    `codes` (each player's series code, changed in place), the `work` arrays and the first
    `out` arrays come from `_step_arrays`: allocated by NumPy outside, they cost no compiled
    code here (np.full, np.zeros: about 2 of the 8 CPU seconds of compiling this module)."""
    criteria, n_total = row_values.shape[0], codes.size
    occupied, current, state, previous_codes, previous_values = work
    out_k, out_i, out_code, out_value = out
    emitted: Count = np.int64(0)  # not the literal 0: a second compiled signature of _emit
    one = np.uint64(1)
    for k in range(cuts.size - 1):
        lo, hi = cuts[k], cuts[k + 1]
        for r in range(criteria):
            for q in range(lo, hi):
                i = row_i[q]
                old = current[r, i]
                if old >= 0:
                    occupied[r, old >> 6] &= ~(one << np.uint64(old & 63))
                slot = row_slot[r, q]
                occupied[r, slot >> 6] |= one << np.uint64(slot & 63)
                current[r, i] = slot
                state[r, i] = row_values[r, q]
        _cascade_present(
            codes, present[k], occupied, slot_player, slot_value, event_bounds[k], series_row,
            tolerance,
        )  # fmt: skip
        if emitted + n_total > out_k.size:
            out_k = _grow(out_k, emitted + n_total)
            out_i = _grow(out_i, emitted + n_total)
            out_code = _grow(out_code, emitted + n_total)
            out_value = _grow(out_value, emitted + n_total)
        out = (out_k, out_i, out_code, out_value)
        if not changes_only:
            for i in range(n_total):
                if codes[i] != 0:
                    value = _value(state, codes[i], i, series_row, new_licensee)
                    emitted = _emit(out, emitted, k, i, codes[i], value)
            continue
        # the changes: the event's players, then the players whose series changed (the
        # others' values did not)
        for q in range(lo, hi):
            i = row_i[q]
            value = _value(state, codes[i], i, series_row, new_licensee)
            before = previous_values[i]
            if codes[i] == previous_codes[i] and (
                value == before or (np.isnan(value) and np.isnan(before))
            ):
                continue
            previous_codes[i], previous_values[i] = codes[i], value
            emitted = _emit(out, emitted, k, i, codes[i], value)
        for i in range(n_total):
            if codes[i] != previous_codes[i]:
                value = _value(state, codes[i], i, series_row, new_licensee)
                previous_codes[i], previous_values[i] = codes[i], value
                emitted = _emit(out, emitted, k, i, codes[i], value)
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
    row_i = np.ascontiguousarray(row_i, dtype=np.int64)
    row_values = np.ascontiguousarray(row_values, dtype=np.float64)
    steps_out, players_out, codes_out, values_out = _provisional_steps(
        row_i,
        row_values,
        *_slots(row_i, row_values),
        cuts.astype(np.int64),
        present.astype(np.int64),
        event_bounds,
        base_codes,  # a new array, changed in place
        series_row,
        int(NEW_LICENSEE_SERIES),
        TIE_TOLERANCE,
        changes_only,
        *_step_arrays(row_values.shape, base_codes.size),
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
