"""`classement build`: ingest the raw folder and materialise every asset in-process."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from classement.dates import add_as_of
from pipelines.paths import DEFAULT_RAW_DIR, DEFAULT_REPORTS_DIR, DEFAULT_WAREHOUSE


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "build",
        help="ingest the raw exports and compute every rating and classification",
        description="Ingest every export of the raw folder into the DuckDB warehouse and "
        "materialise every asset. Exits 0 when all is built, 1 when an export was rejected "
        "(the others are built), 2 when the build failed or the raw folder holds no export "
        "(nothing changed; a build interrupted while publishing is completed by the next "
        "one), 3 when the PDFs could not be printed (tables and pages are built), 4 when "
        "another build of the same warehouse is running.",
    )
    parser.add_argument("--raw", type=Path, default=DEFAULT_RAW_DIR, help="raw exports folder")
    parser.add_argument("--warehouse", type=Path, default=DEFAULT_WAREHOUSE, help="DuckDB file")
    parser.add_argument("--reports", type=Path, default=DEFAULT_REPORTS_DIR, help="reports folder")
    parser.add_argument(
        "--no-pdf", action="store_true", help="do not print the season reports to PDF"
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="recompute everything whatever the caches say: every export read again, "
        "every season and year rebuilt",
    )
    parser.add_argument(
        "--allow-empty",
        action="store_true",
        help="build even from a raw folder without any export (it empties every table "
        "and page); refused otherwise",
    )
    parser.add_argument(
        "--quarantine",
        type=Path,
        default=None,
        help="where copies of rejected exports go (default: <warehouse>.quarantine/)",
    )
    parser.add_argument(
        "--reference",
        type=Path,
        default=None,
        help="the rule parameters' folder (default: CLASSEMENT_REFERENCE_DIR, else "
        "data/reference/)",
    )
    add_as_of(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pipelines.build import print_summary, run_build
    from pipelines.locks import WarehouseLocked
    from pipelines.publish import PublishInterrupted
    from pipelines.shrink import EmptyRawFolder

    try:
        summary = run_build(
            args.raw.resolve(),
            args.warehouse.resolve(),
            args.reports.resolve(),
            pdf=not args.no_pdf,
            quarantine_dir=args.quarantine.resolve() if args.quarantine else None,
            reference_dir=args.reference.resolve() if args.reference else None,
            as_of=args.as_of,
            allow_empty=args.allow_empty,
            full=args.full,
        )
    except WarehouseLocked as err:
        print(f"\nConstruction refusée : {err}", file=sys.stderr)
        return 4
    except EmptyRawFolder as err:
        print(f"\nConstruction refusée ; rien n'a changé : {err}", file=sys.stderr)
        return 2
    except PublishInterrupted as err:
        print(f"\nLa construction a échoué : {err}.", file=sys.stderr)
        return 2
    except Exception as err:  # the previous warehouse and reports are intact: say so and why
        print(
            "\nLa construction a échoué ; l'entrepôt et les rapports précédents sont "
            f"inchangés.\nCause : {type(err).__name__} : {err}",
            file=sys.stderr,
        )
        return 2
    print_summary(summary)
    return summary.exit_status
