"""What the circuits' checks share: the reference data they read (circuit codes, the finals'
rules), the unknown-circuit check and a few helpers of the error rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import polars as pl

from pipelines.ingest.errors import CheckKind, error_rows
from pipelines.reference.bundle import Parameters
from pipelines.reference.circuits import load_circuit_codes
from transforms.circuits import unknown_circuits_expr
from transforms.federations import AliasTable


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
