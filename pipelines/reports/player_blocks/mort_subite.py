"""The Mort Subite rounds a player played and their season standings (docs/rules.md §6)."""

from __future__ import annotations

from typing import Any

import polars as pl

from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, fmt_date, fmt_number, table, tag
from pipelines.reports.labels import series_label
from pipelines.reports.player_blocks import PlayerBlock, PlayerRows, by_player, season_link

TROPHIES = {
    "series 1-3": "Trophée des séries 1 à 3",
    "series 4+": "Trophée des séries 4 et suivantes",
}


def _points(value: float | None) -> str:
    if value is None:
        return "—"
    if float(value).is_integer():
        return fmt_number(value)
    return fmt_number(value, 1 if float(value * 10).is_integer() else 2)


def load(data: ReportData) -> tuple[PlayerRows, PlayerRows, tuple[str, ...]]:
    """Each player's rounds (with date, host tournament and number of participants, by
    date) and season standings (by season), and the seasons with a report."""
    results = data.table("mort_subite_results")
    rounds = (
        data.table("mort_subite_players")
        .group_by("round_id")
        .agg(pl.col("date").first(), pl.col("final").first(), pl.col("host_tournament_id").first())
        .join(
            data.table("tournaments").select(
                pl.col("tournament_id").alias("host_tournament_id"),
                pl.col("tournament_name").alias("host_name"),
            ),
            on="host_tournament_id",
            how="left",
        )
        .join(results.group_by("round_id").len("participants"), on="round_id", how="inner")
    )
    played = results.join(rounds, on="round_id", how="inner").sort(
        "date", "final", "round_id", "player_id"
    )
    standings = data.table("mort_subite_standings").sort("season", "player_id")
    return by_player(played), by_player(standings), tuple(data.seasons())


def _round(r: dict[str, Any]) -> str:
    host = r["host_name"] or r["host_tournament_id"] or ""
    if r["final"] == 1:
        return f"Finale ({host})" if host else "Finale"
    return f"{r['round_id']} ({host})" if host else r["round_id"]


def _out(r: dict[str, Any]) -> str:
    if r["eliminated_at_move"] is None:
        return "en lice jusqu'au dernier coup"
    return f"coup {r['eliminated_at_move']} ({fmt_number(r['score_on_move'])} points joués)"


def _distinction(r: dict[str, Any]) -> str:
    parts = []
    if r["trophy"]:
        parts.append(TROPHIES.get(r["trophy"], f"Trophée {r['trophy']}"))
    if r["cup"]:
        parts.append(f"Coupe de la {series_label(r['cup']).lower()}")
    return " ; ".join(parts)


def render(player_id: str, loaded: tuple[PlayerRows, PlayerRows, tuple[str, ...]]) -> Html | None:
    rounds, standings = (part.rows_of(player_id) for part in loaded[:2])
    reported = loaded[2]
    if not rounds and not standings:
        return None
    parts: list[str] = []
    if rounds:
        parts += [
            tag("h3", "Manches disputées"),
            table(
                ["Date", "Saison", "Manche", "Place", "Points", "Élimination"],
                [
                    (
                        fmt_date(r["date"]),
                        season_link(r["season"], reported),
                        _round(r),
                        f"{r['place']} / {r['participants']}"
                        + (" (ex æquo)" if r["shared_with"] > 1 else ""),
                        _points(r["points"]),
                        _out(r),
                    )
                    for r in rounds
                ],
                numeric=(3, 4),
                caption="Points de la place (70 au vainqueur ; finale doublée) ; des joueurs "
                "éliminés au même coup avec le même score et le même rang du tournoi hôte se "
                "partagent les points de leurs places.",
            ),
        ]
    if standings:
        parts += [
            tag("h3", "Classement de la saison"),
            table(
                [
                    "Saison",
                    "Place",
                    "Série",
                    "Manches jouées",
                    "Retenues",
                    "Finale",
                    "Total",
                    "Distinction",
                ],
                [
                    (
                        season_link(r["season"], reported),
                        r["place"],
                        series_label(r["series"]),
                        r["rounds_played"],
                        r["rounds_counted"],
                        _points(r["final_points"]),
                        _points(r["total"]),
                        _distinction(r),
                    )
                    for r in standings
                ],
                numeric=(1, 3, 4, 5, 6),
            ),
        ]
    return Html("".join(parts))


BLOCK = PlayerBlock(
    key="mort_subite", title="Challenge Mort Subite", order=60, load=load, render=render
)
