"""Parsers for the files tournament software writes, as opposed to our own CSV/XLSX exports.

Each module exposes `detect(data, name) -> bool` and `parse(data, name) -> dict[str,
pl.DataFrame]`: frames keyed by kind (`"results"`, `"games"`, `"rating_list"`, and
`"published_series"` for the FFSc ranking), every column a string named after the
canonical columns of `pipelines.ingest.schema` (all of them, null where unknown), plus
`_row`, the 1-based line of the source file the row comes from. Typing and checking are
left to the common validator; a file that cannot be read at all raises `ExportError`.

- `aupair`: AUPAIR `.tou` files (WESPA and most English-language classic events);
- `tsh`: Tournament Shell `.t` division files (with the event's `config.tsh`);
- `ffsc`: the French federation's national ranking export (`place;joueur;licence;...`).

This module holds what the three share: decoding, line splitting, frame building, player
keys.
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import ModuleType

import polars as pl

from pipelines.ingest.text import decode

FORMAT_NAMES = ("aupair", "tsh", "ffsc")

# The cote category of events from English-language tournament software (AUPAIR, TSH):
# a row of data/reference/cote_categories.csv gives its M, PJmin and PJmax.
ENGLISH_LANGUAGE_CATEGORY = "wespa"

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def decode_text(data: bytes, name: str, legacy: str = "cp1252") -> str:
    """Text of a file: UTF-8 (BOM or not) when it is valid UTF-8, else `legacy` (Windows-1252
    for AUPAIR and the FFSc export, ISO-8859-1 for TSH); see `pipelines.ingest.text`."""
    return decode(data, name, legacy, undefined_as_latin1=True)


def split_lines(text: str) -> list[str]:
    """Lines of a text, split on CRLF, CR or LF only (line numbers match an editor's)."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def player_key(name: str) -> str:
    """A name for matching: accents stripped, upper case, single spaces."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.upper().split())


def split_name(full: str) -> tuple[str, str]:
    """(first name, last name) of an English-language export: `Last, First` when the name
    has a comma (TSH writes it so), else the first word is the first name."""
    if "," in full:
        last, first = (part.strip() for part in full.split(",", 1))
        return first, last
    words = full.split()
    if len(words) == 1:
        return "", words[0]
    return words[0], " ".join(words[1:])


def number_text(value: float | int) -> str:
    """A number as a plain string: `12`, `-35`, `0.5`."""
    if isinstance(value, float) and not value.is_integer():
        return repr(value)
    return str(int(value))


def string_frame(
    rows: Iterable[Mapping[str, str | None]],
    columns: Sequence[str],
    lines: Iterable[int],
) -> pl.DataFrame:
    """A frame of all-string `columns` (missing keys are null) plus the Int64 `_row`."""
    materialised = list(rows)
    data: dict[str, list[str | None]] = {c: [row.get(c) for row in materialised] for c in columns}
    schema: dict[str, pl.DataType] = {c: pl.String() for c in columns}
    frame = pl.DataFrame(data, schema=schema)
    return frame.with_columns(pl.Series("_row", list(lines), dtype=pl.Int64))


def format_module(fmt: str) -> ModuleType:
    """The parser module of a format name (`aupair`, `tsh`, `ffsc`)."""
    if fmt not in FORMAT_NAMES:
        raise ValueError(f"unknown export format {fmt!r}; known: {', '.join(FORMAT_NAMES)}")
    return importlib.import_module(f"{__name__}.{fmt}")


def detect_format(data: bytes, name: str) -> str | None:
    """The name of the format whose `detect` accepts the file, or None."""
    for fmt in FORMAT_NAMES:
        detect: Callable[[bytes, str], bool] = format_module(fmt).detect
        if detect(data, name):
            return fmt
    return None
