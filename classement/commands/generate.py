"""`classement generate`: write a simulated sample of federation exports."""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from pipelines.paths import DEFAULT_RAW_DIR, REFERENCE_DIR
from pipelines.reports.html import count_of, fmt_number

_SEASON_DIR = re.compile(r"^\d{4}-\d{4}$")
_RATING_LIST = re.compile(r"^rating_list_\d{4}-\d{2}-\d{2}\.csv$")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "generate",
        help="écrire les exports d'une fédération simulée (reproductible)",
        description="Simule joueurs, clubs et saisons de tournois duplicate, classique et "
        "DCDL, et écrit leurs exports (résultats, parties, une liste de classement). La même "
        "graine et les mêmes arguments donnent les mêmes fichiers, octet pour octet. Code de "
        "sortie 1 si DOSSIER contient déjà des fichiers (sauf --force), 2 pour des arguments "
        "invalides.",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_RAW_DIR,
        metavar="DOSSIER",
        help="le dossier écrit (par défaut : data/sample/)",
    )
    parser.add_argument(
        "--seed", type=int, default=2026, metavar="N", help="graine du tirage aléatoire (2026)"
    )
    parser.add_argument("--seasons", type=int, default=3, metavar="N", help="nombre de saisons (3)")
    parser.add_argument(
        "--players", type=int, default=1000, metavar="N", help="joueurs au départ (1 000)"
    )
    parser.add_argument(
        "--first-season",
        type=int,
        default=2023,
        metavar="ANNÉE",
        help="année où commence la première saison, au jour que fixe "
        "data/reference/seasons.yaml (2023)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="supprimer d'abord un échantillon précédent dans DOSSIER (dossiers de saison et "
        "listes de classement)",
    )
    parser.set_defaults(func=run)


def _clear(out: Path) -> list[Path]:
    """Delete what a previous run wrote in `out`; return the entries left."""
    import shutil

    for entry in sorted(out.iterdir()):
        if entry.is_dir() and _SEASON_DIR.match(entry.name):
            shutil.rmtree(entry)
        elif entry.is_file() and _RATING_LIST.match(entry.name):
            entry.unlink()
    return sorted(out.iterdir())


def run(args: argparse.Namespace) -> int:
    from pipelines.reference.seasons import load_calendar
    from simulator import GenerateConfig, generate

    out: Path = args.out
    if args.players < 100 or args.seasons < 1:
        print(
            "erreur : il faut au moins 100 joueurs (--players) et 1 saison (--seasons)",
            file=sys.stderr,
        )
        return 2
    if out.exists() and any(out.iterdir()):
        if not args.force:
            print(
                f"erreur : {out} n'est pas vide : --force remplace l'échantillon qu'il contient",
                file=sys.stderr,
            )
            return 1
        left = _clear(out)
        if left:
            names = ", ".join(p.name for p in left)
            print(f"note : gardé, car non écrit par generate : {names}", file=sys.stderr)
    config = GenerateConfig(
        seed=args.seed, seasons=args.seasons, players=args.players, first_season=args.first_season
    )
    started = time.perf_counter()
    try:
        summary = generate(out, config, load_calendar(REFERENCE_DIR))
    except ValueError as err:  # a bad configuration or seasons.yaml (ReferenceDataError)
        print(f"erreur : {err}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    t = summary.tournaments
    print(
        f"{count_of(summary.files, 'fichier')} écrits ({fmt_number(summary.bytes / 1e6, 1)} Mo) "
        f"dans {out} en {fmt_number(elapsed, 1)} s : "
        f"{count_of(config.seasons, 'saison')} à partir de {config.first_season}, "
        f"graine {config.seed}"
    )
    print(
        f"  tournois : {fmt_number(sum(t.values()))} ({fmt_number(t['duplicate'])} duplicate, "
        f"{fmt_number(t['classique'])} classique, {fmt_number(t['dcdl'])} DCDL)"
    )
    print(
        f"  lignes : {fmt_number(summary.result_rows)} de résultats, "
        f"{fmt_number(summary.game_rows)} de parties, {fmt_number(summary.rating_rows)} de "
        f"liste de classement, {fmt_number(summary.ranking_rows)} des classements FFSc ; "
        f"{count_of(summary.players, 'joueur licencié', 'joueurs licenciés')}"
    )
    return 0
