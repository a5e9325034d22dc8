"""The ingest: every bad-input case is rejected with its exact message, good files load."""

from __future__ import annotations

import io
from pathlib import Path

import polars as pl
import pytest

from pipelines.ingest.batch import ingest_files
from pipelines.ingest.raw import read_raw
from tests.conftest import CALENDAR, PLAYERS, games_csv, results_csv


def _ingest(raw: Path):
    return ingest_files(read_raw(raw), calendar=CALENDAR)


def _status(result) -> dict[str, tuple[str, str | None]]:
    return {r["path"]: (r["status"], r["message"]) for r in result.log.iter_rows(named=True)}


def _assert_good_files_loaded(result) -> None:
    ids = set(result.tables["tournaments"]["tournament_id"].to_list())
    assert {"C1", "D1"} <= ids
    assert result.tables["games"].filter(pl.col("tournament_id") == "C1").height == 4
    assert result.tables["rating_lists"].height == 2


def test_valid_folder_loads_every_table(raw: Path) -> None:
    result = _ingest(raw)
    assert result.rejected == {}
    tournaments = result.tables["tournaments"]
    assert tournaments["tournament_id"].to_list() == ["C1", "D1"]  # event order
    assert tournaments["season"].to_list() == ["2023-2024", "2023-2024"]
    d1 = result.tables["results"].filter(pl.col("tournament_id") == "D1")
    # French headers and Windows-1252 are read: Série, Score, Top, accents.
    assert d1.sort("rank")["series"].to_list() == ["2", "3"]
    assert tournaments.filter(pl.col("tournament_id") == "D1")["top_total"].item() == 1000
    players = result.tables["players"]
    assert players.filter(pl.col("player_id") == "104")["last_name"].item() == "Gérard"
    assert players.filter(pl.col("player_id") == "100")["tournaments"].item() == 2
    assert result.log["status"].to_list() == ["ingested"] * 4


def _reject_one(raw: Path, name: str, content: bytes) -> tuple[str, str | None]:
    (raw / "2023-2024" / name).write_bytes(content)
    result = _ingest(raw)
    _assert_good_files_loaded(result)
    status = _status(result)[f"2023-2024/{name}"]
    assert status[0] == "rejected"
    return status


C2 = [("201", "Petit", "Marc", 1), ("202", "Roux", "Léa", 2)]


def test_wrong_encoding(raw: Path) -> None:
    content = results_csv("C2", C2).encode("utf-16")
    assert _reject_one(raw, "C2.csv", content)[1] == (
        "2023-2024/C2.csv, row 1: the file is not UTF-8 or Windows-1252 text (it looks like "
        "UTF-16): save it again as CSV UTF-8 or CSV (separator ; or ,)"
    )


def test_wrong_separator(raw: Path) -> None:
    content = results_csv("C2", C2).replace(",", "\t").encode()
    assert _reject_one(raw, "C2.csv", content)[1] == (
        "2023-2024/C2.csv, row 1: the header row is separated by tabs: "
        "use ',' or ';' between columns"
    )


def test_missing_required_column(raw: Path) -> None:
    text = results_csv("C2", C2)
    lines = [",".join(line.split(",")[:7] + line.split(",")[8:]) for line in text.splitlines()]
    assert _reject_one(raw, "C2.csv", ("\n".join(lines) + "\n").encode())[1] == (
        "2023-2024/C2.csv, row 1: missing required column 'rank' in this results file's header row"
    )


def test_non_numeric_rank(raw: Path) -> None:
    text = results_csv("C2", C2).replace("Léa,2,", "Léa,deux,")
    assert _reject_one(raw, "C2.csv", text.encode())[1] == (
        "2023-2024/C2.csv, row 3, column 'rank': 'deux' is not a whole number"
    )


def test_duplicate_player_in_one_tournament(raw: Path) -> None:
    text = results_csv("C2", [*C2, ("201", "Petit", "Marc", 3)])
    assert _reject_one(raw, "C2.csv", text.encode())[1] == (
        "2023-2024/C2.csv, row 4, column 'player_id': player 201 appears twice in tournament "
        "C2 (rows 2 and 4)"
    )


def test_game_with_a_player_not_in_the_tournament(raw: Path) -> None:
    (raw / "2023-2024" / "C2.csv").write_text(results_csv("C2", C2), encoding="utf-8")
    games = games_csv("C2", [(1, "201", "202", 400, 300), (2, "201", "999", 380, 350)])
    status = _reject_one(raw, "C2_games.csv", games.encode())
    assert status[1] == (
        "2023-2024/C2_games.csv, row 3, column 'opponent_id': player 999 is not in the results "
        "of tournament C2"
    )


def test_games_of_an_unknown_tournament(raw: Path) -> None:
    games = games_csv("C9", [(1, "201", "202", 400, 300)])
    assert _reject_one(raw, "C9_games.csv", games.encode())[1] == (
        "2023-2024/C9_games.csv, row 2, column 'tournament_id': tournament C9 has no results "
        "(its results file is missing or was rejected)"
    )


def test_tournament_id_in_two_files(raw: Path) -> None:
    text = results_csv("C1", PLAYERS)
    assert _reject_one(raw, "C1_corrige.csv", text.encode())[1] == (
        "2023-2024/C1_corrige.csv, row 2, column 'tournament_id': tournament C1 already has its "
        "results in 2023-2024/C1.csv: a tournament must be in exactly one file (to correct it, "
        "replace that file)"
    )


def test_empty_file(raw: Path) -> None:
    assert _reject_one(raw, "C2.csv", b"")[1] == "2023-2024/C2.csv: the file is empty"
    assert _reject_one(raw, "C3.csv", b"\n \n")[1] == "2023-2024/C3.csv: the file is empty"


def test_header_only_file(raw: Path) -> None:
    text = results_csv("C2", [])
    assert _reject_one(raw, "C2.csv", text.encode())[1] == (
        "2023-2024/C2.csv, row 1: the file has a header row but no data rows"
    )


def test_truncated_file(raw: Path) -> None:
    text = results_csv("C2", C2)
    cut = text[: text.rindex("Roux") + 4]  # the last row stops mid-way
    assert _reject_one(raw, "C2.csv", cut.encode())[1] == (
        "2023-2024/C2.csv, row 3: 6 fields where the header has 10 (truncated file?)"
    )


def test_truncated_workbook(raw: Path) -> None:
    import xlsxwriter

    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    sheet = book.add_worksheet("results")
    for r, line in enumerate(results_csv("C2", C2).splitlines()):
        sheet.write_row(r, 0, line.split(","))
    book.close()
    data = buffer.getvalue()
    status = _reject_one(raw, "C2.xlsx", data[: len(data) // 2])
    assert status[1] is not None
    assert status[1].startswith(
        "2023-2024/C2.xlsx: not a readable XLSX workbook (damaged or truncated file:"
    )


def test_inconsistent_tournament_details(raw: Path) -> None:
    text = results_csv("C2", C2)
    lines = text.splitlines()
    lines[2] = lines[2].replace("2024-01-14", "2024-01-15")
    assert _reject_one(raw, "C2.csv", ("\n".join(lines) + "\n").encode())[1] == (
        "2023-2024/C2.csv, row 3, column 'end_date': '2024-01-15' differs from '2024-01-14' on "
        "row 2: a tournament's end_date must be the same on all its rows"
    )


def test_bad_date_and_discipline(raw: Path) -> None:
    text = results_csv("C2", C2, date="14/13/2024")
    assert _reject_one(raw, "C2.csv", text.encode())[1] == (
        "2023-2024/C2.csv, row 2, column 'end_date': '14/13/2024' is not a date "
        "(expected YYYY-MM-DD)"
    )
    text = results_csv("C3", C2, discipline="scrabble")
    assert _reject_one(raw, "C3.csv", text.encode())[1] == (
        "2023-2024/C3.csv, row 2, column 'discipline': 'scrabble' is not a discipline: use "
        "duplicate, classique or dcdl"
    )


def test_workbook_with_title_rows_and_two_sheets(raw: Path) -> None:
    import xlsxwriter

    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    results = book.add_worksheet("Classement")
    results.merge_range(0, 0, 0, 5, "Open de Tours — classement final")
    for r, line in enumerate(results_csv("C2", C2).splitlines(), start=2):
        results.write_row(
            r, 0, [int(v) if v.isdigit() and len(v) < 4 else v for v in line.split(",")]
        )
    games = book.add_worksheet("Parties")
    for r, line in enumerate(games_csv("C2", [(1, "201", "202", 400, 300)]).splitlines()):
        games.write_row(r, 0, line.split(","))
    book.close()
    (raw / "2023-2024" / "C2.xlsx").write_bytes(buffer.getvalue())
    result = _ingest(raw)
    assert result.rejected == {}
    assert result.tables["results"].filter(pl.col("tournament_id") == "C2")["rank"].to_list() == [
        1,
        2,
    ]
    assert result.tables["games"].filter(pl.col("tournament_id") == "C2").height == 1
    assert _status(result)["2023-2024/C2.xlsx"] == ("ingested", None)


def test_error_in_a_workbook_names_the_sheet_and_rejects_all_of_it(raw: Path) -> None:
    import xlsxwriter

    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    results = book.add_worksheet("results")
    for r, line in enumerate(results_csv("C2", C2).splitlines()):
        results.write_row(r, 0, line.split(","))
    games = book.add_worksheet("games")
    for r, line in enumerate(games_csv("C2", [(1, "201", "777", 400, 300)]).splitlines()):
        games.write_row(r, 0, line.split(","))
    book.close()
    status = _reject_one(raw, "C2.xlsx", buffer.getvalue())
    assert status[1] == (
        "2023-2024/C2.xlsx [sheet games], row 2, column 'opponent_id': player 777 is not in the "
        "results of tournament C2"
    )
    result = _ingest(raw)
    assert "C2" not in result.tables["tournaments"]["tournament_id"].to_list()


def test_same_inputs_give_identical_tables(raw: Path) -> None:
    first, second = _ingest(raw), _ingest(raw)
    for name, frame in first.tables.items():
        assert frame.equals(second.tables[name]), name
    assert first.log.equals(second.log)


@pytest.mark.parametrize("sep", [",", ";"])
def test_decimal_comma_and_separator(raw: Path, sep: str) -> None:
    text = f'player_id{sep}as_of{sep}elo\n300{sep}2024-01-01{sep}"1650,5"\n'
    (raw / "liste_b.csv").write_text(text, encoding="utf-8")
    result = _ingest(raw)
    assert result.rejected == {}
    listed = result.tables["rating_lists"].filter(pl.col("player_id") == "300")
    assert listed["elo"].item() == 1650.5
