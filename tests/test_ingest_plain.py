"""The plain CSV path of the ingest (issue 25): a CSV export read by Polars with other files
(`read.plain_csv`, `read.split_plain`) gives the rows, row numbers and messages the
row-by-row reader (`read.read_csv`) gives the same file alone; the FFSc ranking read by
Polars gives the frames and messages of its row-by-row loop."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from pipelines.ingest.errors import ExportError
from pipelines.ingest.formats import ffsc
from pipelines.ingest.read import PlainCsv, plain_csv, read_csv, split_plain

HEADER = "rank;player_id;last_name;first_name;tournament_id;tournament_name;discipline;end_date"
ROW = "{};{};Nom {};Prénom;T1;Open;duplicate;2024-03-10"


def _rows_alone(data: bytes, name: str) -> tuple[dict[str, list[str | None]], list[int]] | str:
    """What `read_csv` reads of one file: its columns and row numbers, or its message."""
    try:
        (table,) = read_csv(data, name).values()
    except ExportError as err:
        return str(err)
    return table.columns, table.rows


def _rows_together(files: dict[str, bytes]) -> dict[str, object]:
    """What `split_plain` reads of files read together, per file as `_rows_alone`."""
    plain: dict[str, PlainCsv] = {}
    for name, data in files.items():
        export = plain_csv(data, name)
        assert export is not None, name
        plain[name] = export
    kind = next(iter(plain.values())).kind
    frame, rows, refused = split_plain(kind, list(plain.items()))
    out: dict[str, object] = dict(refused)
    for name, export in plain.items():
        if name in refused:
            continue
        own = frame.filter(pl.col("_file") == name)
        assert own.height == rows[name]
        assert own["_where"].to_list() == [name] * own.height
        out[name] = ({c: own[c].to_list() for c in export.positions}, own["_row"].to_list())
    return out


def test_files_read_together_read_as_each_alone() -> None:
    lines = [HEADER, ROW.format(1, 101, "A"), "", " ; ;", ROW.format(2, 102, "B")]
    comma = [line.replace(";", ",") for line in lines]
    reordered = (
        "player_id;Rang;tournament_id;last_name;first_name;tournament_name;discipline;end_date"
    )
    files = {
        "a.csv": "\n".join(lines).encode(),
        "b.csv": ("\r\n".join(comma) + "\r\n").encode("cp1252"),  # CRLF, Windows-1252
        "c.csv": f"{reordered}\n7;1;T2;X;Y;Open;duplicate;2024-03-11\n".encode(),
        "ragged.csv": "\n".join([*lines, "3;103;C"]).encode(),
        "wide.csv": "\n".join([*lines[:2], ROW.format(3, 103, "C") + ";extra"]).encode(),
        "empty.csv": f"{HEADER}\n \n;;\n".encode(),
    }
    together = _rows_together(files)
    for name, data in files.items():
        assert together[name] == _rows_alone(data, name), name
    assert together["a.csv"] == _rows_alone(files["a.csv"], "a.csv")
    assert together["a.csv"][1] == [2, 5]  # rows as an editor numbers them
    assert together["ragged.csv"] == (
        "ragged.csv, ligne 6 : la ligne a 3 cellules alors que la ligne d'en-tête en a 8 "
        "(fichier tronqué ?)"
    )
    assert together["empty.csv"] == (
        "empty.csv, ligne 1 : le fichier a une ligne d'en-tête mais aucune ligne de données"
    )


@pytest.mark.parametrize(
    "text",
    [
        f'{HEADER}\n1;101;"Nom; A";B;T1;Open;duplicate;2024-03-10\n',  # a quote
        f"{HEADER}\r1;101;A;B;T1;Open;duplicate;2024-03-10\n",  # a lone CR ends a line
        f"{HEADER}\n1;101;A\x1c;B;T1;Open;duplicate;2024-03-10\n",  # a space to str.strip
        f"\n{HEADER}\n",  # no header on the first line
        "a|b|c\n1|2|3\n",  # no separator the ingest reads
    ],
)
def test_what_the_row_by_row_reader_reads_is_left_to_it(text: str) -> None:
    assert plain_csv(text.encode(), "x.csv") is None


FFSC = (
    "place;joueur;licence;categorie;serie;club;point;ps1;ps2;ps3;pp4;serie_potentielle\n"
    "1;LE GALL Marie-Hélène;123;V;1;Paris;1 234,5;10;20;30;40;1\n"
    "\n"
    "2 ex;DURAND Paul;124;S;2;Lyon;99;;;;;2\n"
)


def _ffsc(text: str) -> dict[str, pl.DataFrame] | str:
    """`ffsc.parse` of `text`, its frames or its message."""
    try:
        return ffsc.parse(text.encode(), "classement_2024-08-31.csv")
    except ExportError as err:
        return str(err)


@pytest.mark.parametrize(
    "text",
    [
        FFSC,
        FFSC.replace("\n", "\r\n"),
        FFSC + "3;MARTIN Léa;125;V\n",  # a short row
        FFSC + "3;;126;V;1;Nice;1;1;1;1;1;1\n",  # no name
        FFSC + "4e;MARTIN Léa;;V;1;Nice;1;1;1;1;1;1\n",  # no licence
        FFSC + "4 bis;MARTIN Léa;127;V;1;Nice;1;1;1;1;1;1\n",  # not a place
        FFSC + "5;MARTIN Léa;128;V;1;Nice;1;1,5x;1;1;1;1\n",  # not a number
        FFSC + "٦;MARTIN Léa;129;V;1;Nice;1;1;1;1;1;1\n",  # a place in Arabic-Indic digits
    ],
)
def test_the_ffsc_ranking_by_polars_reads_as_row_by_row(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _ffsc(text)
    monkeypatch.setattr(ffsc, "_parse_plain", lambda *args: None)  # row by row
    slow = _ffsc(text)
    if isinstance(slow, str):
        assert fast == slow
        return
    assert isinstance(fast, dict)
    for kind, frame in slow.items():
        assert_frame_equal(fast[kind], frame)
    published = fast["published_series"]
    assert published.select("last_name", "first_name", "place", "points").row(0) == (
        "LE GALL",
        "Marie-Hélène",
        "1",
        "1234.5",
    )
    assert published["_row"].to_list()[:2] == [2, 4]


def test_a_plain_ffsc_ranking_is_read_by_polars() -> None:
    assert ffsc._parse_plain(FFSC, "c.csv", dt.date(2024, 8, 31)) is not None
    assert (
        ffsc._parse_plain(FFSC.replace("Paris", '"Paris"'), "c.csv", dt.date(2024, 8, 31)) is None
    )
