"""The order the suite's tests are handed to the workers: the longest first.

`make test` runs the suite on every core (pytest-xdist), and a worker asks for more work
when it runs out. Handed out in file order, a long test or a long module kept on one
worker (`GROUPED_MODULES` in conftest) could start last and keep one core busy while the
other idles; handed out longest first, the short tests fill the end of both workers'
queues (the classic longest-processing-time rule). Two more rules:

- the first unit of work is the longest one that needs the sample's build (the
  `sample_site` fixture), so that the build starts at once while the other worker runs
  tests that do not need it; the other units that need it come after the long independent
  ones, by which time the build is made;
- a test absent from the costs (a new one) runs after the measured ones, in file order.

`tests/costs.json` holds each test's measured CPU seconds (the test process and the
processes it waited for: a CLI build, Chromium), those of at least half a second. To
measure them again: `CLASSEMENT_RECORD_COSTS=<folder> pytest -n 3 --dist loadgroup`,
then `python -m tests.schedule <folder>` (rewrites `tests/costs.json`).
"""

from __future__ import annotations

import json
import os
import resource
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

COSTS = Path(__file__).with_name("costs.json")
RECORD = "CLASSEMENT_RECORD_COSTS"
SAMPLE_FIXTURE = "sample_site"
# Below this many CPU seconds, a unit keeps its place in file order (at the end)
LONG = 1.0


def load_costs(path: Path = COSTS) -> dict[str, float]:
    """Test id → measured CPU seconds (empty when the file is missing or unreadable: the
    order is then the file order, as pytest's own)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in data.items()}


def ordered(
    items: list[pytest.Item], scope_of: Callable[[str], str], costs: dict[str, float]
) -> list[pytest.Item]:
    """`items` regrouped by unit of work (`scope_of` a test id), the units in the order
    this module's docstring gives; the tests of a unit keep their file order."""
    units: dict[str, list[pytest.Item]] = {}
    for item in items:
        units.setdefault(scope_of(item.nodeid), []).append(item)
    position = {scope: k for k, scope in enumerate(units)}

    def cost(scope: str) -> float:
        return sum(costs.get(item.nodeid, 0.0) for item in units[scope])

    def needs_sample(scope: str) -> bool:
        return any(SAMPLE_FIXTURE in getattr(i, "fixturenames", ()) for i in units[scope])

    long_units = sorted(
        (s for s in units if cost(s) >= LONG), key=lambda s: (-cost(s), position[s])
    )
    sample = [s for s in long_units if needs_sample(s)]
    first = sample[:1]
    independent = [s for s in long_units if not needs_sample(s)]
    order = first + independent + sample[1:]
    chosen = set(order)
    order += [s for s in units if s not in chosen]
    return [item for scope in order for item in units[scope]]


# ------------------------------------------------------------------- measuring the costs


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """With `CLASSEMENT_RECORD_COSTS=<folder>`, each test's CPU seconds (its fixtures'
    set-up included) appended to `<folder>/<worker>.jsonl`."""
    folder = os.environ.get(RECORD)
    if not folder:
        yield
        return
    before = _cpu_seconds()
    yield
    spent = _cpu_seconds() - before
    Path(folder).mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(Path(folder) / f"{worker}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps({"id": item.nodeid, "cpu": spent}) + "\n")


def merge(folder: Path, target: Path = COSTS) -> int:
    """The recorded costs of `folder` written to `target` (those of at least 0.5 s, rounded
    to a tenth, sorted by test id); returns how many were written."""
    costs: dict[str, float] = {}
    for log in sorted(folder.glob("*.jsonl")):
        for line in log.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            costs[row["id"]] = round(float(row["cpu"]), 1)
    kept = {k: v for k, v in sorted(costs.items()) if v >= 0.5}
    target.write_text(json.dumps(kept, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    return len(kept)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(
            "usage : python -m tests.schedule DOSSIER (les mesures de CLASSEMENT_RECORD_COSTS)"
        )
    print(f"{merge(Path(sys.argv[1]))} tests mesurés écrits dans {COSTS}")
