"""Duplicate series assets (RULES §3), partitioned by season.

Seasons must be built in order: a season reads the previous season's `series_standings`
(the 1/4 part of the super-série value) and `series_classification` (the series players
hold when an event's results write none). Each asset replaces only its season's rows.

Rules decided here:
- a player's series in a season, when results write none: the project's classification of
  the previous season, else the latest rating list (as_of up to the season's end) that
  gives one, else series 7;
- new licensees of a season: players whose `first_tournament_date` falls in the season and
  who have no duplicate result in it (they make series 7 and count in N);
- a player's federation: `players.federation`, else the one on their latest result.
"""

# No `from __future__ import annotations`: Dagster inspects the `context` annotation.
from collections.abc import Iterator

import dagster as dg
import polars as pl

from pipelines.partitions import season_partitions
from pipelines.reference.series import load_season_start, load_series_params, load_series_quotas
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.warehouse import Warehouse
from transforms.seasons import season_bounds
from transforms.series import (
    classify_season,
    ordered_events,
    previous_season,
    provisional_changes,
    quota_check,
    season_series_from_classification,
    season_standings,
)
from transforms.series import (
    duplicate_event_scores as compute_event_scores,
)

GROUP = "series"
KINDS = {"duckdb", "polars"}
INPUTS = ["tournaments", "results", "players", "rating_lists"]
QUOTA_CHECK = "series_quotas_respected"


def _events(wh: Warehouse, season: str) -> pl.DataFrame:
    return wh.read(
        "SELECT * FROM tournaments WHERE season = ? AND discipline = 'duplicate'", [season]
    )


def _results(wh: Warehouse, season: str) -> pl.DataFrame:
    return wh.read(
        "SELECT r.tournament_id, r.player_id, r.rank, r.series, r.federation "
        "FROM results r JOIN tournaments t USING (tournament_id) "
        "WHERE t.season = ? AND t.discipline = 'duplicate'",
        [season],
    )


def _season_series(wh: Warehouse, season: str, warehouse: WarehouseResource) -> pl.DataFrame:
    """`season, player_id, series` held during the season: previous classification, else
    the latest rating list up to the season's end."""
    tables = set(wh.tables())
    empty = pl.DataFrame(schema={"season": pl.String, "player_id": pl.String, "series": pl.String})
    computed = empty
    if "series_classification" in tables:
        rows = wh.read(
            "SELECT * FROM series_classification WHERE season = ?", [previous_season(season)]
        )
        if rows.height:
            computed = season_series_from_classification(rows)
    listed = empty
    if "rating_lists" in tables:
        month, day = load_season_start(warehouse.reference)
        _, end = season_bounds(season, month, day)
        listed = wh.read(
            "SELECT ? AS season, player_id, arg_max(series, as_of) AS series "
            "FROM rating_lists WHERE series IS NOT NULL AND as_of <= ? GROUP BY player_id",
            [season, end],
        )
    return pl.concat([computed, listed.select(empty.columns).cast(pl.String)]).unique(
        ["season", "player_id"], keep="first", maintain_order=True
    )


def _federations(wh: Warehouse, season: str) -> pl.DataFrame:
    """`player_id, federation` of the season's players: players table, else latest result."""
    return wh.read(
        "WITH latest AS ("
        "  SELECT r.player_id, arg_max(r.federation, t.end_date) AS federation "
        "  FROM results r JOIN tournaments t USING (tournament_id) "
        "  WHERE t.season = ? AND t.discipline = 'duplicate' GROUP BY r.player_id) "
        "SELECT l.player_id, coalesce(p.federation, l.federation) AS federation "
        "FROM latest l LEFT JOIN players p USING (player_id)",
        [season],
    )


def _new_licensees(wh: Warehouse, season: str, warehouse: WarehouseResource) -> pl.DataFrame:
    """Players whose first tournament falls in the season, with no duplicate result in it."""
    month, day = load_season_start(warehouse.reference)
    start, end = season_bounds(season, month, day)
    return wh.read(
        "SELECT p.player_id, p.federation FROM players p "
        "WHERE p.first_tournament_date BETWEEN ? AND ? AND NOT EXISTS ("
        "  SELECT 1 FROM results r JOIN tournaments t USING (tournament_id) "
        "  WHERE r.player_id = p.player_id AND t.season = ? AND t.discipline = 'duplicate')",
        [start, end, season],
    )


def _previous_standings(wh: Warehouse, season: str) -> pl.DataFrame | None:
    if "series_standings" not in wh.tables():
        return None
    return wh.read(
        "SELECT player_id, super_serie_season FROM series_standings WHERE season = ?",
        [previous_season(season)],
    )


@dg.asset(
    deps=INPUTS,
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    group_name=GROUP,
    kinds=KINDS,
)
def duplicate_event_scores(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Per duplicate event and player: series held that day, published place, %N1–%N4 by
    the zone method with the zone bounds used, and classification points (PC)."""
    season = context.partition_key
    wh = warehouse.warehouse
    events = _events(wh, season)
    scores = compute_event_scores(
        _results(wh, season), events, _season_series(wh, season, warehouse)
    )
    wh.replace_partition("duplicate_event_scores", scores, "season", season)
    return dg.MaterializeResult(
        metadata={
            "rows": scores.height,
            "events": events.height,
            "series_defaulted": scores.filter(pl.col("series_source") == "default").height,
        }
    )


@dg.asset(
    deps=["duplicate_event_scores", "tournaments", "results", "players"],
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    group_name=GROUP,
    kinds=KINDS,
)
def series_standings(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Per season and player: weighted global %N1–%N4, season PC, super-série percentage
    (3/4 this season + 1/4 the previous season's, read from this table: build seasons in
    order)."""
    season = context.partition_key
    wh = warehouse.warehouse
    params = load_series_params(warehouse.reference)
    scores = wh.read("SELECT * FROM duplicate_event_scores WHERE season = ?", [season])
    standings = season_standings(
        scores,
        _events(wh, season),
        params,
        federations=_federations(wh, season),
        previous=_previous_standings(wh, season),
    )
    wh.replace_partition("series_standings", standings, "season", season)
    return dg.MaterializeResult(metadata={"players": standings.height})


@dg.multi_asset(
    specs=[
        dg.AssetSpec(
            "series_classification",
            deps=["series_standings", "duplicate_event_scores", "players", "results"],
            description="End-of-season series for the next season (barres d'accès cascade), "
            "sub-series and super-série.",
            group_name=GROUP,
            kinds=KINDS,
        ),
        dg.AssetSpec(
            "series_bars",
            deps=["series_standings"],
            description="Barres d'accès: value of the last admitted player per series and "
            "sub-series, with admitted counts and targets.",
            group_name=GROUP,
            kinds=KINDS,
        ),
        dg.AssetSpec(
            "series_movements",
            deps=["series_standings", "duplicate_event_scores"],
            description="Promoted, relegated, unchanged or new, per player.",
            group_name=GROUP,
            kinds=KINDS,
        ),
        dg.AssetSpec(
            "series_provisional",
            deps=["duplicate_event_scores", "tournaments", "players"],
            description="Provisional series after each event of the season, stored as "
            "changes: a player's row after an event only when their series or criterion value "
            "differs from their row after the previous event (or it is their first "
            "appearance; a null series = left the classification). The full classification "
            "after event E is each player's latest row up to E in RULES §0 event order: "
            "`transforms.series.provisional_as_of`.",
            group_name=GROUP,
            kinds=KINDS,
        ),
    ],
    check_specs=[
        dg.AssetCheckSpec(
            QUOTA_CHECK,
            asset="series_classification",
            description="Each series holds its quota of N within one player, ties at a bar aside.",
            partitions_def=season_partitions,
        )
    ],
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
)
def series_classification(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> Iterator[dg.MaterializeResult | dg.AssetCheckResult]:
    """End-of-season classification, bars, movements and provisional classification."""
    season = context.partition_key
    wh = warehouse.warehouse
    params = load_series_params(warehouse.reference)
    quotas = load_series_quotas(warehouse.reference)
    standings = wh.read("SELECT * FROM series_standings WHERE season = ?", [season])
    scores = wh.read("SELECT * FROM duplicate_event_scores WHERE season = ?", [season])
    events = _events(wh, season)
    new = _new_licensees(wh, season, warehouse)

    order = ordered_events(events).select("tournament_id").with_row_index("_order")
    held_in_events = (
        scores.filter(pl.col("series_source") != "default")
        .join(order, on="tournament_id")
        .sort("_order")
        .group_by("player_id")
        .agg(pl.col("series").last())
    )
    held = pl.concat(
        [held_in_events, _season_series(wh, season, warehouse).select("player_id", "series")]
    ).unique("player_id", keep="first", maintain_order=True)

    result = classify_season(
        standings, new.with_columns(pl.lit(season).alias("season")), quotas, params, held
    )
    classification = result.classification.with_columns(pl.lit(season).alias("season"))
    provisional = provisional_changes(scores, events, quotas, params, new)
    tables = {
        "series_classification": classification,
        "series_bars": result.bars.with_columns(pl.lit(season).alias("season")),
        "series_movements": result.movements.with_columns(pl.lit(season).alias("season")),
        "series_provisional": provisional,
    }
    for name, frame in tables.items():
        wh.replace_partition(name, frame, "season", season)
        yield dg.MaterializeResult(asset_key=name, metadata={"rows": frame.height})

    check = quota_check(classification, quotas)
    failing = check.filter(~pl.col("ok"))
    yield dg.AssetCheckResult(
        check_name=QUOTA_CHECK,
        asset_key="series_classification",
        passed=failing.height == 0,
        metadata={
            "population": classification.height,
            "series": dg.MetadataValue.md(_markdown(check)),
            "failing": failing.get_column("series").to_list(),
        },
    )


def _markdown(frame: pl.DataFrame) -> str:
    header = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "---|" * len(frame.columns)
    rows = ["| " + " | ".join(str(v) for v in row) + " |" for row in frame.iter_rows()]
    return "\n".join([header, rule, *rows])
