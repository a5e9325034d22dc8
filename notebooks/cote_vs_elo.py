"""A player's cote and Elo compared, tournament by tournament (read-only)."""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import plotly.graph_objects as go
    import polars as pl

    from pipelines.reports.charts import cote_trajectories, elo_trajectories
    from pipelines.reports.data import ReportData, display_frame, notebook_warehouse

    return (
        ReportData,
        cote_trajectories,
        display_frame,
        elo_trajectories,
        go,
        mo,
        notebook_warehouse,
        pl,
    )


@app.cell
def _(ReportData, notebook_warehouse):
    # ReportData opens the warehouse read-only (duckdb read_only=True), table by table;
    # a clear error when there is none (CLASSEMENT_WAREHOUSE, else data/warehouse.duckdb).
    warehouse_path = notebook_warehouse()
    data = ReportData.open(warehouse_path)
    cote_history = data.cote_history()
    elo_history = data.elo_history()
    names = data.names()
    return cote_history, data, elo_history, names, warehouse_path


@app.cell
def _(cote_history, data, elo_history, mo, names, pl):
    # Players rated in both systems, best end-of-season cote first; the default is the best.
    both = set(cote_history["player_id"].to_list()) & set(elo_history["player_id"].to_list())
    ranked = (
        data.table("cote_ranking")
        .filter(pl.col("player_id").is_in(sorted(both)))
        .sort("season", "rank", "player_id", descending=[True, False, False])
        .unique("player_id", keep="first", maintain_order=True)["player_id"]
        .to_list()
    )
    choices = {f"{names.get(p, p)} ({p})": p for p in ranked}
    player = mo.ui.dropdown(
        options=choices, value=next(iter(choices), None), label="Joueur", searchable=True
    )
    mo.vstack([mo.md("# Cote et Elo d'un joueur"), player])
    return both, choices, player, ranked


@app.cell
def _(cote_history, display_frame, elo_history, mo, pl, player):
    player_id = player.value
    # One row per tournament: the cote change next to the Elo change.
    changes = (
        cote_history.filter(pl.col("player_id") == player_id)
        .select(
            "tournament_id",
            "tournament_name",
            "end_date",
            "cote_before",
            "cote_after",
            (pl.col("cote_after") - pl.col("cote_before")).alias("cote_change"),
        )
        .join(
            elo_history.filter(pl.col("player_id") == player_id).select(
                "tournament_id",
                "rating_before",
                "rating_after",
                "games",
                "score",
                "expected",
                pl.col("delta").alias("elo_change"),
            ),
            on="tournament_id",
            how="full",
            coalesce=True,
        )
        .sort("end_date", "tournament_id")
    )
    mo.vstack(
        [
            mo.md("## Variations tournoi par tournoi"),
            display_frame(
                changes,
                {
                    "end_date": "Date",
                    "tournament_name": "Tournoi",
                    "cote_before": "Cote avant",
                    "cote_change": "Variation de cote",
                    "cote_after": "Cote après",
                    "rating_before": "Elo avant",
                    "games": "Parties",
                    "score": "Score",
                    "expected": "Score attendu",
                    "elo_change": "Variation d'Elo",
                    "rating_after": "Elo après",
                },
                {
                    "rating_before": 1,
                    "score": 1,
                    "expected": 2,
                    "elo_change": 1,
                    "rating_after": 1,
                },
            ),
        ]
    )
    return changes, player_id


@app.cell
def _(cote_history, cote_trajectories, elo_history, elo_trajectories, go, mo, names, pl, player_id):
    # The same trajectories as the reports draw (pipelines.reports.charts).
    cote_points = cote_trajectories(cote_history.filter(pl.col("player_id") == player_id), names)
    elo_points = elo_trajectories(elo_history.filter(pl.col("player_id") == player_id), names)
    figure = go.Figure()
    for label, points, axis in (("Cote", cote_points, "y"), ("Elo", elo_points, "y2")):
        if player_id in points:
            p = points[player_id]
            figure.add_trace(
                go.Scatter(
                    x=p["x"],
                    y=p["y"],
                    text=p["text"],
                    name=label,
                    yaxis=axis,
                    mode="lines+markers",
                    line_shape="hv",
                    hovertemplate="%{text}<extra></extra>",
                )
            )
    figure.update_layout(
        title=f"Cote et Elo — {names.get(player_id, player_id)}",
        xaxis={"title": {"text": "Date"}},
        yaxis={"title": {"text": "Cote"}, "tickformat": ",d"},
        yaxis2={"title": {"text": "Elo"}, "overlaying": "y", "side": "right"},
        template="plotly_white",
        separators=", ",
        height=450,
        # below the chart: on its right it would cover the Elo axis
        legend={"orientation": "h", "y": -0.2, "x": 0},
    )
    mo.ui.plotly(figure)
    return cote_points, elo_points, figure


@app.cell
def _(cote_history, elo_history, go, mo, names, pl):
    # Over every player and tournament: does the performance part of the cote (PJ, the
    # points de jeu) move with the Elo change? (PE and B only ever add.) One point each.
    paired = cote_history.select("tournament_id", "tournament_name", "player_id", "pj").join(
        elo_history.select("tournament_id", "player_id", pl.col("delta").alias("elo_change")),
        on=["tournament_id", "player_id"],
    )
    agreement = paired.select(
        pl.len().alias("changes"),
        pl.corr("pj", "elo_change").alias("correlation"),
        (pl.col("pj").sign() == pl.col("elo_change").sign()).mean().alias("same_sign"),
    )
    stats = agreement.row(0, named=True)
    scatter = go.Figure(
        go.Scatter(
            x=paired["pj"].to_list(),
            y=paired["elo_change"].to_list(),
            mode="markers",
            marker={"size": 6, "opacity": 0.6},
            text=[
                f"{names.get(p, p)} — {t or ''}"
                for p, t in paired.select("player_id", "tournament_name").iter_rows()
            ],
            hovertemplate="%{text}<br>PJ %{x}, Elo %{y:+.1f}<extra></extra>",
        )
    )
    corr = stats["correlation"]
    scatter.update_layout(
        title=(
            f"{stats['changes']} variations : corrélation "
            f"{'—' if corr is None else f'{corr:.2f}'.replace('.', ',')}, même signe dans "
            f"{100 * (stats['same_sign'] or 0):.0f} % des cas".replace(".", ",")
        ),
        xaxis={"title": {"text": "PJ (points de jeu) du tournoi"}, "zeroline": True},
        yaxis={"title": {"text": "Variation d'Elo du tournoi"}, "zeroline": True},
        template="plotly_white",
        separators=", ",
        height=420,
    )
    mo.vstack([mo.md("## PJ et variation d'Elo, tous joueurs et tournois"), mo.ui.plotly(scatter)])
    return agreement, paired, scatter


if __name__ == "__main__":
    app.run()
