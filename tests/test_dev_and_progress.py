"""`classement dev` stops everything it starts and runs the schedule and sensors from the
start; the build's progress lines are French, each check under its step."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import dagster as dg
import pytest

from classement.commands.dev import commands
from pipelines.build import _ProgressHandler
from pipelines.paths import PROJECT_ROOT

CHILD = (
    "import os, pathlib, sys, time; "
    "pathlib.Path(sys.argv[1]).write_text(str(os.getpid())); time.sleep(600)"
)
SUPERVISOR = (
    "import sys; from pathlib import Path; from classement.commands.dev import supervise; "
    "sys.exit(supervise([[sys.executable, '-c', {child!r}, a] for a in sys.argv[1:]], "
    "Path('.'), dict(__import__('os').environ)))"
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers: read its state
    stat = Path(f"/proc/{pid}/stat")
    state = stat.read_text().split()[2] if stat.exists() else "X"
    return state not in ("Z", "X")


def _wait(condition, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_stopping_dev_stops_everything_it_started(tmp_path: Path, signum: int) -> None:
    files = [tmp_path / "webserver.pid", tmp_path / "daemon.pid"]
    supervisor = subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR.format(child=CHILD), *map(str, files)],
        cwd=PROJECT_ROOT,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )
    try:
        assert _wait(lambda: all(f.exists() and f.read_text() for f in files))
        children = [int(f.read_text()) for f in files]
        assert all(_alive(pid) for pid in children)
        supervisor.send_signal(signum)
        assert supervisor.wait(timeout=30) == 0
        assert _wait(lambda: not any(_alive(pid) for pid in children)), children
    finally:
        if supervisor.poll() is None:
            supervisor.kill()


def test_one_process_ending_stops_the_other(tmp_path: Path) -> None:
    short = "import sys; sys.exit(3)"
    script = (
        "import sys; from pathlib import Path; from classement.commands.dev import supervise; "
        f"sys.exit(supervise([[sys.executable, '-c', {CHILD!r}, sys.argv[1]], "
        f"[sys.executable, '-c', {short!r}]], Path('.'), dict(__import__('os').environ)))"
    )
    pid_file = tmp_path / "long.pid"
    done = subprocess.run(
        [sys.executable, "-c", script, str(pid_file)],
        cwd=PROJECT_ROOT,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        timeout=60,
    )
    assert done.returncode == 3
    if pid_file.exists() and pid_file.read_text():
        assert _wait(lambda: not _alive(int(pid_file.read_text())))


def test_dev_runs_the_webserver_and_daemon_not_the_superseded_wrapper(tmp_path: Path) -> None:
    webserver, daemon = commands(tmp_path / "workspace.yaml", "127.0.0.1", 3999)
    assert webserver[1:3] == ["-m", "dagster_webserver"] and "3999" in webserver
    assert daemon[1:4] == ["-m", "dagster._daemon", "run"]
    assert "dev" not in webserver + daemon


def test_the_schedule_and_sensors_run_by_default() -> None:
    from pipelines.defs import jobs

    assert jobs.nightly_build.default_status == dg.DefaultScheduleStatus.RUNNING
    for sensor in (jobs.raw_exports_sensor, jobs.stale_season_sensor):
        assert sensor.default_status == dg.DefaultSensorStatus.RUNNING


# ---------------------------------------------------------------------------- progress


def _event(kind: str, step: str, **extra: object) -> logging.LogRecord:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "", None, None)
    record.dagster_event = SimpleNamespace(event_type_value=kind, step_key=step, **extra)
    return record


def _check(asset: str, name: str, passed: bool) -> SimpleNamespace:
    return SimpleNamespace(asset_key=dg.AssetKey(asset), check_name=name, passed=passed)


def test_progress_lines_are_french_with_checks_under_their_step() -> None:
    lines: list[str] = []
    handler = _ProgressHandler(lines.append)
    key = dg.AssetKey("cote_history")
    for record in (
        _event("STEP_START", "cote_history"),
        _event("ASSET_MATERIALIZATION", "cote_history", asset_key=key),
        _event("STEP_SUCCESS", "cote_history"),
        _event("STEP_START", "series_classification"),
        _event("STEP_SUCCESS", "series_classification"),
        # the check runs as a step of its own, after another step
        _event("STEP_START", "cote_history_cote_history_adds_up"),
        _event(
            "ASSET_CHECK_EVALUATION",
            "cote_history_cote_history_adds_up",
            asset_key=key,
            event_specific_data=_check("cote_history", "cote_history_adds_up", False),
        ),
        _event("STEP_SUCCESS", "cote_history_cote_history_adds_up"),
    ):
        handler.emit(record)
    assert lines == []  # printed when the run ends, in order
    handler.emit(_event("PIPELINE_SUCCESS", ""))
    assert [line.split(" (")[0] for line in lines] == [
        "  ✓ classique : cote, tournoi par tournoi",
        "      ! contrôle « cote avant + PE + B + PJ = cote après » : non satisfait",
        "  ✓ duplicate : séries de fin de saison",
    ]
    assert all("_" not in line for line in lines)
    assert lines[0].endswith(" s)") and "," in lines[0]
