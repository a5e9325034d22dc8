"""Where the project's own folders are, and where a build reads and writes by default.

Dagster-free: the command line, the ingest, the reports and the what-if read these
without loading the code location."""

from __future__ import annotations

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RAW_DIR = PROJECT_ROOT / "data" / "sample"
DEFAULT_WAREHOUSE = PROJECT_ROOT / "data" / "warehouse.duckdb"
DEFAULT_REPORTS_DIR = PROJECT_ROOT / "data" / "reports"
# The project's rule parameters; `CLASSEMENT_REFERENCE_DIR` or an argument names another
# folder (`pipelines.reference.bundle.reference_dir`).
REFERENCE_DIR = PROJECT_ROOT / "data" / "reference"


def default_cache(warehouse: Path) -> Path:
    """What builds keep between them: `<warehouse file>.cache/` beside it."""
    return warehouse.with_name(warehouse.name + ".cache")


def default_quarantine(warehouse: Path) -> Path:
    """One quarantine per warehouse: `<warehouse file>.quarantine/` beside it."""
    return warehouse.with_name(warehouse.name + ".quarantine")
