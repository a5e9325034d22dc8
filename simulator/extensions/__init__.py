"""What a rule family adds to the simulated federation, one module each.

A module here defines `ORDER` (an int) and `extend(ctx: SeasonContext) -> None`, called for
every season after its tournaments are played and before they are written: it may change
what is written for them (e.g. a `top_total` checked by a game sheet) and write files of
its own to `ctx.folder`, counting them with `ctx.wrote(path, rows)`. Each extension draws
from its own random stream (`ctx.rng(key)`), so that adding one changes nothing the others
or the base simulation write.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from simulator import GenerateSummary
    from simulator.season import Simulator
    from simulator.tournament import Tournament


@dataclass
class SeasonContext:
    """One simulated season, as the extensions see it."""

    sim: Simulator
    season: str  # label, `2024-2025`
    index: int  # 0 for the first season
    folder: Path  # where the season's files are written
    tournaments: list[Tournament]
    summary: GenerateSummary
    seed: int

    def rng(self, key: str) -> np.random.Generator:
        """A random stream of its own for `key` (an extension's name) and this season."""
        salt = [ord(c) for c in key]
        return np.random.default_rng([self.seed, 2, self.index, *salt])

    def wrote(self, path: Path, rows: int = 0) -> None:
        """Count a file an extension wrote in the summary."""
        self.summary.files += 1
        self.summary.bytes += path.stat().st_size
        self.summary.extra_rows[path.parent.name + "/" + path.name] = rows


Extension = Callable[[SeasonContext], None]


@cache
def extensions() -> tuple[Extension, ...]:
    """Every extension's `extend`, by `ORDER` then module name."""
    found: list[tuple[int, str, Extension]] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.append((int(module.ORDER), info.name, module.extend))
    return tuple(extend for _, _, extend in sorted(found))
