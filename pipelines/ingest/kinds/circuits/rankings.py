"""The checks of the circuits' published rankings."""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from pipelines.ingest.errors import CheckKind, error_rows
from pipelines.ingest.kinds.circuits.common import (
    _later_duplicates,
    _reference,
    _unknown_circuit_errors,
    _without_files,
)
from pipelines.reference.bundle import Parameters
from transforms.circuits import circuit_codes_expr


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
