"""How a season asset computes: its family of the season plan (`pipelines.plan.season`),
its tables written in place of the season's rows."""

from __future__ import annotations

from pipelines.plan.season import Frames, SeasonInputs, compute_season
from pipelines.resources import WarehouseResource


def season_family(
    warehouse: WarehouseResource, season: str, family: str
) -> tuple[Frames, SeasonInputs]:
    """Compute `family` of `season` from the warehouse (the families before it already
    materialised) and replace the season's rows of its tables; the tables and the inputs
    read (for the asset's checks)."""
    wh = warehouse.warehouse
    inputs = SeasonInputs(wh, season, warehouse.parameters)
    tables = compute_season(inputs, [family])
    for name, frame in tables.items():
        wh.replace_partition(name, frame, "season", season)
    return tables, inputs
