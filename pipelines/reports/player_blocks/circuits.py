"""The regional circuits on a player's page: circuit points per tournament, places in the
years' rankings, and the round-robin finals played (docs/rules.md §5)."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, fmt_date, fmt_number, link, table
from pipelines.reports.player_blocks import PlayerBlock, PlayerRows, by_player
from transforms.round_robin.standings import TIEBREAK_LABELS

# From a player page (`joueurs/`) to the circuit pages.
CIRCUITS_PREFIX = "../circuits/"


@dataclass(frozen=True)
class _Loaded:
    circuit_names: dict[str, str]
    points: PlayerRows
    rankings: PlayerRows
    finals: PlayerRows


def _page(year: int, circuit: str, label: str) -> Html:
    return link(f"{CIRCUITS_PREFIX}{year}/{circuit.lower().replace('_', '-')}.html", label)


def _points(value: float | None) -> str:
    if value is None:
        return "—"
    return fmt_number(value, 0 if float(value).is_integer() else 1)


def load(data: ReportData) -> _Loaded:
    names = data.params.circuit_names
    events = data.tournaments().select("tournament_id", "tournament_name", "end_date")
    points = (
        data.table("circuit_points")
        .join(events, on="tournament_id", how="left")
        .join(
            data.table("results").select("tournament_id", "player_id", "rank"),
            on=["tournament_id", "player_id"],
            how="left",
        )
        .sort("end_date", "tournament_id", "player_id")
    )
    rankings = data.table("circuit_rankings")
    latest = rankings.group_by("circuit", "year").agg(pl.col("as_of").max())
    windows = (
        data.table("circuit_ranking_windows").select("after_tournament_id", "last_of_year").unique()
    )
    last = (
        rankings.join(latest, on=["circuit", "year", "as_of"], how="semi")
        .join(windows, on="after_tournament_id", how="left")
        .sort("year", "circuit", "player_id")
    )
    finals = (
        data.table("round_robin_standings")
        .join(events, on="tournament_id", how="left")
        .sort("end_date", "tournament_id", "player_id")
    )
    return _Loaded(
        circuit_names={e.code: e.name for e in names.entries},
        points=by_player(points),
        rankings=by_player(last),
        finals=by_player(finals),
    )


def render(pid: str, loaded: _Loaded) -> Html | None:
    points = loaded.points.rows_of(pid)
    rankings = loaded.rankings.rows_of(pid)
    finals = loaded.finals.rows_of(pid)
    if not points and not rankings and not finals:
        return None
    name = loaded.circuit_names
    parts: list[str] = []
    if rankings:
        parts.append(
            table(
                ["Année", "Circuit", "Place", "5 meilleurs", "Tournois joués", "Classement"],
                [
                    (
                        r["year"],
                        _page(r["year"], r["circuit"], name.get(r["circuit"], r["circuit"])),
                        r["place"],
                        _points(r["best5_total"]),
                        r["played"],
                        f"dernier de l'année (au {fmt_date(r['as_of'])})"
                        if r["last_of_year"]
                        else f"le plus récent (au {fmt_date(r['as_of'])})",
                    )
                    for r in rankings
                ],
                numeric=(0, 2, 3, 4),
                caption="Place au classement de fin d'année de chaque circuit",
            )
        )
    if points:
        parts.append(
            table(
                [
                    "Date",
                    "Tournoi",
                    "Circuit",
                    "Place",
                    "Tête de série",
                    "Duplicate",
                    "Victoires",
                    "Nuls",
                    "Classement final",
                    "Total",
                ],
                [
                    (
                        fmt_date(r["end_date"]),
                        r["tournament_name"] or r["tournament_id"],
                        _page(r["year"], r["circuit"], name.get(r["circuit"], r["circuit"])),
                        r["rank"],
                        r["seed"],
                        _points(r["duplicate_points"]),
                        _points(r["win_points"]),
                        _points(r["draw_points"]),
                        _points(r["final_points"]),
                        Html(f"<strong>{_points(r['total'])}</strong>"),
                    )
                    for r in points
                ],
                numeric=(3, 4, 5, 6, 7, 8, 9),
                caption="Points de circuit, tournoi par tournoi",
            )
        )
    if finals:
        parts.append(
            table(
                ["Date", "Finale", "Place", "Pts", "V", "N", "D", "Départagé par"],
                [
                    (
                        fmt_date(r["end_date"]),
                        _page(r["year"], r["circuit"], r["tournament_name"] or r["tournament_id"]),
                        r["place"] if r["place"] is not None else "abandon",
                        r["points"],
                        r["wins"],
                        r["draws"],
                        r["losses"],
                        TIEBREAK_LABELS.get(r["tiebreak_used"] or "", None),
                    )
                    for r in finals
                ],
                numeric=(2, 3, 4, 5, 6),
                caption="Finales en toutes rondes (Masters Grand Sud, Grand Est)",
            )
        )
    return Html("".join(parts))


BLOCK = PlayerBlock(key="circuits", title="Circuits régionaux", order=50, load=load, render=render)
