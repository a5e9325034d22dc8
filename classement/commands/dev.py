"""`classement dev`: the Dagster UI and its daemon (the schedule and sensors, running by
default) on the project, in one process group that stops with the command."""

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from pipelines.paths import PROJECT_ROOT


def dagster_home(root: Path = PROJECT_ROOT) -> Path:
    """The project's Dagster instance folder (git-ignored), holding a copy of dagster.yaml
    and a workspace naming the code location `classement`."""
    home = root / ".dagster_home"
    home.mkdir(exist_ok=True)
    shutil.copyfile(root / "dagster.yaml", home / "dagster.yaml")
    (home / "workspace.yaml").write_text(
        "load_from:\n"
        "  - python_module:\n"
        "      module_name: pipelines.definitions\n"
        "      location_name: classement\n"
        f"      working_directory: {root}\n",
        encoding="utf-8",
    )
    return home


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "dev",
        help="start the Dagster UI and daemon on the project",
        description="Start the Dagster webserver (the UI) and the Dagster daemon (the "
        "nightly schedule and the sensors, running from the start) on the project's code "
        "location, with a persistent instance in .dagster_home/ (runs, schedules and sensors "
        "survive restarts). Stopping `classement dev` (Ctrl-C, SIGTERM, SIGHUP) stops both.",
    )
    parser.add_argument("--port", type=int, default=3000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.set_defaults(func=run)


def commands(workspace: Path, host: str, port: int) -> list[list[str]]:
    """The two processes `classement dev` runs: the webserver and the daemon, started
    directly (the `dagster dev` wrapper is superseded and warns so at every start)."""
    webserver = ["-w", str(workspace), "-h", host, "-p", str(port)]
    return [
        [sys.executable, "-m", "dagster_webserver", *webserver],
        [sys.executable, "-m", "dagster._daemon", "run", "-w", str(workspace)],
    ]


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
GRACE_SECONDS = 20.0  # then whatever is left of the group is killed


def run(args: argparse.Namespace) -> int:
    home = dagster_home()
    env = dict(os.environ, DAGSTER_HOME=str(home))
    print(f"Interface Dagster sur http://{args.host}:{args.port} (DAGSTER_HOME={home})")
    print("Planification nocturne et capteurs actifs ; Ctrl-C arrête l'interface et le démon.")
    return supervise(commands(home / "workspace.yaml", args.host, args.port), home, env)


def supervise(argv: list[list[str]], cwd: Path, env: dict[str, str]) -> int:
    """Run the processes in one process group of their own, pass every stop signal to the
    whole group, and stop the group when one of them ends: nothing started here outlives
    `classement dev`. Returns the exit status of the first process to end (0 when stopped
    by a signal)."""
    first = subprocess.Popen(argv[0], cwd=cwd, env=env, process_group=0)
    group = first.pid
    processes = [first]
    stopping: list[int] = []

    def forward(signum: int, _frame: object) -> None:
        stopping.append(signum)
        _signal_group(group, signum)

    previous = {sig: signal.signal(sig, forward) for sig in STOP_SIGNALS}
    try:
        for command in argv[1:]:
            processes.append(subprocess.Popen(command, cwd=cwd, env=env, process_group=group))
        status = None
        while status is None:
            for process in processes:
                code = process.poll()
                if code is not None:
                    status = code
                    break
            else:
                time.sleep(0.2)
        if not stopping:  # one ended by itself: stop the others
            _signal_group(group, signal.SIGTERM)
        _wait_all(processes, group)
        return 0 if stopping else status
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        _signal_group(group, signal.SIGKILL)


def _signal_group(group: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # already gone
        os.killpg(group, signum)


def _wait_all(processes: list[subprocess.Popen[bytes]], group: int) -> None:
    deadline = time.monotonic() + GRACE_SECONDS
    for process in processes:
        try:
            process.wait(timeout=max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            _signal_group(group, signal.SIGKILL)
            process.wait()
