"""The site's home page, `index.html`: the seasons and their reports, the circuits and the
player directory (with its filter); the folders of seasons and years the data no longer
holds are removed when it is written.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from pipelines.reports.charts import axis, base_layout
from pipelines.reports.circuits.pages import year_pages
from pipelines.reports.data import ReportData
from pipelines.reports.glossary import write_glossary
from pipelines.reports.html import (
    Html,
    count_of,
    esc_expr,
    fmt_number,
    frame_table,
    link,
    player_link_expr,
    table,
    write_atomic,
)
from pipelines.reports.layout import CIRCUITS_DIR, PLAYERS_DIR, SEASON_DIR, YEAR_DIR
from pipelines.reports.page import GLOSSARY_PAGE, notice, page
from pipelines.reports.pdf_links import pdf_link
from pipelines.reports.section import Chart, chart_html
from pipelines.reports.site import PLOTLY_ASSET

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


def render_index(data: ReportData, warnings: Sequence[str] = ()) -> str:
    """The site's home page: the seasons and their reports, the circuits' years and their
    pages, the player directory; its notice says `warnings` (a raw folder that shrank since
    the last build)."""
    seasons = data.seasons()
    events = data.tournaments()
    played = data.season_player_counts()
    per_season = {
        s: (events.filter(pl.col("season") == s).height, played.get(s, 0)) for s in seasons
    }
    rejected = data.rejected_exports()
    refused = {s: sum(1 for r in rejected if r.season == s) for s in seasons}
    season_rows = [
        (
            link(f"{s}/index.html", f"Saison {s}"),
            fmt_number(per_season[s][0]),
            fmt_number(per_season[s][1]),
            fmt_number(refused[s]),
            link(f"{s}/index.html", "rapport HTML"),
            pdf_link(f"{s}/rapport-{s}.pdf", "rapport PDF"),
        )
        for s in reversed(seasons)
    ]
    parts: list[str] = [
        '<header class="page"><h1>Classements des fédérations francophones de Scrabble</h1>'
        "<p>Rapports de saison (cotes, Elo, séries duplicate), circuits régionaux et fiches des "
        "joueurs.</p>"
        "</header>",
        notice(
            data.as_of(),
            rejected,
            scope="dans ce calcul",
            glossary=GLOSSARY_PAGE,
            show_season=True,
            warnings=warnings,
        ),
        "<h2>Saisons</h2>",
        table(
            ["Saison", "Tournois", "Joueurs", "Exports refusés", "Rapport", "Impression"],
            season_rows,
            numeric=(1, 2, 3),
        ),
    ]
    if seasons:
        figure = {
            "data": [
                {
                    "type": "bar",
                    "name": "Tournois (axe de gauche)",
                    "x": seasons,
                    "y": [per_season[s][0] for s in seasons],
                    "offsetgroup": "tournois",
                    "text": [count_of(per_season[s][0], "tournoi") for s in seasons],
                    "hovertemplate": "%{x} : %{text}<extra></extra>",
                    "textposition": "none",
                },
                {
                    "type": "bar",
                    "name": "Joueurs (axe de droite)",
                    "x": seasons,
                    "y": [per_season[s][1] for s in seasons],
                    "yaxis": "y2",
                    "offsetgroup": "joueurs",
                    "text": [count_of(per_season[s][1], "joueur") for s in seasons],
                    "hovertemplate": "%{x} : %{text}<extra></extra>",
                    "textposition": "none",
                },
            ],
            "layout": base_layout(
                barmode="group",
                bargap=0.3,
                xaxis=axis("Saison", type="category"),
                yaxis=axis("Tournois", rangemode="tozero", tickformat=",d"),
                yaxis2=axis(
                    "Joueurs",
                    overlaying="y",
                    side="right",
                    showgrid=False,
                    rangemode="tozero",
                    tickformat=",d",
                    dtick=_round_step(max(per_season[s][1] for s in seasons)),
                ),
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
    parts += _circuit_years(data)
    # players known only from a rating list that names nobody have nothing to show
    players = data.player_names().filter(pl.col("named")).sort("name", "player_id")
    parts += [
        "<h2>Joueurs</h2>",
        '<div class="search no-print"><label for="player-filter">Filtrer (nom, licence, club) : '
        '</label><input id="player-filter" type="search" autocomplete="off"></div>',
        Html('<div id="players">') + _players_table(data, players),
        Html("</div>"),
        f"<script>{_FILTER_JS}</script>",
    ]
    return page(
        "Classements — rapports de saison et joueurs",
        Html("".join(parts)),
        plotly_src=PLOTLY_ASSET.as_posix(),
    )


def _players_table(data: ReportData, players: pl.DataFrame) -> Html:
    """The home page's list of every named player (name linked to their page, licence,
    federation, club), written column-wise: the same markup as `table` of one row per
    player, in a fraction of the time at 50,000 players (a federation label is looked up
    once per distinct spelling)."""
    written = players["federation"].unique().drop_nulls()
    labels = pl.Series([data.federation_label(w) for w in written.to_list()], dtype=pl.String)

    def cell(expr: pl.Expr) -> pl.Expr:  # a missing value stays missing: « — »
        return pl.when(expr.is_null()).then(None).otherwise(esc_expr(expr))

    cells = players.select(
        player_link_expr(
            pl.col("player_id"), pl.col("name"), players["player_id"], prefix=f"{PLAYERS_DIR}/"
        ).alias("player"),
        cell(pl.col("player_id")).alias("licence"),
        cell(pl.col("federation").replace_strict(written, labels, default=None)).alias(
            "federation"
        ),
        cell(pl.col("club")).alias("club"),
    )
    return frame_table(["Joueur", "Licence", "Fédération", "Club"], cells)


def _circuit_years(data: ReportData) -> list[str]:
    """The regional circuits' section: each calendar year (the latest first), its page and
    the circuit pages it holds."""
    years = sorted(data.table("year_fingerprints")["year"].to_list(), reverse=True)
    if not years:
        return []
    rows = []
    for year in years:
        pages = year_pages(data, year)
        circuits = (
            Html(", ".join(link(f"{CIRCUITS_DIR}/{year}/{c.slug}.html", c.name) for c in pages))
            if pages
            else "aucun circuit n'a de résultats cette année"
        )
        rows.append((link(f"{CIRCUITS_DIR}/{year}/index.html", f"Circuits {year}"), circuits))
    return [
        "<h2>Circuits régionaux</h2>",
        "<p>Classement régional PACA, Masters Grand Sud et championnat du Grand Est "
        "(Des chiffres et des lettres), par année civile.</p>",
        table(["Année", "Circuits de l'année"], rows),
    ]


def _round_step(top: int) -> int:
    """A round tick step (1, 2 or 5 × 10ⁿ) giving about five ticks up to `top`."""
    rough = max(top, 1) / 5
    power = 10 ** max(len(str(int(rough))) - 1, 0)
    for factor in (1, 2, 5, 10):
        if factor * power >= rough:
            return factor * power
    return 10 * power


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


def write_index(data: ReportData, reports: Path, warnings: Sequence[str] = ()) -> Path:
    """`index.html` (`render_index`) and the glossary; the reports of seasons and years no
    longer built removed."""
    remove_gone_reports(data, reports)
    write_glossary(reports)
    path = reports / "index.html"
    write_atomic(path, render_index(data, warnings))
    return path


def write_home_page(
    data: ReportData, _key: str, reports: Path, warnings: Sequence[str] = ()
) -> Path:
    """`write_index` as the build's report worker calls a renderer (a partition key first:
    the home page has none; `pipelines.reports.background.RENDERERS`)."""
    return write_index(data, reports, warnings)
