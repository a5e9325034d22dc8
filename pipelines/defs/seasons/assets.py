"""The last step of a season's build: remember what the season was built from."""

import dagster as dg

from pipelines.build import record_season_build
from pipelines.partitions import SEASON_GROUPS, season_partitions
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_metadata

# Every other season-partitioned asset: the record is written once they all succeeded
# (tests/test_pipeline.py checks that none is missing here).
SEASON_ASSETS = [
    "duplicate_event_scores",
    "series_standings",
    "series_classification",
    "series_bars",
    "series_movements",
    "series_provisional",
    "series_comparison",
    "season_report",
    "season_report_pdf",
]


@dg.asset(
    deps=SEASON_ASSETS,
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    group_name=SEASON_GROUPS[-1],
    kinds={"duckdb"},
    metadata=table_metadata("season_builds"),
)
def season_builds(context: dg.AssetExecutionContext, warehouse: WarehouseResource) -> None:
    """Records in `season_builds` the inputs, code and parameters the season was built
    from, so that a season is rebuilt only when one of them changes."""
    record_season_build(warehouse.warehouse, context.partition_key)
