"""Data-quality notes of a season (`data_quality_notes`), partitioned by season: the
federations and countries its exports write that `data/reference/federations.csv` does not
know (`transforms.quality`), listed once per season for the report's annex."""

# No `from __future__ import annotations`: Dagster inspects the `context` annotation.
import dagster as dg
import polars as pl

from pipelines.defs.seasons.plan import season_family
from pipelines.partitions import season_partitions
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_metadata

GROUP = "quality"
TABLE = "data_quality_notes"


@dg.asset(
    deps=["tournaments", "results", "players"],
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    group_name=GROUP,
    kinds={"duckdb", "polars"},
    metadata=table_metadata(TABLE),
)
def data_quality_notes(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """One row per notice of the season: each federation (results, players) and country
    (tournaments) value the federations alias table does not know, once, with how many rows
    write it and a French sentence for the report's data-quality annex."""
    notes = season_family(warehouse, context.partition_key, "quality", context.run.run_id)[0][TABLE]
    return dg.MaterializeResult(
        metadata={
            "notes": notes.height,
            "per_notice": dg.MetadataValue.json(
                dict(notes.group_by("notice").agg(pl.len()).sort("notice").rows())
            ),
        }
    )
