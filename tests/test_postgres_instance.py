"""The shared deployment of docs/scaling.md, run: `classement dev --postgres URL` on a real
PostgreSQL server (a throwaway cluster, `tests/postgres_cluster.py`), set up with the SQL,
the environment and the backup commands that page gives (read from it: the page is what
ran). The nightly job launched through the instance, its run and materialisations read
back from PostgreSQL, the raw exports sensor's cursor there before and after a restart of
the daemon, the two runs of the pool `warehouse` queued one after the other.

One `classement dev` session (webserver, daemon, two runs), then a restart, shared by
the tests of this module (a module fixture: the module runs whole on one worker,
`GROUPED_MODULES` in conftest.py); no build of tests/builds.py fits, the instance is the
thing under test."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg2
import pytest

from classement.commands.dev import POSTGRES_ENV, dagster_url, instance_yaml
from pipelines.ingest.raw import fingerprint, folder_digest
from pipelines.paths import PROJECT_ROOT
from tests.dev_session import Dev, running_dev, wait_for
from tests.postgres_cluster import Cluster, NoPostgres, free_port, throwaway_cluster
from tests.support import write_raw

pytestmark = pytest.mark.slow

DOC = PROJECT_ROOT / "docs" / "scaling.md"
RUNS_SECONDS = 300.0  # a deadline for two tiny runs on a loaded machine, not a measurement
INGEST = "ingest_exports"


def documented(name: str) -> str:
    """The fenced block after `<!-- test_postgres_instance: NAME -->` in docs/scaling.md."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(
        rf"<!-- test_postgres_instance: {re.escape(name)} -->\n```[a-z]*\n(.*?)```", text, re.S
    )
    assert found, f"docs/scaling.md: no block {name}"
    return found.group(1)


def documented_environment() -> dict[str, str]:
    pairs = (line.split("=", 1) for line in documented("environment").splitlines() if line)
    return {key: value for key, value in pairs}


def on_cluster(url: str, cluster: Cluster, database: str | None = None) -> str:
    """The documented URL pointed at the throwaway server (its role and password kept)."""
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)[0] + f"@127.0.0.1:{cluster.port}"
    path = f"/{database}" if database else parts.path
    return parts._replace(netloc=netloc, path=path).geturl()


def query(url: str, sql: str, *params: object) -> list[tuple[Any, ...]]:
    connection = psycopg2.connect(url)
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    finally:
        connection.close()


def as_superuser(cluster: Cluster, sql: str) -> None:
    connection = psycopg2.connect(cluster.superuser_dsn())
    connection.autocommit = True  # CREATE DATABASE refuses a transaction
    try:
        with connection.cursor() as cursor:
            for statement in filter(str.strip, sql.split(";")):
                cursor.execute(statement)
    finally:
        connection.close()


LAUNCH = """
mutation Launch($params: ExecutionParams!) {
  launchRun(executionParams: $params) {
    __typename
    ... on LaunchRunSuccess { run { runId } }
    ... on PythonError { message }
  }
}
"""
SENSORS = """
{
  repositoriesOrError {
    ... on RepositoryConnection {
      nodes {
        name
        sensors {
          name
          sensorState { id status typeSpecificData { ... on SensorData { lastCursor } } }
        }
      }
    }
  }
}
"""
STOP_SENSOR = """
mutation Stop($id: String!) {
  stopSensor(id: $id) { __typename ... on StopSensorMutationResult { instigationState { status } } }
}
"""


def sensors(dev: Dev) -> tuple[str, dict[str, dict[str, Any]]]:
    """The repository's name and each sensor's state, as the UI shows them."""
    [repository] = dev.graphql(SENSORS)["repositoriesOrError"]["nodes"]
    return repository["name"], {s["name"]: s["sensorState"] for s in repository["sensors"]}


def stopped_for_good(dev: Dev, sensor_id: str) -> bool:
    """The season sensor shows as stopped; if not, the stop is sent again. A stop sent while
    the daemon was evaluating that sensor does not hold: at the end of its tick the daemon
    writes back the state it read at the tick's start, status included
    (`dagster/_daemon/sensor.py`, `SensorLaunchContext.update_state`), so the sensor runs
    again. Called well after the first stop, when any tick in flight then has ended; a
    stopped sensor is not evaluated again, so once stored its state stays."""
    _, states = sensors(dev)
    if states["stale_season_sensor"]["status"] == "STOPPED":
        return True
    dev.graphql(STOP_SENSOR, {"id": sensor_id})
    time.sleep(5)  # longer than one evaluation of the sensor: let a tick in flight end
    return False


def loaded(dev: Dev) -> bool:
    return bool(dev.graphql(SENSORS)["repositoriesOrError"].get("nodes"))


def ready(dev: Dev) -> bool:
    statuses, daemons = dev.states()
    return "raw_exports_sensor" in statuses and bool(daemons) and all(daemons.values())


@dataclass
class Deployment:
    cluster: Cluster
    url: str
    root: Path  # what /srv/classement stands for
    home: Path
    raw: Path
    nightly_run: str  # the run launched through the UI's API
    sensor_run: str  # the run the raw exports sensor requested
    cursor_before: str  # the sensor's cursor in PostgreSQL before the restart
    ticks_before_restart: list[str]  # the raw exports sensor's ticks before the restart
    after_restart: dict[str, dict[str, Any]]  # the sensors as the restarted UI shows them
    outputs: list[str]


def _runs_done(url: str, count: int) -> list[tuple[Any, ...]] | None:
    rows = query(url, "SELECT run_id, status FROM runs WHERE pipeline_name = %s", INGEST)
    done = [r for r in rows if r[1] in ("SUCCESS", "FAILURE", "CANCELED")]
    return rows if len(rows) >= count and len(done) == len(rows) else None


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    try:
        cluster_context = throwaway_cluster()
        cluster = cluster_context.__enter__()
    except NoPostgres as error:
        pytest.fail(f"no PostgreSQL server for the shared instance's test: {error}")
    try:
        as_superuser(cluster, documented("roles"))
        root = tmp_path_factory.mktemp("srv-classement")
        documented_env = documented_environment()
        env = {k: v.replace("/srv/classement", str(root)) for k, v in documented_env.items()}
        url = on_cluster(env.pop(POSTGRES_ENV), cluster)
        raw = write_raw(Path(env["CLASSEMENT_RAW_DIR"]))
        home = root / "dagster"
        outputs = []
        env[POSTGRES_ENV] = ""  # the first start: the URL from --postgres
        with running_dev(home, env, "--postgres", url) as dev:
            wait_for(lambda: loaded(dev), 180, "the code location loaded", dev)
            repository, states = sensors(dev)
            # the season sensor stopped from the UI (its state in PostgreSQL): no build
            # of a season joins the two ingest runs
            stopped = dev.graphql(STOP_SENSOR, {"id": states["stale_season_sensor"]["id"]})
            assert stopped["stopSensor"]["instigationState"]["status"] == "STOPPED"
            params = {
                "selector": {
                    "repositoryLocationName": "classement",
                    "repositoryName": repository,
                    "jobName": INGEST,
                },
                "runConfigData": {},
                "executionMetadata": {
                    "tags": [{"key": "dagster/schedule_name", "value": "nightly_build"}]
                },
            }
            launched = dev.graphql(LAUNCH, {"params": params})["launchRun"]
            assert launched["__typename"] == "LaunchRunSuccess", launched
            nightly_run = launched["run"]["runId"]
            wait_for(lambda: ready(dev), 180, "every daemon healthy", dev)
            wait_for(lambda: _runs_done(url, 2), RUNS_SECONDS, "two finished ingest runs", dev)
            [(sensor_run,)] = query(
                url,
                "SELECT run_id FROM run_tags WHERE key = 'dagster/sensor_name' AND value = %s",
                "raw_exports_sensor",
            )
            cursor_before = _stored_cursor(url)
            season_sensor = states["stale_season_sensor"]["id"]
            wait_for(lambda: stopped_for_good(dev, season_sensor), 60, "the stop held", dev)
        outputs.append(dev.output())
        ticks_before_restart = _ticks(url)
        _forget_last_tick(url)
        env[POSTGRES_ENV] = url  # the restart: the URL from the environment
        with running_dev(home, env) as dev:
            wait_for(lambda: ready(dev), 180, "every daemon after the restart", dev)
            # the restarted daemon's first tick of the sensor, from the stored cursor
            wait_for(
                lambda: len(_ticks(url)) > len(ticks_before_restart),
                180,
                "the sensor's tick after the restart",
                dev,
            )
            _, after_restart = sensors(dev)
        outputs.append(dev.output())
        yield Deployment(
            cluster,
            url,
            root,
            home,
            raw,
            nightly_run,
            sensor_run,
            cursor_before,
            ticks_before_restart,
            after_restart,
            outputs,
        )
    finally:
        cluster_context.__exit__(None, None, None)


def _sensor_state(url: str, name: str = "raw_exports_sensor") -> Any:
    """The sensor's InstigatorState, as the daemon stored it in PostgreSQL."""
    from dagster._core.scheduler.instigation import InstigatorState
    from dagster._serdes import deserialize_value

    states = [
        deserialize_value(body, InstigatorState)
        for (body,) in query(url, "SELECT instigator_body FROM instigators")
    ]
    [state] = [s for s in states if s.name == name]
    return state


def _forget_last_tick(url: str) -> None:
    """As if the daemon restarted long after the sensor's last tick: the sensor waits 60 s
    between ticks (`minimum_interval_seconds`), counted from the tick times stored with its
    cursor; without them, the restarted daemon evaluates it at once (the cursor kept)."""
    import dagster as dg
    from dagster._core.scheduler.instigation import SensorInstigatorData

    state = _sensor_state(url)
    data = state.instigator_data
    assert isinstance(data, SensorInstigatorData) and data.cursor
    kept = SensorInstigatorData(
        last_run_key=data.last_run_key,
        min_interval=data.min_interval,
        cursor=data.cursor,
        last_sensor_start_timestamp=data.last_sensor_start_timestamp,
        sensor_type=data.sensor_type,
    )
    storage = {"storage": {"postgres": {"postgres_url": dagster_url(url)}}}
    with dg.instance_for_test(overrides=storage) as instance:
        instance.update_instigator_state(state.with_data(kept))
    assert _stored_cursor(url) == data.cursor


def _ticks(url: str) -> list[str]:
    """The statuses of the raw exports sensor's finished ticks, in order."""
    return [
        status
        for (status,) in query(
            url,
            "SELECT status FROM job_ticks WHERE selector_id = %s AND status <> 'STARTED' "
            "ORDER BY id",
            _sensor_state(url).selector_id,
        )
    ]


def _stored_cursor(url: str) -> str:
    cursor = _sensor_state(url).instigator_data.cursor
    assert isinstance(cursor, str)
    return cursor


def test_the_nightly_job_ran_through_the_instance_and_postgres_holds_it(
    deployment: Deployment,
) -> None:
    url = deployment.url
    statuses = dict(query(url, "SELECT run_id, status FROM runs WHERE pipeline_name = %s", INGEST))
    assert statuses == {deployment.nightly_run: "SUCCESS", deployment.sensor_run: "SUCCESS"}
    materialised = {
        key
        for (key,) in query(
            url,
            "SELECT DISTINCT asset_key FROM event_logs "
            "WHERE run_id = %s AND dagster_event_type = 'ASSET_MATERIALIZATION'",
            deployment.nightly_run,
        )
    }
    for asset in ("players", "results", "tournaments", "games", "season_fingerprints"):
        assert f'["{asset}"]' in materialised, materialised
    # the same materialisations, read through a Dagster instance on that database
    import dagster as dg

    with dg.instance_for_test(
        overrides={"storage": {"postgres": {"postgres_url": dagster_url(url)}}}
    ) as instance:
        latest = instance.get_latest_materialization_event(dg.AssetKey("players"))
        assert latest is not None and latest.run_id in statuses
    # the run's events are in PostgreSQL, not in SQLite files of the home
    assert not (deployment.home / "history").exists()
    assert not (deployment.home / "schedules").exists()
    tables = {t for (t,) in query(url, "SELECT tablename FROM pg_tables")}
    assert {"runs", "event_logs", "instigators", "job_ticks", "concurrency_limits"} <= tables
    # and the run wrote the warehouse the documented environment names
    assert (deployment.root / "data" / "warehouse.duckdb").exists()
    first_start = deployment.outputs[0]
    assert "PostgreSQL postgresql://classement:***@127.0.0.1" in first_start
    assert "remplacez-moi" not in first_start


def test_the_sensor_cursor_is_in_postgres_and_survives_a_restart_of_the_daemon(
    deployment: Deployment,
) -> None:
    digest = folder_digest(fingerprint(deployment.raw))
    assert deployment.cursor_before == digest
    assert _stored_cursor(deployment.url) == digest
    # the restarted webserver and daemon read it back (the UI shows it), and the state the
    # UI set before the restart (the season sensor stopped) is still there
    raw_sensor = deployment.after_restart["raw_exports_sensor"]
    assert raw_sensor["typeSpecificData"]["lastCursor"] == digest
    assert raw_sensor["status"] == "RUNNING"
    assert deployment.after_restart["stale_season_sensor"]["status"] == "STOPPED"
    # the restarted daemon evaluated it from that cursor: nothing changed, a skipped tick
    # (without the cursor it would have requested a run); one run requested by the sensor
    # in all, for one state of the raw folder
    before = deployment.ticks_before_restart
    after = _ticks(deployment.url)
    assert before[0] == "SUCCESS" and set(before[1:]) <= {"SKIPPED"}, before
    assert len(after) > len(before) and set(after[len(before) :]) == {"SKIPPED"}, after
    runs = query(deployment.url, "SELECT run_id FROM runs WHERE pipeline_name = %s", INGEST)
    assert len(runs) == 2


def _events(url: str, run_id: str) -> list[tuple[str, str | None, datetime]]:
    return query(
        url,
        "SELECT dagster_event_type, step_key, timestamp FROM event_logs "
        "WHERE run_id = %s AND dagster_event_type IS NOT NULL ORDER BY id",
        run_id,
    )


def test_the_two_runs_of_the_warehouse_pool_queued_and_never_wrote_at_once(
    deployment: Deployment,
) -> None:
    url = deployment.url
    spans: list[tuple[datetime, datetime, str]] = []
    runs: list[tuple[datetime, ...]] = []
    for run_id in (deployment.sensor_run, deployment.nightly_run):
        events = _events(url, run_id)
        kinds = [kind for kind, _, _ in events]
        # through the queue: enqueued, launched by the daemon's run coordinator, started
        steps = ("PIPELINE_ENQUEUED", "PIPELINE_STARTING", "PIPELINE_START", "PIPELINE_SUCCESS")
        assert all(k in kinds for k in steps), kinds
        order = [kinds.index(k) for k in steps]
        assert order == sorted(order), kinds
        started = {step: t for kind, step, t in events if kind == "STEP_START"}
        ended = {step: t for kind, step, t in events if kind == "STEP_SUCCESS"}
        assert started and started.keys() == ended.keys()
        spans += [(started[s], ended[s], f"{run_id[:8]}:{s}") for s in started]
        times = {kind: t for kind, _, t in events}
        runs.append(tuple(times[k] for k in steps))
    # every step of both runs writes the warehouse (pool `warehouse`, one slot): no two
    # steps overlap, within a run or across the runs
    spans.sort()
    assert len(spans) >= 2
    for (_, end, step), (start, _, following) in itertools.pairwise(spans):
        assert end <= start, f"{step} still running when {following} started"
    # both were in the queue at once, and the second was launched only once the first
    # had ended (max_concurrent_runs: 1)
    (_, _, _, first_end), (queued, launched, _, _) = sorted(runs, key=lambda r: r[2])
    assert queued < first_end <= launched, runs
    # the pool's one slot, in PostgreSQL
    limits = query(url, 'SELECT concurrency_key, "limit" FROM concurrency_limits')
    slots = query(url, "SELECT concurrency_key, count(*) FROM concurrency_slots GROUP BY 1")
    assert limits == [("warehouse", 1)] and slots == [("warehouse", 1)], (limits, slots)


def test_the_documented_recipe_is_what_ran(deployment: Deployment) -> None:
    assert (deployment.home / "dagster.yaml").read_text(encoding="utf-8") == documented(
        "dagster.yaml"
    )
    assert documented("dagster.yaml") == instance_yaml(postgres=True)
    documented_url = urlsplit(documented_environment()[POSTGRES_ENV])
    used = urlsplit(deployment.url)
    assert (used.username, used.password, used.path) == (
        documented_url.username,
        documented_url.password,
        documented_url.path,
    )


def test_the_documented_backup_restores_into_a_new_database(deployment: Deployment) -> None:
    root = deployment.root
    (root / "sauvegardes").mkdir(exist_ok=True)
    script = documented("backup").replace("/srv/classement", str(root))
    env = {
        **os.environ,
        POSTGRES_ENV: deployment.url,
        "PATH": f"{deployment.cluster.bin}{os.pathsep}{os.environ['PATH']}",
    }
    subprocess.run(["sh", "-ec", script], env=env, check=True, timeout=120)
    copy = root / "sauvegardes" / "warehouse.duckdb"
    assert copy.read_bytes() == (root / "data" / "warehouse.duckdb").read_bytes()
    # restored as the page says: an empty database (section 1's CREATE DATABASE), then
    # pg_restore; the runs, their events and the sensor's cursor come back
    as_superuser(deployment.cluster, "CREATE DATABASE classement_restaure OWNER classement")
    restored = on_cluster(deployment.url, deployment.cluster, "classement_restaure")
    subprocess.run(
        [
            str(deployment.cluster.bin / "pg_restore"),
            "--no-owner",
            f"--dbname={restored}",
            str(root / "sauvegardes" / "dagster.dump"),
        ],
        check=True,
        timeout=120,
    )
    count = "SELECT count(*) FROM event_logs WHERE run_id = %s"
    assert query(restored, count, deployment.nightly_run) == query(
        deployment.url, count, deployment.nightly_run
    )
    assert _stored_cursor(restored) == _stored_cursor(deployment.url)


def test_an_unreachable_database_stops_dev_at_once_with_a_french_message(
    tmp_path: Path,
) -> None:
    url = f"postgresql://classement:secret@127.0.0.1:{free_port()}/classement_dagster"
    done = subprocess.run(
        [sys.executable, "-m", "classement", "dev", "--home", str(tmp_path / "home")],
        cwd=PROJECT_ROOT,
        env={**os.environ, POSTGRES_ENV: url},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Stockage de l'instance Dagster impossible à préparer" in done.stdout
    assert "secret" not in done.stdout + done.stderr
