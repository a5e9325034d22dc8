"""Cote and Elo trajectories of the season's best players, with a player search."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import polars as pl

from pipelines.reports.charts import (
    axis,
    base_layout,
    hline,
    line_trace,
    plotly_expr,
    season_trajectories,
)
from pipelines.reports.data import ReportData
from pipelines.reports.html import (
    Html,
    fmt_date,
    fmt_number,
    player_link,
    plotly_text,
    safe_json,
    table,
    tag,
)
from pipelines.reports.section import Chart, Fragment, Section, chart_id

KEY = "trajectories"
TOP = 10


def _top(ranking: pl.DataFrame, history: pl.DataFrame, after: str) -> list[str]:
    """The `TOP` best of the season's ranking; else the best final values of the season."""
    if ranking.height:
        return ranking.sort("rank", "player_id").head(TOP)["player_id"].to_list()
    last = history.group_by("player_id", maintain_order=True).agg(pl.col(after).last())
    return last.sort(after, "player_id", descending=[True, False]).head(TOP)["player_id"].to_list()


def _idle(
    ranking: pl.DataFrame,
    top: list[str],
    points: dict[str, Any],
    names: dict[str, str],
    bounds: tuple[dt.date, dt.date],
    decimals: int,
) -> dict[str, Any]:
    """Flat lines for the ranked players who played no rated tournament this season."""
    # the values of the `top` players only (not of the whole ranking: thousands)
    shown = ranking.filter(pl.col("player_id").is_in(pl.Series(top, dtype=pl.String).implode()))
    values = dict(shown.select("player_id", "value").iter_rows())
    out: dict[str, Any] = {}
    for pid in top:
        if pid in points or values.get(pid) is None:
            continue
        text = (
            f"<b>{plotly_text(names.get(pid, pid))}</b><br>aucun tournoi cette saison : "
            f"{fmt_number(values[pid], decimals)}"
        )
        out[pid] = {
            "x": [b.isoformat() for b in bounds],
            "y": [values[pid]] * 2,
            "text": [text, text],
        }
    return out


def _chart(
    key: str,
    title: str,
    top: list[str],
    points: dict[str, Any],
    names: dict[str, str],
    shapes: list[dict],
    notes: list[dict],
    caption: str,
) -> Chart:
    traces = [line_trace(plotly_text(names.get(p, p)), points[p]) for p in top if p in points]
    layout = base_layout(
        xaxis=axis("Date", type="date"),
        yaxis=axis(title),
        shapes=shapes,
        annotations=notes,
        margin={"l": 60, "r": 20, "t": 20, "b": 40},
        legend={"orientation": "v", "x": 1.02, "y": 1, "xanchor": "left"},
    )
    layout["margin"]["r"] = 180
    return Chart(key, {"data": traces, "layout": layout}, caption, height=460)


_SEARCH_JS = """
(function () {
  var data = JSON.parse(document.getElementById("%(data)s").textContent);
  var input = document.getElementById("%(input)s");
  var list = document.getElementById("%(list)s");
  var added = [];
  function fold(s) {
    return s.normalize("NFD").replace(/[\\u0300-\\u036f]/g, "").toLowerCase();
  }
  function add(player) {
    [["%(cote)s", player.cote], ["%(elo)s", player.elo]].forEach(function (pair) {
      var div = document.getElementById(pair[0]);
      if (!pair[1] || !div || !div.data) { return; }
      Plotly.addTraces(div, {type: "scatter", mode: "lines+markers", name: player.label,
        x: pair[1].x, y: pair[1].y, text: pair[1].text, hovertemplate: "%%{text}<extra></extra>",
        line: {width: 3, dash: "dot", shape: "hv"}, marker: {size: 7}});
      added.push(div);
    });
  }
  function show() {
    list.replaceChildren();
    var q = fold(input.value.trim());
    if (q.length < 2) { return; }
    var shown = 0;
    for (var i = 0; i < data.length && shown < 20; i++) {
      var p = data[i];
      if (fold(p.name + " " + p.id).indexOf(q) < 0) { continue; }
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = p.name + " (" + p.id + ")";
      button.addEventListener("click", add.bind(null, p));
      item.appendChild(button);
      list.appendChild(item);
      shown++;
    }
    if (!shown) {
      var none = document.createElement("li");
      none.textContent = "Aucun joueur trouvé.";
      list.appendChild(none);
    }
  }
  document.getElementById("%(clear)s").addEventListener("click", function () {
    added.forEach(function (div) { Plotly.deleteTraces(div, -1); });
    added = [];
  });
  input.addEventListener("input", show);
})();
"""


def _search(players: list[str], names: dict[str, str], cote: dict, elo: dict) -> Html:
    """The search box: the season's players, their trajectories as JSON, plain JS."""
    ids = {
        "data": f"{KEY}-players",
        "input": f"{KEY}-search",
        "list": f"{KEY}-results",
        "clear": f"{KEY}-clear",
        "cote": chart_id(KEY, "cote"),
        "elo": chart_id(KEY, "elo"),
    }
    ordered = sorted((names.get(p, p), p) for p in players)
    shown = [name for name, _ in ordered]
    # the labels written column-wise (`plotly_text` of each name: thousands of players)
    labels = pl.Series(shown, dtype=pl.String).to_frame("name").select(plotly_expr(pl.col("name")))
    payload = [
        {"id": p, "name": name, "label": label, "cote": cote.get(p), "elo": elo.get(p)}
        for (name, p), label in zip(ordered, labels.to_series().to_list(), strict=True)
    ]
    return Html(
        f'<div class="search no-print"><label for="{ids["input"]}">Chercher un joueur de la '
        f"saison (nom ou licence) : </label>"
        f'<input id="{ids["input"]}" type="search" autocomplete="off" placeholder="ex. Dupont">'
        f' <button type="button" id="{ids["clear"]}">Retirer les joueurs ajoutés</button>'
        f'<ul id="{ids["list"]}"></ul>'
        '<p class="note">Cliquer sur un joueur ajoute sa trajectoire (en pointillés) aux deux '
        "graphiques.</p></div>"
        f'<script type="application/json" id="{ids["data"]}">{safe_json(payload)}</script>'
        f"<script>{_SEARCH_JS % ids}</script>"
    )


def render(data: ReportData, season: str) -> Sequence[Fragment]:
    start, _ = data.season_bounds(season)
    names = data.names()
    cote_hist = data.cote_history(season)
    elo_hist = data.elo_history(season)
    if cote_hist.height == 0 and elo_hist.height == 0:
        return [Html('<p class="note">Aucun tournoi classique homologué cette saison.</p>')]
    cote = season_trajectories(cote_hist, names, start, "cote")
    elo = season_trajectories(elo_hist, names, start, "elo")
    cote_ranking = data.for_season("cote_ranking", season)
    elo_ranking = data.for_season("elo_ranking", season)
    top_cote = _top(cote_ranking, cote_hist, "cote_after")
    top_elo = _top(elo_ranking, elo_hist, "rating_after")
    bounds = data.season_bounds(season)
    top_cote_points = {**cote, **_idle(cote_ranking, top_cote, cote, names, bounds, 0)}
    top_elo_points = {**elo, **_idle(elo_ranking, top_elo, elo, names, bounds, 1)}

    out: list[Fragment] = [
        Html(
            "<p>Évolution, tournoi après tournoi, de la cote FISF et de l'Elo des "
            f"{TOP} premiers joueurs du classement de fin de saison. Les barres des séries "
            "classiques fixées à l'issue de la saison sont tracées en tirets rouges.</p>"
        ),
        _search(sorted(set(cote) | set(elo)), names, cote, elo),
    ]
    if cote:
        bars = data.for_season("classique_series_bars", season).sort("bar", descending=True)
        shapes, notes = [], []
        for row in bars.iter_rows(named=True):
            shape, note = hline(row["bar"], f"barre {row['series']} : {fmt_number(row['bar'])}")
            shapes.append(shape)
            notes.append(note)
        set_on: dt.date | None = bars["set_on"].max() if bars.height else None  # type: ignore[assignment]
        caption = "Cote des meilleurs joueurs au fil de la saison" + (
            f", barres des séries classiques fixées le {fmt_date(set_on)}" if set_on else ""
        )
        out.append(_chart("cote", "Cote", top_cote, top_cote_points, names, shapes, notes, caption))
    if elo:
        out.append(
            _chart(
                "elo", "Elo", top_elo, top_elo_points, names, [], [], "Elo des meilleurs joueurs"
            )
        )
    if cote_ranking.height:
        top = cote_ranking.sort("rank", "player_id").head(TOP)
        out.append(tag("h3", f"Classement de la cote au {fmt_date(top['as_of'][0])}"))
        out.append(
            table(
                ["Rang", "Joueur", "Licence", "Cote", "Série classique", "Tournois"],
                [
                    (
                        r["rank"],
                        player_link(r["player_id"], names.get(r["player_id"], r["player_id"])),
                        r["player_id"],
                        fmt_number(r["value"]),
                        r["classique_series"],
                        r["tournaments"],
                    )
                    for r in top.iter_rows(named=True)
                ],
                numeric=(0, 3, 5),
            )
        )
    return out


SECTION = Section(
    key=KEY,
    title="Trajectoires de cote et d'Elo",
    order=10,
    render=render,
    description="Cote et Elo des meilleurs joueurs, recherche d'un joueur, barres classiques.",
)
