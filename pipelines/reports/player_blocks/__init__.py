"""Blocks a rule family adds to every player page, one module each, found by `discover()`.

A module here defines `BLOCK = PlayerBlock(...)`: `load(data)` reads and splits what the
block needs once for all players (`by_player(frame)`), and `render(player_id, loaded)`
returns the block's markup for one player, or None when the player has nothing there.
The player pages (`pipelines.reports.player_pages`) show the blocks by `order`, after their own.

A page is rendered again only when what it shows changed: each `by_player` split carries
a digest of every player's rows, and whatever else `load` returns counts for every player
(a change there renders every page again). A block's `render` must read nothing but what
its `load` returned.
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
from collections.abc import Callable, Mapping
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


class PlayerRows(dict[str, pl.DataFrame]):
    """A frame split by `player_id`, with a digest of each player's rows (`digests`): the
    player pages tell from it which pages changed without rendering them."""

    def __init__(self, parts: Mapping[str, pl.DataFrame], digests: Mapping[str, int]) -> None:
        super().__init__(parts)
        self.digests: dict[str, int] = dict(digests)


def by_player(frame: pl.DataFrame) -> PlayerRows:
    """A frame split by `player_id` (the player's rows in their order), with each
    player's digest: a hash of their rows, columns and order included."""
    if frame.height == 0:
        return PlayerRows({}, {})
    digests = (
        frame.select(
            "player_id",
            pl.struct(pl.all()).hash(seed=DIGEST_SEED).alias("_row"),
        )
        .group_by("player_id", maintain_order=True)
        .agg(pl.col("_row"))
        .with_columns(pl.col("_row").hash(seed=DIGEST_SEED))
    )
    columns = ",".join(f"{n}:{d}" for n, d in frame.schema.items())
    salt = hash_text(columns)
    return PlayerRows(
        {k[0]: v for k, v in frame.partition_by("player_id", as_dict=True).items()},
        {pid: (h ^ salt) for pid, h in digests.iter_rows()},
    )


DIGEST_SEED = 20_260_101  # fixed: the digests of one Polars version are stable


def hash_text(text: str) -> int:
    """A stable 64-bit hash of a text (Python's own `hash` changes between processes)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


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
