"""What-if on the duplicate series: quota shares, minimum divisor and super-série size as
sliders, the series counts before and after, live (the warehouse is only read)."""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo
    import plotly.graph_objects as go
    import polars as pl

    from pipelines.reports.data import ReportData, display_frame, notebook_warehouse
    from pipelines.reports.labels import series_label
    from pipelines.whatif.run import default_reference, series_counts
    from pipelines.whatif.settings.registry import registry
    from pipelines.whatif.settings.values import show

    return (
        ReportData,
        default_reference,
        display_frame,
        go,
        mo,
        notebook_warehouse,
        pl,
        registry,
        series_counts,
        series_label,
        show,
    )


@app.cell
def _(ReportData, default_reference, mo, notebook_warehouse, registry):
    # The warehouse is read through read-only connections (duckdb read_only=True); a clear
    # error when there is none (CLASSEMENT_WAREHOUSE, else data/warehouse.duckdb).
    warehouse_path = notebook_warehouse()
    data = ReportData.open(warehouse_path)
    seasons = sorted(data.table("series_classification")["season"].unique().to_list())
    season = mo.ui.dropdown(
        options=seasons, value=seasons[-1] if seasons else None, label="Saison classée"
    )
    reference = default_reference()
    params = registry(reference)
    mo.vstack(
        [
            mo.md(
                "# What-if : les séries duplicate\n\n"
                "Déplacez les curseurs : les effectifs de chaque série à la fin de la saison "
                "sont recalculés avec ces paramètres (les saisons précédentes aussi, car une "
                "saison lit la précédente), sans rien changer à l'entrepôt. Les parts des "
                "sous-séries de chaque fédération suivent celle de « * » en proportion. "
                "Pour le rapport complet (joueurs, barres, cote) : `classement whatif`."
            ),
            season,
        ]
    )
    return data, params, reference, season, seasons, warehouse_path


@app.cell
def _(mo, params):
    # One slider per share of the `*` quotas (series 6 is the rest), the minimum divisor and
    # the super-série size, each starting at its value in data/reference/.
    shares = {
        s: mo.ui.slider(
            0,
            40,
            step=0.5,
            value=float(params[f"series.quotas.*.{s}"].value),
            label=f"Part de la série {s} (% de N)",
            show_value=True,
        )
        for s in ("1", "2", "3", "4", "5")
    }
    divisor = mo.ui.slider(
        0,
        20,
        step=0.5,
        value=float(params["series.min_divisor"].value),
        label="Diviseur minimum",
        show_value=True,
    )
    size = mo.ui.slider(
        0,
        100,
        step=1,
        value=int(params["series.super_serie.size"].value),
        label="Taille de la super-série",
        show_value=True,
    )
    mo.vstack([mo.md("## Paramètres"), *shares.values(), divisor, size])
    return divisor, shares, size


@app.cell
def _(divisor, params, shares, show, size):
    # The sliders as what-if settings (KEY=VALUE), only those that differ.
    wanted = {f"series.quotas.*.{s}": slider.value for s, slider in shares.items()}
    wanted["series.min_divisor"] = divisor.value
    wanted["series.super_serie.size"] = size.value
    differ = {k: v for k, v in wanted.items() if float(v) != float(params[k].value)}
    settings = [f"{key}={value:g}" for key, value in differ.items()]
    changed = ", ".join(
        f"`{key}` {show(params[key].value)} → {show(value)}" for key, value in differ.items()
    )
    return changed, differ, settings, wanted


@app.cell
def _(
    changed,
    display_frame,
    go,
    mo,
    pl,
    reference,
    season,
    series_counts,
    series_label,
    settings,
    warehouse_path,
):
    # Series counts before (the warehouse) and after (recomputed), paired bars.
    scenario, counts = series_counts(warehouse_path, season.value, settings, reference=reference)
    labels = [series_label(s) for s in counts["series"]]
    figure = go.Figure()
    for name, column, colour in (("Avant", "before", "#9aa3b2"), ("Après", "after", "#1f5fa8")):
        figure.add_trace(
            go.Bar(x=labels, y=counts[column].to_list(), name=name, marker_color=colour)
        )
    figure.update_layout(
        barmode="group",
        template="plotly_white",
        separators=", ",
        height=380,
        title=f"Joueurs par série à la fin de la saison {season.value}",
        xaxis={"title": {"text": "Série de la saison suivante"}},
        yaxis={"title": {"text": "Joueurs"}},
        legend={"orientation": "h", "y": -0.2, "x": 0},
    )
    shown = counts.with_columns(
        pl.col("series").map_elements(series_label, return_dtype=pl.String),
        (pl.col("after") - pl.col("before")).alias("écart"),
    )
    mo.vstack(
        [
            mo.md(f"## Effectifs : {changed}" if changed else "## Effectifs : aucun changement"),
            mo.ui.plotly(figure),
            display_frame(
                shown,
                {"series": "Série", "before": "Avant", "after": "Après", "écart": "Écart"},
            ),
        ]
    )
    return counts, figure, scenario, shown


if __name__ == "__main__":
    app.run()
