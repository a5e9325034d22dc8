"""Explore the warehouse: its tables, their row counts and a few queries (read-only)."""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import duckdb
    import marimo as mo
    import plotly.graph_objects as go
    import polars as pl

    from pipelines.reports.data import ReportData, display_frame, notebook_warehouse
    from pipelines.reports.labels import DISCIPLINES, series_label, series_sort_key
    from pipelines.warehouse import Warehouse

    return (
        DISCIPLINES,
        ReportData,
        Warehouse,
        display_frame,
        duckdb,
        go,
        mo,
        notebook_warehouse,
        pl,
        series_label,
        series_sort_key,
    )


@app.cell
def _(duckdb, mo, notebook_warehouse):
    # Read-only: a notebook never blocks a build. CLASSEMENT_WAREHOUSE picks another file;
    # without one, the project's data/warehouse.duckdb, from whatever folder the notebook
    # was started (a clear error when there is none: never empty tables).
    warehouse_path = notebook_warehouse()
    con = duckdb.connect(str(warehouse_path), read_only=True)
    mo.md(f"# Entrepôt `{warehouse_path}`")
    return con, warehouse_path


@app.cell
def _(Warehouse, display_frame, mo, pl, warehouse_path):
    # The project's own count (it opens the file read-only too).
    counts = Warehouse(warehouse_path).row_counts()
    row_counts = pl.DataFrame({"table": list(counts), "rows": list(counts.values())})
    mo.vstack(
        [
            mo.md("## Tables et nombre de lignes"),
            display_frame(row_counts, {"table": "Table", "rows": "Lignes"}),
        ]
    )
    return (row_counts,)


@app.cell
def _(DISCIPLINES, con, display_frame, go, mo, pl):
    seasons = con.sql(
        "SELECT season, discipline, count(*) AS tournois, sum(players) AS participations "
        "FROM tournaments GROUP BY ALL ORDER BY season, discipline"
    ).pl()
    per_discipline = go.Figure()
    for _code, _label in DISCIPLINES.items():
        _rows = seasons.filter(pl.col("discipline") == _code)
        if _rows.height:
            per_discipline.add_trace(
                go.Bar(x=_rows["season"].to_list(), y=_rows["tournois"].to_list(), name=_label)
            )
    per_discipline.update_layout(
        barmode="stack",
        template="plotly_white",
        height=340,
        separators=", ",
        xaxis={"title": {"text": "Saison"}, "type": "category"},
        yaxis={"title": {"text": "Tournois"}},
        legend={"orientation": "h", "y": -0.25, "x": 0},
        margin={"t": 20},
    )
    mo.vstack(
        [
            mo.md("## Tournois par saison et discipline"),
            mo.ui.plotly(per_discipline),
            display_frame(
                seasons.with_columns(pl.col("discipline").replace(DISCIPLINES)),
                {
                    "season": "Saison",
                    "discipline": "Discipline",
                    "tournois": "Tournois",
                    "participations": "Participations",
                },
            ),
        ]
    )
    return per_discipline, seasons


@app.cell
def _(ReportData, display_frame, mo, pl, warehouse_path):
    # Player names as the reports write them (« NOM Prénom »), from the project's helper.
    data = ReportData.open(warehouse_path)
    top_cote = (
        data.table("cote_ranking")
        .filter(pl.col("rank") <= 5)
        .join(data.player_names().select("player_id", "name"), on="player_id", how="left")
        .select("season", "rank", "name", "player_id", "value", "classique_series")
        .sort("season", "rank", "player_id")
    )
    mo.vstack(
        [
            mo.md("## Les cinq meilleures cotes de chaque fin de saison"),
            display_frame(
                top_cote,
                {
                    "season": "Saison",
                    "rank": "Rang",
                    "name": "Joueur",
                    "player_id": "Licence",
                    "value": "Cote",
                    "classique_series": "Série classique",
                },
            ),
        ]
    )
    return data, top_cote


@app.cell
def _(con, go, mo, pl, series_label, series_sort_key):
    series_sizes = con.sql(
        "SELECT season, CASE WHEN super_serie THEN 'SS' ELSE series END AS serie, "
        "count(*) AS joueurs FROM series_classification GROUP BY ALL ORDER BY season, serie"
    ).pl()
    sizes = go.Figure()
    for _season in sorted(series_sizes["season"].unique().to_list()):
        _sized = series_sizes.filter(pl.col("season") == _season).sort(
            pl.col("serie").map_elements(series_sort_key, return_dtype=pl.Int64)
        )
        sizes.add_trace(
            go.Bar(
                x=[series_label(s) for s in _sized["serie"]],
                y=_sized["joueurs"].to_list(),
                name=f"fin {_season}",
            )
        )
    sizes.update_layout(
        barmode="group",
        template="plotly_white",
        height=360,
        separators=", ",
        xaxis={"title": {"text": "Série pour la saison suivante"}},
        yaxis={"title": {"text": "Joueurs"}},
        legend={"orientation": "h", "y": -0.25, "x": 0},
        margin={"t": 20},
    )
    mo.vstack([mo.md("## Effectifs des séries duplicate en fin de saison"), mo.ui.plotly(sizes)])
    return series_sizes, sizes


@app.cell
def _(con, display_frame, mo):
    rejected = con.sql(
        "SELECT path, message FROM ingest_log WHERE status = 'rejected' ORDER BY path"
    ).pl()
    mo.vstack(
        [
            mo.md(f"## Exports refusés : {rejected.height}"),
            display_frame(rejected, {"path": "Fichier", "message": "Raison"})
            if rejected.height
            else mo.md("Aucun."),
        ]
    )
    return (rejected,)


if __name__ == "__main__":
    app.run()
