"""The backtest as an asset (`classement backtest --warehouse` from the Dagster UI): it
reads the warehouse (read-only) and writes `data/backtest/` — its own `backtest.duckdb`
with `rating_backtest` and `rating_backtest_calibration`, the report and its PDF — never
the warehouse; no build job materialises it. In the warehouse's pool, like the what-if:
DuckDB refuses a reader while a build writes."""

# No `from __future__ import annotations`: Dagster inspects the `config` annotation.
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
from pydantic import Field

from pipelines.backtest.run import from_warehouse, run_backtest
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from pipelines.tables import table_spec

GROUP = "backtest"


class BacktestConfig(dg.Config):
    """`classement backtest`'s options."""

    systems: list[str] = Field(default_factory=list, description="systems (empty: all)")
    from_season: str = Field(default="", description="first season scored (empty: all)")
    out_dir: str = Field(default="", description="output folder (empty: data/backtest/)")
    pdf: bool = Field(default=True, description="print the report to PDF")


@dg.multi_asset(
    specs=[table_spec("rating_backtest"), table_spec("rating_backtest_calibration")],
    pool=WAREHOUSE_POOL,
)
def rating_backtest(
    context: dg.AssetExecutionContext, config: BacktestConfig, warehouse: WarehouseResource
) -> Iterator[dg.MaterializeResult]:
    """Every system's predictions of the warehouse's games scored (docs/rules.md §10)."""
    outputs = run_backtest(
        from_warehouse(warehouse.warehouse.path),
        warehouse.parameters,
        systems=config.systems or None,
        from_season=config.from_season or None,
        out_dir=Path(config.out_dir) if config.out_dir else None,
        pdf=config.pdf,
    )
    if outputs.pdf_error:
        context.log.warning(f"PDF manquant : {outputs.pdf_error}")
    for name, frame in (
        ("rating_backtest", outputs.scores.table),
        ("rating_backtest_calibration", outputs.calibration),
    ):
        yield dg.MaterializeResult(
            asset_key=name,
            metadata={
                "database": dg.MetadataValue.path(str(outputs.database)),
                "report": dg.MetadataValue.path(str(outputs.html)),
                "rows": frame.height,
            },
        )


backtest = dg.define_asset_job(
    "backtest",
    selection=dg.AssetSelection.groups(GROUP),
    description="The rating backtest: which rating system predicts the warehouse's games "
    "best; writes data/backtest/ (the warehouse is only read).",
)
