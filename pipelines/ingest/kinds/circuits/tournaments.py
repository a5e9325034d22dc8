"""The accepted tournaments as the circuits' checks see them: dates, circuit codes and
category, from the results.
"""

from __future__ import annotations

import polars as pl

from pipelines.ingest.kinds.circuits.common import _ORDER, _Reference
from pipelines.ingest.kinds.circuits.exports import _DATE, _INT, _STR
from transforms.circuits import (
    LIST_SEPARATOR,
    circuit_codes_expr,
)


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
    used = ["tournament_id", "_where", "circuit", "category", "start_date", "end_date"]
    frame = (
        results.select(*_ORDER, *used, "player_id")  # the columns read: a narrow sort
        .filter(pl.col("tournament_id").is_not_null())
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
