"""`classement dev`: the Dagster UI (and its daemon: schedules, sensors) on the project."""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pipelines.resources import PROJECT_ROOT


def dagster_home(root: Path = PROJECT_ROOT) -> Path:
    """The project's Dagster instance folder (git-ignored), holding a copy of dagster.yaml."""
    home = root / ".dagster_home"
    home.mkdir(exist_ok=True)
    shutil.copyfile(root / "dagster.yaml", home / "dagster.yaml")
    return home


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "dev",
        help="start the Dagster UI and daemon on the project",
        description="Start `dagster dev` on the project's code location with a persistent "
        "instance in .dagster_home/ (runs, schedules and sensors survive restarts).",
    )
    parser.add_argument("--port", type=int, default=3000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    env = dict(os.environ, DAGSTER_HOME=str(dagster_home()))
    command = [
        sys.executable,
        "-m",
        "dagster",
        "dev",
        "-m",
        "pipelines.definitions",
        "--host",
        args.host,
        "--port",
        str(args.port),
    ]
    print(f"Dagster UI on http://{args.host}:{args.port} (DAGSTER_HOME={env['DAGSTER_HOME']})")
    return subprocess.call(command, cwd=PROJECT_ROOT, env=env)
