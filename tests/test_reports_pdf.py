"""The printed season reports: every section title in the text, every chart drawn on its
page (pixels of the rendered page, not just its text)."""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import itertools
import re
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from pipelines.reports.charts import BAR_LINE, axis, base_layout, hline
from pipelines.reports.html import Html
from pipelines.reports.page import (
    PRINT_PLOTLY,
    PRINT_TRACES,
    PRINT_WIDTH_PX,
    bundle_version,
    page,
    plotly_js,
    print_plotly_js,
)
from pipelines.reports.pdf import (
    _TYPES,
    ALONE_ROWS,
    LONG_OPEN,
    LONG_PRINTING,
    MARGINS,
    PAPER_WIDTH_PX,
    PLOTLY_PATH,
    REPORTS_URL,
    SAMPLE_ROWS,
    SCREEN_ONLY,
    VIEWPORT_HEIGHT,
    _is_long,
    _LongPages,
    _serving,
    external_plotly,
    footer_css,
    page_title,
    print_pdf,
    print_pdfs,
    print_scale,
)
from pipelines.reports.section import Chart, chart_html
from pipelines.reports.sections import discover

# PDF tests never skip: without Chromium and poppler-utils (scripts/system-deps.sh) they fail.
pytestmark = pytest.mark.slow
DPI = 50
_HTML, _JS = _TYPES[".html"], _TYPES[".js"]
PX_TO_PT = 0.75  # a CSS pixel is 1/96 in, a PDF point 1/72 in (printed at scale 1)


def _text(pdf: Path, *args: str) -> str:
    return subprocess.run(
        ["pdftotext", *args, str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout


def _ppm_rgb(path: Path) -> np.ndarray:
    """The pixels (height × width × RGB, 8 bits) of a binary PPM, what pdftoppm writes by
    default: a header « P6 width height 255 », then the rows of RGB bytes."""
    data = path.read_bytes()
    header = data.split(maxsplit=4)
    assert header[0] == b"P6" and header[3] == b"255", header[:4]
    width, height = int(header[1]), int(header[2])
    pixels = np.frombuffer(data[len(data) - width * height * 3 :], dtype=np.uint8)
    return pixels.reshape(height, width, 3)


def _bar_red(r: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The pixels of the red bar lines (`BAR_LINE`, or anything as red)."""
    br, bg, bb = (int(BAR_LINE[i : i + 2], 16) for i in (1, 3, 5))
    near = np.abs(r - br) + np.abs(g - bg) + np.abs(b - bb) < 90
    return near | ((r > 150) & (g < 140) & (b < 140))


def _drawn_pixels(ppm: Path, box: tuple[float, float, float, float]) -> tuple[int, int]:
    """(non-white pixels, coloured pixels that are not the red bar lines) in a box given
    in PDF points (x0, y0, x1, y1): traces are coloured; axes, grid and text are grey."""
    pixels = _ppm_rgb(ppm)
    height, width = pixels.shape[:2]
    scale = DPI / 72
    x0, y0, x1, y1 = (round(v * scale) for v in box)
    inside = pixels[max(y0, 0) : min(y1, height), max(x0, 0) : min(x1, width)].astype(np.int32)
    r, g, b = inside[..., 0], inside[..., 1], inside[..., 2]
    ink = int((r + g + b < 720).sum())
    spread = inside.max(axis=2) - inside.min(axis=2)
    coloured = int(((spread > 60) & ~_bar_red(r, g, b)).sum())
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
        ppm = out / f"page-{page_no}"
        if not ppm.with_suffix(".ppm").exists():
            subprocess.run(
                [
                    "pdftoppm",
                    "-r",
                    str(DPI),
                    "-f",
                    str(page_no),
                    "-l",
                    str(page_no),
                    "-singlefile",
                    str(pdf),
                    str(ppm),
                ],
                check=True,
            )
        box = (0.0, top - height * PX_TO_PT, page_width, top)
        ink, coloured = _drawn_pixels(ppm.with_suffix(".ppm"), box)
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


# The text of each part of a report as the HTML holds it (every list included, closed or
# not; charts, scripts and screen-only links left out): the header with its notice, then
# each section.
_PARTS = """() => {
  const clean = el => { const c = el.cloneNode(true);
    c.querySelectorAll('.plot, script, style, .no-print').forEach(e => e.remove());
    const texts = []; const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) { texts.push(walk.currentNode.nodeValue); }
    return texts.join(' '); };
  const head = [document.querySelector('header.page'), document.getElementById('data-notice')];
  return [{title: null, text: head.filter(e => e).map(clean).join(' ')}].concat(
    Array.from(document.querySelectorAll('section.report-section')).map(s =>
      ({title: s.dataset.title, text: clean(s)})));
}"""


def _words(text: str) -> Counter[str]:
    """The words and punctuation marks of a text, hyphens left out: a line may break after
    a hyphen, which pdftotext then drops (« Aix-en-Provence » printed « Aix-en » /
    « Provence »). Punctuation counts apart from the word it follows: the HTML's text
    nodes are joined with spaces (« Annick</a>, » gives « Annick , »), the PDF's not."""
    spaced = text.replace("\u202f", " ").replace("\xa0", " ").replace("-", "")
    return Counter(re.findall(r"\w+|[^\w\s]", spaced))


def _html_parts(*htmls: Path) -> list[list[tuple[str | None, str]]]:
    """Each page's parts (title, text) as Chromium shows them, the pages opened one after
    the other in one tab of one Chromium."""
    from playwright.sync_api import sync_playwright

    from pipelines.reports.pdf import CHROMIUM_ARGS, chromium_path

    found = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=list(CHROMIUM_ARGS))
        try:
            page = browser.new_page()
            for html in htmls:
                page.goto(html.resolve().as_uri(), wait_until="load")
                found.append([(p["title"], p["text"]) for p in page.evaluate(_PARTS)])
        finally:
            browser.close()
    return found


def _pdf_parts(pdf: Path, titles: list[str]) -> list[str]:
    """The PDF's text split where each section after the first starts (a new page opening
    on its title); the first part holds the header and the first section (printed on the
    first page, after the table of contents that names every title)."""
    pages = _text(pdf).split("\f")
    starts = [0]
    for title in titles[1:]:
        wanted = " ".join(title.split())
        found = next(
            i
            for i in range(starts[-1] + 1, len(pages))
            if wanted in " ".join(pages[i].split()[:40])
        )
        starts.append(found)
    bounds = [*starts, len(pages)]
    return ["\f".join(pages[a:b]) for a, b in itertools.pairwise(bounds)]


def test_the_pdf_holds_the_text_of_the_html_section_by_section(sample: Path) -> None:
    """Every word of each section of the HTML (the lists of <details> included) is in the
    matching part of the PDF, the header and its notice with the first section: the PDF is
    the page printed, nothing folded away."""
    seasons = sorted(p.parent.name for p in sample.glob("*/rapport-*.pdf"))
    html_parts = _html_parts(*(sample / season / "index.html" for season in seasons))
    for season, ((_, head), *sections) in zip(seasons, html_parts, strict=True):
        titles = [t or "" for t, _ in sections]
        printed = _pdf_parts(sample / season / f"rapport-{season}.pdf", titles)
        assert len(printed) == len(sections)
        texts = [head + " " + sections[0][1], *(text for _, text in sections[1:])]
        for title, text, pdf_text in zip(titles, texts, printed, strict=True):
            missing = _words(text) - _words(pdf_text)
            assert not missing, (season, title, sorted(missing.items())[:20])


def test_the_comparison_can_fail(tmp_path: Path) -> None:
    """The lists print opened; a list that would not print (hidden here in print) is
    caught by the same word comparison."""
    section = (
        '<section class="report-section" id="t" data-title="Essai de liste"><h2>Essai de '
        "liste</h2><details><summary>Liste</summary><p>Zéphyrin Quintal</p></details>"
        "</section>"
    )
    body = Html('<header class="page"><h1>Essai</h1></header>' + section)
    opened = page("Essai", body, with_plotly=False)  # no chart: no plotly.js to load
    folded = opened.replace("</style>", "@media print { details p { display: none; } }</style>")
    for name, html in (("opened", opened), ("folded", folded)):
        (tmp_path / f"{name}.html").write_text(html, encoding="utf-8")
    # both printed by one Chromium (`print_pdf` is `print_pdfs` of one page)
    print_pdfs([(tmp_path / f"{n}.html", tmp_path / f"{n}.pdf") for n in ("opened", "folded")])
    (parts,) = _html_parts(tmp_path / "opened.html")
    assert [t for t, _ in parts] == [None, "Essai de liste"]
    for name, missing in (("opened", Counter()), ("folded", Counter(["Zéphyrin", "Quintal"]))):
        (printed,) = _pdf_parts(tmp_path / f"{name}.pdf", ["Essai de liste"])
        assert _words(parts[1][1]) - _words(printed) == missing, name


def _list_page(folder: Path, name: str, rows: int, script: str = "") -> Path:
    """A page without charts holding a list of `rows` players in a <details>."""
    body = "".join(f'<tr><td>Joueur {i}</td><td class="num">{i}</td></tr>' for i in range(rows))
    html = page(
        name,
        Html(
            f'<header class="page"><h1>{name}</h1></header><section class="report-section">'
            f"<h2>{name}</h2><details><summary>Liste</summary><table><tbody>{body}</tbody>"
            f"</table></details></section>{script}"
        ),
        with_plotly=False,
    )
    path = folder / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    return path


def _note(seen: list[tuple[int, int]], done: int, total: int) -> None:
    seen.append((done, total))


def test_pages_printed_at_once_are_the_pages_printed_one_by_one(tmp_path: Path) -> None:
    """Two workers print the same bytes as one, every list whole, and the PDFs come back
    in the order the pages were given, whatever order they finished in."""
    pages = [_list_page(tmp_path, f"liste-{n}", rows) for n, rows in enumerate((300, 5, 40))]
    stamp = dt.datetime(2025, 1, 15, 12)
    printed: dict[int, list[bytes]] = {}
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        targets = [(html, out / f"{html.stem}.pdf") for html in pages]
        seen: list[tuple[int, int]] = []
        done = print_pdfs(
            targets,
            root=tmp_path,
            stamp=stamp,
            workers=workers,
            progress=functools.partial(_note, seen),
        )
        assert done == [pdf for _, pdf in targets]
        assert seen == [(1, 3), (2, 3), (3, 3)]
        printed[workers] = [pdf.read_bytes() for pdf in done]
    assert printed[1] == printed[2]
    assert "Joueur 299" in _text(tmp_path / "w2" / "liste-0.pdf")


def test_a_page_that_fails_stops_the_printing_with_its_own_error(tmp_path: Path) -> None:
    good = _list_page(tmp_path, "bonne", 3)
    bad = _list_page(tmp_path, "cassee", 3, '<script>throw new Error("panne");</script>')
    with pytest.raises(RuntimeError, match=r"cassee\.html: erreur JavaScript : .*panne"):
        print_pdfs(
            [(good, tmp_path / "bonne.pdf"), (bad, tmp_path / "cassee.pdf")],
            root=tmp_path,
            workers=2,
        )
    assert not (tmp_path / "cassee.pdf").exists()


def test_a_page_that_never_prints_fails_the_build_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page still not printed after `PAGE_SECONDS` (a Chromium that stopped answering:
    Playwright's printing waits without limit) fails the printing with its name."""
    from pipelines.reports import pdf

    async def never(*_: object) -> Path:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    monkeypatch.setattr(pdf, "_print_page", never)
    monkeypatch.setattr(pdf, "PAGE_SECONDS", 0.2)
    stuck = _list_page(tmp_path, "figee", 3)
    with pytest.raises(TimeoutError, match=r"figee\.html : impression non terminée après 0.2 s"):
        print_pdfs([(stuck, tmp_path / "figee.pdf")], root=tmp_path)
    assert not (tmp_path / "figee.pdf").exists()


def test_long_pages_print_two_at_a_time_the_next_one_loading(tmp_path: Path) -> None:
    """A page of `ALONE_ROWS` rows or more is long (its print layout is the memory of a
    build): long pages print `LONG_PRINTING` at a time, at most `LONG_OPEN` open at once
    (the next one loads while two print); short pages are not held back."""
    assert _is_long(_list_page(tmp_path, "longue", ALONE_ROWS))
    assert not _is_long(_list_page(tmp_path, "courte", ALONE_ROWS - 1))

    async def run(kinds: list[bool], workers: int) -> tuple[list[int], list[int], int]:
        longs, queue = _LongPages(), list(reversed(kinds))
        opened, printing, open_peaks, print_peaks = [0], [0], [], []
        short_printing = [0]

        async def worker() -> None:
            while queue:
                long = queue.pop()
                async with longs.open(long):
                    opened[0] += long
                    open_peaks.append(opened[0])
                    await asyncio.sleep(0)  # loading
                    async with longs.print(long):
                        printing[0] += long
                        short_printing[0] = max(short_printing[0], printing[0] + (not long))
                        print_peaks.append(printing[0])
                        await asyncio.sleep(0)
                        await asyncio.sleep(0)
                        printing[0] -= long
                    opened[0] -= long

        await asyncio.gather(*(worker() for _ in range(workers)))
        return open_peaks, print_peaks, short_printing[0]

    open_peaks, print_peaks, _ = asyncio.run(run([True] * 5, 4))
    assert max(print_peaks) == LONG_PRINTING == 2  # one a core, never three
    assert max(open_peaks) == LONG_OPEN == 3  # the next one loads beside the printing two
    _, _, beside = asyncio.run(run([True, False, False], 2))
    assert beside == 2  # a short page prints beside a long one


def test_a_page_read_from_disk_prints_the_links_of_the_reports_address(tmp_path: Path) -> None:
    """The printer reads a page from disk but its PDF names no local path: a link to a
    player's page points below the reports' address, the table of contents links inside
    the PDF, and the table held out of the layout while the page loads is printed."""
    folder = tmp_path / "2024-2025"
    folder.mkdir()
    body = Html(
        '<header class="page"><h1>Essai</h1></header><nav class="toc">'
        '<a href="#liste">Liste</a></nav><section class="report-section" id="liste" '
        'data-title="Liste"><h2>Liste</h2><table><tbody><tr><td>'
        '<a href="../joueurs/123.html">Zéphyrin Quintal</a></td><td class="num">1 964</td>'
        "</tr></tbody></table></section>"
    )
    (folder / "index.html").write_text(page("Essai", body, with_plotly=False), encoding="utf-8")
    pdf = print_pdf(folder / "index.html", folder / "essai.pdf", root=tmp_path)
    data = pdf.read_bytes()
    assert re.findall(rb"/URI \(([^)]*)\)", data) == [REPORTS_URL.encode() + b"joueurs/123.html"]
    assert data.count(b"/Subtype /Link") == 2  # the player's page and the section (inside)
    assert b"file:" not in data and str(tmp_path).encode() not in data
    assert b"127.0.0.1" not in data  # nor the address the printer served it from
    assert "Zéphyrin Quintal 1 964" in " ".join(_text(pdf, "-layout").split())


def test_the_printer_serves_plotly_by_address_and_nothing_outside_the_folder(
    tmp_path: Path,
) -> None:
    """A season report embeds plotly.js (it travels alone); the printer serves Chromium the
    page with that same script loaded by address (its compiled code kept for the next
    reports), the page otherwise byte for byte; a page without it is served as it is;
    nothing outside the folder is served."""
    inline = f"<script>{plotly_js()}</script>".encode()
    by_address = f'<script src="{PLOTLY_PATH}"></script>'.encode()
    report = page("Essai", Html("<p>Zéphyrin</p>")).encode()
    plain = page("Essai", Html("<p>Zéphyrin</p>"), with_plotly=False).encode()
    assert inline in report
    assert external_plotly(report) == report.replace(inline, by_address)
    assert external_plotly(plain) == plain
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "r.html").write_bytes(report)
    (tmp_path / "secret.txt").write_text("non")
    with _serving() as server:
        address = server.url(tmp_path / "site" / "r.html", (tmp_path / "site").resolve())
        assert address.startswith("http://127.0.0.1:")
        assert server.content(address) == (report.replace(inline, by_address), _HTML, "no-store")
        # the cartesian bundle of the same version (`print_plotly_js`), not the page's own
        served = server.content(PLOTLY_PATH)
        assert served == (PRINT_PLOTLY.read_bytes(), _JS, "max-age=86400")
        for elsewhere in ("/0/../secret.txt", "/0/%2e%2e/secret.txt", "/1/r.html", "/x/r.html"):
            assert server.content(elsewhere) is None, elsewhere


def test_the_rows_held_from_the_screen_are_shown_on_paper() -> None:
    """The rows beyond `SAMPLE_ROWS` are held out of the tab's layout by a media query on
    its height (`SCREEN_ONLY`), which a printed page never matches: A4 less the margins is
    higher than the tab's viewport at scale 1, and higher still when shrunk."""
    millimetres = sum(float(str(MARGINS[side]).removesuffix("mm")) for side in ("top", "bottom"))
    printed_height = 11.7 * 96 - millimetres * 96 / 25.4  # A4 as Playwright sizes it
    assert f"(max-height: {VIEWPORT_HEIGHT}px)" == SCREEN_ONLY
    assert printed_height - 200 > VIEWPORT_HEIGHT


def test_the_print_scale_and_the_footer_title() -> None:
    assert print_scale(PRINT_WIDTH_PX) == 1.0
    assert print_scale(901) == pytest.approx(PAPER_WIDTH_PX / 902)
    assert 'content: "Rapport \\22 x\\22  \\5c  — page " counter(page)' in footer_css(
        'Rapport "x" \\'
    )
    assert page_title(b"<title>Rapport de la saison 2024-2025 &amp; co</title>") == (
        "Rapport de la saison 2024-2025 & co"
    )


def _words_in_box(pdf: Path) -> list[tuple[int, float, str]]:
    """(page, right edge in points, word) of every word of a PDF."""
    found = []
    for number, chunk in enumerate(_text(pdf, "-bbox").split("<page ")[1:], start=1):
        found += [(number, float(x1), word) for _, _, x1, _, word in _WORD.findall(chunk)]
    return found


def test_a_page_wider_than_the_paper_prints_whole_within_the_paper(tmp_path: Path) -> None:
    """A table wider than the paper whose widest row comes after the rows its width is
    measured on (`SAMPLE_ROWS`): every row and every column is printed (Chromium's own
    shrinking stops at 1.5 times the paper's width and cut the columns beyond off), every
    word within the paper's margins, each page with its footer."""
    cells = '<td class="num">1 964 000</td>' * 16  # wider than 1.5 × the paper
    rows = [f"<tr><td>J{i:03}</td>{cells}<td></td></tr>" for i in range(SAMPLE_ROWS + 60)]
    rows.append(f'<tr><td>Zéphyrin</td>{cells}<td class="num">{"9" * 30}</td></tr>')
    body = Html(
        '<header class="page"><h1>Essai</h1></header><section class="report-section">'
        f"<h2>Liste</h2><table><tbody>{''.join(rows)}</tbody></table></section>"
    )
    (tmp_path / "large.html").write_text(page("Très large", body), encoding="utf-8")
    pdf = print_pdf(tmp_path / "large.html", tmp_path / "large.pdf")
    text = " ".join(_text(pdf, "-layout").split())
    assert all(f"J{i:03}" in text for i in range(SAMPLE_ROWS + 60))
    assert "Zéphyrin" in text and "9" * 30 in text
    assert text.count("1 964 000") == 16 * (SAMPLE_ROWS + 61)  # no column cut off
    words = _words_in_box(pdf)
    pages = max(number for number, _, _ in words)
    paper_right = 8.27 * 72 - 10 / 25.4 * 72  # A4's width less the right margin, in points
    assert max(right for _, right, _ in words) <= paper_right + 1
    for number in range(1, pages + 1):
        assert f"Très large — page {number} / {pages}" in text


def test_the_pdfs_plotly_is_the_cartesian_bundle_of_the_packages_version() -> None:
    """The printer's plotly.js (`print_plotly_js`) is the cartesian bundle of the version the
    plotly package embeds; a bundle of another version is never served."""
    from plotly.offline import get_plotlyjs_version

    cartesian = PRINT_PLOTLY.read_text(encoding="utf-8")
    assert bundle_version(cartesian) == get_plotlyjs_version(), (
        f"plotly embeds plotly.js {get_plotlyjs_version()}: replace {PRINT_PLOTLY} by "
        "plotly-cartesian.min.js of the npm package plotly.js-cartesian-dist-min at that "
        "version (pipelines/reports/assets/README.md)"
    )
    assert print_plotly_js() == cartesian
    assert len(cartesian) < len(plotly_js()) / 2
    assert bundle_version(plotly_js()) is None  # (the full bundle's heading is another)
    assert bundle_version("/**\n* plotly.js (cartesian - minified) v9.9.9\n*/") == "9.9.9"


@pytest.mark.parametrize("kind", ["scattergl", "sankey", "choropleth"])
def test_a_chart_of_a_trace_type_the_pdfs_plotly_lacks_is_refused(kind: str) -> None:
    figure = {"data": [{"type": kind, "x": [1], "y": [2]}], "layout": {}}
    with pytest.raises(ValueError, match=f"type de tracé '{kind}'"):
        chart_html("chart-t-x", Chart("x", figure, "essai"), 1)
    assert kind not in PRINT_TRACES
    for fine in ({"x": [1], "y": [2]}, {"type": "histogram", "x": [1, 2]}):
        assert "classementPlot" in chart_html("chart-t-y", Chart("y", {"data": [fine]}, "ok"), 1)
