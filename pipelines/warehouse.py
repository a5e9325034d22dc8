"""The DuckDB warehouse: the only module that opens the database file.

Every write replaces whole tables (or one partition of a table) inside one transaction,
so a failing step leaves the tables exactly as they were.

Decisions taken here (issue 25: one new tournament in proportion to the file):
- a table written whole (`replace_tables`) carries the digest of its frame (each row's
  hash, in order, with the schema: `_digest`) as its comment; a frame whose digest is the
  table's comment is not written again (a new tournament leaves the rating lists, the
  published series and the families' tables as they were). Every other write of a table
  (`replace_partition`, `delete_partitions_except`) removes its comment. s20's ingest
  tables, written whole on a copy of the bench warehouse: 2,77 CPU-s; the rating lists,
  the published series and the families' tables are 1,0 of them, their digests 0,05
  (2 December 2026, rusage, busy shared machine).
- the comment also holds the digest of the frame's first k × `DIGEST_BLOCK` rows for each
  k: a frame that shares whole blocks with the table from its start keeps them, and only
  the rows after them are deleted and inserted again (they go after the kept ones: the
  table's row order is the frame's). A new tournament's rows land inside the last season,
  not at the end (s20's results: 256 rows at row 1,222,965 of 1,250,555): its results are
  about 32,000 rows written instead of 1,250,555 (blocks of 8,192 rows: `DIGEST_BLOCK`),
  and the ingest's writes of s20's one new tournament take about 0,3 s (6–7 December
  2026; before, 7 % of a run sampled by py-spy, 1,4 s at its slowed pace).
- the warehouse's queries use as many threads as Polars (`POLARS_MAX_THREADS`, when the
  process sets it: `_open`): one limit for the process's two engines. Unset, DuckDB keeps
  its default (one thread per core, as Polars). The test suite's workers run one thread
  each, the cores being shared by the workers: a build of the 4-player raw folder of the
  tests, 1,64 CPU-s at the defaults, 1,43 with both engines at one thread (process time,
  6 December 2026).
- a frame is written through its Arrow form: DuckDB registers it in 1,6 ms, a Polars frame
  in 2,6; a partition write creates its table only when the held names lack it, inserts
  nothing for an empty frame, and adds the table it creates to the held names instead of
  forgetting them (`replace_partition`); a writer that holds no connection makes the table
  with `IF NOT EXISTS` rather than open the file once more to ask. With `duckdb_tables()`
  (0,5 ms, against 1,2 for `information_schema.tables`), a build of the tests' 4-player
  folder went from 1,50 to 1,37 CPU-s (6 December 2026).
- a build's held connection does not checkpoint at each commit (`HELD_CHECKPOINT_THRESHOLD`):
  the season steps' partition writes each passed DuckDB's 16 MB threshold and rewrote the
  tables' last row groups at their commit (s20, py-spy: the commits were 6,7 s of the
  season steps). The build checkpoints after its ingest when the log passed
  `STAGE_CHECKPOINT_BYTES`, after its seasons and years (beside the site's pages, which
  only read: `pipelines.build`) and when it closes the file. The season tables of s20's 20
  seasons written partition by partition: 9,3 s (the commits 7,2) -> 4,1 s (1,8) and
  1,2 s to checkpoint at the close (6 December 2026).
- a build may compute two stages at once (the calendar years beside the seasons:
  `pipelines.build`): the second thread reads and writes through a cursor of the held
  connection of its own (`cursor`, `serving`: a DuckDB connection object serves one thread
  at a time, its cursors are connections of the same database). Write transactions go one
  at a time through a lock of the process (`_WRITE_LOCKS`) before the file's lock, so the
  two threads queue on each other at once instead of polling the file's lock; the held
  table names are kept only when no write changed them while they were read
  (`_NAMES_VERSION`).
"""

from __future__ import annotations

import bisect
import hashlib
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl

from pipelines.locks import exclusive
from transforms.tables import registry, table

# How long a write waits for another writer (a build) to finish before it fails.
WRITE_WAIT_SECONDS = 1800.0


# Connections held open for a whole build (`Warehouse.held`) or a whole reading of the file
# (`Warehouse.reading`), by file: every read (and a build's writes) of the process goes
# through it instead of opening the file each time.
_HELD: dict[Path, duckdb.DuckDBPyConnection] = {}
# A held connection (a build's) checkpoints only when its log reaches this size, when the
# build asks (`checkpoint`, after a stage that wrote much) and when it closes, not at every
# commit that passes DuckDB's default of 16 MB (the module's decisions).
HELD_CHECKPOINT_THRESHOLD = "4GB"
# The log's size from which a build checkpoints after a stage (`Warehouse.checkpoint`): a
# full build's seasons (hundreds of megabytes) are written then, not kept in memory to the
# end; a new tournament's few megabytes are written once, at the close.
STAGE_CHECKPOINT_BYTES = 64 * 1024 * 1024
# The table names of a held warehouse, read once and forgotten at each write (only this
# module creates tables, and only this process writes while it holds the file).
_HELD_TABLES: dict[Path, list[str]] = {}
# How many times each held warehouse's names were forgotten: names read while a write of
# another thread changed them are not kept (`Warehouse.tables`).
_NAMES_VERSION: dict[Path, int] = {}
# The cursors of the held connections a thread other than the holder's uses (`serving`).
_THREAD = threading.local()
# One write transaction at a time per file within the process (`Warehouse._transaction`).
_WRITE_LOCKS: dict[Path, threading.Lock] = {}
_WRITE_LOCKS_GUARD = threading.Lock()
# Guards the held names and their versions (a thread's names against another's write).
_NAMES_LOCK = threading.Lock()


def _write_lock(key: Path) -> threading.Lock:
    with _WRITE_LOCKS_GUARD:
        return _WRITE_LOCKS.setdefault(key, threading.Lock())


def _thread_cursor(key: Path) -> duckdb.DuckDBPyConnection | None:
    cursors: dict[Path, duckdb.DuckDBPyConnection] | None = getattr(_THREAD, "cursors", None)
    return None if cursors is None else cursors.get(key)


def _forget_names(key: Path) -> None:
    with _NAMES_LOCK:
        _HELD_TABLES.pop(key, None)
        _NAMES_VERSION[key] = _NAMES_VERSION.get(key, 0) + 1


def _open(path: Path, *, read_only: bool) -> duckdb.DuckDBPyConnection:
    """A connection to the file, its threads limited as Polars' are (the module's
    decisions). `SET threads` is the database's setting, not a connection's option: a
    connection opened elsewhere in the process with DuckDB's defaults is not refused."""
    con = duckdb.connect(str(path), read_only=read_only)
    if os.environ.get("POLARS_MAX_THREADS"):
        try:
            con.execute(f"SET threads = {pl.thread_pool_size()}")
        except BaseException:
            con.close()
            raise
    return con


# The warehouse's tables (it holds no view), by name (the module's decisions).
_TABLE_NAMES = (
    "SELECT table_name FROM duckdb_tables() "
    "WHERE database_name = current_database() AND schema_name = 'main' ORDER BY table_name"
)

_TABLE_COMMENTS = _TABLE_NAMES.replace("SELECT table_name", "SELECT table_name, comment")


@dataclass(frozen=True)
class Warehouse:
    path: Path

    @contextmanager
    def connect(self, *, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        key = self.path.resolve()
        held = _thread_cursor(key) or _HELD.get(key)
        if held is not None:
            yield held
            return
        if not read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        con = _open(self.path, read_only=read_only)
        try:
            yield con
        finally:
            con.close()

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold one read-write connection open while the block runs (an in-process build):
        the many reads and writes of the assets reuse it. Closed — and the file fully
        written — when the block ends."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._holding(read_only=False):
            yield

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A new cursor of the build's held connection (`held`), for another thread to use
        through `serving`; the caller closes it once that thread is done."""
        held = _HELD.get(self.path.resolve())
        if held is None:
            raise RuntimeError(f"{self.path}: a cursor is taken within a build's held connection")
        return held.cursor()

    @contextmanager
    def serving(self, cursor: duckdb.DuckDBPyConnection) -> Iterator[None]:
        """Within the block, this thread's reads and writes of the warehouse go through
        `cursor` (`cursor()`) instead of the held connection, which another thread uses."""
        key = self.path.resolve()
        cursors: dict[Path, duckdb.DuckDBPyConnection] = getattr(_THREAD, "cursors", {})
        _THREAD.cursors = cursors
        before = cursors.get(key)
        cursors[key] = cursor
        try:
            yield
        finally:
            if before is None:
                cursors.pop(key, None)
            else:
                cursors[key] = before

    def checkpoint(self, above: int = 0) -> None:
        """Write what the write-ahead log holds into the file (`held`'s writes are kept in
        the log until the connection closes or this is called), when the log holds at
        least `above` bytes (a checkpoint has a cost of its own: a new tournament's few
        megabytes wait for the close)."""
        if not self.needs_checkpoint(above):
            return
        with self.connect() as con:
            con.execute("CHECKPOINT")

    def checkpoint_if_free(self) -> bool:
        """`checkpoint()` when no other transaction that wrote is open (DuckDB refuses it
        then: False, the log stays for the close or the next checkpoint)."""
        try:
            self.checkpoint()
        except duckdb.TransactionException:
            return False
        return True

    def needs_checkpoint(self, above: int = 0) -> bool:
        """Whether `checkpoint(above)` would write the log into the file."""
        log = self.path.with_name(self.path.name + ".wal")
        return not above or (log.exists() and log.stat().st_size >= above)

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Hold one read-only connection open while the block runs (a what-if, the notebook's
        series counts): its many reads reuse it instead of opening the file each time (about
        11 ms an opening: a what-if of the test federation opened it 118 times, 1,3 of its
        2,1 CPU-s, 6 December 2026). A write inside the block fails (the file is open read-only
        here). Within a build's `held` block, that connection serves."""
        with self._holding(read_only=True):
            yield

    @contextmanager
    def _holding(self, *, read_only: bool) -> Iterator[None]:
        """`held` and `reading`: the connection of an outer block serves an inner one."""
        key = self.path.resolve()
        if key in _HELD:
            yield
            return
        con = _open(self.path, read_only=read_only)
        if not read_only:  # the build's writes checkpoint when it asks or closes
            con.execute(f"SET checkpoint_threshold = '{HELD_CHECKPOINT_THRESHOLD}'")
        _HELD[key] = con
        try:
            yield
        finally:
            _forget_names(key)
            _HELD.pop(key).close()

    def snapshot(self) -> tuple[duckdb.DuckDBPyConnection, dict[str, str | None]]:
        """A cursor of the build's held connection (`held`) inside a read transaction begun
        now, and the tables it sees with their comments (a table written whole: its frame's
        digest, `replace_tables`): its reads see the warehouse as it is at this moment,
        whatever the build writes afterwards (DuckDB's snapshot isolation; the transaction
        starts at its first read of the catalog, not at `BEGIN`). Usable from another
        thread, one at a time; the caller ends it (`release`)."""
        # of the held connection itself, never of a thread's cursor (`serving`): closing a
        # cursor closes the cursors taken from it, and a snapshot outlives that thread's work
        held = _HELD.get(self.path.resolve())
        if held is None:
            raise RuntimeError(f"{self.path}: a snapshot is taken within a build's held connection")
        cursor = held.cursor()
        try:
            cursor.execute("BEGIN TRANSACTION")
            rows = cursor.execute(_TABLE_COMMENTS).fetchall()
        except BaseException:
            cursor.close()
            raise
        return cursor, {name: comment for name, comment in rows}

    @staticmethod
    def release(cursor: duckdb.DuckDBPyConnection) -> None:
        """End a `snapshot`'s read transaction and close its cursor."""
        try:
            with suppress(duckdb.Error):
                cursor.execute("ROLLBACK")
        finally:
            cursor.close()

    def exists(self) -> bool:
        return self.path.exists()

    def tables(self) -> list[str]:
        if not self.exists():
            return []
        key = self.path.resolve()
        if key in _HELD and key in _HELD_TABLES:
            return list(_HELD_TABLES[key])
        version = _NAMES_VERSION.get(key, 0)
        with self.connect(read_only=True) as con:
            rows = con.execute(_TABLE_NAMES).fetchall()
        names = [r[0] for r in rows]
        with _NAMES_LOCK:
            if key in _HELD and _NAMES_VERSION.get(key, 0) == version:
                _HELD_TABLES[key] = names
        return list(names)

    def read(self, sql: str, params: list[object] | None = None) -> pl.DataFrame:
        """Run a query and return its rows as a Polars frame."""
        with self.connect(read_only=True) as con:
            return con.sql(sql, params=params or None).pl()

    def read_if(self, name: str, sql: str, params: list[object] | None = None) -> pl.DataFrame:
        """`read(sql, params)` when the warehouse holds the table `name` the query reads, else
        that table's declared empty frame (a table no build has written yet)."""
        if name not in self.tables():
            return self.empty(name)
        return self.read(sql, params)

    def table(self, name: str) -> pl.DataFrame:
        return self.read(f'SELECT * FROM "{name}"')

    @staticmethod
    def empty(name: str) -> pl.DataFrame:
        """An empty frame of a declared table (`transforms.tables`)."""
        return table(name).empty()

    def row_counts(self) -> dict[str, int]:
        if not self.exists():
            return {}
        with self.connect(read_only=True) as con:
            names = [r[0] for r in con.execute(_TABLE_NAMES).fetchall()]
            return {
                n: int(con.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0])  # type: ignore[index]
                for n in names
            }

    def replace_tables(self, tables: Mapping[str, pl.DataFrame]) -> dict[str, int]:
        """Replace each named table by its frame, all in one transaction. Every frame must
        match its table's declaration (`transforms.tables`): columns, order and types. A
        table whose comment is its frame's digest holds that frame already: not written; a
        table whose comment says its first rows are the frame's first rows (by blocks of
        `DIGEST_BLOCK` rows) keeps them, the rows after them written again (the module's
        decisions). Returns how many rows were written, by table."""
        for name, frame in tables.items():
            table(name).check(frame)
        comments = {name: _comment_of(frame) for name, frame in tables.items()}
        rows_written = dict.fromkeys(tables, 0)
        with self._transaction() as con:
            written = dict(
                con.execute(
                    "SELECT table_name, comment FROM duckdb_tables() "
                    "WHERE database_name = current_database() AND schema_name = 'main'"
                ).fetchall()
            )
            for name, frame in tables.items():
                comment, old = comments[name], written.get(name)
                if comment is not None and old == comment:
                    continue
                kept = _rows_kept(old, comment) * DIGEST_BLOCK
                if kept:  # the table's first `kept` rows are the frame's: the others go
                    con.execute(
                        f'DELETE FROM "{name}" WHERE rowid >= (SELECT rowid FROM "{name}" '
                        f"ORDER BY rowid LIMIT 1 OFFSET {kept})"
                    )
                    con.register("_frame", frame.slice(kept).to_arrow())
                    con.execute(f'INSERT INTO "{name}" SELECT * FROM _frame')
                else:
                    con.register("_frame", frame.to_arrow())
                    con.execute(f'CREATE OR REPLACE TABLE "{name}" AS SELECT * FROM _frame')
                con.unregister("_frame")
                rows_written[name] = frame.height - kept
                if comment is not None:
                    con.execute(f"COMMENT ON TABLE \"{name}\" IS '{comment}'")
        return rows_written

    def replace_partition(self, name: str, frame: pl.DataFrame, column: str, value: object) -> None:
        """Replace the rows of `name` whose `column` equals `value` by `frame`, atomically.

        The table is created from the frame's schema when it does not exist yet. The frame
        must match the table's declaration (`transforms.tables`).
        """
        table(name).check(frame)
        key = self.path.resolve()
        # known to exist only through a held connection's names: asking the file alone would
        # open it once more (~20 ms) where `IF NOT EXISTS` below costs ~1 ms
        exists = key in _HELD and name in self.tables()
        with self._transaction(creates=False) as con:
            registered = not exists or frame.height > 0
            if registered:  # as Arrow (the module's decisions)
                con.register("_frame", frame.to_arrow())
            if not exists:  # (another writer may have made it since: IF NOT EXISTS)
                con.execute(f'CREATE TABLE IF NOT EXISTS "{name}" AS SELECT * FROM _frame LIMIT 0')
            con.execute(f'DELETE FROM "{name}" WHERE "{column}" = ?', [value])
            if frame.height:
                con.execute(f'INSERT INTO "{name}" SELECT * FROM _frame')
            if registered:
                con.unregister("_frame")
            con.execute(f'COMMENT ON TABLE "{name}" IS NULL')  # no longer a frame written whole
        with _NAMES_LOCK:  # the names held stay true: one more (and names read meanwhile
            known = _HELD_TABLES.get(key)  # by another thread are not kept)
            if known is not None and name not in known:
                bisect.insort(known, name)
            if not exists:
                _NAMES_VERSION[key] = _NAMES_VERSION.get(key, 0) + 1

    def delete_partitions_except(self, column: str, keep: list[str]) -> None:
        """Delete, from every table having `column` (`season`, `year`), the rows of the
        partitions not in `keep` (partitions whose exports were removed)."""
        declared = registry()
        names = [
            n
            for n in self.tables()
            if n in declared and column in declared[n].schema and declared[n].family.key != "ingest"
        ]
        with self._transaction(creates=False) as con:
            for name in names:
                kept = f'list_contains(?::VARCHAR[], "{column}"::VARCHAR)'
                deleted = con.execute(f'DELETE FROM "{name}" WHERE NOT {kept}', [keep]).fetchone()
                if deleted and deleted[0]:
                    con.execute(f'COMMENT ON TABLE "{name}" IS NULL')

    @contextmanager
    def _transaction(self, *, creates: bool = True) -> Iterator[duckdb.DuckDBPyConnection]:
        """A write transaction under the warehouse's lock; a failure rolls back and the
        failure itself is raised (a failed rollback, e.g. on a full disk, never hides it).
        `creates`: the transaction may create or drop tables (the held table names are
        read again afterwards); else they stay known."""
        key = self.path.resolve()
        with (
            _write_lock(key),
            exclusive(self.path, wait=WRITE_WAIT_SECONDS),
            self.connect() as con,
        ):
            if creates:
                _forget_names(key)
            con.execute("BEGIN TRANSACTION")
            try:
                yield con
                con.execute("COMMIT")
            except BaseException:
                with suppress(Exception):
                    con.execute("ROLLBACK")
                raise
            finally:
                if creates:
                    _forget_names(key)


# The version of the comment's recipe (`_comment_of`): another recipe never matches this one
# (nor another `DIGEST_BLOCK`, also hashed).
_DIGEST_VERSION = 3
_DIGEST_PREFIX = "digest:"
# A table written whole keeps, in its comment, the digest of its first k × DIGEST_BLOCK rows
# for each k (s20's results: 152 digests, 5 KB of comment): a frame whose first blocks are
# the table's rewrites only the rows after them. 65,536 until 7 December 2026: s20's new
# tournament rewrote 70,907 results rather than the 27,590 after its place, the whole
# ingest log and tournaments (fewer rows than a block).
DIGEST_BLOCK = 8_192


def _comment_of(frame: pl.DataFrame) -> str | None:
    """The comment of a table holding `frame`: `digest:` and the digest of the whole frame
    (its schema, each row's hash in row order, its row count), then, for each whole block
    of `DIGEST_BLOCK` rows, the digest of the rows up to that block's end (32 hex digits
    each). Rows are hashed by Polars' `hash_rows`, seeded: the same in every process of one
    Polars version, whose version is part of the digest. None when a column cannot be
    hashed (the table is then written always)."""
    try:
        rows = frame.hash_rows(seed=0).to_numpy()
    except Exception:
        return None
    header = f"{_DIGEST_VERSION}\0{DIGEST_BLOCK}\0{pl.__version__}\0{frame.schema}\0"
    digest = hashlib.sha256(header.encode())
    marks = []
    for end in range(DIGEST_BLOCK, len(rows) + 1, DIGEST_BLOCK):
        digest.update(rows[end - DIGEST_BLOCK : end].tobytes())
        marks.append(digest.hexdigest()[:32])
    digest.update(rows[len(marks) * DIGEST_BLOCK :].tobytes())
    digest.update(f"\0{len(rows)}".encode())
    return " ".join([f"{_DIGEST_PREFIX}{digest.hexdigest()}", *marks])


def _rows_kept(old: object, new: str | None) -> int:
    """How many whole blocks of rows a table commented `old` has in common with the frame
    commented `new`, from the start (0 when either has no digest)."""
    if new is None or not isinstance(old, str) or not old.startswith(_DIGEST_PREFIX):
        return 0
    blocks = 0
    for mine, theirs in zip(old.split()[1:], new.split()[1:], strict=False):
        if mine != theirs:
            break
        blocks += 1
    return blocks
