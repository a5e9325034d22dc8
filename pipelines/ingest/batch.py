"""From the raw folder's files to the warehouse's ingest tables.

`ingest_files` takes every file's bytes (never touching the files themselves), reads and
checks them all, and returns the tables plus one `ingest_log` row per file. A file with
any error is rejected whole; every other file loads.

Decisions taken here (issue 25: one new tournament in proportion to the file, and memory):
- the checks of one file at a time run by chunk of whole files as they are read
  (`stage_files`): they group by file, so the errors, notes and rows are those of all
  files at once, without every file's rows and the checks' frames in memory together;
- the checks across files run on the added files alone only when they provably touch
  no old file (`_independent`: same reference date, old files unchanged, results and
  games rows only, tournaments no old file names anywhere, no circuit); anything else
  (a file changed or removed, a shared tournament that may re-decide an old file)
  checks every file: `tests/test_ingest_incremental.py`, `tests/test_incremental.py`;
- the fingerprints of the partitions before the added tournaments' earliest end date are
  the last build's (every row dated there is an old file's, unchanged; the chain is taken
  up from the last of them);
- the base tables are built again whole (their sorts are on key columns, the rows
  gathered once), except when the checks across files ran on the added files alone:
  then the last build's tables (kept in the ingest's cache with its decisions) take the
  added tournaments' rows in their places (`_with_added`; s20, a tournament added:
  0.76 -> 0.05 s);
- each kind's checked rows are made one contiguous frame when the files are staged
  (`stage_files`, one kind at a time): in one piece per chunk of files, every join, sort
  and group of the checks across files and of the tables went through 12 to 21 pieces.
  Cold s20 ingest (`ingest_folder`, CPU-s by `time.process_time`, both runs at once on
  the shared 2-core machine, 2 December 2026): 62,5 -> 59,8 CPU-s (checks across files
  and tables 16,5 -> 12,1), peak 1,43 -> 1,35 GiB; the code before the checks by chunk
  (c1a8b32), measured the same way: 53,7 CPU-s plus 5,4–6,3 of fingerprints then made
  by the asset.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import PurePath

import numpy as np
import polars as pl

from pipelines.ingest import bounds, validate
from pipelines.ingest.attribution import export_mark, season_of_mark
from pipelines.ingest.errors import ExportError, empty_errors
from pipelines.ingest.kinds import SENT_RESULTS, export_kinds, plugins
from pipelines.ingest.raw import COMPANION_SUFFIXES
from pipelines.ingest.read import PlainCsv, RawTable, read_or_defer, split_plain
from pipelines.ingest.schema import (
    GAMES,
    PUBLISHED_SERIES,
    RATING_LIST,
    RESULTS,
    TOURNAMENT_COLUMNS,
    Kind,
)
from pipelines.progress import Progress
from pipelines.reference.bundle import Parameters
from transforms.calendar import SeasonCalendar, ordered_events
from transforms.tables import inputs_of
from transforms.tables import table as declared

INGEST_LOG = declared("ingest_log")
TOURNAMENTS = declared("tournaments")
RESULTS_TABLE = declared("results")
GAMES_TABLE = declared("games")
RATING_LISTS = declared("rating_lists")
PLAYERS = declared("players")
PUBLISHED = declared("published_series")
SEASON_FINGERPRINTS = declared("season_fingerprints")
YEAR_FINGERPRINTS = declared("year_fingerprints")


@dataclass
class IngestResult:
    tables: dict[str, pl.DataFrame]
    log: pl.DataFrame
    rejected: dict[str, str] = field(default_factory=dict)  # path -> message
    decided: Decided | None = None  # what the checks across files decided (`assemble`)
    added: Added | None = None  # the files checked alone, when the others kept their decisions
    partitions: dict[str, pl.DataFrame] = field(default_factory=dict)  # `fingerprints`

    @property
    def ingested(self) -> int:
        return self.log.filter(pl.col("status") == "ingested").height


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _stack(tables: list[tuple[str, RawTable]], columns: tuple[str, ...]) -> pl.DataFrame:
    """One frame of strings for every file's table of one kind, tagged with `_file`
    (the path), `_where` (the name used in messages) and `_row`, in order: a table's
    chunks (`RawTable.chunks`) then its lists."""
    parts: list[pl.DataFrame] = []
    small: list[tuple[str, RawTable]] = []
    for path, table in tables:
        if table.chunks:
            if small:
                parts.append(_from_lists(small, columns))
                small = []
            where = table.where or path
            parts.extend(
                chunk.select(
                    *[
                        pl.col(c) if c in chunk.columns else pl.lit(None, pl.String).alias(c)
                        for c in columns
                    ],
                    pl.col("_row").cast(pl.Int64),
                    pl.lit(path, pl.String).alias("_file"),
                    pl.lit(where, pl.String).alias("_where"),
                )
                for chunk in table.chunks
            )
        if table.rows:
            small.append((path, table))
    if small or not parts:
        parts.append(_from_lists(small, columns))
    return parts[0] if len(parts) == 1 else pl.concat(parts)


def _from_lists(tables: list[tuple[str, RawTable]], columns: tuple[str, ...]) -> pl.DataFrame:
    """`_stack` of the tables' lists (many small files at once)."""
    data: dict[str, list[str | None]] = {c: [] for c in columns}
    rows: list[int] = []
    paths: list[str] = []
    wheres: list[str] = []
    for path, table in tables:
        n = len(table)
        for column in columns:
            values = table.columns.get(column)
            data[column].extend(values if values is not None else [None] * n)
        rows.extend(table.rows)
        paths.extend([path] * n)
        wheres.extend([table.where or path] * n)
    schema = {c: pl.String for c in columns} | {
        "_row": pl.Int64,
        "_file": pl.String,
        "_where": pl.String,
    }
    return pl.DataFrame({**data, "_row": rows, "_file": paths, "_where": wheres}, schema=schema)


def ingest_files(
    files: Mapping[str, bytes],
    *,
    params: Parameters,
    refused: Mapping[str, str] | None = None,
    as_of: dt.date | None = None,
) -> IngestResult:
    """Read, check and assemble every raw export (keyed by its path relative to the raw
    folder) under the rule parameters `params` (the season calendar, the classique
    categories the cote knows, the families' own). `refused`: files rejected before reading
    (`raw.refused_paths`), by key. `as_of`: the build's reference date (default today): a
    file dated later is refused (`bounds.late_date_errors`).

    Any failure while reading one file rejects that file, by name, never the build: the
    readers' own errors name the row and column; anything else is caught per file; and if
    the checks of all files at once fail on an unforeseen value, each file is checked
    alone to find and reject the ones that fail."""
    staged = stage_files(files, refused or {}, params.categories)
    return assemble(staged, params, as_of=as_of)


@dataclass
class FileRecord:
    """What reading and checking one file alone taught (kept between builds)."""

    sha256: str | None
    kinds: str | None  # `results+games`, `companion`…; None when it could not be read
    rows: int
    rejected: str | None  # the message when the file is rejected by itself
    note: str | None  # e.g. ranks renumbered
    headers: dict[str, dict[str, str]]  # per place (`_where`): column → header written
    dated: str | None = None  # what tells the export's season (`attribution.export_mark`)


@dataclass
class Staged:
    """Every file read, typed and checked alone: the typed rows of each kind (`_file`,
    `_where`, `_row` and the kind's columns) and one record per file."""

    frames: dict[str, pl.DataFrame]
    records: dict[str, FileRecord]

    def subset(self, keys: set[str]) -> Staged:
        records = {k: r for k, r in self.records.items() if k in keys}
        if all(r.rows == 0 for k, r in self.records.items() if k not in keys):
            # the files left out have no rows (refused, or rejected while read): the frames
            # as they are, not a copy of every row kept
            return Staged(dict(self.frames), records)
        return Staged(
            {k: f.filter(pl.col("_file").is_in(list(keys))) for k, f in self.frames.items()},
            records,
        )

    @staticmethod
    def merge(parts: list[Staged]) -> Staged:
        kinds = {k for part in parts for k in part.frames}
        return Staged(
            {k: pl.concat([p.frames[k] for p in parts if k in p.frames]) for k in sorted(kinds)},
            {k: r for part in parts for k, r in part.records.items()},
        )


# Files are stacked into frames every this many rows read (memory: see `stage_files`).
_CHUNK_ROWS = 200_000


def _kinds() -> list:
    """Every kind of rows a file may hold, the published FFSc series included."""
    return [*export_kinds(), PUBLISHED_SERIES]


def stage_files(
    files: Mapping[str, bytes],
    refused: Mapping[str, str],
    categories: frozenset[str],
    companions: Mapping[str, bytes] | None = None,
    progress: Progress | None = None,
) -> Staged:
    """Read, type and check each file alone (`files` by key; `companions`: files read
    beside them, e.g. TSH's `config.tsh`, when not among `files`)."""
    around = {p: b for p, b in (companions or {}).items()}
    around |= {p: files[p] for p in files if PurePath(p).suffix.lower() in COMPANION_SUFFIXES}
    records: dict[str, FileRecord] = {
        key: FileRecord(None, None, 0, message, None, {}) for key, message in refused.items()
    }
    parsed: dict[str, dict[str, RawTable]] = {}
    plain: dict[str, PlainCsv] = {}  # CSV exports whose rows are split at the next flush
    typed_chunks: dict[str, list[pl.DataFrame]] = {k.name: [] for k in _kinds()}
    error_chunks: list[pl.DataFrame] = []
    paths: list[str] = []  # the files read, in order
    checked_chunks: dict[str, list[pl.DataFrame]] = {k.name: [] for k in _kinds()}
    checked: set[str] = set()  # the files of `paths` whose rows are in `checked_chunks`

    def check() -> None:
        """Run the checks of one file at a time (`_typed_and_checked`) on the rows typed
        since the last call, whole files only (after a flush, after a large file), and let
        the typed rows go: the checks' own frames hold one chunk of files, never every
        file's rows at once (s20: 1,8 GiB at once). The checks group by file: run by chunk
        of files they find the same errors, the same notes, the same rows."""
        pending = [path for path in paths if path not in checked]
        typed = {
            k.name: pl.concat(typed_chunks[k.name]) if typed_chunks[k.name] else _empty_typed(k)
            for k in _kinds()
        }
        type_errors = pl.concat([empty_errors(), *error_chunks])
        for chunks in typed_chunks.values():
            chunks.clear()
        error_chunks.clear()
        checked.update(pending)
        if not pending:
            return
        for name, frame in _checked_alone(typed, type_errors, records, categories, pending).items():
            if frame.height:
                checked_chunks[name].append(frame)

    def flush() -> None:
        """Stack the files read since the last flush into one frame per kind, typed (the
        rows' own checks), and let their Python lists and text go: a build's memory holds
        one chunk as text, never every file."""
        by_kind: dict[str, list[tuple[str, RawTable]]] = {k.name: [] for k in _kinds()}
        for path, tables in parsed.items():
            for kind_name, raw_table in tables.items():
                by_kind[kind_name].append((path, raw_table))
        plain_by_kind: dict[str, list[tuple[str, PlainCsv]]] = {k.name: [] for k in _kinds()}
        for path, export in plain.items():
            plain_by_kind[export.kind.name].append((path, export))
        for kind in _kinds():
            batch: list[tuple[str, RawTable]] = []
            for path, table in by_kind[kind.name]:
                for piece in table.pieces():
                    if piece.chunks:  # a large file's chunk: typed alone, then let go
                        type_batch(kind, batch)
                        batch = []
                        type_batch(kind, [(path, piece)])
                    else:
                        batch.append((path, piece))
            type_batch(kind, batch, split_files(kind, plain_by_kind[kind.name]))
        parsed.clear()
        plain.clear()

    def split_files(kind: Kind, files: list[tuple[str, PlainCsv]]) -> pl.DataFrame | None:
        """The rows of plain CSV exports (`split_plain`), their records completed: a file
        `read_csv` would refuse is refused with its message, as when read alone."""
        if not files:
            return None
        frame: pl.DataFrame | None
        try:
            frame, rows, refused = split_plain(kind, files)
        except Exception:  # isolate the file(s) splitting cannot handle
            parts = []
            for path, export in files:
                try:
                    parts.append(split_plain(kind, [(path, export)]))
                except Exception as err:
                    refused_alone(path, _unexpected(path, err))
            frame = pl.concat([part[0] for part in parts]) if parts else None
            rows = {p: n for part in parts for p, n in part[1].items()}
            refused = {p: m for part in parts for p, m in part[2].items()}
        for path, message in refused.items():
            refused_alone(path, message)
        for path, count in rows.items():
            records[path].rows = count
        return frame

    def refused_alone(path: str, message: str) -> None:
        """A file refused while read (as `read_export` raising): no kind, no rows."""
        record = records[path]
        record.kinds, record.rows, record.rejected, record.headers = None, 0, message, {}
        paths.remove(path)

    def type_batch(
        kind: Kind, entries: list[tuple[str, RawTable]], split: pl.DataFrame | None = None
    ) -> None:
        """Type the rows of `entries` and of `split` (rows of plain CSV exports, stacked)
        at once (`validate.type_frame`), in file order, into `typed_chunks`."""
        if not entries and split is None:
            return
        try:
            stacked = _stack(entries, kind.columns) if entries or split is None else split
            if entries and split is not None:  # in file order, each file's rows in order
                stacked = pl.concat([stacked, split]).sort("_file", maintain_order=True)
            typed, errors = validate.type_frame(stacked, kind)
        except Exception:  # isolate the file(s) typing cannot handle
            alone: list[tuple[str, Callable[[], pl.DataFrame]]] = [
                (path, partial(_stack, [(path, table)], kind.columns)) for path, table in entries
            ]
            if split is not None:
                alone += [
                    (str(path), partial(pl.DataFrame.clone, rows))
                    for (path,), rows in split.partition_by(
                        "_file", as_dict=True, maintain_order=True
                    ).items()
                ]
            typed_parts, error_parts = [], []
            for path, rows_of in sorted(alone, key=lambda entry: entry[0]):
                try:
                    one = validate.type_frame(rows_of(), kind)
                except Exception as err:
                    records[path].rejected = _unexpected(path, err)
                    continue
                typed_parts.append(one[0])
                error_parts.append(one[1])
            if not typed_parts:
                return
            typed, errors = pl.concat(typed_parts), pl.concat(error_parts)
        typed_chunks[kind.name].append(typed)
        error_chunks.append(errors)

    def stream_file(path: str, tables: Mapping[str, RawTable], digest: str) -> bool:
        """Type a large file's chunks as they are read (`RawTable.more`), each let go once
        typed; a reading error further on rejects the file as at once, its typed rows
        dropped. Whether the file was read."""
        marks = {name: len(frames) for name, frames in typed_chunks.items()}
        errors_mark = len(error_chunks)
        rows = 0
        try:
            for kind in _kinds():
                table = tables.get(kind.name)
                if table is None:
                    continue
                for piece in table.pieces():
                    type_batch(kind, [(path, piece)])
                for chunk in table.more or ():
                    rows += chunk.height
                    piece = RawTable({}, [], table.where, table.headers, [chunk])
                    del chunk
                    type_batch(kind, [(path, piece)])
                    del piece
        except Exception as err:  # as `read_export` failing
            for name, mark in marks.items():
                del typed_chunks[name][mark:]
            del error_chunks[errors_mark:]
            message = str(err) if isinstance(err, ExportError) else _unexpected(path, err)
            records[path] = FileRecord(digest, None, 0, message, None, {})
            return False
        records[path].rows += rows
        return True

    rows_read = 0
    for done, path in enumerate(sorted(files), start=1):
        if progress is not None:
            progress(done, len(files))
        if path in refused:
            continue
        data = files[path]
        if PurePath(path).suffix.lower() in COMPANION_SUFFIXES:
            records[path] = FileRecord(sha256(data), "companion", 0, None, None, {})
        else:
            try:
                tables = read_or_defer(data, path, around)
            except ExportError as err:
                records[path] = FileRecord(sha256(data), None, 0, str(err), None, {})
            except Exception as err:  # one unreadable file never stops the build
                records[path] = FileRecord(sha256(data), None, 0, _unexpected(path, err), None, {})
            else:
                if isinstance(tables, PlainCsv):  # its rows are counted when split
                    records[path] = FileRecord(
                        sha256(data), tables.kind.name, 0, None, None, {path: tables.headers}
                    )
                    plain[path] = tables
                    paths.append(path)
                    rows_read += tables.lines
                else:
                    rows = sum(len(t) for t in tables.values())
                    records[path] = FileRecord(
                        sha256(data),
                        "+".join(sorted(tables)),
                        rows,
                        None,
                        None,
                        {t.where or path: t.headers for t in tables.values()},
                    )
                    if any(t.more is not None for t in tables.values()):
                        flush()  # the files before it first, in order
                        check()
                        rows_read = 0
                        if stream_file(path, tables, sha256(data)):
                            paths.append(path)
                        check()
                    else:
                        parsed[path] = tables
                        paths.append(path)
                        rows_read += rows
        records[path].dated = export_mark(path, data)
        del data
        if rows_read >= _CHUNK_ROWS:
            flush()
            check()
            rows_read = 0
    flush()
    check()
    # each kind's rows made one contiguous frame, one kind at a time: the checks by chunk
    # of files leave each column in one piece per chunk (s20: 12 to 21 pieces), which every
    # later join, sort and group of the checks across files and of the tables went through
    # (cold s20 ingest: see the module's decisions)
    frames: dict[str, pl.DataFrame] = {}
    for k in _kinds():
        chunks = checked_chunks[k.name]
        if not chunks:
            frames[k.name] = _empty_typed(k)
            continue
        frame = pl.concat(chunks)
        chunks.clear()
        frames[k.name] = frame.rechunk()
        del frame
    checked_chunks.clear()
    for key, record in records.items():
        if key in refused:
            record.dated = export_mark(key, files.get(key))
    return Staged(frames, records)


@cache
def _empty_typed(kind: Kind) -> pl.DataFrame:
    """A kind's typed rows of no file (made once: frames are never changed in place)."""
    return validate.type_frame(_stack([], kind.columns), kind)[0]


def _checked_alone(
    typed: Mapping[str, pl.DataFrame],
    type_errors: pl.DataFrame,
    records: dict[str, FileRecord],
    categories: frozenset[str],
    paths: list[str],
) -> dict[str, pl.DataFrame]:
    """`_typed_and_checked` of the rows of `paths` (whole files); when the checks of the
    files at once fail on an unforeseen value, each file is checked alone to find and
    reject the ones that fail."""
    try:
        return _typed_and_checked(typed, type_errors, records, categories)
    except Exception:  # isolate the file(s) the checks cannot handle
        frames_parts = []
        for path in paths:
            if records[path].rejected is not None:
                continue
            alone = {k: f.filter(pl.col("_file") == path) for k, f in typed.items()}
            own_errors = type_errors.filter(pl.col("_file") == path)
            try:
                frames_parts.append(_typed_and_checked(alone, own_errors, records, categories))
            except Exception as err:
                records[path].rejected = _unexpected(path, err)
        return {
            k.name: pl.concat([part[k.name] for part in frames_parts])
            if frames_parts
            else _empty_typed(k)
            for k in _kinds()
        }


def _typed_and_checked(
    typed: Mapping[str, pl.DataFrame],
    type_errors: pl.DataFrame,
    records: dict[str, FileRecord],
    categories: frozenset[str],
) -> dict[str, pl.DataFrame]:
    """Run the checks that look at one file at a time on every kind's typed rows of the
    files at once (`validate.type_frame`, whose errors are `type_errors`); record each
    file's first error and notes. Returns the typed rows."""
    frames: dict[str, pl.DataFrame] = dict(typed)
    errors: list[pl.DataFrame] = [type_errors]
    results = frames["results"].with_columns(pl.col("discipline").str.to_lowercase())
    results, notes = validate.renumber_dense_ranks(results)
    frames["results"] = results
    errors += [
        validate.results_errors(results),
        validate.rank_errors(results),
        validate.duplicate_errors(results),
        validate.category_errors(results, categories),
        validate.rating_list_errors(frames["rating_list"]),
        bounds.score_errors(results),
        bounds.game_score_errors(frames["games"]),
    ]
    for row in validate.first_error_per_file(errors).iter_rows(named=True):
        records[row["_file"]].rejected = _message(row, records[row["_file"]].headers)
    for path, group in _grouped(notes.select("_file", "_where", "message").rows()):
        records[path].note = "\n".join(str(ExportError(w, m)) for w, m in group)
    return frames


def record_identity(record: FileRecord) -> list[object]:
    """What the checks across files know of a file besides its rows (`Decided.files`)."""
    return [record.sha256, record.kinds, record.rows, record.rejected]


@dataclass(frozen=True)
class Decided:
    """What the checks across files decided in a build, kept for the next one (`assemble`'s
    `previous`; JSON in the ingest cache): the build's reference date, each file as the
    checks saw it (`record_identity`), the files the checks across files rejected (path →
    message) and the partitions' fingerprints (`season`, `year` → [[key, fingerprint]])."""

    as_of: str
    files: dict[str, list[object]]
    across: dict[str, str]
    fingerprints: dict[str, list[list[str]]] = field(default_factory=dict)
    # the base tables that build made (`assemble`'s), when kept with its decisions
    tables: dict[str, pl.DataFrame] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Added:
    """The files a build adds to the last one's when they provably touch no other file's
    checks (`_independent`): their paths, and the earliest end date of their tournaments
    (the partitions before it are those of the last build; None: not known)."""

    paths: frozenset[str]
    since: dt.date | None


def _independent(staged: Staged, previous: Decided, as_of: dt.date) -> Added | None:
    """The files added since `previous` when the checks across files of the old files
    cannot have changed, else None (every file is checked again). The caller vouches
    that each old file's rows are those `previous` checked (read from the cache, not
    again). Sufficient conditions, each cheap to verify:

    - the same reference date, every old file still there with the same record;
    - the new files hold results and games rows only (no rating list, no family's kind),
      every row with its tournament, none naming a circuit;
    - their tournaments appear in no old file: neither in its results or games, nor in
      any text column of a family's kind (a host tournament, a calendar's edition, a
      match, a game sheet).

    The checks across files link files by tournament (one file per tournament; games
    against the results that load), by (player, date) of a rating list, and by the
    families' rows, which read results through their tournament or their circuit only.
    Under these conditions an old file shares nothing with a new one: its decision is the
    last build's, and a new file's is the checks' on the new files alone."""
    if previous.as_of != as_of.isoformat():
        return None
    records = staged.records
    for path, known in previous.files.items():
        record = records.get(path)
        if record is None or record_identity(record) != known:
            return None
    added = sorted(set(records) - set(previous.files))
    if not added:
        return Added(frozenset(), None)
    base = ("results", "games")
    for name, frame in staged.frames.items():
        if name not in base and frame.height and frame["_file"].is_in(added).any():
            return None
    new_rows = {name: staged.frames[name].filter(pl.col("_file").is_in(added)) for name in base}
    ids = pl.concat([new_rows[name].select("tournament_id") for name in base])
    if ids["tournament_id"].null_count():
        return None
    if (
        "circuit" in new_rows["results"].columns
        and new_rows["results"]["circuit"].is_not_null().any()
    ):
        return None
    tournaments = ids["tournament_id"].unique()
    for name, frame in staged.frames.items():
        old = frame.filter(~pl.col("_file").is_in(added))
        columns = (
            ["tournament_id"]
            if name in base
            else [c for c, dtype in old.schema.items() if dtype == pl.String]
        )
        if old.select(
            pl.any_horizontal(pl.col(c).is_in(tournaments.implode()) for c in columns).any()
        ).item():
            return None
    ends = (
        new_rows["results"]
        .group_by("tournament_id")
        .agg(pl.col("end_date").drop_nulls().first())
        .get_column("end_date")
    )
    since = None if ends.null_count() or ends.is_empty() else ends.min()
    return Added(frozenset(added), since)  # type: ignore[arg-type]


def assemble(
    staged: Staged,
    params: Parameters,
    *,
    as_of: dt.date | None = None,
    previous: Decided | None = None,
) -> IngestResult:
    """The checks across files, then the warehouse's base tables and the ingest log.

    The checks that depend on the build run here, on every build (never cached with a
    file): no date later than `as_of` (the build's reference date, default today), a
    listed cote within the parameters' bounds. A tournament must come from one file, a
    (player, date) of a rating list too; games
    (and the rows of the families' kinds) are checked against the files that load: a file
    rejected for its games takes its own results with it, which may in turn reject games
    of other files, so the checks repeat until no new file is rejected.

    `staged` is used up (its frames are let go as the tables are made).
    `previous`: what the last build decided (`Decided`), its files' rows being the same
    ones here: when the files added since provably touch no old file (`_independent`),
    the checks across files run on the new files alone and the old files keep their
    decisions; otherwise (a file changed or removed, a shared tournament…) on every file."""
    today = as_of or dt.date.today()
    records = staged.records
    rejected = {k: r.rejected for k, r in records.items() if r.rejected is not None}
    added = _independent(staged, previous, today) if previous is not None else None
    if added is not None and previous is not None:
        subset = Staged(
            {
                k: f.filter(pl.col("_file").is_in(sorted(added.paths)))
                for k, f in staged.frames.items()
            },
            {k: records[k] for k in added.paths},
        )
        across = {**previous.across, **_across(subset, params, today)}
    else:
        across = _across(staged, params, today)
    for path, message in sorted(across.items()):
        rejected.setdefault(path, message)

    calendar = params.calendar
    last = previous.tables if previous is not None else None
    if added is not None and last is not None and last.keys() == set(base_tables()):
        # the last build's tables, the added files' accepted rows put in their places
        fresh = sorted(added.paths - set(rejected))
        new_rows = {
            name: staged.frames[name].filter(pl.col("_file").is_in(fresh))
            for name in ("results", "games")
        }
        staged.frames.clear()
        tables = _with_added(last, new_rows, calendar)
    else:
        kept = {k: _without(f, set(rejected)) for k, f in staged.frames.items()}
        staged.frames.clear()  # used up: the rows are let go as their tables are made
        tables = _assemble(kept, calendar)
        tables["published_series"] = _published(kept["published_series"], kept["rating_list"])
        for plugin in plugins():
            tables[plugin.table] = plugin.rows(kept[plugin.kind.name])
    log = _log(records, rejected, tables["tournaments"], calendar)
    decided = Decided(
        today.isoformat(),
        {k: record_identity(r) for k, r in sorted(records.items())},
        {k: m for k, m in sorted(across.items()) if records[k].rejected is None},
        # the last build's, taken up by `fingerprints` when the old files kept theirs
        dict(previous.fingerprints) if added is not None and previous is not None else {},
    )
    return IngestResult(tables=tables, log=log, rejected=rejected, decided=decided, added=added)


def _across(staged: Staged, params: Parameters, as_of: dt.date) -> dict[str, str]:
    """The files the checks across files reject (path → message), each file rejected by
    itself (its record's `rejected`) left out of them."""
    records = staged.records
    bad = {k for k, r in records.items() if r.rejected is not None}
    frames = {k: _without(f, bad) for k, f in staged.frames.items()}
    owners = [
        validate.tournament_owner_errors(frames["results"], RESULTS.label),
        validate.tournament_owner_errors(frames["games"], GAMES.label),
        validate.rating_owner_errors(frames["rating_list"]),
        bounds.late_date_errors(frames, {k.name: k for k in _kinds()}, as_of),
        bounds.cote_errors(frames["rating_list"], params.cote_bounds),
    ]
    found_errors = [validate.first_error_per_file(owners)]
    bad |= set(found_errors[0]["_file"].to_list())
    while True:
        accepted = {name: _without(frame, bad) for name, frame in frames.items()}
        accepted[SENT_RESULTS] = staged.frames["results"]
        found = [validate.games_errors(accepted["games"], accepted["results"])]
        found += [
            plugin.checks(accepted[plugin.kind.name], accepted, params)
            for plugin in plugins()
            if plugin.checks is not None
        ]
        newly = set().union(*(f["_file"].to_list() for f in found)) - bad
        if not newly:
            break
        found_errors += found
        bad |= newly
    across: dict[str, str] = {}
    for row in validate.first_error_per_file(found_errors).iter_rows(named=True):
        across.setdefault(row["_file"], _message(row, records[row["_file"]].headers))
    return across


def _without(frame: pl.DataFrame, files: set[str]) -> pl.DataFrame:
    """The rows of `frame` but those of `files` (the frame itself when none is there: no
    copy of every row of every export when no file is rejected)."""
    if not files:
        return frame
    return frame.filter(~pl.col("_file").is_in(sorted(files)))


def _unexpected(path: str, err: Exception) -> str:
    """The message of a file that failed in a way no check foresaw."""
    detail = str(err).splitlines()[0][:200] if str(err) else type(err).__name__
    return str(
        ExportError(
            path,
            f"le fichier n'a pas pu être lu ({detail}) : vérifiez qu'il s'agit bien d'un "
            "export de tournoi, enregistré de nouveau depuis le logiciel ou le tableur",
        )
    )


def _message(row: Mapping[str, object], headers: Mapping[str, Mapping[str, str]]) -> str:
    """The organiser's message of an error row; `headers` gives, per `_where`, the header
    the file writes for a canonical column when it is another name (`Rang` for `rank`)."""
    where = str(row["_where"])
    column = row["column"]
    return str(
        ExportError(
            where,
            str(row["message"]),
            row=row["_row"],  # type: ignore[arg-type]
            column=column,  # type: ignore[arg-type]
            header=headers.get(where, {}).get(column) if isinstance(column, str) else None,
        )
    )


def _grouped(rows: list[tuple[str, str, str]]) -> list[tuple[str, list[tuple[str, str]]]]:
    """(file, [(where, message), …]) in file order."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for path, where, message in rows:
        groups.setdefault(path, []).append((where, message))
    return sorted(groups.items())


def _published(published: pl.DataFrame, ratings: pl.DataFrame) -> pl.DataFrame:
    """The series a federation published, dated by the rating list of the same file."""
    dates = ratings.select("_file", "_row", "as_of")
    return (
        published.join(dates, on=["_file", "_row"], how="left")
        .sort(["as_of", "_file", "_row"])
        .select("as_of", *PUBLISHED_SERIES.columns, pl.col("_file").alias("source_file"))
        .pipe(PUBLISHED.check)
    )


def base_tables() -> list[str]:
    """The base tables `assemble` makes, by name."""
    names = ["tournaments", "results", "games", "rating_lists", "players", "published_series"]
    return [*names, *(plugin.table for plugin in plugins())]


def _tournament_rows(results: pl.DataFrame, calendar: SeasonCalendar) -> pl.DataFrame:
    """A row per tournament of the results rows (`_file`, `_row` and the kind's columns),
    in no particular order: its details as its file first gives them, its players."""
    return (
        # the columns read only are sorted (the sort's order comes from its keys alone):
        # not a sorted copy of every column of every results row (s20: about 330 MiB)
        results.select("_file", "_row", *TOURNAMENT_COLUMNS)
        .sort(["_file", "_row"])
        .group_by("tournament_id", maintain_order=True)
        .agg(
            *[pl.col(c).drop_nulls().first() for c in TOURNAMENT_COLUMNS[1:]],
            pl.len().cast(pl.Int64).alias("players"),
            pl.col("_file").first().alias("source_file"),
        )
        .with_columns(pl.coalesce("start_date", "end_date").alias("start_date"))
        .with_columns(calendar.season_expr(pl.col("end_date")).alias("season"))
        .select(TOURNAMENTS.column_names)
    )


def _assemble(kept: dict[str, pl.DataFrame], calendar: SeasonCalendar) -> dict[str, pl.DataFrame]:
    """The base tables of the accepted rows `kept` (by kind), whose results and games are
    taken out and let go once their tables are made (s20: about 400 MiB of rows read no
    longer held while the other tables are made)."""
    results = kept.pop("results")
    tournaments = ordered_events(_tournament_rows(results, calendar))
    order = tournaments.select("tournament_id", pl.int_range(pl.len()).alias("_order"))
    ratings_out = (
        kept["rating_list"]
        .sort(["as_of", "player_id", "_file"])
        .select(*RATING_LIST.columns, pl.col("_file").alias("source_file"))
    )
    players = _players(results, tournaments, ratings_out)  # its frames gone before the copy
    results_out = _in_order(results, order, ["rank", "player_id"], RESULTS_TABLE.column_names)
    del results
    games_out = _in_order(
        kept.pop("games"), order, ["round", "player_id"], GAMES_TABLE.column_names
    )
    return {
        "tournaments": TOURNAMENTS.check(tournaments),
        "results": RESULTS_TABLE.check(results_out),
        "games": GAMES_TABLE.check(games_out),
        "rating_lists": RATING_LISTS.check(ratings_out),
        "players": PLAYERS.check(players),
    }


def _with_added(
    last: Mapping[str, pl.DataFrame], new: Mapping[str, pl.DataFrame], calendar: SeasonCalendar
) -> dict[str, pl.DataFrame]:
    """The base tables of the last build (`last`) with the accepted results and games rows
    of the files added since (`new`), which `_independent` vouches for: tournaments of
    their own, results and games rows only. The new tournaments take their places in
    event order, their rows theirs in the results and games; their players' rows are made
    again from all their results; the other tables are the last build's. The same tables
    as `_assemble` of every accepted row (`tests/test_ingest_incremental.py`), without
    sorting and grouping every row again (s20, a tournament added: about 0.7 s)."""
    tables = dict(last)
    results = new["results"]
    if results.is_empty():
        return tables  # no accepted results: their games load nowhere either
    tournaments = ordered_events(
        pl.concat([last["tournaments"], _tournament_rows(results, calendar)])
    )
    order = tournaments.select("tournament_id", pl.int_range(pl.len()).alias("_order"))
    results_out = _put_in_place(
        last["results"],
        _in_order(results, order, ["rank", "player_id"], RESULTS_TABLE.column_names),
        order,
    )
    games_out = _put_in_place(
        last["games"],
        _in_order(new["games"], order, ["round", "player_id"], GAMES_TABLE.column_names),
        order,
    )
    ids = results["player_id"].unique().implode()
    theirs = _players(
        results_out.filter(pl.col("player_id").is_in(ids)),
        tournaments,
        last["rating_lists"].filter(pl.col("player_id").is_in(ids)),
    )
    players = pl.concat([last["players"].filter(~pl.col("player_id").is_in(ids)), theirs]).sort(
        "player_id"
    )
    tables.update(
        tournaments=TOURNAMENTS.check(tournaments),
        results=RESULTS_TABLE.check(results_out),
        games=GAMES_TABLE.check(games_out),
        players=PLAYERS.check(players),
    )
    return tables


def _put_in_place(old: pl.DataFrame, new: pl.DataFrame, order: pl.DataFrame) -> pl.DataFrame:
    """The rows of `old` (a table in event order, by `tournament_id`) and those of `new`
    (in event order too, tournaments of their own) in event order: `order` gives every
    tournament's place (`_order`). The old rows are cut where a new tournament comes
    between two of theirs, not gathered again."""
    if new.is_empty():
        return old

    def runs(frame: pl.DataFrame) -> pl.DataFrame:
        """Each tournament's run of consecutive rows: its length (`len`) and place (`_order`)."""
        return (
            frame.select(pl.col("tournament_id").rle())
            .unnest("tournament_id")
            .join(
                order, left_on="value", right_on="tournament_id", how="left", maintain_order="left"
            )
        )

    places = runs(old)
    old_places = places["_order"].to_numpy()
    ends = np.cumsum(places["len"].to_numpy())
    added = runs(new)
    pieces, cut, taken = [], 0, 0
    for length, place in zip(added["len"].to_list(), added["_order"].to_list(), strict=True):
        before = int(np.searchsorted(old_places, place))  # old tournaments placed before it
        end = int(ends[before - 1]) if before else 0
        pieces += [old.slice(cut, end - cut), new.slice(taken, length)]
        cut, taken = end, taken + length
    pieces.append(old.slice(cut))
    return pl.concat(pieces)


def _in_order(
    frame: pl.DataFrame, order: pl.DataFrame, by: list[str], columns: list[str]
) -> pl.DataFrame:
    """The table's `columns` of the rows of `frame` whose tournament is in `order`, sorted
    by their tournament's `_order` then `by` (a key every accepted file makes unique: a
    player once per tournament, a seat once per round). The order is found on the key
    columns alone and the rows gathered once: one copy of the table's columns, not a
    joined copy and a sorted one (s20: about 300 MiB of results at once)."""
    index = (
        frame.select("tournament_id", *by)
        .with_row_index("_index")
        .join(order, on="tournament_id")
        .sort(["_order", *by])
        .get_column("_index")
    )
    return frame.select(columns)[index]


def _players(
    results: pl.DataFrame, tournaments: pl.DataFrame, ratings: pl.DataFrame
) -> pl.DataFrame:
    """One row per player: the latest details written by organisers, and their activity.
    `tournaments` is in event order (`ordered_events`): a player's rows are put in it by
    their tournament's place there (a player is once in a tournament: a total order),
    one sort on an integer rather than on the dates of every row."""
    details = ("last_name", "first_name", "federation", "club", "birth_year", "series")
    order = tournaments.select("tournament_id", "end_date", pl.int_range(pl.len()).alias("_o"))
    dated = (
        results.select("tournament_id", "player_id", *details)
        .join(order, on="tournament_id")
        .sort("_o")
    )
    latest = [pl.col(c).drop_nulls().last().alias(c) for c in details]
    from_results = dated.group_by("player_id").agg(
        *latest,
        pl.col("end_date").min().alias("first_tournament_date"),
        pl.col("end_date").max().alias("last_tournament_date"),
        pl.len().cast(pl.Int64).alias("tournaments"),
    )
    # known only from a rating list: the names, federation and club of their latest list
    # that gives them
    only_listed = (
        ratings.sort("as_of")
        .group_by("player_id")
        .agg(pl.col("last_name", "first_name", "federation", "club").drop_nulls().last())
        .join(from_results.select("player_id"), on="player_id", how="anti")
    )
    return (
        pl.concat([from_results, only_listed], how="diagonal_relaxed")
        .with_columns(pl.col("tournaments").fill_null(0))
        .sort("player_id")
        .select(PLAYERS.column_names)
    )


def _log(
    records: Mapping[str, FileRecord],
    rejected: Mapping[str, str],
    tournaments: pl.DataFrame,
    calendar: SeasonCalendar,
) -> pl.DataFrame:
    """One row per file of the raw folder, in path order (`tournaments`: the table, whose
    every tournament comes from one file, its `source_file`)."""
    tournaments_per_file = dict(tournaments.group_by("source_file").len().iter_rows())
    ordered = sorted(records.items())
    # built by column (31,700 files: a dictionary a row costs about a second)
    columns: dict[str, list[object]] = {
        "path": [path for path, _ in ordered],
        "sha256": [record.sha256 for _, record in ordered],
        "kinds": [record.kinds for _, record in ordered],
        "status": ["rejected" if path in rejected else "ingested" for path, _ in ordered],
        "rows": [record.rows for _, record in ordered],
        "tournaments": [
            0 if path in rejected else int(tournaments_per_file.get(path, 0)) for path, _ in ordered
        ],
        "message": [rejected.get(path, record.note) for path, record in ordered],
        "season": [season_of_mark(record.dated, calendar) for _, record in ordered],
    }
    return pl.DataFrame(columns, schema=INGEST_LOG.schema)


# Base tables dated by a date column of their own (the others by their tournament).
_DATED_BY = {"rating_lists": "as_of", "published_series": "as_of"}
_NOT_INPUTS = frozenset({"ingest_log", "players", "season_fingerprints", "year_fingerprints"})


def _fingerprints(
    tables: Mapping[str, pl.DataFrame],
    key_of: Callable[[pl.Expr], pl.Expr],
    schema: pl.Schema,
    partition: str,
    since: Since | None = None,
) -> pl.DataFrame:
    """A hash per partition (`key_of` maps a date column to the partition key) of every input
    its computations may read: its tournaments with their rows in every table keyed by
    `tournament_id`, and the rows of the tables dated in it (`_DATED_BY`, each kind's
    `dated_by`), chained with the previous partition's hash — so a change in a partition
    changes its fingerprint and every later one, never an earlier one. Rows dated before
    the first partition or not dated at all, and tables with neither tournament nor date,
    start the chain. Only the tables the partition's families read count
    (`transforms.tables.inputs_of`): a circuit's calendar never rebuilds a season.

    `since`: the last build's fingerprints and the date from which the tables may differ
    from its tables (`Added.since`): the partitions before it keep their fingerprints
    (their rows and every earlier one are the same), the chain is taken up there."""
    tournaments = tables["tournaments"].with_columns(key_of(pl.col("end_date")).alias("_key"))
    keys = sorted(tournaments["_key"].drop_nulls().unique().to_list())
    kept: list[list[str]] = []
    if since is not None:
        changed = tournaments.select(key_of(pl.lit(since.date)).alias("_key"))["_key"].item()
        kept = [row for row in since.previous if row[0] < changed]
        if not kept or [row[0] for row in kept] != [k for k in keys if k < changed]:
            kept = []  # the first partition changed, or the partitions are not the same
    dated_by = _DATED_BY | {p.table: p.dated_by for p in plugins() if p.dated_by}
    dated_via = {p.table: p.dated_via for p in plugins() if p.dated_via}
    keyed: dict[str, pl.DataFrame] = {}
    undated: list[pl.DataFrame] = []
    read = set(inputs_of(partition)) & set(tables)
    for name in sorted(read - _NOT_INPUTS - set(dated_via)):
        frame = tables[name]
        if name == "tournaments":
            keyed[name] = tournaments
        elif "tournament_id" in frame.columns:
            # the key found on the tournament column alone (not a joined copy of the rows)
            keys_of = frame.select("tournament_id").join(
                tournaments.select("tournament_id", "_key"),
                on="tournament_id",
                how="left",
                maintain_order="left",
            )
            keyed[name] = frame.with_columns(keys_of.get_column("_key"))
        elif name in dated_by:
            keyed[name] = frame.with_columns(
                key_of(pl.col(dated_by[name]).cast(pl.Date)).alias("_key")
            )
        else:
            undated.append(frame)
    for name, (column, other) in sorted(dated_via.items()):
        if name not in read:
            continue
        if other not in keyed:
            undated.append(tables[name])
            continue
        partition_of = (
            keyed[other]
            .select(column, "_key")
            .drop_nulls()
            .sort(column, "_key")
            .unique(column, keep="first")
        )
        keyed[name] = tables[name].join(partition_of, on=column, how="left")
    first = keys[0] if keys else ""
    if kept:
        chain = kept[-1][1]
        start = keys[len(kept)] if len(keys) > len(kept) else None
    else:
        digest = hashlib.sha256(_FINGERPRINT_RECIPE.encode())
        for frame in undated:
            _digest_rows(digest, frame, _row_hashes(frame))
        for frame in keyed.values():
            before = frame.filter((pl.col("_key") < first) | pl.col("_key").is_null())
            _digest_rows(digest, before, _row_hashes(before))
        chain = digest.hexdigest()
        start = first
    rows: list[tuple[str, str]] = [(key, fingerprint) for key, fingerprint in kept]
    if start is None:
        return pl.DataFrame(rows, schema=schema, orient="row")
    # each frame's rows put in partition order once (their row numbers: a stable sort of the
    # key), each partition's rows gathered when it is written: one partition's copy at a
    # time, not a copy of every row; when the last build's fingerprints are taken up, only
    # the rows from `start` on are hashed (their copy: a tournament added to the last of
    # s20's 20 seasons hashes a twentieth of the rows, not 1.25 M results and 0.6 M games;
    # a row's hash is its own, whatever rows are beside it)
    parts = []
    for frame in keyed.values():
        index, bounds_of = _by_key(frame, start)
        if kept and len(index) < frame.height:
            later = frame[index]
            parts.append((later, _row_hashes(later), (np.arange(len(index)), bounds_of)))
        else:
            parts.append((frame, _row_hashes(frame), (index, bounds_of)))
    for key in keys[len(kept) :]:
        digest = hashlib.sha256(chain.encode())
        for frame, hashes, (index, bounds_of) in parts:
            offset, length = bounds_of.get(key, (0, 0))
            _digest_rows(digest, frame, hashes, index[offset : offset + length])
        chain = digest.hexdigest()
        rows.append((key, chain))
    return pl.DataFrame(rows, schema=schema, orient="row")


# The fingerprints' recipe: each row hashed by Polars' `hash_rows` (seeded: the same in
# every process of one Polars version, whose version is part of the recipe), each
# partition's rows' hashes in their order with each table's schema and row count, not the
# rows written out as CSV (s20: 2 × 20 partitions of 1.25 million results, about 4 s of
# the ingest). A table Polars cannot hash is written as CSV, as before.
_FINGERPRINT_RECIPE = f"rows-hashed-v1\0{pl.__version__}\0"


def _row_hashes(frame: pl.DataFrame) -> np.ndarray | None:
    """Each row's hash (`hash_rows`, seed 0), None when a column cannot be hashed."""
    try:
        return frame.hash_rows(seed=0).to_numpy()
    except Exception:  # a column type Polars cannot hash: its rows are written as CSV
        return None


def _digest_rows(
    digest: hashlib._Hash,
    frame: pl.DataFrame,
    hashes: np.ndarray | None,
    rows: np.ndarray | None = None,
) -> None:
    """Add the rows `rows` of `frame` (their numbers; every row when None) to `digest`: the
    schema, their count, and their hashes (`hashes`: `_row_hashes(frame)`), or their CSV
    when Polars could not hash them."""
    count = frame.height if rows is None else len(rows)
    digest.update(f"{frame.schema}\0{count}\0".encode())
    if hashes is None:
        digest.update((frame if rows is None else frame[rows]).write_csv().encode())
    else:
        digest.update((hashes if rows is None else hashes[rows]).tobytes())


def _by_key(frame: pl.DataFrame, start: str) -> tuple[np.ndarray, dict[str, tuple[int, int]]]:
    """The row numbers of `frame` whose `_key` is `start` or later, by key (each key's rows
    in their order), and each key's (offset, length) among them."""
    ordered = (
        frame.select(pl.int_range(pl.len(), dtype=pl.UInt32).alias("_i"), "_key")
        .filter(pl.col("_key") >= start)
        .sort("_key", maintain_order=True)
    )
    offsets = 0
    bounds_of: dict[str, tuple[int, int]] = {}
    for length, key in ordered.get_column("_key").rle().struct.unnest().iter_rows():
        bounds_of[key] = (offsets, length)
        offsets += length
    return ordered.get_column("_i").to_numpy(), bounds_of


@dataclass(frozen=True)
class Since:
    """The last build's fingerprints of a kind of partition, and the date from which the
    tables may differ from its own (`_fingerprints`)."""

    previous: list[list[str]]  # [key, fingerprint], in key order
    date: dt.date


def season_fingerprints(
    tables: Mapping[str, pl.DataFrame], calendar: SeasonCalendar, since: Since | None = None
) -> pl.DataFrame:
    """`season, fingerprint` of every season holding a tournament (`_fingerprints`)."""
    return _fingerprints(tables, calendar.season_expr, SEASON_FINGERPRINTS.schema, "season", since)


def year_fingerprints(
    tables: Mapping[str, pl.DataFrame], since: Since | None = None
) -> pl.DataFrame:
    """`year, fingerprint` of every calendar year holding a tournament (the regional
    circuits' partitions, `_fingerprints`)."""
    return _fingerprints(
        tables, lambda date: date.dt.year().cast(pl.String), YEAR_FINGERPRINTS.schema, "year", since
    )


def fingerprints(result: IngestResult, calendar: SeasonCalendar) -> dict[str, pl.DataFrame]:
    """The seasons' and years' fingerprints of an ingest (`season`, `year`), the last
    build's taken up before the date the files added since touch (`IngestResult.added`),
    and kept in `result.decided` for the next build."""
    added, decided = result.added, result.decided
    found: dict[str, pl.DataFrame] = {}
    for name in ("season", "year"):
        since = None
        if added is not None and added.since is not None and decided is not None:
            previous = decided.fingerprints.get(name)
            if previous:
                since = Since(previous, added.since)
        if name == "season":
            found[name] = season_fingerprints(result.tables, calendar, since)
        else:
            found[name] = year_fingerprints(result.tables, since)
        if decided is not None:
            decided.fingerprints[name] = [list(row) for row in found[name].rows()]
    return found
