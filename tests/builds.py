"""Test helpers that run Dagster: assets materialised on a small warehouse, whole builds.

Only the pipeline tests import this module: Dagster is heavy, and the rule tests (which
use `tests/support.py` alone) never load it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import dagster as dg

from pipelines.build import BuildSummary, run_build
from pipelines.instance import build_instance
from pipelines.resources import WarehouseResource


def build(
    raw: Path,
    out: Path,
    lines: list[str] | None = None,
    *,
    pdf: bool = False,
    **options: Any,
) -> BuildSummary:
    """A whole build of `raw` into `out` (`w.duckdb`, `reports/`), its lines appended to
    `lines` (else dropped); no PDF unless `pdf`."""
    sink = lines if lines is not None else []
    return run_build(raw, out / "w.duckdb", out / "reports", emit=sink.append, pdf=pdf, **options)


def warehouse_resource(path: Path, **options: str) -> WarehouseResource:
    """The resource of a warehouse at `path`; its raw and reports folders beside it unless
    `options` names them."""
    folders: dict[str, Any] = {
        "raw_dir": str(path.parent / "raw"),
        "reports_dir": str(path.parent / "reports"),
    }
    return WarehouseResource(warehouse_path=str(path), **{**folders, **options})


def materialise(
    assets: Sequence[Any],
    warehouse: Path | WarehouseResource,
    *,
    partition: str | None = None,
    instance: dg.DagsterInstance | None = None,
    partitions: Mapping[str, Sequence[str]] | None = None,
) -> dg.ExecuteInProcessResult:
    """`assets` (and their checks) materialised in-process on `warehouse` (a path or a
    resource), for one `partition` if given; `partitions` adds dynamic partitions (name →
    keys) to the instance first (a new in-memory one, `pipelines.instance`, unless `instance`).
    The warehouse is held open while they run, as an in-process build holds it
    (`run_build`): each read no longer opens the file (about 20 ms each)."""
    instance = instance if instance is not None else build_instance()
    for name, keys in (partitions or {}).items():
        instance.add_dynamic_partitions(name, list(keys))
    resource = (
        warehouse if isinstance(warehouse, WarehouseResource) else warehouse_resource(warehouse)
    )
    with resource.warehouse.held():
        return dg.materialize(
            list(assets),
            resources={"warehouse": resource},
            partition_key=partition,
            instance=instance,
        )
