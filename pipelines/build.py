"""`classement build`: materialise every asset in-process into a staging copy of the
warehouse, then swap it in. A failed build leaves the previous warehouse untouched."""

from __future__ import annotations

import contextvars
import datetime as dt
import hashlib
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import polars as pl

from pipelines.build_state import (
    BuildState,
    code_digest,
    forget_state,
    load_state,
    outputs_digest,
    raw_digest,
    save_state,
)
from pipelines.collector import collector_thresholds
from pipelines.ingest.bounds import LATE_DATE
from pipelines.ingest.raw import listing, save_stated, stated
from pipelines.locks import exclusive
from pipelines.paths import default_cache, default_quarantine
from pipelines.progress import PROGRESS, throttled
from pipelines.publish import Publish, journal_path, publish, recover, spare_path
from pipelines.reference.bundle import Parameters, load_parameters
from pipelines.reports import background as background_reports
from pipelines.reports.background import BackgroundReports
from pipelines.reports.layout import printable_reports
from pipelines.reports.pdf import print_pdfs
from pipelines.reports.pdf_links import mark_pdf_links, restore_pdf_links
from pipelines.shrink import previous_exports, refuse_empty, shrink_warnings
from pipelines.staleness import SEASONS, STAGES, YEARS, Stage, stale_partitions
from pipelines.warehouse import STAGE_CHECKPOINT_BYTES, Warehouse

if TYPE_CHECKING:
    import dagster as dg

    from pipelines.instance import build_instance
    from pipelines.resources import WarehouseResource

Printer = Callable[[str], None]
# the raw folder's content hashes kept for the next build (`pipelines.ingest.raw.stated`)
RAW_HASHES = "raw_hashes.json"


def _import_dagster() -> None:
    """Bind, in this module, the names of the build proper: Dagster, the code location, its
    instance and resource. Imported on first need rather than with the module: about 3 s of
    CPU at start-up (half of a rebuild with nothing changed) that `run_build`'s no-change
    path never needs; the build proper (`_build`, `_definitions`) calls this first."""
    global dg, build_instance, WarehouseResource
    import dagster as dg

    from pipelines.instance import build_instance
    from pipelines.resources import WarehouseResource


@dataclass
class BuildSummary:
    warehouse: Path
    reports: Path
    quarantine: Path
    ingested: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # files loaded with a note (ranks renumbered)
    row_counts: dict[str, int] = field(default_factory=dict)
    seasons_built: list[str] = field(default_factory=list)
    years_built: list[str] = field(default_factory=list)
    pdf_printed: list[str] = field(default_factory=list)
    pdf_error: str | None = None
    seconds: float = 0.0
    # the raw folder shrank since the last build: a season without exports, fewer than
    # half of the exports (`pipelines.shrink`); also in the home page's notice
    warnings: list[str] = field(default_factory=list)
    # seconds spent per step of this build ("ingest", "season", "year", "site" and "pdf"
    # are wall times of whole stages; "step:<asset>" the asset's time summed over partitions)
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def exit_status(self) -> int:
        """0 when everything is built; 1 when an export was rejected (so a scheduler
        notices); 3 when the PDFs could not be printed (tables and pages are built).
        A build that fails exits 2 and one refused for another build in progress 4
        (`classement build`)."""
        if self.pdf_error:
            return 3
        return 1 if self.rejected else 0


# Readable French names of the build's steps and checks (an unlisted one shows its name).
STEP_LABELS = {
    "ingest": "lecture et contrôle des exports",
    "duplicate_event_scores": "duplicate : %N1–%N4 et PC par épreuve",
    "series_standings": "duplicate : pourcentages de la saison",
    "series_classification": "duplicate : séries de fin de saison",
    "series_comparison": "duplicate : comparaison avec le classement FFSc",
    "series_movements": "duplicate : promotions et relégations",
    "series_provisional": "duplicate : séries provisoires",
    "cote_history": "classique : cote, tournoi par tournoi",
    "cote_rankings": "classique : classement des cotes et séries",
    "cote_ranking": "classique : classement des cotes",
    "elo_history": "Elo, tournoi par tournoi",
    "elo_ranking": "Elo : classement de fin de saison",
    "game_sheet_audit": "feuilles de partie : tops vérifiés",
    "season_report": "rapport de la saison (HTML)",
    "season_report_pdf": "rapport de la saison (PDF)",
    "season_builds": "saison enregistrée",
    "year_builds": "année enregistrée",
    "report_plotly_js": "bibliothèque des graphiques",
    "report_index": "page d'accueil",
    "player_pages": "fiches des joueurs",
    "data_quality_notes": "constats sur la qualité des données",
    "mort_subite_challenge": "Challenge Mort Subite : manches et classement",
    "national_classification": "classements nationaux",
    "paca_circuit": "circuit PACA : points et classements",
    "round_robin_finals": "finales en toutes rondes (Masters Grand Sud, Grand Est)",
    "circuit_reports": "pages des circuits de l'année (HTML)",
    "circuit_reports_pdf": "pages des circuits de l'année (PDF)",
    "whatif_report": "simulation d'un changement de règles",
    "rating_backtest": "classements mis à l'épreuve des résultats suivants",
}
CHECK_LABELS = {
    "no_rejected_files": "aucun export refusé",
    "every_tournament_has_a_winner": "chaque tournoi a un vainqueur",
    "games_only_between_listed_players": "les parties opposent des joueurs classés",
    "cote_history_adds_up": "cote avant + PE + B + PJ = cote après",
    "elo_expected_matches_scores": "scores attendus de l'Elo cohérents",
    "series_quotas_respected": "quotas des séries respectés",
    "no_series_holds_players_at_0": "aucune série ne retient de joueur à 0",
    "game_sheet_tops_add_up": "les tops s'additionnent",
    "mort_subite_every_participant_placed": "chaque participant d'une manche Mort Subite classé",
    "one_row_per_licensee": "une ligne par licencié",
    "circuit_rankings_add_up": "classement PACA : chaque total est la somme de ses tournois",
    "masters_follow_the_pairing_table": "les matchs du Masters suivent la table des matchs",
}


def step_label(name: str) -> str:
    """The French name of a step: an asset's (`STEP_LABELS`), or a check's run as a step of
    its own (`<asset>_<check>`, named after the check). Every step and check of the code
    location has one (tests/test_site_words.py): the name in the code is never shown."""
    if name in STEP_LABELS:
        return STEP_LABELS[name]
    for check, label in CHECK_LABELS.items():
        if name.endswith(f"_{check}"):
            return f"contrôle « {label} »"
    return name.replace("_", " ")


def seconds_label(seconds: float) -> str:
    """`0,4 s`, `12,0 s`: a duration as the build prints it (French decimal comma)."""
    return f"{seconds:.1f} s".replace(".", ",")


class _ProgressHandler(logging.Handler):
    """Prints one line per finished step of a run, in French, from Dagster's structured
    events, each with its checks indented under it. A check that runs as a step of its
    own is shown under the step of the asset it guards: the lines of a run are printed
    when it ends (a season's run takes seconds), in the order the steps started."""

    def __init__(self, emit: Printer) -> None:
        super().__init__(level=logging.DEBUG)
        self._emit = emit
        self._started: dict[str, float] = {}
        self._order: list[str] = []  # asset steps, in the order they started
        self._lines: dict[str, str] = {}  # step → its line
        self._checks: dict[str, list[str]] = {}  # step of the guarded asset → check lines
        self._check_steps: dict[str, str] = {}  # a check's own step → the asset's step
        self._asset_steps: dict[str, str] = {}  # asset key → the step that made it

    def emit(self, record: logging.LogRecord) -> None:
        event = getattr(record, "dagster_event", None)
        if event is None:
            meta = getattr(record, "dagster_meta", None) or {}
            message = str(meta.get("orig_message", ""))
            if message.startswith(PROGRESS):  # a long step tells how far it is
                self._emit(f"    … {message.removeprefix(PROGRESS)}")
            return
        kind = event.event_type_value
        step = event.step_key or ""
        if kind == "STEP_START":
            self._started[step] = time.perf_counter()
            self._order.append(step)
        elif kind == "ASSET_MATERIALIZATION":
            key = event.asset_key.to_user_string() if event.asset_key else ""
            self._asset_steps.setdefault(key, step)
        elif kind == "STEP_SUCCESS":
            took = time.perf_counter() - self._started.get(step, time.perf_counter())
            self._lines[step] = f"  ✓ {step_label(step)} ({seconds_label(took)})"
        elif kind == "STEP_FAILURE":
            self._lines[step] = f"  ✗ {step_label(step)} : échec"
        elif kind == "ASSET_CHECK_EVALUATION":
            data = event.event_specific_data
            if data is None:
                return
            asset = data.asset_key.to_user_string()
            owner = self._asset_steps.get(asset, step)
            if owner != step:
                self._check_steps[step] = owner
            label = CHECK_LABELS.get(data.check_name, data.check_name.replace("_", " "))
            mark = "✓" if data.passed else "!"
            verdict = "" if data.passed else " : non satisfait"
            self._checks.setdefault(owner, []).append(f"      {mark} contrôle « {label} »{verdict}")
        elif kind in ("RUN_SUCCESS", "RUN_FAILURE", "PIPELINE_SUCCESS", "PIPELINE_FAILURE"):
            self.flush_run()

    def flush_run(self) -> None:
        """Print the run's steps, each followed by its checks; a check's own step is not
        shown apart unless it failed without a verdict."""
        for step in self._order:
            owner = self._check_steps.get(step)
            line = self._lines.get(step)
            if owner is not None and not (line or "").startswith("  ✗"):
                continue
            if line:
                self._emit(line)
            for check in self._checks.get(step, []):
                self._emit(check)
        self._started.clear()
        self._order.clear()
        self._lines.clear()
        self._checks.clear()
        self._check_steps.clear()
        self._asset_steps.clear()


def _without(job: dg.JobDefinition, *names: str) -> list[dg.AssetKey]:
    """The job's assets but those named."""
    leave = {dg.AssetKey(n) for n in names}
    return sorted(k for k in job.asset_layer.selected_asset_keys if k not in leave)


@collector_thresholds
def run_build(
    raw_dir: Path,
    warehouse_path: Path,
    reports_dir: Path,
    *,
    emit: Printer = print,
    instance: dg.DagsterInstance | None = None,
    pdf: bool = True,
    quarantine_dir: Path | None = None,
    reference_dir: Path | None = None,
    allow_empty: bool = False,
    as_of: dt.date | None = None,
    full: bool = False,
) -> BuildSummary:
    """Ingest `raw_dir` and materialise every asset, then publish the new reports and the
    new warehouse as one step (`pipelines.publish`); print the PDFs last.

    One build at a time per warehouse (its lock; a second one raises WarehouseLocked at
    once). The warehouse and the reports are built in staging copies (the reports as hard
    links: unchanged pages cost nothing) and published only when everything succeeded: a
    failed build leaves both as they were and removes its staging copies; a build killed
    while publishing is completed by the next one, which also removes the staging copies
    of killed builds. A raw folder without any export is refused (EmptyRawFolder: nothing
    changes) unless `allow_empty`. Printing comes after the publish, with one Chromium
    for every report whose PDF is missing or older than its page: a printing failure costs
    no table and no page (`BuildSummary.pdf_error`).
    `reference_dir`: the rule parameters' folder (`pipelines.reference.bundle.reference_dir`:
    default `CLASSEMENT_REFERENCE_DIR`, else `data/reference`). `as_of`: the build's
    reference date (default today): an export dated later is refused; a build on another
    date is not « nothing changed ». `full`: recompute everything whatever the caches say
    (no « nothing changed », every export read again, every season and year rebuilt)."""
    started = time.perf_counter()
    if not raw_dir.is_dir():
        raise FileNotFoundError(f"le dossier des exports {raw_dir} n'existe pas")
    seen = listing(raw_dir)  # the raw folder walked once for both uses below
    if not allow_empty:
        refuse_empty(raw_dir, seen)
    warehouse_path.parent.mkdir(parents=True, exist_ok=True)
    quarantine = quarantine_dir or default_quarantine(warehouse_path)
    cache = default_cache(warehouse_path)
    # the ingest's modules, loaded now (not with this module: `tests/test_startup.py`)
    from pipelines.ingest.cache import PARALLEL_FILES, ingest_cached, workers_ahead

    # every export read in parallel: the ingest's workers start meanwhile
    ahead = len(seen.exports) >= PARALLEL_FILES and (full or not ingest_cached(cache))
    reference_date = (as_of or dt.date.today()).isoformat()
    # the listing and the hashes stated below are the ingest's too (`pipelines.ingest.raw.stated`);
    # a file whose stat is the one it had when the last build hashed it is not read again
    # (`raw_hashes.json`), but in a full build
    known = cache / RAW_HASHES
    with (
        exclusive(warehouse_path),
        workers_ahead(ahead),
        stated(raw_dir, seen, None if full else known),
    ):
        if recover(warehouse_path, reports_dir, emit):
            forget_state(cache)
        params = load_parameters(reference_dir)
        inputs = hashlib.sha256(
            f"{raw_digest(raw_dir, seen)}\0{code_digest(params)}".encode()
        ).hexdigest()
        last = load_state(cache)
        if (
            not full
            and last is not None
            and last.inputs == inputs
            and _same_dates(last.summary, reference_date)
            and warehouse_path.exists()
            and last.outputs == outputs_digest(warehouse_path, reports_dir, quarantine)
        ):
            emit(
                "Rien n'a changé depuis la dernière construction (exports, code, paramètres, "
                "entrepôt, rapports) : rien n'est recalculé."
            )
            summary = _summary_from_state(last.summary, warehouse_path, reports_dir, quarantine)
            links_plain = last.summary.get("pdf_links_plain") is True
        else:
            links_plain = False
            forget_state(cache)
            if full:
                shutil.rmtree(cache / "ingest", ignore_errors=True)  # every export read again
            summary = _build(
                raw_dir,
                warehouse_path,
                reports_dir,
                quarantine,
                emit,
                instance,
                params,
                reference_date,
                full=full,
            )
        if pdf:
            started_pdf = time.perf_counter()
            summary.pdf_printed, summary.pdf_error = _print_reports(
                reports_dir, emit, links_plain=links_plain
            )
            summary.timings["pdf"] = time.perf_counter() - started_pdf
        state = _summary_state(summary, reference_date)
        # after a pass of `mark_pdf_links` with every PDF there and current, no page marks a
        # PDF link: a next build with nothing changed need not read the pages again
        state["pdf_links_plain"] = pdf and not _pdf_pending(reports_dir)
        save_state(
            cache,
            BuildState(inputs, outputs_digest(warehouse_path, reports_dir, quarantine), state),
        )
        save_stated(known)
    summary.seconds = time.perf_counter() - started
    return summary


def _same_dates(last: Mapping[str, object], reference_date: str) -> bool:
    """Whether the last build's reference date gives the same refusals as `reference_date`:
    the same date, or a later one when the last build refused no file for a date after its
    own (a later date refuses nothing more; only an earlier one may)."""
    before = str(last.get("as_of", ""))
    if reference_date == before:
        return True
    rejected = last.get("rejected", [])
    late = any(LATE_DATE in str(r[1]) for r in rejected) if isinstance(rejected, list) else True
    return bool(before) and reference_date > before and not late


def _summary_state(summary: BuildSummary, reference_date: str) -> dict[str, object]:
    return {
        "as_of": reference_date,
        "ingested": summary.ingested,
        "rejected": [list(r) for r in summary.rejected],
        "notes": summary.notes,
        "row_counts": summary.row_counts,
    }


def _summary_from_state(
    state: dict[str, Any], warehouse: Path, reports: Path, quarantine: Path
) -> BuildSummary:
    """The last build's summary: nothing built this time."""
    return BuildSummary(
        warehouse=warehouse,
        reports=reports,
        quarantine=quarantine,
        ingested=int(state["ingested"]),
        rejected=[(str(p), str(m)) for p, m in state["rejected"]],
        notes=[str(n) for n in state["notes"]],
        row_counts={str(k): int(v) for k, v in state["row_counts"].items()},
    )


def _build(
    raw_dir: Path,
    warehouse_path: Path,
    reports_dir: Path,
    quarantine: Path,
    emit: Printer,
    instance: dg.DagsterInstance | None,
    params: Parameters,
    as_of: str = "",
    full: bool = False,
) -> BuildSummary:
    """The build proper, in staging copies published at the end (`run_build`)."""
    # the ingest's cache, read by a thread of its own while the build starts
    from pipelines.ingest.cache import reading_ahead

    timings: dict[str, float] = {}
    started = time.perf_counter()
    staging = _staging_file(warehouse_path)
    reports_staging = reports_dir.with_name(f"{reports_dir.name}.building-{os.getpid()}")
    try:
        with reading_ahead(default_cache(warehouse_path) / "ingest", params):
            with ThreadPoolExecutor(1, thread_name_prefix="classement-staging") as pool:
                # the staging copies (system calls) and the last build's exports (a read of
                # DuckDB) made while Dagster and the code location are imported (Python)
                copies = pool.submit(
                    _staging_copies, warehouse_path, staging, reports_dir, reports_staging
                )
                _import_dagster()
                previous = copies.result()
            timings["staging"] = time.perf_counter() - started
            resource = WarehouseResource(
                raw_dir=str(raw_dir),
                warehouse_path=str(staging),
                reports_dir=str(reports_staging),
                quarantine_dir=str(quarantine),
                cache_dir=str(default_cache(warehouse_path)),
                reference_dir=str(params.folder),
                as_of=as_of,
            )
            with Warehouse(staging).held():
                built, warnings = _materialise(
                    resource, emit, instance, timings, previous, full=full
                )
                summary = _summary(
                    Warehouse(staging), warehouse_path, reports_dir, quarantine, built
                )
        summary.timings = timings
        summary.warnings = warnings
        publish(Publish.of(staging, warehouse_path, reports_staging, reports_dir), warehouse_path)
        _link_spare(reports_dir)
    finally:
        kept = journal_path(warehouse_path).exists()  # the next build publishes them
        for suffix in (".lock",) if kept else ("", ".wal", ".lock"):
            staging.with_name(staging.name + suffix).unlink(missing_ok=True)
        if not kept:
            shutil.rmtree(reports_staging, ignore_errors=True)
    return summary


def _staging_file(warehouse_path: Path) -> Path:
    """The name of the warehouse's staging copy, its own (never another build's): an empty
    file until `_staging_copies` copies the warehouse there."""
    fd, name = tempfile.mkstemp(
        prefix=f".{warehouse_path.name}.", suffix=".building", dir=warehouse_path.parent
    )
    os.close(fd)
    return Path(name)


def _staging_copies(
    warehouse_path: Path, staging: Path, reports_dir: Path, reports_staging: Path
) -> pl.DataFrame | None:
    """The warehouse copied to `staging` (no file there without a warehouse yet), the
    reports staged (`_stage_reports`); returns the exports the last build read
    (`previous_exports`)."""
    if warehouse_path.exists():
        shutil.copy2(warehouse_path, staging)
    else:
        staging.unlink()
    previous = previous_exports(warehouse_path)
    _stage_reports(reports_dir, reports_staging)
    return previous


def _stage_reports(reports: Path, staging: Path) -> None:
    """`staging` as a copy of `reports` made of hard links: every writer of the reports
    replaces a file (write then rename), never writes into it, so the live reports stay
    untouched while the build writes its copy. Made from the last build's spare
    (`pipelines.publish.spare_path`: the reports it replaced, mostly the same files) when
    there is one, mended where it differs (`_mirror`): s20's 54,000 files are not linked
    again, only the few hundred a build changed."""
    shutil.rmtree(staging, ignore_errors=True)
    spare = spare_path(reports)
    if not reports.exists():
        shutil.rmtree(spare, ignore_errors=True)
        staging.mkdir(parents=True)
        return
    if spare.is_dir() and not spare.is_symlink():
        try:
            os.rename(spare, staging)
            _mirror(os.fspath(reports), os.fspath(staging))
            return
        except OSError:  # linked again whole below
            shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(spare, ignore_errors=True)
    shutil.copytree(reports, staging, copy_function=os.link)


def _link_spare(reports: Path) -> None:
    """A spare of the reports just published when the publish left none (a first build: no
    reports replaced), linked whole (`pipelines.publish`'s decisions): the next build that
    changes something stages from it. Linked under a staging name first, so a build killed
    meanwhile leaves a folder the next build's recovery removes, never half a spare."""
    spare = spare_path(reports)
    if os.path.lexists(spare) or not reports.is_dir():
        return
    linking = reports.with_name(f"{reports.name}.building-{os.getpid()}")
    shutil.rmtree(linking, ignore_errors=True)
    shutil.copytree(reports, linking, copy_function=os.link)
    os.rename(linking, spare)


def _mirror(source: str, target: str) -> None:
    """Make the folder `target` what `shutil.copytree(source, target, copy_function=os.link)`
    makes of it: each of its files a hard link to the file of `source` (the same inode: the
    same file, nothing to do; another: linked again), each folder mirrored, every entry
    `source` has not removed, the folders' times copied. The inodes come from the listings
    (no stat of an unchanged file)."""
    with os.scandir(source) as entries:
        wanted = {e.name: e for e in entries}
    with os.scandir(target) as entries:
        present = {e.name: e for e in entries}
    for name, entry in list(present.items()):
        here = wanted.get(name)
        folder = entry.is_dir(follow_symlinks=False)
        if (
            here is None
            or here.is_symlink()
            or folder != here.is_dir(follow_symlinks=False)
            or (not folder and entry.inode() != here.inode())
        ):
            if folder:
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            del present[name]
    for name, entry in wanted.items():
        path = os.path.join(target, name)
        if entry.is_dir():  # a link to a folder is copied as a folder, as copytree does
            if name not in present:
                shutil.copytree(entry.path, path, copy_function=os.link)
            else:
                _mirror(entry.path, path)
        elif name not in present:
            os.link(entry.path, path)
    shutil.copystat(source, target)


# The printer of the build running in this process: the progress logger of every run
# prints through it (`_definitions` is made once a process, not once a build).
_EMIT: ContextVar[Printer] = ContextVar("classement_build_emit", default=print)
# The warehouse resource of the run being executed in this process (`_execute` sets it): every
# run's resource is this object itself, not one built again from run config at each run.
_RESOURCE: ContextVar[Any] = ContextVar("classement_build_resource")


def _current_resource(_init_context: dg.InitResourceContext) -> Any:
    """The warehouse resource of the run (`_RESOURCE`)."""
    return _RESOURCE.get()


# The progress logger's name in this thread: a stage computed beside another has its own
# (`_beside`), so that each run's lines go to its own handler.
_LOGGER: ContextVar[str] = ContextVar(
    "classement_build_logger", default="classement.build.progress"
)


def _progress(_init_context: dg.InitLoggerContext) -> logging.Logger:
    """The progress logger of every run (`_definitions` makes it a Dagster logger)."""
    log = logging.getLogger(_LOGGER.get())
    log.handlers = [_ProgressHandler(_EMIT.get())]
    log.setLevel(logging.DEBUG)
    log.propagate = False
    return log


def code_location_objects() -> dg.Definitions:
    """The assets, checks, jobs, schedules and sensors of the code location's modules
    (`pipelines/defs/`), as `dg.load_from_defs_folder` (`pipelines.definitions`) finds them,
    without its component tree: the build needs the objects alone, and the tree (with the
    component libraries' descriptions it gathers for the UI) cost about 0.2 CPU-s more per
    process, measured 5 December 2026 (0.36 -> 0.16 s once the modules' dependencies are
    loaded). `tests/test_pipeline.py` checks both find the same objects. Dagster's own
    warnings (its preview features: the partitioned asset checks) are silenced here as the
    defs folder's loader silences them."""
    _import_dagster()
    # Dagster and the code location: on first need, as `_import_dagster` says
    from dagster._utils.warnings import disable_dagster_warnings

    import pipelines.defs

    with disable_dagster_warnings():
        return dg.load_definitions_from_package_module(pipelines.defs)


@cache
def _definitions() -> dg.Definitions:
    """The code location's assets, checks and jobs, made once a process: each run gets its
    warehouse resource through its run config (`_run_config`) and prints through `_EMIT`, so
    each job is resolved once a process, not once a build (a small build: about 8 % less)."""
    found = code_location_objects()  # imports Dagster first (`_import_dagster`)
    return dg.Definitions(
        assets=found.assets,
        asset_checks=found.asset_checks,
        jobs=found.jobs,
        resources={"warehouse": dg.ResourceDefinition(resource_fn=_current_resource)},
        loggers={"progress": dg.logger(_progress)},
    )


def _run_config() -> dict[str, Any]:
    """A run's config: the progress logger (the warehouse resource is `_RESOURCE`'s)."""
    return {"loggers": {"progress": {}}}


@cache
def _ephemeral_instance(thread: str = "") -> dg.DagsterInstance:
    """The in-memory Dagster instance the builds of this process run in (one is enough: each
    build's ingest sets its dynamic partitions to those of its raw folder); its event log
    keeps the run events only (`pipelines.instance`). `thread`: the instance of the stages
    computed in a thread of their own (`_beside`): an in-memory instance's run storage is
    not shared between threads."""
    _import_dagster()
    return build_instance()


def _with_partitions(instance: dg.DagsterInstance, source: dg.DagsterInstance, name: str) -> None:
    """`instance`'s dynamic partitions `name` made those of `source` (the ingest registered
    them in the build's instance)."""
    wanted = list(source.get_dynamic_partitions(name))
    have = set(instance.get_dynamic_partitions(name))
    for key in sorted(have - set(wanted)):
        instance.delete_dynamic_partition(name, key)
    missing = [key for key in wanted if key not in have]
    if missing:
        instance.add_dynamic_partitions(name, missing)


def _materialise(
    resource: WarehouseResource,
    emit: Printer,
    instance: dg.DagsterInstance | None,
    timings: dict[str, float],
    previous: pl.DataFrame | None = None,
    *,
    full: bool = False,
) -> tuple[dict[str, list[str]], list[str]]:
    """Run the stages in-process: ingest, every stale partition, the site; the time of
    each in `timings` (see `BuildSummary.timings`). Returns the partitions built and the
    warnings of a raw folder that shrank since `previous` (the last build's exports),
    which the home page's notice shows too. `full`: every partition, stale or not."""
    defs = _definitions()
    # the seasons' families apart and the years are computed beside the seasons' chain in the
    # build's own instances only (another instance's storage may not take two runs at once
    # from one process)
    beside = _ephemeral_instance("beside") if instance is None else None
    instance = instance or _ephemeral_instance()
    token = _EMIT.set(emit)
    try:
        with BackgroundReports() as background:
            return _run_stages(
                defs, resource, emit, instance, timings, previous, background, beside, full=full
            )
    finally:
        _EMIT.reset(token)


def _run_stages(
    defs: dg.Definitions,
    resource: WarehouseResource,
    emit: Printer,
    instance: dg.DagsterInstance,
    timings: dict[str, float],
    previous: pl.DataFrame | None,
    background: BackgroundReports,
    beside: dg.DagsterInstance | None,
    *,
    full: bool,
) -> tuple[dict[str, list[str]], list[str]]:
    """`_materialise`'s runs, in order; the season reports and circuit pages rendered by
    `background` when the federation is large enough (`pipelines.reports.background.wanted`)."""
    emit(f"Lecture des exports de {resource.raw} …")
    started = time.perf_counter()
    result = _execute("ingest_exports", resource, instance)
    from pipelines.ingest.cache import discard_prestarted  # (loaded by the ingest)

    discard_prestarted()  # (when the ingest read too few exports to take them)
    _add_steps(result, timings)
    resource.warehouse.checkpoint(STAGE_CHECKPOINT_BYTES)  # a held connection's log
    timings["ingest"] = time.perf_counter() - started
    warnings = shrink_warnings(previous, resource.warehouse.table("ingest_log"))
    if warnings:
        resource = WarehouseResource(**{**resource.model_dump(), "build_warnings": warnings})
    chosen = background if background_reports.wanted(resource.warehouse) else None
    token = background_reports.CURRENT.set(chosen)
    try:
        built = _run_partitions(defs, resource, emit, instance, timings, beside, full=full)
    finally:
        background_reports.CURRENT.reset(token)
    return built, warnings


def _run_partitions(
    defs: dg.Definitions,
    resource: WarehouseResource,
    emit: Printer,
    instance: dg.DagsterInstance,
    timings: dict[str, float],
    beside: dg.DagsterInstance | None = None,
    *,
    full: bool,
) -> dict[str, list[str]]:
    """`_run_stages` after the ingest: every stale partition, then the site. With a second
    Dagster instance `beside`, the seasons' families that read only the ingest's tables and
    the calendar years are computed in a thread of their own, beside the seasons' chain
    (`_beside`); else every stage in turn."""
    built: dict[str, list[str]] = {}
    for stage in STAGES:
        job = defs.resolve_job_def(stage.job)
        keys = stale_partitions(
            resource.warehouse, stage, resource.reports, resource.parameters, every=full
        )
        built[stage.partition] = keys if job.nodes else []
    seasons, years = built[SEASONS.partition], built[YEARS.partition]
    if beside is not None and seasons:
        _beside(seasons, years, resource, emit, instance, beside, timings)
    else:
        for stage in STAGES:
            if built[stage.partition]:
                started = time.perf_counter()
                _run_stage(stage, built[stage.partition], resource, emit, instance, timings)
                timings[stage.partition] = time.perf_counter() - started
    # the site's pages only read the warehouse: its log is written into the file meanwhile
    checkpoint = _checkpoint_beside(resource.warehouse) if seasons or years else None
    try:
        site_job = defs.resolve_job_def("build_site")
        if site_job.nodes:
            emit("Pages du site (index, fiches des joueurs) …")
            started = time.perf_counter()
            result = _execute("build_site", resource, instance)
            _add_steps(result, timings)
            timings["site"] = time.perf_counter() - started
    finally:
        if checkpoint is not None:
            checkpoint.join()
    _reports_written(timings)
    return built


def _checkpoint_beside(warehouse: Warehouse) -> threading.Thread:
    """A thread that writes the warehouse's log into its file (`Warehouse.checkpoint`) once
    the reports the build's worker renders are written (their snapshots forbid it), while
    the site's pages are made: the seasons' and years' writes are otherwise written when
    the build's connection closes, after the pages (s20, a tournament added: about 0.3 s).
    A checkpoint that cannot be made then (a report failed, which fails the build after the
    site: `_reports_written`; a write of the site's) is left to the close."""
    background = background_reports.CURRENT.get()
    cursor = warehouse.cursor()

    def run() -> None:
        try:
            if background is not None:
                background.finish()
            with warehouse.serving(cursor):
                warehouse.checkpoint_if_free()
        except background_reports.ReportFailedError:
            pass  # (see above)
        finally:
            cursor.close()

    thread = threading.Thread(target=run, name="classement-checkpoint")
    thread.start()
    return thread


# A season's families computed apart from its chain (`pipelines.plan.season.APART`), as
# the progress lines name them.
APART_LABEL = "Elo, Mort Subite, feuilles de partie, constats"


def _run_stage(
    stage: Stage,
    keys: list[str],
    resource: WarehouseResource,
    emit: Printer,
    instance: dg.DagsterInstance,
    timings: dict[str, float],
    *,
    without: tuple[str, ...] | None = None,
    label: str = "",
    before: Callable[[str], bool] | None = None,
    after: Callable[[str], None] | None = None,
) -> None:
    """The stage's job (less the assets `without`: default its PDFs) for each partition of
    `keys`, in order. `before(key)`: whether to go on with that partition (a stage beside
    another waits there, and stops when the other failed); `after(key)`: called once the
    partition's run ended well (`label`: the progress line's words after the key)."""
    for key in keys:
        if before is not None and not before(key):
            return
        emit(f"{stage.label} {key}{label} …")
        # the stage's job records what the partition was built from as its last step
        # (`season_builds`, `year_builds`: `pipelines.staleness.record_build`)
        result = _execute(
            stage.job, resource, instance, key, stage.pdf_assets if without is None else without
        )
        _add_steps(result, timings)
        if after is not None:
            after(key)


class _Blocks:
    """The progress lines of two threads computing at once: each thread's lines are kept
    and printed together when its partition's run ends (`flush`), a season's or a year's
    block never cut by the other thread's."""

    def __init__(self, emit: Printer) -> None:
        self._emit = emit
        self._lock = threading.Lock()
        self._lines = threading.local()

    def line(self, text: str) -> None:
        kept: list[str] | None = getattr(self._lines, "kept", None)
        if kept is None:
            kept = self._lines.kept = []
        kept.append(text)

    def flush(self) -> None:
        kept: list[str] = getattr(self._lines, "kept", [])
        self._lines.kept = []
        with self._lock:
            for text in kept:
                self._emit(text)


def _season_split() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The assets the season job's two parts leave out: the chain (every asset but the
    families computed apart, `APART`, and the PDFs) and the part apart (every asset but
    those families')."""
    from pipelines.plan.season import APART, family_tables

    job = _definitions().resolve_job_def(SEASONS.job)
    every = sorted(k.to_user_string() for k in job.asset_layer.selected_asset_keys)
    apart = set(family_tables(APART))
    chain_without = (*SEASONS.pdf_assets, *sorted(apart))
    return chain_without, tuple(name for name in every if name not in apart)


class _Apart:
    """Which seasons the thread beside the chain has computed its part of (`_beside`)."""

    def __init__(self) -> None:
        self._done: set[str] = set()
        self._ended = False  # the thread ended: no season is computed any more
        self._changed = threading.Condition()

    def done(self, season: str) -> None:
        with self._changed:
            self._done.add(season)
            self._changed.notify_all()

    def end(self) -> None:
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def wait(self, season: str) -> bool:
        """Wait until `season`'s part is computed: True; False if the thread ended without
        it (it failed, or stopped after the chain's failure)."""
        with self._changed:
            self._changed.wait_for(lambda: season in self._done or self._ended)
            return season in self._done


def _beside(
    seasons: list[str],
    years: list[str],
    resource: WarehouseResource,
    emit: Printer,
    instance: dg.DagsterInstance,
    beside: dg.DagsterInstance,
    timings: dict[str, float],
) -> None:
    """The seasons' chain in this thread; in another at once, each season's families that
    read only the ingest's tables and their own earlier seasons' (`pipelines.plan.season.
    APART`: the Elo, the Mort Subite challenge, the game-sheet audit, the data-quality
    notes), then the calendar years (the regional circuits read only the ingest's tables
    too, and write only their own). A season's steps reading a table of the part apart wait
    for it (`pipelines.defs.seasons.plan.wait_for_apart`: the Elo ranking, the report, the
    record), which mostly runs ahead. The machine's second core computes them while the
    chain's single-threaded parts run (`docs/scaling.md`). The other thread has its own
    cursor of the build's connection (`Warehouse.serving`), its own Dagster instance
    (`beside`, with the ingest's dynamic partitions) and its own progress logger; each
    partition's lines are printed as one block when its run ends (`_Blocks`). A failure in
    either thread stops the other after its current partition and is raised once both are
    done (the other thread's first: a step of the chain waiting for it fails after it)."""
    _import_dagster()
    # the code location's, imported with Dagster (`_import_dagster`)
    from pipelines.defs.seasons.plan import APART_READY

    for name in (SEASONS.partition, YEARS.partition):
        _with_partitions(beside, instance, name)
    chain_without, apart_without = _season_split()
    for job, without in (
        (SEASONS.job, chain_without),
        (SEASONS.job, apart_without),
        (YEARS.job, YEARS.pdf_assets),
    ):  # made here, not by both threads at once
        _in_memory_job(job, without)
    blocks = _Blocks(emit)
    apart = _Apart()
    stop = threading.Event()
    failures: list[BaseException] = []
    other_timings: dict[str, float] = {}
    cursor = resource.warehouse.cursor()

    def go_on(_key: str) -> bool:
        blocks.flush()
        return not stop.is_set()

    def other_thread() -> None:
        _EMIT.set(blocks.line)
        _LOGGER.set("classement.build.progress.beside")
        try:
            with resource.warehouse.serving(cursor):
                started = time.perf_counter()
                _run_stage(
                    SEASONS,
                    seasons,
                    resource,
                    blocks.line,
                    beside,
                    other_timings,
                    without=apart_without,
                    label=f" ({APART_LABEL})",
                    before=go_on,
                    after=apart.done,
                )
                other_timings["season_apart"] = time.perf_counter() - started
                started = time.perf_counter()
                _run_stage(YEARS, years, resource, blocks.line, beside, other_timings, before=go_on)
                other_timings[YEARS.partition] = time.perf_counter() - started
        except BaseException as err:  # raised in the build's thread
            failures.append(err)
            stop.set()
        finally:
            apart.end()  # (no season waits for it any longer)
            blocks.flush()

    thread = threading.Thread(
        target=contextvars.copy_context().run, args=(other_thread,), name="classement-a-cote"
    )
    token = _EMIT.set(blocks.line)
    ready = APART_READY.set(apart.wait)  # the chain's steps reading them wait there
    started = time.perf_counter()
    chain_failure: BaseException | None = None
    try:
        thread.start()
        try:
            _run_stage(
                SEASONS,
                seasons,
                resource,
                blocks.line,
                instance,
                timings,
                without=chain_without,
                before=go_on,
            )
        except BaseException as err:
            chain_failure = err
            stop.set()
        finally:
            blocks.flush()
            thread.join()
            timings[SEASONS.partition] = time.perf_counter() - started
    finally:
        APART_READY.reset(ready)
        _EMIT.reset(token)
        cursor.close()
    timings.update(other_timings)
    if failures:  # the other thread's first: a chain's step waiting for it failed after it
        raise failures[0] from chain_failure
    if chain_failure is not None:
        raise chain_failure


def _reports_written(timings: dict[str, float]) -> None:
    """Wait for the reports the build's worker is rendering (`pipelines.reports.background`:
    season reports, circuit pages): the time waited in `timings["season_reports_wait"]`."""
    background = background_reports.CURRENT.get()
    if background is None:
        return
    if not background.pending:
        background.finish()  # at once: a report that failed meanwhile fails the build here
        return
    started = time.perf_counter()
    background.finish()
    waited = time.perf_counter() - started
    timings["season_reports_wait"] = timings.get("season_reports_wait", 0.0) + waited


@cache
def _in_memory_job(name: str, without: tuple[str, ...]) -> Any:
    """The job `name` less the assets `without` (the PDFs, printed apart), ready to run
    in-process, made once a process. `execute_in_process` makes a new ephemeral job at each
    call, and Dagster computes that job's snapshot again for each run (a small build: about
    a tenth of its time went there, with ~5 runs a build)."""
    # Dagster's internals: imported with Dagster itself, on first need (`_import_dagster`)
    from dagster._core.definitions.job_base import InMemoryJob

    job = _definitions().resolve_job_def(name)
    selection = _without(job, *without) if without else None
    ephemeral = job.as_ephemeral_job(resource_defs={}, input_values={}, asset_selection=selection)
    return InMemoryJob(ephemeral)


def _execute(
    name: str,
    resource: WarehouseResource,
    instance: dg.DagsterInstance,
    partition_key: str | None = None,
    without: tuple[str, ...] = (),
) -> dg.ExecuteInProcessResult:
    """`execute_in_process` of the job `name` (less the assets `without`) for `partition_key`,
    on the job made once (`_in_memory_job`): the same run, its tags, its checks and events."""
    from dagster._core.execution.execute_in_process import (
        core_execute_in_process,
        merge_run_tags,
    )

    wrapped = _in_memory_job(name, without)
    run_config = _run_config()
    tags = merge_run_tags(wrapped.get_definition(), partition_key, None, None, instance, run_config)
    token = _RESOURCE.set(resource)
    try:
        return core_execute_in_process(
            run_config=run_config,
            job=wrapped,
            instance=instance,
            output_capturing_enabled=True,
            raise_on_error=True,
            run_tags=tags,
        )
    finally:
        _RESOURCE.reset(token)


def _add_steps(result: dg.ExecuteInProcessResult, timings: dict[str, float]) -> None:
    """Add each step's time (Dagster's own measure) to `timings["step:<step>"]`."""
    for event in result.get_step_success_events():
        data = event.event_specific_data
        duration = getattr(data, "duration_ms", None)
        if event.step_key is not None and duration is not None:
            key = f"step:{event.step_key}"
            timings[key] = timings.get(key, 0.0) + duration / 1000


def _summary(
    staged: Warehouse,
    warehouse_path: Path,
    reports: Path,
    quarantine: Path,
    built: dict[str, list[str]],
) -> BuildSummary:
    """What the build did, read from the staging warehouse before it is swapped in."""
    log = staged.table("ingest_log")
    rejected = log.filter(pl.col("status") == "rejected")
    noted = log.filter((pl.col("status") == "ingested") & pl.col("message").is_not_null())
    return BuildSummary(
        warehouse=warehouse_path,
        reports=reports,
        quarantine=quarantine,
        ingested=log.height - rejected.height,
        rejected=list(rejected.select("path", "message").iter_rows()),
        notes=noted.get_column("message").to_list(),
        row_counts=staged.row_counts(),
        seasons_built=built.get("season", []),
        years_built=built.get("year", []),
    )


def _say(emit: Printer) -> Printer:
    """A progress line of a step run outside Dagster, shown as the runs' ones are."""
    return lambda line: emit(f"    … {line.removeprefix(PROGRESS)}")


def _pdf_pending(reports: Path) -> list[tuple[Path, Path]]:
    """(page, PDF) of every report whose PDF is missing or older than its page."""
    return [
        (html, pdf)
        for html, pdf in printable_reports(reports)
        if not pdf.exists() or pdf.stat().st_mtime < html.stat().st_mtime
    ]


def _print_reports(
    reports: Path, emit: Printer, *, links_plain: bool = False
) -> tuple[list[str], str | None]:
    """Print every report whose PDF is missing or older than its page, with one Chromium;
    (the PDFs printed, the reason printing failed). Then every link to a PDF that is not
    its page's (printing failed) says so on the pages (`mark_pdf_links`), unless nothing
    is to print and `links_plain` (the pages are the last build's, whose pass left every
    link plain: the pass would read 20 season reports, 460 MB at federation scale, to
    change nothing)."""

    pending = _pdf_pending(reports)
    if not pending and links_plain:
        return [], None
    printed: list[Path] = []
    error: str | None = None
    if pending:
        emit(f"Impression de {len(pending)} rapport{'s' if len(pending) > 1 else ''} en PDF …")
        for html, _ in pending:
            restore_pdf_links(html)  # printed as it reads once its PDF is there
        started = time.perf_counter()
        try:
            printed = print_pdfs(pending, root=reports, progress=throttled(_say(emit), "PDF"))
        except Exception as err:  # the tables and pages are built: say why
            error = f"{type(err).__name__} : {err}"
            emit("  ✗ impression des PDF : échec")
        else:  # the counter stops before the last one: the step's own line ends it
            took = seconds_label(time.perf_counter() - started)
            emit(f"  ✓ PDF imprimés : {_count(len(printed))} / {_count(len(pending))} ({took})")
    mark_pdf_links(reports)
    return [p.relative_to(reports).as_posix() for p in printed], error


def _count(n: int) -> str:
    """`2 350`: a count as the build prints it (thin space between thousands)."""
    return f"{n:,d}".replace(",", "\u202f")


def print_summary(summary: BuildSummary, out: TextIO | None = None) -> None:
    """The closing summary, in French, for the statistician."""
    w = (out or sys.stdout).write
    w("\nRésumé\n")
    w(f"  exports lus : {_count(summary.ingested)}, refusés : {_count(len(summary.rejected))}\n")
    for _, message in summary.rejected:
        w(f"    ✗ {message}\n")
    for note in summary.notes:
        w(f"    ℹ {note}\n")
    for warning in summary.warnings:
        w(f"  ! {warning}\n")
    for label, keys in (
        ("saisons calculées", summary.seasons_built),
        ("années calculées", summary.years_built),
    ):
        if keys:
            w(f"  {label} : {', '.join(keys)}\n")
    w("  tables :\n")
    width = max((len(n) for n in summary.row_counts), default=0)
    for name, count in summary.row_counts.items():
        w(f"    {name:<{width}}  {count:>9,d} lignes\n".replace(",", "\u202f"))
    if summary.pdf_printed:
        w(f"  PDF imprimés : {_count(len(summary.pdf_printed))}\n")
    if summary.pdf_error:
        w(f"  ✗ impression des PDF impossible : {summary.pdf_error}\n")
    w(f"  terminé en {seconds_label(summary.seconds)}\n")
    w(f"  entrepôt : {summary.warehouse}\n")
    w(f"  rapports : {summary.reports / 'index.html'}\n")
    w(f"  quarantaine : {summary.quarantine}")
    w(" (vide)\n" if not summary.rejected else "\n")
