"""The checks of the circuit calendars, and of the results' `circuit` column against them (a
circuit name the table does not know, a tournament of the PACA ranking that its calendar
does not hold, a held edition whose results do not name its circuit).
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from pipelines.ingest.errors import ERROR_SCHEMA, CheckKind, error_rows
from pipelines.ingest.kinds import SENT_RESULTS
from pipelines.ingest.kinds.circuits.common import (
    _ORDER,
    _de,
    _later_duplicates,
    _Reference,
    _reference,
    _unknown_circuit_errors,
    _without_files,
)
from pipelines.ingest.kinds.circuits.tournaments import _tournaments
from pipelines.reference.bundle import Parameters
from transforms.circuits import (
    CANCELLED,
    HELD,
    STATUSES,
    circuit_codes_expr,
)


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
        error_rows(
            rows,
            pl.col("announced_on") > pl.col("date"),
            "announced_on",
            pl.format(
                "annoncée le {}, après la date de l'édition ({}) : une édition est annoncée "
                "au plus tard le jour où elle a lieu",
                pl.col("announced_on"),
                pl.col("date"),
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
    errors.append(_without_results_errors(held, accepted.get(SENT_RESULTS, results)))
    errors.append(_results_circuit_errors(results, held, tournaments, ref))
    return pl.concat(errors, how="vertical_relaxed").cast(pl.Schema(ERROR_SCHEMA))


def _without_results_errors(held: pl.DataFrame, sent: pl.DataFrame) -> pl.DataFrame:
    """A held edition whose tournament no results file gives (accepted or not), unless it is
    dated before the first tournament with results of the circuit's held editions (the
    editions before the data starts, docs/exports.md)."""
    read = (
        sent.drop_nulls("tournament_id")
        .group_by("tournament_id")
        .agg(pl.col("end_date").max().alias("_end"))
        .with_columns(_sent=pl.lit(True))
    )
    marked = (
        held.drop_nulls(["_code", "date"])
        .join(read, on="tournament_id", how="left")
        .with_columns(pl.col("_sent").fill_null(False))
        .with_columns(_start=pl.col("_end").min().over("_code"))
    )
    return error_rows(
        marked,
        ~pl.col("_sent") & (pl.col("date") >= pl.col("_start")),
        "tournament_id",
        pl.format(
            "l'édition jouée (held) {} {} du circuit {} donne le tournoi {}, qu'aucun fichier "
            "de résultats ne contient : envoyez ses résultats, ou écrivez l'édition annoncée "
            "(announced) ou annulée (cancelled) ; seules les éditions jouées avant le premier "
            "tournoi du circuit dans les données ({}) peuvent être sans résultats",
            pl.col("year"),
            _de("event_key"),
            pl.col("_code"),
            pl.col("tournament_id"),
            pl.col("_start"),
        ),
        kind=CheckKind.FILES,
    )


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


def calendar_rows(typed: pl.DataFrame) -> pl.DataFrame:
    """The accepted calendar rows, statuses in lower case, in file and row order."""
    from transforms.tables import table

    return table("circuit_calendar").conform(
        typed.sort(_ORDER).with_columns(
            pl.col("status").str.to_lowercase(), pl.col("_file").alias("source_file")
        )
    )
