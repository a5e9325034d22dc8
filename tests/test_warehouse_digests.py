"""A table written whole carries its frame's digest: the same frame is not written again,
and any other frame, or a table changed since by another write, is (`pipelines.warehouse`)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl

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
