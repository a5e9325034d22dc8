"""Season reports (and circuit pages) rendered by a worker process while the build goes on
(issue 25).

A build computes its seasons one after the other on one core (each season's cote, Elo and
series need the previous season's), and each season ends with its report: about 0.7 s of
Python a season of 20,000 players (HTML tables, charts' JSON), 14.5 s of the 47 s of the
bench's 20 seasons, while the machine's other core waited. Here the report of season N is
rendered by a worker process while the build computes season N + 1; the circuit pages of
year Y while it computes year Y + 1; the home page while it makes the player pages
(`RENDERERS`).

- The report reads the warehouse as it was when its step ran, as the report rendered in the
  step itself would: the step takes a snapshot (`Warehouse.snapshot`, a cursor of the
  build's connection in a read transaction: DuckDB's snapshot isolation), and the worker's
  reads are answered from that cursor by a thread of the build process (the worker cannot
  open the file: DuckDB lets one process at a time hold it for writing). A report reads its
  own season's rows and the base tables: a few queries and megabytes, sent as Polars frames.
- The same code renders it (`pipelines.reports.season.write_season_report` over
  `ReportData`): the same bytes. Only the warehouse under `ReportData` differs
  (`_Remote`: its reads go to the build process).
- The worker is started fresh ("spawn": the build process holds DuckDB's and Polars' thread
  pools, never forked) at the first report, and renders the reports in the order they came.
- The build waits for every report before it checkpoints the warehouse (a read
  transaction forbids it), and before it publishes (`BackgroundReports.finish`). A report
  that fails fails the build with the season's name and the worker's traceback, at the next
  report's step or when the build waits; a worker that dies (killed for want of memory,
  say) too. A build that fails elsewhere stops the worker (`close`).
- Only the in-process builds of `classement build` use it (`pipelines.build`), from
  `FROM_PLAYERS` players on (`wanted`; `SWITCH` forces it either way): a run started by
  Dagster's daemon or UI renders its report in its step, as before.

Measured on the bench's 20 seasons × 20,000 players, full builds of the same raw folder
side by side (`CLASSEMENT_BACKGROUND_REPORTS` 1 then 0, 7 December 2026, a slow hour): the
seasons 56.6 -> 41.2 s (the report steps 17.2 -> 0.2 s, 0.9 s waited for the last
reports), the build 136.9 -> 122.9 s; with the circuit pages too, 0 then 1: the seasons
49.6 -> 42.3 s, the years 12.7 -> 7.3 s, the build 128.5 -> 114.9 s; on 6 seasons, four
pairs: 11.2-13.9 -> 9.9-11.1 s.
The worker's first reads of the base tables are ~30 of a season's 46 MB (`_Remote` keeps
them while their digest stays).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import threading
import traceback
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from pipelines.reference.bundle import Parameters
from pipelines.reports.data import ReportData
from pipelines.warehouse import Warehouse
from pipelines.worker_start import resolve, run

# The build's background renderer, set by `pipelines.build` for its in-process runs (the
# season report's asset renders in its step when unset).
CURRENT: ContextVar[BackgroundReports | None] = ContextVar("background_reports", default=None)

# How long a build waits for the worker to stop once told to (then it is terminated).
STOP_SECONDS = 30.0
# From how many players (the `players` table) a build renders its reports in the
# background: a small federation's report takes less than the worker's start (a process
# and its imports, about 1 CPU-s), and the tests' builds would each start one.
FROM_PLAYERS = 5_000
# « 1 »: always in the background, « 0 »: never (tests, measurements side by side).
SWITCH = "CLASSEMENT_BACKGROUND_REPORTS"


def wanted(warehouse: Warehouse) -> bool:
    """Whether a build renders its season reports and circuit pages in the background
    (`FROM_PLAYERS`, `SWITCH`)."""
    chosen = os.environ.get(SWITCH, "")
    if chosen:
        if chosen not in ("0", "1"):
            raise ValueError(f"{SWITCH}={chosen} : attendu 1 (toujours) ou 0 (jamais)")
        return chosen == "1"
    if "players" not in warehouse.tables():
        return False
    counted = warehouse.read('SELECT count(*) AS n FROM "players"')
    return int(counted["n"][0]) >= FROM_PLAYERS


class ReportFailedError(RuntimeError):
    """A report rendered in the background failed, or its worker died."""


# What a worker renders, by kind: the function (« module:name », imported by the worker)
# called with the report's data, its partition key and the reports folder, and how a
# failure names it.
RENDERERS = {
    "season": "pipelines.reports.season:write_season_report",
    "circuits": "pipelines.reports.circuits.pages:write_year_reports",
    "index": "pipelines.reports.index_page:write_home_page",
}
_NAMED = {
    "season": "rapport de la saison {}",
    "circuits": "rapports des circuits de {}",
    "index": "page d'accueil{}",
}


@dataclass(frozen=True)
class _Job:
    kind: str
    key: str
    reports: Path
    params: Parameters
    path: Path
    tables: dict[str, str | None]
    cursor: duckdb.DuckDBPyConnection = field(compare=False, repr=False)
    args: tuple[Any, ...] = ()  # the renderer's arguments after the reports folder


class BackgroundReports:
    """The worker process rendering the reports of one build (`RENDERERS`), and the thread
    of the build process answering its reads. `submit` in a report's step, `finish` before
    the warehouse is checkpointed or published, `close` always (a context manager)."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._pending = 0
        self._done = threading.Condition()
        self._failure: str | None = None
        self._thread: threading.Thread | None = None
        self._process: Any = None  # multiprocessing's SpawnProcess
        self._link: Connection | None = None
        self._starting = threading.Lock()  # two stages' threads may submit at once

    def __enter__(self) -> BackgroundReports:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pending(self) -> int:
        """Reports submitted and not yet written."""
        with self._done:
            return self._pending

    def submit(
        self,
        warehouse: Warehouse,
        key: str,
        reports: Path,
        params: Parameters,
        kind: str = "season",
        args: tuple[Any, ...] = (),
    ) -> None:
        """Render the report of the partition `key` (a season's, or a year's circuit pages,
        or the home page with `key` "": `kind`, `RENDERERS`; `args`: the renderer's
        arguments after the reports folder) from the warehouse as it is now, into `reports`
        (written when `finish` returns). An earlier report's failure is raised here."""
        if kind not in RENDERERS:
            raise ValueError(f"unknown report kind {kind!r}")
        self._raise_failure()
        cursor, tables = warehouse.snapshot()
        try:
            self._start()
        except BaseException:
            Warehouse.release(cursor)
            raise
        with self._done:
            self._pending += 1
        self._jobs.put(_Job(kind, key, reports, params, warehouse.path, tables, cursor, args))

    def finish(self) -> None:
        """Wait for every report submitted; raise the first failure."""
        with self._done:
            self._done.wait_for(lambda: self._pending == 0)
        self._raise_failure()

    def close(self) -> None:
        """Stop the worker (at once when reports are still pending: the build failed) and
        end every snapshot (the build's connection closes after)."""
        if self._thread is None:
            return
        if self.pending and self._process is not None:
            self._process.terminate()  # the build failed: its reports are not wanted
        self._jobs.put(None)
        self._thread.join()
        if self._process is not None:
            self._process.join(STOP_SECONDS)
            if self._process.is_alive():
                self._process.terminate()
                self._process.join()
        if self._link is not None:
            self._link.close()
        self._thread = self._process = self._link = None

    # ------------------------------------------------------------------ the build's side

    def _start(self) -> None:
        with self._starting:
            if self._thread is None:
                self._start_worker()

    def _start_worker(self) -> None:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        # the worker's Polars runs on one thread, set before it imports this module
        process = context.Process(
            target=run,
            args=("pipelines.reports.background:_work", theirs),
            name="classement-rapports",
            daemon=True,
        )
        process.start()
        theirs.close()
        self._process, self._link = process, ours
        self._thread = threading.Thread(target=self._serve, name="classement-rapports")
        self._thread.start()

    def _raise_failure(self) -> None:
        if self._failure is not None:
            raise ReportFailedError(self._failure)

    def _serve(self) -> None:
        """The thread answering the worker: one job at a time, in order."""
        while True:
            job = self._jobs.get()
            if job is None:
                if self._link is not None:
                    with contextlib.suppress(OSError):
                        self._link.send(None)  # the worker returns (if still there)
                return
            try:
                if self._failure is None:
                    self._render(job)
            except BaseException as err:  # recorded, raised in the build's thread
                self._failure = f"{_NAMED[job.kind].format(job.key)} : {err}"
            finally:
                Warehouse.release(job.cursor)
                with self._done:
                    self._pending -= 1
                    self._done.notify_all()

    def _render(self, job: _Job) -> None:
        link = self._link
        assert link is not None
        try:
            job_parts = (
                job.kind,
                job.key,
                str(job.reports),
                job.params,
                str(job.path),
                job.tables,
                job.args,
            )
            link.send(("render", *job_parts))
            while True:
                message = link.recv()
                if message[0] == "read":
                    link.send(_answer(job.cursor, message[1], message[2]))
                elif message[0] == "done":
                    return
                else:
                    raise ReportFailedError(message[1])
        except (EOFError, OSError) as err:
            code = self._process.exitcode if self._process is not None else None
            raise ReportFailedError(
                f"le processus qui écrit les rapports s'est arrêté (code {code}) : {err!r}"
            ) from err


def _answer(cursor: duckdb.DuckDBPyConnection, sql: str, params: list[object] | None) -> tuple:
    """A query of the worker run on the report's snapshot: its rows, or DuckDB's error."""
    try:
        return ("rows", cursor.sql(sql, params=params or None).pl())
    except duckdb.Error as err:
        return ("error", type(err).__name__, str(err))


# ---------------------------------------------------------------------- the worker's side


@dataclass(frozen=True)
class _Remote(Warehouse):
    """The warehouse as a report in the worker sees it: its reads answered by the build
    process from the report's snapshot, its tables those of the snapshot. A table read
    whole whose comment is its frame's digest (written whole, `replace_tables`: the base
    tables every report reads, ~30 of a season's 46 MB at 20,000 players) is asked for
    once, and kept while its digest stays (`_KEPT`)."""

    link: Connection | None = field(default=None, compare=False, repr=False)
    comments: dict[str, str | None] = field(default_factory=dict, compare=False)

    def exists(self) -> bool:
        return True

    def tables(self) -> list[str]:
        return sorted(self.comments)

    def read(self, sql: str, params: list[object] | None = None) -> pl.DataFrame:
        key = self._kept_as(sql, params)
        if key is not None and key in _KEPT:
            return _KEPT[key]
        assert self.link is not None
        self.link.send(("read", sql, params))
        answer = self.link.recv()
        if answer[0] != "rows":
            error = getattr(duckdb, answer[1], duckdb.Error)
            raise error(answer[2])
        frame: pl.DataFrame = answer[1]
        if key is not None:
            for old in [k for k in _KEPT if k[0] == key[0]]:
                del _KEPT[old]
            _KEPT[key] = frame
        return frame

    def _kept_as(self, sql: str, params: list[object] | None) -> tuple[str, str] | None:
        """The key a whole table's frame is kept under: (name, digest), or None."""
        name = sql.removeprefix('SELECT * FROM "').removesuffix('"')
        digest = self.comments.get(name)
        if params or sql != f'SELECT * FROM "{name}"' or not digest:
            return None
        return name, digest


# The whole tables a worker keeps between reports, by (name, digest) (`_Remote`).
_KEPT: dict[tuple[str, str], pl.DataFrame] = {}


def _work(link: Connection) -> None:
    """Render each report asked for until told to stop (None) or the build is gone."""
    for job in _jobs(link):
        _, kind, key, reports, params, path, comments, args = job
        try:
            write = resolve(RENDERERS[kind])
            data = ReportData(_Remote(Path(path), link, comments), params)
            write(data, key, Path(reports), *args)
        except Exception:
            link.send(("failed", traceback.format_exc()))
        else:
            link.send(("done",))


def _jobs(link: Connection) -> Iterator[tuple]:
    while True:
        try:
            job = link.recv()
        except (EOFError, OSError):  # the build process is gone
            return
        if job is None:
            return
        yield job
