"""The start of the worker processes: the player pages' (`pipelines.reports.player_pages`),
the reports' (`pipelines.reports.background`) and the ingest's (`pipelines.ingest.cache`:
the exports read, typed and checked alone).

Decisions taken here (issue 25): a worker runs Polars on one thread. The worker processes
are as many as the cores; a Polars thread pool per worker as wide as the machine
only adds threads waiting on each other. Polars reads its thread count when first
imported: this module imports nothing that imports it, so the setting comes first.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any

POLARS_THREADS = "1"


# What a pool gave each of its workers once when starting them (`start_worker`'s
# `shared`), for the tasks that all need it: the player pages' events (`player_pages._Pool`).
SHARED: object = None


def start_worker(shared: object = None) -> None:
    """The initializer of a worker process, before it imports Polars; `shared`, what its
    pool gives every worker once (`SHARED`), is unpickled before: it must not need Polars."""
    global SHARED
    os.environ["POLARS_MAX_THREADS"] = POLARS_THREADS
    SHARED = shared


def resolve(target: str) -> Callable[..., Any]:
    """The function `target` names (« module:name »), its module imported now."""
    module, name = target.split(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return found


def run(target: str, *args: object) -> None:
    """The entry of a worker process started alone (not by a pool): `start_worker`, then
    the function `target` (`resolve`: its module imported only then), called with `args`."""
    start_worker()
    resolve(target)(*args)
