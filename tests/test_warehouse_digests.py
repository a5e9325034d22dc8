"""A table written whole carries its frame's digest: the same frame is not written again,
and any other frame, or a table changed since by another write, is (`pipelines.warehouse`)."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import polars as pl
import pytest

import pipelines.warehouse as warehouse_module
from pipelines.warehouse import Warehouse
from transforms.tables import table


def _frame(name: str, rows: int) -> pl.DataFrame:
    """`rows` rows of the declared table `name`, every value set (strings, dates, numbers)."""
    schema = table(name).schema
    columns: dict[str, list[object]] = {}
    for column, dtype in schema.items():
        if dtype == pl.String:
            columns[column] = [f"{column}-{i}" for i in range(rows)]
        elif dtype == pl.Date:
            columns[column] = [dt.date(2024, 1, 1) + dt.timedelta(days=i) for i in range(rows)]
        elif dtype == pl.Boolean:
            columns[column] = [i % 2 == 0 for i in range(rows)]
        elif dtype.is_float():
            columns[column] = [float(i) / 2 for i in range(rows)]
        else:
            columns[column] = list(range(rows))
    return pl.DataFrame(columns, schema=schema)


def _comment(warehouse: Warehouse, name: str) -> str | None:
    with warehouse.connect(read_only=True) as con:
        row = con.execute(
            "SELECT comment FROM duckdb_tables() WHERE table_name = ?", [name]
        ).fetchone()
    return None if row is None else row[0]


def test_a_frame_already_written_is_kept_and_any_other_written(tmp_path: Path) -> None:
    warehouse = Warehouse(tmp_path / "w.duckdb")
    frame = _frame("tournaments", 5)
    warehouse.replace_tables({"tournaments": frame})
    first = _comment(warehouse, "tournaments")
    assert first is not None
    warehouse.replace_tables({"tournaments": frame})
    assert _comment(warehouse, "tournaments") == first
    assert warehouse.table("tournaments").equals(frame)
    # the same rows in another order: another table
    reversed_rows = frame.reverse()
    warehouse.replace_tables({"tournaments": reversed_rows})
    assert warehouse.table("tournaments").equals(reversed_rows)
    # one value changed
    changed = frame.with_columns(pl.col("tournament_id").str.replace("-4", "-9"))
    warehouse.replace_tables({"tournaments": changed})
    assert warehouse.table("tournaments").equals(changed)
    assert _comment(warehouse, "tournaments") not in (None, first)


def test_a_table_changed_by_another_write_is_written_again(tmp_path: Path) -> None:
    """A partition replaced (or deleted) since the table was written whole: the table no
    longer holds the frame its comment names, so that frame is written again."""
    warehouse = Warehouse(tmp_path / "w.duckdb")
    frame = _frame("tournaments", 4)
    warehouse.replace_tables({"tournaments": frame})
    first_id = frame["tournament_id"][0]
    warehouse.replace_partition("tournaments", frame.head(0), "tournament_id", first_id)
    assert warehouse.table("tournaments").height == 3
    assert _comment(warehouse, "tournaments") is None
    warehouse.replace_tables({"tournaments": frame})
    assert warehouse.table("tournaments").equals(frame)


def test_a_frame_sharing_its_first_blocks_rewrites_only_the_rows_after_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new tournament's rows land inside the last season (s20: 256 rows at row 1,222,965
    of 1,250,555): the whole blocks of rows before the first change stay where they are,
    the rows after them are written again; the table then reads back as the frame, in its
    order, commented as a table written whole, and the next frame is compared with it."""
    monkeypatch.setattr(warehouse_module, "DIGEST_BLOCK", 4)
    warehouse = Warehouse(tmp_path / "w.duckdb")
    frame = _frame("tournaments", 18)
    assert warehouse.replace_tables({"tournaments": frame}) == {"tournaments": 18}
    assert warehouse.replace_tables({"tournaments": frame}) == {"tournaments": 0}
    # a row inserted at row 9: blocks 0-3 and 4-7 kept, rows 8 onwards written again
    inserted = pl.concat([frame.head(9), _frame("tournaments", 30).tail(1), frame.slice(9)])
    assert warehouse.replace_tables({"tournaments": inserted}) == {"tournaments": 11}
    assert warehouse.table("tournaments").equals(inserted)
    fresh = Warehouse(tmp_path / "fresh.duckdb")
    fresh.replace_tables({"tournaments": inserted})
    assert _comment(warehouse, "tournaments") == _comment(fresh, "tournaments")
    # then a frame whose first row changed: nothing in common, written whole
    changed = inserted.with_columns(
        pl.when(pl.int_range(pl.len()) == 0)
        .then(pl.lit("autre"))
        .otherwise(pl.col("tournament_id"))
        .alias("tournament_id")
    )
    assert warehouse.replace_tables({"tournaments": changed}) == {"tournaments": 19}
    assert warehouse.table("tournaments").equals(changed)
    # shorter than the blocks it shares: the rows after the last whole block go
    assert warehouse.replace_tables({"tournaments": changed.head(10)}) == {"tournaments": 2}
    assert warehouse.table("tournaments").equals(changed.head(10))
    warehouse.replace_tables({"tournaments": changed.head(3)})
    assert warehouse.table("tournaments").equals(changed.head(3))


@pytest.mark.parametrize("seed", range(6))
def test_any_edit_of_a_table_written_whole_reads_back_as_the_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Rows inserted, removed or changed anywhere, a few frames in a row: each write reads
    back as its frame, with the comment a fresh write of it has."""
    monkeypatch.setattr(warehouse_module, "DIGEST_BLOCK", 3)
    rng = random.Random(seed)
    pool = _frame("tournaments", 60)
    rows = list(range(20))
    warehouse = Warehouse(tmp_path / "w.duckdb")
    for step in range(5):
        at = rng.randrange(len(rows) + 1)
        edit = rng.choice(["insert", "remove", "change"])
        if edit == "insert":
            rows.insert(at, 20 + step * 5 + rng.randrange(5))
        elif rows and at < len(rows):
            if edit == "remove":
                del rows[at]
            else:
                rows[at] = 50 + step
        frame = pool[rows]
        warehouse.replace_tables({"tournaments": frame})
        assert warehouse.table("tournaments").equals(frame), (seed, step, edit, at)
        fresh = Warehouse(tmp_path / f"fresh-{step}.duckdb")
        fresh.replace_tables({"tournaments": frame})
        assert _comment(warehouse, "tournaments") == _comment(fresh, "tournaments")


def test_a_held_warehouse_keeps_its_writes_in_the_log_until_asked_or_closed(
    tmp_path: Path,
) -> None:
    """A build's held connection does not checkpoint at each commit
    (`HELD_CHECKPOINT_THRESHOLD`): the log holds its writes until `checkpoint` is asked
    with a log at least `above` bytes long, or the connection closes; the rows are there
    throughout, and in the file alone once it is closed."""
    warehouse = Warehouse(tmp_path / "w.duckdb")
    log = tmp_path / "w.duckdb.wal"
    frame = _frame("series_standings", 20_000).with_columns(pl.lit("2023-2024").alias("season"))
    with warehouse.held():
        with warehouse.connect() as con:
            setting = con.execute("SELECT current_setting('checkpoint_threshold')").fetchone()
        assert setting is not None and "GiB" in str(setting[0])  # DuckDB's default: 16 MiB
        warehouse.replace_partition("series_standings", frame, "season", "2023-2024")
        size = log.stat().st_size
        assert size > 0
        warehouse.checkpoint(above=size + 1)  # a shorter log: left as it is
        assert log.exists() and log.stat().st_size == size
        assert warehouse.read("SELECT count(*) AS n FROM series_standings")["n"].item() == 20_000
        warehouse.checkpoint(above=size)
        assert not log.exists() or log.stat().st_size < size
        second = frame.with_columns(pl.lit("2024-2025").alias("season"))
        warehouse.replace_partition("series_standings", second, "season", "2024-2025")
        assert log.stat().st_size > 0
    assert not log.exists()  # closed: checkpointed
    assert warehouse.read("SELECT count(*) AS n FROM series_standings")["n"].item() == 40_000


def test_a_checkpoint_beside_the_site_is_refused_while_an_older_snapshot_reads(
    tmp_path: Path,
) -> None:
    """`checkpoint_if_free` (the build's checkpoint beside its site, from another thread's
    cursor): while a snapshot taken before the last writes is open (a season report's,
    `Warehouse.snapshot`), DuckDB refuses it and the log stays (False, no error) for the
    close to write; once the snapshot is released, the log is written into the file."""
    warehouse = Warehouse(tmp_path / "w.duckdb")
    log = tmp_path / "w.duckdb.wal"
    frame = _frame("series_standings", 20_000).with_columns(pl.lit("2023-2024").alias("season"))
    with warehouse.held():
        warehouse.replace_partition("series_standings", frame, "season", "2023-2024")
        snapshot, _ = warehouse.snapshot()
        second = frame.with_columns(pl.lit("2024-2025").alias("season"))
        warehouse.replace_partition("series_standings", second, "season", "2024-2025")
        size = log.stat().st_size
        beside = warehouse.cursor()
        with warehouse.serving(beside):
            assert not warehouse.checkpoint_if_free()
            assert log.stat().st_size == size
            Warehouse.release(snapshot)
            assert warehouse.checkpoint_if_free()
        assert not log.exists() or log.stat().st_size < size
        beside.close()
    assert warehouse.read("SELECT count(*) AS n FROM series_standings")["n"].item() == 40_000
