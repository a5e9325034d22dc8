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
from pipelines.warehouse import Warehouse
from transforms.elo import EloCurve, curve_for, elo_change

CRITERIA = {"pct_n1": "%N1", "pct_n2": "%N2", "pct_n3": "%N3", "pct_n4": "%N4", "pc": "PC"}
RESULT_LABELS = {"win": "victoire", "draw": "nulle", "loss": "défaite"}
RESULT_SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    elo_p = subparsers.add_parser(
        "elo",
        help="Elo calculator: expected score and rating change of one game",
        description="Expected score, win-probability framing and Elo change of one game "
        "(docs/rules.md §2). Defaults come from data/reference/elo.yaml.",
    )
    elo_p.add_argument("--rating", type=float, required=True, help="your rating")
    elo_p.add_argument("--opponent", type=float, required=True, help="the opponent's rating")
    elo_p.add_argument("--result", choices=list(RESULT_SCORES), required=True)
    elo_p.add_argument("--k", type=float, default=None, help="K factor (default: elo.yaml)")
    elo_p.add_argument("--curve", choices=["base10", "logistic"], default=None)
    elo_p.add_argument(
        "--scale",
        type=float,
        default=None,
        help="curve scale (default: that of the first elo.yaml preset using the curve)",
    )
    elo_p.add_argument(
        "--cap", type=float, default=None, help="count a larger difference as this (FIDE: 400)"
    )
    elo_p.add_argument("--json", action="store_true", help="print exact values as JSON")
    elo_p.set_defaults(func=run_elo)

    cote_p = subparsers.add_parser("cote", help="The classique cote (docs/rules.md §1)")
    cote_sub = cote_p.add_subparsers(dest="cote_command", required=True, metavar="ACTION")
    explain = cote_sub.add_parser(
        "explain",
        help="print a player's cote history, tournament by tournament",
        description="Each classique tournament of the player: date, tournament, cote before, "
        "rank/N, PE, B, PJ raw→clamped, cote after.",
    )
    explain.add_argument("player_id")
    explain.add_argument("--warehouse", type=Path, default=DEFAULT_WAREHOUSE)
    explain.set_defaults(func=run_cote_explain)


def _signed(x: float) -> str:
    return f"{x:+.1f}"


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
    print(f"Classement : {args.rating:g}   adversaire : {args.opponent:g}   écart : {diff:+g}")
    print(f"Courbe : {curve.kind}, échelle {curve.scale:g}   K = {k:g}")
    print(f"Score attendu : {expected:.2f} ({expected:.4f})")
    print(f"Probabilité de gain (score attendu, une nulle valant ½) : {100 * expected:.1f} %")
    print(
        f"Résultat : {RESULT_LABELS[args.result]} (S = {RESULT_SCORES[args.result]:g})   "
        f"variation : {_signed(delta)}   nouveau classement : {args.rating + delta:.1f}"
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
        pj = f"{r['pj_raw']:+d}" if r["pj_raw"] == r["pj"] else f"{r['pj_raw']:+d}→{r['pj']:+d}"
        print(
            f"{r['end_date'] or '?'}  {name} ({r['tournament_id']})  "
            f"cote {r['cote_before']}  place {r['rank']}/{r['n']}  "
            f"PE {r['pe']:+d}  B {r['bonus']:+d}  PJ {pj}  → {r['cote_after']}"
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
            parts = [f"cote {cote}" if cote is not None else ""]
            parts.append(f"série {series}" if series else "")
            print(f"  liste de classement du {as_of} : {', '.join(p for p in parts if p)}")
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
            measure = "" if value is None else f" ({name} {value:.2f}{unit})".replace(".", ",")
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
    name = " ".join(x for x in (first, last) if x)
    return f"{name} ({player_id})" if name else player_id
