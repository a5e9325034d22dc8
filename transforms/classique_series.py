"""Published rankings of the cote and of Elo, and the classique series (docs/rules.md §1).

Pure transforms over `cote_history` / `elo_history` and `tournaments`.

Decisions taken here:

- **Activity**: a player is active on date D when they played a rated tournament whose
  end date lies in (D − `activity_years` years, D]; on D = 31 August that is exactly the
  last two seasons. (29 February minus whole years is 28 February.) The ranking lists
  active players only; an inactive player keeps their value for a later ranking.
- **Value**: the cote (rating) after the player's last tournament ending on or before D.
  Rank: decreasing value, tied players share the best rank (§0).
- `tournaments` (cote ranking) and `games` (Elo ranking) count what the player has played
  in the pass up to D (rated games only; the games of a starting rating list are not
  counted).
- **Classique series bars**: computed from the active players of a cote ranking. With N
  active players sorted by decreasing cote, the boundary of each series but the last is
  `round(cumulative share × N)` (half away from zero), at least 1 and at most N; the bar
  is the cote of the player at that boundary, rounded to the nearest `bar_step` (half away
  from zero). A player belongs to the best series whose bar their cote reaches; the last
  series (C) has no bar. The end-of-season ranking of season S (as of its last day) gives
  the bars set on the following 1 September (`set_on`), and its `classique_series` column
  shows the series those bars give. The Elo ranking shows each player's classique series
  from the cote ranking of the same date (null for a player without cote).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from transforms.calendar import SeasonCalendar
from transforms.ranking import competition_rank_expr
from transforms.rounding import round_half_away, round_to_step
from transforms.tables import table

COTE_RANKING = table("cote_ranking")
ELO_RANKING = table("elo_ranking")
BARS = table("classique_series_bars")


@dataclass(frozen=True)
class RankingParams:
    """Activity window and classique series shares (best first) with the bar rounding."""

    activity_years: int
    series_shares: tuple[tuple[str, float], ...]  # e.g. (("Joker", .05), ("A", .10), …)
    bar_step: int
    calendar: SeasonCalendar


def years_before(date: dt.date, years: int) -> dt.date:
    """The same calendar day `years` earlier (29 February becomes 28 February)."""
    try:
        return date.replace(year=date.year - years)
    except ValueError:
        return date.replace(year=date.year - years, day=28)


def series_bars(
    values: Sequence[float] | np.ndarray, params: RankingParams
) -> list[tuple[str, int]]:
    """Bars (series, minimum value) of every series but the last, from active players' values."""
    v = np.sort(np.asarray(values, dtype=np.float64))[::-1]
    n = len(v)
    if n == 0:
        return []
    bars: list[tuple[str, int]] = []
    cumulative = 0.0
    for name, share in params.series_shares[:-1]:
        cumulative += share
        boundary = round_half_away(cumulative * n)
        boundary = min(max(boundary, 1), n)
        bars.append((name, round_to_step(float(v[boundary - 1]), params.bar_step)))
    return bars


def series_expr(value: pl.Expr, bars: Sequence[tuple[str, int]], params: RankingParams) -> pl.Expr:
    """The classique series of each value under `bars` (null when there are no bars)."""
    if not bars:
        return pl.lit(None, dtype=pl.String)
    first_name, first_bar = bars[0]
    chain: Any = pl.when(value >= first_bar).then(pl.lit(first_name))
    for name, bar in bars[1:]:
        chain = chain.when(value >= bar).then(pl.lit(name))
    return chain.otherwise(pl.lit(params.series_shares[-1][0]))


def _standing(
    history: pl.DataFrame,
    tournaments: pl.DataFrame,
    as_of: dt.date,
    value_column: str,
    count_expr: pl.Expr,
    count_name: str,
    params: RankingParams,
) -> pl.DataFrame:
    dated = history.with_row_index("_order").join(
        tournaments.select("tournament_id", "end_date"), on="tournament_id", how="left"
    )
    window_start = years_before(as_of, params.activity_years)
    return (
        dated.filter(pl.col("end_date") <= as_of)
        .sort("_order")
        .group_by("player_id")
        .agg(
            pl.col(value_column).last().alias("value"),
            pl.col("end_date").max().alias("last_played"),
            count_expr.alias(count_name),
        )
        .filter(pl.col("last_played") > window_start)
        .with_columns(rank=competition_rank_expr(pl.col("value")))
        .sort("rank", "player_id")
    )


def cote_ranking(
    history: pl.DataFrame,
    tournaments: pl.DataFrame,
    as_of: dt.date,
    params: RankingParams,
    bars: Sequence[tuple[str, int]] | None = None,
) -> tuple[pl.DataFrame, list[tuple[str, int]]]:
    """The cote ranking of active players on `as_of`, and the series bars it used.

    Without `bars`, they are computed from this ranking (as on the next 1 September).
    """
    standing = _standing(
        history, tournaments, as_of, "cote_after", pl.len().cast(pl.Int64), "tournaments", params
    )
    if bars is None:
        bars = series_bars(standing["value"].to_numpy(), params)
    season = params.calendar.season_of(as_of)
    frame = standing.select(
        pl.lit(season).alias("season"),
        pl.lit(as_of).alias("as_of"),
        "player_id",
        "rank",
        pl.col("value").cast(pl.Int64),
        series_expr(pl.col("value"), bars, params).alias("classique_series"),
        "tournaments",
    )
    return COTE_RANKING.check(frame.cast(COTE_RANKING.schema)), list(bars)


def bars_frame(season: str, bars: Sequence[tuple[str, int]], params: RankingParams) -> pl.DataFrame:
    """The `classique_series_bars` rows of the bars set at the end of `season` (they apply
    from the next day)."""
    set_on = params.calendar.end(season) + dt.timedelta(days=1)
    rows = [{"season": season, "set_on": set_on, "series": n, "bar": b} for n, b in bars]
    frame = pl.DataFrame(rows, schema=BARS.schema, orient="row") if rows else BARS.empty()
    return BARS.check(frame.sort("bar", descending=True))


def elo_ranking(
    history: pl.DataFrame,
    tournaments: pl.DataFrame,
    as_of: dt.date,
    params: RankingParams,
    series: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """The Elo ranking of active players on `as_of`; `series` maps player_id to their
    classique_series (from the cote ranking of the same date)."""
    standing = _standing(
        history,
        tournaments,
        as_of,
        "rating_after",
        pl.col("games").sum().cast(pl.Int64),
        "games",
        params,
    )
    if series is None:
        standing = standing.with_columns(classique_series=pl.lit(None, dtype=pl.String))
    else:
        standing = standing.join(
            series.select("player_id", "classique_series"), on="player_id", how="left"
        )
    season = params.calendar.season_of(as_of)
    frame = standing.sort("rank", "player_id").select(
        pl.lit(season).alias("season"),
        pl.lit(as_of).alias("as_of"),
        "player_id",
        "rank",
        pl.col("value").cast(pl.Float64),
        "classique_series",
        "games",
    )
    return ELO_RANKING.check(frame.cast(ELO_RANKING.schema))


def ranking_seasons(
    tournaments: pl.DataFrame, disciplines: Sequence[str], params: RankingParams
) -> list[str]:
    """Every season from the first to the last one holding a rated tournament."""
    ends = tournaments.filter(pl.col("discipline").is_in(list(disciplines)))[
        "end_date"
    ].drop_nulls()
    if ends.len() == 0:
        return []
    return params.calendar.seasons_spanning(ends.min(), ends.max())  # type: ignore[arg-type]


def season_cote_rankings(
    history: pl.DataFrame,
    tournaments: pl.DataFrame,
    params: RankingParams,
    disciplines: Sequence[str] = ("classique",),
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """End-of-season cote rankings and the classique series bars they set, for every
    season from the first to the last one holding a rated tournament."""
    rankings: list[pl.DataFrame] = []
    bars: list[pl.DataFrame] = []
    for season in ranking_seasons(tournaments, disciplines, params):
        frame, season_bars = cote_ranking(history, tournaments, params.calendar.end(season), params)
        rankings.append(frame)
        bars.append(bars_frame(season, season_bars, params))
    if not rankings:
        return COTE_RANKING.empty(), BARS.empty()
    return pl.concat(rankings), pl.concat(bars)
