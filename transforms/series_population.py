"""Who the duplicate series classify, and what each player holds (docs/rules.md §3).

Pure functions over the warehouse's base tables:

- `event_series`: the series a player holds in an event (the duplicate zones and the
  starting cote both use it) — the one written on that event's results row, else last
  season's classification by this project, else the latest rating list dated on or before
  the event's start that gives one, else 7; `series_source` says which
  (`results`, `classification`, `rating_list`, `default`);
- `season_series`: the series a player holds during a season when no event says more —
  the previous season's classification, else the latest rating list dated up to the
  season's end;
- `series_held`: the series each player held in the season, for the movements — the one of
  their last event that did not default it, else `season_series`;
- `new_licensees`: the season's new licensees (series 7, counted in N);
- `player_federations`: a player's federation — `players.federation`, else the one on
  their latest duplicate result of the season.
"""

from __future__ import annotations

import datetime as dt

import polars as pl

from transforms.calendar import ordered_events
from transforms.series import season_series_from_classification
from transforms.series_labels import NEW_LICENSEE_SERIES, series_level_of

SEASON_SERIES_SCHEMA = {"season": pl.String, "player_id": pl.String, "series": pl.String}


def event_series(
    entries: pl.DataFrame, classifications: pl.DataFrame, rating_lists: pl.DataFrame
) -> pl.DataFrame:
    """`tournament_id, player_id, series, series_source` of every entry.

    `entries`: tournament_id, player_id, series (written on the row, nullable), season (of
    the event) and start (its start date, the end date when none is given).
    `classifications`: `series_classification` rows of earlier seasons (each one gives the
    series of the season after it). `rating_lists`: player_id, as_of, series.
    Written labels are read by `series_labels.series_level` (`4B` → `4`), each once.
    """
    held = (
        season_series_from_classification(classifications)
        .select("season", "player_id", pl.col("series").alias("_classified"))
        .unique(["season", "player_id"], keep="first")
        if classifications.height
        else pl.DataFrame(
            schema={"season": pl.String, "player_id": pl.String, "_classified": pl.String}
        )
    )
    # Only the lists an entry can take: its players', dated up to the last start.
    last_start = entries.get_column("start").cast(pl.Date).max()
    usable = pl.lit(False) if last_start is None else pl.col("as_of").cast(pl.Date) <= last_start
    lists = (
        rating_lists.filter(usable)
        .select(
            pl.col("player_id").cast(pl.String),
            pl.col("as_of").cast(pl.Date),
            series_level_of(rating_lists, "series").alias("_listed"),
        )
        .join(
            entries.select(pl.col("player_id").cast(pl.String)).unique(),
            on="player_id",
            how="semi",
        )
        .drop_nulls("_listed")
        .sort("as_of")
    )
    frame = (
        entries.select(
            "tournament_id",
            pl.col("player_id").cast(pl.String),
            series_level_of(entries, "series").alias("_written"),
            "season",
            pl.col("start").cast(pl.Date),
        )
        .with_row_index("_order")
        .join(held, on=["season", "player_id"], how="left")
        .sort("start")
        .join_asof(
            lists,
            left_on="start",
            right_on="as_of",
            by="player_id",
            strategy="backward",
            # both sorted by date, hence within each player (a list per player and date)
            check_sortedness=False,
        )
        .sort("_order")
    )
    source = (
        pl.when(pl.col("_written").is_not_null())
        .then(pl.lit("results"))
        .when(pl.col("_classified").is_not_null())
        .then(pl.lit("classification"))
        .when(pl.col("_listed").is_not_null())
        .then(pl.lit("rating_list"))
        .otherwise(pl.lit("default"))
    )
    return frame.select(
        "tournament_id",
        "player_id",
        pl.coalesce("_written", "_classified", "_listed", pl.lit(NEW_LICENSEE_SERIES)).alias(
            "series"
        ),
        source.alias("series_source"),
    )


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
    rating_lists: pl.DataFrame,
    season_start: dt.date,
    season_end: dt.date,
) -> pl.DataFrame:
    """`player_id, federation` of the season's new licensees (series 7, counted in N).

    A new licensee holds a duplicate licence for the first time this season: a rating
    list dated in the season lists them with series 7, no earlier list lists them, they
    played no tournament before the season, and they have no duplicate result in it (a
    new licensee who plays is classified by their results). A player with classique or
    DCDL results only, and no series, is no duplicate licensee: the cascade does not count
    them (docs/rules.md §3)."""
    dated = pl.col("as_of").cast(pl.Date)
    listed_new = (
        rating_lists.filter(
            dated.is_between(season_start, season_end)
            & (series_level_of(rating_lists, "series") == NEW_LICENSEE_SERIES)
        )
        .select(pl.col("player_id").cast(pl.String))
        .unique()
    )
    listed_before = rating_lists.filter(dated < season_start).select("player_id")
    played_before = players.filter(pl.col("first_tournament_date") < season_start).select(
        "player_id"
    )
    return (
        listed_new.join(listed_before, on="player_id", how="anti")
        .join(played_before, on="player_id", how="anti")
        .join(duplicate_results.select("player_id"), on="player_id", how="anti")
        .join(players.select("player_id", "federation"), on="player_id", how="left")
        .sort("player_id")
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
