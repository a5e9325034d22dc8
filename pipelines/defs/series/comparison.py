"""Our series classification against the FFSc's published one, partitioned by season.

A published ranking (`published_series`, one list per `as_of`) closes the season holding
its `as_of`; the season's rows compare each of its lists with that season's
`series_classification` (`transforms.series_comparison`). A season without a published
ranking writes no row (and removes the rows an earlier build wrote for it).
"""

# No `from __future__ import annotations`: Dagster inspects the `context` annotation.
import dagster as dg
import polars as pl

from pipelines.defs.seasons.plan import season_family
from pipelines.partitions import season_partitions
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_metadata
from transforms.series_comparison import agreement_summary

GROUP = "series"
TABLE = "series_comparison"


@dg.asset(
    deps=["published_series", "series_classification", "players"],
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    group_name=GROUP,
    kinds={"duckdb", "polars"},
    metadata=table_metadata(TABLE),
)
def series_comparison(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Per published FFSc ranking of the season and player: the published series and
    potential series, our computed series, whether they agree and the difference in series
    steps (French players of either side; the other side null when absent)."""
    season = context.partition_key
    frame = season_family(warehouse, season, "comparison", context.run.run_id)[0][TABLE]
    if frame.height == 0:
        # nothing to compare: the season's earlier rows (if any) are removed
        context.log.info(f"{season}: no published FFSc ranking in the season")
        return dg.MaterializeResult(metadata={"rows": 0, "lists": 0, "agreements": 0})
    overall = agreement_summary(frame).filter(pl.col("scope") == "overall").row(0, named=True)
    return dg.MaterializeResult(
        metadata={
            "rows": frame.height,
            "lists": frame["as_of"].n_unique(),
            "agreements": overall["agreements"],
            "agreement_rate": float(overall["rate"] or 0.0),
            "disagreements": frame.height - overall["agreements"],
        }
    )
