"""The table registry (`transforms.tables`) seen from Dagster and from the docs: each
asset's `dagster/column_schema`, and the tables part of `docs/warehouse.md`."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import dagster as dg
import polars as pl

from transforms.tables import Table, families, table, tables_of

_DUCKDB_TYPES = {
    pl.String(): "VARCHAR",
    pl.Int64(): "BIGINT",
    pl.Float64(): "DOUBLE",
    pl.Date(): "DATE",
    pl.Boolean(): "BOOLEAN",
}


def sql_type(dtype: pl.DataType) -> str:
    """The DuckDB type a declared column is stored as."""
    return _DUCKDB_TYPES.get(dtype, str(dtype))


def column_schema(t: Table) -> dg.TableSchema:
    return dg.TableSchema(
        columns=[
            dg.TableColumn(c.name, sql_type(c.dtype), description=c.doc or None) for c in t.columns
        ]
    )


def table_metadata(name: str, **extra: Any) -> dict[str, Any]:
    """Definition metadata of the asset that writes table `name`."""
    return {"dagster/column_schema": column_schema(table(name)), **extra}


def table_spec(name: str, *, deps: Iterable[str] = (), **kwargs: Any) -> dg.AssetSpec:
    """The spec of a multi-asset's table: description, group and column schema from the
    registry."""
    t = table(name)
    return dg.AssetSpec(
        name,
        deps=list(deps),
        description=f"{t.description} One row per {t.grain}.",
        group_name=t.family.key,
        metadata=table_metadata(name),
        **kwargs,
    )


# ---------------------------------------------------------------------------- docs

DOC_BEGIN = "<!-- tables: generated from transforms/tables by `make docs`; do not edit -->"
DOC_END = "<!-- end of tables -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_tables_doc() -> str:
    """The generated part of `docs/warehouse.md`: every family, table and column."""
    out: list[str] = []
    for family in families():
        out.append(f"## {family.title} (group `{family.key}`)")
        if family.doc:
            out.append("")
            out.append(family.doc)
        for t in tables_of(family.key):
            out += ["", f"### `{t.name}` — one row per {t.grain}", "", t.description, ""]
            out += ["| column | type | meaning |", "|---|---|---|"]
            out += [f"| `{c.name}` | {sql_type(c.dtype)} | {_cell(c.doc)} |" for c in t.columns]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def splice_doc(text: str, generated: str) -> str:
    """`text` with the part between the markers replaced by `generated`."""
    head, sep, rest = text.partition(DOC_BEGIN)
    if not sep:
        raise ValueError(f"docs/warehouse.md lacks the marker {DOC_BEGIN!r}")
    _, sep, tail = rest.partition(DOC_END)
    if not sep:
        raise ValueError(f"docs/warehouse.md lacks the marker {DOC_END!r}")
    return f"{head}{DOC_BEGIN}\n\n{generated}\n{DOC_END}{tail}"


def write_warehouse_doc(path: Path) -> bool:
    """Regenerate the tables part of the doc at `path`; True when it changed."""
    text = path.read_text(encoding="utf-8")
    new = splice_doc(text, render_tables_doc())
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


if __name__ == "__main__":  # `make docs`
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/warehouse.md")
    print(f"{target}: {'updated' if write_warehouse_doc(target) else 'up to date'}")
