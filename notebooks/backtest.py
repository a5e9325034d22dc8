"""The rating backtest explored: scores per season and system, calibration (read-only).

Reads `backtest.duckdb` written by `classement backtest` (CLASSEMENT_BACKTEST, else
data/backtest/backtest.duckdb)."""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import os
    from pathlib import Path

    import duckdb
    import marimo as mo
    import plotly.graph_objects as go
    import polars as pl

    from pipelines.backtest.report import subset_label, system_label
    from pipelines.backtest.run import DATABASE, DEFAULT_BACKTEST_DIR
    from transforms.backtest import ALL_SEASONS

    return (
        ALL_SEASONS,
        DATABASE,
        DEFAULT_BACKTEST_DIR,
        Path,
        duckdb,
        go,
        mo,
        os,
        pl,
        subset_label,
        system_label,
    )


@app.cell
def _(DATABASE, DEFAULT_BACKTEST_DIR, Path, duckdb, os):
    # Read-only: a running backtest is never blocked, and nothing here writes.
    database = Path(os.environ.get("CLASSEMENT_BACKTEST") or DEFAULT_BACKTEST_DIR / DATABASE)
    if not database.exists():
        raise FileNotFoundError(
            f"{database} introuvable : lancez d'abord « classement backtest » "
            "(ou indiquez le fichier dans CLASSEMENT_BACKTEST)"
        )
    with duckdb.connect(str(database), read_only=True) as con:
        scores = con.sql("SELECT * FROM rating_backtest").pl()
        calibration = con.sql("SELECT * FROM rating_backtest_calibration").pl()
    return calibration, database, scores


@app.cell
def _(mo, scores, subset_label, system_label):
    systems = list(dict.fromkeys(scores["system"].to_list()))
    chosen = mo.ui.multiselect(
        options={system_label(s): s for s in systems},
        value=[system_label(s) for s in systems if s != "higher_cote"],
        label="Systèmes",
    )
    subset = mo.ui.radio(
        options={subset_label(s, 20): s for s in ("all", "experienced")},
        value=subset_label("all", 20),
        label="Parties",
    )
    metric = mo.ui.radio(
        options={
            "Perte logarithmique": "log_loss",
            "Score de Brier": "brier",
            "Réussite": "accuracy",
        },
        value="Perte logarithmique",
        label="Mesure",
    )
    mo.vstack([mo.md("# Rétro-évaluation des classements"), chosen, subset, metric])
    return chosen, metric, subset, systems


@app.cell
def _(ALL_SEASONS, chosen, metric, mo, pl, scores, subset, system_label):
    # Every scored season together, best first.
    overall = (
        scores.filter(
            (pl.col("season") == ALL_SEASONS)
            & (pl.col("subset") == subset.value)
            & pl.col("system").is_in(chosen.value)
        )
        .sort(metric.value, descending=metric.value == "accuracy")
        .with_columns(pl.col("system").map_elements(system_label, return_dtype=pl.String))
    )
    mo.vstack([mo.md("## Toutes les saisons notées"), mo.ui.table(overall)])
    return (overall,)


@app.cell
def _(ALL_SEASONS, chosen, go, metric, mo, pl, scores, subset, system_label):
    # The chosen measure per season, with its 95 % bootstrap interval.
    by_season = go.Figure()
    for _system in chosen.value:
        _rows = scores.filter(
            (pl.col("season") != ALL_SEASONS)
            & (pl.col("subset") == subset.value)
            & (pl.col("system") == _system)
        ).sort("season")
        _value = _rows[metric.value]
        by_season.add_scatter(
            x=_rows["season"].to_list(),
            y=_value.to_list(),
            name=system_label(_system),
            error_y={
                "type": "data",
                "symmetric": False,
                "array": (_rows[f"{metric.value}_high"] - _value).to_list(),
                "arrayminus": (_value - _rows[f"{metric.value}_low"]).to_list(),
            },
        )
    by_season.update_layout(xaxis_title="Saison", yaxis_title=metric.value, separators=", ")
    mo.ui.plotly(by_season)
    return (by_season,)


@app.cell
def _(calibration, chosen, go, mo, pl, subset, system_label):
    # Calibration: a well-calibrated system follows the diagonal.
    curves = go.Figure()
    curves.add_scatter(x=[0, 1], y=[0, 1], mode="lines", name="Calibration parfaite")
    for _system in chosen.value:
        _rows = calibration.filter(
            (pl.col("subset") == subset.value) & (pl.col("system") == _system)
        )
        curves.add_scatter(
            x=_rows["predicted"].to_list(),
            y=_rows["observed"].to_list(),
            mode="lines+markers",
            name=system_label(_system),
        )
    curves.update_layout(
        xaxis_title="Probabilité prédite", yaxis_title="Résultat observé", separators=", "
    )
    mo.ui.plotly(curves)
    return (curves,)


if __name__ == "__main__":
    app.run()
