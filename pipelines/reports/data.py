"""Read-only access to the warehouse tables the reports and notebooks read."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

import duckdb
import polars as pl

from pipelines.paths import DEFAULT_WAREHOUSE
from pipelines.reference.bundle import Parameters, load_parameters
from pipelines.reports.html import esc, fmt_date, fmt_number
from pipelines.reports.page import Rejected
from pipelines.warehouse import Warehouse
from transforms.calendar import ordered_events
from transforms.federations import AliasTable
from transforms.series import federation_key_expr
from transforms.tables import TableSchemaError, table


class WarehouseMissingError(FileNotFoundError):
    """No warehouse where a notebook or a report looks for one."""


def notebook_warehouse(path: str | Path | None = None) -> Path:
    """The warehouse a notebook reads: `path`, else `CLASSEMENT_WAREHOUSE`, else the
    project's `data/warehouse.duckdb` — an absolute path, whatever folder the notebook was
    started from; a clear French error when there is no such file (never empty tables)."""
    chosen = Path(path or os.environ.get("CLASSEMENT_WAREHOUSE") or DEFAULT_WAREHOUSE)
    resolved = chosen.expanduser().resolve()
    if not resolved.is_file():
        raise WarehouseMissingError(
            f"Entrepôt introuvable : {resolved} (dossier courant : {Path.cwd()}). Construisez-"
            "le avec « classement build », ou indiquez son chemin dans la variable "
            "CLASSEMENT_WAREHOUSE."
        )
    return resolved


# The kind of each column a notebook table shows, written on its header (`data-type`).
COLUMN_KINDS = {"number": "nombre", "date": "date", "boolean": "oui/non", "text": "texte"}


def _column_kind(dtype: pl.DataType) -> str:
    if dtype == pl.Boolean:
        return "boolean"
    if dtype.is_numeric():
        return "number"
    if dtype == pl.Date:
        return "date"
    return "text"


def _shown(value: object, kind: str, digits: int) -> str | None:
    """A cell as the reader sees it (None for a missing value)."""
    if value is None:
        return None
    if kind == "number":
        return fmt_number(value, digits)
    if kind == "date":
        return fmt_date(value)  # type: ignore[arg-type]
    if kind == "boolean":
        return "oui" if value else "non"
    return str(value)


class DisplayTable:
    """A table for readers (the notebooks): the columns keep their types (numbers stay
    numbers, sortable as such), the text shown is French (thin space between thousands,
    decimal comma, dates as 15/01/2025, oui/non). Shown by marimo through `_mime_` as an
    HTML table whose every header names its column's kind (`data-type`: nombre, date,
    oui/non, texte) and whose number cells carry their exact value (`data-value`), in the
    notebook and in its export (`classement notebook-html`) alike."""

    def __init__(self, frame: pl.DataFrame, decimals: dict[str, int] | None = None) -> None:
        self.frame = frame  # typed, headed by the French labels
        self.decimals = decimals or {}

    @property
    def columns(self) -> list[str]:
        return self.frame.columns

    @property
    def height(self) -> int:
        return self.frame.height

    def kinds(self) -> dict[str, str]:
        """Each column's kind: number, date, boolean or text."""
        return {c: _column_kind(t) for c, t in self.frame.schema.items()}

    def text(self) -> pl.DataFrame:
        """The table as shown: every cell its French text."""
        kinds = self.kinds()
        return pl.DataFrame(
            {
                c: [_shown(v, kinds[c], self.decimals.get(c, 0)) for v in self.frame[c].to_list()]
                for c in self.frame.columns
            },
            schema=dict.fromkeys(self.frame.columns, pl.String),
        )

    def html(self) -> str:
        kinds = self.kinds()
        head = "".join(
            f'<th data-type="{COLUMN_KINDS[kinds[c]]}" class="num">{esc(c)}</th>'
            if kinds[c] == "number"
            else f'<th data-type="{COLUMN_KINDS[kinds[c]]}">{esc(c)}</th>'
            for c in self.frame.columns
        )
        rows = []
        for row in self.frame.iter_rows():
            cells = []
            for c, value in zip(self.frame.columns, row, strict=True):
                shown = _shown(value, kinds[c], self.decimals.get(c, 0))
                text = "—" if shown is None else esc(shown)
                if kinds[c] == "number" and value is not None:
                    cells.append(f'<td class="num" data-value="{esc(value)}">{text}</td>')
                elif kinds[c] == "number":
                    cells.append(f'<td class="num">{text}</td>')
                else:
                    cells.append(f"<td>{text}</td>")
            rows.append(f"<tr>{''.join(cells)}</tr>")
        return (
            f'<div class="scroll"><table class="notebook-table"><thead><tr>{head}</tr>'
            f"</thead><tbody>{''.join(rows)}</tbody></table></div>"
        )

    def _mime_(self) -> tuple[str, str]:
        return "text/html", self.html()


def display_frame(
    frame: pl.DataFrame,
    columns: dict[str, str],
    decimals: dict[str, int] | None = None,
) -> DisplayTable:
    """A table for readers (the notebooks): the `columns` kept, renamed to their French
    label, their types kept; numbers shown in French format (`decimals` per column, 0 by
    default), dates as 15/01/2025, booleans oui/non (see `DisplayTable`)."""
    places = decimals or {}
    typed = frame.select([pl.col(name).alias(label) for name, label in columns.items()])
    return DisplayTable(typed, {columns[n]: d for n, d in places.items() if n in columns})


class ReportData:
    """The warehouse tables, each read once through a read-only connection and kept.

    Frames handed out are Polars frames (immutable); nothing here writes the warehouse.
    """

    def __init__(self, warehouse: Warehouse, params: Parameters | Path | None = None) -> None:
        self._warehouse = warehouse
        # the rule parameters the warehouse was built with (a bundle, or its folder)
        self.params = params if isinstance(params, Parameters) else load_parameters(params)
        self.reference_dir = self.params.folder
        self.calendar = self.params.calendar
        self._cache: dict[str, pl.DataFrame] = {}
        self._names: dict[str, str] | None = None
        self._present: set[str] | None = None

    @classmethod
    def open(cls, path: Path | str, params: Parameters | Path | None = None) -> ReportData:
        """Data of the warehouse file at `path`."""
        return cls(Warehouse(Path(path)), params)

    # ------------------------------------------------------------------ tables

    def table(self, name: str) -> pl.DataFrame:
        """A whole table, as declared in `transforms.tables`; empty when the warehouse
        lacks it, an error when the warehouse holds it with other columns (a report never
        shows a renamed column as empty)."""
        if name not in self._cache:
            self._cache[name] = self._read(name, f'SELECT * FROM "{name}"')
        return self._cache[name]

    def _read(self, name: str, sql: str, params: list[object] | None = None) -> pl.DataFrame:
        """The rows of the query `sql` on the table `name`, checked against its
        declaration; the declared empty frame when the warehouse lacks the table."""
        declared = table(name)
        if name not in self._tables():
            return declared.empty()
        frame = self._warehouse.read(sql, params)
        problems = declared.differences(frame)
        if problems:
            raise TableSchemaError(
                f"{self._warehouse.path}: table {name}: {'; '.join(problems)} "
                "(rebuild the warehouse with this version of the code)"
            )
        return frame

    def _tables(self) -> set[str]:
        """The tables the warehouse holds (listed once)."""
        if self._present is None:
            self._present = set(self._warehouse.tables())
        return self._present

    def for_season(self, name: str, season: str) -> pl.DataFrame:
        """The rows of `season` of a table with a `season` column, in the table's order:
        the whole table's when already read, else only the season's read (`WHERE`), kept —
        a season's report does not read every season's rows."""
        if name in self._cache:
            return self._cache[name].filter(pl.col("season") == season)
        key = f"_season:{name}:{season}"
        if key not in self._cache:
            self._cache[key] = self._read(
                name, f'SELECT * FROM "{name}" WHERE season = ?', [season]
            )
        return self._cache[key]

    # ------------------------------------------------------------------ seasons

    def seasons(self) -> list[str]:
        """Seasons holding at least one tournament, in order."""
        return sorted(self.table("tournaments")["season"].drop_nulls().unique().to_list())

    def season_count(self) -> int:
        """How many `seasons` there are, counted in the warehouse (no table read out)."""
        if "tournaments" in self._cache or "tournaments" not in self._tables():
            return len(self.seasons())
        counted = self._warehouse.read(
            "SELECT count(DISTINCT season) AS n FROM tournaments WHERE season IS NOT NULL"
        )
        return int(counted["n"][0])

    def season_bounds(self, season: str) -> tuple[dt.date, dt.date]:
        return self.calendar.bounds(season)

    def tournaments(self, season: str | None = None) -> pl.DataFrame:
        """Tournaments in event order (sorted once), optionally those of one season."""
        if "_events" not in self._cache:
            self._cache["_events"] = ordered_events(self.table("tournaments"))
        frame = self._cache["_events"]
        return frame if season is None else frame.filter(pl.col("season") == season)

    # ------------------------------------------------------------------ data quality

    def rejected_exports(self, season: str | None = None) -> list[Rejected]:
        """The exports the build refused (`ingest_log`), in path order: all of them, or
        those of `season` and those whose season is unknown (named in every report)."""
        log = self.table("ingest_log").filter(pl.col("status") == "rejected")
        if season is not None:
            log = log.filter((pl.col("season") == season) | pl.col("season").is_null())
        return [
            Rejected(path, message or path, of)
            for path, message, of in log.sort("path").select("path", "message", "season").rows()
        ]

    def as_of(self, season: str | None = None) -> dt.date | None:
        """The data's as-of date: the latest tournament end date or rating-list date (of
        `season` when given), None when nothing is loaded."""
        ends = self.tournaments(season)["end_date"].drop_nulls().to_list()
        if season is None or "rating_lists" in self._cache:
            lists = self.table("rating_lists")["as_of"].drop_nulls()
        else:  # only the season's lists read
            key = f"_season:rating_lists:{season}"
            if key not in self._cache:
                self._cache[key] = self._read(
                    "rating_lists",
                    "SELECT * FROM rating_lists WHERE as_of BETWEEN ? AND ?",
                    list(self.season_bounds(season)),
                )
            lists = self._cache[key]["as_of"].drop_nulls()
        if season is not None:
            start, end = self.season_bounds(season)
            lists = lists.filter((lists >= start) & (lists <= end))
        dates = [*ends, *lists.to_list()]
        return max(dates) if dates else None

    def federation_label(self, written: str | None) -> str | None:
        """A federation as readers know it: « France (FRA) » for a known spelling
        (`data/reference/federations.csv`), else as written."""
        if written is None or not written.strip():
            return None
        table = self._federations
        code = table.code_of(written) if table is not None else None
        return f"{table.name(code)} ({code})" if table is not None and code else written.strip()

    @cached_property
    def _federations(self) -> AliasTable | None:
        """The alias table of federations; None without one (names shown as written)."""
        try:
            return self.params.federations
        except (OSError, ValueError):
            return None

    # ------------------------------------------------------------------ players

    def player_names(self) -> pl.DataFrame:
        """`player_id, name, federation, club, named`: name is « NOM Prénom », else the
        licence; `named` is false for a player with no name anywhere (one known only from
        a rating list that names nobody)."""
        players = self.table("players")
        name = pl.concat_str(
            [pl.col("last_name").fill_null(""), pl.col("first_name").fill_null("")],
            separator=" ",
        ).str.strip_chars()
        return players.select(
            "player_id",
            pl.when(name == "").then(pl.col("player_id")).otherwise(name).alias("name"),
            "federation",
            "club",
            (name != "").alias("named"),
        )

    def names(self) -> dict[str, str]:
        """`player_id` → name (`player_names`), built once (every section asks for it):
        read it, do not change it."""
        if self._names is None:
            frame = self.player_names()
            self._names = dict(
                zip(frame["player_id"].to_list(), frame["name"].to_list(), strict=True)
            )
        return self._names

    def names_frame(self) -> pl.DataFrame:
        """`player_id, name`: `names()` as a frame (to join), built once."""
        key = "_names_frame"
        if key not in self._cache:
            names = self.names()
            self._cache[key] = pl.DataFrame(
                {"player_id": list(names), "name": list(names.values())},
                schema={"player_id": pl.String, "name": pl.String},
            )
        return self._cache[key]

    def quota_federation(self, column: str) -> pl.Expr:
        """The quota federation code (`FRA`, …, `*` for the others) of a federation name,
        as the series classification maps it (the `federations.csv` alias table)."""
        known = self.params.quotas.federations()
        return federation_key_expr(column, self.params.federations, known)

    # ------------------------------------------------------------------ histories

    def _history(self, name: str, season: str | None = None) -> pl.DataFrame:
        key = f"_history:{name}" if season is None else f"_history:{name}:{season}"
        if key in self._cache:
            return self._cache[key]
        rows = self.table(name) if season is None else self.for_season(name, season)
        events = (
            self.tournaments()
            .select(
                "tournament_id",
                "tournament_name",
                "discipline",
                "start_date",
                "end_date",
                "season",
                "city",
                "players",
            )
            .with_row_index("event_order")
        )
        frame = rows.join(events, on="tournament_id", how="left").sort(
            "event_order", "player_id", nulls_last=True
        )
        self._cache[key] = frame
        return frame

    def cote_history(self, season: str | None = None) -> pl.DataFrame:
        """`cote_history` (of `season` when given, read alone) with each tournament's name,
        dates, season, in event order."""
        return self._history("cote_history", season)

    def elo_history(self, season: str | None = None) -> pl.DataFrame:
        """`elo_history` (of `season` when given, read alone) with each tournament's name,
        dates, season, in event order."""
        return self._history("elo_history", season)

    def season_results(self, season: str, columns: Sequence[str] | None = None) -> pl.DataFrame:
        """The `results` rows of the season's tournaments: the whole table's when already
        read, else only those read; only the `columns` given (all by default), read alone
        (the season's overview counts its players: two columns of 60,000 rows on the
        issue 25 bench's last season, not its fourteen)."""
        if "results" in self._cache:
            ids = self.tournaments(season)["tournament_id"]
            rows = self._cache["results"].filter(pl.col("tournament_id").is_in(ids.implode()))
            return rows if columns is None else rows.select(columns)
        where = "WHERE tournament_id IN (SELECT tournament_id FROM tournaments WHERE season = ?)"
        if columns is not None:
            return self._result_columns(columns, where, season)
        key = f"_season:results:{season}"
        if key not in self._cache:
            self._cache[key] = self._read("results", f"SELECT * FROM results {where}", [season])
        return self._cache[key]

    def _result_columns(self, columns: Sequence[str], where: str, season: str) -> pl.DataFrame:
        """The `columns` of the season's `results` rows (`where`), kept, checked against
        their declaration; a column the warehouse lacks or holds with another type reads
        the season's whole rows (`season_results`), whose check names the difference."""
        name = "results"
        key = f"_season:{name}:{season}:{','.join(columns)}"
        if key in self._cache:
            return self._cache[key]
        declared = table(name)
        if name not in self._tables():
            return declared.empty().select(columns)
        wanted = {c: declared.schema[c] for c in columns}
        quoted = ", ".join(f'"{c}"' for c in columns)
        try:
            frame = self._warehouse.read(f'SELECT {quoted} FROM "{name}" {where}', [season])
        except duckdb.Error:  # a declared column missing: the whole rows say which
            return self.season_results(season).select(columns)
        if dict(frame.schema) != wanted:
            return self.season_results(season).select(columns)
        self._cache[key] = frame
        return frame

    def season_player_counts(self) -> dict[str, int]:
        """Per season, the players with a result in its tournaments, counted in the
        warehouse (the results are not read out: 1.25 million rows on 20 seasons × 20,000
        players); a result without licence counts as one player, as Polars' `n_unique`
        counts it."""
        if not {"results", "tournaments"} <= self._tables():
            return {}
        counts = self._warehouse.read(
            "SELECT t.season, count(DISTINCT r.player_id) "
            "+ max(CASE WHEN r.player_id IS NULL THEN 1 ELSE 0 END) AS players "
            "FROM results r JOIN tournaments t ON t.tournament_id = r.tournament_id "
            "WHERE t.season IS NOT NULL GROUP BY t.season"
        )
        return {season: int(n) for season, n in counts.iter_rows()}

    def tournament_results(self, ids: Sequence[str]) -> pl.DataFrame:
        """The `results` rows of the tournaments `ids`, in the table's order: the whole
        table's when already read, else only those read (a year's circuit pages show a
        few tournaments of many seasons)."""
        wanted = pl.Series(list(ids), dtype=pl.String).implode()
        if "results" in self._cache:
            return self._cache["results"].filter(pl.col("tournament_id").is_in(wanted))
        return self._read(
            "results",
            "SELECT * FROM results WHERE list_contains(?::VARCHAR[], tournament_id)",
            [sorted(set(ids))],
        )

    def player_results(self) -> pl.DataFrame:
        """`results` with each tournament's details, in event order."""
        return self._history("results")
