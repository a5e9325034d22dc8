"""The player page's national classifications (docs/rules.md §4): each season's national
series, the rule that gave it and its value, or the reason the rule does not classify the
player."""

from __future__ import annotations

from typing import Any

from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, table
from pipelines.reports.labels import NATIONAL_RULES, national_value, series_label
from pipelines.reports.player_blocks import PlayerBlock, by_player, season_link


def load(data: ReportData) -> dict[str, Any]:
    federations = data.params.federations
    return {
        "rows": by_player(data.table("national_classification").sort("season", "player_id")),
        "names": dict(federations.names().rows()),
        "reported": tuple(data.seasons()),
    }


def render(player_id: str, loaded: dict[str, Any]) -> Html | None:
    rows: list[dict[str, Any]] = loaded["rows"].rows_of(player_id)
    if not rows:
        return None
    names: dict[str, str] = loaded["names"]
    lines = [
        (
            season_link(r["season"], loaded["reported"], "#national"),
            names.get(r["federation"], r["federation"]),
            series_label(r["series"]) if r["series"] is not None else None,
            r["subseries"],
            NATIONAL_RULES.get(r["rule"], r["rule"]),
            national_value(r["rule"], r["value"]),
            r["reason"],
        )
        for r in rows  # in season order (`load`)
    ]
    return table(
        ["Saison", "Fédération", "Série nationale", "Sous-série", "Règle", "Valeur", "Raison"],
        lines,
        numeric=(5,),
        caption="Série pour la saison suivante selon la règle nationale de la fédération "
        "(les séries 1 à 4 sont celles de la cascade internationale)",
    )


BLOCK = PlayerBlock(
    key="national",
    title="Classement national",
    order=40,
    load=load,
    render=render,
)
