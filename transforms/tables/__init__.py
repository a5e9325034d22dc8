"""The table registry: every warehouse table declared once — columns, types, meaning.

Each rule family declares its tables in one module of this package (`FAMILY` and
`TABLES`); `registry()` gathers them. From these declarations come:

- the checks of every frame a transform hands over (`Table.check`) and of every frame the
  warehouse writes (`pipelines.warehouse.Warehouse` refuses one that differs);
- the typed reads of the reports (`pipelines.reports.data.ReportData`), which fail on a
  missing column instead of showing it empty;
- the `dagster/column_schema` metadata of every asset and `docs/warehouse.md`.

A new family adds a module here; nothing else in this package changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

import polars as pl

STR = pl.String()
INT = pl.Int64()
FLOAT = pl.Float64()
DATE = pl.Date()
BOOL = pl.Boolean()


class TableSchemaError(ValueError):
    """A frame whose columns or types differ from its table's declaration."""


@dataclass(frozen=True)
class Column:
    name: str
    dtype: pl.DataType
    doc: str = ""


@dataclass(frozen=True)
class Family:
    """A group of tables: one Dagster asset group, one part of `docs/warehouse.md`."""

    key: str
    title: str
    order: int
    partition: str | None = None  # the column a partitioned family's assets replace
    doc: str = ""


@dataclass(frozen=True)
class Table:
    name: str
    family: Family
    grain: str  # "one row per …"
    description: str
    columns: tuple[Column, ...]
    # An ingest table a rule family adds: the family that reads it (its partitions alone
    # are rebuilt when it changes). None: every family may read it.
    feeds: Family | None = None

    @property
    def schema(self) -> pl.Schema:
        return pl.Schema({c.name: c.dtype for c in self.columns})

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    @property
    def export_schema(self) -> dict[str, pl.DataType]:
        """An ingest table's columns as its export files give them, in order: every column
        but `source_file` (the file a row came from, which the ingest adds)."""
        return {c.name: c.dtype for c in self.columns if c.name != "source_file"}

    def empty(self) -> pl.DataFrame:
        return pl.DataFrame(schema=self.schema)

    def differences(self, frame: pl.DataFrame | Mapping[str, pl.DataType]) -> list[str]:
        """What separates a frame (or a schema) from the declaration; empty when none."""
        actual = dict(frame.schema if isinstance(frame, pl.DataFrame) else frame)
        wanted = self.schema
        problems = []
        missing = [c for c in wanted if c not in actual]
        extra = [c for c in actual if c not in wanted]
        if missing:
            problems.append(f"missing column(s) {', '.join(missing)}")
        if extra:
            problems.append(f"undeclared column(s) {', '.join(extra)}")
        for name, dtype in wanted.items():
            if name in actual and actual[name] != dtype:
                problems.append(f"column {name} is {actual[name]}, declared {dtype}")
        if not problems and list(actual) != list(wanted):
            problems.append(
                f"columns in the order {', '.join(actual)}, declared {', '.join(wanted)}"
            )
        return problems

    def check(self, frame: pl.DataFrame) -> pl.DataFrame:
        """The frame itself when it matches the declaration exactly; else TableSchemaError."""
        problems = self.differences(frame)
        if problems:
            raise TableSchemaError(f"table {self.name}: {'; '.join(problems)}")
        return frame

    def complete(self, frame: pl.DataFrame) -> pl.DataFrame:
        """`frame` with every declared column it lacks added as nulls, in declared order,
        cast to the declared types (hand-made frames: tests, notebooks, what-ifs)."""
        extra = [c for c in frame.columns if c not in self.schema]
        if extra:
            raise TableSchemaError(f"table {self.name}: undeclared column(s) {', '.join(extra)}")
        return frame.select(
            (pl.col(c) if c in frame.columns else pl.lit(None)).cast(t).alias(c)
            for c, t in self.schema.items()
        )

    def conform(self, frame: pl.DataFrame) -> pl.DataFrame:
        """The declared columns of `frame` in declared order, all-null columns cast to their
        type, then checked (any other difference is an error)."""
        missing = [c for c in self.column_names if c not in frame.columns]
        if missing:
            raise TableSchemaError(f"table {self.name}: missing column(s) {', '.join(missing)}")
        return self.check(
            frame.select(
                pl.col(c).cast(t) if frame.schema[c] == pl.Null else pl.col(c)
                for c, t in self.schema.items()
            )
        )


def columns(*spec: tuple[str, pl.DataType] | tuple[str, pl.DataType, str]) -> tuple[Column, ...]:
    """Columns from `(name, dtype[, doc])` tuples."""
    return tuple(Column(*item) for item in spec)


@cache
def registry() -> dict[str, Table]:
    """Every declared table by name, families in their order, tables in declaration order."""
    found: list[Table] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.extend(getattr(module, "TABLES", ()))
    tables: dict[str, Table] = {}
    for t in sorted(found, key=lambda t: t.family.order):
        if t.name in tables:
            raise ValueError(f"table {t.name} is declared twice")
        tables[t.name] = t
    return tables


def table(name: str) -> Table:
    """The declaration of one table."""
    try:
        return registry()[name]
    except KeyError:
        raise KeyError(f"table {name!r} is not declared in transforms/tables") from None


def families() -> list[Family]:
    seen: dict[str, Family] = {}
    for t in registry().values():
        seen.setdefault(t.family.key, t.family)
    return list(seen.values())


def tables_of(family: str) -> Iterable[Table]:
    return [t for t in registry().values() if t.family.key == family]


def inputs_of(partition: str) -> list[str]:
    """The ingest tables the families partitioned by `partition` (`season`, `year`) may
    read: the base tables and the ingest tables of those families (`Table.feeds`)."""
    return [
        t.name for t in tables_of("ingest") if t.feeds is None or t.feeds.partition == partition
    ]
