"""The suite's order (tests/schedule.py): the longest units of work first, the sample's
build started at once, the units that need it after the long independent ones."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.schedule import merge, ordered


@dataclass
class Item:
    nodeid: str
    fixturenames: list[str] = field(default_factory=list)


def _scope(nodeid: str) -> str:
    module = nodeid.split("::", 1)[0]
    return module if module == "g.py" else nodeid


def test_the_longest_units_first_the_sample_build_at_once_new_tests_last() -> None:
    items: list[Any] = [
        Item("a.py::light"),
        Item("a.py::long"),
        Item("b.py::needs_sample_short", ["sample_site"]),
        Item("b.py::needs_sample_long", ["sample_site"]),
        Item("g.py::one"),
        Item("g.py::two"),
        Item("c.py::new"),
        Item("a.py::medium"),
    ]
    costs = {
        "a.py::light": 0.6,
        "a.py::long": 30.0,
        "b.py::needs_sample_short": 5.0,
        "b.py::needs_sample_long": 40.0,
        "g.py::one": 10.0,
        "g.py::two": 15.0,
        "a.py::medium": 12.0,
    }
    order = [item.nodeid for item in ordered(items, _scope, costs)]
    assert order == [
        "b.py::needs_sample_long",  # starts the sample's build
        "a.py::long",
        "g.py::one",  # a grouped module: 25 s whole, its tests in file order
        "g.py::two",
        "a.py::medium",
        "b.py::needs_sample_short",  # after the long independent units
        "a.py::light",  # below a second: file order, at the end
        "c.py::new",
    ]


def test_without_costs_the_order_is_the_files(tmp_path: Path) -> None:
    items: list[Any] = [Item("a.py::x"), Item("b.py::y", ["sample_site"]), Item("g.py::z")]
    assert ordered(items, _scope, {}) == items


def test_the_measures_are_merged_rounded_and_the_short_ones_left_out(tmp_path: Path) -> None:
    (tmp_path / "gw0.jsonl").write_text(
        json.dumps({"id": "a.py::x", "cpu": 2.345})
        + "\n"
        + json.dumps({"id": "a.py::y", "cpu": 0.2})
        + "\n",
        encoding="utf-8",
    )
    (tmp_path / "gw1.jsonl").write_text(
        json.dumps({"id": "b.py::z", "cpu": 7.0}) + "\n", encoding="utf-8"
    )
    target = tmp_path / "costs.json"
    assert merge(tmp_path, target) == 2
    assert json.loads(target.read_text(encoding="utf-8")) == {"a.py::x": 2.3, "b.py::z": 7.0}
