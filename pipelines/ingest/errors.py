"""The error a tournament organiser reads when one of their files cannot be loaded."""

from __future__ import annotations


class ExportError(Exception):
    """A file that cannot be ingested: names the file, the row and the column.

    `row` is the row number a spreadsheet shows (the header is row 1 in a CSV; in an
    XLSX sheet, the sheet's own row number; in a text format, the line number).
    """

    def __init__(
        self, file: str, message: str, *, row: int | None = None, column: str | None = None
    ) -> None:
        self.file = file
        self.message = message
        self.row = row
        self.column = column
        super().__init__(str(self))

    def __str__(self) -> str:
        where = [self.file]
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column '{self.column}'")
        return f"{', '.join(where)}: {self.message}"
