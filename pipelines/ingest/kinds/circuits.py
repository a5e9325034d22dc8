"""The regional circuits' own exports (docs/exports.md « Regional circuits »; docs/rules.md §5).

Three kinds, each rejected whole (with a French message naming file, row and column) when
one of its rows is wrong:

- **circuit calendar** (`circuit_calendar`): every edition of each recurring tournament of
  a circuit — `circuit, event_key, year, date, status` and optionally `announced_on`,
  `tournament_id` (a held edition's tournament);
- **circuit ranking** (`published_circuit_rankings`): a circuit's ranking as published —
  `circuit, as_of, player_id, place` and optionally `points`;
- **matches** (`matches`): the matches of a round-robin final, one row per player per
  match — `tournament_id, round, table, player_id, opponent_id, player_moves,
  opponent_moves` and optionally `player_top_moves`, `player_points_scored`.

Circuit names are read through `data/reference/circuits.csv` (an alias table). The checks
of the results' `circuit` column live here too (in `calendar_checks`, which sees every
accepted kind): a circuit name the table does not know, a tournament of the PACA ranking
that its calendar does not hold, a held edition whose results do not name its circuit,
each reject the results file. The checks read the project's reference data
(`data/reference/`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import polars as pl

from pipelines.ingest.errors import ERROR_SCHEMA, CheckKind, empty_errors, error_rows, errors_at
from pipelines.ingest.kinds import KindPlugin
from pipelines.ingest.schema import Kind
from pipelines.ingest.validate import tournament_owner_errors
from pipelines.reference.bundle import Parameters
from pipelines.reference.circuits import load_circuit_codes
from transforms.circuits import (
    CALENDAR_COLUMNS,
    CANCELLED,
    HELD,
    LIST_SEPARATOR,
    STATUSES,
    circuit_codes_expr,
    unknown_circuits_expr,
)
from transforms.federations import AliasTable
from transforms.round_robin.grand_est import championship_year
from transforms.round_robin.matches import MATCH_COLUMNS, OPTIONAL_MATCH_COLUMNS, matches_errors
from transforms.tables import table

_STR = pl.String()
_INT = pl.Int64()
_DATE = pl.Date()

# Each kind's columns and types are its table's (`transforms.tables`); the kind says which
# of them a file may leave out.
_CALENDAR_OPTIONAL = ("announced_on", "tournament_id")
_RANKING_OPTIONAL = ("points",)
_RANKING_COLUMNS = table("published_circuit_rankings").export_schema

CIRCUIT_CALENDAR = Kind(
    name="circuit_calendar",
    label="calendrier de circuit",
    required=tuple(c for c in CALENDAR_COLUMNS if c not in _CALENDAR_OPTIONAL),
    optional=_CALENDAR_OPTIONAL,
    dtypes=table("circuit_calendar").export_schema,
    signature=frozenset({"circuit", "event_key", "year", "announced_on", "status"}),
    aliases={
        "tournoi_recurrent": "event_key",
        "evenement": "event_key",
        "annee": "year",
        "date_edition": "date",
        "annonce_le": "announced_on",
        "date_annonce": "announced_on",
        "statut": "status",
        "id_tournoi": "tournament_id",
        "code_tournoi": "tournament_id",
    },
)

CIRCUIT_RANKING = Kind(
    name="circuit_ranking",
    label="classement de circuit",
    required=tuple(c for c in _RANKING_COLUMNS if c not in _RANKING_OPTIONAL),
    optional=_RANKING_OPTIONAL,
    dtypes=_RANKING_COLUMNS,
    signature=frozenset({"circuit", "place", "points"}),
    aliases={
        "date_classement": "as_of",
        "au": "as_of",
        "licence": "player_id",
        "no_licence": "player_id",
        "numero_licence": "player_id",
        "rang": "place",
        "classement": "place",
    },
)

MATCHES = Kind(
    name="matches",
    label="matchs",
    required=MATCH_COLUMNS,
    optional=OPTIONAL_MATCH_COLUMNS,
    dtypes=table("matches").export_schema,
    signature=frozenset({"round", "table", "opponent_id", "player_moves", "opponent_moves"}),
    aliases={
        "id_tournoi": "tournament_id",
        "code_tournoi": "tournament_id",
        "ronde": "round",
        "match": "round",
        "licence": "player_id",
        "adversaire": "opponent_id",
        "licence_adversaire": "opponent_id",
        "coups_joueur": "player_moves",
        "coups_adversaire": "opponent_moves",
        "coups_au_top": "player_top_moves",
        "points_marques": "player_points_scored",
    },
)


@dataclass(frozen=True)
class _Reference:
    names: AliasTable
    calendar_circuits: tuple[str, ...]  # circuits ranked from a calendar (PACA)
    masters: str
    grand_est: str
    players: Mapping[str, int]  # participants of a final, by circuit
    final_categories: tuple[str, ...]


@lru_cache(maxsize=4)
def _reference(params: Parameters) -> _Reference:
    """The reference data the checks read, once per parameters bundle."""
    paca, masters, grand_est = params.paca, params.masters, params.grand_est
    names = load_circuit_codes(params.folder, paca.circuit, masters.circuit, grand_est.circuit)
    return _Reference(
        names=names,
        calendar_circuits=(paca.circuit,),
        masters=masters.circuit,
        grand_est=grand_est.circuit,
        players={masters.circuit: masters.players, grand_est.circuit: grand_est.players},
        final_categories=params.final_categories,
    )


_META = ["_file", "_where", "_row"]
_ORDER = ["_file", "_row"]


def _unknown_circuit_errors(frame: pl.DataFrame, ref: _Reference) -> pl.DataFrame:
    unknown = unknown_circuits_expr("circuit", ref.names)
    known = ", ".join(f"{code} ({ref.names.name(code)})" for code in ref.names.codes)
    return error_rows(
        frame,
        unknown.is_not_null(),
        "circuit",
        pl.format(
            "circuit inconnu : « {} » ; écrivez un circuit de data/reference/circuits.csv "
            "({}), plusieurs séparés par « ; »",
            unknown,
            pl.lit(known),
        ),
        kind=CheckKind.VALUE,
    )


def _without_files(frame: pl.DataFrame, errors: list[pl.DataFrame]) -> pl.DataFrame:
    """`frame` without the rows of the files `errors` already reject: checks across rows
    and files compare only files that are right on their own."""
    bad = pl.concat(errors, how="vertical_relaxed")["_file"].unique()
    return frame.filter(~pl.col("_file").is_in(bad.implode()))


def _de(column: str) -> pl.Expr:
    """« de » before a name, elided before a vowel (« d'Orange », « de Menton »)."""
    return (
        pl.when(pl.col(column).str.contains(r"^[AEIOUYÉÈÊÂÎÔaeiouyéèêâîô]"))
        .then(pl.format("d'{}", pl.col(column)))
        .otherwise(pl.format("de {}", pl.col(column)))
    )


def _later_duplicates(
    frame: pl.DataFrame, keys: list[str], column: str, message: pl.Expr
) -> pl.DataFrame:
    """Error rows of every row but the first (by file, then row) of each group of `keys`;
    `message` may use `_first_where` and `_first_row` (the first row of the group)."""
    ordered = frame.drop_nulls(keys).sort(_ORDER)
    return error_rows(
        ordered.with_columns(
            _first_where=pl.col("_where").first().over(keys),
            _first_row=pl.col("_row").first().over(keys),
            _n=pl.int_range(pl.len()).over(keys),
        ),
        pl.col("_n") > 0,
        column,
        message,
        kind=CheckKind.ROWS,
    )


# ---------------------------------------------------------------------------- tournaments


def _tournaments(results: pl.DataFrame, ref: _Reference) -> pl.DataFrame:
    """One row per accepted tournament: its file and first row, circuit codes (a list),
    category, dates, participants and whether it is a round-robin final (`rules`: the
    final's circuit code, else null)."""
    if results.height == 0:
        return pl.DataFrame(
            schema={
                "tournament_id": _STR,
                "_t_file": _STR,
                "_t_where": _STR,
                "_t_row": _INT,
                "codes": pl.List(_STR),
                "category": _STR,
                "start": _DATE,
                "end_date": _DATE,
                "participants": _INT,
                "rules": _STR,
            }
        )
    frame = (
        results.filter(pl.col("tournament_id").is_not_null())
        .sort(_ORDER)
        .group_by("tournament_id", maintain_order=True)
        .agg(
            pl.col("_file").first().alias("_t_file"),
            pl.col("_where").first().alias("_t_where"),
            pl.col("_row").first().alias("_t_row"),
            pl.col("circuit").drop_nulls().first(),
            pl.col("category").drop_nulls().first().str.to_lowercase(),
            pl.coalesce(pl.col("start_date"), pl.col("end_date"))
            .drop_nulls()
            .first()
            .alias("start"),
            pl.col("end_date").drop_nulls().first(),
            pl.col("player_id").n_unique().cast(pl.Int64).alias("participants"),
        )
        .with_columns(
            codes=circuit_codes_expr("circuit", ref.names)
            .str.split(LIST_SEPARATOR)
            .fill_null(pl.lit([], dtype=pl.List(_STR)))
        )
    )
    final = pl.col("category").is_in(list(ref.final_categories)).fill_null(False)
    rules = (
        pl.when(final & pl.col("codes").list.contains(ref.masters))
        .then(pl.lit(ref.masters))
        .when(final & pl.col("codes").list.contains(ref.grand_est))
        .then(pl.lit(ref.grand_est))
    )
    return frame.with_columns(rules.alias("rules")).drop("circuit")


# ---------------------------------------------------------------------------- calendar


def calendar_checks(
    typed: pl.DataFrame, accepted: Mapping[str, pl.DataFrame], params: Parameters
) -> pl.DataFrame:
    """The circuit calendars' rows, and the results' `circuit` column against them."""
    ref = _reference(params)
    status = pl.col("status").str.to_lowercase()
    rows = typed.with_columns(_code=circuit_codes_expr("circuit", ref.names), _status=status)
    errors = [
        _unknown_circuit_errors(rows, ref),
        error_rows(
            rows,
            pl.col("status").is_not_null() & ~status.is_in(list(STATUSES)),
            "status",
            pl.format(
                "« {} » n'est pas un statut d'édition : écrivez held (jouée), announced "
                "(annoncée) ou cancelled (annulée)",
                pl.col("status"),
            ),
            kind=CheckKind.VALUE,
        ),
        error_rows(
            rows,
            (status == HELD) & pl.col("tournament_id").is_null(),
            "tournament_id",
            pl.lit("une édition jouée (held) doit donner son tournoi (tournament_id)"),
            kind=CheckKind.VALUE,
        ),
        error_rows(
            rows,
            pl.col("date").dt.year() != pl.col("year"),
            "date",
            pl.format(
                "la date {} n'est pas dans l'année {} de l'édition", pl.col("date"), pl.col("year")
            ),
            kind=CheckKind.VALUE,
        ),
    ]
    rows = _without_files(rows, errors)
    errors += [
        _later_duplicates(
            rows.filter(pl.col("_status").is_in(list(STATUSES))),
            ["_code", "event_key", "year", "_status"],
            "status",
            pl.format(
                "l'édition {} {} du circuit {} figure déjà avec le statut {} ({}, ligne {}) : "
                "une édition a au plus une ligne par statut",
                pl.col("year"),
                _de("event_key"),
                pl.col("_code"),
                pl.col("_status"),
                pl.col("_first_where"),
                pl.col("_first_row"),
            ),
        ),
        _held_and_cancelled(rows),
        _later_duplicates(
            rows.filter(pl.col("_status") == HELD),
            ["_code", "tournament_id"],
            "tournament_id",
            pl.format(
                "le tournoi {} est déjà une édition jouée du circuit {} ({}, ligne {})",
                pl.col("tournament_id"),
                pl.col("_code"),
                pl.col("_first_where"),
                pl.col("_first_row"),
            ),
        ),
    ]
    results = accepted["results"]
    tournaments = _tournaments(results, ref)
    held = rows.filter((pl.col("_status") == HELD) & pl.col("tournament_id").is_not_null())
    with_results = held.join(tournaments, on="tournament_id", how="inner")
    errors.append(
        error_rows(
            with_results,
            pl.col("end_date").dt.year() != pl.col("year"),
            "year",
            pl.format(
                "le tournoi {} finit le {}, pas en {} (l'année de l'édition) : l'année d'une "
                "édition est celle de la fin de son tournoi",
                pl.col("tournament_id"),
                pl.col("end_date"),
                pl.col("year"),
            ),
            kind=CheckKind.EVENT,
        )
    )
    errors.append(_results_circuit_errors(results, held, tournaments, ref))
    return pl.concat(errors, how="vertical_relaxed").cast(pl.Schema(ERROR_SCHEMA))


def _held_and_cancelled(rows: pl.DataFrame) -> pl.DataFrame:
    keys = ["_code", "event_key", "year"]
    final = rows.filter(pl.col("_status").is_in([HELD, CANCELLED])).drop_nulls(keys).sort(_ORDER)
    marked = final.with_columns(
        _first_status=pl.col("_status").first().over(keys),
        _first_where=pl.col("_where").first().over(keys),
        _first_row=pl.col("_row").first().over(keys),
    )
    return error_rows(
        marked,
        pl.col("_status") != pl.col("_first_status"),
        "status",
        pl.format(
            "l'édition {} {} du circuit {} est déjà {} ({}, ligne {}) : elle ne peut pas être "
            "à la fois jouée et annulée",
            pl.col("year"),
            _de("event_key"),
            pl.col("_code"),
            pl.when(pl.col("_first_status") == HELD)
            .then(pl.lit("jouée (held)"))
            .otherwise(pl.lit("annulée (cancelled)")),
            pl.col("_first_where"),
            pl.col("_first_row"),
        ),
        kind=CheckKind.ROWS,
    )


def _results_circuit_errors(
    results: pl.DataFrame, held: pl.DataFrame, tournaments: pl.DataFrame, ref: _Reference
) -> pl.DataFrame:
    """Results naming an unknown circuit; a tournament of a calendar-ranked circuit (PACA)
    that no calendar holds; a held edition whose results do not name its circuit."""
    errors = [_unknown_circuit_errors(results, ref)]
    first = tournaments.select(
        "tournament_id",
        "codes",
        pl.col("_t_file").alias("_file"),
        pl.col("_t_where").alias("_where"),
        pl.col("_t_row").alias("_row"),
    )
    for circuit in ref.calendar_circuits:
        in_calendar = held.filter(pl.col("_code") == circuit).select(
            "tournament_id",
            pl.col("_where").alias("_c_where"),
            pl.col("_row").alias("_c_row"),
            "event_key",
            "year",
        )
        flagged = first.filter(pl.col("codes").list.contains(circuit))
        errors.append(
            error_rows(
                flagged.join(in_calendar, on="tournament_id", how="anti"),
                pl.lit(True),
                "circuit",
                pl.format(
                    "le tournoi {} est rattaché au circuit {}, mais aucun calendrier de ce "
                    "circuit ne le donne comme édition jouée (held) : ajoutez-le au calendrier "
                    "du circuit (docs/exports.md)",
                    pl.col("tournament_id"),
                    pl.lit(circuit),
                ),
                kind=CheckKind.EVENT,
            )
        )
    listed = held.select(
        "tournament_id",
        "_code",
        pl.col("_where").alias("_c_where"),
        pl.col("_row").alias("_c_row"),
        "event_key",
        "year",
    ).drop_nulls("_code")
    unflagged = first.join(listed, on="tournament_id", how="inner").filter(
        ~pl.col("codes").list.contains(pl.col("_code"))
    )
    errors.append(
        error_rows(
            unflagged,
            pl.lit(True),
            "circuit",
            pl.format(
                "le calendrier du circuit {} ({}, ligne {}) donne ce tournoi ({}) comme son "
                "édition {} {} : la colonne « circuit » de ses résultats doit nommer {}",
                pl.col("_code"),
                pl.col("_c_where"),
                pl.col("_c_row"),
                pl.col("tournament_id"),
                pl.col("year"),
                _de("event_key"),
                pl.col("_code"),
            ),
            kind=CheckKind.EVENT,
        )
    )
    return pl.concat(errors, how="vertical_relaxed")


def _calendar_rows(typed: pl.DataFrame) -> pl.DataFrame:
    """The accepted calendar rows, statuses in lower case, in file and row order."""
    from transforms.tables import table

    return table("circuit_calendar").conform(
        typed.sort(_ORDER).with_columns(
            pl.col("status").str.to_lowercase(), pl.col("_file").alias("source_file")
        )
    )


# ---------------------------------------------------------------------------- rankings


def ranking_checks(
    typed: pl.DataFrame, accepted: Mapping[str, pl.DataFrame], params: Parameters
) -> pl.DataFrame:
    """The circuit rankings' rows: a known circuit, places from 1, points not negative, a
    player once per ranking (circuit and date), across files."""
    ref = _reference(params)
    rows = typed.with_columns(_code=circuit_codes_expr("circuit", ref.names))
    errors = [
        _unknown_circuit_errors(rows, ref),
        error_rows(
            rows,
            pl.col("place") < 1,
            "place",
            pl.format("la place {} n'est pas une place (1 ou plus)", pl.col("place")),
            kind=CheckKind.VALUE,
        ),
        error_rows(
            rows,
            pl.col("points") < 0,
            "points",
            pl.format("{} points : un total de points n'est jamais négatif", pl.col("points")),
            kind=CheckKind.VALUE,
        ),
    ]
    errors.append(
        _later_duplicates(
            _without_files(rows, errors),
            ["_code", "as_of", "player_id"],
            "player_id",
            pl.format(
                "le joueur {} figure déjà au classement {} du {} ({}, ligne {}) : un joueur "
                "figure une fois par classement",
                pl.col("player_id"),
                pl.col("_code"),
                pl.col("as_of"),
                pl.col("_first_where"),
                pl.col("_first_row"),
            ),
        )
    )
    return pl.concat(errors, how="vertical_relaxed")


# ---------------------------------------------------------------------------- matches


def matches_checks(
    typed: pl.DataFrame, accepted: Mapping[str, pl.DataFrame], params: Parameters
) -> pl.DataFrame:
    """The matches of round-robin finals: a final's tournament (its results name the
    Masters Grand Sud or the Grand Est and its category is a final's), its players, each
    match from both sides and agreeing with its mirror (`matches_errors`), a single round
    robin of its participants up to the withdrawals of its results, the moves at the top
    of a Grand Est final, and the ranking each final's participants come from."""
    if typed.height == 0:
        return empty_errors()
    ref = _reference(params)
    results = accepted["results"]
    tournaments = _tournaments(results, ref)
    rows = typed.join(
        tournaments.select("tournament_id", "rules", "participants", "start", _known=pl.lit(True)),
        on="tournament_id",
        how="left",
    ).with_columns(pl.col("_known").fill_null(False))
    errors = [tournament_owner_errors(typed, MATCHES.label), _structure_errors(rows, ref)]
    errors.append(
        error_rows(
            rows,
            pl.col("tournament_id").is_not_null() & ~pl.col("_known"),
            "tournament_id",
            pl.format(
                "le tournoi {} n'a pas de résultats (son fichier de résultats manque ou a été "
                "refusé)",
                pl.col("tournament_id"),
            ),
            kind=CheckKind.VALUE,
        )
    )
    first_of_tournament = pl.col("_row") == pl.col("_row").min().over("_file", "tournament_id")
    finals = ", ".join(ref.final_categories)
    errors.append(
        error_rows(
            rows,
            pl.col("_known") & pl.col("rules").is_null() & first_of_tournament,
            "tournament_id",
            pl.format(
                "le tournoi {} n'est pas une finale en toutes rondes : ses résultats doivent "
                "nommer le circuit {} ou {} (colonne circuit) et avoir la catégorie {}",
                pl.col("tournament_id"),
                pl.lit(ref.names.name(ref.masters)),
                pl.lit(ref.names.name(ref.grand_est)),
                pl.lit(finals),
            ),
            kind=CheckKind.VALUE,
        )
    )
    roster = results.select("tournament_id", "player_id").unique()
    for column in ("player_id", "opponent_id"):
        joined = rows.filter(pl.col("_known")).join(
            roster.rename({"player_id": column}).with_columns(_member=pl.lit(True)),
            on=["tournament_id", column],
            how="left",
        )
        errors.append(
            error_rows(
                joined,
                pl.col(column).is_not_null() & pl.col("_member").is_null(),
                column,
                pl.format(
                    "le joueur {} ne figure pas dans les résultats du tournoi {}",
                    pl.col(column),
                    pl.col("tournament_id"),
                ),
                kind=CheckKind.ROWS,
            )
        )
    finals_rows = _without_files(rows, errors).filter(pl.col("rules").is_not_null())
    errors += [
        _final_errors(finals_rows, results, ref),
        _field_errors(finals_rows, results, tournaments, accepted["circuit_ranking"], ref),
    ]
    return pl.concat(errors, how="vertical_relaxed").cast(pl.Schema(ERROR_SCHEMA))


def _structure_errors(rows: pl.DataFrame, ref: _Reference) -> pl.DataFrame:
    """`matches_errors` of every file (moves at the top bounded in a Grand Est final)."""
    found = []
    for duplicate_match in (False, True):
        part = rows.filter((pl.col("rules") == ref.grand_est).fill_null(False) == duplicate_match)
        if part.height == 0:
            continue
        part = part.select(*MATCH_COLUMNS, *MATCHES.optional, *_META)
        errors = matches_errors(part, duplicate_match=duplicate_match)
        found.append(errors_at(errors, part.with_row_index("row"), "row", CheckKind.ROWS))
    return pl.concat(found) if found else empty_errors()


def _final_errors(rows: pl.DataFrame, results: pl.DataFrame, ref: _Reference) -> pl.DataFrame:
    """A final's participants, rounds, withdrawals, complete round robin and, for a Grand
    Est final, moves at the top."""
    if rows.height == 0:
        return empty_errors()
    players = pl.col("rules").replace_strict(ref.players, return_dtype=_INT)
    first_of_file = pl.col("_row") == pl.col("_row").min().over("_file", "tournament_id")
    rounds = pl.col("participants") - 1 + pl.col("participants") % 2
    errors = [
        error_rows(
            rows,
            (pl.col("participants") != players) & first_of_file,
            "tournament_id",
            pl.format(
                "une finale réunit {} joueurs : les résultats du tournoi {} en comptent {}",
                players,
                pl.col("tournament_id"),
                pl.col("participants"),
            ),
            kind=CheckKind.EVENT,
        ),
        error_rows(
            rows,
            pl.col("round") > rounds,
            "round",
            pl.format(
                "la ronde {} n'existe pas : une finale de {} joueurs compte {} rondes",
                pl.col("round"),
                pl.col("participants"),
                rounds,
            ),
            kind=CheckKind.EVENT,
        ),
        error_rows(
            rows.filter(pl.col("rules") == ref.grand_est),
            pl.col("player_top_moves").is_null(),
            "player_top_moves",
            pl.lit(
                "valeur vide : la finale du Grand Est départage d'abord au nombre de coups joués "
                "au top, à donner sur chaque ligne"
            ),
            kind=CheckKind.EVENT,
        ),
    ]
    withdrawn = results.filter(pl.col("withdrawn_after_round").is_not_null()).select(
        "tournament_id", "player_id", pl.col("withdrawn_after_round").alias("_k")
    )
    for column in ("player_id", "opponent_id"):
        marked = rows.join(
            withdrawn.rename({"player_id": column}), on=["tournament_id", column], how="left"
        )
        errors.append(
            error_rows(
                marked,
                pl.col("round") > pl.col("_k"),
                "round",
                pl.format(
                    "{} a abandonné après la ronde {} (colonne withdrawn_after_round de ses "
                    "résultats) mais joue la ronde {}",
                    pl.col(column),
                    pl.col("_k"),
                    pl.col("round"),
                ),
                kind=CheckKind.EVENT,
            )
        )
    files = rows.filter(first_of_file).select(
        *_META, "tournament_id", "participants", rounds.alias("_rounds")
    )
    late = files.join(withdrawn, on="tournament_id", how="inner")
    errors.append(
        error_rows(
            late,
            (pl.col("_k") < 0) | (pl.col("_k") >= pl.col("_rounds")),
            "tournament_id",
            pl.format(
                "abandon de {} après la ronde {} (résultats du tournoi {}) : une finale de {} "
                "joueurs compte {} rondes, l'abandon suit une ronde de 0 à {}",
                pl.col("player_id"),
                pl.col("_k"),
                pl.col("tournament_id"),
                pl.col("participants"),
                pl.col("_rounds"),
                pl.col("_rounds") - 1,
            ),
            kind=CheckKind.EVENT,
        )
    )
    errors.append(_missing_match_errors(rows, results, withdrawn))
    return pl.concat(errors, how="vertical_relaxed")


def _missing_match_errors(
    rows: pl.DataFrame, results: pl.DataFrame, withdrawn: pl.DataFrame
) -> pl.DataFrame:
    """Every two participants still playing meet once: a missing pair is reported on the
    first row of the better-numbered player (by licence) of the pair."""
    finals = rows.select("_file", "tournament_id").unique()
    staying = (
        results.join(finals.select("tournament_id").unique(), on="tournament_id", how="semi")
        .join(withdrawn, on=["tournament_id", "player_id"], how="anti")
        .select("tournament_id", "player_id")
        .unique()
    )
    pairs = (
        finals.join(staying, on="tournament_id")
        .join(staying.rename({"player_id": "opponent_id"}), on="tournament_id", how="inner")
        .filter(pl.col("player_id") < pl.col("opponent_id"))
    )
    played = rows.select("_file", "tournament_id", "player_id", "opponent_id").drop_nulls()
    missing = pairs.join(
        played, on=["_file", "tournament_id", "player_id", "opponent_id"], how="anti"
    )
    firsts = rows.group_by("_file", "tournament_id", "player_id").agg(
        pl.col("_where").first(), pl.col("_row").min()
    )
    fallback = rows.group_by("_file", "tournament_id").agg(
        pl.col("_where").first().alias("_w"), pl.col("_row").min().alias("_r")
    )
    located = (
        missing.join(firsts, on=["_file", "tournament_id", "player_id"], how="left")
        .join(fallback, on=["_file", "tournament_id"], how="left")
        .with_columns(
            pl.coalesce("_where", "_w").alias("_where"), pl.coalesce("_row", "_r").alias("_row")
        )
    )
    return error_rows(
        located,
        pl.lit(True),
        "opponent_id",
        pl.format(
            "il manque le match entre {} et {} : dans une finale en toutes rondes, chaque "
            "participant rencontre une fois chacun des autres (sauf un joueur qui abandonne)",
            pl.col("player_id"),
            pl.col("opponent_id"),
        ),
        kind=CheckKind.FILES,
    )


def _field_errors(
    rows: pl.DataFrame,
    results: pl.DataFrame,
    tournaments: pl.DataFrame,
    rankings: pl.DataFrame,
    ref: _Reference,
) -> pl.DataFrame:
    """The ranking each final's participants come from: the Masters Grand Sud's annual
    ranking (the latest `circuit ranking` of the circuit dated on or before the final's
    first day) lists them; each Grand Est finalist played a qualifier of the championship
    (`transforms.round_robin.championship_year`)."""
    if rows.height == 0:
        return empty_errors()
    firsts = (
        rows.sort(_ORDER)
        .group_by("_file", "tournament_id", "player_id")
        .agg(pl.col("_where").first(), pl.col("_row").first(), pl.col("rules").first())
    )
    participants = results.join(
        rows.select("tournament_id").unique(), on="tournament_id", how="semi"
    ).select("tournament_id", "player_id")
    errors: list[pl.DataFrame] = []
    starts = dict(tournaments.select("tournament_id", "start").iter_rows())

    masters = firsts.filter(pl.col("rules") == ref.masters)
    annual = rankings.with_columns(_code=circuit_codes_expr("circuit", ref.names)).filter(
        pl.col("_code") == ref.masters
    )
    for tid in sorted(masters["tournament_id"].unique().to_list()):
        start: dt.date | None = starts.get(tid)
        mine = masters.filter(pl.col("tournament_id") == tid)
        dated = annual.filter(pl.col("as_of") <= start) if start is not None else annual.clear()
        if dated.height == 0:
            errors.append(
                error_rows(
                    mine.filter(pl.col("_row") == pl.col("_row").min().over("_file")),
                    pl.lit(True),
                    "tournament_id",
                    pl.format(
                        "aucun classement annuel {} (fichier de classement de circuit) daté au "
                        "plus tard du {} : les participants du Masters en viennent",
                        pl.lit(ref.names.name(ref.masters)),
                        pl.lit(str(start)),
                    ),
                    kind=CheckKind.FILES,
                )
            )
            continue
        latest = dated.filter(pl.col("as_of") == dated["as_of"].max())
        ranked = set(latest["player_id"].to_list())
        errors.append(
            error_rows(
                mine.join(
                    participants.filter(pl.col("tournament_id") == tid),
                    on=["tournament_id", "player_id"],
                    how="semi",
                ),
                ~pl.col("player_id").is_in(sorted(ranked)),
                "player_id",
                pl.format(
                    "le joueur {} joue le Masters sans figurer au classement annuel {} du {}",
                    pl.col("player_id"),
                    pl.lit(ref.names.name(ref.masters)),
                    pl.lit(str(latest["as_of"][0])),
                ),
                kind=CheckKind.FILES,
            )
        )

    grand_est = firsts.filter(pl.col("rules") == ref.grand_est)
    if grand_est.height:
        qualifiers = tournaments.filter(
            pl.col("codes").list.contains(ref.grand_est) & pl.col("rules").is_null()
        )
        played = results.join(qualifiers.select("tournament_id"), on="tournament_id").join(
            qualifiers.select("tournament_id", "end_date"), on="tournament_id"
        )
        ends = qualifiers["end_date"].drop_nulls().to_list()
        for tid in sorted(grand_est["tournament_id"].unique().to_list()):
            start = starts.get(tid)
            if start is None:
                continue
            year = championship_year(start, ends)
            qualified = set(
                played.filter(pl.col("end_date").dt.year() == year)["player_id"].to_list()
            )
            errors.append(
                error_rows(
                    grand_est.filter(pl.col("tournament_id") == tid),
                    ~pl.col("player_id").is_in(sorted(qualified)),
                    "player_id",
                    pl.format(
                        "le joueur {} joue la finale du Grand Est sans avoir joué de tournoi "
                        "qualificatif du championnat {}",
                        pl.col("player_id"),
                        pl.lit(year),
                    ),
                    kind=CheckKind.FILES,
                )
            )
    return pl.concat(errors, how="vertical_relaxed") if errors else empty_errors()


PLUGINS = (
    KindPlugin(
        kind=CIRCUIT_CALENDAR,
        table="circuit_calendar",
        checks=calendar_checks,
        assemble=_calendar_rows,
        dated_by="date",
    ),
    KindPlugin(
        kind=CIRCUIT_RANKING,
        table="published_circuit_rankings",
        checks=ranking_checks,
        dated_by="as_of",
    ),
    KindPlugin(kind=MATCHES, table="matches", checks=matches_checks),
)

__all__ = ["CIRCUIT_CALENDAR", "CIRCUIT_RANKING", "MATCHES", "PLUGINS"]
