"""One writer at a time on a warehouse: an advisory lock file beside it (`<file>.lock`).

`classement build` holds the lock of the warehouse it builds for its whole run (a second
build on the same warehouse exits at once, saying so); every write of `Warehouse` takes the
lock of the file it writes for the write's duration, waiting for a build to finish — so a
Dagster run started from the UI never writes a warehouse a build is about to replace.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class WarehouseLocked(RuntimeError):
    """Another process holds the warehouse's lock."""


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


@contextmanager
def exclusive(path: Path, *, wait: float = 0.0) -> Iterator[None]:
    """Hold the lock of `path` (a warehouse file); give up after `wait` seconds (0: at once)
    with WarehouseLocked, whose message names the holder's process."""
    target = lock_path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
                    raise WarehouseLocked(
                        f"l'entrepôt {path} est en cours d'écriture par un autre processus "
                        f"(pid {holder}) : attendez la fin de sa construction"
                    ) from None
                time.sleep(0.2)
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
