"""The ingest: every bad-input case is rejected with its exact message, good files load."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from pipelines.ingest.batch import ingest_files
from pipelines.ingest.errors import ExportError, of, quantity
from pipelines.ingest.raw import quarantine, read_raw
from pipelines.ingest.read import read_export
from tests.support import PARAMETERS, PLAYERS, games_csv, ingested, results_csv


def _status(result) -> dict[str, tuple[str, str | None]]:
    return {r["path"]: (r["status"], r["message"]) for r in result.log.iter_rows(named=True)}


def _assert_good_files_loaded(result) -> None:
    ids = set(result.tables["tournaments"]["tournament_id"].to_list())
    assert {"C1", "D1"} <= ids
    assert result.tables["games"].filter(pl.col("tournament_id") == "C1").height == 4
    assert result.tables["rating_lists"].height == 2


def test_valid_folder_loads_every_table(raw: Path) -> None:
    result = ingested(raw)
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
    result = ingested(raw)
    _assert_good_files_loaded(result)
    status = _status(result)[f"2023-2024/{name}"]
    assert status[0] == "rejected"
    return status


C2 = [("201", "Petit", "Marc", 1), ("202", "Roux", "Léa", 2)]


def test_wrong_encoding(raw: Path) -> None:
    content = results_csv("C2", C2).encode("utf-16")
    assert _reject_one(raw, "C2.csv", content)[1] == (
        "2023-2024/C2.csv, ligne 1 : le fichier n'est pas un texte UTF-8, Windows-1252 "
        "ou Latin-1 (il semble être en UTF-16 ou binaire) : enregistrez-le de nouveau "
        "en texte UTF-8 (« CSV UTF-8 » dans un tableur)"
    )


def test_wrong_separator(raw: Path) -> None:
    content = results_csv("C2", C2).replace(",", "\t").encode()
    assert _reject_one(raw, "C2.csv", content)[1] == (
        "2023-2024/C2.csv, ligne 1 : la ligne d'en-tête est séparée par des tabulations : "
        "séparez les colonnes par des virgules (,) ou des points-virgules (;)"
    )


def test_missing_required_column(raw: Path) -> None:
    text = results_csv("C2", C2)
    lines = [",".join(line.split(",")[:7] + line.split(",")[8:]) for line in text.splitlines()]
    assert _reject_one(raw, "C2.csv", ("\n".join(lines) + "\n").encode())[1] == (
        "2023-2024/C2.csv, ligne 1 : il manque la colonne obligatoire « rank » dans la ligne "
        "d'en-tête de ce fichier de résultats"
    )


def test_non_numeric_rank(raw: Path) -> None:
    text = results_csv("C2", C2).replace("Léa,2,", "Léa,deux,")
    assert _reject_one(raw, "C2.csv", text.encode())[1] == (
        "2023-2024/C2.csv, ligne 3, colonne « rank » : « deux » n'est pas un nombre entier"
    )


def test_duplicate_player_in_one_tournament(raw: Path) -> None:
    text = results_csv("C2", [*C2, ("201", "Petit", "Marc", 3)])
    assert _reject_one(raw, "C2.csv", text.encode())[1] == (
        "2023-2024/C2.csv, ligne 4, colonne « player_id » : le joueur 201 apparaît deux fois "
        "dans le tournoi C2 (lignes 2 et 4)"
    )


def test_game_with_a_player_not_in_the_tournament(raw: Path) -> None:
    (raw / "2023-2024" / "C2.csv").write_text(results_csv("C2", C2), encoding="utf-8")
    games = games_csv("C2", [(1, "201", "202", 400, 300), (2, "201", "999", 380, 350)])
    status = _reject_one(raw, "C2_games.csv", games.encode())
    assert status[1] == (
        "2023-2024/C2_games.csv, ligne 3, colonne « opponent_id » : le joueur 999 ne figure "
        "pas dans les résultats du tournoi C2"
    )


def test_games_of_an_unknown_tournament(raw: Path) -> None:
    games = games_csv("C9", [(1, "201", "202", 400, 300)])
    assert _reject_one(raw, "C9_games.csv", games.encode())[1] == (
        "2023-2024/C9_games.csv, ligne 2, colonne « tournament_id » : le tournoi C9 n'a pas "
        "de résultats (son fichier de résultats manque ou a été refusé)"
    )


def test_tournament_id_in_two_files(raw: Path) -> None:
    text = results_csv("C1", PLAYERS)
    assert _reject_one(raw, "C1_corrige.csv", text.encode())[1] == (
        "2023-2024/C1_corrige.csv, ligne 2, colonne « tournament_id » : le tournoi C1 a déjà "
        "ses résultats dans 2023-2024/C1.csv : un tournoi doit figurer dans un seul fichier "
        "(pour le corriger, remplacez ce fichier)"
    )


def test_empty_file(raw: Path) -> None:
    assert _reject_one(raw, "C2.csv", b"")[1] == "2023-2024/C2.csv : le fichier est vide"
    assert _reject_one(raw, "C3.csv", b"\n \n")[1] == "2023-2024/C3.csv : le fichier est vide"


def test_header_only_file(raw: Path) -> None:
    text = results_csv("C2", [])
    assert _reject_one(raw, "C2.csv", text.encode())[1] == (
        "2023-2024/C2.csv, ligne 1 : le fichier a une ligne d'en-tête mais aucune ligne de données"
    )


def test_truncated_file(raw: Path) -> None:
    text = results_csv("C2", C2)
    cut = text[: text.rindex("Roux") + 4]  # the last row stops mid-way
    assert _reject_one(raw, "C2.csv", cut.encode())[1] == (
        "2023-2024/C2.csv, ligne 3 : la ligne a 6 cellules alors que la ligne d'en-tête en a "
        "10 (fichier tronqué ?)"
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
        "2023-2024/C2.xlsx : ce n'est pas un classeur XLSX lisible (fichier endommagé ou tronqué : "
    )


def test_inconsistent_tournament_details(raw: Path) -> None:
    text = results_csv("C2", C2)
    lines = text.splitlines()
    lines[2] = lines[2].replace("2024-01-14", "2024-01-15")
    assert _reject_one(raw, "C2.csv", ("\n".join(lines) + "\n").encode())[1] == (
        "2023-2024/C2.csv, ligne 3, colonne « end_date » : « 2024-01-15 » diffère de la valeur "
        "« 2024-01-14 » de la ligne 2 : cette colonne doit être la même sur toutes les lignes "
        "d'un tournoi"
    )


def test_bad_date_and_discipline(raw: Path) -> None:
    text = results_csv("C2", C2, date="14/13/2024")
    assert _reject_one(raw, "C2.csv", text.encode())[1] == (
        "2023-2024/C2.csv, ligne 2, colonne « end_date » : « 14/13/2024 » : il n'y a pas de "
        "mois 13 (la date s'écrit AAAA-MM-JJ ou JJ/MM/AAAA)"
    )
    text = results_csv("C3", C2, discipline="scrabble")
    assert _reject_one(raw, "C3.csv", text.encode())[1] == (
        "2023-2024/C3.csv, ligne 2, colonne « discipline » : « scrabble » n'est pas une "
        "discipline : écrivez duplicate, classique ou dcdl"
    )


def test_missing_required_columns(raw: Path) -> None:
    text = results_csv("C2", C2)
    lines = [",".join(line.split(",")[:3] + line.split(",")[4:7]) for line in text.splitlines()]
    assert _reject_one(raw, "C2.csv", ("\n".join(lines) + "\n").encode())[1] == (
        "2023-2024/C2.csv, ligne 1 : il manque les colonnes obligatoires « end_date », « rank » "
        "dans la ligne d'en-tête de ce fichier de résultats"
    )


FRENCH_HEADER = "Id tournoi;Tournoi;Discipline;Date de fin;Licence;Nom;Prénom;Rang;Série;Parties"


def test_message_shows_the_header_the_organiser_wrote(raw: Path) -> None:
    text = (
        f"{FRENCH_HEADER}\n"
        "D2;Open de Tours;duplicate;2024-03-10;201;Petit;Marc;1;4;3\n"
        "D2;Open de Tours;duplicate;2024-03-10;202;Roux;Léa;deux;5;3\n"
    )
    assert _reject_one(raw, "D2.csv", text.encode("cp1252"))[1] == (
        "2023-2024/D2.csv, ligne 3, colonne « rank » (Rang) : « deux » n'est pas un nombre entier"
    )
    # The canonical name in another case is not repeated.
    text = results_csv("C2", C2).replace(",rank,", ",Rank,").replace("Léa,2,", "Léa,deux,")
    assert _reject_one(raw, "C2.csv", text.encode())[1] == (
        "2023-2024/C2.csv, ligne 3, colonne « rank » : « deux » n'est pas un nombre entier"
    )


def test_workbook_message_shows_the_sheet_and_its_header(raw: Path) -> None:
    import xlsxwriter

    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    sheet = book.add_worksheet("Classement")
    rows = [
        FRENCH_HEADER,
        "D3;Open de Tours;duplicate;2024-03-10;201;Petit;Marc;1;4;3",
        "D3;Open de Tours;duplicate;2024-03-10;202;;;2;5;3",
    ]
    for r, line in enumerate(rows):
        sheet.write_row(r, 0, line.split(";"))
    book.close()
    assert _reject_one(raw, "D3.xlsx", buffer.getvalue())[1] == (
        "2023-2024/D3.xlsx [feuille Classement], ligne 3, colonne « last_name » (Nom) : nom et "
        "prénom vides : écrivez au moins le nom du joueur (un joueur connu par un seul nom le "
        "met dans « last_name » ou dans « first_name »)"
    )


def test_second_sheet_of_the_same_kind(raw: Path) -> None:
    import xlsxwriter

    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    for title in ("Classement", "Bis"):
        sheet = book.add_worksheet(title)
        for r, line in enumerate(results_csv("C2", C2).splitlines()):
            sheet.write_row(r, 0, line.split(","))
    book.close()
    assert _reject_one(raw, "C2.xlsx", buffer.getvalue())[1] == (
        "2023-2024/C2.xlsx [feuille Bis] : une deuxième feuille de résultats dans le même "
        "classeur : un classeur n'a qu'une feuille de chaque sorte"
    )


def test_rating_list_messages(raw: Path) -> None:
    text = "player_id,as_of,cote\n300,,1500\n"
    assert _reject_one(raw, "liste_b.csv", text.encode())[1] == (
        "2023-2024/liste_b.csv, ligne 2, colonne « as_of » : valeur vide : cette colonne doit "
        "être remplie sur chaque ligne d'un fichier de liste de classement"
    )
    # Player 100 on 2023-08-31 is already in liste_2023-08-31.csv, the first file by path.
    (raw / "z_liste.csv").write_text("player_id,as_of,cote\n100,2023-08-31,1700\n")
    result = ingested(raw)
    assert _status(result)["z_liste.csv"] == (
        "rejected",
        "z_liste.csv, ligne 2, colonne « player_id » : le joueur 100 au 2023-08-31 figure déjà "
        "dans la liste de classement liste_2023-08-31.csv : un joueur ne figure qu'une fois "
        "par date de liste, dans un seul fichier",
    )


def test_quarantine_note_says_why_and_what_to_do(raw: Path, tmp_path: Path) -> None:
    (raw / "2023-2024" / "bad.csv").write_text("nom\tprenom\n", encoding="utf-8")
    files = read_raw(raw)
    result = ingest_files(files, params=PARAMETERS)
    copies = quarantine(result.rejected, raw, tmp_path / "quarantine")
    copy = tmp_path / "quarantine" / "2023-2024" / "bad.csv"
    assert copies == {"2023-2024/bad.csv": str(copy)}
    assert copy.read_bytes() == b"nom\tprenom\n"
    assert (copy.parent / "bad.csv.reason.txt").read_text(encoding="utf-8") == (
        "2023-2024/bad.csv, ligne 1 : la ligne d'en-tête est séparée par des tabulations : "
        "séparez les colonnes par des virgules (,) ou des points-virgules (;)\n"
        "\n"
        "Ce fichier a été refusé en entier : rien de son contenu n'est chargé. Ceci en est une "
        "copie ; l'original est resté dans le dossier des exports : corrigez-le (ou "
        "remplacez-le), puis relancez le calcul.\n"
    )


def test_missing_raw_folder(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as caught:
        read_raw(tmp_path / "absent")
    assert str(caught.value) == f"le dossier des exports {tmp_path / 'absent'} n'existe pas"


def test_error_format_and_french_counts() -> None:
    assert str(ExportError("a.csv", "le fichier est vide")) == "a.csv : le fichier est vide"
    assert str(ExportError("a.csv", "x", row=3, column="rank", header="Place")) == (
        "a.csv, ligne 3, colonne « rank » (Place) : x"
    )
    assert [quantity(n, "ronde") for n in (0, 1, 2)] == ["0 ronde", "1 ronde", "2 rondes"]
    assert quantity(3, "cheval", "chevaux") == "3 chevaux"
    assert [of(n) for n in ("Jennifer Lee", "Andrew Fisher", "Élise Martin", "Hugo Roy")] == [
        "de Jennifer Lee",
        "d'Andrew Fisher",
        "d'Élise Martin",
        "de Hugo Roy",
    ]


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
    result = ingested(raw)
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
        "2023-2024/C2.xlsx [feuille games], ligne 2, colonne « opponent_id » : le joueur 777 ne "
        "figure pas dans les résultats du tournoi C2"
    )
    result = ingested(raw)
    assert "C2" not in result.tables["tournaments"]["tournament_id"].to_list()


def test_same_inputs_give_identical_tables(raw: Path) -> None:
    first, second = ingested(raw), ingested(raw)
    for name, frame in first.tables.items():
        assert frame.equals(second.tables[name]), name
    assert first.log.equals(second.log)


@pytest.mark.parametrize("sep", [",", ";"])
def test_decimal_comma_and_separator(raw: Path, sep: str) -> None:
    text = f'player_id{sep}as_of{sep}elo\n300{sep}2024-01-01{sep}"1650,5"\n'
    (raw / "liste_b.csv").write_text(text, encoding="utf-8")
    result = ingested(raw)
    assert result.rejected == {}
    listed = result.tables["rating_lists"].filter(pl.col("player_id") == "300")
    assert listed["elo"].item() == 1650.5


# One file alone (`2023-2024/<name>`) and the exact message that rejects it.
_LIST = "player_id,as_of"
_WITH_START = "\n".join(
    line + (",start_date" if i == 0 else ",2024-01-20")
    for i, line in enumerate(results_csv("C2", C2).splitlines())
)
SINGLE_FILE_CASES = [
    (  # a date in an accepted shape that does not exist (issue 27, item 7)
        "C2.csv",
        results_csv("C2", C2, date="31/02/2024").encode(),
        "2023-2024/C2.csv, ligne 2, colonne « end_date » : « 31/02/2024 » : cette date "
        "n'existe pas (février 2024 n'a que 29 jours)",
    ),
    (
        "C2.csv",
        results_csv("C2", C2, date="le 3 mars").encode(),
        "2023-2024/C2.csv, ligne 2, colonne « end_date » : « le 3 mars » n'est pas une date "
        "(attendu : AAAA-MM-JJ ou JJ/MM/AAAA)",
    ),
    (
        "l.csv",
        f"{_LIST}\n300,2024-01-01\x81\n".encode("latin-1"),
        "2023-2024/l.csv, ligne 2 : l'octet 0x81 n'est ni du texte UTF-8 ni du Windows-1252 : "
        "enregistrez de nouveau en texte UTF-8 (« CSV UTF-8 » dans un tableur)",
    ),
    (
        "l.csv",
        b"foo,bar\n1,2\n",
        "2023-2024/l.csv, ligne 1 : la ligne d'en-tête ne permet pas de savoir de quelle "
        "sorte de fichier il s'agit (résultats, parties, liste de classement ou une autre "
        "sorte décrite dans docs/exports.md, qui donne les noms de colonnes)",
    ),
    (
        "l.csv",
        f"{_LIST},Licence\n300,2024-01-01,300\n".encode(),
        "2023-2024/l.csv, ligne 1 : deux colonnes désignent « player_id » : « player_id » "
        "et « Licence » (gardez-en une seule)",
    ),
    (
        "l.csv",
        b"player_id\n300\n",
        "2023-2024/l.csv, ligne 1 : la ligne d'en-tête n'a qu'une seule colonne : "
        "séparez les colonnes par des virgules (,) ou des points-virgules (;)",
    ),
    (
        "l.csv",
        b"player_id|as_of\n300|2024-01-01\n",
        "2023-2024/l.csv, ligne 1 : la ligne d'en-tête est séparée par des barres "
        "verticales (|) : séparez les colonnes par des virgules (,) ou des points-virgules (;)",
    ),
    (
        "l.csv",
        f"\n{_LIST}\n300,2024-01-01\n".encode(),
        "2023-2024/l.csv, ligne 1 : le fichier doit commencer par sa ligne d'en-tête "
        "(supprimez les lignes vides au-dessus)",
    ),
    (
        "l.csv",
        f"{_LIST}\n300,2024-01-01\n300,2024-01-01\n".encode(),
        "2023-2024/l.csv, ligne 3, colonne « player_id » : le joueur 300 figure deux fois dans "
        "la liste du 2024-01-01 (lignes 2 et 3)",
    ),
    (
        "l.csv",
        f"{_LIST},elo_games\n300,2024-01-01,-3\n".encode(),
        "2023-2024/l.csv, ligne 2, colonne « elo_games » : le nombre de parties -3 ne peut pas "
        "être négatif",
    ),
    (
        "l.csv",
        f"{_LIST},elo\n300,2024-01-01,abc\n".encode(),
        "2023-2024/l.csv, ligne 2, colonne « elo » : « abc » n'est pas un nombre",
    ),
    (
        "C2.csv",
        results_csv("C2", [("201", "Petit", "Marc", 0)]).encode(),
        "2023-2024/C2.csv, ligne 2, colonne « rank » : le rang 0 n'est pas une place (1 ou plus)",
    ),
    (
        "C2.csv",
        _WITH_START.encode(),
        "2023-2024/C2.csv, ligne 2, colonne « start_date » : le tournoi commence (2024-01-20) "
        "après sa date de fin (2024-01-14)",
    ),
]


@pytest.mark.parametrize(("name", "content", "message"), SINGLE_FILE_CASES)
def test_single_file_messages(raw: Path, name: str, content: bytes, message: str) -> None:
    assert _reject_one(raw, name, content)[1] == message


GAMES_CASES = [
    (
        [(1, "201", "201", 400, 300)],
        "2023-2024/C2_games.csv, ligne 2, colonne « opponent_id » : le joueur 201 ne peut pas "
        "être son propre adversaire",
    ),
    (
        [(0, "201", "202", 400, 300)],
        "2023-2024/C2_games.csv, ligne 2, colonne « round » : la ronde 0 n'est pas un numéro "
        "de ronde (1 ou plus)",
    ),
    (
        [(1, "201", "202", 400, 300), (1, "202", "201", 300, 400)],
        "2023-2024/C2_games.csv, ligne 3, colonne « opponent_id » : le joueur 201 joue "
        "déjà à la ronde 1 du tournoi C2 (ligne 2) : chaque partie ne doit "
        "figurer qu'une fois",
    ),
]


@pytest.mark.parametrize(("games", "message"), GAMES_CASES)
def test_games_messages(
    raw: Path, games: list[tuple[int, str, str, int | str, int | str]], message: str
) -> None:
    (raw / "2023-2024" / "C2.csv").write_text(results_csv("C2", C2), encoding="utf-8")
    assert _reject_one(raw, "C2_games.csv", games_csv("C2", games).encode())[1] == message


def _workbook(sheets: dict[str, list[list[str]]]) -> bytes:
    import xlsxwriter

    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    for title, rows in sheets.items():
        sheet = book.add_worksheet(title)
        for r, row in enumerate(rows):
            sheet.write_row(r, 0, row)
    book.close()
    return buffer.getvalue()


_LIST_ROWS = [["player_id", "as_of", "cote"], ["300", "2024-01-01", "1500"]]
WORKBOOK_CASES = [
    (
        {"Feuil1": [["Liste des joueurs"], ["licence du joueur"]]},
        "2023-2024/l.xlsx [feuille Feuil1], ligne 1 : aucune ligne d'en-tête de feuille de "
        "résultats, de parties ou de liste de classement dans les premières lignes "
        "(voir docs/exports.md pour les noms de colonnes)",
    ),
    (
        {"Liste": [*_LIST_ROWS, ["301", "2024-01-01", "1400", "note"]]},
        "2023-2024/l.xlsx [feuille Liste], ligne 3 : une valeur au-delà de la dernière "
        "colonne de la ligne d'en-tête (donnez un titre à sa colonne ou supprimez-la)",
    ),
    (
        {"Liste": _LIST_ROWS[:1]},
        "2023-2024/l.xlsx [feuille Liste], ligne 1 : la feuille a une ligne d'en-tête mais "
        "aucune ligne de données",
    ),
    ({"Vide": []}, "2023-2024/l.xlsx : le classeur ne contient aucune donnée"),
]


@pytest.mark.parametrize(("sheets", "message"), WORKBOOK_CASES)
def test_workbook_messages(raw: Path, sheets: dict[str, list[list[str]]], message: str) -> None:
    assert _reject_one(raw, "l.xlsx", _workbook(sheets))[1] == message


def test_unsupported_file_type() -> None:
    with pytest.raises(ExportError) as caught:
        read_export(b"nom prenom\n", "notes.txt")
    assert str(caught.value) == (
        "notes.txt : type de fichier « .txt » non pris en charge (attendu : .csv ou .xlsx)"
    )


# --------------------------------------------------------------------------- rule corrections


def test_dense_ranks_are_renumbered_and_noted(raw: Path) -> None:
    """1, 1, 2 (dense ties) become 1, 1, 3, with a note in the ingest log; the file loads."""
    rows = [("201", "Petit", "Marc", 1), ("202", "Roux", "Léa", 1), ("203", "Vidal", "Noé", 2)]
    (raw / "2023-2024" / "C2.csv").write_text(results_csv("C2", rows), encoding="utf-8")
    result = ingested(raw)
    c2 = result.tables["results"].filter(pl.col("tournament_id") == "C2").sort("player_id")
    assert c2["rank"].to_list() == [1, 1, 3]
    assert _status(result)["2023-2024/C2.csv"] == (
        "ingested",
        "2023-2024/C2.csv : tournoi C2 : places numérotées sans saut après les ex æquo "
        "(1, 1, 2…), renumérotées en places de compétition (1, 1, 3…)",
    )
    assert _status(result)["2023-2024/C1.csv"] == ("ingested", None)


@pytest.mark.parametrize(
    ("ranks", "message"),
    [
        (
            [1, 2, 5],
            "2023-2024/C2.csv, ligne 4, colonne « rank » : la place 5 dépasse le nombre de "
            "joueurs du tournoi C2 (3) : les places vont de 1 au nombre de joueurs",
        ),
        (
            [1, 1, 1, 3],
            "2023-2024/C2.csv, ligne 5, colonne « rank » : la place 3 ne suit pas les places "
            "du tournoi C2 : à cette ligne, la place devrait être 4 (des ex æquo partagent la "
            "meilleure place et la suivante est sautée : 1, 2, 2, 4)",
        ),
        (
            [1, 3, 3, 4],
            "2023-2024/C2.csv, ligne 3, colonne « rank » : la place 3 ne suit pas les places "
            "du tournoi C2 : à cette ligne, la place devrait être 2 (des ex æquo partagent la "
            "meilleure place et la suivante est sautée : 1, 2, 2, 4)",
        ),
    ],
)
def test_a_rank_above_n_or_a_gap_rejects_the_file(raw: Path, ranks: list[int], message) -> None:
    rows = [(f"20{i}", "Nom", f"P{i}", rank) for i, rank in enumerate(ranks)]
    assert _reject_one(raw, "C2.csv", results_csv("C2", rows).encode())[1] == message


def test_a_duplicate_event_needs_its_games_and_a_positive_coefficient(raw: Path) -> None:
    header = "tournament_id,tournament_name,discipline,end_date,player_id,last_name,first_name,"
    no_games = header + "rank\nD2,Open,duplicate,2024-03-10,201,Petit,Marc,1\n"
    assert _reject_one(raw, "D2.csv", no_games.encode())[1] == (
        "2023-2024/D2.csv, ligne 2, colonne « games » : le tournoi de duplicate D2 n'indique "
        "pas son nombre de parties : la colonne « games » est obligatoire en duplicate (les "
        "points de classement en dépendent)"
    )
    zero = header + "rank,games,coefficient\nD3,Open,duplicate,2024-03-10,201,Petit,Marc,1,3,0\n"
    assert _reject_one(raw, "D3.csv", zero.encode())[1] == (
        "2023-2024/D3.csv, ligne 2, colonne « coefficient » : le coefficient 0.0 doit être "
        "supérieur à 0 (il pondère les pourcentages)"
    )


def test_players_known_by_one_name_load_from_csv_and_xlsx(raw: Path) -> None:
    import xlsxwriter

    rows = [("201", "Suhaimi", "", 1), ("202", "", "Ngozi", 2), ("203", "Roux", "Léa", 3)]
    (raw / "2023-2024" / "C2.csv").write_text(results_csv("C2", rows), encoding="utf-8")
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    sheet = book.add_worksheet("Résultats")
    for r, line in enumerate(results_csv("C3", rows).splitlines()):
        sheet.write_row(r, 0, line.split(","))
    book.close()
    (raw / "2023-2024" / "C3.xlsx").write_bytes(buffer.getvalue())
    result = ingested(raw)
    assert result.rejected == {}
    players = result.tables["players"].filter(pl.col("player_id").is_in(["201", "202"]))
    assert players.select("player_id", "last_name", "first_name").sort("player_id").rows() == [
        ("201", "Suhaimi", None),
        ("202", None, "Ngozi"),
    ]


def test_a_one_name_player_in_an_aupair_file(raw: Path) -> None:
    tou = (
        "*M12.05.2024 Kuala Lumpur Open\n*A\n"
        "Suhaimi              2405  +2  350   3\n"
        "Nigel Richards        390   1    0   2\n"
        "Ahmad Ali               0   3 2380  +1\n"
        "*** END OF FILE ***\n"
    )
    (raw / "2023-2024" / "kl24.tou").write_text(tou, encoding="utf-8")
    result = ingested(raw)
    assert result.rejected == {}
    players = result.tables["players"].filter(pl.col("player_id").str.starts_with("WESPA:"))
    assert sorted(players.select("last_name", "first_name").rows(), key=str) == sorted(
        [("Suhaimi", None), ("Richards", "Nigel"), ("Ali", "Ahmad")], key=str
    )


def test_an_unknown_classique_category_rejects_the_file(raw: Path) -> None:
    """The cote needs the category's parameters: an unknown one is the organiser's to fix
    (or the file states bonus_m, pj_min and pj_max)."""
    text = results_csv("C2", C2, category="Régional")
    (raw / "2023-2024" / "C2.csv").write_text(text, encoding="utf-8")
    result = ingested(raw)
    assert result.rejected == {
        "2023-2024/C2.csv": "2023-2024/C2.csv, ligne 2, colonne « category » : la catégorie "
        "« Régional » du tournoi classique C2 est inconnue : utilisez l'une de homologue, "
        "mondial, national, open, wespa (data/reference/cote_categories.csv), ou indiquez "
        "bonus_m, pj_min et pj_max"
    }


def test_a_classique_tournament_without_its_category_column_says_it_is_absent(raw: Path) -> None:
    """docs/exports.md: `category` is required for a classique tournament (unless it states
    bonus_m, pj_min and pj_max); a file without the column names it, not « la catégorie
    «  » ». A duplicate file without it loads."""
    header = "tournament_id,tournament_name,discipline,end_date,player_id,last_name,first_name,rank"
    classique = header + "\nC2,Open,classique,2024-01-14,201,Petit,Marc,1\n"
    duplicate = header + ",games\nD2,Open,duplicate,2024-01-14,201,Petit,Marc,1,3\n"
    stated = (
        header
        + ",bonus_m,pj_min,pj_max\nC3,Open,classique,2024-01-14,201,Petit,Marc,1,40,-150,300\n"
    )
    (raw / "2023-2024" / "C2.csv").write_text(classique, encoding="utf-8")
    (raw / "2023-2024" / "D2.csv").write_text(duplicate, encoding="utf-8")
    (raw / "2023-2024" / "C3.csv").write_text(stated, encoding="utf-8")
    result = ingested(raw)
    assert result.rejected == {
        "2023-2024/C2.csv": "2023-2024/C2.csv, ligne 2, colonne « category » : la colonne "
        "« category » est absente ou vide pour le tournoi classique C2 : elle est obligatoire "
        "en classique (la cote en dépend) : utilisez l'une de homologue, mondial, national, "
        "open, wespa (data/reference/cote_categories.csv), ou indiquez bonus_m, pj_min et "
        "pj_max"
    }


def test_a_game_without_scores_nor_result_rejects_the_file(raw: Path) -> None:
    (raw / "2023-2024" / "C1_games.csv").write_text(
        games_csv("C1", [(1, "100", "101", "", ""), (1, "102", "103", 400, 399)]),
        encoding="utf-8",
    )
    result = ingested(raw)
    assert result.rejected["2023-2024/C1_games.csv"] == (
        "2023-2024/C1_games.csv, ligne 2, colonne « player_score » : la partie de 100 contre 101 "
        "n'a ni les deux scores ni le résultat (player_result : 1, 0.5 ou 0) : l'Elo ne peut "
        "la compter"
    )


def test_the_cache_reads_only_changed_files_and_gives_the_same_result(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipelines.ingest import cache

    fresh = ingested(raw)
    first = cache.ingest_folder(raw, params=PARAMETERS, cache_dir=tmp_path / "cache")
    read: list[str] = []
    original = Path.read_bytes

    def counting(path: Path) -> bytes:
        if path.is_relative_to(raw):
            read.append(path.name)
        return original(path)

    monkeypatch.setattr(Path, "read_bytes", counting)
    again = cache.ingest_folder(raw, params=PARAMETERS, cache_dir=tmp_path / "cache")
    assert read == []  # nothing changed: no file read
    (raw / "2023-2024" / "C2.csv").write_text(results_csv("C2", C2), encoding="utf-8")
    changed = cache.ingest_folder(raw, params=PARAMETERS, cache_dir=tmp_path / "cache")
    assert read == ["C2.csv"]
    monkeypatch.undo()
    for name, frame in fresh.tables.items():
        assert first.tables[name].equals(frame), name
        assert again.tables[name].equals(frame), name
    assert first.log.equals(fresh.log) and again.log.equals(fresh.log)
    everything = ingested(raw)
    for name, frame in everything.tables.items():
        assert changed.tables[name].equals(frame), name
    assert changed.log.equals(everything.log)


def test_the_cache_keeps_new_files_as_parts_and_writes_it_whole_again_when_rows_go(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build that only adds files writes their rows as one more part of the cache; one
    that drops rows (a file removed) or finds too many parts writes it in one part again;
    every step ingests as a fresh ingest of the folder."""
    import json

    from pipelines.ingest import cache

    monkeypatch.setattr(cache, "_MAX_PARTS", 2)
    folder = tmp_path / "cache"

    def step(add: str | None = None, remove: str | None = None) -> list[str]:
        if add is not None:
            (raw / "2023-2024" / f"{add}.csv").write_text(results_csv(add, C2), encoding="utf-8")
        if remove is not None:
            (raw / "2023-2024" / f"{remove}.csv").unlink()
        cached = cache.ingest_folder(raw, params=PARAMETERS, cache_dir=folder)
        fresh = ingested(raw)
        for name, frame in fresh.tables.items():
            assert cached.tables[name].equals(frame), name
        assert cached.log.equals(fresh.log)
        parts = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["parts"]
        assert sorted(p.name for p in folder.glob("*.parquet")) == sorted(
            name for names in parts.values() for name in names
        )
        assert parts["games"] == ["games.parquet"]  # no part for a kind without new rows
        return list(parts["results"])

    assert step() == ["results.parquet"]
    assert step(add="C2") == ["results.parquet", "results.1.parquet"]
    # the part holds the new file's rows only
    assert pl.read_parquet(folder / "results.1.parquet")["_file"].to_list() == (
        ["2023-2024/C2.csv"] * len(C2)
    )
    assert step(remove="C2") == ["results.parquet"]  # rows gone: written whole again
    assert step(add="C3") == ["results.parquet", "results.1.parquet"]
    assert step(add="C4") == ["results.parquet"]  # a third part: written whole again


@pytest.mark.parametrize(
    "damage",
    ["{", '{"version": 1, "parts": {}, "stats": {}, "records": {"x": {"rows": "many"}}}', "[]"],
    ids=["cut short", "another layout", "not an object"],
)
def test_a_damaged_cache_reads_every_file_again(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    """A manifest (or the decisions of the last build) that does not decode as this code
    writes them is only a cost: every file is read and checked again, and the ingest is a
    fresh one's."""
    from pipelines.ingest import cache

    folder = tmp_path / "cache"
    cache.ingest_folder(raw, params=PARAMETERS, cache_dir=folder)
    for name in ("manifest.json", "decided.json"):
        original = (folder / name).read_bytes()
        (folder / name).write_text(damage, encoding="utf-8")
        read: list[str] = []
        reader = Path.read_bytes

        def counting(path: Path, reader: Any = reader, read: list[str] = read) -> bytes:
            if path.is_relative_to(raw):
                read.append(path.name)
            return reader(path)

        monkeypatch.setattr(Path, "read_bytes", counting)
        again = cache.ingest_folder(raw, params=PARAMETERS, cache_dir=folder)
        monkeypatch.undo()
        fresh = ingested(raw)
        for table, frame in fresh.tables.items():
            assert again.tables[table].equals(frame), (name, table)
        assert again.log.equals(fresh.log)
        if name == "manifest.json":
            assert sorted(read) == sorted(p.name for p in raw.rglob("*.csv")), read
        else:
            assert read == []  # the rows from the cache; the checks across files run again
        (folder / name).write_bytes(original)
