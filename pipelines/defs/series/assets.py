"""Duplicate series assets (docs/rules.md §3), partitioned by season.

Seasons must be built in order: a season reads the previous season's `series_standings`
(the 1/4 part of the super-série value) and `series_classification` (the series players
hold when an event's results write none). Each asset reads its inputs, calls the
transforms of `transforms.series` and `transforms.series_population`, and replaces only
its season's rows.
"""

# No `from __future__ import annotations`: Dagster inspects the `context` annotation.
from collections.abc import Iterator

import dagster as dg
import polars as pl

from pipelines.partitions import season_partitions
from pipelines.reference.federations import load_federations
from pipelines.reference.seasons import load_calendar
from pipelines.reference.series import load_series_params, load_series_quotas
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.season_inputs import (
    held_series,
    season_results,
    season_rows,
    season_tournaments,
)
from pipelines.tables import table_metadata, table_spec
from pipelines.warehouse import Warehouse
from transforms.calendar import previous_season
from transforms.series import classify_season, quota_check, season_standings
from transforms.series import duplicate_event_scores as compute_event_scores
from transforms.series_population import (
    new_licensees,
    player_federations,
    season_series,
    series_held,
)
from transforms.series_provisional import provisional_changes

GROUP = "series"
KINDS = {"duckdb", "polars"}
INPUTS = ["tournaments", "results", "players", "rating_lists"]
QUOTA_CHECK = "series_quotas_respected"
ZERO_CHECK = "no_series_holds_players_at_0"


def _events(wh: Warehouse, season: str) -> pl.DataFrame:
    return season_tournaments(wh, season, "duplicate")


def _results(wh: Warehouse, season: str) -> pl.DataFrame:
    return season_results(wh, season, "duplicate")


def _season_series(wh: Warehouse, season: str, warehouse: WarehouseResource) -> pl.DataFrame:
    return season_series(
        season,
        season_rows(wh, "series_classification", previous_season(season)),
        wh.table("rating_lists"),
        load_calendar(warehouse.reference).end(season),
    )


def _new_licensees(wh: Warehouse, season: str, warehouse: WarehouseResource) -> pl.DataFrame:
    start, end = load_calendar(warehouse.reference).bounds(season)
    return new_licensees(
        wh.table("players"), _results(wh, season), wh.table("rating_lists"), start, end
    )


@dg.asset(
    deps=INPUTS,
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    group_name=GROUP,
    kinds=KINDS,
    metadata=table_metadata("duplicate_event_scores"),
)
def duplicate_event_scores(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Per duplicate event and player: series held that day, published place, %N1–%N4 by
    the zone method with the zone bounds used, and classification points (PC)."""
    season = context.partition_key
    wh = warehouse.warehouse
    events = _events(wh, season)
    results = _results(wh, season)
    scores = compute_event_scores(results, events, held_series(wh, season, results))
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
    metadata=table_metadata("series_standings"),
)
def series_standings(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Per season and player: weighted global %N1–%N4, season PC, super-série percentage
    (3/4 this season + 1/4 the previous season's, read from this table: build seasons in
    order)."""
    season = context.partition_key
    wh = warehouse.warehouse
    standings = season_standings(
        season_rows(wh, "duplicate_event_scores", season),
        _events(wh, season),
        load_series_params(warehouse.reference),
        federations=player_federations(wh.table("players"), _results(wh, season)),
        previous=season_rows(wh, "series_standings", previous_season(season)),
    )
    wh.replace_partition("series_standings", standings, "season", season)
    return dg.MaterializeResult(metadata={"players": standings.height})


@dg.multi_asset(
    specs=[
        table_spec(
            "series_classification",
            deps=["series_standings", "duplicate_event_scores", "players", "results"],
            kinds=KINDS,
        ),
        table_spec("series_bars", deps=["series_standings"], kinds=KINDS),
        table_spec(
            "series_movements", deps=["series_standings", "duplicate_event_scores"], kinds=KINDS
        ),
        table_spec(
            "series_provisional",
            deps=["duplicate_event_scores", "tournaments", "players"],
            kinds=KINDS,
        ),
    ],
    check_specs=[
        dg.AssetCheckSpec(
            QUOTA_CHECK,
            asset="series_classification",
            description="Each series holds its quota of N within one player, ties at a bar aside.",
            partitions_def=season_partitions,
        ),
        dg.AssetCheckSpec(
            ZERO_CHECK,
            asset="series_provisional",
            description="After every event of the season, no series 1–5 admits a player "
            "whose criterion is 0 (a bar is never 0, docs/rules.md §3).",
            partitions_def=season_partitions,
        ),
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
    standings = season_rows(wh, "series_standings", season)
    scores = season_rows(wh, "duplicate_event_scores", season)
    events = _events(wh, season)
    new = _new_licensees(wh, season, warehouse)
    held = series_held(scores, events, _season_series(wh, season, warehouse))

    result = classify_season(
        standings,
        new.with_columns(pl.lit(season).alias("season")),
        quotas,
        params,
        held,
        federations=load_federations(warehouse.reference),
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

    check = quota_check(classification, quotas, standings)
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
    yield _zero_check(provisional)


def _zero_check(provisional: pl.DataFrame) -> dg.AssetCheckResult:
    at_zero = provisional.filter(
        pl.col("series").is_in(["1", "2", "3", "4", "5"]) & (pl.col("value").fill_null(0) <= 0)
    )
    return dg.AssetCheckResult(
        check_name=ZERO_CHECK,
        asset_key="series_provisional",
        passed=at_zero.height == 0,
        metadata={
            "rows_at_0": at_zero.height,
            "first": ", ".join(
                f"{r['player_id']} en série {r['series']} après {r['after_tournament_id']}"
                for r in at_zero.head(5).iter_rows(named=True)
            )
            or "aucun",
        },
    )


def _markdown(frame: pl.DataFrame) -> str:
    header = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "---|" * len(frame.columns)
    rows = ["| " + " | ".join(str(v) for v in row) + " |" for row in frame.iter_rows()]
    return "\n".join([header, rule, *rows])
