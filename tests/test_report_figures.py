"""Figures of the season report as a newcomer reads them (issue 27, items 5 and 6): the
cascade's bar labels with their unit, no empty column or series slot, the percentage
histograms stacked on a phone, close bar labels on lines of their own. No build: the
figures are made from frames written here (the rows of the sample's last season)."""

from __future__ import annotations

import html
import itertools
import re

import polars as pl

from pipelines.reports.charts import LABEL_ROW, vline
from pipelines.reports.sections import cascade, distributions

# series_bars of the sample's 2025-2026 season: the international cascade (no federation,
# no sub-series; series 7 is not filled by the cascade) and two rows of France's.
BARS = pl.DataFrame(
    [
        ("2025-2026", "1", None, None, "pct_n1", 46.111111111111114, 9, 9),
        ("2025-2026", "2", None, None, "pct_n2", 31.22448979591837, 19, 19),
        ("2025-2026", "3", None, None, "pct_n3", 24.615384615384617, 29, 29),
        ("2025-2026", "4", None, None, "pct_n4", 13.419913419913422, 113, 113),
        ("2025-2026", "5", None, None, "pc", 2347.5, 188, 188),
        ("2025-2026", "6", None, None, "pc", 2.5, 584, 584),
        ("2025-2026", "7", None, None, None, None, 0, 0),
        ("2025-2026", "SS", None, None, "super_serie_pct", 75.0, 7, 30),
        ("2025-2026", "5", "5D", "FRA", "pc", 2347.5, 52, None),
        ("2025-2026", "6", "6D", "FRA", "pc", 2.5, 267, None),
    ],
    schema={
        "season": pl.String,
        "series": pl.String,
        "subseries": pl.String,
        "federation": pl.String,
        "criterion": pl.String,
        "bar": pl.Float64,
        "admitted": pl.Int64,
        "target": pl.Int64,
    },
    orient="row",
)
OVERALL = BARS.filter(pl.col("federation").is_null())
NNBSP = "\u202f"


def _headers(markup: str) -> list[str]:
    return [html.unescape(h) for h in re.findall(r"<th[^>]*>([^<]*)</th>", markup)]


def test_figure_5_bar_labels_carry_their_unit() -> None:
    chart = cascade._quota_chart(OVERALL)
    quota, admitted = chart.figure["data"]
    assert admitted["x"] == [
        "Super-série",
        "Série 1",
        "Série 2",
        "Série 3",
        "Série 4",
        "Série 5",
        "Série 6",
    ]  # no empty Série 7 slot
    assert quota["x"] == admitted["x"]
    assert admitted["text"] == [
        "75,00 %",
        "46,11 %",
        "31,22 %",
        "24,62 %",
        "13,42 %",
        f"2{NNBSP}347,5 PC",
        "2,5 PC",
    ]
    assert admitted["customdata"][-1] == "PC" and admitted["customdata"][1] == "%N1"
    assert "en PC : points de classement" in chart.caption


def test_figure_5_tables_leave_out_empty_columns_and_slots() -> None:
    overall = str(cascade._bars_table(OVERALL, "Cascade internationale"))
    assert _headers(overall) == ["Série", "Critère", "Barre d'accès", "Admis", "Quota"]
    assert "Série 7" not in overall and "—" not in overall
    assert f"2{NNBSP}347,5 PC" in overall and "46,11 %" in overall
    france = str(cascade._bars_table(BARS.filter(pl.col("federation") == "FRA")))
    assert _headers(france) == ["Série", "Sous-série", "Critère", "Barre d'accès", "Admis"]
    assert "<td>5D</td>" in france


def test_close_bar_labels_are_written_on_lines_of_their_own() -> None:
    notes = [
        vline(bar, label, level=level)[1]
        for level, (bar, label) in enumerate([(2750, "Joker"), (2450, "A"), (2050, "B")])
    ]
    assert [n.get("yshift", 0) for n in notes] == [0, -LABEL_ROW, -2 * LABEL_ROW]
    assert vline(1.0, "x", xanchor="right")[1]["xanchor"] == "right"


def test_figure_4_histograms_are_stacked_on_a_phone() -> None:
    standings = pl.DataFrame(
        {c: [0.0, 10.0, 20.0, 55.0, 90.0] for c in distributions.PERCENTS}
        | {"player_id": ["1", "2", "3", "4", "5"]}
    )
    chart = distributions._percent_chart(standings, {"pct_n1": 46.11})
    narrow = chart.narrow
    assert narrow is not None
    plot = narrow["height"] - narrow["margin"]["t"] - narrow["margin"]["b"]
    domains = [narrow[f"yaxis{s}"]["domain"] for s in ("", "2", "3", "4")]
    for suffix in ("", "2", "3", "4"):
        assert narrow[f"xaxis{suffix}"]["domain"] == [0.0, 1.0]  # one column, full width
    for upper, lower in itertools.pairwise(domains):
        gap = (upper[0] - lower[1]) * plot  # room for the ticks and the two-line title
        assert gap >= distributions.STACKED_GAP - 1, (upper, lower, plot)
    # the bar label right of the middle of its values is written on the line's left
    note = chart.figure["layout"]["annotations"][0]
    assert note["xanchor"] == "left"  # 46,11 is left of the middle of 10–90 (50)
    right = distributions._percent_chart(standings, {"pct_n1": 80.0})
    assert right.figure["layout"]["annotations"][0]["xanchor"] == "right"
