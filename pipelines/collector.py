"""The cyclic garbage collector's thresholds of a build (`pipelines.build.run_build`).

Decisions taken here (issue 25): a build runs with CPython's cyclic collector at
`GC_THRESHOLDS`, the process's own thresholds put back afterwards. A build holds many
long-lived objects (Dagster's definitions and events, the ingest cache's 31,700 file
records, the pages' digests), which every older-generation collection walks again; its
garbage is freed by reference counting, cycles being rare. Measured on s20's one new
tournament (`gc.callbacks`, 6 December 2026, a slow hour): at Python's defaults (700, 10,
10) 2,208 young, 201 middle and 11 full collections, 1.77 s of a 19 s build; at these,
164, 14 and 1, 0.5 s. The test suite's processes use them too (`tests/conftest.py`).
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import ParamSpec, TypeVar

GC_THRESHOLDS = (50_000, 20, 100)

_P = ParamSpec("_P")
_R = TypeVar("_R")


def collector_thresholds(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """`function` run with the collector at `GC_THRESHOLDS`, the process's own put back
    after."""

    @functools.wraps(function)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        before = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            return function(*args, **kwargs)
        finally:
            gc.set_threshold(*before)

    return run
