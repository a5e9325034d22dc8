"""The backtest's French report: which system predicts best and by how much, the
calibration curves, the scores of each season as a chart and a table, and how each
system turns its ratings into a probability.

Same look and machinery as the season report (`pipelines.reports`: page shell, notice,
escaping, chart markup); self-contained (plotly.js embedded once), offline."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from pipelines.reports.charts import PALETTE, axis, base_layout
from pipelines.reports.html import Html, count_of, esc, fmt_number, link, plotly_text, table, tag
from pipelines.reports.page import Rejected, notice, page
from pipelines.reports.section import Chart, Fragment, chart_html, chart_id
from transforms.backtest import ALL_SEASONS, BASELINES, BacktestParams, Verdict

TITLE = "Quel classement prédit le mieux les parties ?"
NO_GLOSSARY = "#methode"  # the report explains its own terms (section « Méthode »)


def system_label(system: str) -> str:
    """A system's name as the report writes it."""
    if system.startswith("elo_"):
        return f"Elo (préréglage « {system[4:]} »)"
    return {
        "cote": "Cote FISF",
        "glicko2": "Glicko-2",
        "weng_lin": "Weng-Lin (openskill)",
        "coin": "Référence : 50 % à chaque partie",
        "higher_cote": "Référence : la plus haute cote gagne",
    }.get(system, system)


def subset_label(subset: str, min_games: int) -> str:
    if subset == "experienced":
        return (
            f"parties dont les deux joueurs avaient déjà joué au moins "
            f"{count_of(min_games, 'partie')}"
        )
    return "toutes les parties"


def _value(value: object, decimals: int = 3) -> str:
    return fmt_number(value, decimals)


def _interval(low: object, high: object, decimals: int = 3) -> str:
    return f"[{_value(low, decimals)} ; {_value(high, decimals)}]"


def _percent(value: float, decimals: int = 1) -> str:
    return f"{fmt_number(100 * value, decimals)} %"


def _systems(scores: pl.DataFrame) -> list[str]:
    return list(dict.fromkeys(scores["system"].to_list()))


def _verdict(verdict: Verdict | None, scores: pl.DataFrame, params: BacktestParams) -> Html:
    if verdict is None:
        return tag("p", "Un seul système a été évalué : aucune comparaison.", class_="verdict")
    overall = scores.filter((pl.col("season") == ALL_SEASONS) & (pl.col("subset") == "all"))
    row = overall.filter(pl.col("system") == verdict.best).row(0, named=True)
    games = count_of(int(row["games"]), "partie")
    events = count_of(int(row["events"]), "tournoi")
    confidence = fmt_number(100 * params.confidence)
    text = (
        f"Sur {games} de {events}, le système qui prédit le mieux les résultats est "
        f"{system_label(verdict.best)} : perte logarithmique moyenne {_value(row['log_loss'])} "
        f"(intervalle à {confidence} % : {_interval(row['log_loss_low'], row['log_loss_high'])}), "
        f"score de Brier {_value(row['brier'])}, vainqueur annoncé dans "
        f"{_percent(float(row['accuracy']))} des parties. Il devance "
        f"{system_label(verdict.runner_up)} de {_value(verdict.lead, 4)} en perte "
        f"logarithmique (intervalle à {confidence} % de l'écart, tirages appariés : "
        f"{_interval(verdict.lead_low, verdict.lead_high, 4)})"
    )
    if verdict.lead_low <= 0:
        text += (
            " : l'intervalle contient zéro, les données ne permettent donc pas de les départager."
        )
    else:
        text += " : l'écart est net, l'intervalle ne contient pas zéro."
    if verdict.over_coin is not None:
        text += (
            f" Par rapport à la prédiction « 50 % à chaque partie », il gagne "
            f"{_value(verdict.over_coin, 4)} en perte logarithmique (plus bas est meilleur)."
        )
    return tag("p", text, class_="verdict")


def _overall(scores: pl.DataFrame, params: BacktestParams) -> list[Fragment]:
    parts: list[Fragment] = [
        tag(
            "p",
            "Plus la perte logarithmique et le score de Brier sont bas, meilleures sont les "
            "prédictions ; le taux de réussite est la part des parties dont le vainqueur "
            "annoncé a gagné (une nulle compte pour moitié). Entre crochets, l'intervalle "
            f"à {fmt_number(100 * params.confidence)} % obtenu en tirant les tournois au "
            "hasard (bootstrap).",
        )
    ]
    overall = scores.filter(pl.col("season") == ALL_SEASONS)
    for subset in ("all", "experienced"):
        rows = overall.filter(pl.col("subset") == subset)
        if rows.height == 0:
            continue
        parts.append(tag("h3", subset_label(subset, params.min_games).capitalize()))
        parts.append(
            table(
                [
                    "Système",
                    "Parties",
                    "Perte log.",
                    "Intervalle",
                    "Brier",
                    "Intervalle",
                    "Réussite",
                    "Intervalle",
                ],
                [
                    (
                        system_label(r["system"]),
                        fmt_number(r["games"]),
                        _value(r["log_loss"]),
                        _interval(r["log_loss_low"], r["log_loss_high"]),
                        _value(r["brier"]),
                        _interval(r["brier_low"], r["brier_high"]),
                        _percent(r["accuracy"]),
                        f"[{_percent(r['accuracy_low'])} ; {_percent(r['accuracy_high'])}]",
                    )
                    for r in rows.iter_rows(named=True)
                ],
                numeric=range(1, 8),
                class_=f"backtest-overall backtest-{subset}",
            )
        )
    return parts


def _calibration(calibration: pl.DataFrame, params: BacktestParams) -> list[Fragment]:
    rows = calibration.filter(pl.col("subset") == "all")
    traces: list[dict[str, Any]] = [
        {
            "type": "scatter",
            "mode": "lines",
            "x": [0, 1],
            "y": [0, 1],
            "name": plotly_text("Calibration parfaite"),
            "line": {"color": "#9aa3b2", "dash": "dot"},
            "hoverinfo": "skip",
        }
    ]
    systems = list(dict.fromkeys(rows["system"].to_list()))
    for index, system in enumerate(s for s in systems if s != "coin"):
        mine = rows.filter(pl.col("system") == system)
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "x": mine["predicted"].to_list(),
                "y": mine["observed"].to_list(),
                "name": plotly_text(system_label(system)),
                "line": {"color": PALETTE[index % len(PALETTE)]},
                "customdata": mine["games"].to_list(),
                "hovertemplate": "prédit %{x:.3f}<br>observé %{y:.3f}<br>%{customdata} parties"
                "<extra>" + plotly_text(system_label(system)) + "</extra>",
            }
        )
    figure = {
        "data": traces,
        "layout": base_layout(
            xaxis=axis("Probabilité prédite (moyenne du décile)", range=[0, 1]),
            yaxis=axis("Résultat observé (moyenne)", range=[0, 1]),
            legend={"orientation": "h", "y": -0.3, "x": 0},
            margin={"l": 60, "r": 20, "t": 20, "b": 110},
        ),
    }
    return [
        tag(
            "p",
            "Les parties sont rangées par dixième de probabilité prédite ; un système bien "
            "calibré suit la diagonale : quand il annonce 70 %, le premier joueur gagne 70 % "
            "de ces parties.",
        ),
        Chart("calibration", figure, "courbes de calibration, toutes les parties", height=520),
    ]


def _seasons(scores: pl.DataFrame, params: BacktestParams) -> list[Fragment]:
    rows = scores.filter((pl.col("season") != ALL_SEASONS) & (pl.col("subset") == "all"))
    seasons = sorted(set(rows["season"].to_list()))
    traces = []
    for index, system in enumerate(_systems(rows)):
        if system == "higher_cote":  # a hard prediction: off the chart's scale
            continue
        mine = rows.filter(pl.col("system") == system).sort("season")
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "x": mine["season"].to_list(),
                "y": mine["log_loss"].to_list(),
                "error_y": {
                    "type": "data",
                    "symmetric": False,
                    "array": (mine["log_loss_high"] - mine["log_loss"]).to_list(),
                    "arrayminus": (mine["log_loss"] - mine["log_loss_low"]).to_list(),
                    "thickness": 1,
                },
                "name": plotly_text(system_label(system)),
                "line": {"color": PALETTE[index % len(PALETTE)]},
            }
        )
    figure = {
        "data": traces,
        "layout": base_layout(
            xaxis=axis("Saison", type="category", categoryarray=seasons),
            yaxis=axis("Perte logarithmique (plus bas est meilleur)"),
            legend={"orientation": "h", "y": -0.3, "x": 0},
            margin={"l": 60, "r": 20, "t": 20, "b": 110},
        ),
    }
    body = [
        (
            r["season"],
            system_label(r["system"]),
            fmt_number(r["games"]),
            _value(r["log_loss"]),
            _interval(r["log_loss_low"], r["log_loss_high"]),
            _value(r["brier"]),
            _interval(r["brier_low"], r["brier_high"]),
            _percent(r["accuracy"]),
        )
        for r in rows.iter_rows(named=True)
    ]
    return [
        Chart(
            "seasons",
            figure,
            "perte logarithmique par saison, avec son intervalle (la référence « la plus "
            "haute cote gagne », hors échelle, est dans le tableau)",
            height=480,
        ),
        table(
            [
                "Saison",
                "Système",
                "Parties",
                "Perte log.",
                "Intervalle",
                "Brier",
                "Intervalle",
                "Réussite",
            ],
            body,
            numeric=range(2, 8),
            class_="backtest-seasons",
        ),
    ]


def _method(
    scales: Mapping[str, float], params: BacktestParams, from_season: str | None
) -> list[Fragment]:
    items = [
        (
            "Cote FISF",
            "la cote de chaque joueur au début du tournoi (calculée comme le fait "
            "le classement : PE, bonus et PJ) ; l'écart d des cotes devient une probabilité "
            "par la courbe logistique 1/(1 + e^(−d/s)), dont l'échelle s est ajustée sur les "
            "parties des saisons précédentes seulement (aucune donnée future), "
            f"{fmt_number(params.cote_scale)} pour la première saison.",
        ),
        (
            "Elo",
            "chaque préréglage Elo des paramètres, avec sa propre courbe (base 10 sur 400, "
            "ou logistique sur 250 pour la WESPA) et son plafond d'écart.",
        ),
        (
            "Glicko-2",
            "un tournoi est une période de notation (Glickman) ; probabilité "
            "1/(1 + e^(−g(φ) (μ₁ − μ₂))) avec les écarts-types des deux joueurs réunis.",
        ),
        (
            "Weng-Lin (openskill)",
            "le modèle Plackett-Luce du paquet openskill ; probabilité "
            "de Plackett-Luce 1/(1 + e^(−(μ₁ − μ₂)/c)), c² = σ₁² + σ₂² + 2β².",
        ),
        (
            "Références",
            "« 50 % à chaque partie », et « la plus haute cote gagne » (100 % "
            "pour le joueur de plus haute cote, 50 % à égalité) ; la perte logarithmique borne "
            f"les probabilités à [{fmt_number(params.probability_floor, 3)} ; "
            f"{fmt_number(1 - params.probability_floor, 3)}].",
        ),
    ]
    parts: list[Fragment] = [
        tag(
            "p",
            "Les parties sont rejouées dans l'ordre des tournois. Avant chaque tournoi, "
            "chaque système donne, avec les classements figés à son début, la probabilité "
            "que le premier joueur nommé gagne chaque partie (une nulle vaut une demi-"
            "victoire) ; le tournoi met ensuite les classements à jour."
            + (
                f" Seules les saisons à partir de {from_season} sont notées ; les précédentes "
                "servent à établir les classements."
                if from_season
                else ""
            ),
        ),
        Html(
            '<dl class="facts">'
            + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in items)
            + "</dl>"
        ),
    ]
    if scales:
        parts.append(
            table(
                ["Saison", "Échelle s de la cote"],
                [
                    (season, "infinie (p = 50 %)" if s == float("inf") else fmt_number(s, 1))
                    for season, s in sorted(scales.items())
                ],
                numeric=[1],
                class_="backtest-scales",
            )
        )
    return parts


def render_report(
    scores: pl.DataFrame,
    calibration: pl.DataFrame,
    verdict: Verdict | None,
    cote_scales: Mapping[str, float],
    *,
    rejected: Sequence[Rejected],
    as_of: Any,
    source: str,
    params: BacktestParams,
    from_season: str | None,
    pdf_name: str | None,
) -> str:
    """The report's HTML; the same numbers give the same bytes."""
    sections = [
        ("ensemble", "Scores sur l'ensemble", _overall(scores, params)),
        ("calibration", "Calibration", _calibration(calibration, params)),
        ("saisons", "Scores par saison", _seasons(scores, params)),
        ("methode", "Méthode", _method(cote_scales, params, from_season)),
    ]
    number = 0
    parts: list[str] = []
    for key, title, fragments in sections:
        body: list[str] = []
        for fragment in fragments:
            if isinstance(fragment, Chart):
                number += 1
                body.append(chart_html(chart_id(key, fragment.key), fragment, number))
            else:
                body.append(fragment)
        parts.append(
            f'<section class="report-section" id="{esc(key)}" data-title="{esc(title)}">'
            f"<h2>{esc(title)}</h2>{''.join(body)}</section>"
        )
    toc = "".join(f"<li>{link('#' + key, title)}</li>" for key, title, _ in sections)
    seasons = sorted(set(scores["season"].to_list()) - {ALL_SEASONS})
    span = seasons[0] if len(seasons) == 1 else f"{seasons[0]} à {seasons[-1]}"
    baselines = ", ".join(system_label(b) for b in BASELINES)
    header = Html(
        (
            f'<nav class="breadcrumb no-print">{link(pdf_name, "Version PDF")}</nav>'
            if pdf_name
            else ""
        )
        + '<header class="page">'
        f"<h1>{esc(TITLE)}</h1>"
        f"<p>Rétro-évaluation des systèmes de classement sur les {esc(source)}, saisons "
        f"{esc(span)} : chaque système prédit chaque partie avant le tournoi, puis ses "
        f"prédictions sont notées (références : {esc(baselines)}).</p></header>"
        + notice(as_of, rejected, scope="dans cette sélection", glossary=NO_GLOSSARY)
        + _verdict(verdict, scores, params)
        + f'<nav class="toc"><strong>Sommaire</strong><ol>{toc}</ol></nav>'
    )
    footer = Html(
        "<footer><p>Rétro-évaluation calculée par « classement backtest » (tirages du "
        "bootstrap : "
        f"{fmt_number(params.bootstrap_samples)}, graine {params.seed}).</p></footer>"
    )
    return page(TITLE, Html(header + "".join(parts) + footer))
