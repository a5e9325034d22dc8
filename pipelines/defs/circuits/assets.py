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
from pipelines.reference.circuits import load_circuit_codes, load_circuit_params
from pipelines.reference.round_robin import (
    load_final_categories,
    load_grand_est_params,
    load_masters_params,
)
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_spec
from pipelines.year_inputs import (
    circuit_games_until,
    matches_of_year,
    results_until,
    rows,
    tournaments_until,
)
from transforms.circuits import (
    CircuitError,
    circuit_tables,
    ranking_inconsistencies,
    with_circuit_codes,
)
from transforms.round_robin.params import RoundRobinError
from transforms.round_robin.year import round_robin_tables

GROUP = "circuits"
KINDS = {"duckdb", "polars"}
PACA_TABLES = {
    "circuit_points": "points",
    "circuit_club_points": "club_points",
    "circuit_rankings": "rankings",
    "circuit_club_rankings": "club_rankings",
    "circuit_ranking_windows": "windows",
    "circuit_masters_invitees": "masters",
}
RANKINGS_CHECK = "circuit_rankings_add_up"
PAIRINGS_CHECK = "masters_follow_the_pairing_table"
PACA_INPUTS = ["tournaments", "results", "games", "circuit_calendar", "published_circuit_rankings"]
FINALS_INPUTS = ["tournaments", "results", "matches", "published_circuit_rankings"]


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
    wh = warehouse.warehouse
    params = load_circuit_params(warehouse.reference)
    names = load_circuit_codes(warehouse.reference, params.circuit)
    try:
        computed = circuit_tables(
            with_circuit_codes(results_until(wh, year, circuits_only=True), names),
            circuit_games_until(wh, year),
            with_circuit_codes(rows(wh, "circuit_calendar", "year <= ?", [year]), names),
            with_circuit_codes(rows(wh, "published_circuit_rankings"), names),
            params,
        )
    except CircuitError as err:
        raise dg.Failure(description=f"circuit {params.circuit}, année {year} : {err}") from err
    for name, attribute in PACA_TABLES.items():
        frame = getattr(computed, attribute).filter(pl.col("year") == year)
        wh.replace_partition(name, frame, "year", year)
        yield dg.MaterializeResult(asset_key=name, metadata={"rows": frame.height})
    points = computed.points.filter(pl.col("year") <= year)
    wrong = ranking_inconsistencies(points, computed.rankings.filter(pl.col("year") == year))
    yield dg.AssetCheckResult(
        check_name=RANKINGS_CHECK,
        asset_key="circuit_rankings",
        passed=wrong.height == 0,
        metadata={
            "rankings": computed.rankings.filter(pl.col("year") == year)[
                "after_tournament_id"
            ].n_unique(),
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
    wh = warehouse.warehouse
    masters = load_masters_params(warehouse.reference)
    grand_est = load_grand_est_params(warehouse.reference)
    names = load_circuit_codes(warehouse.reference, masters.circuit, grand_est.circuit)
    tournaments = with_circuit_codes(tournaments_until(wh, year), names).filter(
        pl.col("end_date").dt.year() >= year - 1
    )
    results = results_until(wh, year, since=year - 1).join(
        tournaments.select("tournament_id"), on="tournament_id", how="semi"
    )
    try:
        computed = round_robin_tables(
            tournaments,
            results,
            matches_of_year(wh, year),
            with_circuit_codes(rows(wh, "published_circuit_rankings"), names),
            masters,
            grand_est,
            load_final_categories(warehouse.reference),
            year,
        )
    except RoundRobinError as err:
        raise dg.Failure(description=f"finales de l'année {year} : {err}") from err
    wh.replace_partition("round_robin_standings", computed.standings, "year", year)
    wh.replace_partition("grand_est_qualifying", computed.qualifying, "year", year)
    yield dg.MaterializeResult(
        asset_key="round_robin_standings",
        metadata={
            "finals": computed.standings["tournament_id"].n_unique(),
            "rows": computed.standings.height,
            "play_offs": computed.standings.filter(pl.col("play_off_needed")).height,
        },
    )
    yield dg.MaterializeResult(
        asset_key="grand_est_qualifying", metadata={"rows": computed.qualifying.height}
    )
    issues = computed.pairing_issues
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
