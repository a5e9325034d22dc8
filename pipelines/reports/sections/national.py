"""National classifications (docs/rules.md §4): per federation with a national rule, the
values of its players drawn against the published bars (or the clé de répartition's
bounds), the counts per series and the players the rule does not classify, with their
reason."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from pipelines.reports.charts import (
    BAR_LINE,
    PALETTE,
    axis,
    base_layout,
    french_numbers,
    plotly_expr,
    vline,
)
from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, fmt_number, join, player_link, plotly_text, table, tag
from pipelines.reports.labels import (
    BAR_KINDS,
    NATIONAL_CRITERIA,
    NATIONAL_RULES,
    series_label,
    series_sort_key,
)
from pipelines.reports.section import Chart, Fragment, Section
from transforms.federations import AliasTable
from transforms.national import NationalParams

KEY = "national"
# Rules whose rows come from elsewhere (the cascade, the new licensees): not drawn.
NOT_DRAWN = ("international", "new_licensee")
ROW_PX = 40  # height of one (sub-)series row of a chart
PANEL_PX = 80  # axis title and margins of one panel
SERIES_COLOURS = {"5": PALETTE[0], "6": PALETTE[1], "7": PALETTE[2]}
# Golden-ratio offsets spread the points of a row without randomness (same page each time).
_SPREAD = 0.6180339887


def _rule_text(rule: str, params: NationalParams, federations: AliasTable) -> str:
    """The federation's rule in one French paragraph, with its parameters."""
    if rule == "france":
        france = params.france
        return (
            f"Série 5A : un %N4 global d'au moins {fmt_number(france.min_pct_n4, 2)} %, ou "
            "les points de classement (PC) de la saison dans le quota de la 5A (les joueurs "
            "admis par le %N4 y comptent). Séries 5A à 6C par les PC : selon les sous-quotas "
            "de la fédération, cumulés (la barre d'une sous-série est la valeur de son "
            "dernier admis) ; 6D : tous les autres joueurs."
        )
    if rule == "belgium":
        return (
            "PP5, PP6 et PP7 : les pourcentages des zones des séries 5, 6 et 7 (méthode des "
            "zones des %N1–%N4), pondérés sur la saison. Série 5 par le PP5 selon les "
            f"sous-quotas, à partir d'un PP5 minimum de {fmt_number(params.belgium.min_pp5, 2)} "
            "% ; série 6 par le PP6 ; série 7 : les joueurs sans PP6, avec leur PP7."
        )
    if rule == "switzerland":
        swiss = params.switzerland
        return (
            f"Points de classement des {swiss.counted_events} meilleures performances de la "
            f"saison, dont les {swiss.home_events} meilleures dans des tournois joués en "
            f"Suisse (plus les {swiss.counted_events - swiss.home_events} meilleures de tous "
            f"les autres tournois) ; un joueur qui a joué moins de {swiss.home_events} "
            "tournois en Suisse "
            "n'est pas classé par cette règle. Séries 5A à 6B selon les sous-quotas."
        )
    reference = federations.name(params.median.reference_federation)
    return (
        "Pourcentage de chaque tournoi : score / total des tops × 100 ; valeur de la saison : "
        "la médiane de ces pourcentages (avec un nombre pair de tournois, la moyenne des deux "
        "valeurs du milieu). La clé de répartition, calculée chaque saison sur les joueurs de "
        f"la fédération de référence ({reference}), donne la série."
    )


def _row_label(series: str, subseries: str | None) -> str:
    return subseries or series_label(series)


def _row_key(series: str, subseries: str | None) -> tuple[int, str]:
    return series_sort_key(series), subseries or ""


def _bar_text(kind: str | None, rule: str, bar: float | None) -> str | None:
    if kind == "rest":
        return BAR_KINDS["rest"]
    if bar is None:
        return None
    _, unit, decimals = NATIONAL_CRITERIA.get(rule, ("", "", 2))
    value = fmt_number(bar, decimals) + unit
    return f"{BAR_KINDS['minimum']} {value}" if kind == "minimum" else f"≥ {value}"


def _cle_text(lower: float | None, upper: float | None) -> str:
    if lower is None and upper is None:
        return "toutes valeurs"
    if lower is None:
        return f"< {fmt_number(upper, 2)} %"
    if upper is None:
        return f"≥ {fmt_number(lower, 2)} %"
    return f"de {fmt_number(lower, 2)} % à {fmt_number(upper, 2)} %"


# --------------------------------------------------------------------------- chart


def _padded(xs: list[float]) -> list[float] | None:
    """An x range with room on the left for the labels of the bars (left of their line)."""
    if not xs:
        return None
    low, high = min(xs), max(xs)
    span = (high - low) or max(abs(high), 1.0)
    return [low - 0.16 * span, high + 0.04 * span]


def _by_subseries(
    subseries: pl.Series, values: dict[Any, Any], dtype: pl.DataType | type[pl.DataType]
) -> pl.Expr:
    """A column holding `values[subseries]` of each row (a missing sub-series included)."""
    known = [sub for sub in values if sub is not None]
    mapped = pl.lit(subseries).replace_strict(
        pl.Series(known, dtype=pl.String),
        pl.Series([values[sub] for sub in known], dtype=dtype),
        default=None,
    )
    if None in values:
        return (
            pl.when(pl.lit(subseries).is_null())
            .then(pl.lit(values[None], dtype=dtype))
            .otherwise(mapped)
        )
    return mapped


def _panel(
    rule: str,
    rows: pl.DataFrame,
    bars: pl.DataFrame,
    cle: pl.DataFrame,
    names: pl.DataFrame,
    index: int,
) -> dict[str, Any]:
    """One panel: the points of the players `rule` classified, a row per (sub-)series,
    with the bars of the rule (or the clé's bounds) as lines."""
    steps = set(rows.select("series", "subseries").unique().iter_rows())
    steps |= {
        (r["series"], r["subseries"])
        for r in bars.filter(pl.col("rule") == rule).iter_rows(named=True)
        if r["subseries"] is not None or r["kind"] != "minimum"
    }
    if rule == "median_cle":
        steps |= {(s, None) for s in cle.filter(pl.col("players") > 0)["series"].to_list()}
    ordered = sorted(steps, key=lambda s: _row_key(*s))
    # best at the top
    position = {step: len(ordered) - 1 - i for i, step in enumerate(ordered)}
    suffix = "" if index == 0 else str(index + 1)
    xref, yref = f"x{suffix}", f"y{suffix}"
    criterion, unit, decimals = NATIONAL_CRITERIA.get(rule, ("", "", 2))
    # bigger points when there are few of them (a small federation stays legible printed)
    marker = 12 if rows.height < 30 else 10 if rows.height < 60 else 8 if rows.height < 200 else 6
    traces: list[dict[str, Any]] = []
    # each point's value as `national_value` writes it (the rows drawn have one)
    number = french_numbers(rows["value"], decimals)
    shown = pl.lit(f"{criterion} " if criterion else "") + pl.lit(number) + pl.lit(unit)
    rows = rows.with_columns(plotly_expr(shown).alias("_value"))
    for series in sorted({s for s, _ in ordered}, key=series_sort_key):
        mine = rows.filter(pl.col("series") == series).sort(
            ["subseries", "value", "player_id"], nulls_last=True
        )
        # the k-th point of its (sub-)series row, spread around the row's position
        at = {sub: position[(series, sub)] for sub in mine["subseries"].unique().to_list()}
        labels = {sub: plotly_text(_row_label(series, sub)) for sub in at}
        k = pl.int_range(pl.len()).over("subseries")
        points = mine.select(
            "value",
            (
                _by_subseries(mine["subseries"], at, pl.Int64) + ((k * _SPREAD) % 1 - 0.5) * 0.6
            ).alias("y"),
            pl.concat_str(
                pl.lit("<b>"),
                plotly_expr(pl.col("name")),
                pl.lit("</b><br>"),
                _by_subseries(mine["subseries"], labels, pl.String),
                pl.lit(" : "),
                pl.col("_value"),
            ).alias("text"),
        )
        x: list[float] = points["value"].to_list()
        y: list[float] = points["y"].to_list()
        text: list[str] = points["text"].to_list()
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": series_label(series),
                "x": x,
                "y": y,
                "text": text,
                "xaxis": xref,
                "yaxis": yref,
                "hovertemplate": "%{text}<extra></extra>",
                "marker": {
                    "size": marker,
                    "opacity": 0.8,
                    "color": SERIES_COLOURS.get(series, PALETTE[3]),
                },
                "showlegend": True,
                "legendgroup": series,
            }
        )
    shapes: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    # A bar label is written left of its line (the row's own players are on its right),
    # unless the line is in the first third of the axis: then on its right, inside the
    # chart (a phone's chart is too narrow for it on the left).
    values = [v for t in traces for v in t["x"]]
    values += bars.filter(pl.col("rule") == rule)["bar"].drop_nulls().to_list()
    low_end = min(values) + (max(values) - min(values)) / 3 if values else None
    for r in bars.filter(pl.col("rule") == rule).iter_rows(named=True):
        if r["bar"] is None or r["kind"] == "rest":
            continue
        if r["subseries"] is not None:
            covered = [position[(r["series"], r["subseries"])]]
        else:  # a minimum of the whole series
            covered = [p for (s, _), p in position.items() if s == r["series"]]
        if not covered:
            continue
        low, high = min(covered) - 0.45, max(covered) + 0.45
        shapes.append(
            {
                "type": "line",
                "xref": xref,
                "yref": yref,
                "x0": r["bar"],
                "x1": r["bar"],
                "y0": low,
                "y1": high,
                "line": {
                    "color": BAR_LINE,
                    "width": 2,
                    "dash": "dot" if r["kind"] == "minimum" else "solid",
                },
            }
        )
        notes.append(
            {
                "xref": xref,
                "yref": yref,
                "x": r["bar"],
                "y": (low + high) / 2,
                "xanchor": "left" if low_end is not None and r["bar"] < low_end else "right",
                "yanchor": "middle",
                "xshift": 3 if low_end is not None and r["bar"] < low_end else -3,
                "text": plotly_text(_bar_text(r["kind"], rule, r["bar"])),
                "showarrow": False,
                "font": {"color": BAR_LINE, "size": 10},
            }
        )
    if rule == "median_cle":
        present = cle.filter(pl.col("players") > 0)
        drawn = [v for t in traces for v in t["x"]] + present["lower_bound"].drop_nulls().to_list()
        middle = (min(drawn) + max(drawn)) / 2 if drawn else None
        bounds = [r for r in present.iter_rows(named=True) if r["lower_bound"] is not None]
        for level, r in enumerate(sorted(bounds, key=lambda r: -r["lower_bound"])):
            # one line each, written inside the chart: close bounds never overlap on a phone
            shape, note = vline(
                r["lower_bound"],
                f"{series_label(r['series'])} ≥ {fmt_number(r['lower_bound'], 2)} %",
                xref=xref,
                yref=f"{yref} domain",
                level=level,
                xanchor="right" if middle is not None and r["lower_bound"] > middle else "left",
            )
            shapes.append(shape)
            notes.append(note)
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": "Médiane de référence",
                "x": present["reference_median"].to_list(),
                "y": [position[(s, None)] for s in present["series"].to_list()],
                "text": [
                    f"{plotly_text(series_label(s))} : médiane de référence {fmt_number(m, 2)} %"
                    for s, m in present.select("series", "reference_median").rows()
                ],
                "xaxis": xref,
                "yaxis": yref,
                "hovertemplate": "%{text}<extra></extra>",
                "marker": {"symbol": "diamond-open", "size": 12, "color": "#1d2433"},
            }
        )
    xs = [v for t in traces for v in t["x"] if v is not None]
    xs += [shape["x0"] for shape in shapes]
    title = f"{criterion}{' (%)' if unit else ''}"
    return {
        "traces": traces,
        "shapes": shapes,
        "notes": notes,
        "rows": len(ordered),
        "xaxis": axis(title, anchor=yref, range=_padded(xs)),
        "yaxis": axis(
            "",
            anchor=xref,
            tickmode="array",
            tickvals=[position[s] for s in ordered],
            ticktext=[plotly_text(_row_label(*s)) for s in ordered],
            range=[-0.6, len(ordered) - 0.4],
            showgrid=False,
        ),
    }


def _chart(
    code: str,
    name: str,
    rows: pl.DataFrame,
    bars: pl.DataFrame,
    cle: pl.DataFrame,
    names: pl.DataFrame,
) -> Chart | None:
    """`names`: `ReportData.names_frame()`."""
    drawn = rows.filter(
        ~pl.col("rule").is_in(list(NOT_DRAWN))
        & pl.col("value").is_not_null()
        & pl.col("series").is_not_null()
    )
    if drawn.height == 0:
        return None
    drawn = drawn.join(names, on="player_id", how="left", maintain_order="left").with_columns(
        pl.col("name").fill_null(pl.col("player_id"))
    )
    rules = sorted(
        drawn["rule"].unique().to_list(),
        key=lambda r: list(NATIONAL_RULES).index(r) if r in NATIONAL_RULES else len(NATIONAL_RULES),
    )
    # France: the PC panel first (5A to 6D), then 5A by %N4.
    rules.sort(key=lambda r: r == "france_pct_n4")
    panels = [
        _panel(rule, drawn.filter(pl.col("rule") == rule), bars, cle, names, i)
        for i, rule in enumerate(rules)
    ]
    heights = [p["rows"] * ROW_PX + PANEL_PX for p in panels]
    total = sum(heights)
    layout = base_layout(
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0},
        margin={"l": 70, "r": 20, "t": 40, "b": 10},
    )
    top = 1.0
    traces: list[dict[str, Any]] = []
    shapes: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    for i, (panel, px) in enumerate(zip(panels, heights, strict=True)):
        suffix = "" if i == 0 else str(i + 1)
        bottom = max(0.0, top - px / total)
        layout[f"xaxis{suffix}"] = panel["xaxis"]
        # the bottom of each slice holds the panel's x axis: its ticks and title
        panel["yaxis"]["domain"] = [
            bottom + (PANEL_PX - 15) / total,
            top - (15 if i else 0) / total,
        ]
        layout[f"yaxis{suffix}"] = panel["yaxis"]
        traces += panel["traces"]
        shapes += panel["shapes"]
        notes += panel["notes"]
        top = bottom
    seen: set[str] = set()
    for trace in traces:  # one legend entry per series, whatever the panel
        group = trace.get("legendgroup", trace["name"])
        trace["showlegend"] = group not in seen
        seen.add(group)
    layout["shapes"] = shapes
    layout["annotations"] = notes
    height = total + 50
    return Chart(
        code.lower(),
        {"data": traces, "layout": layout},
        f"{name} : valeur de chaque joueur classé par la règle nationale, par série et "
        "sous-série (un point par joueur), "
        + (
            "avec les bornes de la clé de répartition (tirets) et les médianes de référence "
            "(losanges)"
            if "median_cle" in rules
            else "avec les barres publiées (trait plein : valeur du dernier admis ; "
            "pointillé : minimum)"
        ),
        height=height,
    )


# --------------------------------------------------------------------------- tables


def _steps_table(rows: pl.DataFrame, bars: pl.DataFrame, cle: pl.DataFrame, rule: str) -> Html:
    """Counts per series: the international series, the rule's steps with their bars (or
    the clé's bounds), the new licensees, the players not classified."""
    lines: list[tuple[object, ...]] = []
    international = rows.filter(pl.col("rule") == "international")
    for series in sorted(international["series"].unique().to_list(), key=series_sort_key):
        count = international.filter(pl.col("series") == series).height
        lines.append((series_label(series), None, NATIONAL_RULES["international"], None, count))
    if rule == "median":
        mapped = rows.filter(pl.col("rule") == "median_cle")
        for r in cle.iter_rows(named=True):
            count = mapped.filter(pl.col("series") == r["series"]).height
            bounds = None if r["players"] == 0 else _cle_text(r["lower_bound"], r["upper_bound"])
            lines.append(
                (series_label(r["series"]), None, NATIONAL_RULES["median_cle"], bounds, count)
            )
    else:
        for r in bars.iter_rows(named=True):
            lines.append(
                (
                    series_label(r["series"]),
                    r["subseries"],
                    NATIONAL_CRITERIA.get(r["rule"], (r["rule"], "", 2))[0],
                    _bar_text(r["kind"], r["rule"], r["bar"]),
                    r["admitted"],
                    r["target"],
                )
            )
    new = rows.filter(pl.col("rule") == "new_licensee").height
    if new:
        lines.append((series_label("7"), None, NATIONAL_RULES["new_licensee"], None, new))
    unclassified = rows.filter(pl.col("series").is_null()).height
    if unclassified:
        lines.append(("Non classés", None, "raison ci-dessous", None, unclassified))
    lines.append((Html("<strong>Licenciés</strong>"), None, None, None, rows.height))
    captions = {
        "france": "Pour un minimum, « Joueurs » compte ceux qui l'atteignent (un joueur peut "
        "atteindre les deux minimums de la 5A) ; le « reste » prend tous les joueurs restants.",
        "belgium": "Pour le minimum de PP5, « Joueurs » compte ceux qui l'atteignent ; un "
        "« reste » prend tous les joueurs restants dont le critère est au-dessus de 0 (la "
        "série 7 : tous les autres).",
        "switzerland": "Le « reste » prend tous les joueurs classés restants.",
        "median": "Bornes de la clé de répartition : une valeur égale à une borne va dans la "
        "meilleure série.",
    }
    return table(
        ["Série", "Sous-série", "Classés par", "Barre", "Joueurs", "Quota (cible)"],
        [(*line, *([None] * (6 - len(line)))) for line in lines],
        numeric=(3, 4, 5),
        caption=f"Joueurs par série. {captions.get(rule, '')}".strip(),
    )


def _unclassified(rows: pl.DataFrame, names: dict[str, str]) -> Html | None:
    """The players the rule does not classify, grouped by reason."""
    left = rows.filter(pl.col("series").is_null())
    if left.height == 0:
        return None
    lines = []
    for reason in sorted(left["reason"].fill_null("—").unique().to_list()):
        players = sorted(
            left.filter(pl.col("reason").fill_null("—") == reason)["player_id"].to_list(),
            key=lambda p: (names.get(p, p), p),
        )
        links = join(
            part
            for i, p in enumerate(players)
            for part in ((", " if i else ""), player_link(p, names.get(p, p)))
        )
        lines.append((reason, len(players), links))
    return table(
        ["Raison", "Joueurs", "Noms"],
        lines,
        numeric=(1,),
        caption="Joueurs non classés par la règle nationale, par raison",
    )


def _cle_table(cle: pl.DataFrame, federations: AliasTable) -> Html:
    reference = cle["reference_federation"][0] if cle.height else None
    return table(
        ["Série", "Médiane de référence", "Borne basse", "Borne haute", "Joueurs de référence"],
        [
            (
                series_label(r["series"]),
                f"{fmt_number(r['reference_median'], 2)} %" if r["players"] else None,
                f"{fmt_number(r['lower_bound'], 2)} %" if r["lower_bound"] is not None else None,
                f"{fmt_number(r['upper_bound'], 2)} %" if r["upper_bound"] is not None else None,
                r["players"],
            )
            for r in cle.iter_rows(named=True)
        ],
        numeric=(1, 2, 3, 4),
        caption=f"Clé de répartition de la saison, calculée sur les joueurs de "
        f"{federations.name(reference) if reference else '—'} : pour chaque série, la médiane "
        "des pourcentages médians de ses joueurs ; les bornes sont les milieux entre séries "
        "voisines (une valeur égale à une borne va dans la meilleure série)",
    )


def _overview(
    order: list[str],
    national: pl.DataFrame,
    params: NationalParams,
    federations: AliasTable,
) -> Html:
    rule_names = {
        "france": "PC et %N4 (5A)",
        "belgium": "PP5, PP6, PP7",
        "switzerland": "PC des meilleures performances",
        "median": "pourcentage médian et clé de répartition",
    }
    lines = []
    for code in order:
        rows = national.filter(pl.col("federation") == code)
        special = pl.col("rule").is_in(list(NOT_DRAWN))
        lines.append(
            (
                federations.name(code),
                rule_names.get(params.rules.get(code, ""), "—"),
                rows.height,
                rows.filter(pl.col("rule") == "international").height,
                rows.filter(~special & pl.col("series").is_not_null()).height,
                rows.filter(pl.col("rule") == "new_licensee").height,
                rows.filter(pl.col("series").is_null()).height,
            )
        )
    return table(
        [
            "Fédération",
            "Règle",
            "Licenciés",
            "Séries 1 à 4",
            "Classés par la règle",
            "Nouveaux licenciés (série 7)",
            "Non classés",
        ],
        lines,
        numeric=(2, 3, 4, 5, 6),
        caption="Licenciés de chaque fédération ayant un classement national",
    )


def render(data: ReportData, season: str) -> Sequence[Fragment]:
    out: list[Fragment] = [
        tag(
            "p",
            "Les séries 1 à 4 (et la super-série) sont internationales : chaque licencié qui "
            "y est classé par la cascade les garde. Les séries 5 à 7 sont nationales : chaque "
            "fédération ayant une règle nationale classe ses autres licenciés à sa façon. "
            "Chaque licencié de ces fédérations a une ligne par saison : sa série, ou la "
            "raison pour laquelle la règle ne le classe pas. Les séries calculées en fin de "
            "saison s'appliquent à la saison suivante.",
        )
    ]
    national = data.for_season("national_classification", season)
    if national.height == 0:
        out.append(
            Html(
                '<p class="note">Aucun licencié d\'une fédération ayant une règle nationale '
                "cette saison : pas de classement national.</p>"
            )
        )
        return out
    federations = data.params.federations
    params = data.params.national
    bars = data.for_season("national_bars", season)
    cle = data.for_season("cle_de_repartition", season).sort("series")
    names = data.names()
    present = set(national["federation"].to_list())
    order = [c for c in params.rules if c in present] + sorted(present - set(params.rules))
    out.append(_overview(order, national, params, federations))
    cle_shown = False
    for code in order:
        name = federations.name(code)
        rule = params.rules.get(code, "")
        rows = national.filter(pl.col("federation") == code)
        fed_bars = bars.filter(pl.col("federation") == code)
        out.append(tag("h3", f"{name} ({code})"))
        if rule:
            out.append(tag("p", _rule_text(rule, params, federations)))
        if rule == "median" and not cle_shown and cle.height:
            out.append(_cle_table(cle, federations))
            cle_shown = True
        chart = _chart(code, name, rows, fed_bars, cle, data.names_frame())
        out.append(
            chart
            if chart is not None
            else Html('<p class="note">Aucun joueur classé par la règle nationale.</p>')
        )
        out.append(_steps_table(rows, fed_bars, cle, rule))
        unclassified = _unclassified(rows, names)
        if unclassified is not None:
            out.append(unclassified)
    return out


SECTION = Section(
    key=KEY,
    title="Classements nationaux",
    order=40,
    render=render,
    description="Séries 5 à 7 de chaque fédération ayant une règle nationale : valeurs, "
    "barres ou clé de répartition, effectifs, joueurs non classés.",
)
