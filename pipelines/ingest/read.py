"""Reading one raw export into string frames of canonical columns.

Every reader returns, per kind of content, a `RawTable`: columns of strings named after
the canonical columns of `schema.py`, and the row number an organiser sees in their
spreadsheet or editor for each row. Typing and checking happen later, on all files at
once (`validate.py`).
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import itertools
import re
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePath

import polars as pl

from pipelines.ingest.errors import ExportError, quantity
from pipelines.ingest.formats import detect_format, format_module
from pipelines.ingest.kinds import export_kinds
from pipelines.ingest.schema import Kind, normalise_header
from pipelines.ingest.text import decode

# TSH reads the event's name and date from this file beside its `.t` division files.
TSH_CONFIG = "config.tsh"

_USE_SEPARATOR = "séparez les colonnes par des virgules (,) ou des points-virgules (;)"


def _hits(kind: Kind, header: Sequence[str]) -> int:
    """How many of a kind's signature columns a header row holds."""
    return len(kind.signature & {kind.canonical(h) for h in header if h.strip()})


_KIND_LABELS = (
    "résultats, parties, liste de classement ou une autre sorte décrite dans docs/exports.md, "
    "qui donne les noms de colonnes"
)


def detect_kind(header: Sequence[str], name: str, row: int) -> tuple[Kind, list[str]]:
    """The kind of content a header row announces, and its canonical column names."""
    kind, columns, problem = _detected(tuple(header))
    if problem is not None:
        raise ExportError(name, problem, row=row)
    assert kind is not None
    return kind, list(columns)


@lru_cache(maxsize=4096)
def _detected(header: tuple[str, ...]) -> tuple[Kind | None, tuple[str, ...], str | None]:
    """`detect_kind` of one header row, computed once however many files share it:
    (kind, canonical columns, the problem when the header does not do)."""
    hits = {kind: _hits(kind, header) for kind in export_kinds()}
    best = max(hits.values())
    winners = [k for k, n in hits.items() if n == best]
    if best == 0 or len(winners) > 1:
        return (
            None,
            (),
            "la ligne d'en-tête ne permet pas de savoir de quelle sorte de fichier il s'agit "
            f"({_KIND_LABELS})",
        )
    kind = winners[0]
    columns = tuple(kind.canonical(h) if h.strip() else "" for h in header)
    present = set(columns)
    seen: dict[str, str] = {}
    for raw, col in zip(header, columns, strict=True):
        if col and col in seen:
            return (
                None,
                (),
                f"deux colonnes désignent « {col} » : « {seen[col].strip()} » et "
                f"« {raw.strip()} » (gardez-en une seule)",
            )
        if col:
            seen[col] = raw
    missing = [c for c in kind.required if c not in present]
    if missing:
        names = ", ".join(f"« {c} »" for c in missing)
        which = "la colonne obligatoire" if len(missing) == 1 else "les colonnes obligatoires"
        return (
            None,
            (),
            f"il manque {which} {names} dans la ligne d'en-tête de ce fichier de {kind.label}",
        )
    return kind, columns, None


# A parser's frame of at least this many rows is typed as it is (`RawTable.from_frame`).
FRAME_ROWS = 10_000


@dataclass
class RawTable:
    """One kind of content of one file, still as text: the canonical columns it has, and
    the row number of each row. Plain lists, so that thousands of small files are stacked
    into one frame per kind at once rather than one frame each; a large file's rows come
    first as `chunks`, frames of string columns plus `_row` of `CHUNK_ROWS` rows each (its
    text is never held as Python lists at once), the lists holding the rows after them."""

    columns: dict[str, list[str | None]]
    rows: list[int]
    where: str | None = None  # the name used in messages when not the path (a sheet)
    # canonical column -> the header the file writes, where it is not the canonical name
    # itself (`rank` -> `Rang`): messages show it beside the canonical name.
    headers: dict[str, str] = field(default_factory=dict)
    chunks: list[pl.DataFrame] = field(default_factory=list)
    # a large CSV's chunks, read as they are taken (`read_csv`): `chunks` and the lists
    # are empty, and the file's rows are known once every chunk is taken
    more: Iterator[pl.DataFrame] | None = None

    def __len__(self) -> int:
        return len(self.rows) + sum(chunk.height for chunk in self.chunks)

    def pieces(self) -> Iterator[RawTable]:
        """The table in order as tables of one chunk each, then its lists: each chunk is
        let go of as soon as it is given."""
        while self.chunks:
            yield RawTable({}, [], self.where, self.headers, [self.chunks.pop(0)])
        if self.rows:
            yield RawTable(self.columns, self.rows, self.where, self.headers)

    @classmethod
    def from_frame(cls, frame: pl.DataFrame) -> RawTable:
        """From a parser's frame of string columns plus `_row` (kept as a chunk when it
        is large: its rows never become Python lists)."""
        if frame.height >= FRAME_ROWS:
            return cls(columns={}, rows=[], chunks=[frame])
        columns = {c: frame[c].to_list() for c in frame.columns if c != "_row"}
        return cls(columns=columns, rows=frame["_row"].to_list())


def _columns(kind: Kind, columns: list[str], rows: list[list[str]]) -> dict[str, list[str | None]]:
    """The kind's columns of `rows`, as lists."""
    return {col: [r[i] for r in rows] for i, col in enumerate(columns) if col in kind.dtypes}


def _table(
    kind: Kind,
    header: Sequence[str],
    columns: list[str],
    rows: list[list[str]],
    numbers: list[int],
    where: str | None = None,
) -> RawTable:
    data = _columns(kind, columns, rows)
    headers = {
        col: title.strip()
        for title, col in zip(header, columns, strict=True)
        if col in kind.dtypes and normalise_header(title) != col
    }
    return RawTable(columns=data, rows=numbers, where=where, headers=headers)


def _separator(header_line: str, name: str) -> str:
    counts = {sep: header_line.count(sep) for sep in (",", ";")}
    if counts[","] == 0 and counts[";"] == 0:
        for other, label in (("\t", "des tabulations"), ("|", "des barres verticales (|)")):
            if other in header_line:
                raise ExportError(
                    name,
                    f"la ligne d'en-tête est séparée par {label} : {_USE_SEPARATOR}",
                    row=1,
                )
        raise ExportError(
            name,
            f"la ligne d'en-tête n'a qu'une seule colonne : {_USE_SEPARATOR}",
            row=1,
        )
    return ";" if counts[";"] > counts[","] else ","


# A CSV file's rows are turned into a frame of strings every this many rows (memory).
CHUNK_ROWS = 50_000
# A line of text and its end (`\n`, `\r\n` or `\r`), as a file opened with newline="".
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def _lines(text: str) -> Iterator[str]:
    """The lines of `text` one at a time, their ends kept (never a list of every line nor
    a copy of the text: a 200 MB export is read in the memory of a few lines)."""
    return (match.group() for match in _LINE.finditer(text))


def _chunk(
    kind: Kind, columns: list[str], rows: list[list[str]], numbers: list[int]
) -> pl.DataFrame:
    """Rows of a CSV as a frame of string columns (the kind's) plus `_row`."""
    data = _columns(kind, columns, rows)
    schema = {c: pl.String for c in data} | {"_row": pl.Int64}
    return pl.DataFrame({**data, "_row": numbers}, schema=schema)


_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_DECODE_STEP = 1 << 20  # bytes decoded at a time to check a large file is UTF-8


def _utf8_stream(data: bytes) -> io.TextIOWrapper | None:
    """The text of `data` decoded as it is read (never the whole text at once), when
    `decode` would read it as UTF-8 without a word: no UTF-16 mark, no NUL byte, valid
    UTF-8 throughout (checked a megabyte at a time). None otherwise: `decode` then gives
    the text or the message."""
    if data.startswith(_UTF16_BOMS) or data.find(b"\x00") >= 0:
        return None
    check = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    try:
        for start in range(0, len(data), _DECODE_STEP):
            check.decode(view[start : start + _DECODE_STEP])
        check.decode(b"", final=True)
    except UnicodeDecodeError:
        return None
    finally:
        view.release()
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="")


def read_csv(data: bytes, name: str) -> dict[str, RawTable]:
    """One CSV export: a single kind of content. A file of fewer than `CHUNK_ROWS` rows
    is read at once into lists; a larger one is read and decoded as its chunks are taken
    (`RawTable.more`), `CHUNK_ROWS` rows at a time, so that a large export is never held
    as text nor as strings but one chunk at a time: an error further on is raised while
    its chunks are taken."""
    stream = _utf8_stream(data)
    first = stream.readline() if stream is not None else ""
    lines: Iterator[str]
    if stream is not None and (first.splitlines() or [""])[0].strip():
        first_line = first.splitlines()[0]
        lines = itertools.chain([first], stream)
    else:  # another encoding, or no header on the first line: the text at once
        text = decode(data, name)
        if not text.strip():
            raise ExportError(name, "le fichier est vide")
        end = text.find("\n")
        first_line = (text[: end if end >= 0 else len(text)].splitlines() or [""])[0]
        if not first_line.strip():
            raise ExportError(
                name,
                "le fichier doit commencer par sa ligne d'en-tête (supprimez les lignes vides "
                "au-dessus)",
                row=1,
            )
        lines = _lines(text)
    sep = _separator(first_line, name)
    reader = csv.reader(lines, delimiter=sep)
    try:
        header = next(reader)
    except csv.Error as err:
        raise ExportError(name, f"ligne d'en-tête illisible ({err})", row=1) from None
    kind, columns = detect_kind(header, name, row=1)
    records = _records(reader, name, len(header))
    rows: list[list[str]] = []
    numbers: list[int] = []
    for line, fields in records:
        rows.append(fields)
        numbers.append(line)
        if len(rows) == CHUNK_ROWS:
            break
    if not rows:
        raise ExportError(
            name, "le fichier a une ligne d'en-tête mais aucune ligne de données", row=1
        )
    if len(rows) < CHUNK_ROWS:
        return {kind.name: _table(kind, header, columns, rows, numbers)}
    table = _table(kind, header, columns, [], [])
    table.more = _more_chunks(kind, columns, records, rows, numbers)
    return {kind.name: table}


def _records(reader: Iterator[list[str]], name: str, width: int) -> Iterator[tuple[int, list[str]]]:
    """The non-empty records of a CSV after its header, with the line each starts on."""
    ended = reader.line_num  # type: ignore[attr-defined]  # the last line of the previous record
    try:
        for fields in reader:
            # a quoted value may span several lines: a record starts after the previous one
            line, ended = ended + 1, reader.line_num  # type: ignore[attr-defined]
            if not any(f.strip() for f in fields):
                continue
            if len(fields) != width:
                hint = " (fichier tronqué ?)" if len(fields) < width else ""
                raise ExportError(
                    name,
                    f"la ligne a {quantity(len(fields), 'cellule')} alors que la ligne "
                    f"d'en-tête en a {width}{hint}",
                    row=line,
                )
            yield line, fields
    except csv.Error as err:
        raise ExportError(name, f"ligne illisible ({err})", row=ended + 1) from None


def _more_chunks(
    kind: Kind,
    columns: list[str],
    records: Iterator[tuple[int, list[str]]],
    rows: list[list[str]],
    numbers: list[int],
) -> Iterator[pl.DataFrame]:
    """The chunks of a large CSV: `rows` read already, then the rest as it is read."""
    yield _chunk(kind, columns, rows, numbers)
    rows, numbers = [], []
    for line, fields in records:
        rows.append(fields)
        numbers.append(line)
        if len(rows) == CHUNK_ROWS:
            yield _chunk(kind, columns, rows, numbers)
            rows, numbers = [], []
    if rows:
        yield _chunk(kind, columns, rows, numbers)


# A CSV export is read by Polars, with many others at once (`PlainCsv`, `split_plain`), when
# its text leaves nothing to Python's csv module but splitting lines at the separator: no
# quote, no line ending but `\n` or `\r\n`, no character that `str.strip` counts as a space
# and Polars does not (`\x1c`-`\x1f`), no line longer than the csv module's field limit, and
# a size read in one go (larger ones are read chunk by chunk by `read_csv`).
PLAIN_MAX_BYTES = 16 << 20
_FIELD_LIMIT = csv.field_size_limit()
# bytes that are these characters alone in UTF-8 and in Windows-1252
_NOT_PLAIN = (b'"', b"\x1c", b"\x1d", b"\x1e", b"\x1f")


@dataclass
class PlainCsv:
    """A CSV export whose header is read and whose rows are left for `split_plain`, which
    splits the rows of many files at once exactly as `read_csv` reads them one by one."""

    kind: Kind
    separator: str
    width: int  # cells of the header row
    positions: dict[str, int]  # the kind's canonical column -> its cell in a row
    headers: dict[str, str]  # as `RawTable.headers`
    body: str  # the lines after the header, each ended by `\n` but the last
    lines: int  # lines of `body`


def plain_csv(data: bytes, name: str) -> PlainCsv | None:
    """The export as a `PlainCsv` when `read_csv` would only split its lines at the
    separator (see `PLAIN_MAX_BYTES`), else None (and `read_csv` reads it, or says what
    is wrong with it)."""
    if len(data) > PLAIN_MAX_BYTES or any(byte in data for byte in _NOT_PLAIN):
        return None
    returns = data.count(b"\r")
    if returns and returns != data.count(b"\r\n"):
        return None
    try:
        text = decode(data, name)
    except ExportError:
        return None
    if returns:
        text = text.replace("\r\n", "\n")
    end = text.find("\n")
    first = text if end < 0 else text[:end]
    body = "" if end < 0 else text[end + 1 :]
    if not first.strip() or first.splitlines() != [first]:
        return None
    if len(text) > _FIELD_LIMIT and max(map(len, text.split("\n"))) > _FIELD_LIMIT:
        return None
    try:
        separator = _separator(first, name)
    except ExportError:
        return None
    read = _plain_header(first, separator)
    if read is None:
        return None
    kind, positions, headers, width = read
    return PlainCsv(kind, separator, width, positions, dict(headers), body, body.count("\n") + 1)


@lru_cache(maxsize=4096)
def _plain_header(
    line: str, separator: str
) -> tuple[Kind, dict[str, int], dict[str, str], int] | None:
    """What `plain_csv` takes from a header line, computed once however many files share
    it: the kind, its columns' cells, `RawTable.headers` and the number of cells; None
    when `detect_kind` refuses it."""
    header = line.split(separator)
    kind, columns, problem = _detected(tuple(header))
    if kind is None or problem is not None:
        return None
    table = _table(kind, header, list(columns), [], [])
    positions = {col: i for i, col in enumerate(columns) if col in kind.dtypes}
    return kind, positions, table.headers, len(header)


def split_plain(
    kind: Kind, files: Sequence[tuple[str, PlainCsv]]
) -> tuple[pl.DataFrame, dict[str, int], dict[str, str]]:
    """The rows of `files` (exports of `kind`, by path, in order) as one frame of the
    kind's columns as strings, `_row`, `_file` and `_where` (as `batch._stack`), the rows
    of each file, and the message of each file `read_csv` would refuse (a row of another
    number of cells, no row at all): its rows are left out. Blank rows are skipped and
    rows are numbered as `read_csv` numbers them."""
    columns = kind.columns
    meta = {
        "_text": [f.body for _, f in files],
        "_file": [path for path, _ in files],
        "_sep": [f.separator for _, f in files],
        "_cells": [f.width - 1 for _, f in files],
        **{f"_at_{c}": [f.positions.get(c) for _, f in files] for c in columns},
    }
    schema = {"_text": pl.String, "_file": pl.String, "_sep": pl.String, "_cells": pl.Int64}
    schema |= {f"_at_{c}": pl.Int64 for c in columns}
    text = pl.col("_text")

    def by_separator(of: Callable[[str], pl.Expr]) -> pl.Expr:
        """`of(separator)` with each row's file's separator (`,` or `;`)."""
        return pl.when(pl.col("_sep") == ";").then(of(";")).otherwise(of(","))

    lines = (
        pl.DataFrame(meta, schema=schema)
        .with_columns(text.str.split("\n"))
        .with_columns(pl.int_ranges(2, text.list.len() + 2, dtype=pl.Int64).alias("_row"))
        .explode("_text", "_row")
        # a row of spaces and separators only is skipped (`_records`); `\s` is what
        # `str.strip` strips but `\x1c`-`\x1f`, which a plain CSV never holds
        .filter(~by_separator(lambda sep: text.str.contains(f"^[\\s{sep}]*$")))
        .with_columns(by_separator(lambda sep: text.str.split(sep)).alias("_cells_of"))
        .with_columns((pl.col("_cells_of").list.len() - 1).alias("_found"))
    )
    rows = dict(lines.group_by("_file").len().iter_rows())
    ragged = (
        lines.filter(pl.col("_found") != pl.col("_cells"))
        .group_by("_file")
        .agg(pl.col("_row", "_found", "_cells").sort_by("_row").first())
    )
    refused: dict[str, str] = {}
    for path, row, found, cells in ragged.iter_rows():
        width, count = cells + 1, found + 1
        hint = " (fichier tronqué ?)" if count < width else ""
        message = (
            f"la ligne a {quantity(count, 'cellule')} alors que la ligne d'en-tête en a "
            f"{width}{hint}"
        )
        refused[path] = str(ExportError(path, message, row=row))
    for path, _ in files:
        if path not in rows and path not in refused:
            refused[path] = str(
                ExportError(
                    path, "le fichier a une ligne d'en-tête mais aucune ligne de données", row=1
                )
            )
    if refused:
        lines = lines.filter(~pl.col("_file").is_in(sorted(refused)))
    cells = pl.col("_cells_of")
    frame = lines.select(
        *[cells.list.get(pl.col(f"_at_{c}"), null_on_oob=True).alias(c) for c in columns],
        "_row",
        "_file",
        pl.col("_file").alias("_where"),
    )
    return frame, {p: n for p, n in rows.items() if p not in refused}, refused


_GUARDED = re.compile(r"^[ \u00a0]*\t[=+\-@]")


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = str(value)
    # an organiser's guarding tab before a formula-like text (`\t=…`) is kept, as in a CSV
    return text.lstrip(" \u00a0").rstrip() if _GUARDED.match(text) else text.strip()


# A workbook larger than this once unzipped is refused before it is read (a few hundred
# thousand rows at most fit in it; a "zip bomb" of gigabytes never reaches the reader).
MAX_UNZIPPED_BYTES = 200_000_000


def _rows_of_sheet(
    values: Iterable[Sequence[object]], formulas: Iterable[Sequence[object]], where: str
) -> list[tuple[int, list[str]]]:
    """The non-empty rows of a sheet, numbered as the spreadsheet shows them. A formula
    whose value the workbook does not hold (saved by a program that does not compute) is
    refused: read as empty, it would lose a score silently."""
    out = []
    for number, (row, formula_row) in enumerate(zip(values, formulas, strict=False), start=1):
        for column, (value, formula) in enumerate(zip(row, formula_row, strict=False), start=1):
            if value is None and isinstance(formula, str) and formula.startswith("="):
                from openpyxl.utils import get_column_letter  # see read_xlsx

                raise ExportError(
                    where,
                    f"la cellule {get_column_letter(column)}{number} contient la formule "
                    f"« {formula} » sans sa valeur calculée : ouvrez le classeur dans un "
                    "tableur et enregistrez-le (ou remplacez la formule par sa valeur)",
                    row=number,
                )
        cells = [_cell_text(v) for v in row]
        if any(cells):
            out.append((number, cells))
    return out


def read_xlsx(data: bytes, name: str) -> dict[str, RawTable]:
    """An XLSX workbook: one sheet per kind; title rows above the header are skipped."""
    # openpyxl is imported here, on the first workbook: about a seventh of the code
    # location's import time (every `classement` command, every Dagster process) for the
    # few federations that export spreadsheets
    from openpyxl import load_workbook

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unzipped = sum(info.file_size for info in archive.infolist())
        if unzipped > MAX_UNZIPPED_BYTES:
            raise ExportError(
                name,
                f"le classeur occupe {unzipped / 1e6:,.0f} Mo une fois décompressé (plus de "
                f"{MAX_UNZIPPED_BYTES / 1e6:,.0f} Mo) : ce n'est pas un export de tournoi".replace(
                    ",", " "
                ),
            )
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        formulas = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except (zipfile.BadZipFile, OSError, KeyError, ValueError) as err:
        raise ExportError(
            name, f"ce n'est pas un classeur XLSX lisible (fichier endommagé ou tronqué : {err})"
        ) from None
    frames: dict[str, RawTable] = {}
    try:
        for sheet, formula_sheet in zip(workbook.worksheets, formulas.worksheets, strict=True):
            where = f"{name} [feuille {sheet.title}]"
            rows = _rows_of_sheet(
                sheet.iter_rows(values_only=True), formula_sheet.iter_rows(values_only=True), where
            )
            if not rows:
                continue
            header_at = None
            for i, (_, cells) in enumerate(rows[:15]):
                if any(_hits(kind, cells) >= 2 for kind in export_kinds()):
                    header_at = i
                    break
            if header_at is None:
                raise ExportError(
                    where,
                    "aucune ligne d'en-tête de feuille de résultats, de parties ou de liste "
                    "de classement dans les premières lignes (voir docs/exports.md pour les "
                    "noms de colonnes)",
                    row=rows[0][0],
                )
            header_row, header = rows[header_at]
            while header and not header[-1]:
                header = header[:-1]
            kind, columns = detect_kind(header, where, row=header_row)
            if kind.name in frames:
                raise ExportError(
                    where,
                    f"une deuxième feuille de {kind.label} dans le même classeur : un classeur "
                    "n'a qu'une feuille de chaque sorte",
                )
            body = [
                (n, (cells + [""] * len(header))[: len(header)])
                for n, cells in rows[header_at + 1 :]
            ]
            for n, cells in rows[header_at + 1 :]:
                if any(c for c in cells[len(header) :]):
                    raise ExportError(
                        where,
                        "une valeur au-delà de la dernière colonne de la ligne d'en-tête "
                        "(donnez un titre à sa colonne ou supprimez-la)",
                        row=n,
                    )
            if not body:
                raise ExportError(
                    where,
                    "la feuille a une ligne d'en-tête mais aucune ligne de données",
                    row=header_row,
                )
            frames[kind.name] = _table(
                kind, header, columns, [c for _, c in body], [n for n, _ in body], where
            )
    finally:
        workbook.close()
        formulas.close()
    if not frames:
        raise ExportError(name, "le classeur ne contient aucune donnée")
    return frames


def read_export(
    data: bytes, name: str, companions: Mapping[str, bytes] | None = None
) -> dict[str, RawTable]:
    """Dispatch on the file's format: tournament software (AUPAIR `.tou`, TSH `.t`, the
    FFSc ranking) by detection, else our CSV/XLSX. `companions` holds the files a format
    reads beside the export (TSH's `config.tsh`), keyed by path."""
    suffix = PurePath(name).suffix.lower()
    if not data:
        raise ExportError(name, "le fichier est vide")
    fmt = detect_format(data, name)
    if fmt == "tsh":
        config_path = PurePath(name).with_name(TSH_CONFIG).as_posix()
        config = (companions or {}).get(config_path)
        frames = format_module(fmt).parse(data, name, config)
    elif fmt is not None:
        frames = format_module(fmt).parse(data, name)
    elif suffix == ".xlsx":
        return read_xlsx(data, name)
    elif suffix == ".csv":
        return read_csv(data, name)
    else:
        raise ExportError(
            name, f"type de fichier « {suffix} » non pris en charge (attendu : .csv ou .xlsx)"
        )
    return {kind: RawTable.from_frame(frame) for kind, frame in frames.items() if frame.height}


def read_or_defer(
    data: bytes, name: str, companions: Mapping[str, bytes] | None = None
) -> dict[str, RawTable] | PlainCsv:
    """`read_export`, but a CSV export `plain_csv` accepts is returned as it is, for
    `split_plain` to read its rows with those of other files."""
    if data and PurePath(name).suffix.lower() == ".csv" and detect_format(data, name) is None:
        plain = plain_csv(data, name)
        if plain is not None:
            return plain
    return read_export(data, name, companions)
