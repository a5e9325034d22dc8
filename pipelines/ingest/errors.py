"""The error a tournament organiser reads when one of their files cannot be loaded.

Messages are in French, for the organiser, in one format everywhere::

    2023-2024/C2.csv, ligne 3, colonne « rank » (Rang) : « deux » n'est pas un nombre entier

the file (with `[feuille …]` for a workbook's sheet), the row, the column by its canonical
name with the header the organiser wrote in parentheses when it differs, then ` : ` and
what is wrong and how to fix it. French typography with ordinary spaces (greppable, and
the same in a terminal, a log table and a `.reason.txt`): a space before `:` and `;`,
guillemets « » around column names, values and literal text.

The checks of the exports report their errors as rows (`ERROR_SCHEMA`), each with its
`CheckKind`, through one of three helpers: `error_rows` (the rows of a frame where a mask
holds), `located_errors` (rows already picked) and `errors_at` (a transform's errors, by
position in the frame it checked, placed at their file rows).
"""

from __future__ import annotations

import unicodedata
from enum import IntEnum

import polars as pl


class CheckKind(IntEnum):
    """What a check of an export looks at. A file is rejected with its first error: by row,
    then in this order (`_check` of the error rows)."""

    EMPTY = 1  # a value left empty that the column requires
    TYPE = 2  # a value that is not of its column's type, or too long
    VALUE = 3  # a value out of range or unknown (a code, a tournament without results)
    ROWS = 4  # rows of a file that contradict each other (a duplicate, a game half given)
    EVENT = 5  # rows against their event (one value per tournament, a final's rounds)
    FILES = 6  # rows against other files (one file per tournament, the rankings of a final)


# The error rows of the checks: where (`_file`, `_where` its name in messages, `_row`), the
# column, the French message and the `CheckKind`.
ERROR_SCHEMA = {
    "_file": pl.String,
    "_where": pl.String,
    "_row": pl.Int64,
    "column": pl.String,
    "message": pl.String,
    "_check": pl.Int64,
}
_PLACE = ["_file", "_where", "_row"]


def empty_errors() -> pl.DataFrame:
    return pl.DataFrame(schema=ERROR_SCHEMA)


def error_rows(
    frame: pl.DataFrame, mask: pl.Expr, column: str | None, message: pl.Expr, kind: CheckKind
) -> pl.DataFrame:
    """Rows of `frame` where mask holds, as errors. Window expressions in mask and message
    see the whole frame (they are evaluated before filtering). The messages are formatted
    only when the mask finds something (most checks of most builds find nothing)."""
    if not frame.select(mask.fill_null(False).any()).item():
        return empty_errors()
    return (
        frame.with_columns(
            mask.fill_null(False).alias("_mask"), message.cast(pl.String).alias("_message")
        )
        .filter(pl.col("_mask"))
        .select(
            pl.col("_file"),
            pl.col("_where"),
            pl.col("_row"),
            pl.lit(column, dtype=pl.String).alias("column"),
            pl.col("_message").alias("message"),
            pl.lit(int(kind), dtype=pl.Int64).alias("_check"),
        )
    )


def located_errors(
    rows: pl.DataFrame, column: pl.Expr, message: pl.Expr, kind: CheckKind
) -> pl.DataFrame:
    """Every row of `rows` (the offending rows, with `_file, _where, _row`) as an error."""
    return rows.select(
        *_PLACE,
        column.alias("column"),
        message.alias("message"),
        pl.lit(int(kind), dtype=pl.Int64).alias("_check"),
    )


def errors_at(
    errors: pl.DataFrame, located: pl.DataFrame, on: str, kind: CheckKind
) -> pl.DataFrame:
    """The errors a transform found (`on`: the position of the offending row in the frame it
    checked, `column`, `message`), placed at the file rows of `located` (`on` and
    `_file, _where, _row`)."""
    return (
        errors.with_columns(pl.col(on).cast(pl.Int64))
        .join(located.select(pl.col(on).cast(pl.Int64), *_PLACE), on=on, how="inner")
        .select(*_PLACE, "column", "message", pl.lit(int(kind), dtype=pl.Int64).alias("_check"))
    )


class ExportError(Exception):
    """A file that cannot be ingested: names the file, the row and the column.

    `row` is the row number a spreadsheet shows (the header is row 1 in a CSV; in an
    XLSX sheet, the sheet's own row number; in a text format, the line number). `header`
    is the column's title as the file writes it (e.g. `Rang` for `rank`), shown beside
    the canonical name when given.
    """

    def __init__(
        self,
        file: str,
        message: str,
        *,
        row: int | None = None,
        column: str | None = None,
        header: str | None = None,
    ) -> None:
        self.file = file
        self.message = message
        self.row = row
        self.column = column
        self.header = header
        super().__init__(str(self))

    def __str__(self) -> str:
        where = [self.file]
        if self.row is not None:
            where.append(f"ligne {self.row}")
        if self.column is not None:
            named = f"colonne « {self.column} »"
            if self.header:
                named += f" ({self.header})"
            where.append(named)
        return f"{', '.join(where)} : {self.message}"


def quantity(count: int, singular: str, plural: str | None = None) -> str:
    """`1 ronde`, `3 rondes`, `0 ronde`: a count and its noun, French agreement (0 and 1
    take the singular)."""
    noun = singular if abs(count) <= 1 else (plural or singular + "s")
    return f"{count} {noun}"


def of(name: str) -> str:
    """`de Jennifer Lee`, `d'Andrew Fisher`: « de » before a name, elided before a vowel
    (accents ignored; a name starting with `h` keeps « de »)."""
    first = unicodedata.normalize("NFKD", name.lstrip()[:1])[:1].lower()
    return f"d'{name}" if first and first in "aeiouy" else f"de {name}"
