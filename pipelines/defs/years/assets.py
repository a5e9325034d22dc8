"""The last step of a calendar year's build: remember what the year was built from."""

import dagster as dg

from pipelines.partitions import YEAR_REPORT_GROUP, year_partitions
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.staleness import YEARS, record_build
from pipelines.tables import table_metadata
from transforms.tables import registry

# Every other year-partitioned asset: each year-partitioned table of the registry and the
# year's circuit reports; the record is written once they all succeeded.
YEAR_ASSETS = [
    *(t.name for t in registry().values() if t.family.partition == "year"),
    "circuit_reports",
    "circuit_reports_pdf",
]


@dg.asset(
    deps=YEAR_ASSETS,
    partitions_def=year_partitions,
    pool=WAREHOUSE_POOL,
    group_name=YEAR_REPORT_GROUP,
    kinds={"duckdb"},
    metadata=table_metadata("year_builds"),
)
def year_builds(context: dg.AssetExecutionContext, warehouse: WarehouseResource) -> None:
    """Records in `year_builds` the inputs, code and parameters the year's circuits were
    built from, so that a year is rebuilt only when one of them changes."""
    record_build(warehouse.warehouse, YEARS, context.partition_key, warehouse.parameters)
