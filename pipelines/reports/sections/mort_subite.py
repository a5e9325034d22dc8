"""The Belgian Mort Subite challenge of the season: its rounds, how each was played down
move by move, the season standings, trophies and cups (docs/rules.md §6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from pipelines.reports.charts import PALETTE, axis, base_layout
from pipelines.reports.data import ReportData
from pipelines.reports.html import (
    Html,
    fmt_date,
    fmt_number,
    join,
    player_link,
    plotly_text,
    table,
    tag,
)
from pipelines.reports.labels import series_label
from pipelines.reports.section import Chart, Fragment, Section

KEY = "mort_subite"
FINAL_LABEL = "Finale"
# The standings' `trophy` values (labels of `data/reference/mort_subite.yaml`), in French.
TROPHIES = {
    "series 1-3": "Trophée des séries 1 à 3",
    "series 4+": "Trophée des séries 4 et suivantes",
}


def points_text(value: float | None) -> str:
    """Points as the rules keep them: whole, or a shared mean (29,5 ; 25,33)."""
    if value is None:
        return "—"
    if float(value).is_integer():
        return fmt_number(value)
    return fmt_number(value, 1 if float(value * 10).is_integer() else 2)


def trophy_label(trophy: str) -> str:
    return TROPHIES.get(trophy, f"Trophée {trophy}")


def season_rounds(data: ReportData, season: str) -> pl.DataFrame:
    """`round_id, date, final, host_tournament_id, host_name, qualified, participants,
    moves` of the season's rounds with results, by date (the final last)."""
    start, end = data.season_bounds(season)
    rows = data.table("mort_subite_players").filter(pl.col("date").is_between(start, end))
    results = data.for_season("mort_subite_results", season)
    if rows.height == 0 or results.height == 0:
        return pl.DataFrame(
            schema={
                "round_id": pl.String,
                "date": pl.Date,
                "final": pl.Int64,
                "host_tournament_id": pl.String,
                "host_name": pl.String,
                "qualified": pl.UInt32,
                "participants": pl.UInt32,
                "moves": pl.Int64,
            }
        )
    names = data.table("tournaments").select(
        pl.col("tournament_id").alias("host_tournament_id"),
        pl.col("tournament_name").alias("host_name"),
    )
    qualified = data.for_season("mort_subite_qualified", season).group_by("round_id").len()
    played = results.group_by("round_id").len()
    moves = (
        data.table("mort_subite_moves")
        .group_by("round_id")
        .agg(pl.col("move").max().alias("moves"))
    )
    return (
        rows.group_by("round_id")
        .agg(pl.col("date").first(), pl.col("final").first(), pl.col("host_tournament_id").first())
        .join(names, on="host_tournament_id", how="left")
        .join(qualified.rename({"len": "qualified"}), on="round_id", how="left")
        .join(played.rename({"len": "participants"}), on="round_id", how="inner")
        .join(moves, on="round_id", how="left")
        .sort("final", "date", "round_id")
    )


def _round_name(r: Mapping[str, Any]) -> str:
    host = r["host_name"] or r["host_tournament_id"] or ""
    if r["final"] == 1:
        return f"{FINAL_LABEL} ({host})" if host else FINAL_LABEL
    return host


def _names_of(ids: Sequence[str], names: Mapping[str, str]) -> Html:
    return join(
        part
        for k, pid in enumerate(sorted(ids, key=lambda p: (names.get(p, p), p)))
        for part in ((", " if k else ""), player_link(pid, names.get(pid, pid)))
    )


def _rounds_table(rounds: pl.DataFrame, results: pl.DataFrame, names: Mapping[str, str]) -> Html:
    winners = results.filter(pl.col("place") == 1).group_by("round_id").agg(pl.col("player_id"))
    won = dict(winners.iter_rows())
    return table(
        ["Manche", "Date", "Tournoi hôte", "Qualifiés", "Participants", "Coups", "Vainqueur(s)"],
        [
            (
                FINAL_LABEL if r["final"] == 1 else r["round_id"],
                fmt_date(r["date"]),
                r["host_name"] or r["host_tournament_id"],
                r["qualified"],
                r["participants"],
                r["moves"],
                _names_of(won.get(r["round_id"], []), names),
            )
            for r in rounds.iter_rows(named=True)
        ],
        numeric=(3, 4, 5),
        caption="Qualifiés : les 10 premiers et les 3 premiers de chaque série du tournoi "
        "hôte après son avant-dernière manche (pour la finale : du classement du challenge "
        "sur les x − 1 meilleures manches) ; participants : les qualifiés présents.",
    )


def elimination_chart(rounds: pl.DataFrame, results: pl.DataFrame) -> Chart:
    """Players still in after each move, one line per round (the final thicker)."""
    traces = []
    for k, r in enumerate(rounds.iter_rows(named=True)):
        outs = results.filter(pl.col("round_id") == r["round_id"])["eliminated_at_move"]
        last = int(r["moves"] or 0)
        n = int(r["participants"])
        x = list(range(last + 1))
        y = [n - int((outs <= m).sum()) for m in x]
        name = _round_name(r) if r["final"] == 1 else f"{r['round_id']} — {_round_name(r)}"
        final = r["final"] == 1
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": plotly_text(name),
                "x": x,
                "y": y,
                "line": {
                    "shape": "hv",
                    "width": 3.5 if final else 1.8,
                    "color": "#1d2433" if final else PALETTE[k % len(PALETTE)],
                    "dash": "solid" if final else "dot" if k % 2 else "solid",
                },
                "marker": {"size": 4},
                "hovertemplate": "%{fullData.name}<br>après le coup %{x} : %{y} joueur(s) en "
                "lice<extra></extra>",
            }
        )
    layout = base_layout(
        xaxis=axis("Coup", dtick=2, rangemode="tozero"),
        yaxis=axis("Joueurs encore en lice", rangemode="tozero"),
        legend={"orientation": "h", "y": -0.22, "x": 0},
        margin={"l": 60, "r": 20, "t": 20, "b": 60},
    )
    return Chart(
        "elimination",
        {"data": traces, "layout": layout},
        "Élimination coup par coup : joueurs encore en lice après chaque coup de chaque "
        "manche (coup 0 : les participants) ; la finale en trait épais",
        height=440,
    )


def _distinctions(r: Mapping[str, Any]) -> str:
    parts = []
    if r["trophy"]:
        parts.append(trophy_label(r["trophy"]))
    if r["cup"]:
        parts.append(f"Coupe de la {series_label(r['cup']).lower()}")
    return " ; ".join(parts)


def _standings_table(standings: pl.DataFrame, names: Mapping[str, str]) -> Html:
    return table(
        [
            "Place",
            "Joueur",
            "Série",
            "Manches jouées",
            "Manches retenues",
            "Points retenus",
            "Finale",
            "Total",
            "Distinction",
        ],
        [
            (
                r["place"],
                player_link(r["player_id"], names.get(r["player_id"], r["player_id"])),
                r["series"],
                r["rounds_played"],
                r["rounds_counted"],
                points_text(r["total"] - (r["final_points"] or 0.0)),
                points_text(r["final_points"]),
                Html(f"<strong>{points_text(r['total'])}</strong>"),
                _distinctions(r),
            )
            for r in standings.iter_rows(named=True)
        ],
        numeric=(0, 3, 4, 5, 6, 7),
        caption="Total : les x − 1 meilleures des x manches ordinaires plus la finale "
        "(points doublés). Ex æquo départagés par la place en finale, les manches retenues, "
        "puis le nombre de victoires, de deuxièmes places, etc.",
    )


def _best(won: pl.DataFrame) -> tuple[int, str]:
    """Place and total of the best-placed of a distinction's winners."""
    first = won.sort("place", "player_id").row(0, named=True)
    return first["place"], points_text(first["total"])


def _awards(standings: pl.DataFrame, names: Mapping[str, str]) -> list[Fragment]:
    out: list[Fragment] = [tag("h3", "Trophées et coupes")]
    finalists = standings.filter(pl.col("final_points").is_not_null())
    rows: list[tuple[object, ...]] = []
    for trophy in sorted(standings["trophy"].drop_nulls().unique().to_list()):
        won = standings.filter(pl.col("trophy") == trophy)
        rows.append(
            (
                trophy_label(trophy),
                _names_of(won["player_id"].to_list(), names),
                *_best(won),
            )
        )
    cups = standings.filter(pl.col("cup").is_not_null())
    for cup in sorted(cups["cup"].unique().to_list(), key=lambda s: (s not in "1234567", s)):
        won = cups.filter(pl.col("cup") == cup)
        rows.append(
            (
                f"Coupe de la {series_label(cup).lower()}",
                _names_of(won["player_id"].to_list(), names),
                *_best(won),
            )
        )
    if finalists.height == 0:
        out.append(
            Html(
                '<p class="note">La finale de la saison n\'a pas encore été jouée : aucun '
                "trophée n'est attribué (il faut avoir disputé la finale pour remporter le "
                "challenge).</p>"
            )
        )
    leaders = standings.filter((pl.col("place") == 1) & pl.col("final_points").is_null())
    for r in leaders.iter_rows(named=True) if finalists.height else ():
        out.append(
            Html(
                "<p>"
                + player_link(r["player_id"], names.get(r["player_id"], r["player_id"]))
                + f" a le plus de points ({points_text(r['total'])}) mais n'a pas disputé la "
                "finale : il ne remporte pas le challenge (art. 16), les trophées vont aux "
                "finalistes les mieux classés.</p>"
            )
        )
    if rows:
        out.append(
            table(
                ["Distinction", "Lauréat(s)", "Place", "Total"],
                rows,
                numeric=(2, 3),
                caption="Un trophée par catégorie au finaliste le mieux classé ; une coupe "
                "au premier de chaque série.",
            )
        )
    return out


def render(data: ReportData, season: str) -> Sequence[Fragment]:
    rounds = season_rounds(data, season)
    if rounds.height == 0:
        return [
            Html('<p class="note">Aucune manche du challenge Mort Subite pour cette saison.</p>')
        ]
    results = data.for_season("mort_subite_results", season)
    standings = data.for_season("mort_subite_standings", season).sort("place", "player_id")
    names = data.names()
    regular = rounds.filter(pl.col("final") != 1).height
    out: list[Fragment] = [
        Html(
            "<p>Challenge de la Fédération belge de Scrabble : après certains tournois, les "
            "meilleurs joueurs disputent une partie à élimination — un joueur est éliminé au "
            "premier top manqué. Chaque manche donne des points selon la place (70 au "
            f"vainqueur), la finale les double. Cette saison : {fmt_number(regular)} "
            f"manche(s) ordinaire(s){' et la finale' if regular < rounds.height else ''}.</p>"
        ),
        _rounds_table(rounds, results, names),
        elimination_chart(rounds, results),
        tag("h3", "Classement de la saison"),
        _standings_table(standings, names),
        *_awards(standings, names),
    ]
    return out


SECTION = Section(
    key=KEY,
    title="Challenge Mort Subite",
    order=60,
    render=render,
    description="Manches, élimination coup par coup, classement, trophées et coupes.",
)
