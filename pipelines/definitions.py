"""Entry point of the Dagster code location (`dg check defs`, `dagster dev`)."""

from pathlib import Path

import dagster as dg

defs = dg.load_from_defs_folder(path_within_project=Path(__file__).parent)
