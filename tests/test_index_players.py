"""The home page's list of players, written column-wise (`index_page._players_table`), is
the markup `html.table` writes row by row: names and clubs with characters to escape,
licences kept or written by `player_filename`, missing and blank federations and clubs."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipelines.reports.data import ReportData
from pipelines.reports.html import link, player_filename, table
from pipelines.reports.index_page import _players_table
from pipelines.reports.layout import PLAYERS_DIR
from pipelines.warehouse import Warehouse

PLAYERS = pl.DataFrame(
    {
        "player_id": ["FRA123", "be.45", ".hidden", "A/B 7", "x" * 300, "Q'9"],
        "name": ["Élise <Durand>", 'Jean "Jo" & Co', None, "O'Neil", "Long", "Ça"],
        "federation": ["FRA", "  ", None, "Belgique", "unknown-fed", "fra"],
        "club": [None, "Club <A&B>", "", "Liège", "x'y", None],
    }
)


def _row_by_row(data: ReportData, players: pl.DataFrame) -> str:
    return table(
        ["Joueur", "Licence", "Fédération", "Club"],
        [
            (
                link(f"{PLAYERS_DIR}/{player_filename(r['player_id'])}", r["name"]),
                r["player_id"],
                data.federation_label(r["federation"]),
                r["club"],
            )
            for r in players.iter_rows(named=True)
        ],
    )


def test_the_players_list_is_the_row_by_row_table(tmp_path: Path) -> None:
    data = ReportData(Warehouse(tmp_path / "w.duckdb"))
    written = _players_table(data, PLAYERS)
    assert written == _row_by_row(data, PLAYERS)
    # the cases are really there: a label looked up, a blank federation shown « — »,
    # a licence written by player_filename, escaped markup
    assert "France (FRA)" in written
    assert "<td>—</td>" in written
    assert player_filename(".hidden") in written
    assert "&lt;Durand&gt;" in written and "Club &lt;A&amp;B&gt;" in written


def test_the_seasons_players_are_counted_as_the_results_frame_counted_them(
    sample_site: Path, tmp_path: Path
) -> None:
    """The home page's players per season, counted in the warehouse
    (`ReportData.season_player_counts`),
    are those of the results joined to their events, a result without licence counting as
    one player (Polars' `n_unique`)."""
    import shutil

    import duckdb

    copy = tmp_path / "w.duckdb"
    shutil.copy2(sample_site / "w.duckdb", copy)
    with duckdb.connect(str(copy)) as connection:
        connection.execute(
            "INSERT INTO results (tournament_id, player_id) "
            "SELECT tournament_id, NULL FROM results ORDER BY rowid LIMIT 2"
        )
    data = ReportData.open(copy)
    events = data.tournaments().select("tournament_id", "season")
    results = data.table("results").join(events, on="tournament_id")
    expected = {
        s: results.filter(pl.col("season") == s)["player_id"].n_unique() for s in data.seasons()
    }
    assert results["player_id"].null_count() == 2
    assert {s: data.season_player_counts().get(s, 0) for s in data.seasons()} == expected
