"""The child processes of `classement bench`: each measured step runs in a process of its
own, so that its peak memory is its own and no step warms the next one's caches.

    python -m benchmarks.worker build RAW WAREHOUSE REPORTS OUT.json [--pdf] [--as-of DATE]
    python -m benchmarks.worker ratings WAREHOUSE OUT.json [--naive-season S]

`build` runs `run_build` (progress on stdout) and writes its summary and step timings;
`ratings` times cote + Elo + duplicate series for every season of a built warehouse from
the transforms alone, then the per-row implementation on one season, and compares them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path


def _build(args: argparse.Namespace) -> int:
    from pipelines.build import run_build

    stamp = time.perf_counter()

    def emit(line: str) -> None:
        print(f"  [{time.perf_counter() - stamp:6.1f} s] {line}", flush=True)

    summary = run_build(
        Path(args.raw),
        Path(args.warehouse),
        Path(args.reports),
        emit=emit,
        pdf=args.pdf,
        as_of=dt.date.fromisoformat(args.as_of) if args.as_of else None,
    )
    out = {
        "seconds": summary.seconds,
        "timings": summary.timings,
        "ingested": summary.ingested,
        "rejected": len(summary.rejected),
        "seasons_built": summary.seasons_built,
        "years_built": summary.years_built,
        "pdf_printed": len(summary.pdf_printed),
        "pdf_error": summary.pdf_error,
        "row_counts": summary.row_counts,
    }
    Path(args.out).write_text(json.dumps(out, indent=2), encoding="utf-8")
    return summary.exit_status


def _ratings(args: argparse.Namespace) -> int:
    from benchmarks.naive import run_season
    from benchmarks.season import fast_season, read_season_inputs, same_numbers
    from pipelines.reference.bundle import load_parameters
    from pipelines.warehouse import Warehouse

    warehouse = Warehouse(Path(args.warehouse))
    seasons = sorted(
        warehouse.read("SELECT DISTINCT season FROM series_classification")["season"].to_list()
    )
    params = load_parameters()
    per_season: dict[str, float] = {}
    inputs_by_season = {}
    for season in seasons:
        inputs = read_season_inputs(warehouse, season, params)  # I/O: not timed
        started = time.perf_counter()
        fast = fast_season(inputs)
        per_season[season] = time.perf_counter() - started
        inputs_by_season[season] = (inputs, fast)
        print(f"  saison {season} : {per_season[season]:.2f} s", flush=True)
    naive_season = args.naive_season or seasons[-1]
    inputs, fast = inputs_by_season[naive_season]
    print(f"  saison {naive_season}, implémentation ligne à ligne …", flush=True)
    started = time.perf_counter()
    naive = run_season(inputs)
    naive_seconds = time.perf_counter() - started
    differences = same_numbers(fast, naive)
    out = {
        "seasons": per_season,
        "total": sum(per_season.values()),
        "naive_season": naive_season,
        "naive_seconds": naive_seconds,
        "fast_seconds": per_season[naive_season],
        "differences": differences[:20],
        "rows": {name: frame.height for name, frame in fast.items()},
    }
    Path(args.out).write_text(json.dumps(out, indent=2), encoding="utf-8")
    return 0 if not differences else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks.worker")
    sub = parser.add_subparsers(dest="step", required=True)
    build = sub.add_parser("build")
    for name in ("raw", "warehouse", "reports", "out"):
        build.add_argument(name)
    build.add_argument("--pdf", action="store_true")
    build.add_argument("--as-of", help="the build's reference date (default today)")
    build.set_defaults(func=_build)
    ratings = sub.add_parser("ratings")
    ratings.add_argument("warehouse")
    ratings.add_argument("out")
    ratings.add_argument("--naive-season")
    ratings.set_defaults(func=_ratings)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
