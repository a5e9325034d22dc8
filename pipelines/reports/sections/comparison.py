"""Our series classification against the one the FFSc publishes (`series_comparison`):
agreement count and rate, a confusion matrix (heat map and table), agreements per published
series and the list of disagreements."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from pipelines.reports.charts import PALETTE, axis, base_layout
from pipelines.reports.data import ReportData
from pipelines.reports.html import (
    Html,
    count_of,
    definition_list,
    esc_expr,
    fmt_date,
    fmt_number,
    fmt_signed,
    frame_table,
    per_value,
    player_link_expr,
    plotly_text,
    table,
    tag,
)
from pipelines.reports.labels import series_label
from pipelines.reports.section import Chart, Fragment, Section
from transforms.series_comparison import agreement_summary, confusion_matrix
from transforms.series_labels import SERIES_ORDER

KEY = "comparison"
ABSENT = "Absent"
HEAT_LOW = "#e8eff8"
HEAT_HIGH = PALETTE[0]
AGREEMENT_LINE = PALETTE[2]


def level_label(level: str | None) -> str:
    """`SS` → Super-série, `5` → Série 5, null → Absent."""
    return ABSENT if level is None else series_label(level)


def _short(level: str | None) -> str:
    return ABSENT if level is None else level


def _percent(rate: float | None) -> str:
    return "—" if rate is None else f"{fmt_number(100 * rate, 1)} %"


def _levels(matrix: pl.DataFrame) -> list[str | None]:
    """Levels present on either side, best first, `None` (absent) last when present."""
    present = set(matrix["published"].to_list()) | set(matrix["computed"].to_list())
    ordered: list[str | None] = [s for s in SERIES_ORDER if s in present]
    ordered += sorted(s for s in present if s is not None and s not in SERIES_ORDER)
    if None in present:
        ordered.append(None)
    return ordered


def _heat_map(matrix: pl.DataFrame) -> Chart:
    """Published potential level (rows) × computed level (columns): one square per cell
    with players, coloured by count, outlined where both agree."""
    levels = _levels(matrix)
    labels = [plotly_text(_short(s)) for s in levels]
    cells = [r for r in matrix.iter_rows(named=True) if r["players"] > 0]
    top = max((r["players"] for r in cells), default=1)
    size = max(18, min(46, 330 // max(1, len(levels))))
    agree = [r["published"] is not None and r["published"] == r["computed"] for r in cells]
    trace = {
        "type": "scatter",
        "mode": "markers+text",
        "name": "Joueurs",
        "x": [plotly_text(_short(r["computed"])) for r in cells],
        "y": [plotly_text(_short(r["published"])) for r in cells],
        "text": [fmt_number(r["players"]) for r in cells],
        "textposition": "middle center",
        "textfont": {
            "size": 11,
            "color": ["white" if r["players"] > top / 2 else "#1d2433" for r in cells],
        },
        "marker": {
            "symbol": "square",
            "size": size,
            "color": [r["players"] for r in cells],
            "colorscale": [[0, HEAT_LOW], [1, HEAT_HIGH]],
            "cmin": 0,
            "cmax": top,
            "showscale": True,
            "colorbar": {"title": {"text": "Joueurs"}, "thickness": 12},
            "line": {
                "color": [AGREEMENT_LINE if a else "#9aa3b2" for a in agree],
                "width": [3 if a else 1 for a in agree],
            },
        },
        "hovertemplate": "FFSc : %{y}<br>calculée : %{x}<br>joueurs : %{text}<extra></extra>",
    }
    layout = base_layout(
        xaxis=axis(
            "Série calculée par le projet",
            type="category",
            categoryorder="array",
            categoryarray=labels,
            range=[-0.5, len(labels) - 0.5],
            showgrid=False,
        ),
        yaxis=axis(
            "Série potentielle publiée par la FFSc",
            type="category",
            categoryorder="array",
            categoryarray=list(reversed(labels)),
            range=[-0.5, len(labels) - 0.5],
            showgrid=False,
        ),
        showlegend=False,
        margin={"l": 80, "r": 20, "t": 20, "b": 60},
    )
    return Chart(
        "matrix",
        {"data": [trace], "layout": layout},
        "Série potentielle publiée par la FFSc (lignes) et série calculée par le projet "
        "(colonnes), en nombre de joueurs ; encadrées en vert, les cases d'accord (à la série "
        "près) ; « Absent » : joueur classé d'un seul côté",
        height=460,
    )


def _matrix_table(matrix: pl.DataFrame) -> Html:
    levels = _levels(matrix)
    lookup = {(r["published"], r["computed"]): r["players"] for r in matrix.iter_rows(named=True)}
    rows = []
    for published in levels:
        counts = [lookup.get((published, computed), 0) for computed in levels]
        rows.append((level_label(published), *counts, sum(counts)))
    totals = [sum(lookup.get((p, c), 0) for p in levels) for c in levels]
    rows.append(("Total", *totals, sum(totals)))
    return table(
        ["FFSc \\ calculée", *(_short(s) for s in levels), "Total"],
        rows,
        numeric=range(1, len(levels) + 2),
        caption="Joueurs par série potentielle publiée (lignes) et série calculée (colonnes)",
    )


def _summary_table(summary: pl.DataFrame) -> Html:
    rows = []
    for r in summary.iter_rows(named=True):
        if r["scope"] == "overall":
            label = "Ensemble"
        elif r["series"] is None:
            label = "Absents du classement publié"
        else:
            label = level_label(r["series"])
        rows.append((label, r["players"], r["agreements"], _percent(r["rate"])))
    return table(
        ["Série potentielle publiée", "Joueurs", "Accords", "Taux d'accord"],
        rows,
        numeric=(1, 2, 3),
        caption="Accords par série potentielle publiée",
    )


def _name(row: dict[str, object], names: dict[str, str]) -> str:
    given = " ".join(str(row[c]) for c in ("last_name", "first_name") if row[c]).strip()
    pid = str(row["player_id"])
    return given or names.get(pid, pid)


def _disagreements(rows: pl.DataFrame, names: dict[str, str]) -> Html:
    wrong = rows.filter(~pl.col("agrees")).sort(["place", "player_id"], nulls_last=True)
    if wrong.height == 0:
        return Html('<p class="note">Aucun désaccord : les deux classifications coïncident.</p>')
    shown = [
        _name(r, names)
        for r in wrong.select("player_id", "last_name", "first_name").iter_rows(named=True)
    ]
    known = [pid in names for pid in wrong["player_id"].to_list()]
    frame = wrong.with_columns(
        pl.Series("_name", shown, dtype=pl.String), pl.Series("_known", known, dtype=pl.Boolean)
    )
    text = ["published_series", "published_potential_series", "computed_series"]
    cells = frame.select(
        pl.col("place").cast(pl.String),
        pl.when(pl.col("_known"))
        .then(player_link_expr(pl.col("player_id"), pl.col("_name"), frame["player_id"]))
        .otherwise(esc_expr(pl.col("_name")))
        .alias("player"),
        esc_expr(pl.col("player_id")).alias("licence"),
        *(
            pl.when(pl.col(c).is_null()).then(None).otherwise(esc_expr(pl.col(c))).alias(c)
            for c in text
        ),
        pl.lit(per_value(frame["difference"], fmt_signed)).alias("difference"),
    )
    body = frame_table(
        [
            "Place FFSc",
            "Joueur",
            "Licence",
            "Série de la saison",
            "Série publiée",
            "Série calculée",
            "Écart",
        ],
        cells,
        numeric=(0, 6),
    )
    return Html(
        "<details><summary>Liste des désaccords "
        f"({count_of(wrong.height, 'joueur')})</summary>{body}</details>"
    )


def render(data: ReportData, season: str) -> Sequence[Fragment]:
    season_rows = data.for_season("series_comparison", season)
    if season_rows.height == 0:
        return [
            Html(
                '<p class="note">Aucun classement publié par la FFSc pour cette saison : '
                "pas de comparaison.</p>"
            )
        ]
    dates = sorted(season_rows["as_of"].unique().to_list())
    as_of = dates[-1]
    rows = season_rows.filter(pl.col("as_of") == as_of)
    summary = agreement_summary(rows)
    overall = summary.filter(pl.col("scope") == "overall").row(0, named=True)
    published_only = rows.filter(
        pl.col("computed_series").is_null() & pl.col("published_potential_series").is_not_null()
    ).height
    ours_only = rows.filter(pl.col("published_potential_series").is_null()).height
    facts: dict[str, object] = {
        "Classement publié": f"au {fmt_date(as_of)}",
        "Joueurs comparés": fmt_number(rows.height),
        "Accords": f"{fmt_number(overall['agreements'])} ({_percent(overall['rate'])})",
        "Désaccords": fmt_number(rows.height - overall["agreements"]),
        "Publiés mais non classés par le projet": fmt_number(published_only),
        "Classés par le projet mais absents du classement publié": fmt_number(ours_only),
    }
    out: list[Fragment] = [
        tag(
            "p",
            "En fin de saison, la FFSc publie pour chaque joueur la série potentielle de la "
            "saison suivante ; elle est comparée ici à la série calculée par le projet "
            "(super-série comprise) pour les joueurs français. Les sous-séries ne sont "
            "comparées que lorsque les deux classifications en donnent une. L'écart est la "
            "série calculée moins la série publiée, en séries (super-série = 0) : positif "
            "quand le projet classe le joueur plus bas que la FFSc.",
        ),
    ]
    if len(dates) > 1:
        out.append(
            tag(
                "p",
                f"La saison compte {len(dates)} classements publiés ; la comparaison porte "
                f"sur le dernier, du {fmt_date(as_of)}.",
                class_="note",
            )
        )
    matrix = confusion_matrix(rows)
    out += [
        definition_list(facts),
        _heat_map(matrix),
        _matrix_table(matrix),
        _summary_table(summary),
        tag("h3", "Désaccords"),
        _disagreements(rows, data.names()),
    ]
    return out


SECTION = Section(
    key=KEY,
    title="Comparaison avec le classement publié par la FFSc",
    order=35,
    render=render,
    description="Accords entre la série potentielle publiée par la FFSc et la série "
    "calculée, matrice de confusion, liste des désaccords.",
)
