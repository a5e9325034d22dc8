"""Explore the warehouse: its tables, their row counts and a few queries (read-only)."""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import os
    from pathlib import Path

    import duckdb
    import marimo as mo
    import polars as pl

    from pipelines.reports.data import ReportData
    from pipelines.warehouse import Warehouse

    return Path, ReportData, Warehouse, duckdb, mo, os, pl


@app.cell
def _(Path, duckdb, mo, os):
    # Read-only: a notebook never blocks a build (CLASSEMENT_WAREHOUSE picks another file).
    warehouse_path = Path(os.environ.get("CLASSEMENT_WAREHOUSE", "data/warehouse.duckdb"))
    con = duckdb.connect(str(warehouse_path), read_only=True)
    mo.md(f"# Entrepôt `{warehouse_path}`")
    return con, warehouse_path


@app.cell
def _(Warehouse, mo, pl, warehouse_path):
    # The project's own count (it opens the file read-only too).
    counts = Warehouse(warehouse_path).row_counts()
    row_counts = pl.DataFrame({"table": list(counts), "rows": list(counts.values())})
    mo.vstack([mo.md("## Tables et nombre de lignes"), row_counts])
    return (row_counts,)


@app.cell
def _(con, mo):
    seasons = con.sql(
        "SELECT season, discipline, count(*) AS tournois, sum(players) AS participations "
        "FROM tournaments GROUP BY ALL ORDER BY season, discipline"
    ).pl()
    mo.vstack([mo.md("## Tournois par saison et discipline"), seasons])
    return (seasons,)


@app.cell
def _(ReportData, mo, pl, warehouse_path):
    # Player names as the reports write them (« NOM Prénom »), from the project's helper.
    data = ReportData.open(warehouse_path)
    top_cote = (
        data.table("cote_ranking")
        .filter(pl.col("rank") <= 5)
        .join(data.player_names().select("player_id", "name"), on="player_id", how="left")
        .select("season", "rank", "name", "player_id", "value", "classique_series")
        .sort("season", "rank", "player_id")
    )
    mo.vstack([mo.md("## Les cinq meilleures cotes de chaque fin de saison"), top_cote])
    return data, top_cote


@app.cell
def _(con, mo):
    series_sizes = con.sql(
        "SELECT season, CASE WHEN super_serie THEN 'SS' ELSE series END AS serie, "
        "count(*) AS joueurs FROM series_classification GROUP BY ALL ORDER BY season, serie"
    ).pl()
    mo.vstack([mo.md("## Effectifs des séries duplicate en fin de saison"), series_sizes])
    return (series_sizes,)


@app.cell
def _(con, mo):
    rejected = con.sql(
        "SELECT path, message FROM ingest_log WHERE status = 'rejected' ORDER BY path"
    ).pl()
    mo.vstack(
        [
            mo.md(f"## Exports rejetés : {rejected.height}"),
            rejected if rejected.height else mo.md("Aucun."),
        ]
    )
    return (rejected,)


if __name__ == "__main__":
    app.run()
