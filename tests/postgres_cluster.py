"""A throwaway PostgreSQL server for the tests of the shared instance: a cluster made by
`initdb` in a temporary folder, listening on 127.0.0.1 on a free port (and on a Unix
socket in that folder), removed when the tests are done.

The binaries are Debian's (`scripts/system-deps.sh` installs the package `postgresql`):
`initdb` on the PATH, else the newest /usr/lib/postgresql/<version>/bin. PostgreSQL refuses
to run as root: under root (CI) the cluster is made and run by the unprivileged system user
`postgres` (the package creates it), else `nobody`, through `runuser`."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "admin"


class NoPostgres(RuntimeError):
    """No PostgreSQL server can be started on this machine (the message says why)."""


def postgres_bin() -> Path:
    """The folder of PostgreSQL's server binaries (initdb, pg_ctl, postgres)."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if not versions:
        raise NoPostgres(
            "aucun serveur PostgreSQL : ni initdb sur le PATH ni /usr/lib/postgresql/*/bin "
            "(paquet Debian postgresql, installé par scripts/system-deps.sh)"
        )
    return versions[-1].parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class Cluster:
    folder: Path
    port: int
    bin: Path
    user: str | None  # the system user running it (None: the current user)

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, role: str, password: str, database: str) -> str:
        return f"postgresql://{role}:{password}@127.0.0.1:{self.port}/{database}"

    def superuser_dsn(self, database: str = "postgres") -> str:
        """Through the Unix socket, where the cluster trusts its superuser."""
        return f"host={self.folder} port={self.port} user={SUPERUSER} dbname={database}"

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin / argv[0]), *argv[1:]]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise NoPostgres(f"{' '.join(argv[:1])} : {done.stdout}{done.stderr}".strip())
        return done


def _system_user() -> str | None:
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise NoPostgres("lancé en root sans utilisateur postgres ni nobody pour PostgreSQL")


@contextlib.contextmanager
def throwaway_cluster() -> Iterator[Cluster]:
    """A running cluster (host authentication by password, scram-sha-256), stopped and
    removed on exit."""
    binaries = postgres_bin()
    user = _system_user()
    # in /tmp itself: the unprivileged user must reach the folder (pytest's are 0700)
    folder = Path(tempfile.mkdtemp(prefix="classement-pg-"))
    if user:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    cluster = Cluster(folder, free_port(), binaries, user)
    started = False
    try:
        cluster.run(
            "initdb",
            "-D",
            str(cluster.data),
            "-U",
            SUPERUSER,
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )
        options = (
            f"-p {cluster.port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off"
        )
        cluster.run(
            "pg_ctl", "-D", str(cluster.data), "-o", options, "-l", str(folder / "log"), "-w",
            "start",
        )  # fmt: skip
        started = True
        yield cluster
    finally:
        if started:
            with contextlib.suppress(NoPostgres, subprocess.TimeoutExpired):
                cluster.run("pg_ctl", "-D", str(cluster.data), "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)
