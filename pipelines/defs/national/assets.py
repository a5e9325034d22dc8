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

from pipelines.partitions import season_partitions
from pipelines.reference.federations import load_federations
from pipelines.reference.national import load_national_params
from pipelines.reference.series import load_series_params, load_series_quotas
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.season_inputs import season_results, season_rows, season_tournaments
from pipelines.tables import table_spec
from transforms.national import classify_national, licensee_rows_check

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
    season = context.partition_key
    wh = warehouse.warehouse
    reference = warehouse.reference
    params = load_national_params(reference)
    federations = load_federations(reference)
    classification = season_rows(wh, "series_classification", season)
    result = classify_national(
        classification,
        season_rows(wh, "duplicate_event_scores", season),
        season_rows(wh, "series_standings", season),
        season_tournaments(wh, season, "duplicate"),
        season_results(wh, season, "duplicate"),
        params,
        load_series_quotas(reference),
        load_series_params(reference),
        federations,
    )
    tables = {
        "national_classification": result.classification,
        "national_bars": result.bars,
        "cle_de_repartition": result.cle,
    }
    for name, frame in tables.items():
        wh.replace_partition(name, frame, "season", season)
    national = result.classification
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
    yield dg.MaterializeResult(asset_key="national_bars", metadata={"rows": result.bars.height})
    yield dg.MaterializeResult(
        asset_key="cle_de_repartition",
        metadata={
            "rows": result.cle.height,
            "reference_players": int(result.cle.get_column("players").sum()),
        },
    )
    problems = licensee_rows_check(classification, national, params, federations)
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
