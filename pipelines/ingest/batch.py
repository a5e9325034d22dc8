"""From the raw folder's files to the warehouse's ingest tables.

`ingest_files` takes every file's bytes (never touching the files themselves), reads and
checks them all, and returns the tables plus one `ingest_log` row per file. A file with
any error is rejected whole; every other file loads.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath

import polars as pl

from pipelines.ingest import validate
from pipelines.ingest.attribution import export_season
from pipelines.ingest.errors import ExportError
from pipelines.ingest.kinds import plugins
from pipelines.ingest.raw import COMPANION_SUFFIXES
from pipelines.ingest.read import RawTable, read_export
from pipelines.ingest.schema import (
    GAMES,
    PUBLISHED_SERIES,
    RATING_LIST,
    RESULTS,
    TOURNAMENT_COLUMNS,
    export_kinds,
)
from transforms.calendar import SeasonCalendar, ordered_events
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

    @property
    def ingested(self) -> int:
        return self.log.filter(pl.col("status") == "ingested").height


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _stack(tables: list[tuple[str, RawTable]], columns: tuple[str, ...]) -> pl.DataFrame:
    """One frame of strings for every file's table of one kind, tagged with `_file`
    (the path), `_where` (the name used in messages) and `_row`."""
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
    calendar: SeasonCalendar,
    refused: Mapping[str, str] | None = None,
    categories: frozenset[str] = frozenset(),
) -> IngestResult:
    """Read, check and assemble every raw export (keyed by its path relative to the raw
    folder). `refused`: files rejected before reading (`raw.refused_paths`), by key;
    `categories`: the classique categories the cote knows (none: not checked).

    Any failure while reading one file rejects that file, by name, never the build: the
    readers' own errors name the row and column; anything else is caught per file; and if
    the checks of all files at once fail on an unforeseen value, each file is checked
    alone to find and reject the ones that fail."""
    paths = sorted({*files, *(refused or {})})
    companions = {p: files[p] for p in files if PurePath(p).suffix.lower() in COMPANION_SUFFIXES}
    rejected: dict[str, str] = dict(refused or {})
    parsed: dict[str, dict[str, RawTable]] = {}
    for path in paths:
        if path in companions or path in rejected:
            continue
        try:
            parsed[path] = read_export(files[path], path, companions)
        except ExportError as err:
            rejected[path] = str(err)
        except Exception as err:
            rejected[path] = _unexpected(path, err)
    try:
        return _checked(files, paths, companions, parsed, rejected, calendar, categories)
    except Exception:
        for path in list(parsed):
            try:
                _checked(files, [path], {}, {path: parsed[path]}, {}, calendar, categories)
            except Exception as err:
                rejected[path] = _unexpected(path, err)
                del parsed[path]
        return _checked(files, paths, companions, parsed, rejected, calendar, categories)


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


def _checked(
    files: Mapping[str, bytes],
    paths: list[str],
    companions: Mapping[str, bytes],
    parsed: dict[str, dict[str, RawTable]],
    rejected: dict[str, str],
    calendar: SeasonCalendar,
    categories: frozenset[str],
) -> IngestResult:
    """Type, check and assemble the parsed files (all at once)."""
    rejected = dict(rejected)

    by_kind: dict[str, list[tuple[str, RawTable]]] = {
        k.name: [] for k in (*export_kinds(), PUBLISHED_SERIES)
    }
    for path, raw_tables in parsed.items():
        for kind_name, table in raw_tables.items():
            by_kind[kind_name].append((path, table))

    results, results_type_errors = validate.type_frame(
        _stack(by_kind["results"], RESULTS.columns), RESULTS
    )
    games, games_type_errors = validate.type_frame(_stack(by_kind["games"], GAMES.columns), GAMES)
    ratings, ratings_type_errors = validate.type_frame(
        _stack(by_kind["rating_list"], RATING_LIST.columns), RATING_LIST
    )
    published, published_type_errors = validate.type_frame(
        _stack(by_kind["published_series"], PUBLISHED_SERIES.columns), PUBLISHED_SERIES
    )
    results = results.with_columns(pl.col("discipline").str.to_lowercase())
    results, notes = validate.renumber_dense_ranks(results)
    extra: dict[str, pl.DataFrame] = {}
    extra_type_errors: list[pl.DataFrame] = []
    for plugin in plugins():
        typed, type_errors = validate.type_frame(
            _stack(by_kind[plugin.kind.name], plugin.kind.columns), plugin.kind
        )
        extra[plugin.kind.name] = typed
        extra_type_errors.append(type_errors)

    errors = [
        results_type_errors,
        validate.results_errors(results),
        validate.rank_errors(results),
        validate.duplicate_errors(results),
        validate.category_errors(results, categories),
        validate.tournament_owner_errors(results, RESULTS.label),
        ratings_type_errors,
        validate.rating_list_errors(ratings),
        validate.rating_owner_errors(ratings),
        games_type_errors,
        validate.tournament_owner_errors(games, GAMES.label),
        published_type_errors,
        *extra_type_errors,
    ]
    first = validate.first_error_per_file(errors)
    bad = set(first["_file"].to_list()) | set(rejected)

    # Games (and the rows of the families' kinds) are checked against the files that load;
    # a file rejected for its games takes its own results with it, which may in turn
    # reject games of other files: repeat until no new file is rejected.
    cross_errors: list[pl.DataFrame] = []
    while True:
        frames = {"results": results, "games": games, "rating_list": ratings, **extra}
        out = pl.col("_file").is_in(list(bad))
        accepted = {name: frame.filter(~out) for name, frame in frames.items()}
        found = [validate.games_errors(accepted["games"], accepted["results"])]
        found += [
            plugin.checks(accepted[plugin.kind.name], accepted)
            for plugin in plugins()
            if plugin.checks is not None
        ]
        newly = set().union(*(f["_file"].to_list() for f in found)) - bad
        if not newly:
            break
        cross_errors += found
        bad |= newly
    first = validate.first_error_per_file([first, *cross_errors])
    headers = {
        table.where or path: table.headers
        for path, raw_tables in parsed.items()
        for table in raw_tables.values()
    }
    for row in first.iter_rows(named=True):
        rejected.setdefault(row["_file"], _message(row, headers))

    good = [p for p in paths if p not in rejected]
    results = results.filter(pl.col("_file").is_in(good))
    games = games.filter(pl.col("_file").is_in(good))
    ratings = ratings.filter(pl.col("_file").is_in(good))
    published = published.filter(pl.col("_file").is_in(good))

    tables = _assemble(results, games, ratings, calendar)
    tables["published_series"] = _published(published, ratings)
    for plugin in plugins():
        frame = extra[plugin.kind.name].filter(pl.col("_file").is_in(good))
        tables[plugin.table] = plugin.rows(frame)
    noted = {
        path: "\n".join(str(ExportError(where, message)) for where, message in group)
        for path, group in _grouped(notes.select("_file", "_where", "message").rows())
    }
    log = _log(paths, files, parsed, rejected, noted, results, companions, calendar)
    return IngestResult(tables=tables, log=log, rejected=rejected)


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


def _assemble(
    results: pl.DataFrame,
    games: pl.DataFrame,
    ratings: pl.DataFrame,
    calendar: SeasonCalendar,
) -> dict[str, pl.DataFrame]:
    tournaments = ordered_events(
        results.sort(["_file", "_row"])
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
    order = tournaments.select("tournament_id", pl.int_range(pl.len()).alias("_order"))
    results_out = (
        results.join(order, on="tournament_id")
        .sort(["_order", "rank", "player_id"])
        .select(RESULTS_TABLE.column_names)
    )
    games_out = (
        games.join(order, on="tournament_id")
        .sort(["_order", "round", "player_id"])
        .select(GAMES_TABLE.column_names)
    )
    ratings_out = ratings.sort(["as_of", "player_id", "_file"]).select(
        *RATING_LIST.columns, pl.col("_file").alias("source_file")
    )
    players = _players(results, tournaments, ratings_out)
    return {
        "tournaments": TOURNAMENTS.check(tournaments),
        "results": RESULTS_TABLE.check(results_out),
        "games": GAMES_TABLE.check(games_out),
        "rating_lists": RATING_LISTS.check(ratings_out),
        "players": PLAYERS.check(players),
    }


def _players(
    results: pl.DataFrame, tournaments: pl.DataFrame, ratings: pl.DataFrame
) -> pl.DataFrame:
    """One row per player: the latest details written by organisers, and their activity."""
    dated = results.join(
        tournaments.select("tournament_id", "start_date", "end_date"), on="tournament_id"
    ).pipe(ordered_events)
    latest = [
        pl.col(c).drop_nulls().last().alias(c)
        for c in ("last_name", "first_name", "federation", "club", "birth_year", "series")
    ]
    from_results = dated.group_by("player_id").agg(
        *latest,
        pl.col("end_date").min().alias("first_tournament_date"),
        pl.col("end_date").max().alias("last_tournament_date"),
        pl.len().cast(pl.Int64).alias("tournaments"),
    )
    # known only from a rating list: the names of their latest list that gives them
    only_listed = (
        ratings.sort("as_of")
        .group_by("player_id")
        .agg(pl.col("last_name", "first_name").drop_nulls().last())
        .join(from_results.select("player_id"), on="player_id", how="anti")
    )
    return (
        pl.concat([from_results, only_listed], how="diagonal_relaxed")
        .with_columns(pl.col("tournaments").fill_null(0))
        .sort("player_id")
        .select(PLAYERS.column_names)
    )


def _log(
    paths: list[str],
    files: Mapping[str, bytes],
    parsed: Mapping[str, Mapping[str, RawTable]],
    rejected: Mapping[str, str],
    noted: Mapping[str, str],
    results: pl.DataFrame,
    companions: Mapping[str, bytes],
    calendar: SeasonCalendar,
) -> pl.DataFrame:
    tournaments_per_file = dict(
        results.group_by("_file").agg(pl.col("tournament_id").n_unique()).iter_rows()
    )
    rows = []
    for path in paths:
        frames = parsed.get(path, {})
        kinds = "companion" if path in companions else "+".join(sorted(frames)) or None
        rows.append(
            {
                "path": path,
                "sha256": sha256(files[path]) if path in files else None,
                "kinds": kinds,
                "status": "rejected" if path in rejected else "ingested",
                "rows": sum(len(t) for t in frames.values()),
                "tournaments": 0 if path in rejected else int(tournaments_per_file.get(path, 0)),
                "message": rejected.get(path, noted.get(path)),
                "season": export_season(path, files.get(path), calendar),
            }
        )
    return pl.DataFrame(rows, schema=INGEST_LOG.schema)


# Base tables dated by a date column of their own (the others by their tournament).
_DATED_BY = {"rating_lists": "as_of", "published_series": "as_of"}
_NOT_INPUTS = frozenset({"ingest_log", "players", "season_fingerprints", "year_fingerprints"})


def _fingerprints(
    tables: Mapping[str, pl.DataFrame],
    key_of: Callable[[pl.Expr], pl.Expr],
    schema: pl.Schema,
) -> pl.DataFrame:
    """A hash per partition (`key_of` maps a date column to the partition key) of every input
    its computations may read: its tournaments with their rows in every table keyed by
    `tournament_id`, and the rows of the tables dated in it (`_DATED_BY`, each kind's
    `dated_by`), chained with the previous partition's hash — so a change in a partition
    changes its fingerprint and every later one, never an earlier one. Rows dated before
    the first partition, and tables with neither tournament nor date, start the chain."""
    tournaments = tables["tournaments"].with_columns(key_of(pl.col("end_date")).alias("_key"))
    keys = sorted(tournaments["_key"].drop_nulls().unique().to_list())
    dated_by = _DATED_BY | {p.table: p.dated_by for p in plugins() if p.dated_by}
    keyed: dict[str, pl.DataFrame] = {}
    undated: list[pl.DataFrame] = []
    for name in sorted(set(tables) - _NOT_INPUTS):
        frame = tables[name]
        if name == "tournaments":
            keyed[name] = tournaments
        elif "tournament_id" in frame.columns:
            keyed[name] = frame.join(
                tournaments.select("tournament_id", "_key"), on="tournament_id", how="left"
            )
        elif name in dated_by:
            keyed[name] = frame.with_columns(
                key_of(pl.col(dated_by[name]).cast(pl.Date)).alias("_key")
            )
        else:
            undated.append(frame)
    first = keys[0] if keys else ""
    digest = hashlib.sha256()
    for frame in undated:
        digest.update(frame.write_csv().encode())
    for frame in keyed.values():
        digest.update(frame.filter(pl.col("_key") < first).write_csv().encode())
    chain = digest.hexdigest()
    rows = []
    for key in keys:
        digest = hashlib.sha256(chain.encode())
        for frame in keyed.values():
            digest.update(frame.filter(pl.col("_key") == key).write_csv().encode())
        chain = digest.hexdigest()
        rows.append((key, chain))
    return pl.DataFrame(rows, schema=schema, orient="row")


def season_fingerprints(
    tables: Mapping[str, pl.DataFrame], calendar: SeasonCalendar
) -> pl.DataFrame:
    """`season, fingerprint` of every season holding a tournament (`_fingerprints`)."""
    return _fingerprints(tables, calendar.season_expr, SEASON_FINGERPRINTS.schema)


def year_fingerprints(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """`year, fingerprint` of every calendar year holding a tournament (the regional
    circuits' partitions, `_fingerprints`)."""
    return _fingerprints(
        tables, lambda date: date.dt.year().cast(pl.String), YEAR_FINGERPRINTS.schema
    )
