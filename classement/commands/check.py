"""`classement check FILE…`: the organiser's check before sending exports.

Each file (or every export of a folder given) is read and checked exactly as the build's
ingest does (`pipelines.ingest.batch.ingest_files`: reading, typing, every check of the
base kinds and of the families' kinds, games against the results given with them), with
no warehouse and nothing written. Files are checked together, as the build would take
them from one raw folder: give a tournament's games with its results.

Prints one line per file, in French: « ✓ accepté » with what it holds, a note when the
file loads with one (ranks renumbered), or « ✗ » and the message the build would record
(file, row, column, what is wrong). Exit status 0 when every file is accepted, 1 when one
is refused (or missing), 2 when no file was given that could be looked at.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path, PurePath

from classement.dates import add_as_of
from pipelines.ingest.batch import ingest_files
from pipelines.ingest.errors import quantity
from pipelines.ingest.raw import COMPANION_SUFFIXES, EXPORT_SUFFIXES, read_raw, refused_paths
from pipelines.ingest.read import TSH_CONFIG
from pipelines.reference.bundle import load_parameters
from pipelines.reports.html import count_of

KIND_LABELS = {
    "results": "résultats",
    "games": "parties",
    "rating_list": "liste de classement",
    "published_series": "classement publié",
    "companion": "configuration TSH",
}


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "check",
        help="contrôler des exports comme la construction, avant de les envoyer",
        description="Lit et contrôle des exports de tournois (CSV, XLSX, AUPAIR .tou, TSH "
        ".t, classement FFSc) exactement comme `classement build`, sans entrepôt : une ligne "
        "par fichier. Un dossier vaut pour tous les exports qu'il contient. Code de sortie 0 "
        "quand chaque fichier est accepté, 1 quand l'un est refusé, 2 quand rien n'a pu être "
        "contrôlé.",
    )
    parser.add_argument(
        "files", nargs="+", type=Path, metavar="FICHIER", help="des exports ou des dossiers"
    )
    parser.add_argument(
        "--reference",
        type=Path,
        metavar="DOSSIER",
        help="le dossier des paramètres des règles (par défaut : CLASSEMENT_REFERENCE_DIR, "
        "sinon data/reference/), lu comme par la construction",
    )
    add_as_of(parser)
    parser.set_defaults(func=run)


def _gather(args: list[Path]) -> tuple[dict[str, bytes], dict[str, str], list[str]]:
    """(bytes of each file by its name as given, files refused unread with their message,
    the names in the order to report). A folder gives its exports (`dir/relative`); a TSH
    export's `config.tsh` beside it is read with it."""
    files: dict[str, bytes] = {}
    refused: dict[str, str] = {}
    order: list[str] = []
    for arg in args:
        shown = arg.as_posix()
        if arg.is_dir():
            prefix = shown.rstrip("/")
            for key, data in read_raw(arg).items():
                files[f"{prefix}/{key}"] = data
                order.append(f"{prefix}/{key}")
            for key, message in refused_paths(arg).items():
                refused[f"{prefix}/{key}"] = f"{prefix}/{message}"
                order.append(f"{prefix}/{key}")
            continue
        if not arg.is_file():
            refused[shown] = f"{shown} : fichier introuvable"
            order.append(shown)
            continue
        if arg.suffix.lower() not in EXPORT_SUFFIXES | COMPANION_SUFFIXES:
            refused[shown] = (
                f"{shown} : type de fichier « {arg.suffix} » non pris en charge (attendu : "
                ".csv, .xlsx, .tou ou .t)"
            )
            order.append(shown)
            continue
        files[shown] = arg.read_bytes()
        order.append(shown)
        config = arg.with_name(TSH_CONFIG)
        if arg.suffix.lower() == ".t" and config.is_file():
            files.setdefault(PurePath(shown).with_name(TSH_CONFIG).as_posix(), config.read_bytes())
    return files, refused, list(dict.fromkeys(order))


def run(args: argparse.Namespace) -> int:
    files, refused, order = _gather(list(args.files))
    if not order:
        print("erreur : aucun export à vérifier", file=sys.stderr)
        return 2
    result = ingest_files(
        files, params=load_parameters(args.reference), refused=refused, as_of=args.as_of
    )
    log = {row["path"]: row for row in result.log.iter_rows(named=True)}
    bad = 0
    for name in order:
        row = log.get(name)
        if row is None:
            continue
        if row["status"] == "rejected":
            bad += 1
            print(f"✗ {row['message']}")
            continue
        kinds = [KIND_LABELS.get(k, k) for k in (row["kinds"] or "").split("+") if k]
        what = ", ".join(kinds) or "rien"
        detail = f"{count_of(row['rows'], 'ligne')} ({what})"
        if row["tournaments"]:
            detail += f", {count_of(row['tournaments'], 'tournoi')}"
        print(f"✓ {name} : accepté, {detail}")
        if row["message"]:
            for note in str(row["message"]).splitlines():
                print(f"  ℹ {note}")
    checked = len([n for n in order if n in log])
    total = quantity(checked, "fichier vérifié", "fichiers vérifiés")
    if bad:
        refused_count = quantity(bad, "refusé", "refusés")
        print(
            f"\n{total}, {refused_count} : corrigez {'le fichier' if bad == 1 else 'les fichiers'}"
            " puis vérifiez de nouveau avant l'envoi."
        )
        return 1
    print(f"\n{total} : tout est accepté.")
    return 0
