"""The start of the player pages' worker processes (`player_pages._render_in_workers`).

Decisions taken here (issue 25): a worker runs Polars on one thread. The pages' worker
processes are as many as the cores; a Polars thread pool per worker as wide as the machine
only adds threads waiting on each other. Polars reads its thread count when first
imported: this module imports nothing that imports it, so the setting comes first.
"""

from __future__ import annotations

import os

POLARS_THREADS = "1"


def start_worker() -> None:
    """The initializer of a worker process, before it imports Polars."""
    os.environ["POLARS_MAX_THREADS"] = POLARS_THREADS
