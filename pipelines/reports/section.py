"""What a report section is, and how a chart becomes markup.

A section module of `pipelines.reports.sections` exposes `SECTION = Section(...)`: its
`render(data, season)` returns fragments, each either `Html` (already escaped markup) or a
`Chart` (a Plotly figure). The report gives every chart the id `chart-<section>-<chart>`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import plotly.graph_objects as go

from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, esc, safe_json
from pipelines.reports.page import PRINT_PLOTLY, PRINT_TRACES


@dataclass(frozen=True)
class Chart:
    """A figure to draw: a Plotly figure, or its `{"data": …, "layout": …}` dict (faster to
    build when there are thousands, e.g. the player pages). Labels inside must already be
    passed through `plotly_text`."""

    key: str
    figure: go.Figure | Mapping[str, Any]
    caption: str
    height: int = 420
    # layout changes for a narrow screen (a phone, under 600 px): each key replaces the
    # layout's, an object merged into the layout's object (e.g. subplots stacked)
    narrow: Mapping[str, Any] | None = None


Fragment = Html | Chart


@dataclass(frozen=True)
class Section:
    """One section of the season report."""

    key: str
    title: str
    order: int
    render: Callable[[ReportData, str], Sequence[Fragment]]
    description: str = field(default="")


def chart_id(section_key: str, chart_key: str) -> str:
    return f"chart-{section_key}-{chart_key}"


PLOT_CONFIG = {"displaylogo": False, "responsive": True, "locale": "fr"}


def chart_html(div_id: str, chart: Chart, number: int) -> Html:
    """The chart's div, caption « Figure n » and the script drawing it (`classementPlot`
    of the page's head). A trace of a type the PDFs' plotly.js does not hold
    (`PRINT_TRACES`) is refused: it would print as an empty chart."""
    if isinstance(chart.figure, go.Figure):
        spec = chart.figure.to_plotly_json()
    else:
        spec = dict(chart.figure)
    for trace in spec.get("data", []):
        kind = trace.get("type", "scatter")  # (plotly's default)
        if kind not in PRINT_TRACES:
            raise ValueError(
                f"graphique {chart.key} : le type de tracé {kind!r} n'est pas dans le plotly.js "
                f"des PDF ({PRINT_PLOTLY.name}) : choisissez un type parmi "
                f"{', '.join(sorted(PRINT_TRACES))} ou un autre paquet de plotly.js"
            )
    layout = dict(spec.get("layout", {}))
    layout["height"] = chart.height
    payload = {"data": spec.get("data", []), "layout": layout, "config": PLOT_CONFIG}
    if chart.narrow:
        payload["narrow"] = dict(chart.narrow)
    return Html(
        f'<figure class="chart" id="{esc(div_id)}-figure">'
        f'<div id="{esc(div_id)}" class="plot" style="height:{int(chart.height)}px"></div>'
        f"<figcaption>Figure {number} : {esc(chart.caption)}</figcaption></figure>"
        f'<script>classementPlot("{esc(div_id)}",{safe_json(payload)});</script>'
    )
