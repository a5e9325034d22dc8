"""The international rating of Scrabble classique, the *cote* (docs/rules.md §1).

Pure transforms: Polars frames and NumPy arrays in, frames out; every number the rules mark
as a parameter comes in through `CoteParams` (loaded from `data/reference/cote.yaml` and
`cote_categories.csv` by `pipelines.reference.classique`).

Decisions taken here, where the rules are silent:

- **Initial place** of tied cotes: players with the same cote share the best initial place
  (as §0 does for published places). Only the *reference cote of place k* (the k-th cote
  in decreasing order) enters the computation, and it does not depend on that choice.
- **Starting cote** is looked up only for a player's first rated classique tournament;
  afterwards the pass carries the cote it computed (`prior` carries it from earlier
  seasons). The start is, in this order: the cote of the latest rating list whose `as_of`
  is strictly before the tournament's start (the end date when no start is given); the
  duplicate-series equivalence of the series the player holds in this tournament, found in
  the order of docs/rules.md §3 (written on the row, else last season's classification,
  else the latest rating list's `series` on or before the event — `series` input, from
  `transforms.series_population.event_series`; a sub-series such as `4B` counts as `4`);
  the initial cote. A series outside the equivalence table (7, national series) counts as
  none.
- **Tournament parameters** (M_B, PJmin, PJmax): each value stated on the tournament row
  wins; the missing ones come from the category table, keyed by category (compared
  trimmed and case-insensitively) and number of games: the row with the largest
  `min_games` not above the tournament's games (a tournament without a number of games
  takes the category's row with the smallest `min_games`). The Joker-share band of docs/rules.md
  §1 is not modelled: no source gives its bands, and a tournament export may state PJmin
  and PJmax explicitly.
- A published rank must lie in 1..N (N = players rated in the tournament); a player
  listed twice in one tournament is an error (the ingest rejects such files first).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl

from transforms.calendar import ordered_events
from transforms.ranking import competition_rank_expr
from transforms.rounding import divide_half_away
from transforms.tables import table

COTE_HISTORY = table("cote_history")


class CoteError(ValueError):
    """A tournament that cannot be rated; the message names the tournament."""


class UnknownCategoryError(CoteError):
    """A tournament whose category is not in the table and whose export states no params."""


@dataclass(frozen=True)
class TournamentParams:
    """M_B (bonus of the winner), PJmin and PJmax of one tournament."""

    bonus_m: int
    pj_min: int
    pj_max: int


@dataclass(frozen=True)
class CategoryParams:
    """One row of the category table: the parameters of a category from `min_games` on."""

    category: str
    min_games: int
    bonus_m: int
    pj_min: int
    pj_max: int


@dataclass(frozen=True)
class CoteParams:
    """Every parameter of docs/rules.md §1."""

    initial_cote: int
    series_equivalence: Mapping[str, int]
    bonus_divisors: tuple[int, ...]  # places 1, 2, 3, 4 get M_B / divisor
    pj_gain: Fraction  # factor of d when d >= 0 (2/3)
    pj_loss: Fraction  # factor of d when d < 0 (1/3)
    categories: tuple[CategoryParams, ...]
    disciplines: tuple[str, ...] = ("classique",)
    categories_source: str = "data/reference/cote_categories.csv"


def _norm_category(value: object) -> str | None:
    if value is None:
        return None
    text = str(value).strip().lower()
    return text or None


def tournament_params(tournament: Mapping[str, Any], params: CoteParams) -> TournamentParams:
    """M_B, PJmin and PJmax of a tournament: stated on its row, else from the category table."""
    stated = {k: tournament.get(k) for k in ("bonus_m", "pj_min", "pj_max")}
    bonus_m, pj_min, pj_max = stated.values()
    if bonus_m is not None and pj_min is not None and pj_max is not None:
        return TournamentParams(int(bonus_m), int(pj_min), int(pj_max))
    category = _norm_category(tournament.get("category"))
    rows = [c for c in params.categories if _norm_category(c.category) == category]
    if not rows:
        tid = tournament.get("tournament_id")
        name = tournament.get("tournament_name")
        label = f"{tid} ({name})" if name else str(tid)
        raise UnknownCategoryError(
            f"tournament {label}: category {tournament.get('category')!r} is not in "
            f"{params.categories_source} and the export states no bonus_m/pj_min/pj_max"
        )
    rows.sort(key=lambda c: c.min_games)
    games = tournament.get("games")
    chosen = rows[0]
    if games is not None:
        eligible = [c for c in rows if c.min_games <= int(games)]
        if eligible:
            chosen = eligible[-1]
    return TournamentParams(
        bonus_m=int(stated["bonus_m"]) if stated["bonus_m"] is not None else chosen.bonus_m,
        pj_min=int(stated["pj_min"]) if stated["pj_min"] is not None else chosen.pj_min,
        pj_max=int(stated["pj_max"]) if stated["pj_max"] is not None else chosen.pj_max,
    )


def rate_tournament(
    players: pl.DataFrame,
    tparams: TournamentParams,
    params: CoteParams,
    tournament_id: str = "",
    season: str | None = None,
) -> pl.DataFrame:
    """Rate one tournament: `players` has `player_id`, `cote_before` and the published `rank`.

    Vectorised over the players; returns a `cote_history` frame.
    """
    n = players.height
    if n == 0:
        return COTE_HISTORY.empty()
    if players["player_id"].n_unique() != n:
        raise CoteError(f"tournament {tournament_id}: a player is listed more than once")
    if players["rank"].null_count() or players["cote_before"].null_count():
        raise CoteError(f"tournament {tournament_id}: every player needs a rank and a cote")
    cote = players["cote_before"].cast(pl.Int64).to_numpy()
    rank = players["rank"].cast(pl.Int64).to_numpy()
    if rank.min() < 1 or rank.max() > n:
        raise CoteError(f"tournament {tournament_id}: ranks must lie in 1..{n}")

    reference = np.sort(cote)[::-1][rank - 1]
    initial_place = players.select(competition_rank_expr(pl.col("cote_before"))).to_series()
    pe, bonus, pj_raw, pj = _points(cote, reference, rank, n, tparams, params)
    frame = pl.DataFrame(
        {
            "season": pl.Series([season] * n, dtype=pl.String),
            "tournament_id": pl.Series([tournament_id] * n, dtype=pl.String),
            "player_id": players["player_id"].cast(pl.String),
            "cote_before": pl.Series(cote, dtype=pl.Int64),
            "initial_place": initial_place,
            "rank": pl.Series(rank, dtype=pl.Int64),
            "pe": pl.Series(pe, dtype=pl.Int64),
            "bonus": pl.Series(bonus, dtype=pl.Int64),
            "pj_raw": pl.Series(pj_raw, dtype=pl.Int64),
            "pj": pl.Series(pj, dtype=pl.Int64),
            "cote_after": pl.Series(cote + pe + bonus + pj, dtype=pl.Int64),
        }
    )
    return COTE_HISTORY.check(frame)


def _points(
    cote: np.ndarray,
    reference: np.ndarray,
    rank: np.ndarray,
    n: int,
    tparams: TournamentParams,
    params: CoteParams,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """PE, bonus B, raw PJ and PJ of the `n` players of one tournament (exact integers):
    `cote` before it, `reference` the cote of the place of each one's `rank`."""
    pe = n - rank + 1
    divisors = np.asarray(params.bonus_divisors, dtype=np.int64)
    has_bonus = rank <= len(divisors)
    divisor = divisors[np.minimum(rank, len(divisors)) - 1]
    bonus = np.where(has_bonus, divide_half_away(tparams.bonus_m, divisor), 0)
    d = reference - cote
    gain, loss = params.pj_gain, params.pj_loss
    pj_raw = np.where(
        d >= 0,
        divide_half_away(d * gain.numerator, gain.denominator),
        divide_half_away(d * loss.numerator, loss.denominator),
    )
    pj = np.clip(pj_raw, tparams.pj_min, tparams.pj_max)
    return pe, bonus, pj_raw, pj


def ordered_tournaments(tournaments: pl.DataFrame, disciplines: Sequence[str]) -> pl.DataFrame:
    """The tournaments of the given disciplines in event order (docs/rules.md §0), with `start`."""
    return ordered_events(
        tournaments.filter(pl.col("discipline").is_in(list(disciplines)))
    ).with_columns(start=pl.coalesce("start_date", "end_date"))


def latest_list_value(
    pairs: pl.DataFrame, rating_lists: pl.DataFrame, columns: Sequence[str]
) -> pl.DataFrame:
    """For each (tournament_id, player_id, start) row, `columns` of the player's latest
    rating list with `as_of` strictly before `start` (nulls when there is none)."""
    lists = rating_lists.select(
        pl.col("player_id").cast(pl.String), pl.col("as_of").cast(pl.Date), *columns
    ).drop_nulls(columns[0])
    found = (
        pairs.select("tournament_id", "player_id", "start")
        .join(lists, on="player_id", how="inner")
        .filter(pl.col("as_of") < pl.col("start"))
        .sort("as_of")
        .group_by("tournament_id", "player_id", maintain_order=True)
        .last()
        .select("tournament_id", "player_id", *columns)
    )
    return pairs.join(found, on=["tournament_id", "player_id"], how="left")


def _series_value(series: pl.Expr, equivalence: Mapping[str, int]) -> pl.Expr:
    table = {str(k).strip().upper(): int(v) for k, v in equivalence.items()}
    clean = series.str.strip_chars().str.to_uppercase()
    exact = clean.replace_strict(table, default=None, return_dtype=pl.Int64)
    leading = clean.str.slice(0, 1).replace_strict(table, default=None, return_dtype=pl.Int64)
    return pl.coalesce(exact, leading)


def starting_cotes(
    ordered: pl.DataFrame,
    results: pl.DataFrame,
    rating_lists: pl.DataFrame,
    series: pl.DataFrame | None,
    params: CoteParams,
) -> pl.DataFrame:
    """The cote each (tournament, player) would start from if it were their first tournament:
    the listed cote, else the equivalence of the series held (`series`: tournament_id,
    player_id, series; else the one written on the row), else the initial cote."""
    pairs = results.select("tournament_id", "player_id").join(
        ordered.select("tournament_id", "start"), on="tournament_id", how="inner"
    )
    with_list = latest_list_value(pairs, rating_lists, ["cote"])
    held = (
        results.select("tournament_id", "player_id", "series")
        if series is None
        else series.select("tournament_id", "player_id", "series")
    )
    return (
        with_list.join(held, on=["tournament_id", "player_id"], how="left")
        .with_columns(
            start_cote=pl.coalesce(
                pl.col("cote").cast(pl.Int64),
                _series_value(pl.col("series").cast(pl.String), params.series_equivalence),
                pl.lit(params.initial_cote, dtype=pl.Int64),
            )
        )
        .select("tournament_id", "player_id", "start_cote")
    )


def cote_history(
    tournaments: pl.DataFrame,
    results: pl.DataFrame,
    rating_lists: pl.DataFrame,
    params: CoteParams,
    *,
    series: pl.DataFrame | None = None,
    prior: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Rate every classique tournament of `tournaments` in event order, carrying each
    player's cote. `series`: the series each player holds in each tournament (see
    `starting_cotes`). `prior`: player_id, cote — the cotes reached before these
    tournaments (the earlier seasons' `cote_history`, see `last_cotes`)."""
    ordered = ordered_tournaments(tournaments, params.disciplines)
    starts = starting_cotes(ordered, results, rating_lists, series, params)
    position = ordered.select("tournament_id", pl.int_range(pl.len()).alias("_t"))
    rows = (
        results.select("tournament_id", "player_id", "rank")
        .join(starts, on=["tournament_id", "player_id"], how="inner")
        .join(position, on="tournament_id", how="inner")
        .sort("_t", "rank", "player_id", nulls_last=True)
    )
    if rows.height == 0:
        return COTE_HISTORY.empty()
    t = rows.get_column("_t").to_numpy()
    bounds = np.concatenate([[0], np.flatnonzero(np.diff(t)) + 1, [t.size]]).tolist()
    spans = list(itertools.pairwise(bounds))
    tparams = _checked_params(rows, ordered, [int(t[lo]) for lo, _ in spans], params)

    # Each player by index, their cote carried in `state` once `known`.
    prior_cotes = (
        pl.DataFrame(schema={"player_id": pl.String, "cote": pl.Int64})
        if prior is None
        else prior.select(pl.col("player_id").cast(pl.String), pl.col("cote").cast(pl.Int64))
    )
    ids = pl.concat([prior_cotes.get_column("player_id"), rows.get_column("player_id")])
    index = (
        ids.unique(maintain_order=True)
        .to_frame()
        .with_row_index("_p")
        .with_columns(pl.col("_p").cast(pl.Int64))
    )
    state = np.zeros(index.height, dtype=np.int64)
    known = np.zeros(index.height, dtype=bool)
    carried = prior_cotes.join(index, on="player_id", how="inner")
    state[carried.get_column("_p").to_numpy()] = carried.get_column("cote").to_numpy()
    known[carried.get_column("_p").to_numpy()] = True

    player = rows.join(index, on="player_id", how="left", maintain_order="left")
    player_index = player.get_column("_p").to_numpy()
    rank = rows.get_column("rank").cast(pl.Int64).to_numpy()
    start = rows.get_column("start_cote").cast(pl.Int64).to_numpy()
    columns = ("cote_before", "initial_place", "pe", "bonus", "pj_raw", "pj", "cote_after")
    out = {c: np.empty(t.size, dtype=np.int64) for c in columns}
    for (lo, hi), tournament in zip(spans, tparams, strict=True):
        p, r, n = player_index[lo:hi], rank[lo:hi], hi - lo
        cote = np.where(known[p], state[p], start[lo:hi])
        ascending = np.sort(cote)
        reference = ascending[n - r]  # the cote of place r, best first
        pe, bonus, pj_raw, pj = _points(cote, reference, r, n, tournament, params)
        after = cote + pe + bonus + pj
        # competition places by cote: 1 + the players with a higher cote
        place = n - np.searchsorted(ascending, cote, side="right") + 1
        for name, values in zip(columns, (cote, place, pe, bonus, pj_raw, pj, after), strict=True):
            out[name][lo:hi] = values
        state[p] = after
        known[p] = True
    seasons = (
        ordered.select(pl.col("season").cast(pl.String))
        if "season" in ordered.columns
        else pl.DataFrame({"season": [None] * ordered.height}, schema={"season": pl.String})
    ).with_row_index("_t")
    frame = rows.select(
        pl.col("_t").cast(pl.UInt32), "tournament_id", pl.col("player_id").cast(pl.String)
    ).join(seasons, on="_t", how="left", maintain_order="left")
    return COTE_HISTORY.check(
        frame.select(
            "season",
            "tournament_id",
            "player_id",
            *[pl.Series(c, out[c], dtype=pl.Int64) for c in columns[:2]],
            pl.Series("rank", rank, dtype=pl.Int64),
            *[pl.Series(c, out[c], dtype=pl.Int64) for c in columns[2:]],
        )
    )


def _checked_params(
    rows: pl.DataFrame, ordered: pl.DataFrame, played: list[int], params: CoteParams
) -> list[TournamentParams]:
    """The parameters of each tournament played (`played`: positions in `ordered`, in
    event order), after checking its rows (`rows`: `_t`, player_id, rank): the first
    tournament in event order that cannot be rated raises, as rating them one by one would."""
    checks = (
        rows.group_by("_t")
        .agg(
            (pl.col("player_id").n_unique() != pl.len()).alias("twice"),
            pl.col("rank").is_null().any().alias("unranked"),
            ((pl.col("rank").min() < 1) | (pl.col("rank").max() > pl.len())).alias("outside"),
            pl.len().alias("n"),
        )
        .filter(pl.col("twice") | pl.col("unranked") | pl.col("outside").fill_null(False))
    )
    failing = {int(r["_t"]): r for r in checks.iter_rows(named=True)}
    found: list[TournamentParams] = []
    for position in played:
        tournament = ordered.row(position, named=True)
        found.append(tournament_params(tournament, params))
        failed = failing.get(position)
        if failed is None:
            continue
        tid = tournament["tournament_id"]
        if failed["twice"]:
            raise CoteError(f"tournament {tid}: a player is listed more than once")
        if failed["unranked"]:
            raise CoteError(f"tournament {tid}: every player needs a rank and a cote")
        raise CoteError(f"tournament {tid}: ranks must lie in 1..{failed['n']}")
    return found


def last_cotes(history: pl.DataFrame) -> pl.DataFrame:
    """`player_id, cote`: each player's cote after their last tournament of `history`
    (rows in event order, as `cote_history` writes them)."""
    return history.group_by("player_id", maintain_order=True).agg(
        pl.col("cote_after").last().alias("cote")
    )
