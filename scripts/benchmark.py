"""Benchmark: generate a federation of a given size, then build its warehouse.

    .venv/bin/python scripts/benchmark.py --seasons 20 --players 20000 --out /tmp/bench

Prints the time of each stage (generation, then every step of the build) and the sizes.
Timings belong here, never in tests.
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

from pipelines.build import print_summary, run_build
from simulator import GenerateConfig, generate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seasons", type=int, default=20)
    parser.add_argument("--players", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=Path("/tmp/classement-bench"))
    args = parser.parse_args()

    if args.out.exists():
        shutil.rmtree(args.out)
    raw = args.out / "raw"
    started = time.perf_counter()
    generate(raw, GenerateConfig(seed=args.seed, seasons=args.seasons, players=args.players))
    print(f"generate: {time.perf_counter() - started:.1f} s")

    stamp = time.perf_counter()

    def emit(line: str) -> None:
        print(f"[{time.perf_counter() - stamp:7.1f} s] {line}", flush=True)

    summary = run_build(raw, args.out / "warehouse.duckdb", args.out / "reports", emit=emit)
    print_summary(summary)
    stamp = time.perf_counter()
    emit("second build (nothing changed)")
    again = run_build(raw, args.out / "warehouse.duckdb", args.out / "reports", emit=emit)
    print(f"second build: {again.seconds:.1f} s, seasons rebuilt: {len(again.seasons_built)}")


if __name__ == "__main__":
    main()
