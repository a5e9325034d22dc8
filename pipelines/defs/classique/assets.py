"""Classique ratings: the FISF cote (docs/rules.md §1), Elo (§2), rankings and series bars,
partitioned by season.

Seasons are built in order: a season's tournaments are rated from the cotes and Elo
ratings the earlier seasons ended with, and a player's starting cote uses the series held
in the season (last season's duplicate classification, then the rating lists: §3), so a
season's classique ratings come after the previous season's series.
"""

# No `from __future__ import annotations`: Dagster inspects the `context` annotation.
from collections.abc import Iterator

import dagster as dg
import polars as pl

from pipelines.defs.seasons.plan import season_family
from pipelines.partitions import season_partitions
from pipelines.plan.season import history_through
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_metadata, table_spec

GROUP = "classique"
KINDS = {"duckdb", "polars"}


@dg.asset(
    deps=["tournaments", "results", "rating_lists", "series_classification"],
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    group_name=GROUP,
    kinds=KINDS,
    metadata=table_metadata("cote_history"),
)
def cote_history(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """One row per player per classique tournament of the season, in event order: cote
    before, initial place, published rank, PE, bonus, PJ (raw and clamped) and cote after
    (docs/rules.md §1), from the cotes the earlier seasons ended with."""
    frame = season_family(warehouse, context.partition_key, "cote", context.run.run_id)[0][
        "cote_history"
    ]
    return dg.MaterializeResult(
        metadata={
            "rows": len(frame),
            "tournaments": frame["tournament_id"].n_unique(),
            "players": frame["player_id"].n_unique(),
        }
    )


@dg.asset_check(
    asset=cote_history,
    pool=WAREHOUSE_POOL,
    description="cote_after = cote_before + PE + B + PJ, "
    "PJ never exceeds its raw value's side, and each player's next tournament "
    "starts from the cote the previous one ended with.",
)
def cote_history_adds_up(warehouse: WarehouseResource) -> dg.AssetCheckResult:
    wh = warehouse.warehouse
    frame = history_through(wh, "cote_history", "9999-10000", inclusive=True)
    wrong_sum = frame.filter(
        pl.col("cote_after")
        != pl.col("cote_before") + pl.col("pe") + pl.col("bonus") + pl.col("pj")
    ).height
    wrong_clamp = frame.filter(
        ((pl.col("pj_raw") >= 0) & ((pl.col("pj") > pl.col("pj_raw")) | (pl.col("pj") < 0)))
        | ((pl.col("pj_raw") < 0) & ((pl.col("pj") < pl.col("pj_raw")) | (pl.col("pj") > 0)))
    ).height
    broken_chain = (
        frame.with_columns(previous=pl.col("cote_after").shift(1).over("player_id"))
        .filter(pl.col("previous").is_not_null() & (pl.col("previous") != pl.col("cote_before")))
        .height
    )
    return dg.AssetCheckResult(
        passed=wrong_sum == 0 and wrong_clamp == 0 and broken_chain == 0,
        metadata={
            "rows_not_adding_up": wrong_sum,
            "pj_clamped_wrongly": wrong_clamp,
            "cote_chain_breaks": broken_chain,
        },
    )


@dg.asset(
    deps=["tournaments", "games", "rating_lists", "results"],
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    group_name=GROUP,
    kinds=KINDS,
    metadata=table_metadata("elo_history"),
)
def elo_history(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """One row per player per classique tournament of the season with rated games: Elo
    before, rated games before, K, games, score, expected score, change and Elo after
    (docs/rules.md §2, preset chosen in elo.yaml), from the earlier seasons' ratings."""
    frame = season_family(warehouse, context.partition_key, "elo", context.run.run_id)[0][
        "elo_history"
    ]
    params = warehouse.parameters.elo
    return dg.MaterializeResult(
        metadata={
            "rows": len(frame),
            "tournaments": frame["tournament_id"].n_unique(),
            "curve": f"{params.curve.kind} / {params.curve.scale:g}",
        }
    )


@dg.asset_check(
    asset=elo_history,
    pool=WAREHOUSE_POOL,
    description="In every tournament the scores and the "
    "expected scores sum to the same total (each game hands out 1 point and its "
    "two expected scores sum to 1).",
)
def elo_expected_matches_scores(warehouse: WarehouseResource) -> dg.AssetCheckResult:
    frame = warehouse.warehouse.table("elo_history")
    per_tournament = frame.group_by("tournament_id").agg(
        gap=(pl.col("score") - pl.col("expected")).sum().abs()
    )
    gaps = per_tournament.get_column("gap").cast(pl.Float64)
    worst = float(gaps.max() or 0.0) if gaps.len() else 0.0  # type: ignore[arg-type]
    return dg.AssetCheckResult(passed=worst < 1e-6, metadata={"largest_gap": worst})


@dg.multi_asset(
    specs=[
        table_spec("cote_ranking", deps=["cote_history", "tournaments"], kinds=KINDS),
        table_spec("classique_series_bars", deps=["cote_history", "tournaments"], kinds=KINDS),
    ],
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    can_subset=False,
)
def cote_rankings(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> Iterator[dg.MaterializeResult]:
    """The cote ranking of active players on the season's last day and the classique series
    bars it sets for the next 1 September, written together."""
    tables = season_family(warehouse, context.partition_key, "cote_ranking", context.run.run_id)[0]
    ranking, bars = tables["cote_ranking"], tables["classique_series_bars"]
    yield dg.MaterializeResult(asset_key="cote_ranking", metadata={"rows": len(ranking)})
    yield dg.MaterializeResult(asset_key="classique_series_bars", metadata={"rows": len(bars)})


@dg.asset(
    deps=["elo_history", "tournaments", "cote_ranking"],
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    group_name=GROUP,
    kinds=KINDS,
    metadata=table_metadata("elo_ranking"),
)
def elo_ranking(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """The Elo ranking of active players on the season's last day, with their classique
    series (from the cote ranking) and number of rated games."""
    frame = season_family(warehouse, context.partition_key, "elo_ranking", context.run.run_id)[0][
        "elo_ranking"
    ]
    return dg.MaterializeResult(metadata={"rows": len(frame)})
