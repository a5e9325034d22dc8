"""Numba's cache written once, when the project is installed (`make setup`) and before
the test workers start.

The compiled loops of `transforms/` (`numba.njit(cache=True)`) compile on their first call
in a process that finds no cache, about 4 to 6 CPU seconds (5-7 on the slower machine of
2 December 2026, after the compile cuts of series_provisional; 14-17 before them), and
write the cache into `transforms/__pycache__/`. The first build of a fresh install paid
it inside its season steps (s20's first full build: 4.1 s of its series classification,
sampled by py-spy, 6 December 2026); from a fresh clone each pytest-xdist worker and each
`classement` command a test starts would compile them again until one of them had written
it (measured: about 70 s of wall-clock time of `make test`). `make setup` runs this module
(`python -m pipelines.compiled`) whenever the compiled modules change, as it compiles the
Python files to bytecode at install; `tests/conftest.py` calls it once in the controller
of a run on several workers (`tests/prepare.py`). Afterwards every process loads the
compiled code from the cache.

`warm_compiled` calls the public functions that run them on a tiny season, with the
argument types the builds give them (the functions cast their arrays to fixed dtypes), so
one call compiles each loop's single signature (`transforms.series._criteria_matrix` always
hands a writable copy: a read-only view of Polars' memory would be a second signature).
`tests/test_warm.py` checks that every compiled function of `transforms/` has been
compiled by it: a new compiled loop must be reached from here.
"""

from __future__ import annotations

import datetime as dt
import importlib
import pkgutil
from pathlib import Path
from typing import Any

import numba
import polars as pl

import transforms
from pipelines.reference.series import load_series_params, load_series_quotas
from transforms.series import duplicate_event_scores
from transforms.series_provisional import provisional_changes

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference"


def warm_compiled() -> None:
    """Every compiled loop of `transforms/` called once (compiled, or loaded from the cache)
    for the signature a build gives it (one each: the criteria matrix of
    `_provisional_steps` is always a writable copy, `transforms.series._criteria_matrix`)."""
    params = load_series_params(REFERENCE)
    quotas = load_series_quotas(REFERENCE)
    new = pl.DataFrame({"player_id": ["n"], "federation": ["FRA"]})
    results = pl.DataFrame(
        {
            "tournament_id": ["E1", "E1", "E2", "E2"],
            "player_id": ["a", "b", "b", "c"],
            "rank": [1, 2, 1, 2],
            "series": ["2", "2", "2", "2"],
        },
        schema={
            "tournament_id": pl.String,
            "player_id": pl.String,
            "rank": pl.Int64,
            "series": pl.String,
        },
    )
    events = pl.DataFrame(
        {
            "tournament_id": ["E1", "E2"],
            "season": ["2023-2024", "2023-2024"],
            "games": [4, 4],
            "end_date": [dt.date(2023, 11, 1), dt.date(2023, 10, 1)],
        }
    )
    scores = duplicate_event_scores(results, events)
    provisional_changes(scores, events, quotas, params, new)


def compiled_functions() -> dict[str, Any]:
    """`module.name` → Numba dispatcher, for every compiled function of `transforms/`."""
    found: dict[str, Any] = {}
    for info in pkgutil.walk_packages(transforms.__path__, "transforms."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, numba.core.registry.CPUDispatcher) and (
                value.py_func.__module__ == info.name
            ):
                found[f"{info.name}.{name}"] = value
    return found


if __name__ == "__main__":  # `make setup`, tests/prepare.py: `python -m pipelines.compiled`
    warm_compiled()
