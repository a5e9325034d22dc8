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
        help="simuler une saison sous d'autres paramètres des règles et comparer",
        description="Recalcule les familles de règles que touche un changement de paramètre, "
        "à partir de l'entrepôt (en lecture seule : rien n'y change), et écrit un rapport de "
        "comparaison (index.html, whatif-<saison>.pdf) et changements.csv (chaque joueur "
        "dont le résultat change) dans data/whatif/<saison>-<empreinte>/. Les clés nomment "
        "les paramètres comme les fichiers de référence : series.quotas.*.4=13, "
        "series.min_divisor=10, cote.series_equivalence.SS=2800, "
        "cote.categories.open.pj_max=150, elo.preset=fide. Code de sortie 0 quand tout est "
        "écrit, 2 quand la simulation ne peut pas être faite (clé inconnue, valeur invalide, "
        "saison inconnue), 3 quand le PDF n'a pas pu être imprimé (HTML et CSV écrits).",
    )
    parser.add_argument(
        "--season", required=True, metavar="SAISON", help="la saison comparée (2024-2025…)"
    )
    parser.add_argument(
        "--set",
        dest="settings",
        action="extend",
        nargs="+",
        default=[],
        metavar="CLÉ=VALEUR",
        help="un paramètre changé (à répéter, ou plusieurs à la suite)",
    )
    parser.add_argument(
        "--reference",
        type=Path,
        default=None,
        metavar="DOSSIER",
        help="tout un autre dossier de paramètres, comparé à data/reference",
    )
    parser.add_argument(
        "--warehouse",
        type=Path,
        default=DEFAULT_WAREHOUSE,
        metavar="FICHIER",
        help="l'entrepôt DuckDB (par défaut : data/warehouse.duckdb)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DOSSIER",
        help="le dossier écrit (par défaut : data/whatif/<saison>-<empreinte>/)",
    )
    parser.add_argument("--no-pdf", action="store_true", help="ne pas imprimer le rapport en PDF")
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
