"""Progress of a long step (player pages, PDFs, thousands of exports read), told as it
goes: an asset logs lines starting with `PROGRESS`, which `classement build` prints at
once (its other lines come when a run ends) and the Dagster UI shows in the run's log."""

from __future__ import annotations

import time
from collections.abc import Callable

PROGRESS = "progression : "
EVERY_SECONDS = 2.0  # between two lines of one step

Progress = Callable[[int, int], None]


def throttled(log: Callable[[str], object], what: str) -> Progress:
    """`progress(done, total)` logging « progression : <what> : done / total » at most
    every `EVERY_SECONDS` (never for the last item: the step's own line follows)."""
    last = time.perf_counter()

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.perf_counter()
        if now - last >= EVERY_SECONDS and done < total:
            last = now
            log(f"{PROGRESS}{what} : {done:,d} / {total:,d}".replace(",", "\u202f"))

    return progress
