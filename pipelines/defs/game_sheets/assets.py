"""The game-sheet audit (docs/rules.md §7), partitioned by season: the season's game sheets
replayed move by move (`transforms.scoring`), and a check that fails a tournament whose
tops do not add up to its `top_total`."""

# No `from __future__ import annotations`: Dagster inspects the `context` annotation.
from collections.abc import Iterator

import dagster as dg
import polars as pl

from pipelines.defs.seasons.plan import season_family
from pipelines.partitions import season_partitions
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_metadata
from transforms.scoring import (
    STATUS_OK,
    STATUS_TOP_TOTAL_DIFFERS,
    STATUS_TOP_TOTAL_UNCHECKED,
)

GROUP = "game_sheets"
KINDS = {"duckdb", "polars"}
TOPS_CHECK = "game_sheet_tops_add_up"


@dg.asset(
    deps=["game_sheets", "tournaments"],
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    group_name=GROUP,
    kinds=KINDS,
    metadata=table_metadata("game_sheet_audit"),
    check_specs=[
        dg.AssetCheckSpec(
            TOPS_CHECK,
            asset="game_sheet_audit",
            description="For every tournament of the season with a game sheet and a stated "
            "`top_total`, the sum of the computed tops equals the `top_total` (a tournament "
            "whose total could not be computed is listed, not failed).",
            partitions_def=season_partitions,
        )
    ],
)
def game_sheet_audit(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> Iterator[dg.MaterializeResult | dg.AssetCheckResult]:
    """Each move of the season's duplicate game sheets replayed on its board: stated and
    computed score, status and the arbiter's message; one total per tournament comparing
    the sum of the computed tops with its `top_total`."""
    audit = season_family(warehouse, context.partition_key, "game_sheets", context.run.run_id)[0][
        "game_sheet_audit"
    ]
    moves = audit.filter(pl.col("move").is_not_null())
    totals = audit.filter(pl.col("move").is_null())
    yield dg.MaterializeResult(
        metadata={
            "rows": audit.height,
            "tournaments": moves["tournament_id"].n_unique(),
            "games": moves.select("tournament_id", "game").unique().height,
            "moves": moves.height,
            "moves_not_ok": moves.filter(pl.col("status") != STATUS_OK).height,
        }
    )
    yield tops_check(totals)


def tops_check(totals: pl.DataFrame) -> dg.AssetCheckResult:
    """The check's result from the audit's total rows: failed when a tournament's computed
    tops differ from its `top_total`."""
    differ = totals.filter(pl.col("status") == STATUS_TOP_TOTAL_DIFFERS).sort("tournament_id")
    unchecked = totals.filter(pl.col("status") == STATUS_TOP_TOTAL_UNCHECKED).sort("tournament_id")
    return dg.AssetCheckResult(
        check_name=TOPS_CHECK,
        asset_key="game_sheet_audit",
        passed=differ.height == 0,
        metadata={
            "tournaments_checked": totals.height,
            "tournaments_not_adding_up": differ.height,
            "not_adding_up": dg.MetadataValue.md(
                "\n".join(
                    f"- {r['tournament_id']}: {r['message']}" for r in differ.iter_rows(named=True)
                )
                or "none"
            ),
            "not_computed": ", ".join(unchecked["tournament_id"].to_list()) or "none",
        },
    )
