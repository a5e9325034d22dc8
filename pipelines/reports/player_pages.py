"""One page per player, `joueurs/<licence>.html`: every rating change of the player,
explained. A page is rewritten only when what it shows changed (its digest is kept in the
players' folder, `.digests.json`).

Decisions taken here (issue 25, speed and memory; issue 27, item 2):
- The players are taken by chunks of `CHUNK` licences. A chunk's rows of the long tables
  (`PLAYER_TABLES`) are read from the warehouse alone (`_PlayersData`: `WHERE player_id
  IN (…) ORDER BY rowid`, each player's rows those of a whole read, in the same order),
  split by player (`by_player`: one frame grouped by player, a player's rows a slice), the
  chunk's page digests computed and its changed pages rendered before the next chunk is
  read: no table is ever held whole, split by player. What every chunk shares (`_Shared`:
  the players, the events, the federations' names…) and the blocks' small tables
  (`WHOLE_TABLES`) are read once.
- For a chunk, every table the page writes itself is built for all its players at once
  (`_chunk`: cote, Elo, tournaments, rating lists, end-of-season rankings and
  classification, the duplicate events' whole section with its « Part » and season totals,
  the series history's rows, the trajectories' points), each cell's function called once
  per distinct value of the columns it reads (`with_cells`), the rows joined in Polars.
  Only the blocks' rows are read as Python rows (`PlayerRows.prefetch`, one call per
  chunk). No Polars call per player.
- What each page is made from is fingerprinted in the warehouse first (`_sources`: DuckDB
  hashes each player's rows, less the columns a page does not show, each with its event's
  row, by partition — a season, a rating list's date, `players` — and what every page
  reads), kept in `.sources.json` with each partition's row count and sum of row hashes.
  A page whose sources did not change keeps its digest and is neither read nor rendered.
  A new tournament sums the row hashes by partition (one scan), hashes the players again
  only in the partitions whose sums changed (its season's), and names the players whose
  hashes there changed: it reads the rows of its own players only, and the season files
  of the seasons whose rows changed only (`_season_digests`). Measured on 20 seasons ×
  20,000 players plus one tournament (the pages step alone on the built warehouse, CPU of
  the process by `time.process_time`, the shared machine loaded, main's 58d7f57 against
  this code, each from its own full render): 13,1 -> 3,8 CPU-s (fingerprints 6,3 -> 1,4,
  season files 2,8 -> 0,1), peak RSS 843 -> 481 MiB; the same 273 pages rendered, every
  page and season file the same bytes but the generation time. A full build hashes every
  partition, one query a table (1,5 GiB with the tables in one query): all 53,817 pages
  rendered from the same built warehouse, the machine less loaded, 58d7f57 then this
  code: 99,0 -> 108,1 CPU-s (build process 30,7 -> 38,2, of which the sources 3,7 ->
  8,8; workers 68,3 -> 69,9), peak RSS of the build process 936 -> 1,060 MiB: what the
  next new tournament saves, a full build pays once.
- From `PARALLEL_FROM` pages to examine (a full build, not a new tournament), the pages
  are rendered and written by `WORKERS` processes started fresh at the first chunk to render
  ("spawn": the build process holds DuckDB's and Polars' thread pools, never forked), each
  sent the chunk's rows cut down to its players (`_restricted`), at most `WORKERS` + 1
  chunks in flight (`_Pool`). The same bytes (tests/test_player_pages.py). A worker runs
  Polars on one thread (`pipelines.worker_start`). Measured on 4 seasons × 20,000 players, all
  25,646 pages (the shared 2-core machine, noisy): peak RSS of the build process 807 ->
  370–480 MiB, of a worker 746 -> 280–440 MiB; 25–33 CPU-s in all before and after.
  A chunk's tables read for its players alone go to the worker as they are (`_restricted`
  filters only a table holding other players: a block's whole table).
- The charts' JSON is written by `html.safe_json`, through the json module's C encoder
  there where Plotly's encoder (kept for what the C encoder cannot write the same: a
  date, « NaN »…) would write the same text. Measured on 4 seasons ×
  20,000 players, all 25,643 pages from a built warehouse, 2 workers, CPU of the process
  and its workers (getrusage), the machine loaded by other work, before and after
  alternated: 48,8 -> 41,3 CPU-s (build process 13,8 -> 11,8, workers 35,0 -> 29,5);
  pages byte-identical. The same pages on c1a8b32 (every table read whole, once): 45,0
  CPU-s (9,4 + 35,7): the chunks' reads from the warehouse (a scan of each long table
  per chunk), their splits and digests cost the build process about 5 CPU-s more there.
  On 20 seasons × 20,000 players (53,817 pages, the same way): 138,1 -> 129,3 CPU-s
  (build process 45,9 -> 41,9, workers 92,2 -> 87,4; peak RSS of the build process
  834–883 MiB); c1a8b32 122,2 (27,4 + 94,8, its build process at 2,8 GiB). The build
  process's share grows with the seasons: 27 chunks each scanning the long tables
  (about 0,6 CPU-s a chunk for the twelve reads), and it paces the workers.
- The markup is the one `html.table` writes, byte for byte (tests/test_player_pages.py).
- A season is linked only when it has a report (`season_link`): a rating list's series for
  a season without a tournament names the season without a link.
- The season-wide facts (end-of-season ranks, the classification computed here and the
  series it gives the next season) are read by the page from one shared file per season
  (`player_seasons`), and left out of the page digest with the columns a page never shows
  (the warehouse-wide event order, the FFSc comparison's verdict): a new tournament
  renders its own players' pages (issue 25; 4 seasons × 20,000 players: 207 pages, not
  13,362).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, cast

import polars as pl

from pipelines import cache_json, worker_start
from pipelines.build_state import code_digest
from pipelines.reports.cells import Cell, table_shell, with_cells
from pipelines.reports.charts import (
    Series,
    axis,
    base_layout,
    cote_trajectories,
    elo_trajectories,
)
from pipelines.reports.charts import line_trace as _line
from pipelines.reports.data import ReportData
from pipelines.reports.html import (
    Html,
    count_of,
    definition_list,
    esc,
    esc_expr,
    fmt_date,
    fmt_number,
    fmt_signed,
    link,
    per_value,
    player_filename,
    safe_json,
    write_atomic,
)
from pipelines.reports.labels import (
    DISCIPLINES,
    series_label,
    series_long,
)
from pipelines.reports.layout import PLAYERS_DIR
from pipelines.reports.page import GLOSSARY_PAGE, Rejected, notice, page
from pipelines.reports.player_blocks import (
    PlayerBlock,
    PlayerRows,
    by_player,
    hash_text,
    season_link,
    splits_in,
)
from pipelines.reports.player_blocks import discover as discover_blocks
from pipelines.reports.player_seasons import (
    COTE_RANK,
    CRITERION,
    ELO_RANK,
    LABEL,
    MOVEMENT,
    NO_SCRIPT,
    SEASONS_DIR,
    SUBSERIES,
    UNSHOWN,
    fill_call,
    plot_call,
    season_records,
    season_scripts,
    shared,
    why_cell,
    write_season_files,
)
from pipelines.reports.section import PLOT_CONFIG, Chart, chart_html
from pipelines.reports.site import PLOTLY_ASSET
from pipelines.warehouse import Warehouse
from pipelines.worker_start import start_worker
from transforms.calendar import next_season
from transforms.series import event_coefficients
from transforms.series_labels import SERIES_ORDER, series_level, series_level_of

SERIES_STEPS = {label: step for step, label in enumerate(SERIES_ORDER)}


@dataclass(frozen=True)
class _PlayerData:
    """Every table the player pages read, split by player once."""

    players: pl.DataFrame  # the players with a page, in directory order
    player_rows: PlayerRows  # the same, by player
    names: Mapping[str, str]
    cote: PlayerRows
    elo: PlayerRows
    results: PlayerRows
    duplicate: PlayerRows
    classification: PlayerRows
    movements: PlayerRows
    cote_ranking: PlayerRows
    elo_ranking: PlayerRows
    blocks: tuple[tuple[PlayerBlock, Any], ...]  # the families' blocks, each loaded once
    listed: PlayerRows  # rating lists, by date
    standings: PlayerRows
    published: PlayerRows  # the FFSc's published series (comparison rows)
    events: Mapping[str, tuple[str, dt.date | None, float]]  # id → name, end, weight
    divisor: float  # the series' minimum divisor D
    federations: Mapping[str, str | None]  # as written → « France (FRA) »
    rejected: tuple[Rejected, ...]
    season_end: Callable[[str], dt.date]
    reported: tuple[str, ...]  # the seasons with a report (`ReportData.seasons()`)


def _event_weights(data: ReportData) -> dict[str, tuple[str, dt.date | None, float]]:
    params = data.params.series
    events = data.tournaments()
    ident = pl.col("tournament_id")
    name = pl.col("tournament_name").cast(pl.String)
    # column by column, not row by row (s20's 24,355 events: 0.12 -> 0.02 s a build)
    columns = events.select(
        ident,
        pl.when(name.is_null() | (name == "")).then(ident).otherwise(name).alias("name"),
        "end_date",
        event_coefficients(events, params)["coefficient"].cast(pl.Float64),
    )
    return dict(
        zip(columns["tournament_id"].to_list(), columns.drop("tournament_id").rows(), strict=True)
    )


@dataclass(frozen=True)
class _Shared:
    """What every chunk of players reads whole: the players with a page (in directory
    order), their names, the events, the series' divisor, the federations' names, the
    rejected exports, the seasons' ends and the reported seasons. The same for every
    chunk: the digest of a page never depends on the chunk that builds it."""

    players: pl.DataFrame
    names: Mapping[str, str]
    events: Mapping[str, tuple[str, dt.date | None, float]]
    divisor: float
    federations: Mapping[str, str | None]
    rejected: tuple[Rejected, ...]
    season_end: Callable[[str], dt.date]
    reported: tuple[str, ...]


def _shared(data: ReportData) -> _Shared:
    players = data.player_names()
    written = players["federation"].drop_nulls().unique().sort().to_list()
    # a player with no name anywhere (a rating list that names nobody) gets no page
    paged = players.filter(pl.col("named")).join(
        data.table("players").select(
            "player_id", "first_tournament_date", "last_tournament_date", "tournaments"
        ),
        on="player_id",
    )
    return _Shared(
        players=paged,
        names=data.names(),
        events=_event_weights(data),
        divisor=float(data.params.series.minimum_divisor),
        federations={w: data.federation_label(w) for w in written},
        rejected=tuple(data.rejected_exports()),
        season_end=data.calendar.end,
        reported=tuple(data.seasons()),
    )


# The tables read for a chunk's players only (`_PlayersData`): the long ones, each row a
# player's. The others (tournaments, players, the circuits' and Mort Subite's small
# tables, whose blocks count a round's participants or find a year's latest ranking over
# every player) are read whole, once.
PLAYER_TABLES = frozenset(
    {
        "results",
        "cote_history",
        "elo_history",
        "duplicate_event_scores",
        "series_classification",
        "series_movements",
        "cote_ranking",
        "elo_ranking",
        "rating_lists",
        "series_standings",
        "series_comparison",
        "national_classification",
    }
)


@dataclass(frozen=True)
class _Reader(Warehouse):
    """The warehouse read through one open connection (the build's own when it holds the
    file): a chunk's dozen reads do not open the file each."""

    connection: Any = None

    @contextmanager
    def connect(self, *, read_only: bool = False) -> Iterator[Any]:
        yield self.connection


class _PlayersData(ReportData):
    """`whole` with its long tables (`PLAYER_TABLES`) holding the rows of `players` only,
    read so from the warehouse (in the table's order, as a whole read gives them: each
    player's rows are those of the whole table, in the same order); every other table,
    the events and the names are `whole`'s."""

    def __init__(
        self,
        whole: ReportData,
        reader: Warehouse,
        players: Sequence[str],
        slab: _Slab | None = None,
    ) -> None:
        super().__init__(reader, whole.params)
        self._whole = whole
        self._players = sorted(set(players))
        self._slab = slab

    def table(self, name: str) -> pl.DataFrame:
        if name not in PLAYER_TABLES:
            return self._whole.table(name)
        if name not in self._cache:
            if self._slab is not None:
                rows = self._slab.table(self, name)
                self._cache[name] = rows.filter(pl.col("player_id").is_in(self._players))
            else:
                self._cache[name] = self.players_rows(name, self._players)
        return self._cache[name]

    def tournaments(self, season: str | None = None) -> pl.DataFrame:
        return self._whole.tournaments(season)

    def names(self) -> dict[str, str]:
        return self._whole.names()

    def players_rows(self, name: str, players: list[str]) -> pl.DataFrame:
        """The rows of `players` (sorted) in the table `name`, in the table's order."""
        return self._read(
            name,
            f'SELECT * FROM "{name}" WHERE player_id BETWEEN ? AND ? AND player_id IN '
            "(SELECT unnest(?::VARCHAR[])) ORDER BY rowid",
            [players[0] if players else "", players[-1] if players else "", players],
        )


class _Slab:
    """The long tables' rows (`PLAYER_TABLES`) of several chunks' players (`SLAB` chunks,
    consecutive licences), read once for them all; each chunk's `_PlayersData` takes its
    players' rows from them (the same rows in the same order: a filter keeps the order).
    Each read of a long table scans it whole whatever the players asked for: a read per
    slab rather than per chunk."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = sorted(set(players))
        self._rows: dict[str, pl.DataFrame] = {}

    def table(self, data: _PlayersData, name: str) -> pl.DataFrame:
        if name not in self._rows:
            self._rows[name] = data.players_rows(name, self.players)
        return self._rows[name]


# The tables the blocks read whole (small: a round's participants, a year's latest
# ranking are counted over every player); any change in them examines every page again.
WHOLE_TABLES = (
    "circuit_points",
    "circuit_rankings",
    "circuit_ranking_windows",
    "round_robin_standings",
    "mort_subite_players",
    "mort_subite_results",
    "mort_subite_standings",
)
# read whole, each counted where it shows: the players' own rows (`players`), the events
# of a player's rows (`tournaments`), the rejected exports (`ingest_log`, in `_Shared`)
OTHER_TABLES = ("players", "tournaments", "ingest_log")
# the events the blocks name (a circuit's tournaments, a final, a Mort Subite round's host)
_BLOCK_EVENTS = {
    "circuit_points": "tournament_id",
    "round_robin_standings": "tournament_id",
    "mort_subite_players": "host_tournament_id",
}


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


# the version of `SOURCES_FILE`'s layout: another version is read as no sources at all
SOURCES_VERSION = 2
# a partition whose value is missing (a result of an event the tournaments do not hold)
_NO_VALUE = "\u2205"
_PARTITION_TABLES = ("players", *sorted(PLAYER_TABLES))


@dataclass(frozen=True)
class _Source:
    """How a table's rows are fingerprinted: the SQL of a row's hash (its shown columns and
    its event's whole row), the partition of a row (`partition`: its season, a result's
    through its event, a rating list's date; None: the table is one partition) and the key
    namespace of its partitions."""

    name: str
    row: str
    joined: bool
    partition: str | None
    namespace: str

    def key(self, value: str | None) -> str:
        return f"{self.namespace}:{self.name if self.partition is None else value}"

    def frm(self) -> str:
        join = "LEFT JOIN _events e ON e.tournament_id = t.tournament_id " if self.joined else ""
        return f"FROM {_quoted(self.name)} t {join}WHERE t.player_id IS NOT NULL"

    def value(self) -> str:
        """The SQL of a row's partition, as text (`_NO_VALUE` for none)."""
        if self.partition is None:
            return f"'{self.name}'"
        return f"coalesce(CAST({self.partition} AS VARCHAR), '{_NO_VALUE}')"


def _table_sources(columns: Mapping[str, list[tuple[str, str]]]) -> list[_Source]:
    events = "tournaments" in columns
    seasons = events and any(c == "season" for c, _ in columns["tournaments"])
    found = []
    for name in _PARTITION_TABLES:
        if name not in columns:
            continue
        names = [c for c, _ in columns[name]]
        shown = [c for c in names if c not in UNSHOWN.get(name, ())]
        joined = events and "tournament_id" in names
        row = "hash(" + ", ".join(f"t.{_quoted(c)}" for c in shown)
        row += ", e._event)" if joined else ")"
        if "season" in names:
            partition, namespace = "t.season", "s"
        elif joined and seasons:
            partition, namespace = "e._season", "s"
        elif "as_of" in names:
            partition, namespace = "t.as_of", "d"
        else:
            partition, namespace = None, "t"
        found.append(_Source(name, row, joined, partition, namespace))
    return found


def _common_part(connection: Any, common: _Shared, code: str, columns: Any) -> str:
    """What every page reads, fingerprinted: the code and parameters, what `_Shared` holds
    for every page (federations' names, divisor, rejected exports, reported seasons), the
    tables the blocks read whole (`WHOLE_TABLES`) and the events they name, and the
    columns of every table the pages read."""
    read = [*PLAYER_TABLES, *WHOLE_TABLES, *OTHER_TABLES]
    schema = {name: columns.get(name) for name in sorted(read)}
    whole = []
    for name in WHOLE_TABLES:
        if name in columns:
            found = connection.execute(
                f"SELECT hash(list(hash(t) ORDER BY t.rowid)) FROM {_quoted(name)} t"
            ).fetchall()
            whole.append((name, found[0][0]))
    named = [f"SELECT {c} FROM {_quoted(t)}" for t, c in _BLOCK_EVENTS.items() if t in columns]
    if "tournaments" in columns and named:
        found = connection.execute(
            "SELECT hash(list(hash(t) ORDER BY t.rowid)) FROM tournaments t "
            f"WHERE tournament_id IN ({' UNION '.join(named)})"
        ).fetchall()
        whole.append(("block events", found[0][0]))
    text = repr(
        (
            SOURCES_VERSION,
            code,
            schema,
            whole,
            common.divisor,
            sorted(common.federations.items()),
            common.rejected,
            common.reported,
        )
    )
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _events_prelude(columns: Mapping[str, Any]) -> str:
    if "tournaments" not in columns:
        return ""
    season = "season" if any(c == "season" for c, _ in columns["tournaments"]) else "NULL::VARCHAR"
    return (
        "WITH _events AS (SELECT tournament_id, hash(t) AS _event, "
        f"{season} AS _season FROM tournaments t) "
    )


# the tables the season files are made from (`player_seasons.season_records`): the first
# three give a season its file, the movements are joined to the classification
SEASON_TABLES = ("cote_ranking", "elo_ranking", "series_classification", "series_movements")


def _season_digests(connection: Any, columns: Mapping[str, Any]) -> dict[str, str] | None:
    """Each season file's sources: the season's rows of `SEASON_TABLES`, each table's
    hashed in its order; None when a row has no season (every file is made again)."""
    parts = [
        f"SELECT '{name}' AS source, season, hash(list(hash(t) ORDER BY t.rowid)) AS h "
        f"FROM {_quoted(name)} t GROUP BY season"
        for name in SEASON_TABLES
        if name in columns
    ]
    if not parts:
        return {}
    rows = connection.execute(
        "SELECT season, hash(list(source || ':' || h::VARCHAR ORDER BY source))::VARCHAR "
        "FROM (" + " UNION ALL ".join(parts) + ") GROUP BY season "
        "HAVING bool_or(source <> 'series_movements')"
    ).fetchall()
    if any(season is None for season, _ in rows):
        return None
    return {season: digest for season, digest in rows}


def _season_rows(data: ReportData, name: str, seasons: Sequence[str] | None) -> pl.DataFrame:
    """A table of `SEASON_TABLES`, whole or (`seasons`) the rows of these seasons, in the
    table's order."""
    if seasons is None:
        return data.table(name)
    return data._read(
        name,
        f"SELECT * FROM {_quoted(name)} WHERE season IN (SELECT unnest(?::VARCHAR[])) "
        "ORDER BY rowid",
        [list(seasons)],
    )


def _sources(
    connection: Any, common: _Shared, code: str, before: Mapping[str, Any]
) -> tuple[dict[str, Any], set[str] | None]:
    """What the pages are made from, fingerprinted in the warehouse without reading the rows
    out, and the players whose own part changed since `before` (the sources the pages were
    last rendered from, `SOURCES_FILE`; None: every player, the common part changed).

    A player's own part is their rows of every table read for a chunk's players
    (`PLAYER_TABLES`, less the columns a page does not show: `UNSHOWN`) and of `players`,
    each row with the whole row of its event (`tournaments`), in the table's order. It is
    kept by partition (a season: the rows of that season's tables, a result's through its
    event; a rating list's date; `players`), each partition's players' hashes (in their
    rows' order) apart: a new tournament hashes again the players of the partitions whose
    rows changed (each table's count and sum of row hashes by partition, one scan: about a
    tenth of hashing every player's rows), and names the players whose hashes there
    changed. A table's partitions must each hold consecutive rows, in the order they were
    last seen (a player's rows across partitions keep their order); else the table is one
    partition, or (another order) every player is examined."""
    columns: dict[str, list[tuple[str, str]]] = {}
    for name, column, kind in connection.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position"
    ).fetchall():
        columns.setdefault(name, []).append((column, kind))
    common_part = _common_part(connection, common, code, columns)
    sources = _table_sources(columns)
    prelude = _events_prelude(columns)
    same = before.get("common") == common_part
    old_tables: Mapping[str, Any] = before.get("tables", {}) if same else {}
    old_keys: Mapping[str, str] = before.get("keys", {}) if same else {}
    tables: dict[str, Any] = {}
    gone: set[str] = set()  # the keys of partitions a table no longer has this way
    changed: dict[str, set[str]] = {}  # per table, the partitions to hash again
    reordered = False
    for source in sources:
        rows = connection.execute(
            prelude + f"SELECT {source.value()} AS _part, count(*), "
            f"sum({source.row})::VARCHAR, min(t.rowid), max(t.rowid) {source.frm()} "
            "GROUP BY _part ORDER BY min(t.rowid)"
        ).fetchall()
        apart = all(rows[i][4] < rows[i + 1][3] for i in range(len(rows) - 1))
        if not apart and source.partition is not None:  # one partition: the whole table
            source = dataclasses.replace(source, partition=None, namespace="t")
            rows = connection.execute(
                prelude + f"SELECT {source.value()} AS _part, count(*), "
                f"sum({source.row})::VARCHAR {source.frm()} GROUP BY _part"
            ).fetchall()
        parts = {str(r[0]): [r[1], r[2]] for r in rows}
        order = [str(r[0]) for r in rows]
        tables[source.name] = {"keys": source.namespace, "order": order, "parts": parts}
        old = old_tables.get(source.name)
        if old is None or old.get("keys") != source.namespace:
            changed[source.name] = set(parts)
            if old is not None:  # its partitions were others: theirs are hashed again
                gone |= _keys_of(source.name, old)
            continue
        old_parts = old.get("parts", {})
        kept = [p for p in old.get("order", []) if p in parts]
        if kept != [p for p in order if p in old_parts]:
            reordered = True
        changed[source.name] = {p for p in {*parts, *old_parts} if parts.get(p) != old_parts.get(p)}
    # the keys (partitions) to hash again: every table's rows of a changed partition
    by_name = {s.name: s for s in sources}
    for name, described in tables.items():
        if described["keys"] == "t":
            by_name[name] = dataclasses.replace(by_name[name], partition=None, namespace="t")
    stale = {by_name[n].key(p) for n, parts in changed.items() for p in parts}
    for name, old in old_tables.items():
        if name not in tables:
            gone |= _keys_of(name, old)
    stale |= gone
    keys = {k: v for k, v in old_keys.items() if k not in stale}
    flagged: set[str] = set()
    fresh = _hash_keys(connection, prelude, list(by_name.values()), stale)
    for key in sorted(stale):
        now, mine = fresh.get(key, (None, []))
        if now is not None:
            keys[key] = now
        if not same or now == old_keys.get(key):
            continue
        was = cache_json.decode(old_keys[key]) if key in old_keys else []
        # the players whose (player, hash) pair is on one side only: a hash changed, or a
        # player came or went
        flagged |= {p for p, _ in set(map(tuple, was)) ^ set(mine)}
    state = {"version": SOURCES_VERSION, "common": common_part, "tables": tables, "keys": keys}
    state["seasons"] = _season_digests(connection, columns)
    return state, (flagged if same and not reordered else None)


def _keys_of(name: str, table: Mapping[str, Any]) -> set[str]:
    """The keys of a table's partitions as `SOURCES_FILE` holds them."""
    if table.get("keys") == "t":
        return {f"t:{name}"}
    return {f"{table.get('keys')}:{p}" for p in table.get("parts", {})}


def _hash_keys(
    connection: Any, prelude: str, sources: Sequence[_Source], keys: set[str]
) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """Per key of `keys` (a partition), its players' hashes, as JSON ([[player, hash], …]
    by player) and as (player, hash) pairs: each player's rows of every table in that
    partition, in the table's order, each table's hashed apart with its name, then a
    player's tables' hashes summed (a set: one per table). One query a table: DuckDB holds
    one table's groups at a time."""
    frames = []
    for source in sources:
        if source.partition is None:
            if source.key(None) not in keys:
                continue
            where, params = "", None
        else:
            values = sorted(
                k.split(":", 1)[1] for k in keys if k.startswith(f"{source.namespace}:")
            )
            if not values:
                continue
            where = f" AND {source.value()} IN (SELECT unnest(?::VARCHAR[]))"
            params = [values]
        order = "t.rowid, e._event" if source.joined else "t.rowid"
        frames.append(
            connection.sql(
                prelude + f"SELECT '{source.namespace}:' || {source.value()} AS _key, "
                f"t.player_id, hash('{source.name}', hash(list({source.row} ORDER BY {order}))) "
                f"AS _h {source.frm()}{where} GROUP BY _key, t.player_id",
                params=params,
            ).pl()
        )
    if not frames:
        return {}
    grouped = (
        pl.concat(frames)
        .group_by("_key", "player_id")
        .agg(pl.col("_h").sum().cast(pl.String))
        .sort("_key", "player_id")
        .group_by("_key", maintain_order=True)
        .agg("player_id", "_h")
    )
    found = {}
    for key, players, hashes in grouped.iter_rows():
        pairs = list(zip(players, hashes, strict=True))
        found[key] = (cache_json.encode(pairs).decode(), pairs)
    return found


def _load(data: ReportData, shared: _Shared | None = None) -> _PlayerData:
    """The pages' data of the players of `data` (`_PlayersData`: a chunk's), with what
    every chunk shares (`_Shared`, read from `data` when not given)."""
    common = shared if shared is not None else _shared(data)
    paged = common.players
    if isinstance(data, _PlayersData):
        paged = paged.filter(pl.col("player_id").is_in(pl.Series(data._players).implode()))
    history = UNSHOWN["history"]

    def split(name: str) -> PlayerRows:
        return by_player(data.table(name), UNSHOWN.get(name, ()))

    return _PlayerData(
        players=paged,
        player_rows=by_player(paged),
        names=common.names,
        cote=by_player(data.cote_history(), history),
        elo=by_player(data.elo_history(), history),
        results=by_player(data.player_results(), history),
        duplicate=by_player(data.table("duplicate_event_scores")),
        classification=split("series_classification"),
        movements=split("series_movements"),
        cote_ranking=split("cote_ranking"),
        elo_ranking=split("elo_ranking"),
        blocks=tuple((block, block.load(data)) for block in discover_blocks()),
        listed=by_player(
            data.table("rating_lists").sort("as_of", "player_id", maintain_order=True)
        ),
        standings=by_player(data.table("series_standings")),
        published=by_player(
            data.table("series_comparison").sort("as_of", maintain_order=True),
            UNSHOWN["series_comparison"],
        ),
        events=common.events,
        divisor=common.divisor,
        federations=common.federations,
        rejected=common.rejected,
        season_end=common.season_end,
        reported=common.reported,
    )


def _trajectory_chart(pid: str, chunk: _Chunk) -> Chart | None:
    panels = [
        (label, pts[pid])
        for label, pts in (("Cote", chunk.cote_points), ("Elo", chunk.elo_points))
        if pid in pts
    ]
    if not panels:
        return None
    layout = base_layout(showlegend=False, margin={"l": 60, "r": 20, "t": 20, "b": 40})
    traces: list[dict[str, Any]] = []
    gap = 0.08
    height = (1 - gap * (len(panels) - 1)) / len(panels)
    days = [dt.date.fromisoformat(x) for _, pts in panels for x in pts["x"] if x]
    span: dict[str, Any] = {}
    if days and (max(days) - min(days)).days < 60:
        middle = min(days) + (max(days) - min(days)) / 2
        span["range"] = [
            (middle - dt.timedelta(days=45)).isoformat(),
            (middle + dt.timedelta(days=45)).isoformat(),
        ]
    for i, (label, points) in enumerate(panels):
        suffix = "" if i == 0 else str(i + 1)
        top = 1 - i * (height + gap)
        traces.append(_line(label, points, xaxis=f"x{suffix}", yaxis=f"y{suffix}"))
        layout[f"xaxis{suffix}"] = axis(
            "Date" if i == len(panels) - 1 else "",
            type="date",
            anchor=f"y{suffix}",
            **({"matches": "x"} if i else span),
        )
        layout[f"yaxis{suffix}"] = axis(
            label, domain=[max(top - height, 0), top], anchor=f"x{suffix}"
        )
    return Chart(
        "trajectory",
        {"data": traces, "layout": layout},
        "Trajectoire de la cote et de l'Elo, tournoi après tournoi",
        height=260 * len(panels),
    )


def _pj(raw: int | None, clamped: int | None) -> str:
    if raw is None or clamped is None:
        return "—"
    if raw == clamped:
        return fmt_signed(clamped)
    return f"{fmt_signed(raw)} → {fmt_signed(clamped)}"


def _strong(text: str) -> Html:
    return Html(f"<strong>{esc(text)}</strong>")


def _rank_of(rank: object, players: object) -> object:
    return f"{rank} / {players}" if players else rank


COTE_CELLS: tuple[Cell, ...] = (
    (("end_date",), fmt_date),
    (("tournament_name", "tournament_id"), lambda name, tid: name or tid),
    (("cote_before",), fmt_number),
    (("initial_place",), lambda place: place),
    (("rank", "players"), _rank_of),
    (("pe",), fmt_number),
    (("bonus",), fmt_number),
    (("pj_raw", "pj"), lambda raw, pj: _pj(raw, pj)),
    (("cote_after",), lambda after: _strong(fmt_number(after))),
)
COTE_TABLE = (
    [
        "Date",
        "Tournoi",
        "Cote avant",
        "Place initiale",
        "Rang",
        "PE",
        "B",
        "PJ brut → PJ",
        "Cote après",
    ],
    (2, 3, 4, 5, 6, 7, 8),
    "Cote après = cote avant + PE + B + PJ ; PJ brut borné à [PJmin, PJmax].",
)
ELO_CELLS: tuple[Cell, ...] = (
    (("end_date",), fmt_date),
    (("tournament_name", "tournament_id"), lambda name, tid: name or tid),
    (("rating_before",), lambda v: fmt_number(v, 1)),
    (("k",), fmt_number),
    (("games",), lambda games: games),
    (("score",), lambda v: fmt_number(v, 1)),
    (("expected",), lambda v: fmt_number(v, 2)),
    (("delta",), lambda v: fmt_signed(v, 1)),
    (("rating_after",), lambda v: _strong(fmt_number(v, 1))),
)
ELO_TABLE = (
    ["Date", "Tournoi", "Elo avant", "K", "Parties", "Score", "Attendu", "Δ", "Elo après"],
    (2, 3, 4, 5, 6, 7, 8),
    "Δ = K × (score − score attendu) ; Elo après = Elo avant + Δ.",
)


def _series_cell(series: str | None) -> object:
    level = _level(series)
    return series_label(level) if level else series


TOURNAMENT_CELLS: tuple[Cell, ...] = (
    (("end_date",), fmt_date),
    (("tournament_name", "tournament_id"), lambda name, tid: name or tid),
    (("city",), lambda city: city),
    (("discipline",), lambda discipline: DISCIPLINES.get(discipline, discipline)),
    (("season",), lambda season: season),  # a link: `_tournament_cells`
    (("rank", "players"), _rank_of),
    (("series",), _series_cell),
    (("score",), lambda score: fmt_number(score) if score is not None else None),
)
TOURNAMENT_TABLE = (
    ["Date", "Tournoi", "Ville", "Discipline", "Saison", "Rang", "Série", "Score"],
    (5, 7),
    None,
)
# an event's cells before its « Part » (which needs the season's divisor) and after it
EVENT_HEAD_CELLS: tuple[Cell, ...] = (
    (("end",), fmt_date),
    (("name",), lambda name: name),
    (("series",), series_label),
    (("place",), fmt_number),
    (("weight",), lambda weight: fmt_number(weight, 2)),
)
EVENT_TAIL_CELLS: tuple[Cell, ...] = (
    *((((f"pct_n{x}",), lambda v: fmt_number(v, 2))) for x in (1, 2, 3, 4)),
    (("pc",), lambda v: fmt_number(v, 2)),
)
EVENT_NUMERIC = (3, 4, 5, 6, 7, 8, 9, 10)


def _table_of(spec: tuple[list[str], tuple[int, ...], str | None], body: str) -> Html:
    before, after = table_shell(*spec)
    return Html(before + body + after)


def _bodies(
    frame: pl.DataFrame | None, players: pl.Series, cells: Sequence[Cell], numeric: Iterable[int]
) -> dict[str, str]:
    """Each player's table rows (`<tr>…</tr>`, in their order) of `frame`, for `players`."""
    if frame is None:
        return {}
    part = frame.filter(pl.col("player_id").is_in(players.implode()))
    if part.height == 0:
        return {}
    rows = with_cells(part, cells, numeric, "_cells").select(
        "player_id", pl.concat_str(pl.lit("<tr>"), "_cells", pl.lit("</tr>")).alias("_tr")
    )
    grouped = rows.group_by("player_id", maintain_order=True).agg(pl.col("_tr").str.join(""))
    return dict(grouped.iter_rows())


SERIES_TABLE = (
    [
        "Saison",
        "Série tenue",
        "Série calculée ici pour la saison suivante",
        "Sous-série",
        "Mouvement",
        "Critère",
    ],
    (5,),
    "Série tenue : celle que le joueur tenait pendant la saison (écrite sur ses "
    "résultats, sinon calculée ici ou lue dans une liste) ; le mouvement la compare à la "
    "série calculée ici en fin de saison.",
)
RANKINGS_TABLE = (
    ["Saison", "Rang cote", "Cote", "Série classique", "Rang Elo", "Elo"],
    (1, 2, 4, 5),
    None,
)


def _series_cells(d: _PlayerData) -> tuple[Cell, ...]:
    """The cells of the end-of-season duplicate classification: the season (a link when
    reported), the series held, then what the season's bars decide, read from the
    season's shared file."""
    return (
        (("season",), lambda season: season_link(season, d.reported)),
        (("previous_series",), series_label),
        *(
            (("season",), lambda season, f=f: shared(season, f))
            for f in (LABEL, SUBSERIES, MOVEMENT, CRITERION)
        ),
    )


def _series_bodies(d: _PlayerData, players: pl.Series) -> dict[str, str]:
    """Each player's rows of the end-of-season duplicate classification, by season (a
    row without season first), with the series held (the season's movement row, the last
    one when several)."""
    if d.classification.frame is None:
        return {}
    keys = ["player_id", "season"]
    classes = d.classification.frame.filter(pl.col("player_id").is_in(players.implode())).select(
        *keys
    )
    moves = (
        d.movements.frame.filter(pl.col("player_id").is_in(players.implode()))
        .select(*keys, "previous_series")
        .unique(keys, keep="last", maintain_order=True)
        if d.movements.frame is not None
        else pl.DataFrame(
            schema={"player_id": pl.String, "season": pl.String, "previous_series": pl.String}
        )
    )
    rows = classes.join(moves, on=keys, how="left", nulls_equal=True, maintain_order="left").sort(
        keys, maintain_order=True, nulls_last=False
    )
    return _bodies(rows, players, _series_cells(d), SERIES_TABLE[1])


def _rankings_bodies(d: _PlayerData, players: pl.Series) -> dict[str, str]:
    """Each player's end-of-season ranks by season (a season's last row of each
    ranking): the ranks read from the season's shared file, the values written here."""
    keys = ["player_id", "season"]

    def side(split: PlayerRows, value: str, flag: str, extra: tuple[str, ...]) -> pl.DataFrame:
        schema = {"player_id": pl.String, "season": pl.String}
        if split.frame is None:
            return pl.DataFrame(schema=schema).with_columns(
                pl.lit(None, dtype=pl.Float64).alias(value),
                *(pl.lit(None, dtype=pl.String).alias(x) for x in extra),
                pl.lit(None, dtype=pl.Boolean).alias(flag),
            )
        return (
            split.frame.filter(pl.col("player_id").is_in(players.implode()))
            .select(
                *keys,
                pl.col("value").alias(value),
                *(pl.col(x.removeprefix("_cote_")).alias(x) for x in extra),
                pl.lit(True).alias(flag),
            )
            .unique(keys, keep="last", maintain_order=True)
        )

    cote = side(d.cote_ranking, "_cote", "_c", ("_cote_classique_series",))
    elo = side(d.elo_ranking, "_elo", "_e", ())
    rows = cote.join(elo, on=keys, how="full", coalesce=True).sort(keys)
    cells: tuple[Cell, ...] = (
        (("season",), lambda season: season_link(season, d.reported)),
        (("season", "_c"), lambda season, c: shared(season, COTE_RANK) if c else None),
        (("_c", "_cote"), lambda c, value: fmt_number(value) if c else None),
        (("_c", "_cote_classique_series"), lambda c, series: series if c else None),
        (("season", "_e"), lambda season, e: shared(season, ELO_RANK) if e else None),
        (("_e", "_elo"), lambda e, value: fmt_number(value, 1) if e else None),
    )
    return _bodies(rows, players, cells, RANKINGS_TABLE[1])


def _tournaments_table(pid: str, chunk: _Chunk) -> Html | None:
    body = chunk.tournaments.get(pid)
    return None if body is None else _table_of(TOURNAMENT_TABLE, body)


@lru_cache(maxsize=256)
def _level(label: str | None) -> str | None:
    """The series of a written label (`4B` → `4`, `Série 5` → `5`), None when none."""
    if label is None:
        return None
    return pl.select(series_level(pl.lit(label, dtype=pl.String))).item()


LISTED_CELLS: tuple[Cell, ...] = (
    (("as_of",), fmt_date),
    (("cote",), lambda cote: fmt_number(cote) if cote is not None else None),
    (("elo",), lambda elo: fmt_number(elo, 1) if elo is not None else None),
    (("elo_games",), lambda games: fmt_number(games) if games is not None else None),
    (("series",), lambda series: series_long(_level(series)) if series else None),
)
# The export a row comes from is the analysts' (rating_lists.source_file in the
# warehouse), never a committee's page: a page names no file of the raw folder.
LISTED_TABLE = (
    ["Date de la liste", "Cote", "Elo", "Parties Elo", "Série"],
    (1, 2, 3),
    "Valeurs publiées par les fédérations dans leurs listes de classement.",
)


# (season, official series or None, where it comes from, the season whose classification
# computed a series for it (its shared file holds it) or None)
_SeriesRow = tuple[str, str | None, str | None, str | None]


HISTORY_TABLE = (
    ["Saison", "Série tenue (officielle)", "Source", "Série calculée ici", "Écart"],
    (),
    "La série calculée ici pour une saison est celle que ce projet a classée à "
    "la fin de la saison précédente.",
)


def _series_rows_of(
    d: _PlayerData, players: pl.Series
) -> tuple[dict[str, list[_SeriesRow]], dict[str, str]]:
    """Each player of `players`' series history: per season (in
    order) the official series they held — written on their latest duplicate result of the
    season, else the FFSc's published ranking (its latest row of the season with a series),
    else the latest rating list up to the season's end (when it names a series) — and the
    season whose classification computed one for it; and the rows of its table (season,
    official series, source, computed series, « Écart »). Each label, date and season is
    read once (`series_level_of`, `per_value`, `with_cells`)."""
    keys = ["player_id", "season"]

    def rows(split: PlayerRows, schema: Mapping[str, pl.DataType]) -> pl.DataFrame:
        if split.frame is None:
            return pl.DataFrame(schema=dict(schema))
        chosen = split.frame.filter(pl.col("player_id").is_in(players.implode()))
        return chosen.select(list(schema))

    text, date = pl.String(), pl.Date()
    classes = rows(d.classification, {"player_id": text, "season": text}).drop_nulls("season")
    following = {s: next_season(s) for s in classes["season"].unique().to_list()}
    computed = classes.select(
        "player_id",
        pl.col("season").replace_strict(following, return_dtype=pl.String),
        pl.col("season").alias("_computed"),
    ).unique(keys, keep="last", maintain_order=True)
    results = rows(
        d.results,
        {
            "player_id": text,
            "season": text,
            "discipline": text,
            "series": text,
            "tournament_name": text,
            "tournament_id": text,
            "end_date": date,
        },
    ).filter(pl.col("discipline") == "duplicate")
    results = results.with_columns(series_level_of(results, "series").alias("_level"))
    played = results.filter(pl.col("season").is_not_null()).select(keys)
    written = results.filter(
        pl.col("_level").is_not_null() & pl.col("season").is_not_null() & (pl.col("season") != "")
    ).unique(keys, keep="last", maintain_order=True)
    written = written.select(
        *keys,
        pl.col("_level").alias("_written"),
        pl.concat_str(
            pl.lit("résultats de « "),
            pl.when(pl.col("tournament_name").is_null() | (pl.col("tournament_name") == ""))
            .then(pl.col("tournament_id"))
            .otherwise(pl.col("tournament_name")),
            pl.lit(" » ("),
            per_value(written["end_date"], fmt_date),
            pl.lit(")"),
        ).alias("_written_source"),
    )
    published = rows(
        d.published,
        {"player_id": text, "season": text, "published_series": text, "as_of": date},
    )
    published = (
        published.with_columns(series_level_of(published, "published_series").alias("_level"))
        .filter(pl.col("_level").is_not_null())
        .unique(keys, keep="last", maintain_order=True)
    )
    published = published.select(
        *keys,
        pl.col("_level").alias("_published"),
        (pl.lit("classement FFSc du ") + per_value(published["as_of"], fmt_date)).alias(
            "_published_source"
        ),
    )
    shown = (
        pl.concat([computed.select(keys), written.select(keys), published.select(keys), played])
        .unique()
        .sort(keys)
        .join(written, on=keys, how="left")
        .join(published, on=keys, how="left")
        .join(computed, on=keys, how="left")
        .with_columns(
            pl.coalesce("_written", "_published").alias("_official"),
            pl.when(pl.col("_written").is_not_null())
            .then(pl.col("_written_source"))
            .otherwise(pl.col("_published_source"))
            .alias("_source"),
        )
    )
    # no series written nor published: the player's latest rating list up to the season's
    # end (in the lists' order), when it names a series
    lists = rows(d.listed, {"player_id": text, "as_of": date, "series": text})
    lists = lists.with_row_index("_order")
    missing = shown.filter(pl.col("_official").is_null()).select(keys)
    seasons = missing["season"].unique().to_list()
    ends = pl.DataFrame(
        {"season": seasons, "_end": [d.season_end(s) for s in seasons]},
        schema={"season": pl.String, "_end": pl.Date},
    )
    listed = (
        missing.join(ends, on="season", how="left")
        .join(lists, on="player_id", how="inner")
        .filter(
            pl.col("as_of").is_not_null()
            & (pl.col("as_of") <= pl.col("_end"))
            & pl.col("series").is_not_null()
        )
        .sort(*keys, "_order")
        .group_by(keys, maintain_order=True)
        .agg(pl.col("as_of").last(), pl.col("series").last())
    )
    listed = listed.with_columns(series_level_of(listed, "series").alias("_listed")).filter(
        pl.col("_listed").is_not_null()
    )
    listed = listed.select(
        *keys,
        "_listed",
        (pl.lit("liste de classement du ") + per_value(listed["as_of"], fmt_date)).alias(
            "_listed_source"
        ),
    )
    shown = shown.join(listed, on=keys, how="left", maintain_order="left").select(
        *keys,
        pl.coalesce("_official", "_listed"),
        pl.coalesce("_source", "_listed_source"),
        "_computed",
    )
    found: dict[str, list[_SeriesRow]] = {}
    for pid, season, official, source, computed_by in shown.iter_rows():
        found.setdefault(pid, []).append((season, official, source, computed_by))
    cells: tuple[Cell, ...] = (
        (("season",), lambda season: season_link(season, d.reported)),
        (("_official",), lambda official: series_label(official) if official else "—"),
        (("_source",), lambda source: source),
        (("_computed",), lambda computed: shared(computed, LABEL) if computed else "—"),
        (("_computed", "_official", "_source"), why_cell),
    )
    return found, _bodies(shown, players, cells, HISTORY_TABLE[1])


def _series_history(
    pid: str, d: _PlayerData, chunk: _Chunk
) -> tuple[Chart, list[str | None], Html] | None:
    """The chart of the official and computed series per season, the seasons whose shared
    files give its computed series (`player_seasons`: the chart's second trace is filled
    from them), and the table beside it with the reason they differ."""
    rows = chunk.series_rows.get(pid, [])
    if not rows or all(o is None and c is None for _, o, _, c in rows):
        return None
    seasons = [r[0] for r in rows]
    traces = []
    for name, index, symbol in (
        ("Série tenue (officielle)", 1, "circle"),
        ("Série calculée ici", 3, "diamond-open"),
    ):
        official = index == 1
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": name,
                "x": seasons,
                # the computed series: filled from the season files (`plot_call`)
                "y": [SERIES_STEPS.get(r[index] or "") for r in rows] if official else [],
                "text": [series_label(r[index]) if r[index] else "—" for r in rows]
                if official
                else [],
                "hovertemplate": f"%{{x}} : {name.lower()} %{{text}}<extra></extra>",
                "marker": {"size": 10 if index == 1 else 12, "symbol": symbol},
                "line": {"width": 2 if index == 1 else 1, "dash": "solid" if index == 1 else "dot"},
                "connectgaps": False,
            }
        )
    chart = Chart(
        "series",
        {"data": traces, "layout": _series_layout()},
        "Historique des séries : série tenue (officielle) et série calculée ici, par saison",
        height=300,
    )
    body = _table_of(HISTORY_TABLE, chunk.series_bodies[pid])
    return chart, [r[3] for r in rows], body


@cache
def _series_layout() -> dict[str, Any]:
    """The layout of every series chart (the same on every page: made once, never changed)."""
    steps = sorted(SERIES_STEPS.items(), key=lambda kv: kv[1])
    return base_layout(
        xaxis=axis("Saison", type="category"),
        yaxis=axis(
            "Série",
            autorange="reversed",
            tickvals=[v for _, v in steps],
            ticktext=[series_label(k) for k, _ in steps],
            range=[7.5, -0.5],
        ),
        margin={"l": 90, "r": 20, "t": 20, "b": 60},
    )


@cache
def _series_layout_json(height: int) -> str:
    """`safe_json` of the series chart's layout (with its height) and of the charts'
    config, encoded once for every page."""
    layout = dict(_series_layout())
    layout["height"] = height
    return f'"layout":{safe_json(layout)},"config":{safe_json(PLOT_CONFIG)}'


def _shared_chart_html(
    div_id: str, chart: Chart, number: int, trace: int, sources: list[str | None], pid: str
) -> Html:
    """`section.chart_html` for the series chart, whose trace `trace` is read from the
    season files (`player_seasons.plot_call`: point i from the season `sources[i]`); its
    payload the JSON `safe_json` writes of {data, layout, config, fill}, the layout and
    config encoded once (`_series_layout_json`)."""
    data = safe_json(chart.figure.get("data", []))
    fill = safe_json({"trace": trace, "from": sources})
    payload = f'{{"data":{data},{_series_layout_json(int(chart.height))},"fill":{fill}}}'
    return Html(
        f'<figure class="chart" id="{esc(div_id)}-figure">'
        f'<div id="{esc(div_id)}" class="plot" style="height:{int(chart.height)}px"></div>'
        f"<figcaption>Figure {number} : {esc(chart.caption)}</figcaption></figure>"
        f"<script>{plot_call(div_id, payload, pid)}</script>"
    )


EVENT_HEADERS = (
    "Date",
    "Épreuve",
    "Série tenue",
    "Place",
    "Poids",
    "Part",
    "%N1",
    "%N2",
    "%N3",
    "%N4",
    "PC",
)
# the « Part » of an event: weight / divisor of its season (formatted once per distinct pair)
SHARE_CELL: Cell = (
    ("weight", "_divisor"),
    lambda weight, divisor: f"{fmt_number(100 * weight / divisor, 1)} %",
)
# a season's total row (series_standings), after its events
TOTAL_CELLS: tuple[Cell, ...] = (
    (("_events",), lambda _: Html("<strong>Saison</strong>")),
    (("_events",), lambda events: count_of(events, "épreuve")),
    (("_events",), lambda _: ""),
    (("_events",), lambda _: ""),
    (("_total_weight",), lambda weight: fmt_number(weight, 2)),
    (("_events",), lambda _: "100 %"),
    *(((f"_total_n{x}",), lambda v: _strong(fmt_number(v, 2))) for x in (1, 2, 3, 4)),
    (("_total_pc",), lambda v: _strong(fmt_number(v, 2))),
)


def _event_scores_tables(pid: str, chunk: _Chunk) -> Html | None:
    """Per season, each duplicate event's %N1–%N4 and PC, its weight and its share in the
    season's global percentages (built for the chunk's players at once: `_event_cells`)."""
    section = chunk.events.get(pid)
    return None if section is None else Html(section)


@dataclass(frozen=True)
class _Chunk:
    """The rows of the long tables of a group of players' pages, built for all of them at
    once: per player, the `<tr>` rows of the cote, Elo and tournaments tables, and the
    whole section of their duplicate events."""

    cote: dict[str, str]
    elo: dict[str, str]
    tournaments: dict[str, str]
    events: dict[str, str]
    listed: dict[str, str]  # the rating lists' rows
    rankings: dict[str, str]  # the end-of-season rankings' rows
    series: dict[str, str]  # the end-of-season duplicate classification's rows
    season_files: dict[str, list[str]]  # the seasons whose shared file the page reads
    series_rows: dict[str, list[_SeriesRow]]  # the series history (`_series_rows_of`)
    series_bodies: dict[str, str]  # the series history table's rows
    listed_as_of: dict[str, dt.date]  # the date of the latest rating list naming the player
    result_seasons: dict[str, set[str]]  # the seasons of their results (none without rejects)
    cote_points: dict[str, Series]  # the trajectory chart's points (`cote_trajectories`)
    elo_points: dict[str, Series]
    info: dict[str, dict[str, Any]]  # the player's row (`_PlayerData.player_rows`)
    blocks: dict[str, Mapping[str, str]]  # per block with `render_chunk`, its players' markup


CHUNK = 2_000  # players whose long tables are built together (bounds the memory held)
# chunks whose players' rows of the long tables are read together (`_Slab`): s20's twelve
# long tables, 414 MB whole, were read 27 times over (a chunk's reads each scan the whole
# table: 0,41 s a chunk, ~9 s of the build process's time for 53,817 pages); a slab of
# 8 chunks holds about 30 % of them (~125 MB) while its chunks are built
SLAB = 8
WORKERS = 2  # processes rendering and writing the pages of a large build
# pages to examine (their sources changed) from which the workers pay for their start (a
# fresh interpreter each, importing this module: about a second of CPU): a new tournament
# examines a few hundred, the sample's build 1,211
PARALLEL_FROM = 2 * CHUNK


def _tournament_cells(d: _PlayerData) -> tuple[Cell, ...]:
    season: Cell = (("season",), lambda season: season_link(season, d.reported))
    return (*TOURNAMENT_CELLS[:4], season, *TOURNAMENT_CELLS[5:])


def _chunk(d: _PlayerData, players: pl.Series) -> _Chunk:
    history = _series_rows_of(d, players)
    return _Chunk(
        cote=_bodies(d.cote.frame, players, COTE_CELLS, COTE_TABLE[1]),
        elo=_bodies(d.elo.frame, players, ELO_CELLS, ELO_TABLE[1]),
        tournaments=_bodies(d.results.frame, players, _tournament_cells(d), TOURNAMENT_TABLE[1]),
        events=_event_cells(d, players),
        listed=_bodies(d.listed.frame, players, LISTED_CELLS, LISTED_TABLE[1]),
        rankings=_rankings_bodies(d, players),
        series=_series_bodies(d, players),
        season_files=_season_files(d, players),
        series_rows=history[0],
        series_bodies=history[1],
        listed_as_of=_latest(d.listed, players, "as_of"),
        result_seasons=_result_seasons(d, players) if d.rejected else {},
        # each player's points as `charts` makes them, for the chunk's players in one pass
        cote_points=cote_trajectories(_of(d.cote, players), d.names),
        elo_points=elo_trajectories(_of(d.elo, players), d.names),
        info=_first_rows(_of(d.player_rows, players)),
        blocks={
            block.key: block.render_chunk(players, loaded)
            for block, loaded in d.blocks
            if block.render_chunk is not None
        },
    )


def _first_rows(frame: pl.DataFrame) -> dict[str, dict[str, Any]]:
    """Each player's first row of `frame` (a player's page row: `_PlayerData.player_rows`)."""
    first: dict[str, dict[str, Any]] = {}
    for row in frame.rows(named=True):
        first.setdefault(row["player_id"], row)
    return first


def _of(split: PlayerRows, players: pl.Series) -> pl.DataFrame:
    """The rows of `players` in a table split by player (each player's rows together, in
    their order; none: an empty frame)."""
    if split.frame is None:
        return pl.DataFrame()
    return split.frame.filter(pl.col("player_id").is_in(players.implode()))


def _latest(split: PlayerRows, players: pl.Series, column: str) -> dict[str, Any]:
    """Per player of `players`, the largest value of `column` (none: left out)."""
    if split.frame is None:
        return {}
    latest = (
        split.frame.filter(pl.col("player_id").is_in(players.implode()))
        .group_by("player_id")
        .agg(pl.col(column).max())
        .drop_nulls(column)
    )
    return dict(latest.iter_rows())


def _result_seasons(d: _PlayerData, players: pl.Series) -> dict[str, set[str]]:
    """Per player of `players`, the seasons of their results (the rejected exports a page
    names are those of its seasons)."""
    if d.results.frame is None:
        return {}
    seasons = (
        d.results.frame.filter(pl.col("player_id").is_in(players.implode()))
        .select("player_id", "season")
        .drop_nulls("season")
        .unique()
        .group_by("player_id")
        .agg("season")
    )
    return {pid: set(values) for pid, values in seasons.iter_rows()}


def _season_files(d: _PlayerData, players: pl.Series) -> dict[str, list[str]]:
    """Per player, the seasons of their end-of-season ranks and classification: the
    seasons whose shared file their page reads (`player_seasons`)."""
    frames = [
        split.frame.filter(pl.col("player_id").is_in(players.implode())).select(
            "player_id", "season"
        )
        for split in (d.cote_ranking, d.elo_ranking, d.classification)
        if split.frame is not None
    ]
    if not frames:
        return {}
    seasons = (
        pl.concat(frames)
        .drop_nulls("season")
        .unique()
        .group_by("player_id")
        .agg(pl.col("season").sort())
    )
    return dict(seasons.iter_rows())


def _event_cells(d: _PlayerData, players: pl.Series) -> dict[str, str]:
    """Each player's section of duplicate events (`_event_scores_tables`), for `players`:
    per season a title and a table of its events (by date), each with its « Part » of the
    season's divisor (the sum of the season's weights, at least D), then the season's total
    row when the player has one (series_standings). Every cell is formatted once per
    distinct value (`with_cells`), the rows joined in Polars."""
    if d.duplicate.frame is None:
        return {}
    part = d.duplicate.frame.filter(pl.col("player_id").is_in(players.implode()))
    if part.height == 0:
        return {}
    events = _events_frame(d.events)
    keys = ["player_id", "season"]
    # an event the tournaments do not name is shown by its id, undated, of weight 1
    part = (
        part.join(events, on="tournament_id", how="left", maintain_order="left")
        .with_columns(
            pl.col("name").fill_null(pl.col("tournament_id")),
            pl.col("w").fill_null(1.0).alias("weight"),
        )
        .sort("player_id", "season", "end", "tournament_id", maintain_order=True)
        # the weights summed in order, as Python's `sum` does (`cum_sum`: no reordering)
        .with_columns(pl.col("weight").cum_sum().over(keys).alias("_weight_sum"))
        .with_columns(pl.col("_weight_sum").last().over(keys))
        .with_columns(
            pl.max_horizontal("_weight_sum", pl.lit(d.divisor, dtype=pl.Float64)).alias("_divisor")
        )
        # `max(sum, D) or 1.0`: a zero divisor counts as 1
        .with_columns(
            pl.when(pl.col("_divisor") == 0.0)
            .then(pl.lit(1.0))
            .otherwise(pl.col("_divisor"))
            .alias("_divisor")
        )
    )
    part = with_cells(part, EVENT_HEAD_CELLS, EVENT_NUMERIC, "_head")
    part = with_cells(part, (SHARE_CELL,), EVENT_NUMERIC, "_share", first=5)
    part = with_cells(part, EVENT_TAIL_CELLS, EVENT_NUMERIC, "_tail", first=6)
    seasons = part.group_by(keys, maintain_order=True).agg(
        pl.concat_str(pl.lit("<tr>"), "_head", "_share", "_tail", pl.lit("</tr>"))
        .str.join("")
        .alias("_rows"),
        pl.len().alias("_events"),
    )
    totals = (
        d.standings.frame.filter(pl.col("player_id").is_in(players.implode()))
        .unique(keys, keep="last", maintain_order=True)
        .select(
            *keys,
            pl.col("weight").alias("_total_weight"),
            *(pl.col(f"pct_n{x}").alias(f"_total_n{x}") for x in (1, 2, 3, 4)),
            pl.col("pc").alias("_total_pc"),
            pl.lit(True).alias("_total"),
        )
        if d.standings.frame is not None
        else pl.DataFrame(
            schema={
                "player_id": pl.String,
                "season": pl.String,
                "_total_weight": pl.Float64,
                **{f"_total_n{x}": pl.Float64 for x in (1, 2, 3, 4)},
                "_total_pc": pl.Float64,
                "_total": pl.Boolean,
            }
        )
    )
    seasons = seasons.join(totals, on=keys, how="left", maintain_order="left")
    seasons = with_cells(seasons, TOTAL_CELLS, EVENT_NUMERIC, "_total_cells")
    before, after = table_shell(list(EVENT_HEADERS), EVENT_NUMERIC, None)
    total_row = (
        pl.when(pl.col("_total"))
        .then(pl.concat_str(pl.lit("<tr>"), "_total_cells", pl.lit("</tr>")))
        .otherwise(pl.lit(""))
    )
    sections = seasons.select(
        "player_id",
        pl.concat_str(
            pl.lit("<h3>Saison "),
            esc_expr(pl.col("season")),
            pl.lit("</h3>" + before),
            "_rows",
            total_row,
            pl.lit(after),
        ).alias("_section"),
    )
    caption = (
        '<p class="note">%Nx de la saison = Σ (poids × %Nx de l\'épreuve) / diviseur, le '
        "diviseur étant la somme des poids (au moins D = "
        f"{esc(fmt_number(d.divisor, 2))}) ; la « Part » d'une épreuve est poids / diviseur, "
        "sa contribution au %Nx de la saison est donc Part × %Nx. Les PC de la saison sont la "
        "somme des PC des épreuves.</p>"
    )
    grouped = sections.group_by("player_id", maintain_order=True).agg(
        pl.col("_section").str.join("")
    )
    return {pid: caption + section for pid, section in grouped.iter_rows()}


def _fetched(d: _PlayerData) -> tuple[PlayerRows, ...]:
    """The tables a page reads row by row: the blocks' (`PlayerRows.rows_of`); the
    page's own tables are built for a whole chunk (`_chunk`)."""
    return tuple(
        split
        for block, loaded in d.blocks
        if block.render_chunk is None
        for split in splits_in(loaded)
    )


def render_player(pid: str, d: _PlayerData, chunk: _Chunk) -> str:
    info = chunk.info[pid]
    name = info["name"]
    federation = info["federation"]
    facts = {
        "Licence": pid,
        "Fédération": (d.federations.get(federation) if federation else None) or "—",
        "Club": info["club"] or "—",
        "Premier tournoi": fmt_date(info["first_tournament_date"]),
        "Dernier tournoi": fmt_date(info["last_tournament_date"]),
        "Tournois": fmt_number(info["tournaments"]),
    }
    seasons = chunk.result_seasons.get(pid, set())
    rejected = [r for r in d.rejected if r.season is None or r.season in seasons]
    # the page's as-of date is the player's own latest data: a page another player's
    # tournament does not change is not rendered again (`page_digests`)
    own_dates = [info["last_tournament_date"], chunk.listed_as_of.get(pid)]
    as_of = max((x for x in own_dates if x is not None), default=None)
    # the seasons whose shared file the page reads (`player_seasons`)
    season_files = chunk.season_files.get(pid, [])
    parts: list[str] = [
        season_scripts(season_files) if season_files else "",
        f'<nav class="breadcrumb no-print">{link("../index.html", "← Accueil")}</nav>',
        f'<header class="page"><h1>{esc(name)}</h1></header>',
        notice(
            as_of,
            rejected,
            scope="pour les saisons de ce joueur",
            glossary=f"../{GLOSSARY_PAGE}",
            show_season=True,
            whose="de ce joueur",
        ),
        definition_list(facts),
        NO_SCRIPT if season_files else "",
    ]
    if not info["tournaments"]:
        parts.append(
            '<p class="note">Joueur connu seulement par une liste de classement : aucun '
            "tournoi reçu ; ses valeurs publiées sont ci-dessous.</p>"
        )
    chart = _trajectory_chart(pid, chunk)
    if chart is not None:
        parts += ["<h2>Trajectoire</h2>", chart_html("chart-player-trajectory", chart, 1)]
    if pid in chunk.listed:
        parts += ["<h2>Listes de classement</h2>", _table_of(LISTED_TABLE, chunk.listed[pid])]
    if pid in chunk.rankings:
        rankings = _table_of(RANKINGS_TABLE, chunk.rankings[pid])
        parts += ["<h2>Classements de fin de saison</h2>", rankings]
    history = _series_history(pid, d, chunk)
    if history is not None:
        chart_number = 2 if chart is not None else 1
        series_chart, sources, series_table = history
        parts += [
            "<h2>Historique des séries duplicate</h2>",
            _shared_chart_html("chart-player-series", series_chart, chart_number, 1, sources, pid),
            series_table,
        ]
    if pid in chunk.series:
        classified = _table_of(SERIES_TABLE, chunk.series[pid])
        parts += ["<h2>Classement duplicate de fin de saison</h2>", classified]
    events = _event_scores_tables(pid, chunk)
    if events is not None:
        parts += ["<h2>Épreuves duplicate : %N1 à %N4 et PC</h2>", events]
    if pid in chunk.cote:
        cote = _table_of(COTE_TABLE, chunk.cote[pid])
        parts += ["<h2>Évolution de la cote, tournoi par tournoi</h2>", cote]
    if pid in chunk.elo:
        elo = _table_of(ELO_TABLE, chunk.elo[pid])
        parts += ["<h2>Évolution de l'Elo, tournoi par tournoi</h2>", elo]
    for block, loaded in d.blocks:
        markup = (
            block.render(pid, loaded)
            if block.render_chunk is None
            else chunk.blocks[block.key].get(pid)
        )
        if markup is not None:
            parts += [f"<h2>{esc(block.title)}</h2>", markup]
    tournaments = _tournaments_table(pid, chunk)
    if tournaments is not None:
        parts += ["<h2>Tournois</h2>", tournaments]
    if season_files:
        parts.append(fill_call(pid))
    return page(
        f"{name} — fiche joueur", Html("".join(parts)), plotly_src=f"../{PLOTLY_ASSET.as_posix()}"
    )


DIGESTS_FILE = ".digests.json"  # in the players' folder: each page's digest, by file
# in the players' folder: what the pages were last rendered from (`_fingerprints`)
SOURCES_FILE = ".sources.json"


def _global_digest(value: object, sources: list[PlayerRows]) -> str:
    """Walk what the pages read: each `PlayerRows` is a per-player source (appended to
    `sources`); everything else counts for every page (its text is hashed)."""
    if isinstance(value, PlayerRows):
        sources.append(value)
        return f"<player rows {len(sources)}>"
    if isinstance(value, pl.DataFrame):
        return f"<frame {hash_text(value.write_csv())}>"
    if isinstance(value, Mapping):
        items = sorted(value.items(), key=lambda kv: str(kv[0]))
        return "{" + ",".join(f"{k!r}:{_global_digest(v, sources)}" for k, v in items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(_global_digest(v, sources) for v in value) + "]"
    if isinstance(value, PlayerBlock):
        return f"<block {value.key}>"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        return f"{type(value).__name__}{_global_digest(fields, sources)}"
    if callable(value):
        raise TypeError(f"a player page digest cannot hash a function ({value!r})")
    return repr(value)


def page_digests(d: _PlayerData, code: str) -> dict[str, str]:
    """Each player's page digest: the code and parameters (`code`), what every page reads
    (federation names, minimum divisor, rejected exports, what the blocks load for all),
    and the player's own rows in every table the page shows. A page whose digest is the
    one it was written with shows the same thing: it is not rendered again. The data's
    as-of date and the generation time are left out: an unchanged page keeps the date it
    was generated on, from the data it was generated from."""
    sources: list[PlayerRows] = []
    shared = {
        "code": code,
        "tables": [
            d.player_rows,
            d.cote,
            d.elo,
            d.results,
            d.duplicate,
            d.classification,
            d.movements,
            d.cote_ranking,
            d.elo_ranking,
            d.listed,
            d.standings,
            d.published,
        ],
        "blocks": list(d.blocks),
        "divisor": d.divisor,
        "federations": d.federations,
        "rejected": d.rejected,
        "reported": d.reported,
    }
    base = _global_digest(shared, sources)
    # the events a page names are those of the player's duplicate rows
    event_rows = _event_rows(d)
    sources.append(event_rows)
    digests = {}
    for pid in d.players["player_id"].to_list():
        parts = [base, *(str(s.digests.get(pid, 0)) for s in sources)]
        digests[pid] = hashlib.blake2b("\0".join(parts).encode(), digest_size=16).hexdigest()
    return digests


# the last events made a frame (`_events_frame`), with the mapping they were made from
_EVENTS_FRAME: tuple[Mapping[str, Any], pl.DataFrame] | None = None
_EVENTS_SCHEMA = {"tournament_id": pl.String, "name": pl.String, "end": pl.Date, "w": pl.Float64}


def _events_frame(events: Mapping[str, tuple[str, dt.date | None, float]]) -> pl.DataFrame:
    """The events (`_Shared.events`: id → name, end, weight) as a frame (`tournament_id,
    name, end, w`, by id), made once for every chunk that reads the same mapping (every
    chunk of a build, in the build process and in each worker: s20's 24,352 events made a
    frame from Python rows twice a chunk, 54 times, about 2 CPU-s). The mapping is never
    changed once made; the one kept here is held, so no other can take its identity."""
    global _EVENTS_FRAME
    if _EVENTS_FRAME is None or _EVENTS_FRAME[0] is not events:
        rows = [(tid, *values) for tid, values in sorted(events.items())]
        _EVENTS_FRAME = (events, pl.DataFrame(rows, schema=_EVENTS_SCHEMA, orient="row"))
    return _EVENTS_FRAME[1]


def _event_rows(d: _PlayerData) -> PlayerRows:
    """Each player's duplicate events with the name, date and weight the page shows."""
    if d.duplicate.frame is None:
        return PlayerRows(None, {}, {})
    rows = d.duplicate.frame.select("player_id", "tournament_id")
    events = _events_frame(d.events)
    return by_player(rows.join(events, on="tournament_id", how="left"))


def write_player_pages(
    data: ReportData,
    reports: Path,
    progress: Callable[[int, int], None] | None = None,
    workers: int = WORKERS,
) -> PagesWritten:
    """Write `joueurs/<licence>.html` for every player whose page changed (`page_digests`)
    or is missing; remove pages of players gone. The players are taken by chunks of
    `CHUNK` (by licence): a chunk's rows are read from the warehouse (`_PlayersData`), its
    pages' digests computed, the changed ones rendered, then the next. `progress(done,
    total)` is called as chunks are done (pages examined). With `workers` > 1 and at least
    `PARALLEL_FROM` pages to examine, the pages are rendered and written by that many worker
    processes (`_Pool`), the same bytes."""
    common = _shared(data)
    folder = reports / PLAYERS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    code = code_digest(data.params)
    known = _read_digests(folder / DIGESTS_FILE)
    ids = sorted(common.players["player_id"].to_list())
    names = {pid: player_filename(pid) for pid in ids}
    # the folder listed once (not a file system call per page): the pages there before
    present = {
        entry.name
        for entry in os.scandir(folder)
        if entry.name.endswith(".html") and entry.is_file()
    }
    rendered = 0
    warehouse = data._warehouse
    with (
        warehouse.connect(read_only=True) as connection,
        _Pool(workers, common.events) as pool,
    ):
        before = _read_sources(folder / SOURCES_FILE)
        state, flagged = _sources(connection, common, code, before)
        # a page whose sources did not change keeps the digest it was rendered with
        digests = {
            pid: known[names[pid]]
            for pid in ids
            if flagged is not None
            and pid not in flagged
            and names[pid] in known
            and names[pid] in present
        }
        examined = [pid for pid in ids if pid not in digests]
        parallel = workers > 1 and len(examined) >= PARALLEL_FROM
        reader = _Reader(warehouse.path, connection)
        slab: _Slab | None = None
        for start in range(0, len(examined), CHUNK):
            group = examined[start : start + CHUNK]
            if start % (SLAB * CHUNK) == 0:
                slab = _Slab(examined[start : start + SLAB * CHUNK])
            d = _load(_PlayersData(data, reader, group, slab), common)
            found = page_digests(d, code)
            digests.update(found)
            todo = [
                pid
                for pid in group
                if known.get(names[pid]) != found[pid] or names[pid] not in present
            ]
            rendered += len(todo)
            paths = [folder / names[pid] for pid in todo]
            if todo and parallel:
                pool.render(d, todo, paths)
            elif todo:
                _render_group(d, todo, paths)
            pool.reap(wait=False)
            if progress is not None:
                progress(start + len(group), len(examined))
        # written while the workers render the last chunks (this process would wait)
        shared_files = _write_seasons(data, folder, state, before)
        pool.reap(wait=True)
    written = set(names.values())
    for stale in sorted(present - written):  # rendering only wrote pages of `written`
        (folder / stale).unlink()
    # the C encoder (no indent), a line per page
    write_atomic(
        folder / DIGESTS_FILE,
        json.dumps(
            {names[p]: digests[p] for p in sorted(digests)}, sort_keys=True, separators=(",\n", ":")
        ),
    )
    write_atomic(folder / SOURCES_FILE, cache_json.encode(state))
    return PagesWritten(
        total=len(written),
        rendered=rendered,
        shared_files=shared_files,
        examined=len(examined),
    )


def _write_seasons(
    data: ReportData, folder: Path, state: Mapping[str, Any], before: Mapping[str, Any]
) -> int:
    """The season-wide facts the pages read, one file per season (`player_seasons`): those
    whose sources changed since `before` (or all of them, a season unknown), read for these
    seasons only. Returns the files written."""
    seasons: Mapping[str, str] | None = state["seasons"]
    kept = before.get("seasons") if before.get("common") == state["common"] else None
    files = (
        None
        if seasons is None or not isinstance(kept, dict)
        else [
            season
            for season, digest in sorted(seasons.items())
            if kept.get(season) != digest or not (folder / SEASONS_DIR / f"{season}.js").exists()
        ]
    )
    records = season_records(*(_season_rows(data, name, files) for name in SEASON_TABLES))
    return write_season_files(folder, records, None if files is None else set(seasons or ()))


def _render_group(d: _PlayerData, group: list[str], paths: Sequence[Path]) -> None:
    """Build the long tables of `group`'s players, render and write their pages."""
    chunk = _chunk(d, pl.Series(group, dtype=pl.String))
    for split in _fetched(d):
        split.prefetch(group)
    for pid, path in zip(group, paths, strict=True):
        _write_page(path, render_player(pid, d, chunk))


@dataclass(frozen=True)
class PagesWritten:
    total: int  # pages of the site
    rendered: int  # rendered this time (the others were unchanged)
    shared_files: int = 0  # season files (and their filler) written this time
    examined: int = 0  # pages whose sources changed: read and their digest computed


def _write_page(path: Path, text: str) -> None:
    """`html.write_atomic` without making the folder again for every page (made once): a
    page already there is replaced by a temporary sibling renamed over it, which also
    breaks the hard link a staging copy of the reports holds to the published page; a new
    page is written in place, created by this call alone (`O_EXCL`: never into a file
    there). A new page has no reader yet but a link followed too early, which found no
    page a moment before. The temporary file and rename of every new page were about a
    tenth of a full build's pages (s20: 54,000 new pages, 35.4 -> 32.7 s, one build each).
    The text is encoded once and written as bytes: no text layer."""
    data = text.encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        tmp = path.with_name(f".{path.name}.tmp")
        with open(tmp, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
        return
    try:
        with open(fd, "wb", closefd=True) as out:
            out.write(data)
    except BaseException:  # (a full disk): no half page left under the page's name
        path.unlink(missing_ok=True)
        raise


# ------------------------------------------------------------------ the worker processes


def _restricted(value: Any, players: pl.Series, kept: frozenset[str] = frozenset()) -> Any:
    """`value` (`_PlayerData`, what a block loaded…) with every `PlayerRows` in it cut down
    to the rows of `players` (in their order, each player's rows together, as `by_player`
    keeps them; no digest: the worker renders, it does not compare). A `PlayerRows` whose
    players are all in `kept` (`players` as a set: a full build's chunk, read for these
    players alone) is kept as it is, without its digests."""
    if isinstance(value, PlayerRows):
        if value.frame is None:
            return PlayerRows(None, {}, {})
        if kept and kept.issuperset(value):  # its players
            return PlayerRows(value.frame, value._spans, {})
        part = value.frame.filter(pl.col("player_id").is_in(players.implode()))
        spans: dict[str, tuple[int, int]] = {}
        start = 0
        for pid, length in part.group_by("player_id", maintain_order=True).len().iter_rows():
            spans[pid] = (start, length)
            start += length
        return PlayerRows(part if part.height else None, spans, {})
    if isinstance(value, PlayerBlock):
        return value
    if isinstance(value, dict):
        return {k: _restricted(v, players, kept) for k, v in value.items()}
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a named tuple
        return type(value)(*(_restricted(v, players, kept) for v in value))
    if isinstance(value, list | tuple):
        return type(value)(_restricted(v, players, kept) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: _restricted(getattr(value, f.name), players, kept)
            for f in dataclasses.fields(value)
            if f.init
        }
        return dataclasses.replace(value, **changes)
    return value


def _part(d: _PlayerData, group: list[str], players: pl.Series) -> _PlayerData:
    """What a worker needs of `d` for the players of `group`: every table split by player
    cut down to their rows (the blocks' too), the names of these players only (a page
    names its own player: the trajectories' hover text), the rest as it is."""
    names = {pid: d.names[pid] for pid in group if pid in d.names}
    kept = frozenset(group)
    changes = {
        f.name: _restricted(getattr(d, f.name), players, kept)
        for f in dataclasses.fields(d)
        if isinstance(getattr(d, f.name), PlayerRows)
    }
    blocks = _restricted(d.blocks, players, kept)
    return dataclasses.replace(d, players=d.players.clear(), names=names, blocks=blocks, **changes)


# a worker's task: the chunk's data, its players, their pages' paths, and whether its
# events are those the worker was given when started (`worker_start.SHARED`: sent once, not
# with each of the 27 chunks of s20, 1.5 MB of Python objects each)
_Task = tuple[_PlayerData, list[str], list[str], bool]


def _render_chunk(task: _Task) -> int:
    """In a worker: build the long tables of a chunk's players, render and write their
    pages."""
    d, group, paths, given = task
    if given:
        events = cast(Mapping[str, tuple[str, dt.date | None, float]], worker_start.SHARED)
        d = dataclasses.replace(d, events=events)
    _render_group(d, group, [Path(p) for p in paths])
    return len(group)


class _Pool:
    """The worker processes rendering and writing the pages of a large build, started at
    its first chunk to render (a new tournament renders its pages in this process and
    starts none). The build process holds DuckDB's and Polars' thread pools: the workers are
    started fresh ("spawn"), never forked. A worker gets a chunk's rows cut down to the
    players it renders (`_part`, pickled; its tables as LZ4-compressed Arrow,
    `PlayerRows.__reduce__`; the events every chunk shares given once to each worker when it
    starts, `events`, and left out of the chunks); at most `workers` + 1 chunks are in flight:
    the memory held is a few chunks', not the site's. A worker that dies (killed for want
    of memory, say) fails the build at once (`BrokenProcessPool`): a `multiprocessing.Pool`
    would wait for its chunk for ever."""

    def __init__(
        self, workers: int, events: Mapping[str, tuple[str, dt.date | None, float]] | None = None
    ) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._pending: deque[Future[int]] = deque()
        # every chunk's events (`_Shared`): given to each worker once, when it starts
        self._events = events

    def __enter__(self) -> _Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            # on an error, the chunks not started are dropped; those running end first
            self._pool.shutdown(wait=True, cancel_futures=exc[0] is not None)
            self._pool = None

    def render(self, d: _PlayerData, todo: list[str], paths: Sequence[Path]) -> None:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            shared = None if self._events is None else dict(self._events)
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=start_worker, initargs=(shared,)
            )
        part = _part(d, todo, pl.Series(todo, dtype=pl.String))
        given = self._events is not None and part.events is self._events
        task: _Task = (
            dataclasses.replace(part, events={}) if given else part,
            todo,
            [str(p) for p in paths],
            given,
        )
        self._pending.append(self._pool.submit(_render_chunk, task))
        while len(self._pending) > self.workers:
            self._pending.popleft().result()

    def reap(self, *, wait: bool) -> None:
        """Collect the chunks the workers finished (all of them when `wait`): a worker's
        error is raised here."""
        while self._pending and (wait or self._pending[0].done()):
            self._pending.popleft().result()


def _read_sources(path: Path) -> dict[str, Any]:
    """`SOURCES_FILE` (`_sources`); empty when missing, unreadable or of another layout
    (every page is examined)."""
    try:
        loaded = cache_json.read(path)
    except (OSError, cache_json.CacheUnreadable):
        return {}
    if not isinstance(loaded, dict) or loaded.get("version") != SOURCES_VERSION:
        return {}
    if not isinstance(loaded.get("tables"), dict) or not isinstance(loaded.get("keys"), dict):
        return {}
    return loaded


def _read_digests(path: Path) -> dict[str, str]:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in loaded.items()} if isinstance(loaded, dict) else {}
