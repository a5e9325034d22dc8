"""FFSc national ranking export: hand-made Windows-1252 file of 15 players."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from pipelines.ingest.errors import ExportError
from pipelines.ingest.formats import detect_format, ffsc
from pipelines.ingest.schema import RATING_LIST

FILE = Path(__file__).parent / "fixtures" / "ffsc" / "classement_2019-06-30.csv"
NAME = "ffsc/classement_2019-06-30.csv"


def _data() -> bytes:
    return FILE.read_bytes()


def test_rating_list_exact() -> None:
    frames = ffsc.parse(_data(), NAME)
    assert set(frames) == {"results", "games", "rating_list", "published_series"}
    assert frames["results"].height == frames["games"].height == 0
    ratings = frames["rating_list"]
    assert ratings.columns == [*RATING_LIST.columns, "_row"]
    assert ratings["as_of"].unique().to_list() == ["2019-06-30"]
    assert ratings.select("cote", "elo", "elo_games").null_count().row(0) == (15, 15, 15)
    assert ratings.select("player_id", "series", "_row").head(3).rows() == [
        ("123456", "1", 2),
        ("234567", "1", 3),
        ("345678", "1", 4),
    ]
    assert ratings["_row"].to_list() == list(range(2, 17))


def test_published_series_exact() -> None:
    series = ffsc.parse(_data(), NAME)["published_series"]
    assert series.columns == [*ffsc.PUBLISHED_SERIES_COLUMNS, "_row"]
    assert all(t == pl.String for c, t in series.schema.items() if c != "_row")
    assert series.drop("_row").rows() == [
        (
            "123456",
            "LÉVÊQUE",
            "Hélène",
            "1",
            "S",
            "1",
            "Lyon Croix-Rousse",
            "1520.75",
            "512.5",
            "508.25",
            "500",
            "0",
            "1",
        ),
        (
            "234567",
            "DUPONT",
            "Jean",
            "2",
            "V",
            "1",
            "Paris Scrabble Club",
            "1498.5",
            "505",
            "500.5",
            "493",
            "0",
            "1",
        ),
        (
            "345678",
            "LE GALL",
            "Marie-Hélène",
            "3",
            "D",
            "1",
            "Brest",
            "1460",
            "490",
            "485.5",
            "484.5",
            "0",
            "1",
        ),
        (
            "456789",
            "N'DIAYE",
            "Aminata",
            "4",
            "S",
            "2",
            "Dakar Francophone",
            "1402.25",
            "470.25",
            "466",
            "466",
            "0",
            "1",
        ),
        (
            "567890",
            "MÜLLER",
            "Jürgen",
            "5",
            "V",
            "2",
            "Genève",
            "1399",
            "468",
            "466",
            "465",
            "0",
            "2",
        ),
        (
            "678901",
            "DE LA FONTAINE",
            "Jean-Baptiste",
            "6",
            "D",
            "2",
            "Château-Thierry",
            "1355.5",
            "455",
            "450.5",
            "450",
            "0",
            "2",
        ),
        (
            "789012",
            "MARTIN",
            "Chloé",
            "7",
            "J",
            "3",
            "Nantes",
            "1300",
            "440",
            "430",
            "430",
            "0",
            "3",
        ),
        (
            "890123",
            "BERNARD",
            "Noël",
            "7",
            "S",
            "3",
            "Besançon",
            "1300",
            "435",
            "435",
            "430",
            "0",
            "3",
        ),
        (
            "901234",
            "GIRARD-ÉTIENNE",
            "Anaïs",
            "9",
            "V",
            "3",
            "Saint-Étienne",
            "1250.5",
            "420.5",
            "415",
            "415",
            "0",
            "3",
        ),
        (
            "112233",
            "NGUYEN",
            "Thi Mai",
            "10",
            "S",
            "4",
            "Montréal",
            "1180",
            "400",
            "390",
            "390",
            "0",
            "4",
        ),
        (
            "223344",
            "O'BRIEN",
            "Seán",
            "11",
            "Ca",
            "4",
            "Bruxelles",
            "1102.75",
            "370",
            "366.75",
            "366",
            "0",
            "4",
        ),
        (
            "334455",
            "FAURE",
            "Zoé",
            "12",
            "Mi",
            "5",
            "Aix-en-Provence",
            "980",
            "330",
            "325",
            "325",
            "0",
            "5",
        ),
        (
            "445566",
            "ROUSSEAU",
            "Émile",
            "13",
            "D",
            "5",
            "Quimper",
            "912.5",
            "310",
            "302.5",
            "300",
            "0",
            "5",
        ),
        (
            "556677",
            "ŒUVRARD",
            "Cécile",
            "14",
            "S",
            "6",
            "Orléans",
            "850",
            "290",
            "280",
            "280",
            "0",
            "6",
        ),
        ("667788", "PETIT", "Benoît", "15", "V", "6", "Liège", "0", "0", "0", "0", "0", "7"),
    ]


def test_as_of_argument_and_name_dates() -> None:
    frames = ffsc.parse(_data(), "classement.csv", as_of="2020-01-31")
    assert frames["rating_list"]["as_of"].unique().to_list() == ["2020-01-31"]
    frames = ffsc.parse(_data(), NAME, as_of=dt.date(2019, 7, 1))  # the argument wins
    assert frames["rating_list"]["as_of"].unique().to_list() == ["2019-07-01"]
    assert ffsc.date_from_name("x/classement_20190630.csv") == dt.date(2019, 6, 30)
    assert ffsc.date_from_name("classement_2019_06_30.csv") == dt.date(2019, 6, 30)
    assert ffsc.date_from_name("classement_2019-13-30.csv") is None
    with pytest.raises(ExportError) as caught:
        ffsc.parse(_data(), "classement.csv")
    assert str(caught.value) == (
        "classement.csv : la date du classement est inconnue : indiquez-la dans le nom du "
        "fichier (par exemple classement_2019-06-30.csv)"
    )


def test_utf8_and_column_order() -> None:
    text = _data().decode("cp1252")
    lines = text.split("\r\n")
    # swap the first two columns everywhere and save as UTF-8 with a BOM
    swapped = "\r\n".join(
        ";".join([c[1], c[0], *c[2:]]) if len(c) > 1 else line
        for line in lines
        for c in [line.split(";")]
    )
    frames = ffsc.parse(("\ufeff" + swapped).encode("utf-8"), NAME)
    assert frames["published_series"].equals(ffsc.parse(_data(), NAME)["published_series"])


def test_split_name() -> None:
    assert ffsc.split_name("LE GALL Marie-Hélène") == ("LE GALL", "Marie-Hélène")
    assert ffsc.split_name("DUPONT JEAN") == ("DUPONT", "JEAN")
    assert ffsc.split_name("Dupont Jean") == ("Dupont", "Jean")


def test_detect() -> None:
    assert ffsc.detect(_data(), NAME)
    assert detect_format(_data(), NAME) == "ffsc"
    assert not ffsc.detect(b"place;joueur;licence\n", "x.csv")


def test_missing_column() -> None:
    text = _data().decode("cp1252").replace(";licence;", ";numero;", 1)
    with pytest.raises(ExportError) as caught:
        ffsc.parse(text.encode("cp1252"), NAME)
    assert str(caught.value) == (
        "ffsc/classement_2019-06-30.csv, ligne 1, colonne « licence » : il manque la colonne "
        "« licence » : la ligne d'en-tête doit être "
        "place;joueur;licence;categorie;serie;club;point;ps1;ps2;ps3;pp4;serie_potentielle"
    )


def test_bad_cells() -> None:
    text = _data().decode("cp1252")
    bad = text.replace("1498,5", "1498,5x", 1)
    with pytest.raises(ExportError) as caught:
        ffsc.parse(bad.encode("cp1252"), NAME)
    assert str(caught.value) == (
        "ffsc/classement_2019-06-30.csv, ligne 3, colonne « point » : « 1498,5x » n'est pas "
        "un nombre"
    )
    short = text.replace(";Brest;1460;490;485,5;484,5;0;1", ";Brest;1460", 1)
    with pytest.raises(ExportError) as caught:
        ffsc.parse(short.encode("cp1252"), NAME)
    assert str(caught.value) == (
        "ffsc/classement_2019-06-30.csv, ligne 4 : la ligne a 7 cellules alors que la ligne "
        "d'en-tête en a 12"
    )
    no_licence = text.replace(";234567;", ";;", 1)
    with pytest.raises(ExportError) as caught:
        ffsc.parse(no_licence.encode("cp1252"), NAME)
    assert str(caught.value) == (
        "ffsc/classement_2019-06-30.csv, ligne 3, colonne « licence » : le numéro de licence "
        "est vide"
    )
    with pytest.raises(ExportError) as caught:
        ffsc.parse(text.encode("utf-16"), NAME)
    assert str(caught.value) == (
        "ffsc/classement_2019-06-30.csv, ligne 1 : le fichier n'est pas un texte UTF-8, "
        "Windows-1252 ou Latin-1 (il semble être en UTF-16 ou binaire) : enregistrez-le "
        "de nouveau en texte UTF-8 (« CSV UTF-8 » dans un tableur)"
    )


def _text() -> str:
    return _data().decode("cp1252")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "ffsc/classement_2019-06-30.csv, ligne 1 : le fichier est vide"),
        (
            _text().replace(";DUPONT Jean;", ";;", 1).encode("cp1252"),
            "ffsc/classement_2019-06-30.csv, ligne 3, colonne « joueur » : le nom du joueur est "
            "vide",
        ),
        (
            _text().replace("\n2;DUPONT", "\nx2;DUPONT", 1).encode("cp1252"),
            "ffsc/classement_2019-06-30.csv, ligne 3, colonne « place » : « x2 » n'est pas une "
            "place (un nombre entier)",
        ),
    ],
)
def test_malformed_row_messages(data: bytes, message: str) -> None:
    with pytest.raises(ExportError) as caught:
        ffsc.parse(data, NAME)
    assert str(caught.value) == message
