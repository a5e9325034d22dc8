"""The pipeline end to end: Dagster assets, the build command, the sensor and schedule."""

from __future__ import annotations

import hashlib
from pathlib import Path

import dagster as dg
import polars as pl
import pytest

from classement.cli import main
from pipelines.defs.ingest.assets import ingest
from pipelines.defs.jobs import nightly_build, raw_exports_sensor
from pipelines.ingest.raw import reason_note
from pipelines.instance import build_instance
from pipelines.resources import WarehouseResource
from tests.support import PLAYERS, all_tables, results_csv, tree_hashes

pytestmark = pytest.mark.slow

BASE_TABLES = ["ingest_log", "tournaments", "players", "results", "games", "rating_lists"]


def test_ingest_assets_materialise_into_a_temporary_warehouse(resource: WarehouseResource) -> None:
    instance = build_instance()
    result = dg.materialize([ingest], resources={"warehouse": resource}, instance=instance)
    assert result.success
    tables = all_tables(Path(resource.warehouse_path))
    for name in BASE_TABLES:
        assert tables[name].height > 0, name
    checks = {c.check_name: c.passed for c in result.get_asset_check_evaluations()}
    assert checks == {
        "no_rejected_files": True,
        "every_tournament_has_a_winner": True,
        "games_only_between_listed_players": True,
    }
    # the ingest registers the seasons it found as partitions
    assert instance.get_dynamic_partitions("season") == ["2023-2024"]


def _build(raw: Path, out: Path) -> int:
    return main(
        [
            "build",
            "--raw",
            str(raw),
            "--warehouse",
            str(out / "w.duckdb"),
            "--reports",
            str(out / "reports"),
            "--no-pdf",
        ]
    )


def test_build_is_idempotent_and_leaves_raw_files_alone(
    raw: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = tree_hashes(raw)
    assert _build(raw, tmp_path / "a") == 0
    out = capsys.readouterr().out
    assert "exports lus : 4, refusés : 0" in out
    assert "results" in out and "lignes" in out
    assert f"rapports : {tmp_path / 'a' / 'reports' / 'index.html'}" in out
    assert f"quarantaine : {tmp_path / 'a' / 'w.duckdb.quarantine'} (vide)" in out
    first = all_tables(tmp_path / "a" / "w.duckdb")
    assert _build(raw, tmp_path / "a") == 0
    second = all_tables(tmp_path / "a" / "w.duckdb")
    assert first.keys() == second.keys()
    for name in first:
        assert first[name].equals(second[name]), name
    assert tree_hashes(raw) == before


def test_a_re_exported_tournament_replaces_its_earlier_version(raw: Path, tmp_path: Path) -> None:
    assert _build(raw, tmp_path) == 0
    corrected = [(p, last, first, {3: 4, 4: 3}.get(rank, rank)) for p, last, first, rank in PLAYERS]
    corrected[3] = ("103", "Lefèvre-Roy", "Anne", 3)
    (raw / "2023-2024" / "C1.csv").write_text(results_csv("C1", corrected), encoding="utf-8")
    assert _build(raw, tmp_path) == 0
    tables = all_tables(tmp_path / "w.duckdb")
    c1 = tables["results"].filter(pl.col("tournament_id") == "C1").sort("player_id")
    assert c1["rank"].to_list() == [1, 2, 4, 3]
    assert (
        tables["players"].filter(pl.col("player_id") == "103")["last_name"].item() == "Lefèvre-Roy"
    )
    assert tables["results"].height == 6  # no leftover rows of the first version


def test_rejected_input_gives_exit_status_1_and_is_quarantined(
    raw: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (raw / "2023-2024" / "bad.csv").write_text("nom\tprenom\n", encoding="utf-8")
    assert _build(raw, tmp_path) == 1
    out = capsys.readouterr().out
    assert "refusés : 1" in out
    message = (
        "2023-2024/bad.csv, ligne 1 : la ligne d'en-tête est séparée par des tabulations : "
        "séparez les colonnes par des virgules (,) ou des points-virgules (;)"
    )
    assert f"{message}\n" in out
    quarantined = tmp_path / "w.duckdb.quarantine" / "2023-2024" / "bad.csv"
    assert quarantined.read_text(encoding="utf-8") == "nom\tprenom\n"
    reason = quarantined.with_name("bad.csv.reason.txt").read_text(encoding="utf-8")
    assert reason == reason_note(message)
    assert (raw / "2023-2024" / "bad.csv").exists()  # the raw file stays where it was
    log = all_tables(tmp_path / "w.duckdb")["ingest_log"]
    rejected = log.filter(pl.col("status") == "rejected")
    assert rejected.select("path", "message").rows() == [("2023-2024/bad.csv", message)]


def test_a_failed_build_leaves_the_previous_warehouse_intact(
    raw: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _build(raw, tmp_path) == 0
    warehouse = tmp_path / "w.duckdb"
    before = hashlib.sha256(warehouse.read_bytes()).hexdigest()
    pages = tree_hashes(tmp_path / "reports")
    # A new tournament, and a rule that fails on it after the ingest and the series.
    (raw / "2023-2024" / "C7.csv").write_text(
        results_csv("C7", PLAYERS, date="2024-03-01"), encoding="utf-8"
    )
    from transforms import cote  # the season plan computes the cote through this module

    def fails(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the cote of tournament C7 cannot be computed")

    monkeypatch.setattr(cote, "cote_history", fails)
    assert _build(raw, tmp_path) == 2
    err = capsys.readouterr().err
    assert "La construction a échoué ; l'entrepôt et les rapports précédents sont inchangés" in err
    assert "C7" in err
    assert hashlib.sha256(warehouse.read_bytes()).hexdigest() == before
    assert tree_hashes(tmp_path / "reports") == pages
    leftovers = {p.name for p in tmp_path.iterdir()}
    # The ingest cache keeps each file's reading (never the warehouse's content).
    assert leftovers == {"raw", "w.duckdb", "w.duckdb.lock", "w.duckdb.cache", "reports"}


def test_sensor_requests_a_run_when_an_export_appears_or_changes(
    resource: WarehouseResource, raw: Path
) -> None:
    with dg.build_sensor_context(resources={"warehouse": resource}) as context:
        first = raw_exports_sensor(context)
    assert isinstance(first, dg.SensorResult)
    assert len(first.run_requests) == 1
    cursor = first.cursor
    assert first.run_requests[0].run_key == cursor

    with dg.build_sensor_context(cursor=cursor, resources={"warehouse": resource}) as context:
        assert isinstance(raw_exports_sensor(context), dg.SkipReason)

    (raw / "2023-2024" / "C1.csv").write_text(results_csv("C1", PLAYERS[:3]), encoding="utf-8")
    with dg.build_sensor_context(cursor=cursor, resources={"warehouse": resource}) as context:
        changed = raw_exports_sensor(context)
    assert isinstance(changed, dg.SensorResult)
    assert changed.cursor != cursor
    assert changed.run_requests[0].run_key == changed.cursor


def test_nightly_schedule_runs_the_full_build() -> None:
    assert nightly_build.cron_schedule == "0 2 * * *"
    assert nightly_build.job_name == "ingest_exports"
    with dg.build_schedule_context() as context:
        requests = list(nightly_build.evaluate_tick(context).run_requests or [])
    assert len(requests) == 1


def test_definitions_load() -> None:
    from pipelines.definitions import defs

    defs.validate_loadable(defs)
    jobs = {job.name for job in defs.resolve_all_job_defs()}
    assert {"ingest_exports", "build_season", "build_site"} <= jobs
    assert defs.resolve_sensor_def("raw_exports_sensor")
    assert defs.resolve_schedule_def("nightly_build")


def test_the_build_runs_the_objects_of_the_code_location() -> None:
    """`classement build` loads the defs modules without the component tree
    (`pipelines.build.code_location_objects`): the same assets, checks, jobs, schedules and
    sensors as the code location `dg` and `dagster dev` load."""
    from pipelines.build import code_location_objects
    from pipelines.definitions import defs

    def names(found: dg.Definitions) -> dict[str, list[str]]:
        return {
            "assets": sorted(k.to_user_string() for a in found.assets or [] for k in a.keys),
            "checks": sorted(str(k) for c in found.asset_checks or [] for k in c.check_keys),
            "jobs": sorted(job.name for job in found.jobs or []),
            "schedules": sorted(s.name for s in found.schedules or []),
            "sensors": sorted(s.name for s in found.sensors or []),
        }

    ours, theirs = names(code_location_objects()), names(defs)
    assert ours == theirs
    assert len(ours["assets"]) >= 50 and len(ours["jobs"]) >= 5


def test_instance_settings_limit_the_warehouse_pool_to_one(tmp_path: Path) -> None:
    from classement.commands.dev import dagster_home

    root = Path(__file__).resolve().parent.parent
    fake_root = tmp_path / "project"
    fake_root.mkdir()
    (fake_root / "dagster.yaml").write_bytes((root / "dagster.yaml").read_bytes())
    home = dagster_home(fake_root)
    instance = dg.DagsterInstance.from_config(str(home))
    try:
        assert instance.get_settings("telemetry") == {"enabled": False}
        pools = instance.get_concurrency_config().pool_config
        assert pools.default_pool_limit == 1
        assert "location_name: classement" in (home / "workspace.yaml").read_text()
    finally:
        instance.dispose()


def test_every_asset_that_touches_the_warehouse_is_in_its_pool() -> None:
    """DuckDB allows one writer: every step using the warehouse waits for the pool."""
    from pipelines.definitions import defs
    from pipelines.resources import WAREHOUSE_POOL

    graph = defs.resolve_asset_graph()
    steps = graph.assets_defs  # asset checks are among them
    users = [s for s in steps if "warehouse" in s.required_resource_keys]
    assert len(users) >= 10
    for step in users:
        for op in step.node_def.iterate_op_defs():
            assert op.pool == WAREHOUSE_POOL, op.name


def test_the_season_record_waits_for_every_season_asset() -> None:
    from pipelines.definitions import defs
    from pipelines.partitions import SEASON_GROUPS

    graph = defs.resolve_asset_graph()
    record = dg.AssetKey("season_builds")
    upstream = graph.get(record).parent_keys
    for key in graph.get_all_asset_keys():
        node = graph.get(key)
        if node.group_name in SEASON_GROUPS and key != record:
            assert key in upstream, key


def test_season_sensor_requests_stale_seasons_in_order(resource: WarehouseResource) -> None:
    from pipelines.defs.jobs import stale_season_sensor
    from pipelines.reports.layout import year_index_path
    from pipelines.staleness import YEARS, record_build, record_season_build

    instance = build_instance()
    with dg.build_sensor_context(instance=instance, resources={"warehouse": resource}) as ctx:
        assert isinstance(stale_season_sensor(ctx), dg.SkipReason)  # no warehouse yet
    assert dg.materialize([ingest], resources={"warehouse": resource}, instance=instance).success
    with dg.build_sensor_context(instance=instance, resources={"warehouse": resource}) as ctx:
        request = stale_season_sensor(ctx)
    assert isinstance(request, dg.RunRequest)
    assert request.partition_key == "2023-2024"
    record_season_build(resource.warehouse, "2023-2024")
    Path(resource.reports_dir, "2023-2024").mkdir(parents=True)
    Path(resource.reports_dir, "2023-2024", "index.html").write_text("", encoding="utf-8")
    with dg.build_sensor_context(instance=instance, resources={"warehouse": resource}) as ctx:
        year = stale_season_sensor(ctx)  # every season is built: the calendar years' turn
    assert isinstance(year, dg.RunRequest)
    assert (year.job_name, year.partition_key) == ("build_year", "2024")
    record_build(resource.warehouse, YEARS, "2024")
    year_index_path(Path(resource.reports_dir), "2024").parent.mkdir(parents=True)
    year_index_path(Path(resource.reports_dir), "2024").write_text("", encoding="utf-8")
    with dg.build_sensor_context(instance=instance, resources={"warehouse": resource}) as ctx:
        site = stale_season_sensor(ctx)  # every season and year is built: the site's turn
    assert isinstance(site, dg.RunRequest)
    assert site.job_name == "build_site"


def test_dg_check_defs_loads_the_code_location() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    dg_cli = Path(sys.executable).with_name("dg")
    done = subprocess.run(
        [str(dg_cli), "check", "defs"], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "All definitions loaded successfully" in done.stdout + done.stderr
