"""The season assets of one run share their inputs (`pipelines.defs.seasons.plan`): what a
family reads from memory is what the warehouse holds, and the sharing ends with the run."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl

from pipelines.defs.seasons.plan import forget_run, season_family
from pipelines.plan.season import history_through, season_rows
from pipelines.resources import WarehouseResource
from pipelines.warehouse import Warehouse

# The chain of the duplicate series and the cote up to its ranking: each reads tables the
# families before it computed (the ranking through the earlier seasons' history).
CHAIN = ("event_scores", "standings", "classification", "cote", "cote_ranking")


def _copy(sample_site: Path, tmp_path: Path) -> tuple[WarehouseResource, Warehouse, str]:
    """A copy of the sample build's warehouse (the families write it) and its last season."""
    shutil.copy(sample_site / "w.duckdb", tmp_path / "w.duckdb")
    resource = WarehouseResource(
        warehouse_path=str(tmp_path / "w.duckdb"), reports_dir=str(tmp_path / "reports")
    )
    wh = resource.warehouse
    season = wh.read("SELECT max(season) AS season FROM tournaments")["season"][0]
    return resource, wh, season


def test_a_run_reads_from_memory_what_the_warehouse_holds(
    sample_site: Path, tmp_path: Path
) -> None:
    resource, wh, season = _copy(sample_site, tmp_path)
    with wh.held():  # one connection for the run, as a build holds it
        written: dict[str, pl.DataFrame] = {}
        first = None
        for family in CHAIN:
            tables, inputs = season_family(resource, season, family, "run")
            first = first or inputs
            assert inputs is first  # one run, one set of inputs
            written.update(tables)
        assert first is not None
        for name in written:  # what the later families read is what they would have read
            assert first.frame(name).equals(season_rows(wh, name, season)), name
        # every season's cote history up to this one, in event order, as the warehouse gives it
        through = history_through(wh, "cote_history", season, inclusive=True)
        assert first.frame("cote_history_through").equals(through)
        # and the ranking computed from memory is the one computed from the warehouse alone
        alone = season_family(resource, season, "cote_ranking")[0]
        assert all(alone[name].equals(written[name]) for name in alone)
        forget_run("run")


def test_the_sharing_ends_with_the_run(sample_site: Path, tmp_path: Path) -> None:
    resource, wh, season = _copy(sample_site, tmp_path)
    with wh.held():  # one connection for the runs, as a build holds it
        _, first = season_family(resource, season, "quality", "run-a")
        assert season_family(resource, season, "quality", "run-a")[1] is first
        _, second = season_family(resource, season, "quality", "run-b")
        assert second is not first  # another run
        forget_run("run-a")  # another run's end leaves this one's inputs
        assert season_family(resource, season, "quality", "run-b")[1] is second
        forget_run("run-b")
        _, third = season_family(resource, season, "quality", "run-b")
        assert third is not second  # the run ended: its inputs are read again
        assert season_family(resource, season, "quality")[1] is not third  # no run: its own
        assert season_family(resource, season, "quality", "run-b")[1] is third  # the run's kept
        forget_run("run-b")
