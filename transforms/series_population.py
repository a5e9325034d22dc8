"""Who the duplicate series classify, and what each player holds (docs/rules.md §3).

Pure functions over the warehouse's base tables, one season at a time:

- `season_series`: the series a player holds during a season when an event's results write
  none — the project's classification of the previous season, else the latest rating list
  dated up to the season's end that gives one;
- `series_held`: the series each player held in the season, for the movements — the last
  one written or found for them in the season's events, else `season_series`;
- `new_licensees`: players whose first tournament falls in the season and who have no
  duplicate result in it (series 7, counted in N);
- `player_federations`: a player's federation — `players.federation`, else the one on
  their latest duplicate result of the season.
"""

from __future__ import annotations

import datetime as dt

import polars as pl

from transforms.calendar import ordered_events
from transforms.series import season_series_from_classification

SEASON_SERIES_SCHEMA = {"season": pl.String, "player_id": pl.String, "series": pl.String}


def season_series(
    season: str,
    previous_classification: pl.DataFrame,
    rating_lists: pl.DataFrame,
    season_end: dt.date,
) -> pl.DataFrame:
    """`season, player_id, series` held during `season`: the previous season's
    classification (`series_classification` rows), else the latest rating list with a
    series dated up to `season_end`."""
    computed = (
        season_series_from_classification(previous_classification)
        if previous_classification.height
        else pl.DataFrame(schema=SEASON_SERIES_SCHEMA)
    )
    listed = (
        rating_lists.filter(pl.col("series").is_not_null() & (pl.col("as_of") <= season_end))
        .sort("as_of", "player_id", maintain_order=True)
        .group_by("player_id", maintain_order=True)
        .agg(pl.col("series").last())
        .select(pl.lit(season).alias("season"), "player_id", pl.col("series").cast(pl.String))
    )
    return pl.concat([computed.select(list(SEASON_SERIES_SCHEMA)), listed]).unique(
        ["season", "player_id"], keep="first", maintain_order=True
    )


def series_held(
    scores: pl.DataFrame, events: pl.DataFrame, held_by_season: pl.DataFrame
) -> pl.DataFrame:
    """`player_id, series` held in the season: the series of each player's last event
    that did not default it (`duplicate_event_scores.series_source`), else `held_by_season`
    (`season_series`)."""
    order = ordered_events(events).select("tournament_id").with_row_index("_order")
    in_events = (
        scores.filter(pl.col("series_source") != "default")
        .join(order, on="tournament_id")
        .sort("_order")
        .group_by("player_id")
        .agg(pl.col("series").last())
    )
    return pl.concat([in_events, held_by_season.select("player_id", "series")]).unique(
        "player_id", keep="first", maintain_order=True
    )


def new_licensees(
    players: pl.DataFrame,
    duplicate_results: pl.DataFrame,
    season_start: dt.date,
    season_end: dt.date,
) -> pl.DataFrame:
    """`player_id, federation` of the season's new licensees: first tournament in the
    season and no result in `duplicate_results` (the season's duplicate results)."""
    return (
        players.filter(pl.col("first_tournament_date").is_between(season_start, season_end))
        .join(duplicate_results.select("player_id"), on="player_id", how="anti")
        .select("player_id", "federation")
    )


def player_federations(players: pl.DataFrame, duplicate_results: pl.DataFrame) -> pl.DataFrame:
    """`player_id, federation` of every player with a result in `duplicate_results` (rows
    with `player_id, federation, end_date`): `players.federation`, else the federation of
    their latest result (by end date) that states one."""
    latest = (
        duplicate_results.sort("end_date", maintain_order=True)
        .group_by("player_id", maintain_order=True)
        .agg(pl.col("federation").drop_nulls().last())
    )
    return latest.join(
        players.select("player_id", pl.col("federation").alias("_listed")),
        on="player_id",
        how="left",
    ).select("player_id", pl.coalesce("_listed", "federation").alias("federation"))
