"""The last step of a season's build: remember what the season was built from."""

import dagster as dg

from pipelines.defs.seasons.plan import forget_run, wait_for_apart
from pipelines.partitions import REPORT_GROUP, season_partitions
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.staleness import SEASONS, record_build
from pipelines.tables import table_metadata
from transforms.tables import registry

# Every other season-partitioned asset: each season-partitioned table of the registry and
# the season's report; the record is written once they all succeeded (tests/test_pipeline.py
# checks that none is missing here).
SEASON_ASSETS = [
    *(
        t.name
        for t in registry().values()
        if t.family.partition == "season" and t.name != "season_builds"
    ),
    "season_report",
    "season_report_pdf",
]


@dg.asset(
    deps=SEASON_ASSETS,
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    group_name=REPORT_GROUP,
    kinds={"duckdb"},
    metadata=table_metadata("season_builds"),
)
def season_builds(context: dg.AssetExecutionContext, warehouse: WarehouseResource) -> None:
    """Records in `season_builds` the inputs, code and parameters the season was built
    from, so that a season is rebuilt only when one of them changes. The run's season
    steps are done: the inputs they shared are dropped."""
    forget_run(context.run.run_id)
    wait_for_apart(context.partition_key)  # (already done when the report waited for them)
    record_build(warehouse.warehouse, SEASONS, context.partition_key, warehouse.parameters)
