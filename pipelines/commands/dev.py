"""`classement dev`: the Dagster UI (and its daemon: schedules, sensors) on the project."""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pipelines.resources import PROJECT_ROOT


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
        description="Start `dagster dev` on the project's code location with a persistent "
        "instance in .dagster_home/ (runs, schedules and sensors survive restarts).",
    )
    parser.add_argument("--port", type=int, default=3000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    home = dagster_home()
    env = dict(os.environ, DAGSTER_HOME=str(home))
    workspace = str(home / "workspace.yaml")
    command = [sys.executable, "-m", "dagster", "dev", "-w", workspace]
    command += ["--host", args.host, "--port", str(args.port)]
    print(f"Dagster UI on http://{args.host}:{args.port} (DAGSTER_HOME={home})")
    # Run from the instance folder, whose dagster.yaml is the one in force.
    return subprocess.call(command, cwd=home, env=env)
