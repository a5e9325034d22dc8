"""`classement build`: ingest the raw folder and materialise every asset in-process."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipelines.resources import DEFAULT_RAW_DIR, DEFAULT_REPORTS_DIR, DEFAULT_WAREHOUSE


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "build",
        help="ingest the raw exports and compute every rating and classification",
        description="Ingest every export of the raw folder into the DuckDB warehouse and "
        "materialise every asset. Exits 1 when any export was rejected, 2 on failure.",
    )
    parser.add_argument("--raw", type=Path, default=DEFAULT_RAW_DIR, help="raw exports folder")
    parser.add_argument("--warehouse", type=Path, default=DEFAULT_WAREHOUSE, help="DuckDB file")
    parser.add_argument("--reports", type=Path, default=DEFAULT_REPORTS_DIR, help="reports folder")
    parser.add_argument(
        "--no-pdf", action="store_true", help="do not print the season reports to PDF"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pipelines.build import print_summary, run_build

    try:
        summary = run_build(
            args.raw.resolve(),
            args.warehouse.resolve(),
            args.reports.resolve(),
            pdf=not args.no_pdf,
        )
    except Exception as err:  # the previous warehouse is intact: say so and why
        print(f"\nBuild failed, the previous warehouse is unchanged: {err}", file=sys.stderr)
        return 2
    print_summary(summary)
    return summary.exit_status
