"""The Belgian Mort Subite challenge (docs/rules.md §6), partitioned by duplicate season.

One multi-asset writes the season's three tables together: the rounds of a season are
qualified, played and classified at once (the final's qualification needs the regular
rounds' results, the standings every round's). It reads the season's rows of the two
exports (`mort_subite_players`, by the round's date; `mort_subite_moves`, by round), takes
an empty series of a regular round from the player's row in the host tournament's
results (`transforms.mort_subite.rules.with_host_series`, as the ingest's checks do) and calls
`transforms.mort_subite.challenge.challenge`.
"""

# No `from __future__ import annotations`: Dagster inspects the `context` annotation.
from collections.abc import Iterator

import dagster as dg
import polars as pl

from pipelines.defs.seasons.plan import season_family
from pipelines.partitions import season_partitions
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_spec

GROUP = "mort_subite"
KINDS = {"duckdb", "polars"}
INPUTS = ["mort_subite_players", "mort_subite_moves", "results"]
PLACED_CHECK = "mort_subite_every_participant_placed"


@dg.multi_asset(
    specs=[
        table_spec("mort_subite_qualified", deps=INPUTS, kinds=KINDS),
        table_spec("mort_subite_results", deps=INPUTS, kinds=KINDS),
        table_spec("mort_subite_standings", deps=INPUTS, kinds=KINDS),
    ],
    check_specs=[
        dg.AssetCheckSpec(
            PLACED_CHECK,
            asset="mort_subite_results",
            description="Every participant of a round (a qualified player marked present) "
            "has one result, nobody else has one, and every round has a winner (place 1).",
            partitions_def=season_partitions,
        ),
    ],
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    can_subset=False,
)
def mort_subite_challenge(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> Iterator[dg.MaterializeResult | dg.AssetCheckResult]:
    """The season's Mort Subite rounds: who qualified (art. 4, 14), each round's places and
    points (art. 7–12, 15) and the season standings with trophies and cups (art. 14–16)."""
    tables, inputs = season_family(
        warehouse, context.partition_key, "mort_subite", context.run.run_id
    )
    players, moves = inputs.frame("mort_subite_players"), inputs.frame("mort_subite_moves")
    qualified, results = tables["mort_subite_qualified"], tables["mort_subite_results"]
    standings = tables["mort_subite_standings"]
    rounds = players.group_by("round_id").agg(pl.col("final").max())
    yield dg.MaterializeResult(
        asset_key="mort_subite_qualified",
        metadata={"rows": qualified.height, "rounds": rounds.height},
    )
    yield dg.MaterializeResult(
        asset_key="mort_subite_results",
        metadata={
            "rows": results.height,
            "finals": rounds.filter(pl.col("final") == 1).height,
            "moves": moves.height,
        },
    )
    yield dg.MaterializeResult(
        asset_key="mort_subite_standings",
        metadata={
            "rows": standings.height,
            "trophies": standings.filter(pl.col("trophy").is_not_null()).height,
        },
    )
    yield _placed_check(players, qualified, results)


def _placed_check(
    players: pl.DataFrame, qualified: pl.DataFrame, results: pl.DataFrame
) -> dg.AssetCheckResult:
    participants = qualified.select("round_id", "player_id").join(
        players.filter(pl.col("present") == 1).select("round_id", "player_id"),
        on=["round_id", "player_id"],
        how="semi",
    )
    placed = results.select("round_id", "player_id")
    unplaced = participants.join(placed, on=["round_id", "player_id"], how="anti")
    strays = placed.join(participants, on=["round_id", "player_id"], how="anti")
    twice = placed.filter(pl.struct("round_id", "player_id").is_duplicated())
    winners = set(results.filter(pl.col("place") == 1)["round_id"].to_list())
    no_winner = sorted(set(results["round_id"].to_list()) - winners)
    return dg.AssetCheckResult(
        check_name=PLACED_CHECK,
        asset_key="mort_subite_results",
        passed=unplaced.height == 0 and strays.height == 0 and twice.height == 0 and not no_winner,
        metadata={
            "participants_without_a_result": unplaced.height,
            "results_of_non_participants": strays.height,
            "results_twice": twice.height,
            "rounds_without_a_winner": ", ".join(no_winner) or "aucune",
        },
    )
