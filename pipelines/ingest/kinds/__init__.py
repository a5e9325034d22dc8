"""The kinds of export a rule family adds to the three base kinds, one module each.

A module here defines `PLUGINS`, a tuple of `KindPlugin`: the kind (columns, types, the
signature announcing it in a header row — `pipelines.ingest.schema.Kind`), the warehouse
table its accepted rows go to (declared in `transforms/tables`), and optionally

- `checks(typed, accepted, params)`: the checks of its rows beyond their types (under the
  rule parameters `params`), as error rows
  (`pipelines.ingest.errors.ERROR_SCHEMA`: `_file, _where, _row, column, message,
  _check`) — `typed` is this kind's rows of every file not rejected so far, `accepted` the
  other kinds' rows (by kind name, `results` included) of the files not rejected so far;
  a file with an error is rejected whole, and the checks run again until no new file is;
  `accepted[SENT_RESULTS]` holds the results rows of every file read, rejected or not (a
  tournament that exists, though its file is refused);
- `assemble(typed)`: the table's rows from the accepted files' typed rows (by default:
  the table's declared columns, `source_file` from `_file` when declared);
- `dated_by`: the date column that puts a row in its season and year, for a table
  without `tournament_id` (the partitions' fingerprints: a change rebuilds the partitions
  it is dated in and the later ones; an undated table without tournament rebuilds all);
- `dated_via`: `(column, table)` for a table dated through another one: a row takes the
  partition of the `table` rows sharing its `column` (a round's moves, dated by the round's
  players).

Nothing else in the ingest changes when a family adds a kind.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

import polars as pl

from pipelines.ingest.schema import KINDS, Kind
from pipelines.reference.bundle import Parameters
from transforms.tables import table

# The key of `accepted` giving the results rows of every file read, rejected or not.
SENT_RESULTS = "sent_results"

Checks = Callable[[pl.DataFrame, Mapping[str, pl.DataFrame], Parameters], pl.DataFrame]
Assemble = Callable[[pl.DataFrame], pl.DataFrame]


@dataclass(frozen=True)
class KindPlugin:
    kind: Kind
    table: str
    checks: Checks | None = None
    assemble: Assemble | None = None
    dated_by: str | None = None
    dated_via: tuple[str, str] | None = None

    def rows(self, typed: pl.DataFrame) -> pl.DataFrame:
        """The warehouse table's frame of the accepted files' rows."""
        if self.assemble is not None:
            return table(self.table).check(self.assemble(typed))
        declared = table(self.table)
        frame = (
            typed.with_columns(pl.col("_file").alias("source_file"))
            if ("source_file" in declared.schema)
            else typed
        )
        return declared.conform(frame.sort(["_file", "_row"]))


@cache
def plugins() -> tuple[KindPlugin, ...]:
    found: list[KindPlugin] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.extend(getattr(module, "PLUGINS", ()))
    names = [p.kind.name for p in found]
    if len(set(names)) != len(names):
        raise ValueError(f"two export kinds share a name: {names}")
    return tuple(found)


@cache
def export_kinds() -> tuple[Kind, ...]:
    """Every kind an organiser may send: the base kinds, then each family's own kinds
    (this package's modules), in module order."""
    return (*KINDS, *(p.kind for p in plugins()))
