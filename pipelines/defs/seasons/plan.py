"""How a season asset computes: its family of the season plan (`pipelines.plan.season`),
its tables written in place of the season's rows.

Decisions taken here (issue 25, the season steps of a full build):
- The season assets of one Dagster run share one `SeasonInputs` (`season_family`'s
  `run_id`): each base input (the season's results, tournaments, players, rating lists…)
  is read from the warehouse once per run instead of once per asset, and a family reads
  the tables the families before it computed in the same run from memory, as the
  what-if and `compute_season` do, instead of reading back what was just written. A run
  of the season job writes only its season's tables (the ingest is another job), so
  what the shared inputs hold stays what the warehouse holds for the whole run. Measured
  on one season of 20,000 players (4 seasons × 20,000, CPU seconds, best of 3 on a busy
  machine): the reads of the season's steps 0,43 s -> 0,18 s; the whole season run (its
  rows deleted first, as in a full build; with the rating lists read by their rule
  columns only, `pipelines.plan.season`) 2,92 s -> 2,23 s, tables and report identical.
- Only the latest run's inputs are kept (one season's frames in memory), dropped when
  the season's last step (`season_builds`) ends the run (`forget_run`); kept by thread: a
  build runs the season's families that read only the ingest's tables in a thread of
  their own, beside the season's chain (`pipelines.build`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextvars import ContextVar

from pipelines.plan.season import AFTER_APART, Frames, SeasonInputs, compute_season
from pipelines.resources import WarehouseResource

# Set by a build computing the season's families apart (`pipelines.plan.season.APART`) in
# another thread (`pipelines.build._beside`): waits until they are computed for a season,
# False when that thread failed. A step reading their tables asks first (`wait_for_apart`).
APART_READY: ContextVar[Callable[[str], bool] | None] = ContextVar(
    "classement_apart_ready", default=None
)


class ApartFailedError(RuntimeError):
    """The thread computing a season's families apart failed (the build raises its error)."""


def wait_for_apart(season: str) -> None:
    """Return once the season's families apart are in the warehouse (at once outside such a
    build: they ran before, in the same run or an earlier one)."""
    ready = APART_READY.get()
    if ready is not None and not ready(season):
        raise ApartFailedError(
            f"saison {season} : les tables calculées à côté (Elo, Mort Subite, feuilles de "
            "partie, constats) ont échoué"
        )


# The inputs shared by the season assets of the current run of this thread: `shared`,
# (run id, warehouse file, season, inputs).
_THREAD = threading.local()


def _inputs(warehouse: WarehouseResource, season: str, run_id: str | None) -> SeasonInputs:
    """The run's shared inputs of `season` (new ones for another run, season or
    warehouse); fresh inputs of its own to a call without a run (the run's are kept)."""
    if run_id is None:
        return SeasonInputs(warehouse.warehouse, season, warehouse.parameters)
    path = str(warehouse.warehouse.path.resolve())
    shared: tuple[str, str, str, SeasonInputs] | None = getattr(_THREAD, "shared", None)
    if shared is not None and shared[:3] == (run_id, path, season):
        return shared[3]
    inputs = SeasonInputs(warehouse.warehouse, season, warehouse.parameters)
    _THREAD.shared = (run_id, path, season, inputs)
    return inputs


def forget_run(run_id: str) -> None:
    """Drop the inputs shared by the run `run_id` (its season is built)."""
    shared: tuple[str, str, str, SeasonInputs] | None = getattr(_THREAD, "shared", None)
    if shared is not None and shared[0] == run_id:
        _THREAD.shared = None


def season_family(
    warehouse: WarehouseResource, season: str, family: str, run_id: str | None = None
) -> tuple[Frames, SeasonInputs]:
    """Compute `family` of `season` from the warehouse (the families before it already
    materialised, in this run or an earlier one) and replace the season's rows of its
    tables; the tables and the inputs read (for the asset's checks). The assets of the
    same run (`run_id`) share their inputs."""
    wh = warehouse.warehouse
    if family in AFTER_APART:
        wait_for_apart(season)
    inputs = _inputs(warehouse, season, run_id)
    tables = compute_season(inputs, [family])
    for name, frame in tables.items():
        wh.replace_partition(name, frame, "season", season)
    return tables, inputs
