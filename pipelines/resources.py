"""Dagster resources shared by every domain of the code location."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import dagster as dg
from pydantic import Field

from pipelines.paths import (
    DEFAULT_RAW_DIR,
    DEFAULT_REPORTS_DIR,
    DEFAULT_WAREHOUSE,
    default_cache,
    default_quarantine,
)
from pipelines.reference.bundle import Parameters, load_parameters
from pipelines.warehouse import Warehouse

# Every asset that writes the warehouse runs in this pool; dagster.yaml limits it to 1.
WAREHOUSE_POOL = "warehouse"


class WarehouseResource(dg.ConfigurableResource):
    """Where the pipeline reads raw exports and writes the DuckDB warehouse and reports.

    Defaults come from the environment (`CLASSEMENT_RAW_DIR`, `CLASSEMENT_WAREHOUSE`,
    `CLASSEMENT_REPORTS_DIR`, `CLASSEMENT_REFERENCE_DIR`), else the project's `data/` folder.
    """

    raw_dir: str = os.environ.get("CLASSEMENT_RAW_DIR", str(DEFAULT_RAW_DIR))
    warehouse_path: str = os.environ.get("CLASSEMENT_WAREHOUSE", str(DEFAULT_WAREHOUSE))
    reports_dir: str = os.environ.get("CLASSEMENT_REPORTS_DIR", str(DEFAULT_REPORTS_DIR))
    # The rule parameters' folder; empty: `CLASSEMENT_REFERENCE_DIR`, else `data/reference/`
    # (`pipelines.reference.bundle.reference_dir`); another folder builds under other rules.
    reference_dir: str = ""
    # Where copies of rejected exports go; empty: `<warehouse>.quarantine/` beside it.
    quarantine_dir: str = os.environ.get("CLASSEMENT_QUARANTINE", "")
    # What builds keep between them (the ingest's cache); empty: `<warehouse>.cache/`.
    cache_dir: str = ""
    # The build's reference date (ISO `YYYY-MM-DD`): an export dated later is refused;
    # empty: today (`classement build --as-of`).
    as_of: str = ""
    # What the build says of a raw folder that shrank since the last build (a season
    # without exports, fewer than half of the exports: `pipelines.shrink`), for the home
    # page's data-quality notice; set by `classement build` only.
    build_warnings: list[str] = Field(default_factory=list)

    @property
    def warehouse(self) -> Warehouse:
        return Warehouse(Path(self.warehouse_path))

    @property
    def raw(self) -> Path:
        return Path(self.raw_dir)

    @property
    def reports(self) -> Path:
        return Path(self.reports_dir)

    @property
    def parameters(self) -> Parameters:
        """The rule parameters every asset computes with (one bundle per folder)."""
        return load_parameters(self.reference_dir or None)

    @property
    def reference_date(self) -> dt.date:
        """`as_of` as a date: the day given, else today."""
        return dt.date.fromisoformat(self.as_of) if self.as_of else dt.date.today()

    @property
    def quarantine(self) -> Path:
        """Copies of the rejected exports (the raw files stay where they are)."""
        return (
            Path(self.quarantine_dir)
            if self.quarantine_dir
            else default_quarantine(Path(self.warehouse_path))
        )

    @property
    def cache(self) -> Path:
        """Derived data kept between builds (`pipelines.ingest.cache`)."""
        return Path(self.cache_dir) if self.cache_dir else default_cache(Path(self.warehouse_path))
