"""`classement backtest`: which rating system predicts the games best (docs/rules.md §10)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from pipelines.paths import DEFAULT_RAW_DIR


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "backtest",
        help="rétro-évaluation : quel système de classement prédit le mieux les parties",
        description="Rejoue les parties dans l'ordre des tournois ; avant chaque tournoi, "
        "chaque système (la cote, l'Elo de chaque préréglage, Glicko-2, Weng-Lin et deux "
        "références) prédit chaque partie avec les classements figés au début du tournoi ; "
        "les prédictions sont notées (perte logarithmique, score de Brier, taux de réussite, "
        "intervalles par bootstrap des tournois, calibration). Écrit backtest.duckdb "
        "(tables rating_backtest et rating_backtest_calibration), index.html et "
        "backtest.pdf dans data/backtest/. L'entrepôt et les exports sont seulement lus. "
        "Sortie 0 : tout est écrit ; 1 : un export a été refusé (le reste est noté) ; "
        "2 : rien à évaluer ou option invalide ; 3 : le PDF n'a pas pu être imprimé.",
    )
    parser.add_argument(
        "--raw",
        type=Path,
        default=None,
        help="dossier d'exports lus comme par une construction (défaut : data/sample/)",
    )
    parser.add_argument(
        "--warehouse",
        type=Path,
        default=None,
        help="entrepôt DuckDB construit, lu seulement (au lieu de --raw)",
    )
    parser.add_argument(
        "--systems",
        nargs="+",
        default=None,
        metavar="SYSTÈME",
        help="les systèmes évalués (défaut : tous) : cote, elo_<préréglage>, glicko2, "
        "weng_lin, coin, higher_cote",
    )
    parser.add_argument(
        "--from",
        dest="from_season",
        default=None,
        metavar="SAISON",
        help="première saison notée, ex. 2010-2011 (les précédentes établissent les classements)",
    )
    parser.add_argument(
        "--min-games",
        type=int,
        default=None,
        help="parties antérieures des deux joueurs pour le sous-ensemble « confirmés » "
        "(défaut : data/reference/backtest.yaml, 20)",
    )
    parser.add_argument(
        "--reference", type=Path, default=None, help="dossier des paramètres (data/reference/)"
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="dossier de sortie (défaut : data/backtest/)"
    )
    parser.add_argument("--no-pdf", action="store_true", help="ne pas imprimer le PDF")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pipelines.backtest.report import system_label
    from pipelines.backtest.run import from_raw, from_warehouse, run_backtest
    from pipelines.reference.bundle import load_parameters
    from pipelines.reports.html import fmt_number
    from transforms.backtest import ALL_SEASONS, BacktestError

    start = time.perf_counter()
    if args.min_games is not None and args.min_games < 0:
        print("Rétro-évaluation impossible : --min-games doit être positif ou nul", file=sys.stderr)
        return 2
    if args.raw is not None and args.warehouse is not None:
        print(
            "Rétro-évaluation impossible : --raw et --warehouse s'excluent (l'un ou l'autre)",
            file=sys.stderr,
        )
        return 2
    parameters = load_parameters(args.reference)
    try:
        if args.warehouse is not None:
            inputs = from_warehouse(args.warehouse.resolve())
        else:
            inputs = from_raw((args.raw or DEFAULT_RAW_DIR).resolve(), parameters)
        read = time.perf_counter() - start
        for rejected in inputs.rejected:
            print(f"Export refusé : {rejected.message}", file=sys.stderr)
        outputs = run_backtest(
            inputs,
            parameters,
            out_dir=args.out.resolve() if args.out else None,
            systems=args.systems,
            from_season=args.from_season,
            min_games=args.min_games,
            pdf=not args.no_pdf,
            progress=lambda message: print(message, flush=True),
        )
    except BacktestError as err:
        print(f"Rétro-évaluation impossible : {err}", file=sys.stderr)
        return 2
    table = outputs.scores.table.filter(
        (outputs.scores.table["season"] == ALL_SEASONS) & (outputs.scores.table["subset"] == "all")
    )
    print(f"Toutes les saisons notées ({fmt_number(int(table['games'][0]))} parties) :")
    for row in table.iter_rows(named=True):
        print(
            f"  {system_label(row['system'])} : perte log. {fmt_number(row['log_loss'], 4)} "
            f"[{fmt_number(row['log_loss_low'], 4)} ; {fmt_number(row['log_loss_high'], 4)}], "
            f"Brier {fmt_number(row['brier'], 4)} "
            f"[{fmt_number(row['brier_low'], 4)} ; {fmt_number(row['brier_high'], 4)}]"
        )
    if outputs.verdict is not None:
        print(f"Meilleur : {system_label(outputs.verdict.best)}")
    print(f"Tables : {outputs.database}")
    print(f"Rapport : {outputs.html}")
    if outputs.pdf is not None:
        print(f"PDF : {outputs.pdf}")
    steps = {"lecture": read} | {
        {"predictions": "prédictions", "scores": "scores", "report": "rapport"}.get(k, k): v
        for k, v in outputs.timings.items()
    }
    print(
        f"Durée : {fmt_number(time.perf_counter() - start, 1)} s ("
        + ", ".join(f"{k} {fmt_number(v, 1)} s" for k, v in steps.items())
        + ")"
    )
    if outputs.pdf_error:
        print(f"PDF manquant : {outputs.pdf_error}", file=sys.stderr)
        return 3
    return 1 if inputs.rejected else 0
