"""`classement whatif --season S --set KEY=VALUE …`: the consequences of changed rule
parameters, before a committee adopts them (docs/rules.md §9)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipelines.paths import DEFAULT_REPORTS_DIR, DEFAULT_WAREHOUSE


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "whatif",
        help="recompute a season with changed rule parameters and compare (read-only)",
        description="Recompute the rule families a parameter change affects, against the "
        "current warehouse (read only: nothing in it changes), and write a French comparison "
        "report (index.html, whatif-<season>.pdf) and changements.csv (every player whose "
        "outcome differs) in data/whatif/<season>-<hash>/. Keys name parameters as the "
        "reference files do: series.quotas.*.4=13, series.min_divisor=10, "
        "cote.series_equivalence.SS=2800, cote.categories.open.pj_max=150, elo.preset=fide. "
        "Exits 0 when written, 2 when the what-if cannot run (unknown key, bad value, unknown "
        "season), 3 when the PDF could not be printed (HTML and CSV are written).",
    )
    parser.add_argument("--season", required=True, help="the season compared, e.g. 2024-2025")
    parser.add_argument(
        "--set",
        dest="settings",
        action="extend",
        nargs="+",
        default=[],
        metavar="KEY=VALUE",
        help="a changed parameter (repeat, or give several)",
    )
    parser.add_argument(
        "--reference",
        type=Path,
        default=None,
        help="a whole alternative reference folder, compared with data/reference",
    )
    parser.add_argument("--warehouse", type=Path, default=DEFAULT_WAREHOUSE, help="DuckDB file")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="output folder (default data/whatif/<season>-<hash>/)",
    )
    parser.add_argument("--no-pdf", action="store_true", help="do not print the report to PDF")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pipelines.whatif.compare import OUTCOMES
    from pipelines.whatif.compute import SeasonNotFoundError
    from pipelines.whatif.run import run_whatif
    from pipelines.whatif.settings.model import WhatIfError
    from pipelines.whatif.settings.values import show

    try:
        outputs = run_whatif(
            args.warehouse.resolve(),
            args.season,
            args.settings,
            alternative=args.reference.resolve() if args.reference else None,
            out_dir=args.out.resolve() if args.out else None,
            reports_dir=DEFAULT_REPORTS_DIR,
            pdf=not args.no_pdf,
        )
    except (WhatIfError, SeasonNotFoundError) as err:
        print(f"What-if impossible : {err}", file=sys.stderr)
        return 2
    comparison = outputs.comparison
    print(f"What-if de la saison {args.season}")
    if not comparison.scenario.changes:
        print("  paramètres : aucun ne change (valeurs actuelles)")
    for change in comparison.scenario.changes:
        note = " (suit en proportion)" if change.derived else ""
        print(f"  {change.key} : {show(change.before)} → {show(change.after)}{note}")
    rows = comparison.rows()
    if comparison.unchanged:
        print("  résultat : aucun changement")
    else:
        for kind in OUTCOMES:
            n = rows.filter(rows["changement"] == kind).height
            if n:
                print(f"  {kind} : {n} joueur{'s' if n > 1 else ''}")
    print(f"  rapport : {outputs.html}")
    print(f"  changements : {outputs.csv}")
    if outputs.pdf is not None:
        print(f"  PDF : {outputs.pdf}")
    elif outputs.pdf_error:
        print(f"  ✗ PDF manquant, impression impossible : {outputs.pdf_error}")
    return outputs.exit_status
