"""`classement dev`: the Dagster UI and its daemon (the schedule and sensors, running by
default) on the project, in one process group that stops with the command.

The instance lives in a Dagster home folder (`.dagster_home/` unless `--home`): its
`dagster.yaml` is the project's, plus, with `--postgres URL` (or `CLASSEMENT_POSTGRES_URL`),
a `storage` section keeping runs, event logs, schedules and sensors' cursors in that
PostgreSQL database instead of SQLite files in the home. The storage is created and migrated
once, in this process, before the webserver and the daemon start: both would otherwise
create it at the same moment on a fresh home (SQLite: `table alembic_version already
exists`, and the first start dies)."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from pipelines.paths import PROJECT_ROOT

# The variable the PostgreSQL storage section reads its URL from: the URL (and its
# password) never written in a file of the home
POSTGRES_ENV = "CLASSEMENT_POSTGRES_URL"

POSTGRES_STORAGE = f"""
# Written by `classement dev --postgres URL` (or {POSTGRES_ENV}): runs, event logs,
# schedules and sensors' cursors, and the pool's slots, in PostgreSQL; the URL is read
# from the variable {POSTGRES_ENV} that `classement dev` gives the webserver and the
# daemon (postgresql+psycopg2://…: the driver dagster-postgres installs).
storage:
  postgres:
    postgres_url:
      env: {POSTGRES_ENV}
"""


def instance_yaml(root: Path = PROJECT_ROOT, postgres: bool = False) -> str:
    """The `dagster.yaml` of the instance: the project's, plus the PostgreSQL storage."""
    text = (root / "dagster.yaml").read_text(encoding="utf-8")
    return text + POSTGRES_STORAGE if postgres else text


def dagster_home(
    root: Path = PROJECT_ROOT, home: Path | None = None, postgres: bool = False
) -> Path:
    """The instance folder (`.dagster_home/` of the project unless `home`, git-ignored),
    holding its dagster.yaml (`instance_yaml`) and a workspace naming the code location
    `classement`."""
    home = (home or root / ".dagster_home").resolve()
    home.mkdir(parents=True, exist_ok=True)
    (home / "dagster.yaml").write_text(instance_yaml(root, postgres), encoding="utf-8")
    (home / "workspace.yaml").write_text(
        "load_from:\n"
        "  - python_module:\n"
        "      module_name: pipelines.definitions\n"
        "      location_name: classement\n"
        f"      working_directory: {root}\n",
        encoding="utf-8",
    )
    return home


def prepare_storage(home: Path) -> None:
    """Create the instance's storage and run its migrations, once, before any process of
    `classement dev` opens it (the PostgreSQL URL, when the home uses one, from the
    environment variable `CLASSEMENT_POSTGRES_URL` of this process)."""
    from dagster import DagsterInstance  # heavy: only when the command runs

    instance = DagsterInstance.from_config(str(home))
    try:
        instance.upgrade(print_fn=lambda _line: None)
    finally:
        instance.dispose()


def dagster_url(url: str) -> str:
    """The URL as Dagster's storage opens it: a libpq URL (`postgresql://…`, what psql and
    pg_dump take) gets the driver dagster-postgres installs, psycopg2 (SQLAlchemy 2.1 would
    otherwise look for psycopg 3); a URL naming its driver is kept."""
    scheme, sep, rest = url.partition("://")
    if sep and scheme in ("postgresql", "postgres"):
        return f"postgresql+psycopg2://{rest}"
    return url


def without_password(url: str) -> str:
    """The URL as it may be printed: its password replaced by ***."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "dev",
        help="lancer l'interface Dagster et son démon sur le projet",
        description="Lance le serveur web de Dagster (l'interface) et le démon Dagster (la "
        "planification nocturne et les capteurs, actifs dès le départ) sur le code du projet, "
        "avec une instance persistante (exécutions, planifications et capteurs survivent aux "
        "redémarrages) : SQLite dans .dagster_home/ par défaut, ou une base PostgreSQL "
        "partagée (--postgres). Arrêter `classement dev` (Ctrl-C, SIGTERM, SIGHUP) arrête "
        "les deux.",
    )
    parser.add_argument("--port", type=int, default=3000, help="port de l'interface (3000)")
    parser.add_argument(
        "--host", default="127.0.0.1", help="adresse d'écoute de l'interface (127.0.0.1)"
    )
    parser.add_argument(
        "--home",
        type=Path,
        default=None,
        help="dossier de l'instance Dagster (par défaut .dagster_home/ du projet)",
    )
    parser.add_argument(
        "--postgres",
        metavar="URL",
        default=os.environ.get(POSTGRES_ENV) or None,
        help="garder les exécutions, journaux, planifications et curseurs des capteurs "
        "dans cette base PostgreSQL (postgresql://utilisateur:mot-de-passe@hôte:port/base ; "
        f"par défaut la variable {POSTGRES_ENV}, sinon SQLite dans le dossier de l'instance)",
    )
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
    home = dagster_home(home=args.home, postgres=bool(args.postgres))
    env = dict(os.environ, DAGSTER_HOME=str(home))
    if args.postgres:
        env[POSTGRES_ENV] = os.environ[POSTGRES_ENV] = dagster_url(args.postgres)
        storage = f"PostgreSQL {without_password(args.postgres)}"
    else:
        env.pop(POSTGRES_ENV, None)
        storage = f"SQLite dans {home}"
    try:
        prepare_storage(home)
    except Exception as error:  # the database unreachable, refused, or not migratable
        first = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        print(f"Stockage de l'instance Dagster impossible à préparer ({storage}) : {first}")
        return 2
    print(f"Interface Dagster sur http://{args.host}:{args.port} (DAGSTER_HOME={home})")
    print(f"Exécutions, journaux et curseurs des capteurs : {storage}")
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
