"""The pages that gather every season: the index and one page per player.

They share one `assets/plotly.min.js` (relative path, still offline): a copy of plotly.js
in each of a thousand player pages would weigh gigabytes. The season reports embed their
own copy instead, as they travel alone (sent by mail, archived, printed).
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from pipelines.reports.charts import axis, base_layout, cote_trajectories, elo_trajectories
from pipelines.reports.charts import line_trace as _line
from pipelines.reports.data import ReportData
from pipelines.reports.html import (
    Html,
    definition_list,
    esc,
    fmt_date,
    fmt_number,
    fmt_signed,
    link,
    player_filename,
    table,
    write_atomic,
)
from pipelines.reports.labels import CRITERIA, DISCIPLINES, MOVEMENT_LABELS, series_label
from pipelines.reports.layout import CIRCUITS_DIR, PLAYERS_DIR, SEASON_DIR, YEAR_DIR
from pipelines.reports.page import page, plotly_js
from pipelines.reports.player_blocks import PlayerBlock, by_player
from pipelines.reports.player_blocks import discover as discover_blocks
from pipelines.reports.section import Chart, chart_html

PLOTLY_ASSET = Path("assets") / "plotly.min.js"


def write_plotly_asset(reports: Path) -> Path:
    """The site's shared copy of plotly.js."""
    path = reports / PLOTLY_ASSET
    content = plotly_js()
    if not path.exists() or path.read_text(encoding="utf-8") != content:
        write_atomic(path, content)
    return path


# ---------------------------------------------------------------------------- index


_FILTER_JS = """
(function () {
  var input = document.getElementById("player-filter");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#players tbody tr"));
  function fold(s) {
    return s.normalize("NFD").replace(/[\\u0300-\\u036f]/g, "").toLowerCase();
  }
  var keys = rows.map(function (row) { return fold(row.textContent); });
  input.addEventListener("input", function () {
    var q = fold(input.value.trim());
    rows.forEach(function (row, i) { row.hidden = q !== "" && keys[i].indexOf(q) < 0; });
  });
})();
"""


def render_index(data: ReportData) -> str:
    """The site's home page: the seasons and their reports, the player directory."""
    seasons = data.seasons()
    events = data.tournaments()
    results = data.table("results").join(
        events.select("tournament_id", "season"), on="tournament_id"
    )
    per_season = {
        s: (
            events.filter(pl.col("season") == s).height,
            results.filter(pl.col("season") == s)["player_id"].n_unique(),
        )
        for s in seasons
    }
    season_rows = [
        (
            link(f"{s}/index.html", f"Saison {s}"),
            fmt_number(per_season[s][0]),
            fmt_number(per_season[s][1]),
            link(f"{s}/index.html", "rapport HTML"),
            link(f"{s}/rapport-{s}.pdf", "rapport PDF"),
        )
        for s in reversed(seasons)
    ]
    parts: list[str] = [
        '<header class="page"><h1>Classements des fédérations francophones de Scrabble</h1>'
        "<p>Rapports de saison (cotes, Elo, séries duplicate) et fiches des joueurs.</p>"
        "</header>",
        "<h2>Saisons</h2>",
        table(
            ["Saison", "Tournois", "Joueurs", "Rapport", "Impression"],
            season_rows,
            numeric=(1, 2),
        ),
    ]
    if seasons:
        figure = {
            "data": [
                {
                    "type": "bar",
                    "name": "Tournois",
                    "x": seasons,
                    "y": [per_season[s][0] for s in seasons],
                    "hovertemplate": "%{x} : %{y} tournois<extra></extra>",
                },
                {
                    "type": "bar",
                    "name": "Joueurs",
                    "x": seasons,
                    "y": [per_season[s][1] for s in seasons],
                    "yaxis": "y2",
                    "hovertemplate": "%{x} : %{y} joueurs<extra></extra>",
                },
            ],
            "layout": base_layout(
                barmode="group",
                xaxis=axis("Saison", type="category"),
                yaxis=axis("Tournois"),
                yaxis2=axis("Joueurs", overlaying="y", side="right", showgrid=False),
                legend={"orientation": "h", "y": 1.12, "x": 0},
                margin={"l": 60, "r": 60, "t": 40, "b": 50},
            ),
        }
        parts.append(
            chart_html(
                "chart-index-seasons",
                Chart("seasons", figure, "Tournois et joueurs par saison", height=320),
                1,
            )
        )
    players = data.player_names().sort("name", "player_id")
    parts += [
        "<h2>Joueurs</h2>",
        '<div class="search no-print"><label for="player-filter">Filtrer (nom, licence, club) : '
        '</label><input id="player-filter" type="search" autocomplete="off"></div>',
        Html('<div id="players">')
        + table(
            ["Joueur", "Licence", "Fédération", "Club"],
            [
                (
                    link(f"{PLAYERS_DIR}/{player_filename(r['player_id'])}", r["name"]),
                    r["player_id"],
                    r["federation"],
                    r["club"],
                )
                for r in players.iter_rows(named=True)
            ],
        )
        + Html("</div>"),
        f"<script>{_FILTER_JS}</script>",
    ]
    return page(
        "Classements — rapports de saison et joueurs",
        Html("".join(parts)),
        plotly_src=PLOTLY_ASSET.as_posix(),
    )


def remove_gone_reports(data: ReportData, reports: Path) -> list[Path]:
    """Delete the report folders of seasons and years the data no longer holds (their
    exports were removed or re-dated); returns what was removed."""
    seasons = set(data.seasons())
    years = {str(d.year) for d in data.table("tournaments")["end_date"].drop_nulls().to_list()}
    gone = [
        p
        for p in (reports.iterdir() if reports.exists() else [])
        if SEASON_DIR.match(p.name) and p.name not in seasons
    ]
    circuits = reports / CIRCUITS_DIR
    if circuits.is_dir():
        gone += [p for p in circuits.iterdir() if YEAR_DIR.match(p.name) and p.name not in years]
    for folder in gone:
        shutil.rmtree(folder)
    return gone


def write_index(data: ReportData, reports: Path) -> Path:
    remove_gone_reports(data, reports)
    path = reports / "index.html"
    write_atomic(path, render_index(data))
    return path


# ---------------------------------------------------------------------------- players


@dataclass(frozen=True)
class _PlayerData:
    """Every table the player pages read, split by player once."""

    players: pl.DataFrame
    names: Mapping[str, str]
    cote: Mapping[str, pl.DataFrame]
    elo: Mapping[str, pl.DataFrame]
    results: Mapping[str, pl.DataFrame]
    duplicate: Mapping[str, pl.DataFrame]
    classification: Mapping[str, pl.DataFrame]
    movements: Mapping[str, pl.DataFrame]
    cote_ranking: Mapping[str, pl.DataFrame]
    elo_ranking: Mapping[str, pl.DataFrame]
    blocks: tuple[tuple[PlayerBlock, Any], ...]  # the families' blocks, each loaded once


def _load(data: ReportData) -> _PlayerData:
    return _PlayerData(
        players=data.player_names().join(
            data.table("players").select(
                "player_id", "first_tournament_date", "last_tournament_date", "tournaments"
            ),
            on="player_id",
        ),
        names=data.names(),
        cote=by_player(data.cote_history()),
        elo=by_player(data.elo_history()),
        results=by_player(data.player_results()),
        duplicate=by_player(data.table("duplicate_event_scores")),
        classification=by_player(data.table("series_classification")),
        movements=by_player(data.table("series_movements")),
        cote_ranking=by_player(data.table("cote_ranking")),
        elo_ranking=by_player(data.table("elo_ranking")),
        blocks=tuple((block, block.load(data)) for block in discover_blocks()),
    )


def _trajectory_chart(pid: str, d: _PlayerData) -> Chart | None:
    cote = cote_trajectories(d.cote[pid], d.names) if pid in d.cote else {}
    elo = elo_trajectories(d.elo[pid], d.names) if pid in d.elo else {}
    panels = [(label, pts[pid]) for label, pts in (("Cote", cote), ("Elo", elo)) if pid in pts]
    if not panels:
        return None
    layout = base_layout(showlegend=False, margin={"l": 60, "r": 20, "t": 20, "b": 40})
    traces: list[dict[str, Any]] = []
    gap = 0.08
    height = (1 - gap * (len(panels) - 1)) / len(panels)
    days = [dt.date.fromisoformat(x) for _, pts in panels for x in pts["x"] if x]
    span: dict[str, Any] = {}
    if days and (max(days) - min(days)).days < 60:
        middle = min(days) + (max(days) - min(days)) / 2
        span["range"] = [
            (middle - dt.timedelta(days=45)).isoformat(),
            (middle + dt.timedelta(days=45)).isoformat(),
        ]
    for i, (label, points) in enumerate(panels):
        suffix = "" if i == 0 else str(i + 1)
        top = 1 - i * (height + gap)
        traces.append(_line(label, points, xaxis=f"x{suffix}", yaxis=f"y{suffix}"))
        layout[f"xaxis{suffix}"] = axis(
            "Date" if i == len(panels) - 1 else "",
            type="date",
            anchor=f"y{suffix}",
            **({"matches": "x"} if i else span),
        )
        layout[f"yaxis{suffix}"] = axis(
            label, domain=[max(top - height, 0), top], anchor=f"x{suffix}"
        )
    return Chart(
        "trajectory",
        {"data": traces, "layout": layout},
        "Trajectoire de la cote et de l'Elo, tournoi après tournoi",
        height=260 * len(panels),
    )


def _pj(raw: int | None, clamped: int | None) -> str:
    if raw is None or clamped is None:
        return "—"
    if raw == clamped:
        return fmt_signed(clamped)
    return f"{fmt_signed(raw)} → {fmt_signed(clamped)}"


def _season_link(season: str | None) -> Html:
    return link(f"../{season}/index.html", season) if season else Html("—")


def _cote_table(history: pl.DataFrame) -> Html:
    rows = [
        (
            fmt_date(r["end_date"]),
            r["tournament_name"] or r["tournament_id"],
            fmt_number(r["cote_before"]),
            r["initial_place"],
            f"{r['rank']} / {r['players']}" if r["players"] else r["rank"],
            fmt_number(r["pe"]),
            fmt_number(r["bonus"]),
            _pj(r["pj_raw"], r["pj"]),
            Html(f"<strong>{esc(fmt_number(r['cote_after']))}</strong>"),
        )
        for r in history.iter_rows(named=True)
    ]
    return table(
        [
            "Date",
            "Tournoi",
            "Cote avant",
            "Place initiale",
            "Rang",
            "PE",
            "B",
            "PJ brut → PJ",
            "Cote après",
        ],
        rows,
        numeric=(2, 3, 4, 5, 6, 7, 8),
        caption="Cote après = cote avant + PE + B + PJ ; PJ brut borné à [PJmin, PJmax].",
    )


def _elo_table(history: pl.DataFrame) -> Html:
    rows = [
        (
            fmt_date(r["end_date"]),
            r["tournament_name"] or r["tournament_id"],
            fmt_number(r["rating_before"], 1),
            fmt_number(r["k"]),
            r["games"],
            fmt_number(r["score"], 1),
            fmt_number(r["expected"], 2),
            fmt_signed(r["delta"], 1),
            Html(f"<strong>{esc(fmt_number(r['rating_after'], 1))}</strong>"),
        )
        for r in history.iter_rows(named=True)
    ]
    return table(
        ["Date", "Tournoi", "Elo avant", "K", "Parties", "Score", "Attendu", "Δ", "Elo après"],
        rows,
        numeric=(2, 3, 4, 5, 6, 7, 8),
        caption="Δ = K × (score − score attendu) ; Elo après = Elo avant + Δ.",
    )


def _criterion_value(criterion: str | None, value: float | None) -> str | None:
    if value is None:
        return None
    unit = "" if criterion == "pc" else " %"
    return f"{CRITERIA.get(criterion or '', criterion)} {fmt_number(value, 2)}{unit}"


def _series_table(pid: str, d: _PlayerData) -> Html | None:
    classes = d.classification.get(pid)
    if classes is None:
        return None
    moves = d.movements.get(pid)
    lookup = {} if moves is None else {r["season"]: r for r in moves.iter_rows(named=True)}
    rows = []
    for r in classes.sort("season").iter_rows(named=True):
        move = lookup.get(r["season"], {})
        rows.append(
            (
                _season_link(r["season"]),
                series_label(move.get("previous_series")),
                series_label("SS" if r["super_serie"] else r["series"]),
                r["subseries"],
                MOVEMENT_LABELS.get(move.get("movement") or ""),
                _criterion_value(r["criterion"], r["value"]),
            )
        )
    return table(
        [
            "Saison",
            "Série tenue",
            "Série pour la saison suivante",
            "Sous-série",
            "Mouvement",
            "Critère",
        ],
        rows,
        numeric=(5,),
    )


def _rankings_table(pid: str, d: _PlayerData) -> Html | None:
    cote = d.cote_ranking.get(pid)
    elo = d.elo_ranking.get(pid)
    seasons = sorted(
        set([] if cote is None else cote["season"].to_list())
        | set([] if elo is None else elo["season"].to_list())
    )
    if not seasons:
        return None
    cote_rows = {} if cote is None else {r["season"]: r for r in cote.iter_rows(named=True)}
    elo_rows = {} if elo is None else {r["season"]: r for r in elo.iter_rows(named=True)}
    rows = []
    for s in seasons:
        c, e = cote_rows.get(s), elo_rows.get(s)
        rows.append(
            (
                _season_link(s),
                c["rank"] if c else None,
                fmt_number(c["value"]) if c else None,
                c["classique_series"] if c else None,
                e["rank"] if e else None,
                fmt_number(e["value"], 1) if e else None,
            )
        )
    return table(
        ["Saison", "Rang cote", "Cote", "Série classique", "Rang Elo", "Elo"],
        rows,
        numeric=(1, 2, 4, 5),
    )


def _tournaments_table(pid: str, d: _PlayerData) -> Html | None:
    results = d.results.get(pid)
    if results is None:
        return None
    rows = [
        (
            fmt_date(r["end_date"]),
            r["tournament_name"] or r["tournament_id"],
            r["city"],
            DISCIPLINES.get(r["discipline"], r["discipline"]),
            _season_link(r["season"]),
            f"{r['rank']} / {r['players']}" if r["players"] else r["rank"],
            r["series"],
            fmt_number(r["score"]) if r["score"] is not None else None,
        )
        for r in results.iter_rows(named=True)
    ]
    return table(
        ["Date", "Tournoi", "Ville", "Discipline", "Saison", "Rang", "Série", "Score"],
        rows,
        numeric=(5, 7),
    )


def render_player(pid: str, d: _PlayerData) -> str:
    info = d.players.filter(pl.col("player_id") == pid).row(0, named=True)
    name = info["name"]
    facts = {
        "Licence": pid,
        "Fédération": info["federation"] or "—",
        "Club": info["club"] or "—",
        "Premier tournoi": fmt_date(info["first_tournament_date"]),
        "Dernier tournoi": fmt_date(info["last_tournament_date"]),
        "Tournois": fmt_number(info["tournaments"]),
    }
    parts: list[str] = [
        f'<nav class="breadcrumb no-print">{link("../index.html", "← Accueil")}</nav>',
        f'<header class="page"><h1>{esc(name)}</h1></header>',
        definition_list(facts),
    ]
    chart = _trajectory_chart(pid, d)
    if chart is not None:
        parts += ["<h2>Trajectoire</h2>", chart_html("chart-player-trajectory", chart, 1)]
    core = [
        ("Classements de fin de saison", _rankings_table(pid, d)),
        ("Séries duplicate", _series_table(pid, d)),
    ]
    for title, markup in core:
        if markup is not None:
            parts += [f"<h2>{esc(title)}</h2>", markup]
    if pid in d.cote:
        parts += ["<h2>Évolution de la cote, tournoi par tournoi</h2>", _cote_table(d.cote[pid])]
    if pid in d.elo:
        parts += ["<h2>Évolution de l'Elo, tournoi par tournoi</h2>", _elo_table(d.elo[pid])]
    for block, loaded in d.blocks:
        markup = block.render(pid, loaded)
        if markup is not None:
            parts += [f"<h2>{esc(block.title)}</h2>", markup]
    tournaments = _tournaments_table(pid, d)
    if tournaments is not None:
        parts += ["<h2>Tournois</h2>", tournaments]
    return page(
        f"{name} — fiche joueur", Html("".join(parts)), plotly_src=f"../{PLOTLY_ASSET.as_posix()}"
    )


def write_player_pages(data: ReportData, reports: Path) -> int:
    """Write `joueurs/<licence>.html` for every player; remove pages of players gone."""
    d = _load(data)
    folder = reports / PLAYERS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    written: set[str] = set()
    for pid in d.players["player_id"].to_list():
        name = player_filename(pid)
        content = render_player(pid, d)
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != content:
            write_atomic(path, content)
        written.add(name)
    for stale in folder.glob("*.html"):
        if stale.name not in written:
            stale.unlink()
    return len(written)


def player_page_path(reports: Path, player_id: str) -> Path:
    return reports / PLAYERS_DIR / player_filename(player_id)
