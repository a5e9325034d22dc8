"""`classement dev` on a fresh clone answers at its first start, its schedule and sensors
RUNNING and every daemon healthy: the instance's storage is created once, before the
webserver and the daemon start (both creating it at once killed the first start with
`table alembic_version already exists`). Twice, each time in a fresh home."""

from __future__ import annotations

from pathlib import Path

import pytest

from classement.commands.dev import POSTGRES_ENV, dagster_home, dagster_url, without_password
from pipelines.paths import PROJECT_ROOT
from tests.dev_session import running_dev, wait_for

pytestmark = pytest.mark.slow

EXPECTED = {"nightly_build", "raw_exports_sensor", "stale_season_sensor"}


@pytest.mark.parametrize("attempt", ["first", "second"])
def test_dev_starts_cleanly_in_a_fresh_home(tmp_path: Path, attempt: str) -> None:
    home = tmp_path / f"home-{attempt}"
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
