"""`classement elo` (the calculator of [003]) and `classement cote explain PLAYER_ID`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import duckdb
import polars as pl

from pipelines.paths import DEFAULT_WAREHOUSE, REFERENCE_DIR
from pipelines.reference.classique import load_elo_params, load_elo_presets
from pipelines.reports.html import fmt_date, fmt_number
from pipelines.warehouse import Warehouse
from transforms.elo import EloCurve, curve_for, elo_change

CRITERIA = {"pct_n1": "%N1", "pct_n2": "%N2", "pct_n3": "%N3", "pct_n4": "%N4", "pc": "PC"}
RESULT_LABELS = {"win": "victoire", "draw": "nulle", "loss": "défaite"}
RESULT_SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}
RESULT_WORDS = {label: result for result, label in RESULT_LABELS.items()}


def _result(text: str) -> str:
    """`--result`: victoire, nulle, défaite (or win, draw, loss); refused in French."""
    word = text.strip().lower()
    result = RESULT_WORDS.get(word, word)
    if result not in RESULT_SCORES:
        raise argparse.ArgumentTypeError(f"« {text} » : victoire, nulle ou défaite attendu")
    return result


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    elo_p = subparsers.add_parser(
        "elo",
        help="calculateur Elo : score attendu et variation du classement après une partie",
        description="Score attendu, probabilité de gain et variation Elo d'une partie "
        "(docs/rules.md §2). Les valeurs par défaut sont celles de data/reference/elo.yaml.",
    )
    elo_p.add_argument(
        "--rating", type=float, required=True, metavar="ELO", help="votre classement"
    )
    elo_p.add_argument(
        "--opponent", type=float, required=True, metavar="ELO", help="celui de l'adversaire"
    )
    elo_p.add_argument(
        "--result",
        type=_result,
        required=True,
        metavar="{victoire,nulle,défaite}",
        help="le résultat de la partie (win, draw, loss acceptés aussi)",
    )
    elo_p.add_argument(
        "--k", type=float, default=None, metavar="K", help="facteur K (par défaut : elo.yaml)"
    )
    elo_p.add_argument(
        "--curve",
        choices=["base10", "logistic"],
        default=None,
        help="la courbe du score attendu : base 10 (FIDE) ou logistique",
    )
    elo_p.add_argument(
        "--scale",
        type=float,
        default=None,
        metavar="ÉCHELLE",
        help="échelle de la courbe (par défaut : celle du premier préréglage de elo.yaml "
        "qui utilise cette courbe)",
    )
    elo_p.add_argument(
        "--cap",
        type=float,
        default=None,
        metavar="ÉCART",
        help="compter un écart plus grand comme celui-ci (FIDE : 400)",
    )
    elo_p.add_argument("--json", action="store_true", help="écrire les valeurs exactes en JSON")
    elo_p.set_defaults(func=run_elo)

    cote_p = subparsers.add_parser(
        "cote",
        help="la cote classique : son historique expliqué",
        description="La cote classique d'un joueur (docs/rules.md §1).",
    )
    cote_sub = cote_p.add_subparsers(
        dest="cote_command", required=True, metavar="ACTION", title="actions "
    )
    explain = cote_sub.add_parser(
        "explain",
        help="l'historique de la cote d'un joueur, tournoi par tournoi",
        description="Chaque tournoi classique du joueur : date, tournoi, cote avant, "
        "place/N, PE, B, PJ brut→borné, cote après.",
    )
    explain.add_argument("player_id", metavar="LICENCE", help="la licence du joueur")
    explain.add_argument(
        "--warehouse",
        type=Path,
        default=DEFAULT_WAREHOUSE,
        metavar="FICHIER",
        help=f"l'entrepôt DuckDB (par défaut : {DEFAULT_WAREHOUSE.name} du dossier data/)",
    )
    explain.set_defaults(func=run_cote_explain)


def _change(value: int) -> str:
    """`+3`, `−39`, `+0`: a cote's change (PE, B, PJ), always signed."""
    return "+" + fmt_number(value) if value >= 0 else fmt_number(value)


def _plain(value: float) -> str:
    """A number as given, in French: `1 500`, `1 512,5`, `0,25` (no trailing zeros)."""
    text = fmt_number(value, 6)
    return text.rstrip("0").rstrip(",") if "," in text else text


def _signed(x: float) -> str:
    """`+15,2`, `−4,8`: a change, one decimal, always signed."""
    return "+" + fmt_number(x, 1) if round(x, 1) >= 0 else fmt_number(x, 1)


def run_elo(args: argparse.Namespace) -> int:
    default = load_elo_params(REFERENCE_DIR)
    kind = args.curve or default.curve.kind
    if args.scale is not None:
        curve = EloCurve(kind=kind, scale=args.scale)
    else:
        curve = curve_for(kind, list(load_elo_presets(REFERENCE_DIR).values()))
    if curve.scale <= 0:
        print("erreur : l'échelle de la courbe doit être positive", file=sys.stderr)
        return 2
    k = args.k if args.k is not None else default.k.k_default
    expected, delta = elo_change(args.rating, args.opponent, args.result, k, curve, args.cap)
    if args.json:
        print(
            json.dumps(
                {
                    "rating": args.rating,
                    "opponent": args.opponent,
                    "difference": args.rating - args.opponent,
                    "result": args.result,
                    "score": RESULT_SCORES[args.result],
                    "k": k,
                    "curve": curve.kind,
                    "scale": curve.scale,
                    "cap_difference": args.cap,
                    "expected": expected,
                    "delta": delta,
                    "rating_after": args.rating + delta,
                },
                ensure_ascii=False,
            )
        )
        return 0
    diff = args.rating - args.opponent
    gap = ("+" if diff > 0 else "") + _plain(diff)
    curve_name = "base 10" if curve.kind == "base10" else "logistique"
    print(
        f"Classement : {_plain(args.rating)}   adversaire : {_plain(args.opponent)}   écart : {gap}"
    )
    print(f"Courbe : {curve_name}, échelle {_plain(curve.scale)}   K = {_plain(k)}")
    print(f"Score attendu : {fmt_number(expected, 2)} ({fmt_number(expected, 4)})")
    print(
        "Probabilité de gain (score attendu, une nulle valant ½) : "
        f"{fmt_number(100 * expected, 1)} %"
    )
    print(
        f"Résultat : {RESULT_LABELS[args.result]} (S = {_plain(RESULT_SCORES[args.result])})   "
        f"variation : {_signed(delta)}   nouveau classement : {fmt_number(args.rating + delta, 1)}"
    )
    return 0


def run_cote_explain(args: argparse.Namespace) -> int:
    wh = Warehouse(Path(args.warehouse))
    if not wh.exists():
        print(
            f"erreur : l'entrepôt {args.warehouse} n'existe pas (lancez d'abord le calcul)",
            file=sys.stderr,
        )
        return 1
    try:
        tables = wh.tables()
    except duckdb.Error as exc:
        print(f"erreur : impossible d'ouvrir l'entrepôt {args.warehouse} : {exc}", file=sys.stderr)
        return 1
    if "cote_history" not in tables:
        print(
            f"erreur : l'entrepôt {args.warehouse} n'a pas de table cote_history "
            "(matérialisez l'asset cote_history)",
            file=sys.stderr,
        )
        return 1
    counts = (
        "JOIN (SELECT tournament_id, count(*) AS n FROM cote_history GROUP BY tournament_id) "
        "c USING (tournament_id) "
    )
    if "tournaments" in tables:
        sql = (
            "SELECT h.*, c.n, t.end_date, t.tournament_name FROM cote_history h "
            + counts
            + "LEFT JOIN tournaments t USING (tournament_id) WHERE h.player_id = ? "
            "ORDER BY t.end_date, coalesce(t.start_date, t.end_date), h.tournament_id"
        )
    else:
        sql = (
            "SELECT h.*, c.n, NULL AS end_date, NULL AS tournament_name FROM cote_history h "
            + counts
            + "WHERE h.player_id = ? ORDER BY h.tournament_id"
        )
    rows = wh.read(sql, [args.player_id])
    if rows.height == 0:
        return _explain_without_cote(wh, tables, args.player_id)
    counted = f"{rows.height} tournoi{'s' if rows.height > 1 else ''}"
    print(f"Cote de {_player_label(wh, tables, args.player_id)} — {counted}")
    for r in rows.iter_rows(named=True):
        name = r["tournament_name"] or r["tournament_id"]
        pj = _change(r["pj_raw"])
        if r["pj_raw"] != r["pj"]:
            pj += f"→{_change(r['pj'])}"
        when = fmt_date(r["end_date"]) if r["end_date"] is not None else "?"
        print(
            f"{when}  {name} ({r['tournament_id']})  "
            f"cote {fmt_number(r['cote_before'])}  place {r['rank']}/{r['n']}  "
            f"PE {_change(r['pe'])}  B {_change(r['bonus'])}  PJ {pj}  "
            f"→ {fmt_number(r['cote_after'])}"
        )
    return 0


def _explain_without_cote(wh: Warehouse, tables: list[str], player_id: str) -> int:
    """A player known to the warehouse who played no rated classique tournament: say so,
    with what the warehouse holds of them instead (their duplicate series, the cote of a
    rating list); 1 only when nothing is known of them at all."""
    known = (
        "players" in tables
        and wh.read("SELECT count(*) AS n FROM players WHERE player_id = ?", [player_id]).item()
    )
    if not known:
        print(f"joueur inconnu : {player_id} (absent de l'entrepôt)", file=sys.stderr)
        return 1
    label = _player_label(wh, tables, player_id)
    print(f"{label} : aucun tournoi classique coté, donc aucune cote calculée ici.")
    if "results" in tables and "tournaments" in tables:
        played = wh.read(
            "SELECT t.discipline, count(*) AS n FROM results r JOIN tournaments t "
            "USING (tournament_id) WHERE r.player_id = ? GROUP BY 1 ORDER BY 1",
            [player_id],
        )
        for discipline, n in played.iter_rows():
            print(f"  tournois {discipline} : {n}")
    if "rating_lists" in tables:
        listed = wh.read(
            "SELECT as_of, cote, series FROM rating_lists WHERE player_id = ? "
            "AND (cote IS NOT NULL OR series IS NOT NULL) ORDER BY as_of DESC LIMIT 1",
            [player_id],
        )
        for as_of, cote, series in listed.iter_rows():
            parts = [f"cote {fmt_number(cote)}" if cote is not None else ""]
            parts.append(f"série {series}" if series else "")
            print(
                f"  liste de classement du {fmt_date(as_of)} : {', '.join(p for p in parts if p)}"
            )
    if "series_classification" in tables:
        classes = wh.read(
            "SELECT season, series, super_serie, criterion, value FROM series_classification "
            "WHERE player_id = ? ORDER BY season",
            [player_id],
        )
        for season, series, superserie, criterion, value in classes.iter_rows():
            held = "super-série" if superserie else f"série {series}"
            name = CRITERIA.get(criterion or "", criterion)
            unit = "" if criterion == "pc" else " %"
            measure = "" if value is None else f" ({name} {fmt_number(value, 2)}{unit})"
            print(f"  duplicate, fin de saison {season} : {held}{measure}")
    print("  (détail des séries et des %N1–%N4 : la fiche du joueur dans les rapports)")
    return 0


def _player_label(wh: Warehouse, tables: list[str], player_id: str) -> str:
    if "players" not in tables:
        return player_id
    found: pl.DataFrame = wh.read(
        "SELECT first_name, last_name FROM players WHERE player_id = ?", [player_id]
    )
    if found.height == 0:
        return player_id
    first, last = found.row(0)
    name = " ".join(x for x in (last, first) if x)  # « Dufour Hélène », as the reports
    return f"{name} ({player_id})" if name else player_id
