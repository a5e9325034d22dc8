"""TSH `.t` parser on a hand-made 7-player division (a bye each round, one draw)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from pipelines.ingest.errors import ExportError
from pipelines.ingest.formats import detect_format, tsh
from pipelines.ingest.schema import GAMES, RATING_LIST, RESULTS

FOLDER = Path(__file__).parent / "fixtures" / "tsh" / "open-lyon-2024"
NAME = "open-lyon-2024/a.t"


def _data() -> bytes:
    return (FOLDER / "a.t").read_bytes()


def _config() -> bytes:
    return (FOLDER / "config.tsh").read_bytes()


def test_results_exact() -> None:
    frames = tsh.parse_tsh(_data(), NAME, _config())
    assert set(frames) == {"results", "games", "rating_list"}
    results = frames["results"]
    assert results.columns == [*RESULTS.columns, "_row"]
    assert all(t == pl.String for c, t in results.schema.items() if c != "_row")
    assert results["_row"].dtype == pl.Int64
    assert results.select(
        "player_id", "last_name", "first_name", "wins", "spread", "rank", "_row"
    ).rows() == [
        ("TSH:JEAN DUPONT", "Dupont", "Jean", "2", "25", "3", 3),
        ("TSH:ELISE MARTIN", "Martin", "Élise", "1", "-15", "5", 4),
        ("TSH:FRANCOIS LEFEVRE", "Lefèvre", "François", "2.5", "128", "2", 5),
        ("TSH:THI NGUYEN", "Nguyen", "Thi", "1.5", "140", "4", 6),
        ("TSH:CHLOE BERNARD", "Bernard", "Chloé", "1", "-15", "5", 8),
        ("TSH:LUC MOREAU", "Moreau", "Luc", "3", "106", "1", 9),
        ("TSH:ANAIS GIRARD", "Girard", "Anaïs", "1", "-219", "7", 10),
    ]
    tournament = results.select(
        "tournament_id", "tournament_name", "discipline", "start_date", "end_date", "games"
    ).unique()
    assert tournament.rows() == [
        (
            "open-lyon-2024",
            "Open de Lyon de Scrabble classique",
            "classique",
            "2024-03-16",
            "2024-03-17",
            "3",
        )
    ]
    assert frames["rating_list"].columns == [*RATING_LIST.columns, "_row"]
    assert frames["rating_list"].height == 0


def test_games_exact() -> None:
    games = tsh.parse(_data(), NAME, _config())["games"]
    assert games.columns == [*GAMES.columns, "_row"]
    assert games.drop("tournament_id").rows() == [
        ("1", "TSH:JEAN DUPONT", "TSH:ELISE MARTIN", "412", "388", "TSH:JEAN DUPONT", "1", 3),
        (
            "2",
            "TSH:JEAN DUPONT",
            "TSH:FRANCOIS LEFEVRE",
            "390",
            "421",
            "TSH:FRANCOIS LEFEVRE",
            "0",
            3,
        ),
        ("3", "TSH:JEAN DUPONT", "TSH:THI NGUYEN", "433", "401", "TSH:THI NGUYEN", "1", 3),
        ("2", "TSH:ELISE MARTIN", "TSH:CHLOE BERNARD", "405", "377", "TSH:ELISE MARTIN", "1", 4),
        ("3", "TSH:ELISE MARTIN", "TSH:LUC MOREAU", "436", "455", "TSH:ELISE MARTIN", "0", 4),
        (
            "1",
            "TSH:FRANCOIS LEFEVRE",
            "TSH:THI NGUYEN",
            "450",
            "450",
            "TSH:FRANCOIS LEFEVRE",
            "0.5",
            5,
        ),
        (
            "3",
            "TSH:FRANCOIS LEFEVRE",
            "TSH:ANAIS GIRARD",
            "477",
            "380",
            "TSH:FRANCOIS LEFEVRE",
            "1",
            5,
        ),
        ("2", "TSH:THI NGUYEN", "TSH:ANAIS GIRARD", "512", "340", "TSH:ANAIS GIRARD", "1", 6),
        ("1", "TSH:CHLOE BERNARD", "TSH:LUC MOREAU", "365", "402", "TSH:LUC MOREAU", "0", 8),
        ("3", "TSH:CHLOE BERNARD", None, "50", None, None, "1", 8),
        ("2", "TSH:LUC MOREAU", None, "50", None, None, "1", 9),
        ("1", "TSH:ANAIS GIRARD", None, "50", None, None, "1", 10),
    ]


def test_utf8_file_reads_the_same() -> None:
    utf8 = _data().decode("latin-1").encode("utf-8")
    assert tsh.parse(utf8, NAME, _config())["results"].equals(
        tsh.parse(_data(), NAME, _config())["results"]
    )


def test_several_divisions_in_the_config() -> None:
    config = _config() + b"division b b.t\n"
    results = tsh.parse(_data(), NAME, config)["results"]
    assert results.select("tournament_id", "tournament_name").unique().rows() == [
        ("open-lyon-2024-a", "Open de Lyon de Scrabble classique – Division a")
    ]


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("2024-03-17", ("2024-03-17", "2024-03-17")),
        ("March 16-17, 2024", ("2024-03-16", "2024-03-17")),
        ("March 30 - April 1, 2024", ("2024-03-30", "2024-04-01")),
        ("16 et 17 mars 2024", ("2024-03-16", "2024-03-17")),
        ("1er février 2025", ("2025-02-01", "2025-02-01")),
        ("sometime in spring", None),
    ],
)
def test_event_dates(text: str, days: tuple[str, str] | None) -> None:
    parsed = tsh.parse_event_date(text)
    if days is None:
        assert parsed is None
    else:
        assert parsed == tuple(dt.date.fromisoformat(d) for d in days)


def test_detect() -> None:
    assert tsh.detect(_data(), NAME)
    assert not tsh.detect(_config(), "open-lyon-2024/config.tsh")
    assert detect_format(_data(), NAME) == "tsh"


def _replace(old: str, new: str) -> bytes:
    text = _data().decode("latin-1")
    assert old in text
    return text.replace(old, new, 1).encode("latin-1")


def test_scores_count_differs_from_opponents_count() -> None:
    data = _replace("412 390 433;", "412 390;")
    with pytest.raises(ExportError) as caught:
        tsh.parse(data, NAME, _config())
    assert str(caught.value) == (
        "open-lyon-2024/a.t, ligne 3 : Dupont, Jean a 3 adversaires mais 2 scores : chaque "
        "ronde demande un adversaire et un score"
    )


def test_opponent_beyond_the_division() -> None:
    data = _replace("1650  2 3 4;", "1650  2 3 9;")
    with pytest.raises(ExportError) as caught:
        tsh.parse(data, NAME, _config())
    assert str(caught.value) == (
        "open-lyon-2024/a.t, ligne 3, colonne « ronde 3 » : l'adversaire 9 de Dupont, Jean "
        "n'existe pas : la division a 7 joueurs (numéros 1 à 7, 0 pour une exemption)"
    )


def test_unconfirmed_pairing() -> None:
    data = _replace("1650  2 3 4;", "1650  2 3 5;")
    with pytest.raises(ExportError) as caught:
        tsh.parse(data, NAME, _config())
    assert str(caught.value) == (
        "open-lyon-2024/a.t, ligne 3, colonne « ronde 3 » : Dupont, Jean (n° 1) rencontre "
        "Bernard, Chloé (n° 5) à la ronde 3, mais Bernard, Chloé a l'adversaire 0 à cette ronde"
    )


def test_missing_config_or_date() -> None:
    with pytest.raises(ExportError) as caught:
        tsh.parse(_data(), NAME)
    assert str(caught.value) == (
        "open-lyon-2024/a.t : le nom et la date du tournoi sont lus dans config.tsh, à côté du "
        "fichier .t : il manque le fichier config.tsh"
    )
    no_date = b"config event_name = 'Open'\n"
    with pytest.raises(ExportError) as caught:
        tsh.parse(_data(), NAME, no_date)
    assert str(caught.value) == (
        "open-lyon-2024/a.t : le nom et la date du tournoi sont lus dans config.tsh, à côté du "
        "fichier .t : il manque la ligne « config event_date » dans config.tsh"
    )
    with pytest.raises(ExportError) as caught:
        tsh.parse(_data(), NAME, b"config event_date = '2024-03-17'\n")
    assert str(caught.value) == (
        "open-lyon-2024/a.t : le nom et la date du tournoi sont lus dans config.tsh, à côté du "
        "fichier .t : il manque la ligne « config event_name » dans config.tsh"
    )
    bad_date = b"config event_name = 'Open'\nconfig event_date = 'soon'\n"
    with pytest.raises(ExportError) as caught:
        tsh.parse(_data(), NAME, bad_date)
    assert str(caught.value) == (
        "open-lyon-2024/a.t (config.tsh), ligne 2, colonne « event_date » : impossible de lire "
        "la date du tournoi « soon » : écrivez-la sous la forme 2024-03-17, 16-17 mars 2024 ou "
        "March 16-17, 2024"
    )


def test_malformed_line_and_utf16() -> None:
    data = _replace("Moreau, Luc              0  5 0 2;", "Moreau, Luc  5 0 x;")
    with pytest.raises(ExportError) as caught:
        tsh.parse(data, NAME, _config())
    assert str(caught.value) == (
        "open-lyon-2024/a.t, ligne 9 : une ligne de joueur doit contenir : le nom, le "
        "classement, l'adversaire de chaque ronde (0 pour une exemption), « ; », le score de "
        "chaque ronde ; trouvé : « Moreau, Luc  5 0 x; 402 50 455; p12 1 0 2 »"
    )
    with pytest.raises(ExportError) as caught:
        tsh.parse(_data().decode("latin-1").encode("utf-16-le"), NAME, _config())
    assert str(caught.value) == (
        "open-lyon-2024/a.t, ligne 1 : le fichier n'est pas un texte UTF-8, "
        "Windows-1252 ou Latin-1 (il semble être en UTF-16 ou binaire) : enregistrez-le "
        "de nouveau en texte UTF-8 (« CSV UTF-8 » dans un tableur)"
    )


MALFORMED = [
    (b"# rien\n", "open-lyon-2024/a.t, ligne 1 : le fichier n'a aucune ligne de joueur"),
    (
        _replace("412 390 433;", "412 3x0 433;"),
        "open-lyon-2024/a.t, ligne 3, colonne « ronde 2 » : « 3x0 » n'est pas un score (nombre "
        "entier) pour Dupont, Jean",
    ),
    (
        _replace("1650  2 3 4; 412 390 433;", "1650  2 3; 412 390;"),
        "open-lyon-2024/a.t, ligne 3 : Dupont, Jean a 2 rondes mais la division en a 3 : il "
        "manque une ronde dans la ligne",
    ),
    (
        _replace("1650  2 3 4;", "1650  1 3 4;"),
        "open-lyon-2024/a.t, ligne 3, colonne « ronde 1 » : Dupont, Jean est son propre "
        "adversaire à la ronde 1 (une exemption s'écrit 0)",
    ),
]


@pytest.mark.parametrize(("data", "message"), MALFORMED)
def test_malformed_file_messages(data: bytes, message: str) -> None:
    with pytest.raises(ExportError) as caught:
        tsh.parse(data, NAME, _config())
    assert str(caught.value) == message
