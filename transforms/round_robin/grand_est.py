"""The Grand Est qualifying ranking (table `grand_est_qualifying`) and the championship year a
final belongs to.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable

import polars as pl

from transforms.ranking import competition_ranks
from transforms.round_robin.params import GrandEstParams, RoundRobinError
from transforms.tables import table

QUALIFYING = table("grand_est_qualifying")


def championship_year(final_start: dt.date, qualifier_ends: Iterable[dt.date]) -> int:
    """The championship a Grand Est final closes, whose qualifying ranking selects its 16:
    the year of the final when one of that year's qualifiers ended before the final's first
    day; else the year before when it had qualifiers (a final « à une date à déterminer »
    held early the next year, [001]); else the final's year."""
    ends = list(qualifier_ends)
    year = final_start.year
    if any(d.year == year and d < final_start for d in ends):
        return year
    if any(d.year == year - 1 for d in ends):
        return year - 1
    return year


def grand_est_qualifying(
    tournaments: pl.DataFrame, results: pl.DataFrame, params: GrandEstParams
) -> pl.DataFrame:
    """The Grand Est qualifying ranking of every calendar year: `tournaments` are the
    qualifying tournaments (`tournament_id, end_date`; the final excluded), `results` their
    places (`tournament_id, player_id, rank`, optional `duplicate_rank`).

    Every tournament scores the same table by place; all points are kept; ties are broken
    by the counts of 1st, 2nd, … 32nd places, then of duplicate places."""
    places = params.counted_places
    scale = math.lcm(*(p.denominator for p in params.qualifying_points)) or 1
    scaled = {i + 1: int(p * scale) for i, p in enumerate(params.qualifying_points)}
    dup = (
        pl.col("duplicate_rank").cast(pl.Int64)
        if "duplicate_rank" in results.columns
        else pl.lit(None, dtype=pl.Int64)
    )
    rows = results.select(
        pl.col("tournament_id").cast(pl.String),
        pl.col("player_id").cast(pl.String),
        pl.col("rank").cast(pl.Int64),
        dup.alias("duplicate_rank"),
    ).join(
        tournaments.select(
            pl.col("tournament_id").cast(pl.String),
            pl.col("end_date").dt.year().cast(pl.Int64).alias("year"),
        ),
        on="tournament_id",
        how="inner",
    )
    if rows.height == 0:
        return QUALIFYING.empty()
    twice = rows.filter(pl.struct("tournament_id", "player_id").is_duplicated())
    if twice.height:
        r = twice.sort("tournament_id", "player_id").row(0, named=True)
        raise RoundRobinError(
            f"Grand Est : le joueur {r['player_id']} a deux places au tournoi {r['tournament_id']}"
        )
    unplaced = rows.filter(pl.col("rank").is_null() | (pl.col("rank") < 1))
    if unplaced.height:
        r = unplaced.sort("tournament_id", "player_id").row(0, named=True)
        raise RoundRobinError(
            f"Grand Est : le joueur {r['player_id']} n'a pas de place au tournoi "
            f"{r['tournament_id']}"
        )
    hist = [f"_h{k}" for k in range(1, places + 1)]
    dups = [f"_d{k}" for k in range(1, places + 1)]
    totals = (
        rows.with_columns(
            _points=pl.col("rank").replace_strict(scaled, default=0, return_dtype=pl.Int64)
        )
        .group_by("year", "player_id")
        .agg(
            pl.col("_points").sum(),
            pl.col("tournament_id").n_unique().cast(pl.Int64).alias("tournaments"),
            *((pl.col("rank") == k).sum().cast(pl.Int64).alias(h) for k, h in enumerate(hist, 1)),
            *(
                (pl.col("duplicate_rank") == k).sum().cast(pl.Int64).alias(d)
                for k, d in enumerate(dups, 1)
            ),
        )
        .sort("year", "player_id")
    )
    frames = []
    for block in totals.partition_by("year", maintain_order=True):
        keys = [block[c].to_numpy() for c in ("_points", *hist, *dups)]
        frames.append(block.with_columns(place=pl.Series(competition_ranks(*keys), dtype=pl.Int64)))
    out = (
        pl.concat(frames)
        .select(
            "year",
            "player_id",
            "place",
            (pl.col("_points") / scale).cast(pl.Float64).alias("points"),
            "tournaments",
            pl.concat_list(hist).alias("places_histogram"),
        )
        .sort("year", "place", "player_id")
    )
    return QUALIFYING.check(out)
