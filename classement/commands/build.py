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
        help="lire les exports et calculer toutes les cotes et tous les classements",
        description="Lit chaque export du dossier des exports dans l'entrepôt DuckDB et "
        "calcule chaque table et chaque page. Code de sortie 0 quand tout est construit, 1 "
        "quand un export a été refusé (les autres sont construits), 2 quand la construction "
        "a échoué ou que le dossier ne contient aucun export (rien n'a changé ; une "
        "construction interrompue pendant la publication est achevée par la suivante), 3 "
        "quand les PDF n'ont pas pu être imprimés (tables et pages construites), 4 quand une "
        "autre construction du même entrepôt est en cours.",
    )
    parser.add_argument(
        "--raw",
        type=Path,
        default=DEFAULT_RAW_DIR,
        metavar="DOSSIER",
        help="le dossier des exports (par défaut : data/sample/)",
    )
    parser.add_argument(
        "--warehouse",
        type=Path,
        default=DEFAULT_WAREHOUSE,
        metavar="FICHIER",
        help="l'entrepôt DuckDB (par défaut : data/warehouse.duckdb)",
    )
    parser.add_argument(
        "--reports",
        type=Path,
        default=DEFAULT_REPORTS_DIR,
        metavar="DOSSIER",
        help="le dossier des rapports (par défaut : data/reports/)",
    )
    parser.add_argument("--no-pdf", action="store_true", help="ne pas imprimer les rapports en PDF")
    parser.add_argument(
        "--full",
        action="store_true",
        help="tout recalculer quoi que disent les caches : chaque export relu, chaque "
        "saison et chaque année reconstruites",
    )
    parser.add_argument(
        "--allow-empty",
        action="store_true",
        help="construire même à partir d'un dossier sans aucun export (toutes les tables "
        "et pages sont vidées) ; refusé sinon",
    )
    parser.add_argument(
        "--quarantine",
        type=Path,
        default=None,
        metavar="DOSSIER",
        help="où vont les copies des exports refusés (par défaut : <entrepôt>.quarantine/)",
    )
    parser.add_argument(
        "--reference",
        type=Path,
        default=None,
        metavar="DOSSIER",
        help="le dossier des paramètres des règles (par défaut : CLASSEMENT_REFERENCE_DIR, "
        "sinon data/reference/)",
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
