"""Benchmark the duplicate series transforms (RULES §3) on one season of a built warehouse.

    .venv/bin/python scripts/bench_series.py --warehouse /tmp/bench/warehouse.duckdb
    .venv/bin/python scripts/bench_series.py --warehouse W --season 2024-2025 --scratch /tmp/s.db

Loads the season's inputs read-only, the way the assets in `pipelines.defs.series.assets`
do, then times `duplicate_event_scores`, `season_standings`, `classify_season`,
`provisional_classification` (the full table: every player after every event),
`provisional_changes` (what the `series_provisional` asset stores) and `provisional_as_of`
(the full table after the last event, rebuilt from the changes) separately (best and mean
of `--repeat` runs). With `--scratch`, also writes the full and the changes table to that
scratch DuckDB file (deleted first) and reports each write time and the file growth.
Timings belong here, never in tests.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import polars as pl

from pipelines.defs.series.assets import (
    _events,
    _federations,
    _new_licensees,
    _previous_standings,
    _results,
    _season_series,
)
from pipelines.reference.series import load_series_params, load_series_quotas
from pipelines.resources import WarehouseResource
from pipelines.warehouse import Warehouse
from transforms.series import (
    classify_season,
    duplicate_event_scores,
    ordered_events,
    provisional_as_of,
    provisional_changes,
    provisional_classification,
    season_standings,
)

T = TypeVar("T")


def timed(label: str, repeat: int, run: Callable[[], T]) -> T:
    """Run `run` `repeat` times, print the best and the mean time, return the last result."""
    times: list[float] = []
    result: T | None = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
    print(f"  {label:<28} best {min(times):7.3f} s   mean {sum(times) / len(times):7.3f} s")
    assert result is not None
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--warehouse", type=Path, default=Path("/tmp/bench/warehouse.duckdb"))
    parser.add_argument("--season", help="season to load (default: the busiest one)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scratch", type=Path, help="scratch DuckDB file for a write test")
    args = parser.parse_args()

    resource = WarehouseResource(warehouse_path=str(args.warehouse))
    wh = resource.warehouse
    season = (
        args.season
        or wh.read(
            "SELECT season FROM tournaments WHERE discipline = 'duplicate' "
            "GROUP BY season ORDER BY count(*) DESC, season LIMIT 1"
        ).item()
    )

    started = time.perf_counter()
    params = load_series_params(resource.reference)
    quotas = load_series_quotas(resource.reference)
    events = _events(wh, season)
    results = _results(wh, season)
    held_series = _season_series(wh, season, resource)
    federations = _federations(wh, season)
    new = _new_licensees(wh, season, resource)
    previous = _previous_standings(wh, season)
    print(
        f"season {season}: {events.height} events, {results.height} results, "
        f"{federations.height} players, {new.height} new licensees "
        f"(loaded in {time.perf_counter() - started:.1f} s)"
    )

    scores = timed(
        "duplicate_event_scores",
        args.repeat,
        lambda: duplicate_event_scores(results, events, held_series),
    )
    standings = timed(
        "season_standings",
        args.repeat,
        lambda: season_standings(scores, events, params, federations, previous),
    )
    order = ordered_events(events).select("tournament_id").with_row_index("_order")
    held = pl.concat(
        [
            scores.filter(pl.col("series_source") != "default")
            .join(order, on="tournament_id")
            .sort("_order")
            .group_by("player_id")
            .agg(pl.col("series").last()),
            held_series.select("player_id", "series"),
        ]
    ).unique("player_id", keep="first", maintain_order=True)
    new_season = new.with_columns(pl.lit(season).alias("season"))
    classification = timed(
        "classify_season",
        args.repeat,
        lambda: classify_season(standings, new_season, quotas, params, held),
    )
    provisional = timed(
        "provisional_classification",
        args.repeat,
        lambda: provisional_classification(scores, events, quotas, params, new),
    )
    changes = timed(
        "provisional_changes",
        args.repeat,
        lambda: provisional_changes(scores, events, quotas, params, new),
    )
    last = ordered_events(events).get_column("tournament_id")[-1]
    rebuilt = timed(
        "provisional_as_of (last)", args.repeat, lambda: provisional_as_of(changes, last, events)
    )
    assert rebuilt.equals(provisional.filter(pl.col("after_tournament_id") == last))
    print(
        f"  classification {classification.classification.height} rows; provisional: "
        f"full {provisional.height} rows ({provisional.estimated_size('mb'):.1f} MB in memory), "
        f"changes {changes.height} rows ({changes.estimated_size('mb'):.1f} MB)"
    )

    if args.scratch is not None:
        args.scratch.unlink(missing_ok=True)
        scratch = Warehouse(args.scratch)
        for name, frame in (("full", provisional), ("changes", changes)):
            table = f"provisional_{name}"
            scratch.replace_partition(table, frame.clear(), "season", season)
            size = args.scratch.stat().st_size
            started = time.perf_counter()
            scratch.replace_partition(table, frame, "season", season)
            elapsed = time.perf_counter() - started
            grown = (args.scratch.stat().st_size - size) / 1e6
            print(f"  write {name:<22} {elapsed:7.3f} s   file +{grown:.1f} MB")


if __name__ == "__main__":
    main()
