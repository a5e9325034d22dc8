"""The error a tournament organiser reads when one of their files cannot be loaded.

Messages are in French, for the organiser, in one format everywhere::

    2023-2024/C2.csv, ligne 3, colonne « rank » (Rang) : « deux » n'est pas un nombre entier

the file (with `[feuille …]` for a workbook's sheet), the row, the column by its canonical
name with the header the organiser wrote in parentheses when it differs, then ` : ` and
what is wrong and how to fix it. French typography with ordinary spaces (greppable, and
the same in a terminal, a log table and a `.reason.txt`): a space before `:` and `;`,
guillemets « » around column names, values and literal text.
"""

from __future__ import annotations

import unicodedata


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
