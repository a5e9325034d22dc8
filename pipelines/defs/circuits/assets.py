"""The regional circuits' tables (docs/rules.md §5), partitioned by calendar year.

Years are built in order (`build_year`). The PACA ranking is sequential from the start of
the data — each tournament's seeds come from the ranking after the previous one, across
years — so a year's assets compute it from the first tournament up to the year's last and
keep the year's rows: a year built alone gives what a build of every year gives. The finals
read their own year (and the Grand Est qualifiers of the year before, for a final closing
last year's championship).
"""

# No `from __future__ import annotations`: Dagster inspects the `context` annotation.
from collections.abc import Iterator

import dagster as dg
import polars as pl

from pipelines.partitions import year_partitions
from pipelines.plan.year import (
    PACA_POINTS_UNTIL,
    PACA_TABLES,
    PAIRING_ISSUES,
    Frames,
    compute_year,
    written,
)
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_spec
from transforms.circuits import CircuitError, ranking_inconsistencies
from transforms.round_robin.params import RoundRobinError

GROUP = "circuits"
KINDS = {"duckdb", "polars"}
RANKINGS_CHECK = "circuit_rankings_add_up"
PAIRINGS_CHECK = "masters_follow_the_pairing_table"
PACA_INPUTS = ["tournaments", "results", "games", "circuit_calendar", "published_circuit_rankings"]
FINALS_INPUTS = ["tournaments", "results", "matches", "published_circuit_rankings"]


def _year_family(warehouse: WarehouseResource, year: int, family: str) -> Frames:
    """Compute `family` of the year plan and replace the year's rows of its tables."""
    tables = compute_year(warehouse.warehouse, year, warehouse.parameters, [family])
    for name, frame in written(tables).items():
        warehouse.warehouse.replace_partition(name, frame, "year", year)
    return tables


@dg.multi_asset(
    specs=[table_spec(name, deps=PACA_INPUTS, kinds=KINDS) for name in PACA_TABLES],
    check_specs=[
        dg.AssetCheckSpec(
            RANKINGS_CHECK,
            asset="circuit_rankings",
            description="Each ranking's best-5 total is the sum of the points of the "
            "tournaments it counts (circuit_points), and it counts no more than it played.",
            partitions_def=year_partitions,
        )
    ],
    partitions_def=year_partitions,
    pool=WAREHOUSE_POOL,
    can_subset=False,
)
def paca_circuit(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> Iterator[dg.MaterializeResult | dg.AssetCheckResult]:
    """The PACA regional ranking of the year (docs/rules.md §5): each player's four
    components and total per tournament, club points, the window and the player and club
    rankings published after each tournament, and the Masters PACA invitees."""
    year = int(context.partition_key)
    try:
        tables = _year_family(warehouse, year, "paca")
    except CircuitError as err:
        circuit = warehouse.parameters.paca.circuit
        raise dg.Failure(description=f"circuit {circuit}, année {year} : {err}") from err
    for name in PACA_TABLES:
        yield dg.MaterializeResult(asset_key=name, metadata={"rows": tables[name].height})
    wrong = ranking_inconsistencies(tables[PACA_POINTS_UNTIL], tables["circuit_rankings"])
    yield dg.AssetCheckResult(
        check_name=RANKINGS_CHECK,
        asset_key="circuit_rankings",
        passed=wrong.height == 0,
        metadata={
            "rankings": tables["circuit_rankings"]["after_tournament_id"].n_unique(),
            "rows_not_adding_up": wrong.height,
        },
    )


@dg.multi_asset(
    specs=[
        table_spec("round_robin_standings", deps=FINALS_INPUTS, kinds=KINDS),
        table_spec("grand_est_qualifying", deps=["tournaments", "results"], kinds=KINDS),
    ],
    check_specs=[
        dg.AssetCheckSpec(
            PAIRINGS_CHECK,
            asset="round_robin_standings",
            description="The matches of each Masters Grand Sud follow the pairing table "
            "(data/reference/round_robin/masters_pairings.csv); a match that does not still "
            "counts (a warning for the organiser).",
            partitions_def=year_partitions,
        )
    ],
    partitions_def=year_partitions,
    pool=WAREHOUSE_POOL,
    can_subset=False,
)
def round_robin_finals(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> Iterator[dg.MaterializeResult | dg.AssetCheckResult]:
    """The round-robin finals of the year — Masters Grand Sud and the Grand Est final —
    ranked with their tie-breaks and the withdrawal rule, and the Grand Est qualifying
    ranking of the year (docs/rules.md §5)."""
    year = int(context.partition_key)
    try:
        tables = _year_family(warehouse, year, "finals")
    except RoundRobinError as err:
        raise dg.Failure(description=f"finales de l'année {year} : {err}") from err
    standings = tables["round_robin_standings"]
    yield dg.MaterializeResult(
        asset_key="round_robin_standings",
        metadata={
            "finals": standings["tournament_id"].n_unique(),
            "rows": standings.height,
            "play_offs": standings.filter(pl.col("play_off_needed")).height,
        },
    )
    yield dg.MaterializeResult(
        asset_key="grand_est_qualifying", metadata={"rows": tables["grand_est_qualifying"].height}
    )
    issues = tables[PAIRING_ISSUES]
    yield dg.AssetCheckResult(
        check_name=PAIRINGS_CHECK,
        asset_key="round_robin_standings",
        passed=issues.height == 0,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "matches_off_the_table": issues.height,
            "first": "; ".join(
                f"{r['tournament_id']} ronde {r['round']} : {r['message']}"
                for r in issues.head(5).iter_rows(named=True)
            )
            or "aucun",
        },
    )
