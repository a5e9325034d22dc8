"""Elo ratings as FIDE applies them (docs/rules.md §2), with the curve and switches as
parameters.

Pure transforms (Polars and NumPy, no I/O). Presets live in `data/reference/elo.yaml`.

Decisions taken here:

- **Games table**: a game may be given once (from one player's side) or twice (from both
  sides); each side is derived from the other and duplicates are dropped, so both forms
  give the same ratings. A row without opponent is a bye: no rating change and not
  counted as a game. A game without both scores is an error naming the tournament.
- S = 1 / 0.5 / 0 when the player's score is above / equal to / below the opponent's.
- Within a tournament every game uses the pre-tournament ratings of both players, and
  K is fixed from the pre-tournament state. K = `k_high` takes precedence over every other
  case once the player has reached `high_threshold` — before or after any tournament of
  the pass, or on any rating list dated strictly before the tournament's start — and it
  stays; else `k_new` while the player has completed fewer than `new_games` rated games;
  else `k_junior` for a junior rated below `junior_below` (a junior until 31 December of
  the year they turn `junior_age`: tournament end year − birth year ≤ `junior_age`); else
  `k_default`.
- Starting rating and games: the latest rating list with `as_of` strictly before the
  tournament's start (`elo`, `elo_games`, a missing count being 0), else the initial
  rating with 0 games. The birth year is the largest non-null one written in `results`.
- The tournaments rated are those of the configured disciplines (classique) in event order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, overload

import numpy as np
import polars as pl

from transforms.cote import latest_list_value, ordered_tournaments
from transforms.rounding import round_half_away_array
from transforms.tables import table

ELO_HISTORY = table("elo_history")


class EloError(ValueError):
    """A games table that cannot be rated; the message names the tournament."""


@dataclass(frozen=True)
class EloCurve:
    """Expected-score curve: base 10 (`1/(1+10^(-d/scale))`) or logistic (`1/(1+e^(-d/scale))`)."""

    kind: Literal["base10", "logistic"]
    scale: float


@dataclass(frozen=True)
class KRules:
    """K factors and the thresholds that select them."""

    k_new: float
    new_games: int
    k_junior: float
    junior_age: int
    junior_below: float
    k_default: float
    k_high: float
    high_threshold: float


@dataclass(frozen=True)
class EloParams:
    """A preset: curve, K rules, starting rating and the FIDE switches."""

    curve: EloCurve
    k: KRules
    initial_rating: float
    cap_difference: float | None = None  # FIDE: a difference above this counts as this
    round_change: bool = False  # FIDE: round each tournament's change half away from zero
    disciplines: tuple[str, ...] = ("classique",)


@overload
def expected_score(diff: float, curve: EloCurve) -> float: ...
@overload
def expected_score(diff: np.ndarray, curve: EloCurve) -> np.ndarray: ...
def expected_score(diff: float | np.ndarray, curve: EloCurve) -> float | np.ndarray:
    """Expected score of a player rated `diff` = R − R_opp above the opponent."""
    d = np.asarray(diff, dtype=np.float64)
    if curve.kind == "base10":
        e = 1.0 / (1.0 + np.power(10.0, -d / curve.scale))
    elif curve.kind == "logistic":
        e = 1.0 / (1.0 + np.exp(-d / curve.scale))
    else:
        raise ValueError(f"unknown Elo curve kind {curve.kind!r}")
    return float(e) if e.ndim == 0 else e


def k_factors(
    rating: np.ndarray,
    games_before: np.ndarray,
    junior: np.ndarray,
    reached_high: np.ndarray,
    rules: KRules,
) -> np.ndarray:
    """K of each player from their pre-tournament state (vectorised): the high-rating K
    first (it wins once reached), then new players, then juniors, else the default."""
    rating = np.asarray(rating, dtype=np.float64)
    high = np.asarray(reached_high, dtype=bool) | (rating >= rules.high_threshold)
    return np.select(
        [
            high,
            np.asarray(games_before) < rules.new_games,
            np.asarray(junior, dtype=bool) & (rating < rules.junior_below),
        ],
        [rules.k_high, rules.k_new, rules.k_junior],
        default=rules.k_default,
    ).astype(np.float64)


# A game from one player's side, as `both_sides` gives it
GAME_SIDE_SCHEMA: dict[str, pl.DataType] = {
    "tournament_id": pl.String(),
    "round": pl.Int64(),
    "player_id": pl.String(),
    "opponent_id": pl.String(),
    "player_score": pl.Int64(),
    "opponent_score": pl.Int64(),
    "player_result": pl.Float64(),
}


def game_score_expr() -> pl.Expr:
    """A side's score of its game: its stated result (`player_result`) when the export gives
    one, else 1, ½ or 0 by the two scores."""
    return (
        pl.when(pl.col("player_result").is_not_null())
        .then(pl.col("player_result"))
        .when(pl.col("player_score") > pl.col("opponent_score"))
        .then(1.0)
        .when(pl.col("player_score") == pl.col("opponent_score"))
        .then(0.5)
        .otherwise(0.0)
    )


def both_sides(games: pl.DataFrame) -> pl.DataFrame:
    """Every non-bye game from each player's side, once (`GAME_SIDE_SCHEMA`'s columns).

    `player_result` (1, 0.5, 0 for the player), where the export states it, is carried and
    mirrored (1 − result for the opponent); events recorded without scores state only it.
    """
    if "player_result" not in games.columns:
        games = games.with_columns(pl.lit(None, dtype=pl.Float64).alias("player_result"))
    played = games.filter(pl.col("opponent_id").is_not_null()).select(
        "tournament_id",
        "round",
        "player_id",
        "opponent_id",
        "player_score",
        "opponent_score",
        pl.col("player_result").cast(pl.Float64),
    )
    mirror = played.select(
        "tournament_id",
        "round",
        pl.col("opponent_id").alias("player_id"),
        pl.col("player_id").alias("opponent_id"),
        pl.col("opponent_score").alias("player_score"),
        pl.col("player_score").alias("opponent_score"),
        (1.0 - pl.col("player_result")).alias("player_result"),
    )
    return pl.concat([played, mirror], how="vertical").unique(
        ["tournament_id", "round", "player_id", "opponent_id"], keep="first", maintain_order=True
    )


def rate_tournament(
    sides: pl.DataFrame,
    rating: np.ndarray,
    k: np.ndarray,
    params: EloParams,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Games, score, expected and delta per player of one tournament.

    `sides` has integer columns `p` and `o` (indices into `rating` and `k`) and `s` (the
    score 1/0.5/0), one row per side of each game.
    """
    p = sides["p"].to_numpy()
    o = sides["o"].to_numpy()
    s = sides["s"].to_numpy().astype(np.float64)
    return _rate(p, o, s, rating, k, params)


def _first_high_list(rating_lists: pl.DataFrame, threshold: float) -> pl.DataFrame:
    """`player_id, _high`: the date of the first rating list giving each player an Elo ≥
    `threshold`."""
    if "elo" not in rating_lists.columns or rating_lists.height == 0:
        return pl.DataFrame(schema={"player_id": pl.String, "_high": pl.Date})
    return (
        rating_lists.filter(pl.col("elo") >= threshold)
        .group_by("player_id")
        .agg(pl.col("as_of").cast(pl.Date).min().alias("_high"))
        .select(pl.col("player_id").cast(pl.String), "_high")
    )


def _birth_years(results: pl.DataFrame) -> pl.DataFrame:
    """`player_id, _birth`: the largest birth year written on each player's results."""
    if "birth_year" not in results.columns:
        return pl.DataFrame(schema={"player_id": pl.String, "_birth": pl.Int64})
    return (
        results.select("player_id", "birth_year")
        .drop_nulls("birth_year")
        .group_by("player_id")
        .agg(pl.col("birth_year").max().cast(pl.Int64).alias("_birth"))
        .select(pl.col("player_id").cast(pl.String), "_birth")
    )


def elo_history(
    tournaments: pl.DataFrame,
    games: pl.DataFrame,
    rating_lists: pl.DataFrame,
    results: pl.DataFrame,
    params: EloParams,
    *,
    prior: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Rate the games of every classique tournament of `tournaments` in event order (one
    row per player). `prior`: player_id, rating, games, reached — each player's state after
    the tournaments rated before these (the earlier seasons' `elo_history`, see
    `last_elo`)."""
    ordered = ordered_tournaments(tournaments, params.disciplines)
    rated = games.join(
        ordered.select("tournament_id"), on="tournament_id", how="semi", maintain_order="left"
    )
    sides = both_sides(rated)
    missing = sides.filter(
        pl.col("player_result").is_null()
        & (pl.col("player_score").is_null() | pl.col("opponent_score").is_null())
    )
    if missing.height:
        row = missing.row(0, named=True)
        raise EloError(
            f"tournament {row['tournament_id']}, round {row['round']}: the game of "
            f"{row['player_id']} against {row['opponent_id']} has no score"
        )
    sides = sides.with_columns(s=game_score_expr())
    position = ordered.select(
        "tournament_id",
        pl.int_range(pl.len()).alias("_t"),
        "start",
        pl.col("end_date").dt.year().cast(pl.Int64).alias("_year"),
        (pl.col("season").cast(pl.String) if "season" in ordered.columns else pl.lit(None))
        .cast(pl.String)
        .alias("season"),
    )
    # The sides of each tournament in event order, each tournament's in their own order.
    sides = sides.join(
        position.select("tournament_id", "_t"), on="tournament_id", maintain_order="left"
    ).sort("_t", maintain_order=True)
    if sides.height == 0:
        return ELO_HISTORY.empty()
    # The players of each tournament (sorted by id), with what their first rating there
    # would start from: the latest list, their birth year, the first list rating them high.
    participants = (
        pl.concat(
            [
                sides.select("_t", "tournament_id", "player_id"),
                sides.select("_t", "tournament_id", pl.col("opponent_id").alias("player_id")),
            ]
        )
        .unique()
        .sort("_t", "player_id")
        .join(position.drop("tournament_id"), on="_t", maintain_order="left")
    )
    listed = latest_list_value(
        participants.select("tournament_id", "player_id", "start"),
        rating_lists,
        ["elo", "elo_games"],
    )
    participants = (
        participants.join(
            listed.select("tournament_id", "player_id", "elo", "elo_games"),
            on=["tournament_id", "player_id"],
            how="left",
            maintain_order="left",
        )
        .join(_birth_years(results), on="player_id", how="left", maintain_order="left")
        .join(
            _first_high_list(rating_lists, params.k.high_threshold),
            on="player_id",
            how="left",
            maintain_order="left",
        )
        .with_row_index("_row")
    )
    first = participants.group_by("_t").agg(pl.col("_row").min().alias("_first"))
    local = participants.join(first, on="_t").select(
        "_t", "player_id", (pl.col("_row") - pl.col("_first")).cast(pl.Int64).alias("_local")
    )
    indexed = sides.join(
        local.rename({"_local": "_p"}), on=["_t", "player_id"], maintain_order="left"
    ).join(
        local.rename({"player_id": "opponent_id", "_local": "_o"}),
        on=["_t", "opponent_id"],
        maintain_order="left",
    )

    # Every player by index: those of `prior` first; their state carried once `known`.
    prior_state = (
        pl.DataFrame(
            schema={
                "player_id": pl.String,
                "rating": pl.Float64,
                "games": pl.Int64,
                "reached": pl.Boolean,
            }
        )
        if prior is None
        else prior.select(
            pl.col("player_id").cast(pl.String),
            pl.col("rating").cast(pl.Float64),
            pl.col("games").cast(pl.Int64),
            pl.col("reached").cast(pl.Boolean).fill_null(False),
        )
    )
    index = (
        pl.concat([prior_state.get_column("player_id"), participants.get_column("player_id")])
        .unique(maintain_order=True)
        .to_frame()
        .with_row_index("_i")
        .with_columns(pl.col("_i").cast(pl.Int64))
    )
    rating = np.zeros(index.height, dtype=np.float64)
    games_played = np.zeros(index.height, dtype=np.int64)
    known = np.zeros(index.height, dtype=bool)
    reached = np.zeros(index.height, dtype=bool)
    carried = prior_state.join(index, on="player_id", how="inner")
    at = carried.get_column("_i").to_numpy()
    rating[at] = carried.get_column("rating").to_numpy()
    games_played[at] = carried.get_column("games").to_numpy()
    known[at] = True
    reached[at] = carried.get_column("reached").to_numpy()

    rules = params.k
    player = participants.join(index, on="player_id", how="left", maintain_order="left")
    player_index = player.get_column("_i").to_numpy()
    start_rating = (
        participants.get_column("elo")
        .cast(pl.Float64)
        .fill_null(float(params.initial_rating))
        .to_numpy()
    )
    start_games = participants.get_column("elo_games").cast(pl.Int64).fill_null(0).to_numpy()
    junior = (
        participants.select(
            (pl.col("_year") - pl.col("_birth") <= rules.junior_age).fill_null(False)
        )
        .to_series()
        .to_numpy()
    )
    listed_high = (
        participants.select((pl.col("_high") < pl.col("start")).fill_null(False))
        .to_series()
        .to_numpy()
    )
    side_t = indexed.get_column("_t").to_numpy()
    side_p = indexed.get_column("_p").to_numpy()
    side_o = indexed.get_column("_o").to_numpy()
    side_s = indexed.get_column("s").cast(pl.Float64).to_numpy()
    t = participants.get_column("_t").to_numpy()
    played = np.unique(t)
    bounds = np.searchsorted(t, np.append(played, played[-1] + 1)).tolist()
    side_bounds = np.searchsorted(side_t, np.append(played, played[-1] + 1)).tolist()

    columns = ("rating_before", "k", "score", "expected", "delta", "rating_after")
    out = {c: np.empty(t.size, dtype=np.float64) for c in columns}
    games_before_out = np.empty(t.size, dtype=np.int64)
    games_out = np.empty(t.size, dtype=np.int64)
    for j in range(played.size):
        lo, hi = bounds[j], bounds[j + 1]
        p = player_index[lo:hi]
        was_known = known[p]
        before = np.where(was_known, rating[p], start_rating[lo:hi])
        games_before = np.where(was_known, games_played[p], start_games[lo:hi])
        reached[p] |= (~was_known & (before >= rules.high_threshold)) | listed_high[lo:hi]
        k = k_factors(before, games_before, junior[lo:hi], reached[p], rules)
        slo, shi = side_bounds[j], side_bounds[j + 1]
        n_games, score, expected, delta = _rate(
            side_p[slo:shi], side_o[slo:shi], side_s[slo:shi], before, k, params
        )
        after = before + delta
        rating[p] = after
        games_played[p] = games_before + n_games
        known[p] = True
        reached[p] |= after >= rules.high_threshold
        for name, values in zip(columns, (before, k, score, expected, delta, after), strict=True):
            out[name][lo:hi] = values
        games_before_out[lo:hi] = games_before
        games_out[lo:hi] = n_games
    return ELO_HISTORY.check(
        participants.select(
            "season",
            "tournament_id",
            "player_id",
            pl.Series("rating_before", out["rating_before"], dtype=pl.Float64),
            pl.Series("games_before", games_before_out, dtype=pl.Int64),
            pl.Series("k", out["k"], dtype=pl.Float64),
            pl.Series("games", games_out, dtype=pl.Int64),
            *[pl.Series(c, out[c], dtype=pl.Float64) for c in columns[2:]],
        )
    )


def _rate(
    p: np.ndarray,
    o: np.ndarray,
    s: np.ndarray,
    rating: np.ndarray,
    k: np.ndarray,
    params: EloParams,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`rate_tournament` on arrays: each side's player `p` and opponent `o` (indices into
    `rating` and `k`) and score `s`."""
    diff = rating[p] - rating[o]
    if params.cap_difference is not None:
        diff = np.clip(diff, -params.cap_difference, params.cap_difference)
    e = np.asarray(expected_score(diff, params.curve), dtype=np.float64)
    n = len(rating)
    games = np.bincount(p, minlength=n)
    score = np.bincount(p, weights=s, minlength=n)
    expected = np.bincount(p, weights=e, minlength=n)
    delta = k * (score - expected)
    if params.round_change:
        delta = round_half_away_array(delta)
    return games, score, expected, delta


def elo_change(
    rating: float,
    opponent: float,
    result: Literal["win", "draw", "loss"],
    k: float,
    curve: EloCurve,
    cap_difference: float | None = None,
) -> tuple[float, float]:
    """The calculator of [003]: (expected score, exact change) for one game."""
    score = {"win": 1.0, "draw": 0.5, "loss": 0.0}[result]
    diff = rating - opponent
    if cap_difference is not None:
        diff = max(-cap_difference, min(cap_difference, diff))
    e = expected_score(diff, curve)
    return e, k * (score - e)


def curve_for(kind: str, presets: Sequence[EloParams]) -> EloCurve:
    """The curve of the first preset of that kind (for a default scale)."""
    for preset in presets:
        if preset.curve.kind == kind:
            return preset.curve
    raise ValueError(f"no Elo preset uses the curve {kind!r}")


def last_elo(history: pl.DataFrame, params: EloParams) -> pl.DataFrame:
    """`player_id, rating, games, reached`: each player's state after their last tournament
    of `history` (rows in event order, as `elo_history` writes them): Elo, rated games, and
    whether `high_threshold` was reached before or after any of their tournaments."""
    threshold = params.k.high_threshold
    return history.group_by("player_id", maintain_order=True).agg(
        pl.col("rating_after").last().alias("rating"),
        (pl.col("games_before").last() + pl.col("games").last()).alias("games"),
        ((pl.col("rating_before") >= threshold) | (pl.col("rating_after") >= threshold))
        .any()
        .alias("reached"),
    )
