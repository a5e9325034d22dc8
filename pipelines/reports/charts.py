"""Chart building blocks shared by the sections and the player pages."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

import polars as pl

from pipelines.reports.html import fmt_date, fmt_number, fmt_signed, plotly_text

GRID = "#e3e7ee"
AXIS_LINE = "#9aa3b2"
BAR_LINE = "#b03a2e"
PALETTE = (
    "#1f5fa8",
    "#e0792b",
    "#2e9a4b",
    "#c23b3b",
    "#7e57b8",
    "#8c564b",
    "#d45fb0",
    "#6b6b6b",
    "#b5b520",
    "#1fa5b5",
)


def base_layout(**extra: Any) -> dict[str, Any]:
    """The layout every chart starts from (no Plotly template: smaller, same everywhere)."""
    layout: dict[str, Any] = {
        "template": {},
        "colorway": list(PALETTE),
        "separators": ", ",
        "font": {"family": "DejaVu Sans, Arial, sans-serif", "size": 12, "color": "#1d2433"},
        "paper_bgcolor": "white",
        "plot_bgcolor": "white",
        "margin": {"l": 60, "r": 20, "t": 30, "b": 50},
        "hovermode": "closest",
        "legend": {"orientation": "h", "y": -0.18, "x": 0},
    }
    layout.update(extra)
    return layout


def axis(title: str = "", **extra: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "gridcolor": GRID,
        "linecolor": AXIS_LINE,
        "zeroline": False,
        "showline": True,
        "automargin": True,
    }
    if title:
        spec["title"] = {"text": plotly_text(title)}
    spec.update(extra)
    return spec


def hline(y: float, label: str, *, yref: str = "y", xref: str = "x domain") -> tuple[dict, dict]:
    """A horizontal bar line across the plot and its label (a shape and an annotation)."""
    shape = {
        "type": "line",
        "xref": xref,
        "x0": 0,
        "x1": 1,
        "yref": yref,
        "y0": y,
        "y1": y,
        "line": {"color": BAR_LINE, "width": 1.5, "dash": "dash"},
    }
    note = {
        "xref": xref,
        "x": 1,
        "xanchor": "right",
        "yref": yref,
        "y": y,
        "yanchor": "bottom",
        "text": plotly_text(label),
        "showarrow": False,
        "font": {"color": BAR_LINE, "size": 11},
    }
    return shape, note


# The height of a bar label's line: a chart's labels are staggered by this much (pixels,
# whatever the screen's width) so that two close bars never write one over the other.
LABEL_ROW = 16


def vline(
    x: float,
    label: str,
    *,
    xref: str = "x",
    yref: str = "y domain",
    level: int = 0,
    xanchor: str = "left",
) -> tuple[dict, dict]:
    """A vertical bar line and its label, the label `level` lines below the top (give
    each bar of a chart its own level when their labels could meet), written to the right
    of the line (`xanchor` "left") or, for a bar near the axis' right end, to its left
    ("right")."""
    shape = {
        "type": "line",
        "xref": xref,
        "x0": x,
        "x1": x,
        "yref": yref,
        "y0": 0,
        "y1": 1,
        "line": {"color": BAR_LINE, "width": 1.5, "dash": "dash"},
    }
    note = {
        "xref": xref,
        "x": x,
        "xanchor": xanchor,
        "yref": yref,
        "y": 1,
        "yanchor": "top",
        "text": plotly_text(label),
        "showarrow": False,
        "font": {"color": BAR_LINE, "size": 11},
        "bgcolor": "rgba(255,255,255,0.7)",
    }
    if level:
        note["yshift"] = -LABEL_ROW * level
    return shape, note


Series = dict[str, list[Any]]


def _iso(value: dt.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def cote_trajectories(
    history: pl.DataFrame, names: Mapping[str, str], start: dt.date | None = None
) -> dict[str, Series]:
    """Per player, the points `x` (date), `y` (cote) and hover `text` of `history`
    (`ReportData.cote_history()` rows, in event order): a first point on `start` (else the
    first tournament's start date) at the cote before, then one per tournament."""
    return _trajectories(history, names, start, "cote_before", "cote_after", _cote_text, 0)


def elo_trajectories(
    history: pl.DataFrame, names: Mapping[str, str], start: dt.date | None = None
) -> dict[str, Series]:
    """As `cote_trajectories`, for `ReportData.elo_history()` rows (Elo rounded to 0.1)."""
    return _trajectories(history, names, start, "rating_before", "rating_after", _elo_text, 1)


def _cote_text(row: Mapping[str, Any]) -> str:
    return (
        f"{fmt_number(row['cote_before'])} → <b>{fmt_number(row['cote_after'])}</b> "
        f"(PE {fmt_number(row['pe'])}, B {fmt_number(row['bonus'])}, PJ {fmt_signed(row['pj'])})"
        f"<br>place {fmt_number(row['rank'])} sur {fmt_number(row['players'])}"
    )


def _elo_text(row: Mapping[str, Any]) -> str:
    return (
        f"{fmt_number(row['rating_before'], 1)} → <b>{fmt_number(row['rating_after'], 1)}</b>"
        f" (Δ {fmt_signed(row['delta'], 1)})<br>score {fmt_number(row['score'], 1)} sur "
        f"{fmt_number(row['games'])} parties, attendu {fmt_number(row['expected'], 2)}"
    )


def _trajectories(
    history: pl.DataFrame,
    names: Mapping[str, str],
    start: dt.date | None,
    before: str,
    after: str,
    describe: Callable[[Mapping[str, Any]], str],
    decimals: int,
) -> dict[str, Series]:
    out: dict[str, Series] = {}
    for row in history.iter_rows(named=True):
        pid = row["player_id"]
        name = plotly_text(names.get(pid, pid))
        points = out.get(pid)
        if points is None:
            first_day = start or row["start_date"] or row["end_date"]
            points = out[pid] = {
                "x": [_iso(first_day)],
                "y": [row[before]],
                "text": [f"<b>{name}</b><br>début : {fmt_number(row[before], decimals)}"],
            }
        points["x"].append(_iso(row["end_date"]))
        points["y"].append(row[after])
        points["text"].append(
            f"<b>{name}</b><br>{plotly_text(row['tournament_name'] or row['tournament_id'])}"
            f" ({fmt_date(row['end_date'])})<br>{describe(row)}"
        )
    return out


def line_trace(name: str, points: Series, **extra: Any) -> dict[str, Any]:
    """A trajectory trace (`name` is shown as is: pass it through `plotly_text`)."""
    trace: dict[str, Any] = {
        "type": "scatter",
        "mode": "lines+markers",
        "name": name,
        "x": points["x"],
        "y": points["y"],
        "text": points["text"],
        "hovertemplate": "%{text}<extra></extra>",
        "line": {"width": 2, "shape": "hv"},
        "marker": {"size": 5},
    }
    trace.update(extra)
    return trace
