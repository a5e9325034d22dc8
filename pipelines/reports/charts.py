"""Chart building blocks shared by the sections and the player pages."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
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


def french_numbers(values: pl.Series, decimals: int = 0, *, signed: bool = False) -> pl.Series:
    """`fmt_number` (`fmt_signed`) of each value of a numeric column, as a text column, the
    same text: each distinct value (keyed by its exact text, so -0.0 stays apart from 0.0)
    written once by Python's own float format, then the separators set column-wise;
    « — » for a missing value (or NaN)."""
    keys = values.cast(pl.String)
    distinct = keys.unique().drop_nulls()
    spec = f",.{decimals}f"
    written = pl.Series([format(float(k), spec) for k in distinct.to_list()], dtype=pl.String)
    for mark, french in ((",", "\u202f"), (".", ","), ("-", "−")):
        written = written.str.replace_all(mark, french, literal=True)
    text = keys.replace_strict(distinct, written, default=None, return_dtype=pl.String)
    frame = pl.DataFrame({"value": values, "text": text})
    missing = pl.col("value").is_null()
    positive = pl.col("value") > 0
    if values.dtype.is_float():
        missing |= pl.col("value").is_nan()
        positive &= ~pl.col("value").is_nan()
    shown = pl.when(missing).then(pl.lit("—")).otherwise(pl.col("text"))
    if signed:
        shown = pl.when(positive).then(pl.lit("+") + shown).otherwise(shown)
    return frame.select(shown.alias(values.name)).to_series()


def french_columns(
    frame: pl.DataFrame, columns: Sequence[tuple[str, int, bool]]
) -> dict[tuple[str, int, bool], pl.Series]:
    """`french_numbers(frame[column], decimals, signed=signed)` of each (column, decimals,
    signed) of `columns`, the same texts: the columns of one dtype and number of decimals
    written in one call on their concatenation (a value shared by several columns, as a
    rating before and after an event, formatted once), the sign set per column."""
    groups: dict[tuple[pl.DataType, int], list[tuple[str, int, bool]]] = {}
    for spec in dict.fromkeys(columns):
        groups.setdefault((frame.schema[spec[0]], spec[1]), []).append(spec)
    out: dict[tuple[str, int, bool], pl.Series] = {}
    for (_, decimals), specs in groups.items():
        names = list(dict.fromkeys(column for column, _, _ in specs))
        texts = french_numbers(pl.concat([frame[c] for c in names]), decimals)
        for at, column in enumerate(names):
            values = frame[column]
            text = texts.slice(at * frame.height, frame.height).alias(column)
            for spec in specs:
                if spec[0] == column:
                    out[spec] = _signed(values, text) if spec[2] else text
    return out


def _signed(values: pl.Series, text: pl.Series) -> pl.Series:
    """`text` (`french_numbers(values)`) with « + » before each positive value."""
    positive = pl.col("value") > 0
    if values.dtype.is_float():
        positive &= ~pl.col("value").is_nan()
    shown = pl.when(positive).then(pl.lit("+") + pl.col("text")).otherwise(pl.col("text"))
    return pl.DataFrame({"value": values, "text": text}).select(shown.alias(text.name)).to_series()


def plotly_expr(expr: pl.Expr) -> pl.Expr:
    """`plotly_text` of a text column (a missing value as "")."""
    for unsafe, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")):
        expr = expr.str.replace_all(unsafe, entity, literal=True)
    return expr.fill_null("")


def season_trajectories(
    history: pl.DataFrame, names: Mapping[str, str], start: dt.date, kind: str
) -> dict[str, Series]:
    """`cote_trajectories(history, names, start)` (`kind` "cote") or `elo_trajectories`
    ("elo"): the same points and texts, built column by column for a whole season's
    players at once (a season report: thousands of players; a player page keeps the
    row-by-row functions)."""
    h = history
    numbers = {
        "cote": (
            ("cote_before", 0, False),
            ("cote_after", 0, False),
            ("pe", 0, False),
            ("bonus", 0, False),
            ("pj", 0, True),
            ("rank", 0, False),
            ("players", 0, False),
        ),
        "elo": (
            ("rating_before", 1, False),
            ("rating_after", 1, False),
            ("delta", 1, True),
            ("score", 1, False),
            ("games", 0, False),
            ("expected", 2, False),
        ),
    }
    if kind not in numbers:
        raise ValueError(f"no trajectory of kind {kind!r}")
    texts = french_columns(h, numbers[kind])

    def n(column: str, decimals: int = 0, signed: bool = False) -> pl.Expr:
        return pl.lit(texts[(column, decimals, signed)])

    if kind == "cote":
        before, after, decimals = "cote_before", "cote_after", 0
        describe = [
            n("cote_before"),
            pl.lit(" → <b>"),
            n("cote_after"),
            pl.lit("</b> (PE "),
            n("pe"),
            pl.lit(", B "),
            n("bonus"),
            pl.lit(", PJ "),
            n("pj", signed=True),
            pl.lit(")<br>place "),
            n("rank"),
            pl.lit(" sur "),
            n("players"),
        ]
    elif kind == "elo":
        before, after, decimals = "rating_before", "rating_after", 1
        describe = [
            n("rating_before", 1),
            pl.lit(" → <b>"),
            n("rating_after", 1),
            pl.lit("</b> (Δ "),
            n("delta", 1, signed=True),
            pl.lit(")<br>score "),
            n("score", 1),
            pl.lit(" sur "),
            n("games"),
            pl.lit(" parties, attendu "),
            n("expected", 2),
        ]
    else:
        raise ValueError(f"no trajectory of kind {kind!r}")
    pid = pl.col("player_id")
    name = plotly_expr(pid.replace_strict(dict(names), default=pid, return_dtype=pl.String))
    event = pl.col("tournament_name")
    event = pl.when(event.is_null() | (event == "")).then(pl.col("tournament_id")).otherwise(event)
    frame = h.select(
        "player_id",
        pl.col("end_date").dt.strftime("%Y-%m-%d").alias("x"),
        pl.col(after).alias("y"),
        pl.concat_str(
            pl.lit("<b>"),
            name,
            pl.lit("</b><br>"),
            plotly_expr(event),
            pl.lit(" ("),
            pl.col("end_date").dt.strftime("%d/%m/%Y").fill_null("—"),
            pl.lit(")<br>"),
            *describe,
        ).alias("text"),
        pl.col(before).alias("y0"),
        pl.concat_str(pl.lit("<b>"), name, pl.lit("</b><br>début : "), n(before, decimals)).alias(
            "text0"
        ),
    )
    grouped = frame.group_by("player_id", maintain_order=True).agg(
        "x", "y", "text", pl.col("y0").first(), pl.col("text0").first()
    )
    first = start.isoformat()
    # column by column (`to_list`), not row by row: thousands of players
    columns = [grouped[c].to_list() for c in ("player_id", "x", "y", "text", "y0", "text0")]
    return {
        player: {"x": [first, *xs], "y": [y0, *ys], "text": [t0, *texts]}
        for player, xs, ys, texts, y0, t0 in zip(*columns, strict=True)
    }


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
