"""The partitions' fingerprints (issue 25: each row's hash instead of the rows written out
as CSV): a row changed in one season changes that season's fingerprint and every later
one, never an earlier one; the same tables give the same fingerprints; a table whose rows
Polars cannot hash is written out as CSV and still counts."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from pipelines.ingest import batch
from pipelines.ingest.batch import season_fingerprints
from tests.support import PARAMETERS, PLAYERS, ingested, results_csv

DATES = ("2022-01-16", "2023-01-15", "2024-01-14")  # one tournament in each of 3 seasons


def _tables() -> dict[str, pl.DataFrame]:
    files = {f"T{i}.csv": results_csv(f"T{i}", PLAYERS, date=date) for i, date in enumerate(DATES)}
    return ingested(files).tables


def _by_season(tables: dict[str, pl.DataFrame]) -> dict[str, str]:
    frame = season_fingerprints(tables, PARAMETERS.calendar)
    return dict(zip(frame["season"], frame["fingerprint"], strict=True))


def _changed(tables: dict[str, pl.DataFrame], tournament: str) -> dict[str, pl.DataFrame]:
    """`tables` with one result of `tournament` ranked otherwise."""
    results = tables["results"].with_columns(
        pl.when((pl.col("tournament_id") == tournament) & (pl.col("player_id") == "100"))
        .then(pl.col("rank") + 10)
        .otherwise(pl.col("rank"))
        .alias("rank")
    )
    return {**tables, "results": results}


def _check_chain() -> None:
    tables = _tables()
    before = _by_season(tables)
    assert len(before) == 3 and len(set(before.values())) == 3
    assert _by_season(_tables()) == before  # the same tables, the same fingerprints
    after = _by_season(_changed(tables, "T1"))
    first, second, third = sorted(before)
    assert after[first] == before[first]
    assert after[second] != before[second]
    assert after[third] != before[third]


def test_a_changed_row_changes_its_season_and_the_later_ones_only() -> None:
    _check_chain()


def test_rows_polars_cannot_hash_are_written_out_and_still_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hashed = _by_season(_tables())
    monkeypatch.setattr(batch, "_row_hashes", lambda frame: None)
    _check_chain()
    assert _by_season(_tables()).keys() == hashed.keys()
    assert _by_season(_tables()) != hashed  # another recipe, other fingerprints


@pytest.mark.parametrize("hashable", [True, False])
def test_fingerprints_taken_up_from_a_date_equal_those_made_afresh(
    hashable: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From the last build's fingerprints and the date from which the tables changed, the
    seasons before keep theirs and the later ones are made from their own rows (only those
    hashed): the same fingerprints as made afresh, rows hashed or written out as CSV."""
    if not hashable:
        monkeypatch.setattr(batch, "_row_hashes", lambda frame: None)
    tables = _tables()
    changed = _changed(tables, "T2")
    fresh = season_fingerprints(changed, PARAMETERS.calendar)
    previous = [list(row) for row in season_fingerprints(tables, PARAMETERS.calendar).rows()]
    since = batch.Since(previous, dt.date.fromisoformat(DATES[2]))
    taken_up = season_fingerprints(changed, PARAMETERS.calendar, since)
    assert taken_up.equals(fresh)
    assert taken_up.row(0) == tuple(previous[0]) and taken_up.row(2) != tuple(previous[2])
