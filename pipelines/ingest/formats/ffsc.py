"""The French federation's (FFSc) national ranking export.

A `;`-separated CSV, Windows-1252/Latin-1 unless it is valid UTF-8, with the header::

    place;joueur;licence;categorie;serie;club;point;ps1;ps2;ps3;pp4;serie_potentielle

`joueur` is `NOM Prénom`: the leading upper-case words are the last name, the rest the
first name (`LE GALL Marie-Hélène` → `LE GALL` / `Marie-Hélène`; when every word is upper
case, the last word is the first name). The points columns use decimal commas, which
become dots; places may carry an `ex` (ex aequo) suffix, dropped. Columns may come in any
order; other columns are ignored.

The list's date (`as_of`) is the `as_of` argument when given, else a date in the file
name (`classement_2019-06-30.csv`, `classement_20190630.csv`, `..._2019_06_30...`);
without either, the file is refused. Two frames come out:

- `rating_list`: `player_id` = licence, `as_of`, `series` = serie (cote/elo null);
- `published_series`: `player_id, last_name, first_name, place, category, series, club,
  points, ps1, ps2, ps3, pp4, potential_series` (strings) and `_row`.

`results` and `games` are returned empty, with their canonical columns.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from pathlib import PurePath

import polars as pl

from pipelines.ingest.errors import ExportError, quantity
from pipelines.ingest.formats import decode_text, string_frame
from pipelines.ingest.schema import GAMES, PUBLISHED_SERIES, RATING_LIST, RESULTS

HEADER = (
    "place",
    "joueur",
    "licence",
    "categorie",
    "serie",
    "club",
    "point",
    "ps1",
    "ps2",
    "ps3",
    "pp4",
    "serie_potentielle",
)
PUBLISHED_SERIES_COLUMNS = PUBLISHED_SERIES.columns
_DECIMAL_COLUMNS = {"point": "points", "ps1": "ps1", "ps2": "ps2", "ps3": "ps3", "pp4": "pp4"}
_DECIMAL = re.compile(r"^-?\d+(?:[.,]\d+)?$")
_PLACE = re.compile(r"^(\d+)\s*(?:ex|e|er|ère)?\.?$", re.IGNORECASE)
_NAME_DATE = re.compile(r"(?<!\d)(\d{4})[-_.]?(\d{2})[-_.]?(\d{2})(?!\d)")


def detect(data: bytes, name: str) -> bool:
    """A CSV whose first line is the FFSc ranking header."""
    first = data.lstrip(b"\xef\xbb\xbf").split(b"\n", 1)[0].strip().lower()
    cells = {c.strip().strip(b'"') for c in first.split(b";")}
    return {h.encode() for h in HEADER} <= cells


def date_from_name(name: str) -> dt.date | None:
    """The date a file name carries (`classement_2019-06-30.csv`), if any."""
    for match in _NAME_DATE.finditer(PurePath(name).name):
        try:
            return dt.date(*(int(g) for g in match.groups()))
        except ValueError:
            continue
    return None


def parse(data: bytes, name: str, as_of: dt.date | str | None = None) -> dict[str, pl.DataFrame]:
    """Rating-list and published-series frames of an FFSc ranking export."""
    if as_of is None:
        date = date_from_name(name)
        if date is None:
            raise ExportError(
                name,
                "la date du classement est inconnue : indiquez-la dans le nom du fichier "
                "(par exemple classement_2019-06-30.csv)",
            )
    else:
        date = as_of if isinstance(as_of, dt.date) else dt.date.fromisoformat(as_of)
    text = decode_text(data, name)
    plain = _parse_plain(text, name, date)
    if plain is not None:
        return plain
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=";")
    records: list[tuple[int, list[str]]] = []
    start = 1
    for record in reader:
        records.append((start, record))  # the line a record starts on
        start = reader.line_num + 1
    if not records or not any(c.strip() for c in records[0][1]):
        raise ExportError(name, "le fichier est vide", row=1)
    header = [c.strip().lstrip("\ufeff").lower() for c in records[0][1]]
    for column in HEADER:
        if column not in header:
            raise ExportError(
                name,
                f"il manque la colonne « {column} » : la ligne d'en-tête doit être "
                f"{';'.join(HEADER)}",
                row=1,
                column=column,
            )
    position = {column: header.index(column) for column in HEADER}
    published: list[dict[str, str | None]] = []
    lines: list[int] = []
    for line, record in records[1:]:
        if not any(cell.strip() for cell in record):
            continue
        if len(record) < len(header):
            raise ExportError(
                name,
                f"la ligne a {quantity(len(record), 'cellule')} alors que la ligne "
                f"d'en-tête en a {len(header)}",
                row=line,
            )
        cells = {column: record[i].strip() for column, i in position.items()}
        published.append(_published_row(cells, name, line))
        lines.append(line)
    as_of_text = date.isoformat()
    ratings = [
        {"player_id": row["player_id"], "as_of": as_of_text, "series": row["series"]}
        for row in published
    ]
    return {
        "results": string_frame([], RESULTS.columns, []),
        "games": string_frame([], GAMES.columns, []),
        "rating_list": string_frame(ratings, RATING_LIST.columns, lines),
        "published_series": string_frame(published, PUBLISHED_SERIES_COLUMNS, lines),
    }


# What `parse` reads row by row, read by Polars when the text leaves nothing to Python's csv
# module but splitting lines (as `pipelines.ingest.read.plain_csv`); the row checks are
# stricter than `_published_row`'s (ASCII digits, the suffixes' own cases), whose messages
# they leave to it: a row only Polars refuses sends the file back to `parse`'s own loop.
_NOT_PLAIN = ('"', "\x1c", "\x1d", "\x1e", "\x1f")
_STRICT_PLACE = r"^[0-9]+\s*(?:[eE][xX]|[eE]|[eE][rR]|[èÈ][rR][eE])?\.?$"
_STRICT_DECIMAL = r"^-?[0-9]+(?:[.,][0-9]+)?$"


def _parse_plain(text: str, name: str, date: dt.date) -> dict[str, pl.DataFrame] | None:
    """`parse`'s frames of a plain text, or None when `parse` reads it row by row."""
    returns = text.count("\r")
    if any(c in text for c in _NOT_PLAIN) or (returns and returns != text.count("\r\n")):
        return None
    if returns:
        text = text.replace("\r\n", "\n")
    end = text.find("\n")
    first = text if end < 0 else text[:end]
    if not first.strip() or first.splitlines() != [first]:
        return None
    header = [c.strip().lstrip("\ufeff").lower() for c in first.split(";")]
    if any(column not in header for column in HEADER):
        return None  # `parse` says which
    position = {column: header.index(column) for column in HEADER}
    body = "" if end < 0 else text[end + 1 :]
    line = pl.col("_line")
    rows = (
        pl.DataFrame({"_line": [body]}, schema={"_line": pl.String})
        .with_columns(line.str.split("\n"))
        .with_columns(pl.int_ranges(2, line.list.len() + 2, dtype=pl.Int64).alias("_row"))
        .explode("_line", "_row")
    )
    longest = rows.select(line.str.len_chars().max()).item() or 0
    if max(longest, len(first)) > csv.field_size_limit():
        return None  # the csv module's limit on a cell
    rows = (
        rows.filter(~line.str.contains(r"^[\s;]*$"))
        .with_columns(line.str.split(";").alias("_cells"))
        .select(
            "_row",
            (pl.col("_cells").list.len() < len(header)).alias("_short"),
            *[
                pl.col("_cells").list.get(i, null_on_oob=True).str.strip_chars().alias(column)
                for column, i in position.items()
            ],
        )
    )
    compact = {
        column: pl.col(column)
        .str.replace_all("\u00a0", "", literal=True)
        .str.replace_all(" ", "", literal=True)
        for column in _DECIMAL_COLUMNS
    }
    flagged = rows.filter(
        pl.col("_short")
        | (pl.col("licence") == "")
        | (pl.col("joueur") == "")
        | ((pl.col("place") != "") & ~pl.col("place").str.contains(_STRICT_PLACE))
        | pl.any_horizontal(
            (value != "") & ~value.str.contains(_STRICT_DECIMAL) for value in compact.values()
        )
    )
    for row in flagged.iter_rows(named=True):
        if row["_short"]:
            raise ExportError(
                name,
                f"la ligne a {quantity(len(_cells_of(body, row['_row'])), 'cellule')} alors "
                f"que la ligne d'en-tête en a {len(header)}",
                row=row["_row"],
            )
        _published_row({c: row[c] for c in HEADER}, name, row["_row"])  # raises
        return None  # a row only the strict checks refuse: read row by row
    names = rows["joueur"].unique()
    split = [split_name(joueur) for joueur in names]
    empty = pl.col(pl.String).exclude("last_name", "first_name", "player_id").replace("", None)
    published = rows.select(
        pl.col("licence").alias("player_id"),
        pl.col("joueur")
        .replace_strict(names, [last for last, _ in split], return_dtype=pl.String)
        .alias("last_name"),
        pl.col("joueur")
        .replace_strict(names, [first for _, first in split], return_dtype=pl.String)
        .alias("first_name"),
        pl.col("place").str.extract(r"^([0-9]+)", 1).alias("place"),
        pl.col("categorie").alias("category"),
        pl.col("serie").alias("series"),
        pl.col("club"),
        pl.col("serie_potentielle").alias("potential_series"),
        *[
            value.str.replace_all(",", ".", literal=True).alias(_DECIMAL_COLUMNS[column])
            for column, value in compact.items()
        ],
        "_row",
    ).with_columns(empty)
    ratings = published.select(
        *[
            pl.col("player_id")
            if column == "player_id"
            else pl.col("series")
            if column == "series"
            else pl.lit(date.isoformat() if column == "as_of" else None, pl.String).alias(column)
            for column in RATING_LIST.columns
        ],
        "_row",
    )
    return {
        "results": string_frame([], RESULTS.columns, []),
        "games": string_frame([], GAMES.columns, []),
        "rating_list": ratings,
        "published_series": published.select(*PUBLISHED_SERIES_COLUMNS, "_row"),
    }


def _cells_of(body: str, row: int) -> list[str]:
    """The cells of line `row` of the file (`body` starting on line 2)."""
    return body.split("\n")[row - 2].split(";")


def _published_row(cells: dict[str, str], name: str, line: int) -> dict[str, str | None]:
    if not cells["licence"]:
        raise ExportError(name, "le numéro de licence est vide", row=line, column="licence")
    if not cells["joueur"]:
        raise ExportError(name, "le nom du joueur est vide", row=line, column="joueur")
    place = _PLACE.match(cells["place"])
    if cells["place"] and place is None:
        raise ExportError(
            name,
            f"« {cells['place']} » n'est pas une place (un nombre entier)",
            row=line,
            column="place",
        )
    last, first = split_name(cells["joueur"])
    row: dict[str, str | None] = {
        "player_id": cells["licence"],
        "last_name": last,
        "first_name": first,
        "place": place.group(1) if place else None,
        "category": cells["categorie"] or None,
        "series": cells["serie"] or None,
        "club": cells["club"] or None,
        "potential_series": cells["serie_potentielle"] or None,
    }
    for column, target in _DECIMAL_COLUMNS.items():
        value = cells[column].replace("\u00a0", "").replace(" ", "")
        if value and not _DECIMAL.match(value):
            raise ExportError(
                name, f"« {cells[column]} » n'est pas un nombre", row=line, column=column
            )
        row[target] = value.replace(",", ".") or None
    return row


def split_name(joueur: str) -> tuple[str, str]:
    """(last name, first name) of `NOM Prénom`: the leading upper-case words are the name."""
    words = joueur.split()
    count = 0
    for word in words:
        if any(c.isalpha() for c in word) and word == word.upper():
            count += 1
        else:
            break
    if count == len(words) and count > 1:
        count -= 1
    if count == 0:
        count = 1
    return " ".join(words[:count]), " ".join(words[count:])
