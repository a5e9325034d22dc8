"""`classement build`: materialise every asset in-process into a staging copy of the
warehouse, then swap it in. A failed build leaves the previous warehouse untouched."""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import dagster as dg
import polars as pl

from pipelines.resources import PROJECT_ROOT, WarehouseResource
from pipelines.warehouse import Warehouse

Printer = Callable[[str], None]


@dataclass
class BuildSummary:
    warehouse: Path
    ingested: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)
    row_counts: dict[str, int] = field(default_factory=dict)
    seasons_built: list[str] = field(default_factory=list)
    years_built: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def exit_status(self) -> int:
        """0 when every export loaded; 1 when any was rejected (so a scheduler notices)."""
        return 1 if self.rejected else 0


class _ProgressHandler(logging.Handler):
    """Prints one line per finished step of a run, from Dagster's structured events."""

    def __init__(self, emit: Printer) -> None:
        super().__init__(level=logging.DEBUG)
        self._emit = emit
        self._started: dict[str, float] = {}

    def emit(self, record: logging.LogRecord) -> None:
        event = getattr(record, "dagster_event", None)
        if event is None:
            return
        kind = event.event_type_value
        step = event.step_key or ""
        if kind == "STEP_START":
            self._started[step] = time.perf_counter()
        elif kind == "STEP_SUCCESS":
            took = time.perf_counter() - self._started.get(step, time.perf_counter())
            self._emit(f"  ✓ {step} ({took:.1f} s)")
        elif kind == "STEP_FAILURE":
            self._emit(f"  ✗ {step} failed")
        elif kind == "ASSET_CHECK_EVALUATION":
            data = event.event_specific_data
            if data is not None and not data.passed:
                self._emit(
                    f"  ! check {data.asset_key.to_user_string()}:{data.check_name} did not pass"
                )


def _progress_logger(emit: Printer) -> dg.LoggerDefinition:
    @dg.logger
    def progress(_init_context: dg.InitLoggerContext) -> logging.Logger:
        log = logging.getLogger("classement.build.progress")
        log.handlers = [_ProgressHandler(emit)]
        log.setLevel(logging.DEBUG)
        log.propagate = False
        return log

    return progress


_QUIET: dict[str, dict[str, dict[str, object]]] = {"loggers": {"progress": {}}}


def _definitions() -> dg.Definitions:
    from pipelines.definitions import defs

    return defs


PDF_ASSET = "season_report_pdf"

# What computes a season's tables and reports: the rules, their parameters, the season
# assets and the report code. The CLI, the simulator, the ingest (its output is already in
# the season's input fingerprint) and the docs do not count: editing them rebuilds nothing.
SEASON_CODE = (
    "transforms",
    "data/reference",
    "pipelines/reference",
    "pipelines/defs/series",
    "pipelines/defs/seasons",
    "pipelines/defs/years",
    "pipelines/defs/circuits",
    "pipelines/defs/reports",
    "pipelines/reports",
)


def code_fingerprint(root: Path = PROJECT_ROOT) -> str:
    """A hash of the code and rule parameters a season is computed with (`SEASON_CODE`):
    changing a rule, a parameter or a report rebuilds every season."""
    digest = hashlib.sha256()
    for folder in SEASON_CODE:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and path.suffix in {".py", ".csv", ".yaml", ".yml", ".js", ".css"}:
                digest.update(path.relative_to(root).as_posix().encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _build_key(input_fingerprint: str, code: str) -> str:
    return hashlib.sha256(f"{input_fingerprint}:{code}".encode()).hexdigest()


@dataclass(frozen=True)
class Stage:
    """A partitioned stage of the build: its partitions (`season`, `year`), its job, the
    tables holding the partitions' input fingerprints and what each was built from, and
    the report files a built partition must have."""

    partition: str
    label: str  # in progress lines
    job: str
    fingerprints: str
    builds: str
    pdf_assets: tuple[str, ...]

    def outputs(self, reports: Path, key: str, *, pdf: bool) -> list[Path]:
        from pipelines.reports import layout

        if self.partition == "season":
            pages = [layout.report_path(reports, key)]
            return [*pages, layout.pdf_path(reports, key)] if pdf else pages
        return [layout.year_index_path(reports, key)]


SEASONS = Stage(
    "season", "Saison", "build_season", "season_fingerprints", "season_builds", (PDF_ASSET,)
)
YEARS = Stage(
    "year", "Année", "build_year", "year_fingerprints", "year_builds", ("circuit_reports_pdf",)
)
STAGES = (SEASONS, YEARS)


def stale_partitions(
    warehouse: Warehouse, stage: Stage, reports: Path | None = None, *, pdf: bool = False
) -> list[str]:
    """A stage's partitions to build, in order: their inputs, the code or the rule
    parameters changed since they were last built, or (given the reports folder) one of
    their reports is missing."""
    tables = set(warehouse.tables())
    if stage.fingerprints not in tables:
        return []
    key_column = stage.partition
    current = warehouse.read(
        f'SELECT "{key_column}", fingerprint FROM "{stage.fingerprints}" ORDER BY 1'
    )
    built: dict[str, str] = {}
    if stage.builds in tables:
        built = dict(
            warehouse.read(f'SELECT "{key_column}", fingerprint FROM "{stage.builds}"').iter_rows()
        )
    code = code_fingerprint()
    stale = []
    for key, fingerprint in current.iter_rows():
        missing_report = reports is not None and not all(
            path.exists() for path in stage.outputs(reports, key, pdf=pdf)
        )
        if built.get(key) != _build_key(fingerprint, code) or missing_report:
            stale.append(key)
    return stale


def stale_seasons(
    warehouse: Warehouse, reports: Path | None = None, *, pdf: bool = False
) -> list[str]:
    """Seasons to build, in order (`stale_partitions` of the season stage)."""
    return stale_partitions(warehouse, SEASONS, reports, pdf=pdf)


def record_build(warehouse: Warehouse, stage: Stage, key: str) -> None:
    """Remember what a partition was built from (see `stale_partitions`)."""
    column = stage.partition
    current = warehouse.read(
        f'SELECT "{column}", fingerprint FROM "{stage.fingerprints}" WHERE "{column}" = ?', [key]
    )
    built = current.with_columns(
        pl.lit(_build_key(current["fingerprint"].item(), code_fingerprint())).alias("fingerprint")
    )
    warehouse.replace_partition(stage.builds, built, column, key)


def record_season_build(warehouse: Warehouse, season: str) -> None:
    """Remember what a season was built from."""
    record_build(warehouse, SEASONS, season)


def _without(job: dg.JobDefinition, *names: str) -> list[dg.AssetKey]:
    """The job's assets but those named."""
    leave = {dg.AssetKey(n) for n in names}
    return sorted(k for k in job.asset_layer.selected_asset_keys if k not in leave)


def run_build(
    raw_dir: Path,
    warehouse_path: Path,
    reports_dir: Path,
    *,
    emit: Printer = print,
    instance: dg.DagsterInstance | None = None,
    pdf: bool = True,
) -> BuildSummary:
    """Ingest `raw_dir` and materialise every asset; swap the warehouse in on success.
    Without `pdf`, the season reports are not printed (`season_report_pdf` is skipped)."""
    started = time.perf_counter()
    if not raw_dir.is_dir():
        raise FileNotFoundError(f"raw folder {raw_dir} does not exist")
    warehouse_path.parent.mkdir(parents=True, exist_ok=True)
    staging = warehouse_path.with_name(warehouse_path.name + ".building")
    for leftover in (staging, staging.with_name(staging.name + ".wal")):
        leftover.unlink(missing_ok=True)
    if warehouse_path.exists():
        shutil.copy2(warehouse_path, staging)

    resource = WarehouseResource(
        raw_dir=str(raw_dir), warehouse_path=str(staging), reports_dir=str(reports_dir)
    )
    project = _definitions()
    defs = dg.Definitions(
        assets=project.assets,
        asset_checks=project.asset_checks,
        jobs=project.jobs,
        resources={"warehouse": resource},
        loggers={"progress": _progress_logger(emit)},
    )
    instance = instance or dg.DagsterInstance.ephemeral()
    try:
        emit(f"Ingesting {raw_dir} …")
        defs.resolve_job_def("ingest_exports").execute_in_process(
            instance=instance, run_config=_QUIET
        )
        built: dict[str, list[str]] = {}
        for stage in STAGES:
            job = defs.resolve_job_def(stage.job)
            keys = stale_partitions(resource.warehouse, stage, reports_dir, pdf=pdf)
            if not job.nodes:
                continue
            selection = None if pdf else _without(job, *stage.pdf_assets)
            for key in keys:
                emit(f"{stage.label} {key} …")
                job.execute_in_process(
                    instance=instance,
                    partition_key=key,
                    run_config=_QUIET,
                    asset_selection=selection,
                )
                record_build(resource.warehouse, stage, key)
            built[stage.partition] = keys
        site_job = defs.resolve_job_def("build_site")
        if site_job.nodes:
            emit("Site …")
            site_job.execute_in_process(instance=instance, run_config=_QUIET)
        os.replace(staging, warehouse_path)
    except BaseException:
        staging.unlink(missing_ok=True)
        raise

    final = Warehouse(warehouse_path)
    log = final.table("ingest_log")
    rejected = log.filter(pl.col("status") == "rejected")
    return BuildSummary(
        warehouse=warehouse_path,
        ingested=log.height - rejected.height,
        rejected=list(zip(rejected["path"].to_list(), rejected["message"].to_list(), strict=True)),
        row_counts=final.row_counts(),
        seasons_built=built.get("season", []),
        years_built=built.get("year", []),
        seconds=time.perf_counter() - started,
    )


def print_summary(summary: BuildSummary, out: TextIO | None = None) -> None:
    w = (out or sys.stdout).write
    w("\nRésumé / summary\n")
    w(f"  warehouse: {summary.warehouse}\n")
    w(f"  files ingested: {summary.ingested}, rejected: {len(summary.rejected)}\n")
    for _, message in summary.rejected:
        w(f"    ✗ {message}\n")
    if summary.seasons_built:
        w(f"  seasons built: {', '.join(summary.seasons_built)}\n")
    w("  tables:\n")
    width = max((len(n) for n in summary.row_counts), default=0)
    for name, count in summary.row_counts.items():
        w(f"    {name:<{width}}  {count:>9,d} rows\n")
    w(f"  done in {summary.seconds:.1f} s\n")
