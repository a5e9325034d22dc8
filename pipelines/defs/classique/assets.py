"""Classique ratings: the FISF cote (RULES §1), Elo (RULES §2), rankings and series bars."""

from collections.abc import Iterator

import dagster as dg
import polars as pl

from pipelines.reference.classique import (
    load_cote_params,
    load_elo_params,
    load_ranking_params,
)
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_metadata, table_spec
from transforms import classique_series, cote, elo

GROUP = "classique"
KINDS = {"duckdb", "polars"}


@dg.asset(
    deps=["tournaments", "results", "rating_lists"],
    pool=WAREHOUSE_POOL,
    group_name=GROUP,
    kinds=KINDS,
    metadata=table_metadata("cote_history"),
)
def cote_history(warehouse: WarehouseResource) -> dg.MaterializeResult:
    """One row per player per classique tournament, in event order: cote before, initial
    place, published rank, PE, bonus, PJ (raw and clamped) and cote after (RULES §1)."""
    wh = warehouse.warehouse
    params = load_cote_params(warehouse.reference)
    frame = cote.cote_history(
        wh.table("tournaments"), wh.table("results"), wh.table("rating_lists"), params
    )
    wh.replace_tables({"cote_history": frame})
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
    frame = warehouse.warehouse.table("cote_history").with_row_index("_order")
    wrong_sum = frame.filter(
        pl.col("cote_after")
        != pl.col("cote_before") + pl.col("pe") + pl.col("bonus") + pl.col("pj")
    ).height
    wrong_clamp = frame.filter(
        ((pl.col("pj_raw") >= 0) & ((pl.col("pj") > pl.col("pj_raw")) | (pl.col("pj") < 0)))
        | ((pl.col("pj_raw") < 0) & ((pl.col("pj") < pl.col("pj_raw")) | (pl.col("pj") > 0)))
    ).height
    broken_chain = (
        frame.sort("_order")
        .with_columns(previous=pl.col("cote_after").shift(1).over("player_id"))
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
    pool=WAREHOUSE_POOL,
    group_name=GROUP,
    kinds=KINDS,
    metadata=table_metadata("elo_history"),
)
def elo_history(warehouse: WarehouseResource) -> dg.MaterializeResult:
    """One row per player per classique tournament with rated games: Elo before, K, games,
    score, expected score, change and Elo after (RULES §2, preset chosen in elo.yaml)."""
    wh = warehouse.warehouse
    params = load_elo_params(warehouse.reference)
    frame = elo.elo_history(
        wh.table("tournaments"),
        wh.table("games"),
        wh.table("rating_lists"),
        wh.table("results"),
        params,
    )
    wh.replace_tables({"elo_history": frame})
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
    pool=WAREHOUSE_POOL,
    can_subset=False,
)
def cote_rankings(warehouse: WarehouseResource) -> Iterator[dg.MaterializeResult]:
    """End-of-season cote rankings and the classique series bars, written together."""
    wh = warehouse.warehouse
    cote_params = load_cote_params(warehouse.reference)
    params = load_ranking_params(warehouse.reference)
    ranking, bars = classique_series.season_cote_rankings(
        wh.table("cote_history"), wh.table("tournaments"), params, cote_params.disciplines
    )
    ranking = ranking.sort("season", "rank", "player_id")
    bars = bars.sort("season", "bar", descending=[False, True])
    wh.replace_tables({"cote_ranking": ranking, "classique_series_bars": bars})
    yield dg.MaterializeResult(
        asset_key="cote_ranking",
        metadata={"rows": len(ranking), "seasons": ranking["season"].n_unique()},
    )
    yield dg.MaterializeResult(asset_key="classique_series_bars", metadata={"rows": len(bars)})


@dg.asset(
    deps=["elo_history", "tournaments", "cote_ranking"],
    pool=WAREHOUSE_POOL,
    group_name=GROUP,
    kinds=KINDS,
    metadata=table_metadata("elo_ranking"),
)
def elo_ranking(warehouse: WarehouseResource) -> dg.MaterializeResult:
    """End-of-season Elo ranking of active players, with their classique series (from the
    cote ranking) and number of rated games."""
    wh = warehouse.warehouse
    params = load_ranking_params(warehouse.reference)
    elo_params = load_elo_params(warehouse.reference)
    frame = classique_series.season_elo_rankings(
        wh.table("elo_history"),
        wh.table("tournaments"),
        wh.table("cote_ranking"),
        params,
        elo_params.disciplines,
    ).sort("season", "rank", "player_id")
    wh.replace_tables({"elo_ranking": frame})
    return dg.MaterializeResult(metadata={"rows": len(frame)})
