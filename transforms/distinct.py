"""Per-row expressions computed once per distinct value (pure Polars).

A label cleaned by string operations (a written series, a federation name) takes a few
distinct values over tens of thousands of rows: `per_distinct` computes the expression on
the distinct values and looks each row up, with the same values as the expression on every
row.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl
from polars.datatypes import DataType


def per_distinct(
    frame: pl.DataFrame,
    column: str,
    expr: Callable[[pl.Expr], pl.Expr],
    dtype: DataType | type[DataType],
) -> pl.Expr:
    """`expr(pl.col(column))` for the rows of `frame`, computed once per distinct value of
    `column` (null included) and looked up. `expr` must be elementwise (each row's value
    depends on that row only); on another frame, a value absent from `frame` gives null."""
    values = frame.get_column(column).unique()
    results = values.to_frame(column).select(expr(pl.col(column)).cast(dtype)).to_series()
    known = values.is_not_null()
    lookup = pl.col(column).replace_strict(
        values.filter(known), results.filter(known), default=None, return_dtype=dtype
    )
    if values.null_count() == 0:
        return lookup
    for_null = results.filter(~known)[0]
    return pl.when(pl.col(column).is_null()).then(pl.lit(for_null, dtype=dtype)).otherwise(lookup)
