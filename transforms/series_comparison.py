"""Our end-of-season series classification against the one the FFSc publishes.

The French federation's national ranking (`published_series`, one list per `as_of`) gives
each player's series held (`series`, « serie ») and the series it assigns for the next
season (`potential_series`, « serie_potentielle »). A list closes the season containing its
`as_of` (by the season calendar); it is compared with our `series_classification` of that
season, which is also the series for the next season.

Series labels are read by `transforms.series_labels` (`Série 5 A` → level `5`, sub-series
`A`); a label that is no series has no level and agrees with nothing. Our label is `SS`
for a super-série player, else the series; the sub-series letter is appended only when we
have one *and* the published label carries one, so `5` is compared with `5` and `5A`
with `5A`. `agrees`: the levels are equal and, when both sides
state a sub-series, the sub-series too. `difference`: computed minus published in series
steps (SS = 0, series n = n; sub-series ignored): positive when we classify the player in a
lower (weaker) series than the federation, negative when higher.

Players of a published list that we do not classify, and French players (federation key
`FRA` through the federations alias table, `transforms.series.federation_key_expr`) we
classify but the list omits, are kept, with nulls on the missing side and `agrees = false`.

Each label (and our federation) is read once per distinct value (`transforms.distinct.
per_distinct`: a few dozen labels over a season's players), the same values as the
expressions on every row: measured on the last season of the issue 25 bench (20,000
players, 14,495 rows compared), the comparison 0,29–0,43 -> 0,10–0,13 CPU-s, same table.
"""

from __future__ import annotations

import polars as pl

from transforms.calendar import SeasonCalendar
from transforms.distinct import per_distinct
from transforms.federations import AliasTable
from transforms.series import DEFAULT_FEDERATION, federation_key_expr
from transforms.series_labels import (
    SERIES_ORDER,
    SUPER_SERIE,
    normalised_label,
    series_level,
    series_step,
    series_sub,
)
from transforms.tables import table

FRENCH_FEDERATION = "FRA"

COMPARISON = table("series_comparison")
SUMMARY_COLUMNS: dict[str, pl.DataType] = {
    "scope": pl.String(),
    "series": pl.String(),
    "players": pl.Int64(),
    "agreements": pl.Int64(),
    "rate": pl.Float64(),
}


def _as_date(frame: pl.DataFrame) -> pl.Expr:
    if frame.schema["as_of"] == pl.String:
        return pl.col("as_of").str.to_date("%Y-%m-%d")
    return pl.col("as_of").cast(pl.Date)


def compare_series(
    published: pl.DataFrame,
    classification: pl.DataFrame,
    federations: AliasTable,
    known_federations: set[str],
    *,
    calendar: SeasonCalendar,
    names: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Per published list and player, the published and computed series (`series_comparison`).

    `published`: `published_series` rows (`as_of, player_id, last_name, first_name, place,
    series, potential_series`). `classification`: `series_classification` rows (`season,
    player_id, series, subseries, super_serie, federation`) of the seasons the lists close
    (others are ignored). `federations`, `known_federations`: the federations alias table
    and the quota federations, to find the French players. `names` (`player_id,
    last_name, first_name`) fills the names of players the list omits. Sorted by `as_of`,
    published place (unlisted players last), licence.
    """
    if published.height == 0:
        return COMPARISON.empty()
    pub = (
        published.select(
            _as_date(published).alias("as_of"),
            pl.col("player_id").cast(pl.String),
            pl.col("last_name").cast(pl.String),
            pl.col("first_name").cast(pl.String),
            pl.col("place").cast(pl.Int64, strict=False),
            pl.col("series").cast(pl.String).alias("_pub_held"),
            pl.col("potential_series").cast(pl.String).alias("_pub"),
        )
        .with_columns(calendar.season_expr(pl.col("as_of")).alias("season"))
        .unique(["as_of", "player_id"], keep="first", maintain_order=True)
    )
    # each label and federation read once per distinct value (a few dozen over the
    # season's players), the same values as the expressions on every row
    ours = classification.select(
        pl.col("season").cast(pl.String),
        pl.col("player_id").cast(pl.String),
        pl.when(pl.col("super_serie").fill_null(False))
        .then(pl.lit(SUPER_SERIE))
        .otherwise(per_distinct(classification, "series", series_level, pl.String))
        .alias("_ours_level"),
        per_distinct(classification, "subseries", series_sub, pl.String).alias("_ours_sub"),
        per_distinct(
            classification,
            "federation",
            lambda f: federation_key_expr(f, federations, known_federations),
            pl.String,
        )
        .fill_null(DEFAULT_FEDERATION)
        .alias("_fed"),
    ).unique(["season", "player_id"], keep="first", maintain_order=True)
    lists = pub.select("season", "as_of").unique()
    listed = pub.join(ours.drop("_fed"), on=["season", "player_id"], how="left")
    unlisted = (
        lists.join(ours.filter(pl.col("_fed") == FRENCH_FEDERATION), on="season")
        .join(pub.select("as_of", "player_id"), on=["as_of", "player_id"], how="anti")
        .drop("_fed")
    )
    if names is not None:
        unlisted = unlisted.join(
            names.select(
                pl.col("player_id").cast(pl.String),
                pl.col("last_name").cast(pl.String),
                pl.col("first_name").cast(pl.String),
            ).unique("player_id", keep="first"),
            on="player_id",
            how="left",
        )
    rows = pl.concat([listed, unlisted], how="diagonal")
    pub_level = per_distinct(rows, "_pub", series_level, pl.String)
    pub_sub = per_distinct(rows, "_pub", series_sub, pl.String)
    ours_level, ours_sub = pl.col("_ours_level"), pl.col("_ours_sub")
    both_subs = pub_sub.is_not_null() & ours_sub.is_not_null()
    agrees = (
        pub_level.is_not_null()
        & ours_level.is_not_null()
        & (pub_level == ours_level)
        & (~both_subs | (pub_sub == ours_sub))
    ).fill_null(False)
    return (
        rows.with_columns(
            per_distinct(rows, "_pub_held", normalised_label, pl.String).alias("published_series"),
            per_distinct(rows, "_pub", normalised_label, pl.String).alias(
                "published_potential_series"
            ),
            pl.when(both_subs)
            .then(pl.concat_str([ours_level, ours_sub]))
            .otherwise(ours_level)
            .alias("computed_series"),
            agrees.alias("agrees"),
            (series_step(ours_level) - series_step(pub_level)).alias("difference"),
        )
        .select([pl.col(c).cast(t) for c, t in COMPARISON.schema.items()])
        .sort(["as_of", "place", "player_id"], nulls_last=True)
        .pipe(COMPARISON.check)
    )


def _level_order(column: str) -> pl.Expr:
    return series_step(pl.col(column)).fill_null(len(SERIES_ORDER))


def agreement_summary(comparison: pl.DataFrame) -> pl.DataFrame:
    """Agreements per published potential series (its level: `5A` and `5B` count as `5`)
    and overall (`SUMMARY_COLUMNS`).

    Rows of scope `series`, in series order: `series` = the published level, null for the
    players the list omits (or whose label is unreadable); then one row of scope `overall`
    (`series` null) over every row. `rate` = agreements / players.
    """
    frame = comparison.select(
        series_level(pl.col("published_potential_series")).alias("series"), "agrees"
    )
    per_series = (
        frame.group_by("series")
        .agg(pl.len().cast(pl.Int64).alias("players"), pl.col("agrees").sum().alias("agreements"))
        .with_columns(pl.lit("series").alias("scope"))
        .sort(_level_order("series"))
    )
    overall = frame.select(
        pl.lit("overall").alias("scope"),
        pl.lit(None, dtype=pl.String).alias("series"),
        pl.len().cast(pl.Int64).alias("players"),
        pl.col("agrees").sum().alias("agreements"),
    )
    return (
        pl.concat([per_series, overall], how="diagonal")
        .with_columns(
            pl.col("agreements").fill_null(0).cast(pl.Int64),
            pl.col("players").cast(pl.Int64),
        )
        .with_columns(
            pl.when(pl.col("players") > 0)
            .then(pl.col("agreements") / pl.col("players"))
            .alias("rate")
        )
        .select([pl.col(c).cast(t) for c, t in SUMMARY_COLUMNS.items()])
    )


def confusion_matrix(comparison: pl.DataFrame) -> pl.DataFrame:
    """`published, computed, players`: players per published potential level × computed
    level (null = absent from that side), in series order."""
    return (
        comparison.select(
            series_level(pl.col("published_potential_series")).alias("published"),
            series_level(pl.col("computed_series")).alias("computed"),
        )
        .group_by("published", "computed")
        .agg(pl.len().cast(pl.Int64).alias("players"))
        .sort(_level_order("published"), _level_order("computed"))
    )
