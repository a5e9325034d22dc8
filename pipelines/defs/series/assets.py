"""Duplicate series assets (docs/rules.md §3), partitioned by season.

Seasons must be built in order: a season reads the previous season's `series_standings`
(the 1/4 part of the super-série value) and `series_classification` (the series players
hold when an event's results write none). Each asset computes its family of the season
plan (`pipelines.plan.season`: event scores, standings, classification) and replaces only
its season's rows.
"""

# No `from __future__ import annotations`: Dagster inspects the `context` annotation.
from collections.abc import Iterator

import dagster as dg
import polars as pl

from pipelines.defs.seasons.plan import season_family
from pipelines.partitions import season_partitions
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_metadata, table_spec
from transforms.series import quota_check

GROUP = "series"
KINDS = {"duckdb", "polars"}
INPUTS = ["tournaments", "results", "players", "rating_lists"]
QUOTA_CHECK = "series_quotas_respected"
ZERO_CHECK = "no_series_holds_players_at_0"


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
    tables, inputs = season_family(
        warehouse, context.partition_key, "event_scores", context.run.run_id
    )
    scores = tables["duplicate_event_scores"]
    events = inputs.frame("duplicate_events")
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
    standings = season_family(warehouse, context.partition_key, "standings", context.run.run_id)[0][
        "series_standings"
    ]
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
    tables, inputs = season_family(
        warehouse, context.partition_key, "classification", context.run.run_id
    )
    for name, frame in tables.items():
        yield dg.MaterializeResult(asset_key=name, metadata={"rows": frame.height})
    quotas = warehouse.parameters.quotas
    classification = tables["series_classification"]
    standings = inputs.frame("series_standings")
    provisional = tables["series_provisional"]

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
