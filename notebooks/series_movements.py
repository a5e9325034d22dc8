"""The series movements of a season: who went up, who went down, per federation (read-only)."""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import plotly.graph_objects as go
    import polars as pl

    from pipelines.reports.data import ReportData, display_frame, notebook_warehouse
    from pipelines.reports.labels import MOVEMENTS, series_label, series_sort_key

    return (
        MOVEMENTS,
        ReportData,
        display_frame,
        go,
        mo,
        notebook_warehouse,
        pl,
        series_label,
        series_sort_key,
    )


@app.cell
def _(ReportData, mo, notebook_warehouse):
    # ReportData opens the warehouse read-only (duckdb read_only=True), table by table;
    # a clear error when there is none (CLASSEMENT_WAREHOUSE, else data/warehouse.duckdb).
    warehouse_path = notebook_warehouse()
    data = ReportData.open(warehouse_path)
    movements = data.table("series_movements")
    seasons = sorted(movements["season"].unique().to_list())
    season = mo.ui.dropdown(
        options=seasons, value=seasons[-1] if seasons else None, label="Saison classée"
    )
    mo.vstack([mo.md("# Mouvements des séries duplicate"), season])
    return data, movements, season, seasons, warehouse_path


@app.cell
def _(MOVEMENTS, data, display_frame, mo, movements, pl, season):
    # Movements of the season (series_* of season S give the series held in S + 1); the
    # quota federation spelled out (« France (FRA) », « Autres fédérations » for `*`).
    moves = movements.filter(pl.col("season") == season.value).join(
        data.table("series_classification")
        .filter(pl.col("season") == season.value)
        .select("player_id", data.quota_federation("federation").alias("_code")),
        on="player_id",
        how="left",
    )
    codes = sorted(moves["_code"].drop_nulls().unique().to_list())
    spelled = {
        c: "Autres fédérations" if c == "*" else (data.federation_label(c) or c) for c in codes
    }
    moves = moves.with_columns(
        pl.col("_code").replace_strict(spelled, default=None).alias("federation")
    ).drop("_code")
    summary = (
        moves.group_by("movement")
        .agg(pl.len().alias("players"))
        .with_columns(
            pl.col("movement")
            .replace_strict({k: v[0] for k, v in MOVEMENTS.items()}, default=None)
            .alias("libellé")
        )
        .sort("movement")
    )
    mo.vstack(
        [
            mo.md(f"## Mouvements de la saison {season.value}"),
            display_frame(summary, {"libellé": "Mouvement", "players": "Joueurs"}),
        ]
    )
    return codes, moves, spelled, summary


@app.cell
def _(display_frame, mo, moves, pl, series_label, series_sort_key):
    # Transition matrix: series held during the season (rows) → series for the next one.
    order = sorted(
        set(moves["series"].to_list()) | set(moves["previous_series"].drop_nulls().to_list()),
        key=series_sort_key,
    )
    transitions = (
        moves.with_columns(pl.col("previous_series").fill_null("—"))
        .group_by("previous_series", "series")
        .agg(pl.len().alias("n"))
        .pivot(on="series", index="previous_series", values="n", sort_columns=False)
        .fill_null(0)
    )
    columns = [s for s in order if s in transitions.columns]
    transitions = (
        transitions.select(
            pl.col("previous_series")
            .map_elements(lambda s: s if s == "—" else series_label(s), return_dtype=pl.String)
            .alias("série tenue"),
            *[pl.col(s).alias(series_label(s)) for s in columns],
            pl.col("previous_series")
            .map_elements(lambda s: series_sort_key(None if s == "—" else s), return_dtype=pl.Int64)
            .alias("_order"),
        )
        .sort("_order")
        .drop("_order")
    )
    mo.vstack(
        [
            mo.md("## Série tenue → série de la saison suivante"),
            display_frame(transitions, {c: c for c in transitions.columns}),
        ]
    )
    return columns, order, transitions


@app.cell
def _(display_frame, go, mo, moves, pl, series_label, series_sort_key):
    # Net flow per federation and series: promotions minus relegations into each series.
    per_federation = (
        moves.filter(pl.col("movement").is_in(["promoted", "relegated"]))
        .group_by("federation", "series")
        .agg(
            (pl.col("movement") == "promoted").sum().alias("promus"),
            (pl.col("movement") == "relegated").sum().alias("relégués"),
        )
        .sort("federation", "series")
    )
    figure = go.Figure()
    for label, color in (("promus", "#2e9a4b"), ("relégués", "#c23b3b")):
        totals = per_federation.group_by("series").agg(pl.col(label).sum())
        totals = totals.sort(pl.col("series").map_elements(series_sort_key, return_dtype=pl.Int64))
        figure.add_trace(
            go.Bar(
                x=[series_label(s) for s in totals["series"]],
                y=totals[label].to_list(),
                name=label.capitalize(),
                marker_color=color,
            )
        )
    figure.update_layout(
        barmode="group",
        template="plotly_white",
        separators=", ",
        height=380,
        title="Promotions et relégations par série d'arrivée",
        xaxis={"title": {"text": "Série d'arrivée"}},
        yaxis={"title": {"text": "Joueurs"}},
        legend={"orientation": "h", "y": -0.2, "x": 0},
    )
    mo.vstack(
        [
            mo.ui.plotly(figure),
            mo.md("## Promotions et relégations par fédération"),
            display_frame(
                per_federation.with_columns(
                    pl.col("series").map_elements(series_label, return_dtype=pl.String)
                ),
                {
                    "federation": "Fédération",
                    "series": "Série d'arrivée",
                    "promus": "Promus",
                    "relégués": "Relégués",
                },
            ),
        ]
    )
    return figure, per_federation


if __name__ == "__main__":
    app.run()
