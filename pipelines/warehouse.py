"""The DuckDB warehouse: the only module that opens the database file.

Every write replaces whole tables (or one partition of a table) inside one transaction,
so a failing step leaves the tables exactly as they were.
"""

from __future__ import annotations

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


# Connections held open for a whole build (`Warehouse.held`), by file: every read and write
# of the process goes through it instead of opening the file each time.
_HELD: dict[Path, duckdb.DuckDBPyConnection] = {}
# The table names of a held warehouse, read once and forgotten at each write (only this
# module creates tables, and only this process writes while it holds the file).
_HELD_TABLES: dict[Path, list[str]] = {}


@dataclass(frozen=True)
class Warehouse:
    path: Path

    @contextmanager
    def connect(self, *, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        held = _HELD.get(self.path.resolve())
        if held is not None:
            yield held
            return
        if not read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        con = duckdb.connect(str(self.path), read_only=read_only)
        try:
            yield con
        finally:
            con.close()

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold one read-write connection open while the block runs (an in-process build):
        the many reads and writes of the assets reuse it. Closed — and the file fully
        written — when the block ends."""
        key = self.path.resolve()
        if key in _HELD:
            yield
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        _HELD[key] = duckdb.connect(str(self.path))
        try:
            yield
        finally:
            _HELD_TABLES.pop(key, None)
            _HELD.pop(key).close()

    def exists(self) -> bool:
        return self.path.exists()

    def tables(self) -> list[str]:
        if not self.exists():
            return []
        key = self.path.resolve()
        if key in _HELD and key in _HELD_TABLES:
            return list(_HELD_TABLES[key])
        with self.connect(read_only=True) as con:
            rows = con.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = 'main' ORDER BY table_name"
            ).fetchall()
        names = [r[0] for r in rows]
        if key in _HELD:
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
            names = [
                r[0]
                for r in con.execute(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema = 'main' ORDER BY table_name"
                ).fetchall()
            ]
            return {
                n: int(con.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0])  # type: ignore[index]
                for n in names
            }

    def replace_tables(self, tables: Mapping[str, pl.DataFrame]) -> None:
        """Replace each named table by its frame, all in one transaction. Every frame must
        match its table's declaration (`transforms.tables`): columns, order and types."""
        for name, frame in tables.items():
            table(name).check(frame)
        with self._transaction() as con:
            for name, frame in tables.items():
                con.register("_frame", frame)
                con.execute(f'CREATE OR REPLACE TABLE "{name}" AS SELECT * FROM _frame')
                con.unregister("_frame")

    def replace_partition(self, name: str, frame: pl.DataFrame, column: str, value: object) -> None:
        """Replace the rows of `name` whose `column` equals `value` by `frame`, atomically.

        The table is created from the frame's schema when it does not exist yet. The frame
        must match the table's declaration (`transforms.tables`).
        """
        table(name).check(frame)
        with self._transaction() as con:
            con.register("_frame", frame)
            con.execute(f'CREATE TABLE IF NOT EXISTS "{name}" AS SELECT * FROM _frame LIMIT 0')
            con.execute(f'DELETE FROM "{name}" WHERE "{column}" = ?', [value])
            con.execute(f'INSERT INTO "{name}" SELECT * FROM _frame')
            con.unregister("_frame")

    def delete_partitions_except(self, column: str, keep: list[str]) -> None:
        """Delete, from every table having `column` (`season`, `year`), the rows of the
        partitions not in `keep` (partitions whose exports were removed)."""
        declared = registry()
        names = [
            n
            for n in self.tables()
            if n in declared and column in declared[n].schema and declared[n].family.key != "ingest"
        ]
        with self._transaction() as con:
            for name in names:
                kept = f'list_contains(?::VARCHAR[], "{column}"::VARCHAR)'
                con.execute(f'DELETE FROM "{name}" WHERE NOT {kept}', [keep])

    @contextmanager
    def _transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A write transaction under the warehouse's lock; a failure rolls back and the
        failure itself is raised (a failed rollback, e.g. on a full disk, never hides it)."""
        with exclusive(self.path, wait=WRITE_WAIT_SECONDS), self.connect() as con:
            _HELD_TABLES.pop(self.path.resolve(), None)
            con.execute("BEGIN TRANSACTION")
            try:
                yield con
                con.execute("COMMIT")
            except BaseException:
                with suppress(Exception):
                    con.execute("ROLLBACK")
                raise
            finally:
                _HELD_TABLES.pop(self.path.resolve(), None)
