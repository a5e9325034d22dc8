"""`classement generate`: write a simulated sample of federation exports."""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from pipelines.paths import DEFAULT_RAW_DIR, REFERENCE_DIR

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
        print("generate: needs --players >= 100 and --seasons >= 1", file=sys.stderr)
        return 2
    if out.exists() and any(out.iterdir()):
        if not args.force:
            print(f"{out} is not empty: use --force to replace its sample", file=sys.stderr)
            return 1
        left = _clear(out)
        if left:
            names = ", ".join(p.name for p in left)
            print(f"note: kept entries not written by generate: {names}", file=sys.stderr)
    config = GenerateConfig(
        seed=args.seed, seasons=args.seasons, players=args.players, first_season=args.first_season
    )
    started = time.perf_counter()
    try:
        summary = generate(out, config, load_calendar(REFERENCE_DIR))
    except ValueError as err:  # a bad configuration or seasons.yaml (ReferenceDataError)
        print(f"generate: {err}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    t = summary.tournaments
    print(
        f"Wrote {summary.files} files ({summary.bytes / 1e6:.1f} MB) to {out} in {elapsed:.1f} s: "
        f"{config.seasons} seasons from {config.first_season}, seed {config.seed}"
    )
    print(
        f"  tournaments: {sum(t.values())} ({t['duplicate']} duplicate, "
        f"{t['classique']} classique, {t['dcdl']} dcdl)"
    )
    print(
        f"  rows: {summary.result_rows} results, {summary.game_rows} games, "
        f"{summary.rating_rows} rating list, {summary.ranking_rows} in the FFSc rankings; "
        f"{summary.players} players licensed"
    )
    return 0
