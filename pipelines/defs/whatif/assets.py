"""The what-if as an asset: a statistician launches it from the Dagster UI with a run config
(the season, the `KEY=VALUE` settings, optionally a whole other reference folder and the
output folder). It reads the warehouse (read-only) and writes only the what-if's folder,
never the warehouse; no build job materialises it. It is in the warehouse's pool all the
same: DuckDB refuses even a read-only connection from another process while a build
writes the file, so a what-if waits for the build rather than failing."""

# No `from __future__ import annotations`: Dagster inspects the `config` annotation.
from pathlib import Path

import dagster as dg
from pydantic import Field

from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.whatif.compare import OUTCOMES
from pipelines.whatif.run import run_whatif
from pipelines.whatif.settings.values import show

GROUP = "whatif"


class WhatIfConfig(dg.Config):
    """A what-if to run (`classement whatif`'s options)."""

    season: str = Field(description="the season compared, e.g. 2024-2025")
    settings: list[str] = Field(
        default_factory=list,
        description="changed parameters, KEY=VALUE each: series.quotas.*.4=13, "
        "series.min_divisor=10, cote.series_equivalence.SS=2800, elo.preset=fide",
    )
    reference_dir: str = Field(
        default="", description="a whole alternative reference folder (empty: none)"
    )
    out_dir: str = Field(
        default="", description="output folder (empty: data/whatif/<season>-<hash>/)"
    )
    pdf: bool = Field(default=True, description="print the report to PDF")


@dg.asset(group_name=GROUP, kinds={"duckdb", "html", "pdf"}, pool=WAREHOUSE_POOL)
def whatif_report(
    context: dg.AssetExecutionContext, config: WhatIfConfig, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """A what-if's French comparison report (index.html, whatif-<season>.pdf) and
    changements.csv: the season's rule families recomputed with the changed parameters,
    against the warehouse (read-only), in data/whatif/<season>-<hash>/ unless out_dir says
    otherwise."""
    outputs = run_whatif(
        warehouse.warehouse.path,
        config.season,
        config.settings,
        reference=warehouse.parameters.folder,
        alternative=Path(config.reference_dir) if config.reference_dir else None,
        out_dir=Path(config.out_dir) if config.out_dir else None,
        reports_dir=warehouse.reports,
        pdf=config.pdf,
    )
    if outputs.pdf_error:
        context.log.warning(f"PDF manquant : {outputs.pdf_error}")
    comparison = outputs.comparison
    rows = comparison.rows()
    counts = {k: rows.filter(rows["changement"] == k).height for k in OUTCOMES}
    return dg.MaterializeResult(
        metadata={
            "folder": dg.MetadataValue.path(str(outputs.folder)),
            "report": dg.MetadataValue.path(str(outputs.html)),
            "changes_csv": dg.MetadataValue.path(str(outputs.csv)),
            "pdf": dg.MetadataValue.path(str(outputs.pdf)) if outputs.pdf else "manquant",
            "parameters": dg.MetadataValue.md(
                "\n".join(
                    f"- `{c.key}` : {show(c.before)} → {show(c.after)}"
                    for c in comparison.scenario.changes
                )
                or "aucun changement de paramètre"
            ),
            "players_changed": rows["licence"].n_unique(),
            "outcomes": dg.MetadataValue.json({k: v for k, v in counts.items() if v}),
            "unchanged": comparison.unchanged,
        }
    )


whatif = dg.define_asset_job(
    "whatif",
    selection=dg.AssetSelection.groups(GROUP),
    description="A what-if for a committee: one season recomputed with changed rule "
    "parameters (run config: season, settings KEY=VALUE, reference_dir, out_dir), compared "
    "with the warehouse, which is only read.",
)
