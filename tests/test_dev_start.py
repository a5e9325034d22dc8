"""`classement dev` on a fresh clone answers at its first start, its schedule and sensors
RUNNING and every daemon healthy: the instance's storage is created once, before the
webserver and the daemon start (both creating it at once killed the first start with
`table alembic_version already exists`).

The real start runs once, in a fresh home (~20 CPU-s on the 2-core machine: the command,
the webserver, the daemon and their code servers each import Dagster). It ran twice until
2 December 2026, a second chance at the race; what excludes the race, every storage
created and migrated before either process is started, is now checked on every run
without starting them (`test_the_storage_is_migrated_before_the_webserver_and_the_daemon_start`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from classement.cli import main
from classement.commands.dev import POSTGRES_ENV, dagster_home, dagster_url, without_password
from pipelines.paths import PROJECT_ROOT
from tests.dev_session import running_dev, wait_for

pytestmark = pytest.mark.slow

EXPECTED = {"nightly_build", "raw_exports_sensor", "stale_season_sensor"}


def test_dev_starts_cleanly_in_a_fresh_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert not home.exists()
    env = {
        "CLASSEMENT_RAW_DIR": str(tmp_path / "raw"),  # empty: the sensor finds nothing
        "CLASSEMENT_WAREHOUSE": str(tmp_path / "w.duckdb"),
        "CLASSEMENT_REPORTS_DIR": str(tmp_path / "reports"),
        POSTGRES_ENV: "",  # SQLite, whatever the caller's environment says
    }
    (tmp_path / "raw").mkdir()
    with running_dev(home, env) as dev:

        def ready() -> bool:
            statuses, daemons = dev.states()
            return statuses.keys() >= EXPECTED and bool(daemons) and all(daemons.values())

        wait_for(ready, 120, "the code location loaded and every daemon healthy", dev)
        statuses, daemons = dev.states()
        assert {name: statuses[name] for name in EXPECTED} == dict.fromkeys(EXPECTED, "RUNNING")
        assert {"SCHEDULER", "SENSOR", "QUEUED_RUN_COORDINATOR"} <= daemons.keys()
    output = dev.output()
    assert "alembic_version" not in output and "OperationalError" not in output, output
    assert "SQLite" in output and "PostgreSQL" not in output
    # the SQLite storage, in the home
    assert (home / "history" / "runs.db").exists()
    assert (home / "schedules" / "schedules.db").exists()
    assert "storage:" not in (home / "dagster.yaml").read_text(encoding="utf-8")


def _tables(database: Path) -> set[str]:
    connection = sqlite3.connect(database)
    try:
        rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {name for (name,) in rows}
    finally:
        connection.close()


def _revision(database: Path) -> str:
    connection = sqlite3.connect(database)
    try:
        return str(connection.execute("SELECT version_num FROM alembic_version").fetchone()[0])
    finally:
        connection.close()


def test_the_storage_is_migrated_before_the_webserver_and_the_daemon_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the two processes find when they start (`supervise` replaced: nothing is
    started): every SQLite storage of the fresh home already created and migrated to one
    revision, so neither creates a table (the race of the first start)."""
    from classement.commands import dev

    home = tmp_path / "home"
    found: dict[str, object] = {}

    def started(argv: list[list[str]], cwd: Path, env: dict[str, str]) -> int:
        databases = {
            name: home / name
            for name in ("history/runs.db", "history/runs/index.db", "schedules/schedules.db")
        }
        found["argv"], found["cwd"], found["home"] = argv, cwd, env["DAGSTER_HOME"]
        found["tables"] = {
            name: _tables(path) if path.exists() else set() for name, path in databases.items()
        }
        found["revisions"] = {
            name: _revision(path)
            for name, path in databases.items()
            if "alembic_version" in found["tables"][name]  # type: ignore[index]
        }
        found["postgres"] = env.get(POSTGRES_ENV)
        return 0

    monkeypatch.setenv(POSTGRES_ENV, "")  # SQLite, whatever the caller's environment says
    monkeypatch.setattr(dev, "supervise", started)
    assert main(["dev", "--home", str(home), "--port", "3999"]) == 0
    assert "SQLite" in capsys.readouterr().out
    assert found["home"] == str(home) and found["cwd"] == home
    assert found["postgres"] is None
    tables = found["tables"]
    assert isinstance(tables, dict)
    assert {"runs", "alembic_version"} <= tables["history/runs.db"]
    assert {"event_logs", "alembic_version"} <= tables["history/runs/index.db"]
    assert {"instigators", "job_ticks", "alembic_version"} <= tables["schedules/schedules.db"]
    revisions = found["revisions"]
    assert isinstance(revisions, dict) and len(revisions) == 3
    assert len(set(revisions.values())) == 1  # one revision: nothing left to migrate
    argv = found["argv"]
    assert isinstance(argv, list)
    assert [command[1:3] for command in argv] == [
        ["-m", "dagster_webserver"],
        ["-m", "dagster._daemon"],
    ]
    assert all(str(home / "workspace.yaml") in command for command in argv)


def test_the_home_of_a_postgres_instance_reads_its_url_from_the_environment(
    tmp_path: Path,
) -> None:
    home = dagster_home(home=tmp_path / "home", postgres=True)
    text = (home / "dagster.yaml").read_text(encoding="utf-8")
    assert text.startswith((PROJECT_ROOT / "dagster.yaml").read_text(encoding="utf-8"))
    assert f"postgres_url:\n      env: {POSTGRES_ENV}\n" in text
    assert "postgresql://" not in text  # no URL, no password, in the file
    # back to SQLite: the storage section goes
    home = dagster_home(home=tmp_path / "home")
    assert "storage:" not in (home / "dagster.yaml").read_text(encoding="utf-8")


def test_a_printed_url_hides_its_password() -> None:
    url = "postgresql://classement:s3cr%40t@db.example:5432/classement_dagster"
    assert without_password(url) == "postgresql://classement:***@db.example:5432/classement_dagster"
    assert without_password("postgresql://db.example/x") == "postgresql://db.example/x"


def test_dagster_opens_a_libpq_url_with_the_driver_dagster_postgres_installs() -> None:
    libpq = "postgresql://classement:x@db.example:5432/classement_dagster"
    assert (
        dagster_url(libpq)
        == "postgresql+psycopg2://classement:x@db.example:5432/classement_dagster"
    )
    assert dagster_url("postgres://u@h/d") == "postgresql+psycopg2://u@h/d"
    assert dagster_url("postgresql+psycopg2://u@h/d") == "postgresql+psycopg2://u@h/d"
