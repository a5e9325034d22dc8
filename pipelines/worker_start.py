"""The start of the worker processes: the player pages' (`pipelines.reports.player_pages`)
and the ingest's (`pipelines.ingest.cache`: the exports read, typed and checked alone).

Decisions taken here (issue 25): a worker runs Polars on one thread. The worker processes
are as many as the cores; a Polars thread pool per worker as wide as the machine
only adds threads waiting on each other. Polars reads its thread count when first
imported: this module imports nothing that imports it, so the setting comes first.
"""

from __future__ import annotations

import os

POLARS_THREADS = "1"


def start_worker() -> None:
    """The initializer of a worker process, before it imports Polars."""
    os.environ["POLARS_MAX_THREADS"] = POLARS_THREADS


def run(target: str, *args: object) -> None:
    """The entry of a worker process started alone (not by a pool): `start_worker`, then
    the function `target` (« module:name »), imported only now, called with `args`."""
    start_worker()
    import importlib

    module, name = target.split(":")
    getattr(importlib.import_module(module), name)(*args)
