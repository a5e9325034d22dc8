"""`classement dev` run as a user runs it, for the tests of its instance: started in a
process of its own on a free port, asked through the webserver's GraphQL API (what the UI
asks), stopped as Ctrl-C stops it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipelines.paths import PROJECT_ROOT
from tests.postgres_cluster import free_port

# Long enough for a loaded 2-core machine (the webserver's start imports the code location);
# a deadline to fail with the logs, not a measurement
START_SECONDS = 240.0

STATES = """
{
  repositoriesOrError {
    ... on RepositoryConnection {
      nodes {
        name
        schedules { name scheduleState { status } }
        sensors { name sensorState { status } }
      }
    }
  }
  instance { daemonHealth { allDaemonStatuses { daemonType required healthy } } }
}
"""


@dataclass
class Dev:
    process: subprocess.Popen[bytes]
    port: int
    home: Path
    log: Path

    def graphql(self, query: str, variables: Mapping[str, Any] | None = None) -> Any:
        body = json.dumps({"query": query, "variables": dict(variables or {})}).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/graphql",
            data=body,
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                data = json.load(answer)
        except urllib.error.HTTPError as error:  # a query the schema refuses: say why
            raise AssertionError(f"GraphQL {error.code}: {error.read().decode()}") from None
        assert "errors" not in data, data["errors"]
        return data["data"]

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def states(self) -> tuple[dict[str, str], dict[str, bool]]:
        """Every schedule's and sensor's status, and whether each required daemon is
        healthy (its heartbeat fresh)."""
        data = self.graphql(STATES)
        statuses: dict[str, str] = {}
        for repository in data["repositoriesOrError"].get("nodes", []):
            for schedule in repository["schedules"]:
                statuses[schedule["name"]] = schedule["scheduleState"]["status"]
            for sensor in repository["sensors"]:
                statuses[sensor["name"]] = sensor["sensorState"]["status"]
        daemons = {
            d["daemonType"]: d["healthy"]
            for d in data["instance"]["daemonHealth"]["allDaemonStatuses"]
            if d["required"]
        }
        return statuses, daemons


def wait_for(condition: Any, seconds: float, what: str, dev: Dev | None = None) -> Any:
    """Poll `condition` until it returns something true; fail naming `what` (and with the
    output of `classement dev`) after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if dev is not None and dev.process.poll() is not None:
            raise AssertionError(f"classement dev ended ({what}):\n{dev.output()}")
        if time.monotonic() > deadline:
            tail = dev.output()[-4000:] if dev is not None else ""
            raise AssertionError(f"{what}: still not after {seconds:.0f} s\n{tail}")
        time.sleep(0.5)


def _answers(dev: Dev) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{dev.port}/server_info", timeout=5):
            return True
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


@contextmanager
def running_dev(
    home: Path, env: Mapping[str, str], *args: str, port: int | None = None
) -> Iterator[Dev]:
    """`classement dev --home HOME --port P ARGS…`, once its webserver answers; stopped
    (SIGINT, as Ctrl-C) on exit, which must end it with status 0."""
    port = port or free_port()
    log = home.parent / f"{home.name}-dev-{port}.log"
    home.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "classement", "dev", "--home", str(home)]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*command, "--port", str(port), *args],
            cwd=PROJECT_ROOT,
            env={**os.environ, **env},
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    dev = Dev(process, port, home, log)
    try:
        wait_for(lambda: _answers(dev), START_SECONDS, "the webserver answering", dev)
        yield dev
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                status = process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                raise
            assert status == 0, dev.output()[-4000:]
