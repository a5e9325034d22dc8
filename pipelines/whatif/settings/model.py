"""What the what-if's settings are made of: the reference files a what-if may change, a
changeable `Parameter`, a `Change` of value, a prepared `Scenario`, and `WhatIfError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The files a what-if recomputes, each with the rule families it feeds (docs/rules.md §9).
# The other reference files (seasons, federations, circuits, Mort Subite, scoring) feed the
# ingest or families the what-if does not recompute: their keys are refused by name.
SUPPORTED_FILES: dict[str, tuple[str, ...]] = {
    "series.yaml": ("series",),
    "series_quotas.csv": ("series",),
    "cote.yaml": ("cote",),
    "cote_categories.csv": ("cote",),
    "elo.yaml": ("elo",),
    "national.yaml": ("national",),
}
QUOTAS_FILE = "series_quotas.csv"
CATEGORIES_FILE = "cote_categories.csv"
QUOTAS_PREFIX = "series.quotas"
CATEGORIES_PREFIX = "cote.categories"
CATEGORY_COLUMNS = ("bonus_m", "pj_min", "pj_max")
OTHERS = "*"
REST = "rest"


class WhatIfError(ValueError):
    """A what-if that cannot run: an unknown key, a bad value, inconsistent parameters. The
    message is French and names what to correct."""


@dataclass(frozen=True)
class Parameter:
    """One changeable parameter: its key, file, current value and the kind of value it takes.
    `path`: where it lives in its file (mapping keys and list indices for a YAML file; the
    row's address for a CSV table)."""

    key: str
    file: str
    value: Any
    kind: str
    path: tuple[Any, ...]
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Change:
    """A parameter's value before and after (`None` before: absent from the base folder).
    `derived`: not set by the what-if but following a set one (quota sub-shares)."""

    key: str
    file: str
    before: Any
    after: Any
    derived: bool = False


@dataclass(frozen=True)
class Scenario:
    """A prepared what-if: the base folder the warehouse was built with, the changed copy,
    the changes (sorted by key) and their short hash."""

    base_dir: Path
    reference_dir: Path
    changes: tuple[Change, ...]
    digest: str
    settings: tuple[str, ...] = field(default=())

    @property
    def files(self) -> frozenset[str]:
        """The reference files whose parameters differ."""
        return frozenset(c.file for c in self.changes)
