"""What-if comparisons (docs/rules.md §9): the tables of one season computed under other
parameters, against the same tables the warehouse holds. Pure: frames in, frames out.

Each function compares a "before" frame (the warehouse's) with an "after" frame (computed
with the changed parameters) and returns the rows that differ, sorted, with both values and
what decided them:

- duplicate series: who changes series, sub-series or super-série, and whether their own
  criteria changed (`values_changed`) or they moved only because the bars did (quotas);
- national series, access bars (series, national, classique);
- the cote and Elo: end values, ranks, and for the cote the *chain*: each player whose
  cote history differs is affected directly (their starting cote changed, or the rules of a
  tournament did) or only through a tournament shared with players already affected.

Values within `TOLERANCE` are equal (weighted means are floats).
"""

from __future__ import annotations

import polars as pl

from transforms.calendar import ordered_events
from transforms.series import SeriesParams, event_coefficients
from transforms.series_labels import SERIES_ORDER, SUPER_SERIE, series_step

TOLERANCE = 1e-9
CRITERIA = ("pct_n1", "pct_n2", "pct_n3", "pct_n4", "pc", "super_serie_pct")
COTE_COLUMNS = ("cote_before", "pe", "bonus", "pj", "cote_after")

# Why a player's cote history differs (`cote_chain`).
CHAIN_START = "start"  # their starting cote changed
CHAIN_RULES = "rules"  # their own cote was the same, the tournament's rules changed
CHAIN_SHARED = "shared"  # only through players of a tournament already affected


def _differ(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    """Two nullable numbers differ (beyond `TOLERANCE`, or one of them is missing)."""
    both = a.is_not_null() & b.is_not_null()
    gap = (a.cast(pl.Float64) - b.cast(pl.Float64)).abs()
    scale = pl.max_horizontal(a.cast(pl.Float64).abs(), pl.lit(1.0))
    return pl.when(both).then(gap > TOLERANCE * scale).otherwise(a.is_null() != b.is_null())


def _text_differ(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    return a.ne_missing(b)


def held_series_expr() -> pl.Expr:
    """The series a classification gives for the next season, super-série included."""
    return (
        pl.when(pl.col("super_serie"))
        .then(pl.lit(SUPER_SERIE))
        .otherwise(pl.col("series"))
        .alias("held")
    )


# --------------------------------------------------------------------------- series


def series_counts(before: pl.DataFrame, after: pl.DataFrame) -> pl.DataFrame:
    """`series, before, after`: players per series (super-série apart, `SS` … `7`) in two
    `series_classification` frames; every series listed, best first."""

    def count(frame: pl.DataFrame, name: str) -> pl.DataFrame:
        return frame.select(held_series_expr()).group_by("held").agg(pl.len().alias(name))

    frame = (
        pl.DataFrame({"held": list(SERIES_ORDER)})
        .join(count(before, "before"), on="held", how="left")
        .join(count(after, "after"), on="held", how="left")
    )
    return frame.select(
        pl.col("held").alias("series"),
        pl.col("before").fill_null(0).cast(pl.Int64),
        pl.col("after").fill_null(0).cast(pl.Int64),
    )


def series_transitions(before: pl.DataFrame, after: pl.DataFrame) -> pl.DataFrame:
    """`series_before, series_after, players`: how many players go from each series (super-
    série apart) before to each after, best first."""
    frame = before.select("player_id", held_series_expr().alias("series_before")).join(
        after.select("player_id", held_series_expr().alias("series_after")),
        on="player_id",
        how="full",
        coalesce=True,
    )
    return (
        frame.group_by("series_before", "series_after")
        .agg(pl.len().cast(pl.Int64).alias("players"))
        .sort(
            series_step(pl.col("series_before")),
            series_step(pl.col("series_after")),
            nulls_last=True,
        )
    )


def weight_sums(scores: pl.DataFrame, events: pl.DataFrame, params: SeriesParams) -> pl.DataFrame:
    """`player_id, weight`: the sum of a player's event weights (coefficients) in
    `duplicate_event_scores` rows — what the minimum divisor replaces when it is larger."""
    weights = event_coefficients(events, params)
    return (
        scores.select("tournament_id", "player_id")
        .join(weights, on="tournament_id", how="left")
        .group_by("player_id")
        .agg(pl.col("coefficient").fill_null(float(params.default_coefficient)).sum())
        .select("player_id", pl.col("coefficient").alias("weight"))
        .sort("player_id")
    )


def criterion_changes(before: pl.DataFrame, after: pl.DataFrame) -> pl.DataFrame:
    """The players whose season criteria (`series_standings`: %N1–%N4, PC, % super-série)
    differ: `player_id`, each criterion `_before` and `_after`, and `changed` (the names of
    the criteria that differ, `;`-joined), by player."""
    joined = before.select("player_id", *CRITERIA).join(
        after.select("player_id", *CRITERIA),
        on="player_id",
        how="full",
        coalesce=True,
        suffix="_after",
    )
    joined = joined.rename({c: f"{c}_before" for c in CRITERIA})
    flags = [
        pl.when(_differ(pl.col(f"{c}_before"), pl.col(f"{c}_after"))).then(pl.lit(c))
        for c in CRITERIA
    ]
    return (
        joined.with_columns(pl.concat_str(flags, separator=";", ignore_nulls=True).alias("changed"))
        .filter(pl.col("changed") != "")
        .sort("player_id")
    )


def series_changes(
    before: pl.DataFrame,
    after: pl.DataFrame,
    before_standings: pl.DataFrame,
    after_standings: pl.DataFrame,
) -> pl.DataFrame:
    """The players whose series, sub-series or super-série differ between two
    `series_classification` frames: `player_id, federation`, `series_`, `subseries_`,
    `super_serie_`, `criterion_`, `value_` and `super_serie_value_` each `before` and
    `after`; `series_changed`, `super_serie_changed`; `values_changed` (any of their criteria
    differs: `changed` of `criterion_changes`, else null — they moved through the bars and
    quotas alone). Sorted by the series after, then player."""
    columns = ["series", "subseries", "super_serie", "criterion", "value", "super_serie_value"]
    joined = before.select("player_id", "federation", *columns).join(
        after.select("player_id", "federation", *columns),
        on="player_id",
        how="full",
        coalesce=True,
        suffix="_after",
    )
    joined = joined.rename({c: f"{c}_before" for c in columns}).with_columns(
        pl.coalesce("federation", "federation_after").alias("federation")
    )
    series_changed = _text_differ(pl.col("series_before"), pl.col("series_after")) | _text_differ(
        pl.col("subseries_before"), pl.col("subseries_after")
    )
    super_changed = pl.col("super_serie_before").fill_null(False) != pl.col(
        "super_serie_after"
    ).fill_null(False)
    values = criterion_changes(before_standings, after_standings).select(
        "player_id", pl.col("changed").alias("values_changed")
    )
    return (
        joined.with_columns(
            series_changed.alias("series_changed"), super_changed.alias("super_serie_changed")
        )
        .filter(pl.col("series_changed") | pl.col("super_serie_changed"))
        .join(values, on="player_id", how="left")
        .drop("federation_after")
        .sort(
            series_step(
                pl.when(pl.col("super_serie_after"))
                .then(pl.lit(SUPER_SERIE))
                .otherwise(pl.col("series_after"))
            ),
            "player_id",
            nulls_last=True,
        )
    )


def bar_changes(
    before: pl.DataFrame, after: pl.DataFrame, keys: tuple[str, ...], values: tuple[str, ...]
) -> pl.DataFrame:
    """Two bars tables joined on `keys`: each of `values` `_before` and `_after`, and
    `changed` (any of them differs). Every row kept, in the order of `before` then the rows
    only `after` has."""
    left = before.select(*keys, *values).with_row_index("_order")
    right = after.select(*keys, *values).with_row_index("_order_after")
    joined = left.join(
        right, on=list(keys), how="full", coalesce=True, nulls_equal=True, suffix="_after"
    )
    joined = joined.rename({v: f"{v}_before" for v in values})
    changed = pl.lit(False)
    for v in values:
        a, b = pl.col(f"{v}_before"), pl.col(f"{v}_after")
        numeric = before.schema[v].is_numeric() if v in before.schema else False
        changed = changed | (_differ(a, b) if numeric else _text_differ(a, b))
    return (
        joined.with_columns(changed.alias("changed"))
        .sort("_order", "_order_after", nulls_last=True)
        .drop("_order", "_order_after")
    )


def national_changes(before: pl.DataFrame, after: pl.DataFrame) -> pl.DataFrame:
    """The licensees whose national series, sub-series or reason differ between two
    `national_classification` frames: `federation, player_id` and `rule`, `value`,
    `series`, `subseries`, `reason` each `_before` and `_after`, by federation and player."""
    columns = ["rule", "value", "series", "subseries", "reason"]
    joined = before.select("federation", "player_id", *columns).join(
        after.select("federation", "player_id", *columns),
        on=["federation", "player_id"],
        how="full",
        coalesce=True,
        suffix="_after",
    )
    joined = joined.rename({c: f"{c}_before" for c in columns})
    differs = pl.lit(False)
    for c in ("series", "subseries", "reason"):
        differs = differs | _text_differ(pl.col(f"{c}_before"), pl.col(f"{c}_after"))
    return joined.filter(differs).sort("federation", "player_id")


# --------------------------------------------------------------------------- ratings


def final_values(history: pl.DataFrame, order: pl.DataFrame, column: str) -> pl.DataFrame:
    """`player_id, value`: each player's `column` after their last tournament of `history`,
    in event order (`order`: the tournaments with their dates)."""
    ranked = ordered_events(order.select("tournament_id", "start_date", "end_date")).with_row_index(
        "_event"
    )
    return (
        history.join(ranked.select("tournament_id", "_event"), on="tournament_id", how="left")
        .sort("_event", "player_id")
        .group_by("player_id", maintain_order=True)
        .agg(pl.col(column).last().alias("value"))
        .sort("player_id")
    )


def value_changes(before: pl.DataFrame, after: pl.DataFrame) -> pl.DataFrame:
    """`player_id, before, after, change` for the players whose value (`final_values`)
    differs, largest change first (then player)."""
    joined = before.rename({"value": "before"}).join(
        after.rename({"value": "after"}), on="player_id", how="full", coalesce=True
    )
    return (
        joined.filter(_differ(pl.col("before"), pl.col("after")))
        .with_columns(
            (pl.col("after").cast(pl.Float64) - pl.col("before").cast(pl.Float64)).alias("change")
        )
        .sort(pl.col("change").abs(), "player_id", descending=[True, False], nulls_last=True)
    )


def rank_changes(before: pl.DataFrame, after: pl.DataFrame) -> pl.DataFrame:
    """The players whose rank, value or classique series differ between two rankings
    (`cote_ranking`, `elo_ranking`): `player_id` and `rank`, `value`, `classique_series`
    each `_before` and `_after`; `rank_changed`, `series_changed`. By rank after."""
    columns = ["rank", "value", "classique_series"]
    joined = before.select("player_id", *columns).join(
        after.select("player_id", *columns),
        on="player_id",
        how="full",
        coalesce=True,
        suffix="_after",
    )
    joined = joined.rename({c: f"{c}_before" for c in columns})
    rank_changed = pl.col("rank_before").ne_missing(pl.col("rank_after"))
    series_changed = _text_differ(
        pl.col("classique_series_before"), pl.col("classique_series_after")
    )
    value_changed = _differ(pl.col("value_before"), pl.col("value_after"))
    return (
        joined.with_columns(
            rank_changed.alias("rank_changed"), series_changed.alias("series_changed")
        )
        .filter(rank_changed | series_changed | value_changed)
        .sort("rank_after", "player_id", nulls_last=True)
    )


def cote_chain(before: pl.DataFrame, after: pl.DataFrame, order: pl.DataFrame) -> pl.DataFrame:
    """Why each player's cote history differs, from the first tournament where it does.

    `before`, `after`: `cote_history` rows (every season up to the one compared); `order`:
    the tournaments with their dates (event order of docs/rules.md §0). For every player
    with a row that differs (cote before, PE, B, PJ or cote after, or a row only one side
    has): `player_id`, `tournament_id` (the first such tournament), `cause` —
    `start` (their cote before it differs: their starting cote changed), `rules` (their cote
    before was the same and so were every other player's: the tournament's parameters
    changed), `shared` (their cote before was the same, other players' were not: they are
    affected only through that tournament) —, `start_before`, `start_after` (the cote they
    started it from), and `through` (for `shared`: the players of that tournament whose
    cote before differed, `;`-joined). By event, then player."""
    ranked = ordered_events(order.select("tournament_id", "start_date", "end_date")).with_row_index(
        "_event"
    )
    keys = ["tournament_id", "player_id"]
    joined = (
        before.select(*keys, *COTE_COLUMNS)
        .join(
            after.select(*keys, *COTE_COLUMNS),
            on=keys,
            how="full",
            coalesce=True,
            suffix="_after",
        )
        .rename({c: f"{c}_before" for c in COTE_COLUMNS})
        .join(ranked.select("tournament_id", "_event"), on="tournament_id", how="left")
    )
    differs = pl.lit(False)
    for c in COTE_COLUMNS:
        differs = differs | pl.col(f"{c}_before").ne_missing(pl.col(f"{c}_after"))
    joined = joined.with_columns(
        differs.alias("_differs"),
        pl.col("cote_before_before").ne_missing(pl.col("cote_before_after")).alias("_start"),
    )
    through = (
        joined.filter(pl.col("_start"))
        .group_by("tournament_id")
        .agg(pl.col("player_id").sort().alias("_through"))
    )
    first = (
        joined.filter(pl.col("_differs"))
        .sort("_event", "player_id")
        .group_by("player_id", maintain_order=True)
        .first()
        .join(through, on="tournament_id", how="left")
    )
    others = pl.col("_through").list.set_difference(pl.concat_list(pl.col("player_id")))
    cause = (
        pl.when(pl.col("_start"))
        .then(pl.lit(CHAIN_START))
        .when(others.list.len().fill_null(0) > 0)
        .then(pl.lit(CHAIN_SHARED))
        .otherwise(pl.lit(CHAIN_RULES))
    )
    return (
        first.select(
            "player_id",
            "tournament_id",
            cause.alias("cause"),
            pl.col("cote_before_before").alias("start_before"),
            pl.col("cote_before_after").alias("start_after"),
            pl.when(~pl.col("_start")).then(others.list.join(";")).alias("through"),
            "_event",
        )
        .sort("_event", "player_id")
        .drop("_event")
    )
