"""Which partitions a build must compute: a season (a calendar year for the circuits) is
stale when its inputs, the code computing it or the rule parameters changed since it was
last built, or one of its pages is missing. Dagster-free: the build, the sensors, the
assets recording a build and the what-if all ask here."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from pipelines.paths import PROJECT_ROOT
from pipelines.reference.bundle import Parameters, load_parameters
from pipelines.reports import layout
from pipelines.source_files import files_digest
from pipelines.warehouse import Warehouse

# What computes a season's tables and reports: the rules, the loaders of their parameters,
# the season plan, the season assets and the report code (the parameters themselves count
# through `Parameters.digest`). The CLI, the simulator, the ingest (its output is already
# in the season's input fingerprint) and the docs do not count: editing them rebuilds
# nothing.
SEASON_CODE = (
    "transforms",
    "pipelines/reference",
    "pipelines/plan",
    "pipelines/defs",
    "pipelines/reports",
)
_CODE_SUFFIXES = {".py", ".csv", ".yaml", ".yml", ".js", ".css"}


def code_fingerprint(params: Parameters | None = None, root: Path = PROJECT_ROOT) -> str:
    """A hash of the code a season is computed with (`SEASON_CODE`) and of the rule
    parameters (`params`, default `load_parameters()`): changing a rule, a parameter or a
    report rebuilds every season."""
    params = params or load_parameters()
    digest = hashlib.sha256(f"parameters\0{params.digest}\0".encode())
    digest.update(files_digest(root, SEASON_CODE, _CODE_SUFFIXES).encode())
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

    def outputs(self, reports: Path, key: str) -> list[Path]:
        """The pages a built partition has (its PDFs are printed apart: `run_build`)."""
        if self.partition == "season":
            return [layout.report_path(reports, key)]
        return [layout.year_index_path(reports, key)]


PDF_ASSET = "season_report_pdf"
SEASONS = Stage(
    "season", "Saison", "build_season", "season_fingerprints", "season_builds", (PDF_ASSET,)
)
YEARS = Stage(
    "year", "Année", "build_year", "year_fingerprints", "year_builds", ("circuit_reports_pdf",)
)
STAGES = (SEASONS, YEARS)


def stale_partitions(
    warehouse: Warehouse,
    stage: Stage,
    reports: Path | None = None,
    params: Parameters | None = None,
    *,
    every: bool = False,
) -> list[str]:
    """A stage's partitions to build, in order: their inputs, the code or the rule
    parameters (`params`, see `code_fingerprint`) changed since they were last built, or
    (given the reports folder) one of their reports is missing; with `every`, all of them
    (`classement build --full`)."""
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
    code = code_fingerprint(params)
    stale = []
    for key, fingerprint in current.iter_rows():
        missing_report = reports is not None and not all(
            path.exists() for path in stage.outputs(reports, key)
        )
        if every or built.get(key) != _build_key(fingerprint, code) or missing_report:
            stale.append(key)
    return stale


def record_build(
    warehouse: Warehouse, stage: Stage, key: str, params: Parameters | None = None
) -> None:
    """Remember what a partition was built from (see `stale_partitions`)."""
    column = stage.partition
    current = warehouse.read(
        f'SELECT "{column}", fingerprint FROM "{stage.fingerprints}" WHERE "{column}" = ?', [key]
    )
    built = current.with_columns(
        pl.lit(_build_key(current["fingerprint"].item(), code_fingerprint(params))).alias(
            "fingerprint"
        )
    )
    warehouse.replace_partition(stage.builds, built, column, key)


def record_season_build(warehouse: Warehouse, season: str) -> None:
    """Remember what a season was built from."""
    record_build(warehouse, SEASONS, season)
