"""The series cascade: quotas against admitted players, access bars, promotions and
relegations, overall and per federation."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from pipelines.reports.charts import PALETTE, axis, base_layout
from pipelines.reports.data import ReportData
from pipelines.reports.html import (
    Html,
    count_of,
    esc_expr,
    fmt_number,
    frame_table,
    per_value,
    player_link_expr,
    table,
    tag,
)
from pipelines.reports.labels import (
    CRITERIA,
    MOVEMENT_LABELS,
    MOVEMENTS,
    series_label,
    series_sort_key,
)
from pipelines.reports.section import Chart, Fragment, Section

KEY = "cascade"
OTHERS = "*"


# The unit of each criterion's access bar, written after every value (issue 27, item 6):
# the percentages in %, the points de classement in PC.
UNITS = {"pc": ("PC", 1)}
PERCENT = ("%", 2)


def _bar_value(criterion: str | None, bar: float | None) -> str | None:
    """An access bar with its unit: « 46,11 % », « 2 347,5 PC »."""
    if bar is None or criterion is None:
        return None
    unit, decimals = UNITS.get(criterion, PERCENT)
    return f"{fmt_number(bar, decimals)} {unit}"


def _is_empty(row: dict) -> bool:
    """A series slot with neither quota nor admitted player nor bar (e.g. a series the
    cascade does not fill): left out of the chart and the tables."""
    return not row["target"] and not row["admitted"] and row["bar"] is None


def _bars_table(rows: pl.DataFrame, caption: str | None = None) -> Html:
    ordered = sorted(
        (r for r in rows.iter_rows(named=True) if not _is_empty(r)),
        key=lambda r: (series_sort_key(r["series"]), r["subseries"] or ""),
    )
    columns = [
        ("Série", lambda r: series_label(r["series"])),
        ("Sous-série", lambda r: r["subseries"]),
        ("Critère", lambda r: CRITERIA.get(r["criterion"], r["criterion"])),
        ("Barre d'accès", lambda r: _bar_value(r["criterion"], r["bar"])),
        ("Admis", lambda r: r["admitted"]),
        ("Quota", lambda r: r["target"]),
    ]
    # a column no row fills (the sub-series of the international cascade, the quota of a
    # federation's sub-series) is left out rather than shown as a column of « — »
    kept = [(h, get) for h, get in columns if any(get(r) is not None for r in ordered)]
    numeric = {"Barre d'accès", "Admis", "Quota"}
    return table(
        [h for h, _ in kept],
        [tuple(get(r) for _, get in kept) for r in ordered],
        numeric=[i for i, (h, _) in enumerate(kept) if h in numeric],
        caption=caption,
    )


def _quota_chart(overall: pl.DataFrame) -> Chart:
    rows = sorted(
        (r for r in overall.iter_rows(named=True) if not _is_empty(r)),
        key=lambda r: series_sort_key(r["series"]),
    )
    x = [series_label(r["series"]) for r in rows]
    bar_text = [_bar_value(r["criterion"], r["bar"]) or "" for r in rows]
    criteria = [CRITERIA.get(r["criterion"], r["criterion"] or "—") for r in rows]
    traces = [
        {
            "type": "bar",
            "name": "Quota (cible)",
            "x": x,
            "y": [r["target"] for r in rows],
            "marker": {"color": "#b8c4d6"},
            "hovertemplate": "%{x} : quota %{y}<extra></extra>",
        },
        {
            "type": "bar",
            "name": "Admis",
            "x": x,
            "y": [r["admitted"] for r in rows],
            "marker": {"color": PALETTE[0]},
            "text": bar_text,
            "customdata": criteria,
            "textposition": "outside",
            "hovertemplate": "%{x} : %{y} admis, barre d'accès (%{customdata}) : %{text}"
            "<extra></extra>",
        },
    ]
    layout = base_layout(
        barmode="group",
        xaxis=axis("Série de la saison suivante"),
        yaxis=axis("Joueurs"),
        legend={"orientation": "h", "y": 1.08, "x": 0},
        margin={"l": 60, "r": 20, "t": 40, "b": 50},
    )
    return Chart(
        "quotas",
        {"data": traces, "layout": layout},
        "Quotas de la cascade internationale (cible) et joueurs admis par série ; "
        "au-dessus de chaque colonne, la barre d'accès (en % pour les pourcentages %N1 à "
        "%N4 et de la super-série, en PC : points de classement)",
        height=400,
    )


def _movements_chart(counts: pl.DataFrame) -> Chart:
    series = sorted(counts["series"].unique().to_list(), key=series_sort_key)
    traces = []
    for code, (label, color) in MOVEMENTS.items():
        by_series = dict(
            counts.filter(pl.col("movement") == code).select("series", "n").iter_rows()
        )
        traces.append(
            {
                "type": "bar",
                "name": label,
                "x": [series_label(s) for s in series],
                "y": [by_series.get(s, 0) for s in series],
                "marker": {"color": color},
                "hovertemplate": f"%{{x}} : %{{y}} {label.lower()}<extra></extra>",
            }
        )
    layout = base_layout(
        barmode="stack",
        xaxis=axis("Série de la saison suivante"),
        yaxis=axis("Joueurs"),
        legend={"orientation": "h", "y": 1.08, "x": 0, "traceorder": "normal"},
        margin={"l": 60, "r": 20, "t": 40, "b": 50},
    )
    return Chart(
        "movements",
        {"data": traces, "layout": layout},
        "Promotions, relégations, maintiens et nouveaux joueurs par série d'arrivée",
        height=380,
    )


def _movement_counts(movements: pl.DataFrame) -> pl.DataFrame:
    return (
        movements.group_by("series", "movement").agg(pl.len().alias("n")).sort("series", "movement")
    )


def _counts_table(counts: pl.DataFrame) -> Html:
    series = sorted(counts["series"].unique().to_list(), key=series_sort_key)
    lookup = {(s, m): n for s, m, n in counts.select("series", "movement", "n").iter_rows()}
    rows = [
        (
            series_label(s),
            *(lookup.get((s, m), 0) for m in MOVEMENTS),
            sum(lookup.get((s, m), 0) for m in MOVEMENTS),
        )
        for s in series
    ]
    total = ("Total", *(sum(r[i + 1] for r in rows) for i in range(len(MOVEMENTS) + 1)))
    return table(
        ["Série", *(label for label, _ in MOVEMENTS.values()), "Total"],
        [*rows, total],
        numeric=range(1, len(MOVEMENTS) + 2),
    )


def _series_order(series: pl.Expr, values: pl.Series) -> pl.Expr:
    """`series_sort_key` of a series column (`values`: the series it may hold)."""
    distinct = values.unique().drop_nulls()
    order = pl.Series([series_sort_key(v) for v in distinct.to_list()], dtype=pl.Int64)
    return series.replace_strict(distinct, order, default=None).fill_null(series_sort_key(None))


def _changes_lists(moves: pl.DataFrame, names: pl.DataFrame) -> dict[str, Html]:
    """Per federation of `moves`, its promoted and relegated players by movement, series,
    name, licence (`names`: `ReportData.names_frame()`), built column-wise for every
    federation at once."""
    changed = moves.filter(pl.col("movement").is_in(["promoted", "relegated"]))
    rows = (
        changed.select("federation", "player_id", "movement", "previous_series", "series")
        .join(names, on="player_id", how="left", maintain_order="left")
        .with_columns(_series_order(pl.col("series"), changed["series"]).alias("_order"))
        .sort("movement", "_order", pl.col("name").fill_null(""), "player_id", maintain_order=True)
    )
    movement = pl.col("movement")
    cells = rows.select(
        "federation",
        player_link_expr(
            pl.col("player_id"),
            pl.col("name").fill_null(pl.col("player_id")),
            rows["player_id"],
        ),
        esc_expr(pl.col("player_id")).alias("licence"),
        esc_expr(
            movement.replace_strict(MOVEMENT_LABELS, default=movement, return_dtype=pl.String)
        ).alias("label"),
        esc_expr(pl.lit(per_value(rows["previous_series"], series_label))).alias("previous"),
        esc_expr(pl.lit(per_value(rows["series"], series_label))).alias("next"),
    )
    out: dict[str, Html] = {}
    for federation in moves["federation"].unique().to_list():
        mine = cells.filter(pl.col("federation") == federation).drop("federation")
        if mine.height == 0:
            out[federation] = Html('<p class="note">Aucune promotion ni relégation.</p>')
            continue
        body = frame_table(
            ["Joueur", "Licence", "Mouvement", "Série de la saison", "Nouvelle série"], mine
        )
        out[federation] = Html(
            "<details><summary>Liste des promotions et relégations "
            f"({count_of(mine.height, 'joueur')})</summary>{body}</details>"
        )
    return out


def render(data: ReportData, season: str) -> Sequence[Fragment]:
    bars = data.for_season("series_bars", season)
    movements = data.for_season("series_movements", season)
    if bars.height == 0 and movements.height == 0:
        return [Html('<p class="note">Aucune classification des séries pour cette saison.</p>')]
    names = data.names_frame()
    out: list[Fragment] = [
        Html(
            "<p>Classification de fin de saison, valable la saison suivante : chaque série "
            "reçoit son quota de la population (cible) ; les joueurs sont admis dans l'ordre "
            "de leur critère jusqu'au quota, les ex æquo à la barre admis ensemble.</p>"
        )
    ]
    overall = bars.filter(pl.col("federation").is_null() & pl.col("subseries").is_null())
    if overall.height:
        out.append(_quota_chart(overall))
        out.append(_bars_table(overall, "Cascade internationale"))
    counts = _movement_counts(movements)
    if movements.height:
        out.append(_movements_chart(counts))
        out.append(_counts_table(counts))

    out.append(tag("h3", "Par fédération"))
    federated = bars.filter(pl.col("federation").is_not_null())
    feds = data.for_season("series_classification", season).select(
        "player_id", data.quota_federation("federation").alias("federation")
    )
    moves = movements.join(feds, on="player_id", how="left").with_columns(
        pl.col("federation").fill_null(OTHERS)
    )
    federations = sorted(
        set(federated["federation"].to_list()) | set(moves["federation"].to_list()),
        key=lambda f: (f == OTHERS, f),
    )
    changes = _changes_lists(moves, names)
    for federation in federations:
        out.append(
            tag(
                "h4",
                "Autres fédérations"
                if federation == OTHERS
                else data.federation_label(federation) or federation,
            )
        )
        fed_bars = federated.filter(pl.col("federation") == federation)
        if fed_bars.height:
            out.append(_bars_table(fed_bars, f"Barres et quotas — {federation}"))
        fed_moves = moves.filter(pl.col("federation") == federation)
        if fed_moves.height:
            out.append(_counts_table(_movement_counts(fed_moves)))
            out.append(changes[federation])
    return out


SECTION = Section(
    key=KEY,
    title="Cascade des séries : quotas, barres, promotions et relégations",
    order=30,
    render=render,
    description="Quotas contre admis, barres d'accès, mouvements, tableaux par fédération.",
)
