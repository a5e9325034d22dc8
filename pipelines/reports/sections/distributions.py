"""Distribution of the cotes and of the duplicate percentages %N1–%N4, with their bars."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import polars as pl

from pipelines.reports.charts import PALETTE, axis, base_layout, vline
from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, count_of, fmt_date, fmt_number, table
from pipelines.reports.section import Chart, Fragment, Section

PERCENTS = ("pct_n1", "pct_n2", "pct_n3", "pct_n4")


def _middle(values: pl.Series) -> float | None:
    """The middle of the values' range: a bar label right of it is written to the bar's
    left, so that it stays inside the chart."""
    low, high = values.min(), values.max()
    if low is None or high is None:
        return None
    return (float(low) + float(high)) / 2  # type: ignore[arg-type]


def _cote_chart(data: ReportData, season: str) -> Chart | None:
    ranking = data.for_season("cote_ranking", season)
    if ranking.height == 0:
        return None
    bars = data.for_season("classique_series_bars", season).sort("bar", descending=True)
    shapes, notes = [], []
    middle = _middle(ranking["value"])
    for level, row in enumerate(bars.iter_rows(named=True)):
        # one line each (highest bar on top): close bars' labels never overlap on a phone
        shape, note = vline(
            row["bar"],
            f"{row['series']} ≥ {fmt_number(row['bar'])}",
            level=level,
            xanchor="right" if middle is not None and row["bar"] > middle else "left",
        )
        shapes.append(shape)
        notes.append(note)
    trace = {
        "type": "histogram",
        "x": ranking.sort("player_id")["value"].to_list(),
        "name": "Joueurs",
        "nbinsx": 40,
        "marker": {"color": PALETTE[0], "line": {"color": "white", "width": 0.5}},
        "hovertemplate": "cote %{x} — joueurs : %{y}<extra></extra>",
    }
    layout = base_layout(
        xaxis=axis("Cote en fin de saison"),
        yaxis=axis("Joueurs actifs"),
        shapes=shapes,
        annotations=notes,
        showlegend=False,
        bargap=0.02,
    )
    as_of: dt.date | None = ranking["as_of"].max()  # type: ignore[assignment]
    return Chart(
        "cote",
        {"data": [trace], "layout": layout},
        f"Distribution des cotes des joueurs actifs au {fmt_date(as_of)}, "
        "avec les barres des séries classiques",
        height=380,
    )


def _percent_bars(data: ReportData, season: str) -> dict[str, float]:
    """The international access bar of series 1–4 (value of the last admitted player)."""
    bars = data.for_season("series_bars", season).filter(
        pl.col("federation").is_null()
        & pl.col("subseries").is_null()
        & pl.col("criterion").is_in(list(PERCENTS))
        & pl.col("bar").is_not_null()
    )
    return {c: b for c, b in bars.select("criterion", "bar").iter_rows()}


def _percent_chart(standings: pl.DataFrame, bars: dict[str, float]) -> Chart:
    traces: list[dict[str, Any]] = []
    shapes: list[dict] = []
    notes: list[dict] = []
    layout = base_layout(showlegend=False, bargap=0.02)
    columns = {0: [0.0, 0.46], 1: [0.54, 1.0]}
    rows = {0: [0.0, 0.36], 1: [0.64, 1.0]}
    for i, column in enumerate(PERCENTS):
        n = i + 1
        suffix = "" if n == 1 else str(n)
        label = f"%N{n}"
        values = standings[column].drop_nulls()
        positive = values.filter(values > 0)
        traces.append(
            {
                "type": "histogram",
                "x": positive.to_list(),
                "name": label,
                "nbinsx": 30,
                "xaxis": f"x{suffix}",
                "yaxis": f"y{suffix}",
                "marker": {"color": PALETTE[i], "line": {"color": "white", "width": 0.5}},
                "hovertemplate": f"{label} %{{x}} — joueurs : %{{y}}<extra></extra>",
            }
        )
        zeros = values.len() - positive.len()
        layout[f"xaxis{suffix}"] = axis(domain=columns[i % 2], anchor=f"y{suffix}")
        # Our own text and a count only: the line break is meant as markup.
        layout[f"xaxis{suffix}"]["title"] = {
            "text": f"{label} global (%)<br>{count_of(zeros, 'joueur')} à 0 %, non "
            f"tracé{'s' if zeros > 1 else ''}"
        }
        layout[f"yaxis{suffix}"] = axis(
            "Joueurs" if i % 2 == 0 else "",
            domain=rows[1 - i // 2],
            anchor=f"x{suffix}",
        )
        if column in bars:
            middle = _middle(positive)
            shape, note = vline(
                bars[column],
                f"barre série {n} : {fmt_number(bars[column], 2)} %",
                xref=f"x{suffix}",
                yref=f"y{suffix} domain",
                xanchor="right" if middle is not None and bars[column] > middle else "left",
            )
            shapes.append(shape)
            notes.append(note)
    layout["shapes"] = shapes
    layout["annotations"] = notes
    layout["margin"] = {"l": 60, "r": 20, "t": 20, "b": 50}
    return Chart(
        "percentages",
        {"data": traces, "layout": layout},
        "Distribution des pourcentages globaux %N1 à %N4 de la saison (joueurs au-dessus "
        "de 0 %), avec la barre d'accès de chaque série",
        height=560,
        narrow=_stacked(len(PERCENTS)),
    )


# On a phone the four histograms are stacked in one column (side by side, each x-axis
# title, two lines wide, ran into its neighbour's: issue 27, item 5): each STACKED_ROW
# pixels high, with STACKED_GAP pixels under it for its ticks and title.
STACKED_ROW = 170
STACKED_GAP = 95


def _stacked(count: int) -> dict[str, Any]:
    """The layout changes that stack `count` subplots (axes x, x2…, y, y2…) top to bottom."""
    margin = {"l": 60, "r": 20, "t": 20, "b": 50}
    plot = count * STACKED_ROW + (count - 1) * STACKED_GAP
    out: dict[str, Any] = {"height": plot + margin["t"] + margin["b"], "margin": margin}
    for i in range(count):
        suffix = "" if i == 0 else str(i + 1)
        top = 1 - i * (STACKED_ROW + STACKED_GAP) / plot
        out[f"xaxis{suffix}"] = {"domain": [0.0, 1.0]}
        out[f"yaxis{suffix}"] = {
            "domain": [round(top - STACKED_ROW / plot, 4), round(top, 4)],
            "title": {"text": "Joueurs"},
        }
    return out


def render(data: ReportData, season: str) -> Sequence[Fragment]:
    out: list[Fragment] = [
        Html(
            "<p>La cote est celle des joueurs actifs au classement de fin de saison. Les "
            "pourcentages %N1 à %N4 sont les pourcentages globaux de la saison (moyenne "
            "pondérée des tournois duplicate) ; la barre d'accès d'une série est la valeur "
            "du dernier joueur admis dans la cascade internationale.</p>"
        )
    ]
    cote = _cote_chart(data, season)
    out.append(cote if cote else Html('<p class="note">Aucun classement de cote cette saison.</p>'))
    standings = data.for_season("series_standings", season).sort("player_id")
    if standings.height == 0:
        out.append(Html('<p class="note">Aucun résultat duplicate cette saison.</p>'))
        return out
    bars = _percent_bars(data, season)
    out.append(_percent_chart(standings, bars))
    # Statistics of the players above 0 %: most players are at 0 % of the best series,
    # whose median (0) would tell nothing; a criterion nobody is above 0 on is left out.
    rows = []
    for i, column in enumerate(PERCENTS):
        values = standings[column].drop_nulls()
        positive = values.filter(values > 0)
        if positive.len() == 0:
            continue
        rows.append(
            (
                f"%N{i + 1}",
                fmt_number(values.len()),
                fmt_number(positive.len()),
                fmt_number(positive.median(), 2),
                fmt_number(positive.quantile(0.9, "nearest"), 2),
                fmt_number(bars[column], 2) if column in bars else None,
            )
        )
    if rows:
        out.append(
            table(
                [
                    "Critère",
                    "Joueurs classés",
                    "Au-dessus de 0 %",
                    "Médiane (au-dessus de 0 %)",
                    "9e décile",
                    "Barre d'accès",
                ],
                rows,
                numeric=(1, 2, 3, 4, 5),
                caption="Pourcentages globaux de la saison : médiane et 9e décile des joueurs "
                "au-dessus de 0 %",
            )
        )
    return out


SECTION = Section(
    key="distributions",
    title="Distribution des cotes et des pourcentages %N1–%N4",
    order=20,
    render=render,
    description="Histogrammes des cotes et des %N1–%N4 avec les barres d'accès.",
)
