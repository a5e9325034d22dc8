"""The season at a glance: its tournaments and how many played them."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, count_of, definition_list, fmt_date, fmt_number, table
from pipelines.reports.labels import DISCIPLINES, category_label
from pipelines.reports.section import Fragment, Section


def render(data: ReportData, season: str) -> Sequence[Fragment]:
    start, end = data.season_bounds(season)
    events = data.tournaments(season)
    results = data.season_results(season, ["tournament_id", "player_id"]).join(
        events.select("tournament_id", "discipline"), on="tournament_id"
    )
    facts: dict[str, object] = {
        "Période": f"du {fmt_date(start)} au {fmt_date(end)}",
        "Tournois": fmt_number(events.height),
        "Joueurs ayant au moins un résultat": fmt_number(results["player_id"].n_unique()),
    }
    for code, label in DISCIPLINES.items():
        played = results.filter(pl.col("discipline") == code)
        count = events.filter(pl.col("discipline") == code).height
        if count:
            facts[f"{label}"] = (
                f"{count_of(count, 'tournoi')}, "
                f"{count_of(played['player_id'].n_unique(), 'joueur')}"
            )
    rows = [
        (
            fmt_date(r["end_date"]),
            r["tournament_name"] or r["tournament_id"],
            r["city"],
            DISCIPLINES.get(r["discipline"], r["discipline"]),
            category_label(r["category"]),
            r["players"],
        )
        for r in events.iter_rows(named=True)
    ]
    return [
        definition_list(facts),
        Html("<h3>Tournois de la saison</h3>"),
        table(
            ["Date", "Tournoi", "Ville", "Discipline", "Catégorie", "Joueurs"],
            rows,
            numeric=(5,),
        ),
    ]


SECTION = Section(
    key="overview",
    title="Vue d'ensemble de la saison",
    order=0,
    render=render,
    description="Période, tournois par discipline et participation.",
)
