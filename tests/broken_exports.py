"""Exports that break each a different rule of reading (a number too large, a truncated
workbook, mixed encodings, a zip bomb…): the ingest and `classement check` must both refuse
each with its message. Data only; Dagster-free."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from functools import cache

from tests.support import FIXTURES

HEADER = "tournament_id,tournament_name,discipline,end_date,player_id,last_name,first_name,rank"


@cache
def _xlsx_with_formula() -> bytes:
    """A results sheet whose score is a formula saved without its value (openpyxl writes no
    cached values, like a program that does not compute)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append([*HEADER.split(","), "score"])
    sheet.append(["X5", "Open", "classique", "2024-01-14", "300", "Roy", "Ali", 1, "=2*200"])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


@cache
def _zip_bomb() -> bytes:
    """A workbook of a few hundred kilobytes that would inflate to 300 MB (1,6 CPU-s to
    deflate: made when a test writes it, not when the module is imported, which every
    worker does while collecting)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * 300_000_000)
    return buffer.getvalue()


def _row(**cells: str) -> str:
    values = {
        "tournament_id": "X9",
        "tournament_name": "Open",
        "discipline": "classique",
        "end_date": "2024-01-14",
        "player_id": "300",
        "last_name": "Roy",
        "first_name": "Ali",
        "rank": "1",
    } | cells
    return ",".join(values[c] for c in HEADER.split(",")) + "\n"


# (file name, content, what the message says after the file name); the workbooks' contents
# are made on first use (`bytes_of`)
BROKEN: list[tuple[str, bytes | Callable[[], bytes], str]] = [
    ("x1.csv", (HEADER + ",games\n" + _row().strip() + ",123456789012345678901\n").encode(),
     ", ligne 2, colonne « games » : « 123456789012345678901 » : nombre démesuré"),
    ("x2.xlsx", b"PK\x03\x04 a truncated workbook",
     " : ce n'est pas un classeur XLSX lisible"),
    ("x3.csv", (HEADER + "\n" + _row(end_date="0001-01-14")).encode(),
     ", ligne 2, colonne « end_date » : « 0001-01-14 » : une date de tournoi entre 1900"),
    ("x4.csv", (HEADER + "\n" + _row(end_date="14/01/24")).encode(),
     ", ligne 2, colonne « end_date » : « 14/01/24 » : une année à deux chiffres est ambiguë"),
    ("x5.csv", (HEADER + "\n" + _row(player_id="9" * 70)).encode(),
     ", ligne 2, colonne « player_id » : valeur de 70 caractères : 64 au plus"),
    ("x6.csv", (HEADER + "\n" + _row(last_name="R" * 1200)).encode(),
     ", ligne 2, colonne « last_name » : valeur de 1200 caractères : 1000 au plus"),
    ("x7.csv", (HEADER + "\n" + _row(last_name="Hélène")).encode() + b"\n" + _row(
        player_id="301", last_name="Gu\xe9rin", rank="2").encode("latin-1"),
     ", ligne 4 : le fichier mélange deux encodages : l'octet 0xE9"),
    ("x8.csv", (HEADER + "\n" + _row() * 200).encode() + b"\x00" + b"\n",
     ", ligne 202 : un octet nul (0x00) au milieu du texte"),
    ("x9.xlsx", _xlsx_with_formula,
     " [feuille Sheet], ligne 2 : la cellule I2 contient la formule « =2*200 » sans sa valeur"),
    ("y1.xlsx", _zip_bomb, " : le classeur occupe 300 Mo une fois décompressé"),
    ("y2.t", (FIXTURES / "tsh/open-lyon-2024/a.t").read_bytes().replace(b"\n", b"\n\x07", 1),
     ", ligne 2"),
    ("y3.csv", b'tournament_id;tournament_name;discipline;end_date;player_id;last_name;'
     b'first_name;rank\r\nX9;"Open\r\nde Lyon";classique;2024-01-14;300;Roy;Ali;un\r\n',
     ", ligne 2, colonne « rank » : « un » n'est pas un nombre entier"),
]  # fmt: skip


def bytes_of(made: bytes | Callable[[], bytes]) -> bytes:
    """The bytes of a `BROKEN` file."""
    return made() if callable(made) else made
