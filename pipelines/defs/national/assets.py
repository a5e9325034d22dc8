"""National classification assets (docs/rules.md §4), partitioned by season.

They come after the season's duplicate series: they read its `series_classification` (the
licensees and their federations), `duplicate_event_scores`, `series_standings`, the
duplicate `tournaments` and `results`, call `transforms.national.classify_national` and
replace only their season's rows.
"""

# No `from __future__ import annotations`: Dagster inspects the `context` annotation.
from collections.abc import Iterator

import dagster as dg
import polars as pl

from pipelines.defs.seasons.plan import season_family
from pipelines.partitions import season_partitions
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_spec
from transforms.national import licensee_rows_check

GROUP = "national"
KINDS = {"duckdb", "polars"}
SERIES_INPUTS = ["series_classification", "duplicate_event_scores", "series_standings"]
INPUTS = [*SERIES_INPUTS, "tournaments", "results"]
ONE_ROW_CHECK = "one_row_per_licensee"


@dg.multi_asset(
    specs=[
        table_spec("national_classification", deps=INPUTS, kinds=KINDS),
        table_spec("national_bars", deps=INPUTS, kinds=KINDS),
        table_spec(
            "cle_de_repartition",
            deps=["series_classification", "duplicate_event_scores", "tournaments", "results"],
            kinds=KINDS,
        ),
    ],
    check_specs=[
        dg.AssetCheckSpec(
            ONE_ROW_CHECK,
            asset="national_classification",
            description="Exactly one row per licensee of each federation with a national rule "
            "(national.yaml) — every player of the season's series_classification whose "
            "federation maps to it — with a series or a reason, and no other row.",
            partitions_def=season_partitions,
        ),
    ],
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
)
def national_classification(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> Iterator[dg.MaterializeResult | dg.AssetCheckResult]:
    """The season's national classifications, their published bars and the clé de
    répartition."""
    tables, inputs = season_family(warehouse, context.partition_key, "national", context.run.run_id)
    national = tables["national_classification"]
    bars, cle = tables["national_bars"], tables["cle_de_repartition"]
    yield dg.MaterializeResult(
        asset_key="national_classification",
        metadata={
            "rows": national.height,
            "classified": national.filter(pl.col("series").is_not_null()).height,
            "not_classified": national.filter(pl.col("series").is_null()).height,
            "per_federation": dg.MetadataValue.json(
                dict(national.group_by("federation").agg(pl.len()).sort("federation").rows())
            ),
        },
    )
    yield dg.MaterializeResult(asset_key="national_bars", metadata={"rows": bars.height})
    yield dg.MaterializeResult(
        asset_key="cle_de_repartition",
        metadata={
            "rows": cle.height,
            "reference_players": int(cle.get_column("players").sum()),
        },
    )
    params = warehouse.parameters
    problems = licensee_rows_check(
        inputs.frame("series_classification"), national, params.national, params.federations
    )
    yield dg.AssetCheckResult(
        check_name=ONE_ROW_CHECK,
        asset_key="national_classification",
        passed=problems.height == 0,
        metadata={
            "licensees": national.height,
            "problems": problems.height,
            "first": ", ".join(
                f"{r['player_id']} ({r['federation']}) : {r['problem']}"
                for r in problems.head(5).iter_rows(named=True)
            )
            or "aucun",
        },
    )
