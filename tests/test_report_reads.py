"""A season's report reads its season's rows only (`ReportData.for_season`,
`season_results`, one season's histories, the season's rating lists): the same rows, in the
same order, as the whole table filtered."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import duckdb
import polars as pl
import pytest

from pipelines.reference.bundle import Parameters, load_parameters
from pipelines.reports.data import ReportData
from pipelines.warehouse import Warehouse
from transforms.tables import TableSchemaError, table

SEASONS = ("2023-2024", "2024-2025")


@pytest.fixture(scope="module")
def params() -> Parameters:
    return load_parameters()


def _warehouse(path: Path) -> Warehouse:
    """Two seasons, their rows interleaved: tournaments, results, cote history and ranking,
    rating lists."""
    events = table("tournaments").complete(
        pl.DataFrame(
            {
                "tournament_id": ["T1", "T2", "T3", "T4"],
                "season": [SEASONS[0], SEASONS[1], SEASONS[0], SEASONS[1]],
                "end_date": [
                    dt.date(2023, 10, 1),
                    dt.date(2024, 10, 1),
                    dt.date(2024, 3, 1),
                    dt.date(2025, 2, 1),
                ],
                "discipline": ["classique"] * 4,
            }
        )
    )
    ids = [f"P{i}" for i in range(6)]
    results = table("results").complete(
        pl.DataFrame(
            {
                "tournament_id": [t for t in ("T2", "T1", "T4", "T3") for _ in ids],
                "player_id": [p for _ in range(4) for p in reversed(ids)],
            }
        )
    )
    history = table("cote_history").complete(
        pl.DataFrame(
            {
                "season": [SEASONS[0], SEASONS[1], SEASONS[0], SEASONS[1]] * 2,
                "tournament_id": ["T3", "T4", "T1", "T2"] * 2,
                "player_id": ["P2"] * 4 + ["P1"] * 4,
                "cote_after": list(range(8)),
            }
        )
    )
    ranking = table("cote_ranking").complete(
        pl.DataFrame(
            {
                "season": [SEASONS[i % 2] for i in range(6)],
                "player_id": ["P5", "P0", "P3", "P4", "P1", "P2"],
                "rank": [3, 1, 2, 2, 1, 3],
            }
        )
    )
    lists = table("rating_lists").complete(
        pl.DataFrame(
            {
                "as_of": [dt.date(2024, 8, 1), dt.date(2025, 8, 15), None],
                "player_id": ["P0", "P1", "P2"],
            }
        )
    )
    wh = Warehouse(path)
    wh.replace_tables(
        {
            "tournaments": events,
            "results": results,
            "cote_history": history,
            "cote_ranking": ranking,
            "rating_lists": lists,
        }
    )
    return wh


def test_a_season_read_alone_is_the_whole_table_filtered(
    tmp_path: Path, params: Parameters
) -> None:
    wh = _warehouse(tmp_path / "w.duckdb")
    with wh.held():
        _compare(wh, params)


def _compare(wh: Warehouse, params: Parameters) -> None:
    for season in SEASONS:
        alone, whole = ReportData(wh, params), ReportData(wh, params)
        whole.table("cote_ranking")
        whole.table("results")
        whole.table("rating_lists")
        assert alone.for_season("cote_ranking", season).equals(
            whole.for_season("cote_ranking", season)
        )
        assert alone.for_season("cote_ranking", season)["player_id"].to_list() == (
            ["P5", "P3", "P1"] if season == SEASONS[0] else ["P0", "P4", "P2"]
        )
        assert "cote_ranking" not in alone._cache  # the whole table was never read
        mine = alone.season_results(season).sort("tournament_id", "player_id")
        assert mine.equals(whole.season_results(season).sort("tournament_id", "player_id"))
        assert mine.height == 12 and "results" not in alone._cache
        pair = ["player_id", "tournament_id"]
        narrow = alone.season_results(season, pair).sort("tournament_id", "player_id")
        assert narrow.equals(mine.select(pair))  # two columns read alone, the same rows
        assert narrow.equals(whole.season_results(season, pair).sort("tournament_id", "player_id"))
        assert alone.cote_history(season).equals(
            whole.cote_history().filter(pl.col("season") == season)
        )
        assert alone.cote_history(season)["cote_after"].to_list() == (
            [6, 2, 4, 0] if season == SEASONS[0] else [7, 3, 5, 1]
        )
        assert alone.as_of(season) == whole.as_of(season)
        assert alone.as_of(season) == (
            dt.date(2024, 8, 1) if season == SEASONS[0] else dt.date(2025, 8, 15)
        )
    assert ReportData(wh, params).as_of() == dt.date(2025, 8, 15)
    data = ReportData(wh, params)
    assert data.names() is data.names()  # built once per report
    # absent from the warehouse: the declared empty frame
    assert ReportData(wh, params).for_season("series_bars", SEASONS[0]).schema == (
        table("series_bars").schema
    )


@pytest.mark.parametrize(
    ("table_name", "column", "read"),
    [
        ("cote_ranking", "rank", lambda data: data.for_season("cote_ranking", SEASONS[0])),
        (
            "results",
            "player_id",
            lambda data: data.season_results(SEASONS[0], ["tournament_id", "player_id"]),
        ),
    ],
    ids=["for_season", "season_results"],
)
def test_a_season_read_alone_is_checked_against_its_declaration(
    tmp_path: Path,
    params: Parameters,
    table_name: str,
    column: str,
    read: Callable[[ReportData], object],
) -> None:
    """A season's rows read alone (a whole table's, or the results' columns a section
    counts) are checked against the table's declaration: a renamed column is named."""
    wh = _warehouse(tmp_path / "w.duckdb")
    with wh.connect() as con:
        con.execute(f'ALTER TABLE {table_name} RENAME COLUMN "{column}" TO renamed')
    with pytest.raises(TableSchemaError, match=rf"missing column.*{column}"):
        read(ReportData(wh, params))


def test_a_reading_block_opens_the_file_once_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Warehouse.reading` (a what-if, a backtest): every read of the block goes through one
    read-only connection, the same rows as reads that open the file each; a write fails."""
    wh = _warehouse(tmp_path / "w.duckdb")
    alone = {name: wh.table(name) for name in wh.tables()}
    before = (tmp_path / "w.duckdb").read_bytes()
    opened: list[bool] = []
    connect = duckdb.connect

    def counted(path: str, read_only: bool = False) -> duckdb.DuckDBPyConnection:
        opened.append(read_only)
        return connect(path, read_only=read_only)

    monkeypatch.setattr("pipelines.warehouse.duckdb.connect", counted)
    with wh.reading():
        read = {name: wh.table(name) for name in wh.tables()}
        assert wh.read_if("results", "SELECT count(*) AS n FROM results")["n"][0] == 24
        with pytest.raises(duckdb.Error):
            wh.replace_tables({"rating_lists": alone["rating_lists"].head(1)})
    assert opened == [True]
    assert set(read) == set(alone) and all(read[n].equals(alone[n]) for n in alone)
    assert (tmp_path / "w.duckdb").read_bytes() == before
