"""Blocks a rule family adds to every player page, one module each, found by `discover()`.

A module here defines `BLOCK = PlayerBlock(...)`: `load(data)` reads and splits what the
block needs once for all players (e.g. `by_player(frame)`), and `render(player_id, loaded)`
returns the block's markup for one player, or None when the player has nothing there.
The player pages (`pipelines.reports.site`) show the blocks by `order`, after their own.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import polars as pl

from pipelines.reports.data import ReportData
from pipelines.reports.html import Html


@dataclass(frozen=True)
class PlayerBlock:
    key: str
    title: str
    order: int
    load: Callable[[ReportData], Any]
    render: Callable[[str, Any], Html | None]


def by_player(frame: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """A frame split by `player_id` (the player's rows in their order)."""
    if frame.height == 0:
        return {}
    return {k[0]: v for k, v in frame.partition_by("player_id", as_dict=True).items()}


@cache
def discover() -> tuple[PlayerBlock, ...]:
    found: dict[str, PlayerBlock] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        block = getattr(module, "BLOCK", None)
        if isinstance(block, PlayerBlock):
            if block.key in found:
                raise ValueError(f"two player blocks share the key {block.key!r}")
            found[block.key] = block
    return tuple(sorted(found.values(), key=lambda b: (b.order, b.key)))
