"""Shared fixtures: small raw folders written by hand, temporary warehouses, and the whole
builds several test files read (each made once per test run, even on several workers).

Dagster is heavy and the rule tests must not load it: this module imports nothing that
does at module level; the fixtures that need it import it when they run. The helpers
themselves are in `tests/support.py` (Dagster-free) and `tests/builds.py` (Dagster)."""

from __future__ import annotations

import gc
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from filelock import FileLock

from pipelines.collector import GC_THRESHOLDS
from tests.own_warnings import (  # noqa: F401 (hooks: a project warning fails its test)
    pytest_runtest_call,
    pytest_runtest_setup,
    pytest_runtest_teardown,
)
from tests.schedule import (  # noqa: F401 (hook: CLASSEMENT_RECORD_COSTS measures each test)
    load_costs,
    ordered,
    pytest_runtest_protocol,
)
from tests.support import GENERATED, SAMPLE, SEASON, write_evil_raw, write_raw

if TYPE_CHECKING:
    from pipelines.resources import WarehouseResource


# ---------------------------------------------------------------------------- workers
# make test (`pytest -n 3 --dist loadgroup`) spreads the tests one by one over the
# workers, except those of these modules: their module fixtures build something (a
# warehouse, a site, a browser), so each of them runs whole on one worker. Our scheduler
# does the grouping: pytest-xdist's own `xdist_group` marks are silently ignored under
# pytest 9.2 (pytest-xdist issue 1386).
GROUPED_MODULES = {
    "test_backtest_browser",
    "test_bench_naive",
    "test_circuits_pipeline",
    "test_classique_assets",
    "test_generate",
    "test_mort_subite_pipeline",
    "test_national_pipeline",
    "test_postgres_instance",
    "test_reference_dir",
    "test_reports_browser",
    "test_series_assets",
    "test_whatif_browser",
}


def unit_of_work(nodeid: str) -> str:
    """What one worker runs whole: a grouped module, else the test alone."""
    module = nodeid.split("::", 1)[0]
    return module if Path(module).stem in GROUPED_MODULES else nodeid


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ModuleGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of_work(nodeid)

    # the units are handed out in the order of the collection (tests/schedule.py), not
    # re-sorted by their number of tests
    config.option.loadscopereorder = False
    return ModuleGroups(config, log)


def pytest_configure(config: pytest.Config) -> None:
    """A run on several workers: before the workers start, the controller compiles Numba's
    loops (`pipelines/compiled.py`: ~70 s of a fresh clone's run), the project's modules and the
    rewritten test modules once, so that neither the workers nor the commands they run
    compile them again (`tests/prepare.py`)."""
    # Every process of the run (the controller, each worker) collects cycles as a build does
    # (`pipelines.collector`): a worker holds pytest's, Dagster's and Hypothesis's
    # long-lived objects, walked again by every older-generation collection. Measured (the
    # suite without the slow tests, 3 workers, 6 December 2026): 179 → 161 user CPU-s.
    gc.set_threshold(*GC_THRESHOLDS)
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    # The workers share the cores: each runs Polars, and so DuckDB (`pipelines.warehouse`),
    # on one thread, as do the commands the tests start (they inherit it). Measured: a
    # build of `write_raw`'s folder 1,64 → 1,43 CPU-s (6 December 2026)
    os.environ.setdefault("POLARS_MAX_THREADS", "1")
    from tests.prepare import prepare

    prepare(config)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under `--dist loadgroup` (the workers and their controller alike), the longest units
    of work first (`tests/schedule.py`)."""
    if config.getvalue("dist") == "loadgroup" or os.environ.get("PYTEST_XDIST_WORKER"):
        items[:] = ordered(items, unit_of_work, load_costs())


@pytest.fixture(autouse=True, scope="session")
def _reproducible_dates() -> None:
    """Reports state when they were generated: the tests fix that moment
    (`SOURCE_DATE_EPOCH`, 2025-01-15 12:00 UTC), so the same inputs give the same bytes."""
    os.environ["SOURCE_DATE_EPOCH"] = "1736942400"


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    """A valid raw folder: one classique tournament with games, one duplicate, one list."""
    return write_raw(tmp_path / "raw")


@pytest.fixture
def resource(tmp_path: Path, raw: Path) -> WarehouseResource:
    from pipelines.resources import WarehouseResource  # Dagster: only the tests that use it

    return WarehouseResource(
        raw_dir=str(raw),
        warehouse_path=str(tmp_path / "out" / "warehouse.duckdb"),
        reports_dir=str(tmp_path / "out" / "reports"),
    )


# ---------------------------------------------------------------------------- builds
# Whole builds are the slow part of the suite: each is made once per test run and shared.


def shared_folder(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder `name`, filled by `make` once per test run. Under pytest-xdist every
    worker has its own base temporary folder; their common parent (this run's) holds the
    shared one, and a file lock makes the other workers wait for it and reuse it. Tests
    only read it (a test that changes a build works on its own copy)."""
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    root = base / f"shared-{name}"
    with FileLock(str(root) + ".lock"):
        done = root / ".complete"
        if not done.exists():
            shutil.rmtree(root, ignore_errors=True)  # what a failed attempt left
            root.mkdir(parents=True)
            make(root)
            done.touch()
    return root


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of a build of the bundled sample (`w.duckdb`, `reports/` with the PDFs,
    `build.txt` the lines the build printed), built once per run and shared by the report,
    browser, PDF and notebook tests."""
    if not any(SAMPLE.glob("*/*.csv")):
        pytest.fail("data/sample/ holds no export")

    def make(root: Path) -> None:
        from pipelines.build import run_build  # Dagster: only when a test needs the build

        lines: list[str] = []
        run_build(SAMPLE, root / "w.duckdb", root / "reports", emit=lines.append)
        (root / "build.txt").write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")

    return shared_folder(tmp_path_factory, "sample-site", make)


@pytest.fixture(scope="session")
def evil_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of a build of `write_evil_raw` (no PDF), built once per run."""

    def make(root: Path) -> None:
        from pipelines.build import run_build  # Dagster: only when a test needs the build

        raw = write_evil_raw(root / "raw")
        summary = run_build(
            raw, root / "w.duckdb", root / "reports", emit=lambda _: None, pdf=False
        )
        assert summary.rejected == [], summary.rejected
        assert summary.seasons_built == [SEASON]

    return shared_folder(tmp_path_factory, "evil-site", make)


@pytest.fixture(scope="session")
def whatif_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of a build (no PDF) of the hand-made federation of `tests/whatif_world.py`
    under the parameters of data/reference (`raw/`, `w.duckdb`, `reports/`), built once per
    run for the what-if tests and the what-if browser tests."""

    def make(root: Path) -> None:
        from pipelines.build import run_build  # Dagster: only when a test needs the build
        from tests.whatif_world import write_world

        raw = write_world(root / "raw")
        summary = run_build(
            raw, root / "w.duckdb", root / "reports", emit=lambda _: None, pdf=False
        )
        assert summary.rejected == [], summary.rejected

    return shared_folder(tmp_path_factory, "whatif-world", make)


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder written by the simulator (`GenerateConfig(**GENERATED)`: seed 7, two seasons
    from 2021, 300 players), generated once per run (~3,7 CPU-s; 6-7 on the 2-core
    machine of 2 December 2026) for test_generate, test_circuits_pipeline,
    test_game_sheets_pipeline and test_mort_subite_pipeline. Only read."""

    def make(root: Path) -> None:
        from simulator import GenerateConfig, generate

        generate(root / "raw", GenerateConfig(**GENERATED))

    return shared_folder(tmp_path_factory, "generated", make) / "raw"


@pytest.fixture(scope="session")
def generated_first_season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`generated`'s configuration for its first season alone (`seasons=1`), generated
    once per run (~4 CPU-s on the 2-core machine) for test_generate (a season does not
    depend on the seasons after it) and test_mort_subite_pipeline. Only read."""

    def make(root: Path) -> None:
        from simulator import GenerateConfig, generate

        generate(root / "raw", GenerateConfig(**{**GENERATED, "seasons": 1}))

    return shared_folder(tmp_path_factory, "generated-first-season", make) / "raw"


@pytest.fixture(scope="session")
def raw_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`write_raw`'s folder (`raw/`) and its build without PDF (`out/`: `w.duckdb`,
    `reports/`), made once per run. Only read: a test that builds on it copies it (its
    build state then describes other inodes: the copy's first build reads every file
    again). A build's tables and reports do not depend on where its folders are
    (`tests.support.snapshot` of two builds of `write_raw` in two places are equal), so
    `snapshot(raw_site / "out")` is the fresh build of an unchanged `write_raw` folder."""

    def make(root: Path) -> None:
        from tests.builds import build  # Dagster: only when a test needs the build

        summary = build(write_raw(root / "raw"), root / "out")
        assert summary.rejected == [], summary.rejected

    return shared_folder(tmp_path_factory, "raw-site", make)
