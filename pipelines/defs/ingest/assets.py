"""Ingest: raw tournament exports → the warehouse's base tables."""

from collections.abc import Iterator

import dagster as dg
import polars as pl

from pipelines.ingest.attribution import with_rejections
from pipelines.ingest.cache import ingest_folder
from pipelines.ingest.raw import quarantine
from pipelines.partitions import season_partitions, year_partitions
from pipelines.progress import throttled
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_spec
from transforms.tables import tables_of

INGEST_TABLES = [t.name for t in tables_of("ingest")]


def _specs() -> list[dg.AssetSpec]:
    return [table_spec(name, kinds={"duckdb", "polars"}) for name in INGEST_TABLES]


def _checks() -> list[dg.AssetCheckSpec]:
    return [
        dg.AssetCheckSpec(
            "no_rejected_files",
            asset="ingest_log",
            description="Every raw export was ingested; a rejected file is a warning to act on.",
        ),
        dg.AssetCheckSpec(
            "every_tournament_has_a_winner",
            asset="results",
            description="Each tournament's best place is 1.",
        ),
        dg.AssetCheckSpec(
            "games_only_between_listed_players",
            asset="games",
            description="Every game's players are in that tournament's results.",
        ),
    ]


@dg.multi_asset(
    specs=_specs(),
    check_specs=_checks(),
    pool=WAREHOUSE_POOL,
    can_subset=False,
)
def ingest(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> Iterator[dg.MaterializeResult | dg.AssetCheckResult]:
    """Read every export of the raw folder, reject bad files whole (copied to the
    quarantine folder with the reason) and replace the base tables in one transaction."""
    params = warehouse.parameters
    result = ingest_folder(
        warehouse.raw,
        params=params,
        cache_dir=warehouse.cache / "ingest",
        progress=throttled(context.log.info, "exports lus"),
        as_of=warehouse.reference_date,
    )
    quarantined = quarantine(result.rejected, warehouse.raw, warehouse.quarantine)
    for path, message in sorted(result.rejected.items()):
        context.log.warning(f"rejected: {message} (copied to {quarantined[path]})")

    tables = {"ingest_log": result.log, **result.tables}
    # a season whose rejected exports change is built again (its report names them)
    tables["season_fingerprints"] = with_rejections(result.partitions["season"], result.log)
    tables["year_fingerprints"] = result.partitions["year"]
    warehouse.warehouse.replace_tables(tables)

    for partitions, name, column in (
        (season_partitions, "season_fingerprints", "season"),
        (year_partitions, "year_fingerprints", "year"),
    ):
        found = tables[name][column].to_list()
        # a partition whose exports are gone leaves no row behind (incremental = fresh)
        warehouse.warehouse.delete_partitions_except(column, found)
        known = set(context.instance.get_dynamic_partitions(partitions.name))
        new = [key for key in found if key not in known]
        if new:
            context.instance.add_dynamic_partitions(partitions.name, new)
        for gone in sorted(known - set(found)):
            context.instance.delete_dynamic_partition(partitions.name, gone)

    for name in INGEST_TABLES:
        frame = tables[name]
        meta: dict[str, object] = {"dagster/row_count": frame.height}
        if name == "ingest_log":
            meta["rejected"] = len(result.rejected)
        yield dg.MaterializeResult(asset_key=name, metadata=meta)  # type: ignore[arg-type]

    yield dg.AssetCheckResult(
        check_name="no_rejected_files",
        asset_key="ingest_log",
        passed=not result.rejected,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={"rejected": dg.MetadataValue.md(_rejected_md(result.rejected))},
    )
    best = result.tables["results"].group_by("tournament_id").agg(pl.col("rank").min())
    no_winner = best.filter(pl.col("rank") != 1)["tournament_id"].sort().to_list()
    yield dg.AssetCheckResult(
        check_name="every_tournament_has_a_winner",
        asset_key="results",
        passed=not no_winner,
        metadata={"tournaments_without_a_first_place": ", ".join(no_winner) or "none"},
    )
    roster = result.tables["results"].select("tournament_id", "player_id")
    games = result.tables["games"]
    strays = pl.concat(
        [
            games.select("tournament_id", pl.col(c).alias("player_id")).drop_nulls()
            for c in ("player_id", "opponent_id")
        ]
    ).join(roster, on=["tournament_id", "player_id"], how="anti")
    yield dg.AssetCheckResult(
        check_name="games_only_between_listed_players",
        asset_key="games",
        passed=strays.height == 0,
        metadata={"unknown_players": strays.height},
    )


def _rejected_md(rejected: dict[str, str]) -> str:
    if not rejected:
        return "No file rejected."
    return "\n".join(f"- {message}" for _, message in sorted(rejected.items()))
