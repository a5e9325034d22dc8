"""The printed season reports: every section title in the text, every chart drawn on its
page (pixels of the rendered page, not just its text)."""

from __future__ import annotations

import re
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from pipelines.reports.charts import BAR_LINE, axis, base_layout, hline
from pipelines.reports.html import Html
from pipelines.reports.page import page
from pipelines.reports.pdf import print_pdf
from pipelines.reports.section import Chart, chart_html
from pipelines.reports.sections import discover

# PDF tests never skip: without Chromium and poppler-utils (scripts/system-deps.sh) they fail.
pytestmark = pytest.mark.slow
DPI = 50
PX_TO_PT = 0.75  # a CSS pixel is 1/96 in, a PDF point 1/72 in (printed at scale 1)


def _text(pdf: Path, *args: str) -> str:
    return subprocess.run(
        ["pdftotext", *args, str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout


def _png_rgb(path: Path) -> tuple[int, int, list[bytes]]:
    """Rows of RGB bytes of an 8-bit non-interlaced PNG (what pdftoppm writes)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 3
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        chunk = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and color in (2, 6), (depth, color)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 255
        previous = line
        rgb = (
            bytes(line)
            if channels == 3
            else bytes(b for j in range(0, stride, 4) for b in line[j : j + 3])
        )
        rows.append(rgb)
    return width, height, rows


def _is_bar_red(r: int, g: int, b: int) -> bool:
    br, bg, bb = (int(BAR_LINE[i : i + 2], 16) for i in (1, 3, 5))
    return abs(r - br) + abs(g - bg) + abs(b - bb) < 90 or (r > 150 and g < 140 and b < 140)


def _drawn_pixels(png: Path, box: tuple[float, float, float, float]) -> tuple[int, int]:
    """(non-white pixels, coloured pixels that are not the red bar lines) in a box given
    in PDF points (x0, y0, x1, y1): traces are coloured; axes, grid and text are grey."""
    width, height, rows = _png_rgb(png)
    scale = DPI / 72
    x0, y0, x1, y1 = (round(v * scale) for v in box)
    ink = coloured = 0
    for y in range(max(y0, 0), min(y1, height)):
        row = rows[y]
        for x in range(max(x0, 0), min(x1, width)):
            r, g, b = row[3 * x : 3 * x + 3]
            if r + g + b < 720:
                ink += 1
            if max(r, g, b) - min(r, g, b) > 60 and not _is_bar_red(r, g, b):
                coloured += 1
    return ink, coloured


_WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
)


def _captions(pdf: Path) -> dict[int, tuple[int, float, float]]:
    """Figure number → (page, top of its caption, page width) in points."""
    found: dict[int, tuple[int, float, float]] = {}
    for number, chunk in enumerate(_text(pdf, "-bbox").split("<page ")[1:], start=1):
        page_width = float(re.search(r'width="([\d.]+)"', chunk).group(1))  # type: ignore[union-attr]
        words = _WORD.findall(chunk)
        for i, (_, top, _, _, word) in enumerate(words[:-1]):
            if word == "Figure" and words[i + 1][4].isdigit():
                found.setdefault(int(words[i + 1][4]), (number, float(top), page_width))
    return found


def _chart_heights(html: str) -> list[int]:
    """The heights (CSS px) of the report's charts, in figure order."""
    return [int(h) for h in re.findall(r'class="plot" style="height:(\d+)px"', html)]


def _check_charts_drawn(pdf: Path, html: str, out: Path) -> list[tuple[int, int, int]]:
    heights = _chart_heights(html)
    captions = _captions(pdf)
    assert sorted(captions) == list(range(1, len(heights) + 1)), captions
    results = []
    for number, height in enumerate(heights, start=1):
        page_no, top, page_width = captions[number]
        png = out / f"page-{page_no}"
        if not png.with_suffix(".png").exists():
            subprocess.run(
                [
                    "pdftoppm",
                    "-png",
                    "-r",
                    str(DPI),
                    "-f",
                    str(page_no),
                    "-l",
                    str(page_no),
                    "-singlefile",
                    str(pdf),
                    str(png),
                ],
                check=True,
            )
        box = (0.0, top - height * PX_TO_PT, page_width, top)
        ink, coloured = _drawn_pixels(png.with_suffix(".png"), box)
        results.append((number, ink, coloured))
    return results


@pytest.fixture(scope="module")
def sample(sample_site: Path) -> Path:
    return sample_site / "reports"


def test_pdf_holds_every_section_and_drawn_charts(sample: Path, tmp_path: Path) -> None:
    seasons = sorted(p.parent.name for p in sample.glob("*/rapport-*.pdf"))
    assert len(seasons) >= 2
    for season in seasons:
        pdf = sample / season / f"rapport-{season}.pdf"
        html = (sample / season / "index.html").read_text(encoding="utf-8")
        text = " ".join(_text(pdf, "-layout").split())
        assert f"Rapport de la saison {season}" in text
        for section in discover():
            assert " ".join(section.title.split()) in text, (season, section.title)
        out = tmp_path / season
        out.mkdir()
        for number, ink, coloured in _check_charts_drawn(pdf, html, out):
            assert ink > 2_000, (season, number, ink)
            assert coloured > 150, (season, number, coloured)


def test_pixel_check_sees_an_empty_chart(tmp_path: Path) -> None:
    """The check above can fail: a chart with axes and a bar line but no trace is caught."""
    shape, note = hline(1500, "barre A : 1 500")
    empty = {
        "data": [],
        "layout": base_layout(
            xaxis=axis("Date", type="date", range=["2024-01-01", "2024-06-30"]),
            yaxis=axis("Cote", range=[1000, 2000]),
            shapes=[shape],
            annotations=[note],
        ),
    }
    drawn = {
        "data": [
            {
                "type": "scatter",
                "x": ["2024-02-01", "2024-05-01"],
                "y": [1200, 1800],
                "mode": "lines",
                "line": {"width": 2},
            }
        ],
        "layout": empty["layout"],
    }
    body = Html(
        '<section class="report-section" id="t"><h2>Essai</h2>'
        + chart_html("chart-t-empty", Chart("empty", empty, "vide", height=300), 1)
        + chart_html("chart-t-drawn", Chart("drawn", drawn, "tracée", height=300), 2)
        + "</section>"
    )
    html = page("Essai", body)
    (tmp_path / "t.html").write_text(html, encoding="utf-8")
    pdf = print_pdf(tmp_path / "t.html", tmp_path / "t.pdf")
    (empty_result, drawn_result) = _check_charts_drawn(pdf, html, tmp_path)
    assert empty_result[1] > 2_000  # axes, grid and labels are there…
    assert empty_result[2] < 150  # …but no trace
    assert drawn_result[2] > 150
