"""Blocks a rule family adds to every player page, one module each, found by `discover()`.

A module here defines `BLOCK = PlayerBlock(...)`: `load(data)` reads and splits what the
block needs once for all players (`by_player(frame)`), and `render(player_id, loaded)`
returns the block's markup for one player, or None when the player has nothing there.
The player pages (`pipelines.reports.player_pages`) show the blocks by `order`, after their own.

`render` reads a player's rows with `PlayerRows.rows_of` (Python rows, fetched for many
players at once by the pages); a block may also give `render_chunk`, the same markup for a
chunk of players at once, built column-wise (`pipelines.reports.cells`): the pages then
call it instead of `render`. A page is rendered again only when what it shows changed:
each `by_player` split carries a digest of every player's rows, and whatever else `load`
returns counts for every player (a change there renders every page again). A block's
`render` must read nothing but what its `load` returned.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import io
import pkgutil
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import polars as pl

from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, link, text


@dataclass(frozen=True)
class PlayerBlock:
    key: str
    title: str
    order: int
    load: Callable[[ReportData], Any]
    render: Callable[[str, Any], Html | None]
    # the block of a chunk of players at once (`pl.Series` of licences, what `load`
    # returned): {licence: markup}, a player without one left out; the same markup as
    # `render`'s, player by player (the pages use it when the block has one)
    render_chunk: Callable[[pl.Series, Any], Mapping[str, str]] | None = None


class PlayerRows(Mapping[str, pl.DataFrame]):
    """A frame split by `player_id`, with a digest of each player's rows (`digests`): the
    player pages tell from it which pages changed without rendering them.

    The rows are kept as one frame grouped by player (`frame`); a player's rows are a
    slice of it, taken when asked (no frame per player is built ahead: at 20,000 players
    a table split in advance was hundreds of thousands of small frames)."""

    def __init__(
        self,
        frame: pl.DataFrame | None,
        spans: Mapping[str, tuple[int, int]],
        digests: Mapping[str, int],
    ) -> None:
        self.frame = frame
        self._spans: dict[str, tuple[int, int]] = dict(spans)
        self.digests: dict[str, int] = dict(digests)
        self._fetched: dict[str, list[dict[str, Any]]] = {}

    def prefetch(self, players: Collection[str]) -> None:
        """Read the rows of `players` as Python rows in one call (`rows_of`), instead of
        one call per player; the rows fetched before are let go."""
        self._fetched = {}
        if self.frame is None:
            return
        part = self.frame.filter(pl.col("player_id").is_in(pl.Series(list(players)).implode()))
        for row in part.rows(named=True):
            self._fetched.setdefault(row["player_id"], []).append(row)

    def rows_of(self, player_id: str) -> list[dict[str, Any]]:
        """The player's rows as Python rows, in their order (none: empty)."""
        fetched = self._fetched.get(player_id)
        if fetched is not None:
            return fetched
        if player_id not in self._spans:
            return []
        return self[player_id].rows(named=True)

    def __getitem__(self, player_id: str) -> pl.DataFrame:
        start, length = self._spans[player_id]
        assert self.frame is not None
        return self.frame.slice(start, length)

    def __contains__(self, player_id: object) -> bool:
        return player_id in self._spans

    def __iter__(self) -> Iterator[str]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (to a page worker: `player_pages._Pool`) with its frame as Arrow IPC
        compressed by LZ4: a chunk's tables of s20, 51.6 MB pickled as Polars pickles a
        frame, are 9.9 MB so, at about the same cost to write and read (the pipe to the
        worker copied 1.4 GB for the 27 chunks of a full build, ~3 CPU-s of the two
        processes). The rows fetched (`prefetch`) are not sent."""
        if self.frame is None:
            return (_unpickled, (None, self._spans, self.digests))
        buffer = io.BytesIO()
        self.frame.write_ipc(buffer, compression="lz4")
        return (_unpickled, (buffer.getvalue(), self._spans, self.digests))


def _unpickled(
    ipc: bytes | None, spans: Mapping[str, tuple[int, int]], digests: Mapping[str, int]
) -> PlayerRows:
    """A `PlayerRows` from its pickled parts (`PlayerRows.__reduce__`)."""
    return PlayerRows(None if ipc is None else pl.read_ipc(io.BytesIO(ipc)), spans, digests)


def by_player(frame: pl.DataFrame, unshown: Collection[str] = ()) -> PlayerRows:
    """A frame split by `player_id` (the player's rows in their order), with each
    player's digest: a hash of their rows, columns and order included, except the columns
    `unshown` (what the page does not show, or shows from the seasons' shared files:
    `pipelines.reports.player_seasons`), whose change renders no page again."""
    if frame.height == 0:
        return PlayerRows(None, {}, {})
    hashed = [c for c in frame.columns if c not in set(unshown)]
    digests = (
        frame.select(
            "player_id",
            pl.struct(hashed).hash(seed=DIGEST_SEED).alias("_row"),
        )
        .group_by("player_id", maintain_order=True)
        .agg(pl.col("_row"))
        .with_columns(pl.col("_row").hash(seed=DIGEST_SEED))
    )
    columns = ",".join(f"{n}:{d}" for n, d in frame.schema.items() if n in hashed)
    salt = hash_text(columns)
    # the players in order of first appearance, each one's rows in their order
    grouped = frame.sort("player_id", maintain_order=True, nulls_last=True)
    counts = grouped.group_by("player_id", maintain_order=True).len()
    spans: dict[str, tuple[int, int]] = {}
    start = 0
    for pid, length in counts.iter_rows():
        spans[pid] = (start, length)
        start += length
    return PlayerRows(
        grouped,
        spans,
        {pid: (h ^ salt) for pid, h in digests.iter_rows()},
    )


def season_link(season: str | None, reported: Collection[str], anchor: str = "") -> Html:
    """A season on a player page: a link to its report (`anchor` a section of it) when the
    season has one (`reported`: `ReportData.seasons()`, the seasons holding a tournament),
    else its name only (a series a rating list gives for a season not played yet has no
    report to open); « — » without a season."""
    if not season:
        return Html("—")
    return _season_markup(season, season in reported, anchor)


@lru_cache(maxsize=4096)
def _season_markup(season: str, linked: bool, anchor: str) -> Html:
    """`season_link`'s markup, made once per season (the pages write it 250,000 times)."""
    if not linked:
        return text(season)
    return link(f"../{season}/index.html{anchor}", season)


DIGEST_SEED = 20_260_101  # fixed: the digests of one Polars version are stable


def hash_text(text: str) -> int:
    """A stable 64-bit hash of a text (Python's own `hash` changes between processes)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def splits_in(value: object) -> list[PlayerRows]:
    """The `PlayerRows` in what a block's `load` returned (in its fields, items, values)."""
    if isinstance(value, PlayerRows):
        return [value]
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in splits_in(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in splits_in(v)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [s for f in dataclasses.fields(value) for s in splits_in(getattr(value, f.name))]
    return []


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
