"""Loader of alias tables (`federations.csv`, docs/rules.md §4): written forms → one code.

The format is generic (`code,name,aliases`, aliases separated by `|`, `#` comment lines),
so another table of the same shape (the regional circuits) loads with `load_alias_table`.
"""

from __future__ import annotations

import csv
from pathlib import Path

from pipelines.reference.files import ReferenceDataError
from transforms.federations import AliasEntry, AliasTable, AliasTableError

FEDERATIONS_FILE = "federations.csv"
COLUMNS = ["code", "name", "aliases"]
ALIAS_SEPARATOR = "|"


def load_alias_table(path: Path) -> AliasTable:
    """An alias table file; errors name the file and the line."""
    path = Path(path)
    if not path.exists():
        raise ReferenceDataError(f"{path}: file not found")
    with path.open(encoding="utf-8", newline="") as handle:
        lines = [
            (number, line)
            for number, line in enumerate(handle, start=1)
            if line.strip() and not line.lstrip().startswith("#")
        ]
    if not lines:
        raise ReferenceDataError(f"{path}: no header line")
    rows = csv.reader(line for _, line in lines)
    header = [h.strip() for h in next(rows)]
    if header != COLUMNS:
        raise ReferenceDataError(
            f"{path}: line {lines[0][0]}: expected the columns {','.join(COLUMNS)}, "
            f"found {','.join(header)}"
        )
    entries: list[AliasEntry] = []
    for (number, _), row in zip(lines[1:], rows, strict=True):
        if len(row) != len(COLUMNS):
            raise ReferenceDataError(
                f"{path}: line {number}: expected {len(COLUMNS)} values, found {len(row)}"
            )
        code, name, aliases = (value.strip() for value in row)
        if not code or not name:
            raise ReferenceDataError(f"{path}: line {number}: empty code or name")
        written = tuple(a.strip() for a in aliases.split(ALIAS_SEPARATOR) if a.strip())
        entries.append(AliasEntry(code, name, written))
    try:
        return AliasTable(tuple(entries), source=str(path))
    except AliasTableError as err:
        raise ReferenceDataError(str(err)) from None


def load_federations(reference_dir: Path) -> AliasTable:
    """The federations and countries table (`data/reference/federations.csv`)."""
    return load_alias_table(Path(reference_dir) / FEDERATIONS_FILE)
