"""The player page's national classifications (docs/rules.md §4): each season's national
series, the rule that gave it and its value, or the reason the rule does not classify the
player."""

from __future__ import annotations

from typing import Any

import polars as pl

from pipelines.reports.cells import Cell, table_shell, with_cells
from pipelines.reports.data import ReportData
from pipelines.reports.html import Html
from pipelines.reports.labels import NATIONAL_RULES, national_value, series_label
from pipelines.reports.player_blocks import PlayerBlock, PlayerRows, by_player, season_link


def load(data: ReportData) -> dict[str, Any]:
    federations = data.params.federations
    return {
        "rows": by_player(data.table("national_classification").sort("season", "player_id")),
        "names": dict(federations.names().rows()),
        "reported": tuple(data.seasons()),
    }


HEADERS = ("Saison", "Fédération", "Série nationale", "Sous-série", "Règle", "Valeur", "Raison")
NUMERIC = (5,)
CAPTION = (
    "Série pour la saison suivante selon la règle nationale de la fédération "
    "(les séries 1 à 4 sont celles de la cascade internationale)"
)


def _cells(loaded: dict[str, Any]) -> tuple[Cell, ...]:
    """A row's cells, from the columns of `national_classification`."""
    names: dict[str, str] = loaded["names"]
    reported = loaded["reported"]
    return (
        (("season",), lambda season: season_link(season, reported, "#national")),
        (("federation",), lambda federation: names.get(federation, federation)),
        (("series",), lambda series: series_label(series) if series is not None else None),
        (("subseries",), lambda subseries: subseries),
        (("rule",), lambda rule: NATIONAL_RULES.get(rule, rule)),
        (("rule", "value"), national_value),
        (("reason",), lambda reason: reason),
    )


def render(player_id: str, loaded: dict[str, Any]) -> Html | None:
    """One player's block: `render_chunk` of that player alone (the pages call
    `render_chunk`; a player's few rows are written row by row, `with_cells`)."""
    markup = render_chunk(pl.Series([player_id], dtype=pl.String), loaded).get(player_id)
    return Html(markup) if markup is not None else None


def render_chunk(players: pl.Series, loaded: dict[str, Any]) -> dict[str, str]:
    """The block of each of `players` who has national rows, built column-wise: each cell
    written once per distinct value (`with_cells`), where `render` wrote ~46,000 tables row
    by row for s20's pages (a quarter of their rendering's time)."""
    split: PlayerRows = loaded["rows"]
    if split.frame is None:
        return {}
    part = split.frame.filter(pl.col("player_id").is_in(players.implode()))
    if part.height == 0:
        return {}
    before, after = table_shell(list(HEADERS), NUMERIC, CAPTION)
    rows = with_cells(part, _cells(loaded), NUMERIC, "_cells")
    grouped = rows.group_by("player_id", maintain_order=True).agg(
        pl.concat_str(pl.lit("<tr>"), "_cells", pl.lit("</tr>")).str.join("")
    )
    return {pid: before + body + after for pid, body in grouped.iter_rows()}


BLOCK = PlayerBlock(
    key="national",
    title="Classement national",
    order=40,
    load=load,
    render=render,
    render_chunk=render_chunk,
)
