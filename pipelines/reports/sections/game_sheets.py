"""The game-sheet audit of the season: the duplicate games replayed, and every discrepancy
(a move whose stated score differs from the computed one, an irregular move, tops that do
not add up to the tournament's `top_total`)."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, definition_list, fmt_date, fmt_number, table, tag
from pipelines.reports.section import Fragment, Section

KEY = "game_sheets"

# The audit's statuses (`transforms.scoring`), as the committee reads them.
STATUS_LABELS = {
    "ok": "conforme",
    "score_differs": "score différent",
    "score_missing": "score non indiqué",
    "illegal": "coup irrégulier",
    "top_total_ok": "top total conforme",
    "top_total_differs": "top total différent",
    "top_total_unchecked": "top total non vérifié",
}
NO_TOTAL = "pas de top total dans les résultats"


def _status(code: str | None) -> str:
    return STATUS_LABELS.get(code or "", code or "—")


def _game_totals(moves: pl.DataFrame) -> pl.DataFrame:
    """Per tournament and game: moves, moves not conforming, and the sum of the computed
    tops (null when a move could not be scored)."""
    return (
        moves.group_by("tournament_id", "game")
        .agg(
            pl.len().alias("moves"),
            (pl.col("status") != "ok").sum().alias("findings"),
            pl.when(pl.col("computed_score").is_null().any())
            .then(None)
            .otherwise(pl.col("computed_score").sum())
            .alias("top"),
        )
        .sort("tournament_id", "game")
    )


def _tournament_label(names: dict[str, str | None], tid: str) -> str:
    """« Open de Vichy (D2024-003) », or the id alone when the name is not known."""
    name = names.get(tid)
    return f"{name} ({tid})" if name and name != tid else tid


def render(data: ReportData, season: str) -> Sequence[Fragment]:
    audit = data.for_season("game_sheet_audit", season)
    if audit.height == 0:
        return [
            Html(
                '<p class="note">Aucune feuille de partie reçue pour cette saison : aucune '
                "partie de duplicate n'a été rejouée.</p>"
            )
        ]
    events = data.tournaments(season).select("tournament_id", "tournament_name", "end_date")
    names: dict[str, str | None] = dict(
        events.select("tournament_id", "tournament_name").iter_rows()
    )
    moves = audit.filter(pl.col("move").is_not_null()).sort("tournament_id", "game", "move")
    totals = audit.filter(pl.col("move").is_null()).sort("tournament_id")
    games = _game_totals(moves)
    findings = audit.filter(pl.col("status").is_in(["ok", "top_total_ok"]).not_()).sort(
        "tournament_id", "game", "move", nulls_last=True
    )
    total_status = dict(totals.select("tournament_id", "status").iter_rows())
    total_counts = totals.group_by("status").len()
    counted = dict(total_counts.iter_rows())

    out: list[Fragment] = [
        Html(
            "<p>Chaque feuille de partie (la partie maîtresse d'une manche de duplicate : le "
            "top joué à chaque coup) est rejouée coup par coup sur une grille : placement, "
            "tirage et score de chaque coup sont vérifiés, ainsi que les règles du duplicate "
            "de la FISF (règlement de 2023 : premier coup horizontal, validité des tirages, "
            "fin de partie), puis la somme des tops calculés est comparée au top total des "
            "résultats du tournoi. La validité des mots (dictionnaire) n'est pas "
            "vérifiée.</p>"
        ),
        definition_list(
            {
                "Tournois audités": fmt_number(moves["tournament_id"].n_unique()),
                "Manches rejouées": fmt_number(games.height),
                "Coups rejoués": fmt_number(moves.height),
                "Coups conformes": fmt_number(moves.filter(pl.col("status") == "ok").height),
                "Coups avec un écart": fmt_number(moves.filter(pl.col("status") != "ok").height),
                "Tops totaux": (
                    f"{fmt_number(counted.get('top_total_ok', 0))} conforme(s), "
                    f"{fmt_number(counted.get('top_total_differs', 0))} différent(s), "
                    f"{fmt_number(counted.get('top_total_unchecked', 0))} non vérifié(s)"
                ),
            }
        ),
        tag("h3", "Tournois audités"),
    ]
    per_tournament = (
        games.group_by("tournament_id")
        .agg(
            pl.len().alias("games"),
            pl.col("moves").sum(),
            pl.col("findings").sum(),
        )
        .join(
            totals.select("tournament_id", "stated_score", "computed_score"),
            on="tournament_id",
            how="left",
        )
        .join(events.select("tournament_id", "end_date"), on="tournament_id", how="left")
        .sort("end_date", "tournament_id", nulls_last=True)
    )
    out.append(
        table(
            [
                "Date",
                "Tournoi",
                "Manches",
                "Coups",
                "Écarts",
                "Somme des tops calculés",
                "Top total annoncé",
                "Vérification",
            ],
            [
                (
                    fmt_date(r["end_date"]),
                    _tournament_label(names, r["tournament_id"]),
                    r["games"],
                    r["moves"],
                    r["findings"],
                    fmt_number(r["computed_score"]) if r["computed_score"] is not None else None,
                    fmt_number(r["stated_score"]) if r["stated_score"] is not None else None,
                    _status(total_status[r["tournament_id"]])
                    if r["tournament_id"] in total_status
                    else NO_TOTAL,
                )
                for r in per_tournament.iter_rows(named=True)
            ],
            numeric=(2, 3, 4, 5, 6),
        )
    )
    out.append(tag("h3", "Manches rejouées"))
    out.append(
        table(
            ["Tournoi", "Manche", "Coups", "Top de la manche (calculé)", "Écarts"],
            [
                (
                    _tournament_label(names, r["tournament_id"]),
                    r["game"],
                    r["moves"],
                    "non calculé" if r["top"] is None else fmt_number(r["top"]),
                    r["findings"],
                )
                for r in games.iter_rows(named=True)
            ],
            numeric=(1, 2, 3, 4),
        )
    )
    out.append(tag("h3", "Écarts"))
    if findings.height == 0:
        out.append(
            Html(
                '<p class="note">Aucun écart : chaque coup rejoué est conforme et chaque top '
                "total annoncé est juste.</p>"
            )
        )
        return out
    out.append(
        table(
            [
                "Tournoi",
                "Manche",
                "Coup",
                "Mot",
                "Position",
                "Score annoncé",
                "Score calculé",
                "Constat",
                "Détail",
            ],
            [
                (
                    _tournament_label(names, r["tournament_id"]),
                    r["game"],
                    r["move"],
                    r["word"],
                    r["position"],
                    r["stated_score"],
                    r["computed_score"],
                    _status(r["status"]),
                    r["message"],
                )
                for r in findings.iter_rows(named=True)
            ],
            numeric=(1, 2, 5, 6),
            caption="Coups dont le score annoncé diffère du score calculé, coups irréguliers "
            "ou sans score, et tops totaux différents ou non vérifiés (ligne sans manche ni "
            "coup : le total du tournoi)",
        )
    )
    return out


SECTION = Section(
    key=KEY,
    title="Feuilles de partie : coups rejoués et tops vérifiés",
    order=60,
    render=render,
    description="Parties de duplicate rejouées coup par coup, écarts de score et tops totaux.",
)
