"""Writing the simulated exports: CSV in three flavours, XLSX workbooks, the FFSc ranking.

A table to write is a mapping of canonical column to a scalar (repeated on every row) or a
list (one value a row); the columns written, and their order, come from `columns.py`.
Header labels of French files are drawn from `FRENCH_HEADERS` with the generator given,
so the simulation's own draws do not depend on them.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simulator.columns import (
    FFSC_HEADER,
    FRENCH_HEADERS,
    GAMES_COLUMNS,
    RESULTS_CANONICAL,
    RESULTS_FRENCH,
)
from simulator.names import ALL_FIRST, ALL_LAST, FRANCE
from simulator.season import SeasonRanking
from simulator.tournament import Tournament
from simulator.world import Population, World, series_labels
from transforms.ranking import competition_ranks

# The file flavours: encoding, delimiter, line end; French files have French headers.
ENCODINGS = {"fr": "cp1252", "bom": "utf-8-sig", "utf8": "utf-8"}
XLSX_CREATED = dt.datetime(2020, 1, 1, 0, 0, 0)
XLSX_AUTHOR = "classement generate"


@dataclass(frozen=True)
class Table:
    """One table to write: its data, the column order and its number of rows."""

    data: dict[str, object]
    order: Sequence[str]
    rows: int

    @property
    def columns(self) -> list[str]:
        return [c for c in self.order if c in self.data]

    def values(self, column: str) -> list[object]:
        value = self.data[column]
        return value if isinstance(value, list) else [value] * self.rows


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return format(value, ".10g")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _texts(table: Table, column: str) -> list[str]:
    value = table.data[column]
    if isinstance(value, list) and value and isinstance(value[0], str):
        return value
    return [_text(v) for v in table.values(column)]


def headers(columns: Sequence[str], rng: np.random.Generator, french: bool) -> list[str]:
    """The header of `columns`: canonical, or a French label drawn for each column."""
    if not french:
        return list(columns)
    out = []
    for c in columns:
        labels = FRENCH_HEADERS.get(c, (c,))
        out.append(labels[int(rng.integers(len(labels)))])
    return out


def write_csv(path: Path, table: Table, flavour: str, rng: np.random.Generator) -> int:
    """Write one table as CSV in the given flavour (`fr`: Windows-1252, `;`, CRLF, French
    headers; `bom`: UTF-8 with a BOM; `utf8`); returns the number of bytes."""
    columns = table.columns
    french = flavour == "fr"
    header = headers(columns, rng, french)
    texts = [_texts(table, c) for c in columns]
    with path.open("w", encoding=ENCODINGS[flavour], newline="") as fh:
        writer = csv.writer(
            fh, delimiter=";" if french else ",", lineterminator="\r\n" if french else "\n"
        )
        writer.writerow(header)
        writer.writerows(zip(*texts, strict=True))
    return path.stat().st_size


def write_xlsx(path: Path, sheets: list[tuple[str, Table]], rng: np.random.Generator) -> int:
    """A workbook with one sheet per kind, French headers, dates as date cells."""
    import xlsxwriter

    workbook = xlsxwriter.Workbook(str(path), {"in_memory": True})
    workbook.set_properties({"created": XLSX_CREATED, "author": XLSX_AUTHOR})
    date_format = workbook.add_format({"num_format": "yyyy-mm-dd"})
    for name, table in sheets:
        sheet = workbook.add_worksheet(name)
        columns = table.columns
        for j, label in enumerate(headers(columns, rng, True)):
            sheet.write_string(0, j, label)
        for j, column in enumerate(columns):
            for i, value in enumerate(table.values(column), start=1):
                if value is None:
                    continue
                if isinstance(value, dt.date):
                    sheet.write_datetime(i, j, dt.datetime.combine(value, dt.time()), date_format)
                elif isinstance(value, str):
                    sheet.write_string(i, j, value)
                else:
                    sheet.write_number(i, j, value)
    workbook.close()
    return path.stat().st_size


def write_tournament(folder: Path, tour: Tournament, rng: np.random.Generator) -> list[int]:
    """Write a tournament's files in its flavour: `<tid>.csv` (and `<tid>_games.csv`), or
    one workbook `<tid>.xlsx` with a `results` (and a `games`) sheet; their sizes."""
    games = None if tour.games is None else Table(tour.games, GAMES_COLUMNS, tour.n_games)
    if tour.flavour == "xlsx":
        sheets = [("results", Table(tour.results, RESULTS_FRENCH, tour.n_rows))]
        if games is not None:
            sheets.append(("games", games))
        return [write_xlsx(folder / f"{tour.tid}.xlsx", sheets, rng)]
    order = RESULTS_FRENCH if tour.flavour == "fr" else RESULTS_CANONICAL
    results = Table(tour.results, order, tour.n_rows)
    sizes = [write_csv(folder / f"{tour.tid}.csv", results, tour.flavour, rng)]
    if games is not None:
        sizes.append(write_csv(folder / f"{tour.tid}_games.csv", games, tour.flavour, rng))
    return sizes


# Age categories of the simulated ranking, by the age reached in the calendar year the
# season ends (a simplification of the FFSc's own categories): under 18 Jeunes, 18–59
# Seniors, 60–69 Vermeil, 70 and over Diamant.
AGE_CATEGORIES = ((18, "Jeunes"), (60, "Seniors"), (70, "Vermeil"))
OLDEST_CATEGORY = "Diamant"


def age_category(age: int) -> str:
    """The age category of the simulated FFSc ranking (`AGE_CATEGORIES`)."""
    return next((label for limit, label in AGE_CATEGORIES if age < limit), OLDEST_CATEGORY)


def _decimal(value: float) -> str:
    """Two decimals with a decimal comma, as the FFSc export writes them."""
    return f"{value:.2f}".replace(".", ",")


def ffsc_rows(ranking: SeasonRanking, pop: Population, world: World) -> list[list[str]]:
    """The rows of the FFSc ranking of a season (see `write_ffsc_ranking`), in the order of
    `FFSC_HEADER`."""
    rows = np.flatnonzero(pop.fed[ranking.players] == FRANCE)
    place = competition_ranks(np.round(ranking.perf[rows] * 10000).astype(np.int64))
    players = ranking.players[rows]
    tied = np.bincount(place)[place] > 1
    held = series_labels(ranking.held[rows])
    potential = series_labels(ranking.potential[rows])
    lines: list[list[str]] = []
    for k in np.lexsort((pop.licence[players], place)):
        i, r = int(players[k]), int(rows[k])
        cells = {
            "place": f"{place[k]}ex" if tied[k] else str(place[k]),
            "joueur": f"{ALL_LAST[pop.last[i]].upper()} {ALL_FIRST[pop.first[i]]}",
            "licence": str(pop.licence[i]),
            "categorie": age_category(ranking.as_of.year - int(pop.birth_year[i])),
            "serie": held[k],
            "club": world.club_name[int(pop.club[i])],
            "point": _decimal(100 * ranking.points[r]),
            "ps1": _decimal(100 * ranking.perf[r]),
            "ps2": _decimal(100 * ranking.best[r]),
            "ps3": _decimal(100 * ranking.worst[r]),
            "pp4": _decimal(100 * ranking.percentile[r]),
            "serie_potentielle": potential[k],
        }
        lines.append([cells[column] for column in FFSC_HEADER])
    return lines


def write_ffsc_ranking(
    folder: Path, ranking: SeasonRanking, pop: Population, world: World
) -> tuple[int, int]:
    """Write `classement_<as_of>.csv`, the FFSc national ranking at the end of a season, for
    the French (FRA) players who played duplicate in it; returns (bytes, rows).

    `;`-separated, Windows-1252, CRLF, decimal commas, one row per player in place order
    (then licence). Columns:

    - `place`: rank by the season performance `ps1` (two decimals); tied players share the
      best place, written with the `ex` suffix (`12ex`);
    - `joueur`: « NOM Prénom », the last name in upper case; `licence`; `club`;
    - `categorie`: the age category (`age_category`) from the birth year;
    - `serie`: the series held during the season; `serie_potentielle`: the series the
      simulator assigns for the next season (its own quota classification of every player
      of the season, all federations together, by `ps1`): the "official" classification
      the project's own is compared with;
    - `point`: the sum over the season's duplicate events of coefficient × score / top, in
      percent (a season points figure growing with the events played);
    - `ps1`: the weighted mean percentage of the top (score / top × 100, events weighted by
      their coefficient), the simulator's classification value; `ps2`: the best event
      percentage; `ps3`: the worst event percentage; `pp4`: the percentile of `ps1` among
      every player of the season (share of players with a lower value, × 100).

    Everything comes from the simulation as it ran: nothing is drawn at random.
    """
    path = folder / f"classement_{ranking.as_of.isoformat()}.csv"
    lines = ffsc_rows(ranking, pop, world)
    with path.open("w", encoding=ENCODINGS["fr"], newline="") as fh:
        writer = csv.writer(fh, delimiter=";", lineterminator="\r\n")
        writer.writerow(FFSC_HEADER)
        writer.writerows(lines)
    return path.stat().st_size, len(lines)
