"""What the ingest learnt of each file, kept between builds so unchanged files are not read
again (`ingest_folder`).

A file is unchanged when its content hash is the one of the bytes the last build read
(its record's `sha256`): its typed rows and its record (its own rejection message, its
notes) then come from the cache, and only the checks across files run on every build —
on the new files alone when a build only adds files that provably touch no old one
(`batch.assemble`, from what the last build decided: `decided.json`, and the base tables
it made: `tables/`, which then take the new files' rows in their places). The
size, modification time and inode are only a shortcut that can never hide a change: a file
whose stat differs is read again without being hashed first, and one whose stat is the
same is hashed all the same (an export rewritten at the same size with its old date, by
`cp -p`, `rsync -t` or `touch -r`, is read again) — within a build, by its hash stated by
the build (`pipelines.ingest.raw.stated`), which is the last build's when the file's
device, inode, size, modification and change times are all the ones it had then (the
change time moves on every write, whatever date is set back). The cache is thrown away
when the ingest's code, the table registry or the reference data change. It lives beside
the warehouse (`<warehouse>.cache/ingest/`), is derived data only, and can be deleted at any
time. A kind's typed rows are kept in parts (`_MAX_PARTS`): a build that only adds exports
writes their rows, not every row again.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import multiprocessing
import os
from collections.abc import Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from pipelines import cache_json
from pipelines.ingest.batch import (
    Decided,
    FileRecord,
    IngestResult,
    Staged,
    assemble,
    fingerprints,
    record_identity,
    stage_files,
)
from pipelines.ingest.raw import COMPANION_SUFFIXES, listing_of, stated_hash, stated_stat
from pipelines.progress import Progress
from pipelines.reference.bundle import Parameters
from pipelines.worker_start import start_worker

ROOT = Path(__file__).resolve().parents[2]
# What the typed rows and records depend on besides the files themselves.
_CODE = ("pipelines/ingest", "transforms/tables")

Stat = tuple[int, int, int]  # size, mtime (ns), inode


def code_version(params: Parameters) -> str:
    """The ingest's code, the table registry, the rule parameters (`params.digest`) and
    Polars' version (the cached rows are its Parquet; the partitions' fingerprints kept
    for the next build hash rows with its `hash_rows`)."""
    digest = hashlib.sha256(f"parameters\0{params.digest}\0polars {pl.__version__}\0".encode())
    for folder in _CODE:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in {".py", ".csv", ".yaml"}:
                digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()


# A kind's rows are kept in parts (`<kind>.parquet`, then `<kind>.<n>.parquet`), in order,
# as the manifest lists them: a build that only adds files writes their rows as one more
# part, not every cached row again (31,700 files: about 1,3 s a build); a build that drops
# rows, or finds more parts than this, writes each kind in one part again.
_MAX_PARTS = 8

Parts = dict[str, list[str]]  # kind → its files, in order


@dataclass
class _Manifest:
    """`manifest.json`: the cache's version, each kind's parts, each file's stat and record."""

    version: str
    parts: Parts
    stats: dict[str, Stat]
    records: dict[str, FileRecord]


# What `_load` reads of a cache: the typed rows and records, each file's stat, the parts.
_Loaded = tuple[Staged, dict[str, Stat], Parts] | None


def _load(folder: Path, version: str) -> _Loaded:
    manifest = folder / "manifest.json"
    if not manifest.exists():
        return None
    try:
        data = cache_json.read_as(manifest, _Manifest)
        if data.version != version:
            return None
        frames = {}
        for kind, names in sorted(data.parts.items()):
            read = [pl.read_parquet(folder / name) for name in names]
            frames[kind] = read[0] if len(read) == 1 else pl.concat(read)
    except (OSError, cache_json.CacheUnreadable, pl.exceptions.PolarsError):
        return None  # a damaged cache is only a cost: read everything again
    return Staged(frames, data.records), data.stats, data.parts


Tables = dict[str, pl.DataFrame]


@dataclass
class _Ahead:
    """The cache read ahead by `reading_ahead`: its folder, the reads' futures (each taken
    once: the rows, the last build's tables) and the thread that read them, which then
    writes what the build's ingest keeps for the next one (`_keep`)."""

    folder: Path
    future: Future[tuple[str, _Loaded]] | None
    tables: Future[Tables | None] | None
    pool: ThreadPoolExecutor


_AHEAD: ContextVar[_Ahead | None] = ContextVar("classement_ingest_cache_ahead", default=None)


@contextmanager
def reading_ahead(folder: Path, params: Parameters) -> Iterator[None]:
    """Within a build: the cache of `folder` read (`_load`, its code version computed) by a
    thread of its own from now on, which the build's `ingest_folder` of that folder takes
    up instead of reading it again. A build starts with about two seconds of one core
    (Dagster and the code location imported, the staging copies made, the step's run
    set up) while the cache's Parquet is read natively: s20 (31,700 exports, 1.25 M
    results), about 0.3 s of a tournament added. The last build's base tables are read
    after it when its decisions are of this code (`_kept_tables`), and the same thread then
    writes what the ingest keeps for
    the next build (`_keep`): the block ends once those writes are done. A read not taken
    up (a build failing before its ingest) is let go when the block ends."""
    with ThreadPoolExecutor(1, thread_name_prefix="classement-cache") as pool:
        # the futures held by `ahead` alone: the rows are let go once the ingest is done
        # with them, not kept for the build's length (s20: about 1 GiB)
        ahead = _Ahead(
            folder,
            pool.submit(_versioned_load, folder, params),
            pool.submit(_versioned_tables, folder, params),
            pool,
        )
        token = _AHEAD.set(ahead)
        try:
            yield
        finally:
            _AHEAD.reset(token)
            ahead.future = ahead.tables = None  # its frames let go (the pool waits for the
            # reads to end, and for the writes the ingest left it: `_keep`)


def _versioned_load(folder: Path, params: Parameters) -> tuple[str, _Loaded]:
    version = code_version(params)
    return version, _load(folder, version)


def _versioned_tables(folder: Path, params: Parameters) -> Tables | None:
    return _kept_tables(folder, code_version(params))


def _ahead_of(folder: Path) -> _Ahead | None:
    ahead = _AHEAD.get()
    return ahead if ahead is not None and ahead.folder == folder else None


def _load_or_ahead(folder: Path, version: str) -> _Loaded:
    """`_load`, or the read started ahead of it (`reading_ahead`) when it is this folder's
    at this version (taken once: its frames are the ingest's to let go)."""
    ahead = _ahead_of(folder)
    if ahead is not None and ahead.future is not None:
        future, ahead.future = ahead.future, None
        read_version, loaded = future.result()
        if loaded is None or read_version != version:
            ahead.tables = None  # no cache of this code: its tables are not wanted (memory)
        if read_version == version:
            return loaded
    return _load(folder, version)


def _save(
    folder: Path,
    version: str,
    staged: Staged,
    stats: dict[str, Stat],
    added: tuple[Parts, Staged] | None = None,
) -> None:
    """Write the cache of `staged`. `added`: the parts of the cache loaded and the files
    read since, when `staged` is those parts' rows followed by theirs (`Staged.merge`):
    only the new rows are written, as one more part of each kind."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / _DECIDED).unlink(missing_ok=True)  # of the rows cached until now
    parts: Parts = {}
    if added is not None and max(map(len, added[0].values()), default=0) < _MAX_PARTS:
        parts = {kind: list(names) for kind, names in added[0].items()}
        number = 1 + max(
            (int(name.split(".")[1]) for names in parts.values() for name in names[1:]),
            default=0,
        )
        for kind, frame in added[1].frames.items():
            if frame.height:
                name = f"{kind}.{number}.parquet"
                frame.write_parquet(folder / name, compression="lz4", statistics=False)
                parts.setdefault(kind, []).append(name)
    else:
        for old in folder.glob("*.parquet"):
            old.unlink()
        for kind, frame in staged.frames.items():
            # read back by this code only: fast to write rather than small
            frame.write_parquet(folder / f"{kind}.parquet", compression="lz4", statistics=False)
            parts[kind] = [f"{kind}.parquet"]
    tmp = folder / "manifest.json.tmp"
    tmp.write_bytes(cache_json.encode(_Manifest(version, parts, stats, staged.records)))
    os.replace(tmp, folder / "manifest.json")


# What the last build's checks across files decided (`batch.Decided`), written once its
# ingest is done: a build that dies before leaves none, and the next one checks every file.
_DECIDED = "decided.json"


@dataclass
class _DecidedFile:
    """`decided.json`: the cache's version and a `Decided` but its files (those are the
    manifest's records)."""

    version: str
    as_of: str
    across: dict[str, str]
    fingerprints: dict[str, list[list[str]]]


# The base tables the last build's ingest made (`assemble`'s), one Parquet file each, written
# before its decisions: the decisions there, its tables are there (`_keep`).
_TABLES = "tables"


def _load_decided(folder: Path, version: str, records: Mapping[str, FileRecord]) -> Decided | None:
    """What the last build decided, with the base tables it made; its files are the cache's
    `records` (the manifest written for that build: a new manifest removes the decisions
    until its build's are written)."""
    data = _decided_file(folder, version)
    if data is None:
        return None  # as no cache: every file checked again
    files = {k: record_identity(r) for k, r in records.items()}
    ahead = _ahead_of(folder)
    if ahead is not None and ahead.tables is not None:
        future, ahead.tables = ahead.tables, None
        tables = future.result()
    else:
        tables = _load_tables(folder)
    return Decided(data.as_of, files, data.across, data.fingerprints, tables)


def _decided_file(folder: Path, version: str) -> _DecidedFile | None:
    """`decided.json` of `folder` when it is of `version` (None: none, unreadable, another)."""
    try:
        data = cache_json.read_as(folder / _DECIDED, _DecidedFile)
    except (OSError, cache_json.CacheUnreadable):
        return None
    return data if data.version == version else None


def _kept_tables(folder: Path, version: str) -> Tables | None:
    """`_load_tables` when the decisions kept in `folder` are of `version` (else None: the
    tables of another code are never read, 0.24 GiB on s20)."""
    return _load_tables(folder) if _decided_file(folder, version) is not None else None


def _load_tables(folder: Path) -> Tables | None:
    """The base tables kept in `folder`, by name (none kept: an empty mapping; None: one
    could not be read)."""
    try:
        paths = sorted((folder / _TABLES).glob("*.parquet"))
        return {path.name.removesuffix(".parquet"): pl.read_parquet(path) for path in paths}
    except (OSError, pl.exceptions.PolarsError):
        return None


def _keep(
    folder: Path, version: str, decided: Decided, tables: Tables, last: Tables | None
) -> None:
    """Keep the build's decisions and its base tables for the next build (`_load_decided`):
    the tables first, each one but those kept by the last build (`last`, read from there)
    written again, then the decisions.
    Within a build (`reading_ahead`) by the cache's thread while the build goes on (s20,
    a full build: about 0.3 s of writes), else at once."""
    ahead = _ahead_of(folder)
    if ahead is None:
        _write_kept(folder, version, decided, tables, last or {})
    else:
        ahead.pool.submit(_write_kept, folder, version, decided, tables, last or {})


def _write_kept(folder: Path, version: str, decided: Decided, tables: Tables, last: Tables) -> None:
    where = folder / _TABLES
    where.mkdir(parents=True, exist_ok=True)
    for name, frame in sorted(tables.items()):
        if last.get(name) is not frame:
            tmp = where / f"{name}.parquet.tmp"
            frame.write_parquet(tmp, compression="lz4", statistics=False)
            os.replace(tmp, where / f"{name}.parquet")
    for old in where.glob("*.parquet"):
        if old.name.removesuffix(".parquet") not in tables:
            old.unlink()
    data = _DecidedFile(version, decided.as_of, decided.across, decided.fingerprints)
    tmp = folder / f"{_DECIDED}.tmp"
    tmp.write_bytes(cache_json.encode(data))
    os.replace(tmp, folder / _DECIDED)


def ingest_folder(
    raw_dir: Path,
    *,
    params: Parameters,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
    as_of: dt.date | None = None,
) -> IngestResult:
    """`ingest_files` of the raw folder, reading only the files new or changed since the
    last build when a cache folder is given (`progress(done, total)` as files are read;
    `as_of`: the build's reference date, default today)."""
    version = code_version(params)
    staged, previous = _staged(raw_dir, params, version, cache_dir, progress)
    result = assemble(staged, params, as_of=as_of, previous=previous)
    # the files' rows let go first: the tables hold what they keep (s20: about 330 MiB
    # less while the fingerprints write every partition)
    del staged
    result.partitions = fingerprints(result, params.calendar)
    if cache_dir is not None and result.decided is not None:
        last = previous.tables if previous is not None else None
        _keep(cache_dir, version, result.decided, result.tables, last)
    return result


def _staged(
    raw_dir: Path,
    params: Parameters,
    version: str,
    cache_dir: Path | None,
    progress: Progress | None,
) -> tuple[Staged, Decided | None]:
    """Every file's typed rows and record, the unchanged ones from the cache (written
    again with the new ones), and what the last build decided when its files' rows are
    those here (`assemble`'s `previous`)."""
    seen = listing_of(raw_dir)
    paths = dict(seen.exports)
    refused = seen.refused
    infos = {key: stated_stat(raw_dir, key, path) for key, path in paths.items()}
    stats: dict[str, Stat] = {k: (i.st_size, i.st_mtime_ns, i.st_ino) for k, i in infos.items()}
    cached = _load_or_ahead(cache_dir, version) if cache_dir is not None else None
    reuse: set[str] = set()
    if cached is not None:
        old, old_stats, _ = cached

        def unchanged(key: str) -> bool:
            """The file holds the bytes the cache read (`sha256` of its record)."""
            record = old.records.get(key)
            if key not in paths or record is None or record.sha256 is None:
                return False
            if old_stats.get(key) != stats[key]:
                return False  # read again (and hashed as it is read)
            return stated_hash(paths[key], infos[key]) == record.sha256

        companions = {k for k in set(stats) | set(old_stats) if _is_companion(k)}
        moved = {_folder(k) for k in companions if not unchanged(k)}
        reuse = {
            k
            for k in paths
            if k not in refused
            and not (k not in companions and _folder(k) in moved)
            and unchanged(k)
        }
    else:
        companions = {k for k in paths if _is_companion(k)}
    fresh = _Files({k: paths[k] for k in sorted(paths) if k not in reuse})
    around = {k: paths[k].read_bytes() for k in paths if k in companions and k not in fresh}
    staged = _stage(fresh, refused, params.categories, around, progress)
    added: tuple[Parts, Staged] | None = None
    if cached is not None:
        kept = cached[0].subset(reuse)
        if all(kept.frames.get(k) is f for k, f in cached[0].frames.items()):
            added = (cached[2], staged)  # every cached row kept: the new ones are a part
        staged = Staged.merge([kept, staged])
    previous = None
    if cache_dir is not None:
        previous = None if cached is None else _load_decided(cache_dir, version, cached[0].records)
        if previous is not None and not fresh.keys().isdisjoint(previous.files):
            previous = None  # an old file read again: its rows may not be those checked
        kept_stats = {k: v for k, v in stats.items() if k not in refused}
        _save(cache_dir, version, staged, kept_stats, added)
    return staged, previous


# From this many files to read, they are read, typed and checked alone (`stage_files`) by
# worker processes (`_stage`): `STAGE_WORKERS` of them, one per core, each taking groups of
# consecutive files (`STAGE_GROUPS` groups, for the progress and the balance). A worker
# costs about a second of CPU to start (a fresh interpreter importing Polars and the ingest),
# which the sample's 352 files do not repay. s20's 31,700 files (`ingest_folder` alone, no
# cache, 6 December 2026): 19.6 -> 16.5 s, the build process's peak 1,663 -> 1,767 MB (the
# groups' rows and one kind's copy while they are put together), each worker 637 MB.
PARALLEL_FILES = 2_000
STAGE_WORKERS = 2
STAGE_GROUPS = 8


def _stage(
    files: _Files,
    refused: Mapping[str, str],
    categories: frozenset[str],
    around: Mapping[str, bytes],
    progress: Progress | None,
    workers: int = STAGE_WORKERS,
) -> Staged:
    """`stage_files` of `files`, in worker processes from `PARALLEL_FILES` files: the keys
    (files and refused ones) cut into groups of consecutive keys, each group staged alone
    with every companion file beside it, the groups merged in order. Each file is checked
    alone, so the groups give the same rows, in the same order, and the same records as
    one call (`tests/test_ingest_parallel.py`); the records are put back in one call's
    order (the refused ones first, then the files by key)."""
    if workers < 2 or len(files) < PARALLEL_FILES:
        return stage_files(files, refused, categories, companions=around, progress=progress)
    keys = sorted(set(files) | set(refused))
    size = -(-len(keys) // STAGE_GROUPS)
    companions = dict(around) | {k: files[k] for k in files if _is_companion(k)}
    tasks: list[_StageTask] = []
    for start in range(0, len(keys), size):
        group = keys[start : start + size]
        tasks.append(
            (
                {k: files.path(k) for k in group if k in files},
                {k: refused[k] for k in group if k in refused},
                categories,
                companions,
            )
        )
    parts: list[Staged] = []
    done = 0
    with _take_prestarted() or _new_pool(min(workers, len(tasks))) as pool:
        for part, (paths, _, _, _) in zip(pool.map(_stage_group, tasks), tasks, strict=True):
            parts.append(part)
            done += len(paths)
            if progress is not None:
                progress(done, len(files))
    found = {k: r for part in parts for k, r in part.records.items()}
    records = {k: found[k] for k in refused if k in found}
    records |= {k: found[k] for k in sorted(files) if k not in refused}
    # each kind's rows in one piece, the groups' frames let go kind after kind (the build's
    # memory holds the groups' rows and one kind's copy, not the groups' and all the copies)
    frames: dict[str, pl.DataFrame] = {}
    for kind in dict.fromkeys(k for part in parts for k in part.frames):  # one call's order
        pieces = [part.frames.pop(kind) for part in parts if kind in part.frames]
        frames[kind] = pl.concat(pieces, rechunk=True)
        del pieces
    return Staged(frames, records)


def _new_pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes started fresh ("spawn": the build process holds DuckDB's and
    Polars' thread pools, never forked), Polars on one thread each (`start_worker`)."""
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=start_worker)


# The pool a build started ahead (`prestart`), until the ingest takes it (`_stage`).
_PRESTARTED: ProcessPoolExecutor | None = None


def _warm() -> None:
    """A prestarted worker's first task: unpickled, it imports this module (Polars, the
    readers and checks), the cost a worker pays before its first group of files."""


def prestart(workers: int = STAGE_WORKERS) -> None:
    """Start the ingest's worker processes now, for a build that will read its exports in
    parallel (`PARALLEL_FILES`): their start and imports (about a second each) run while
    the build process lists and hashes the raw folder and imports Dagster, not while the
    ingest waits for its first group (s20's full build, issue 25). The next parallel
    `_stage` takes them; `discard_prestarted` stops them if none does."""
    global _PRESTARTED
    if _PRESTARTED is not None or workers < 2:
        return
    pool = _new_pool(workers)
    for _ in range(workers):  # one task each: both processes spawned at once
        pool.submit(_warm)
    _PRESTARTED = pool


def ingest_cached(cache: Path) -> bool:
    """Whether the build cache folder `cache` (`pipelines.paths.default_cache`) holds what
    an earlier ingest learnt (`ingest_folder`'s folder, `ingest/`)."""
    return (cache / "ingest" / "manifest.json").exists()


def _take_prestarted() -> ProcessPoolExecutor | None:
    global _PRESTARTED
    pool, _PRESTARTED = _PRESTARTED, None
    return pool


def discard_prestarted() -> None:
    """Stop the prestarted workers that no ingest took (nothing changed, a failure)."""
    pool = _take_prestarted()
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def workers_ahead(wanted: bool) -> Iterator[None]:
    """`prestart` the ingest's workers when `wanted`, and stop them at the end of the block
    if no ingest took them (`discard_prestarted`)."""
    if wanted:
        prestart()
    try:
        yield
    finally:
        discard_prestarted()


# a group of files to stage in a worker: their paths by key, the refused ones among them,
# the tournament categories and every companion file
_StageTask = tuple[dict[str, Path], dict[str, str], frozenset[str], dict[str, bytes]]


def _stage_group(task: _StageTask) -> Staged:
    """In a worker: `stage_files` of one group of files."""
    paths, refused, categories, companions = task
    return stage_files(_Files(paths), refused, categories, companions=companions)


class _Files(Mapping[str, bytes]):
    """The bytes of files by key, read from disk each time one is asked for: the ingest
    reads a file once, so the whole raw folder is never held in memory at once."""

    def __init__(self, paths: Mapping[str, Path]) -> None:
        self._paths = paths

    def __getitem__(self, key: str) -> bytes:
        return self._paths[key].read_bytes()

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)

    def path(self, key: str) -> Path:
        return self._paths[key]


def _is_companion(key: str) -> bool:
    return os.path.splitext(key)[1].lower() in COMPANION_SUFFIXES


def _folder(key: str) -> str:
    return key.rpartition("/")[0]
