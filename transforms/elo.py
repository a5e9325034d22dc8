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


def both_sides(games: pl.DataFrame) -> pl.DataFrame:
    """Every non-bye game from each player's side, once.

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


def _first_high_list(rating_lists: pl.DataFrame, threshold: float) -> dict[str, object]:
    """Per player, the date of the first rating list giving them an Elo ≥ `threshold`."""
    if "elo" not in rating_lists.columns or rating_lists.height == 0:
        return {}
    high = rating_lists.filter(pl.col("elo") >= threshold)
    return dict(high.group_by("player_id").agg(pl.col("as_of").cast(pl.Date).min()).iter_rows())


def _birth_years(results: pl.DataFrame) -> dict[str, int]:
    if "birth_year" not in results.columns:
        return {}
    known = results.select("player_id", "birth_year").drop_nulls("birth_year")
    return dict(known.group_by("player_id").agg(pl.col("birth_year").max()).iter_rows())


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
    sides = both_sides(games).join(ordered.select("tournament_id"), on="tournament_id", how="semi")
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
    sides = sides.with_columns(
        s=pl.when(pl.col("player_result").is_not_null())
        .then(pl.col("player_result"))
        .when(pl.col("player_score") > pl.col("opponent_score"))
        .then(1.0)
        .when(pl.col("player_score") == pl.col("opponent_score"))
        .then(0.5)
        .otherwise(0.0)
    )
    pairs = (
        sides.select("tournament_id", "player_id")
        .unique()
        .join(ordered.select("tournament_id", "start"), on="tournament_id")
    )
    listed = latest_list_value(pairs, rating_lists, ["elo", "elo_games"])
    starts = {
        (t, p): (e, g)
        for t, p, e, g in listed.select(
            "tournament_id", "player_id", "elo", "elo_games"
        ).iter_rows()
    }
    births = _birth_years(results)
    high_lists = _first_high_list(rating_lists, params.k.high_threshold)
    by_tournament = sides.partition_by("tournament_id", as_dict=True, include_key=True)

    rating_state: dict[str, float] = {}
    games_state: dict[str, int] = {}
    reached: set[str] = set()
    if prior is not None:
        for pid, rating, played, high in prior.select(
            "player_id", "rating", "games", "reached"
        ).iter_rows():
            rating_state[pid], games_state[pid] = float(rating), int(played)
            if high:
                reached.add(pid)
    frames: list[pl.DataFrame] = []
    for tournament in ordered.iter_rows(named=True):
        tid = tournament["tournament_id"]
        t_sides = by_tournament.get((tid,))
        if t_sides is None or t_sides.height == 0:
            continue
        ids = sorted(set(t_sides["player_id"].to_list()) | set(t_sides["opponent_id"].to_list()))
        before = np.empty(len(ids), dtype=np.float64)
        games_before = np.empty(len(ids), dtype=np.int64)
        for i, pid in enumerate(ids):
            if pid in rating_state:
                before[i], games_before[i] = rating_state[pid], games_state[pid]
            else:
                elo, elo_games = starts.get((tid, pid), (None, None))
                before[i] = params.initial_rating if elo is None else float(elo)
                games_before[i] = 0 if elo_games is None else int(elo_games)
                if before[i] >= params.k.high_threshold:
                    reached.add(pid)
            listed_high = high_lists.get(pid)
            if listed_high is not None and listed_high < tournament["start"]:
                reached.add(pid)
        year = tournament["end_date"].year
        junior = np.array(
            [pid in births and year - births[pid] <= params.k.junior_age for pid in ids], dtype=bool
        )
        high = np.array([pid in reached for pid in ids], dtype=bool)
        k = k_factors(before, games_before, junior, high, params.k)
        index = pl.DataFrame({"id": ids, "i": np.arange(len(ids), dtype=np.int64)})
        indexed = t_sides.join(index.rename({"id": "player_id", "i": "p"}), on="player_id").join(
            index.rename({"id": "opponent_id", "i": "o"}), on="opponent_id"
        )
        n_games, score, expected, delta = rate_tournament(indexed, before, k, params)
        after = before + delta
        for i, pid in enumerate(ids):
            rating_state[pid] = float(after[i])
            games_state[pid] = int(games_before[i] + n_games[i])
            if after[i] >= params.k.high_threshold:
                reached.add(pid)
        frames.append(
            pl.DataFrame(
                {
                    "season": [tournament.get("season")] * len(ids),
                    "tournament_id": [tid] * len(ids),
                    "player_id": ids,
                    "rating_before": before,
                    "games_before": pl.Series(games_before, dtype=pl.Int64),
                    "k": k,
                    "games": pl.Series(n_games, dtype=pl.Int64),
                    "score": score,
                    "expected": expected,
                    "delta": delta,
                    "rating_after": after,
                },
                schema=ELO_HISTORY.schema,
            )
        )
    if not frames:
        return ELO_HISTORY.empty()
    return ELO_HISTORY.check(pl.concat(frames, how="vertical"))


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
