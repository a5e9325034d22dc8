"""Print reports to PDF with the system's Chromium, driven by Playwright.

Playwright's own browser download is never used: Debian's Chromium is launched, its
headless shell when installed (`chromium_path`; `scripts/system-deps.sh` installs both),
once for all the pages of a build, several pages printing at once in tabs of their own
(`print_workers`: one per core; Chromium lays out and paints a page on one core). Each
page is laid out at the printable width of an A4 page, every chart is awaited, then Chromium
prints it.
The same page prints to the same bytes: its links are those of a fixed address, not of its
path on disk, and the PDF's dates are the report's generation date.

What printing a long report costs (a season report of 20,000 players: 11,600 table rows,
67,000 cells, 12,800 chart markers, 274 printed pages) and what is done about it:
- the page is served to Chromium by a server of the printing's own (`_PageServer`, on
  127.0.0.1, for the time of the printing; no 11 MB body through Playwright's pipe), its
  links then given the fixed address by a `<base>` element added once it is loaded;
- plotly.js, embedded in a season report (it travels alone), is served to Chromium by
  address instead (`external_plotly`: the page otherwise byte for byte), with a profile of
  the printing's own: Chromium keeps the code it compiled for a script loaded by address
  (never for one written in the page), so plotly.js is compiled for the first two reports
  of a build and then read back (2.3 s -> 0.3 s a page on a quiet machine; the circuit
  pages, which embed it too, gain as much: 5.0 -> 2.7 CPU-s a page on the s4 copy);
- plotly.js is served as its cartesian bundle (`pipelines.reports.page.PRINT_PLOTLY`:
  the trace types of every report's charts, a third of the full bundle's code). Loading
  plotly.js was about half of a circuit page's printing (12 of the bench's circuit pages:
  9.6-10.7 CPU-s of the machine with plotly.js loaded and no chart drawn, 4.6-4.9 without
  plotly.js, 12.2-12.7 as printed); the bench's 42 circuit pages, full bundle -> cartesian,
  alternated: 52.7-56.0 -> 46.7-48.0 CPU-s of the machine (one run 56.0), 27.5-29.2 ->
  24.3-25.1 s; its season reports, within the noise. The PDFs are the same bytes but their
  dates (the 42 circuit pages and three season reports compared);
- its tables are kept out of the layout while it loads (`HOLD_TABLES`: Plotly measures
  the page as it draws each chart); the page's width is then measured on the first
  `SAMPLE_ROWS` rows of each table, and the rows beyond stay out of the tab's layout for
  the screen (`SCREEN_ONLY`), laid out for the paper alone: Chromium laid every row out
  for the screen just before printing and again just after;
- a page wider than the paper (a table of long numeric headings) is printed at the scale
  that fits it (`print_scale`): Chromium laid it out at the paper's width, then again at
  its own width, and shrank it at most 1.5 times (the columns beyond were cut off: the
  wide circuit tables lost their last tournaments);
- the footer is a CSS margin box of the page (`FOOTER_CSS`), not Playwright's footer
  template (a document of its own for each printed page: 274 parsed, styled, laid out);
- long pages print apart from the others, the next one loading in its own tab meanwhile
  (`_LongPages`): the loading (reading, plotly.js, the charts: about half of a season
  report's 8 CPU-s) runs on the other core, for about 0.35 GiB more at the peak;
- left: the print layout of every row (fragmented into pages: about 0.9 GiB of the
  renderer's peak and 3 CPU-s a season report) and its painting into the PDF.
Measured with `python -m benchmarks.pdf_print` on the s4 copy (4 season reports of 20,000
players, a machine shared by a dozen busy processes), before -> after these two: Chromium's
CPU 37.6 -> 30.8 s (its renderers 30.0 -> 23.5), 106 -> 72 s of wall-clock time, peak
PSS of its processes together 2.10 -> 1.88 GiB, largest process 1.64 -> 1.24 GiB, the
same PDFs byte for byte (and the sample's 11). The 10 circuit pages: 15 CPU-s either way.
Typst for the whole-field lists does not win: their 11,300 rows alone (158 pages) took
it 4.3 to 5.8 CPU-s and 0.9 to 1.2 GiB (fixed or automatic column widths).
Long pages print two at a time (`LONG_PRINTING`; at most three open, `_LongPages`).
Printed one at a time, the next one loading beside it, the other core idled once that
page was loaded (its loading, reading, plotly.js and the charts, is about a third of the
report's CPU; the printing, one core's layout and painting, the rest): the printing chain
set the pace, ~14.5 s of one core a season report of 20,000 players on the machine of
2 Dec, when its whole CPU, about 27 s there (Chromium's processes together), is ~13.5 s
of two. Measured with `python -m benchmarks.pdf_print` on 4 such season reports (copies
of the s20 run's) on that 2-core machine at a load of 17 to 20 from other work (the
wall-clock time then flatters the parallel printing, which takes a larger share of a
busy machine; on a quiet one, about the 7 % of 14.5 -> 13.5 s), one at a time -> two:
149 -> 132 s and 124 -> 114 s of wall-clock time in two pairs of runs, Chromium's CPU
93 -> 87 s and 90 -> 89 s, peak PSS of its processes together 2.1 -> 2.7 and 3.0 GiB
(the largest process the same, 1.4 GiB: each page has a renderer of its own), the same
PDFs byte for byte.
Where a season report's ~27 CPU-s go on that machine (Chromium traces of one report):
renderer ~20 s, its main thread loading ~6.5 s (the charts' scripts 2.8 s, plotly.js
1.8 s when not yet compiled, the HTML's parsing 1.4 s) and printing ~10 s (style 1.1 s,
layout for the paper 4.2 to 4.7 s, pre-paint 0.6 s, painting 307 pages 1.5 to 2 s, the
screen's style and layout back after the printing 1 s); the browser, print compositor,
GPU (screen frames while loading) and Playwright's driver ~2.2, 2.1, 1.4 and 0.7 s. The
PDF (12.5 MB) holds 13,958 form XObjects (the charts' markers) and 12,386 links. Tried
without a gain beyond the noise: collapsed borders printed separate (layout 3.65 ->
3.17 s once, the main thread's total not lower), the page's body held out of the
screen's layout once measured (no gain: the style and layout back after the printing
move to other threads), a tab 200 px high (less to raster, within the noise). Tagged
PDF and outline are already off (Playwright's defaults).
Where the 62 PDFs of s20 go now (7 December 2026, 17:58, `python -m benchmarks.pdf_print`
on the bench's reports, Chromium's headless shell): the 20 season reports 146 CPU-s of
Chromium (135 of them its renderers) in 80 s of wall-clock time, 7.3 CPU-s a report; the 42
circuit pages 46 CPU-s in 29 s, 1.1 a page. One season report of 20,000 players traced
(plotly.js compiled afresh, as for the first two of a build): loading 3.3 s of its
renderer's main thread (plotly.js 1.26 s, its charts 1.3 s, of which 0.48 s the French
classification's scatter), printing 5.3 s (layout 2.2 s, the PDF's pages made and sent
1.0 s, painting 0.5, style 0.75, pre-paint 0.26). The same page without its charts printed in
4.0 s, with its charts and its long lists cut to 100 rows in 1.5 s: the whole-field lists
are ~4 s of a report's printing, and that is their layout, not their fragmentation into
pages (the same lists on 22 pages 200 inches high: 3.4 and 4.0 s, against 3.8 and 4.0 s on
307 A4 pages). `table-layout: fixed` with the widths the first rows gave: no gain (4.4 and
5.4 s against 5.0 and 5.1). Printing three pages at once rather than two: no gain on the
circuit pages (32.9 s against 32.4). What would make the PDFs fit the bench's 150 s (about
60 s of printing beside a 90 s build, half of today's ~190 CPU-s): the whole-field lists
typeset by something that lays out 11,600 rows in well under a second (Typst took 4.3 to
5.8 s), the rest of each report still printed by Chromium. A throwaway prototype of a PDF
writer of our own (text placed cell by cell in the base-14 Helvetica, widths approximated,
headings repeated, a link annotation per player link, streams deflated) wrote the 8 lists
of 300 rows or more of that report, 12,895 rows, on 191 pages in 0.16 s: the gap is
closable that way, at the price of the lists' own typesetting (DejaVu Sans embedded and
measured from its tables, the pages merged into Chromium's in their sections' order, the
footer's page numbers across both).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import http.server
import json
import os
import re
import shutil
import tempfile
import threading
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache, partial
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING

from pipelines.reports.page import PRINT_WIDTH_PX, generated_at, plotly_js, print_plotly_js

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, PdfMargins, Route

CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
CHARTS_DRAWN = "() => document.querySelectorAll('.plot:not([data-rendered])').length === 0"
# The PDF is the page printed whole: every list (<details>) opened first.
OPEN_DETAILS = "() => document.querySelectorAll('details').forEach(d => { d.open = true; })"
# Run before the page's own scripts: its tables out of the layout while it loads (a style
# sheet of the document's own, no element of the page), until `SAMPLE_TABLES`.
HOLD_TABLES = """(() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync("table { display: none !important; }");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  window.classementHeldTables = sheet;
})();"""
# The tab's viewport: the printable width of the paper (`PRINT_WIDTH_PX`), and a height
# lower than any printed page's (`SCREEN_ONLY`).
VIEWPORT_HEIGHT = 800
# The first `rows` rows of each table laid out (for the screen), the page's width then
# measured (`print_scale`); the rows beyond are then held out of the screen's layout only:
# a media query on the height, true of the tab (`VIEWPORT_HEIGHT`), false of a printed
# page (A4 less its margins: at least 1,024 CSS pixels high at scale 1, more when the
# page is shrunk onto the paper). Chromium lays every row out for the paper alone; the
# layout for the screen before and after the printing keeps the first rows (on a season
# report of 20,000 players, 11,600 rows laid out twice more for the screen: about 2 CPU-s
# and 0.4 GiB of Chromium's peak). The media type cannot tell them apart: the tab is
# emulated as print, and Chromium prints with the emulated type.
SCREEN_ONLY = f"(max-height: {VIEWPORT_HEIGHT}px)"
SAMPLE_TABLES = """({rows, screen}) => {
  const held = window.classementHeldTables;
  const beyond = `tbody > tr:nth-child(n+${rows + 1}) { display: none !important; }`;
  held.replaceSync(beyond);
  const width = document.documentElement.scrollWidth;
  held.replaceSync(`@media ${screen} { ${beyond} }`);
  return width;
}"""
# How many rows of each table the page's width is measured on: the width of a long list
# is that of its headings and of rows like its first ones (on the 4 season reports of
# 20,000 players, the first 50 rows gave each page's width); a wider row further down
# costs time, not content (Chromium then shrinks the page onto the paper itself).
SAMPLE_ROWS = 100
# The links of a page read from disk resolve as if it were served from `url`.
AT_ADDRESS = """url => {
  const base = document.createElement("base");
  base.href = url;
  document.head.prepend(base);
}"""


class ChromiumMissingError(RuntimeError):
    pass


# The Chromiums to drive, the first found: Debian's headless shell (package
# `chromium-headless-shell`: the same Blink and Skia without the browser's windowing layer,
# what Playwright itself drives for headless work), else the browser (package `chromium`).
# Measured on 7 December 2026, the two alternated in the same hour: three launches each
# opening the sample's season report, index and circuits' index, screenshots taken,
# 22.6-24.2 -> 13.8-17.1 CPU-s of the machine (three runs each); printing the sample's 11
# PDFs 23.9 -> 21.0 CPU-s; two of the bench's season reports 26.0 and 22.2 -> 18.3 and
# 19.2; the whole test suite 640 -> 564. The PDFs hold the same text on the same pages and
# look the same but for a chart's hairlines, its grid lines a shade darker (35 of the
# sample's 196 pages differ at 100 dpi, at most 1.2 % of a page's pixels); their bytes
# differ too (`/Creator` names the shell, not a user agent).
CHROMIUMS = ("chromium-headless-shell", "chromium", "chromium-browser")


def chromium_path(search: str | None = None) -> str:
    """The Chromium to drive: `CLASSEMENT_CHROMIUM` when set (it must exist: a wrong path is
    an error, never silently replaced), else the first of `CHROMIUMS` found in `search`
    (folders as in PATH; default `/usr/bin`, then PATH)."""
    chosen = os.environ.get("CLASSEMENT_CHROMIUM")
    if chosen:
        if not Path(chosen).is_file():
            raise ChromiumMissingError(
                f"CLASSEMENT_CHROMIUM={chosen} : ce fichier n'existe pas ; corrigez le chemin "
                "ou retirez la variable pour utiliser le Chromium du système"
            )
        return chosen
    if search is None:
        search = os.pathsep.join(["/usr/bin", os.environ.get("PATH", os.defpath)])
    for name in CHROMIUMS:
        found = shutil.which(name, path=search)
        if found:
            return found
    raise ChromiumMissingError(
        "Chromium introuvable (paquet Debian `chromium`) : lancez scripts/system-deps.sh "
        "ou indiquez son chemin dans CLASSEMENT_CHROMIUM."
    )


# A style sheet of the document's own (no element of the page), run before the page's
# own scripts (given before anything is laid out, it costs no new layout).
ADOPT_STYLE = """(() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(%s);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
})();"""
_TITLE = re.compile(rb"<title>(.*?)</title>", re.DOTALL)

# Pages are printed as served from this address (never from their place on disk), so a
# PDF names no local path: its links point below the address the reports are published at.
REPORTS_URL = os.environ.get("CLASSEMENT_REPORTS_URL", "https://classement.invalid/")
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css"}
_PDF_DATE = re.compile(rb"/(CreationDate|ModDate) \(D:\d{14}")

# The paper: A4 as Playwright sizes it (8.27 in wide), 10 mm side margins; its printable
# width in CSS pixels (96 per inch), and the page's margins.
PAPER_WIDTH_PX = 8.27 * 96 - 2 * 10 * 96 / 25.4
MARGINS: PdfMargins = {"top": "12mm", "bottom": "14mm", "left": "10mm", "right": "10mm"}
# Each page's footer, « <title> — page n / N » in grey, 8 px on the paper: a margin box of
# the page (laid out by Blink with the page) rather than Playwright's footer template (a
# document of its own parsed, styled and laid out for every one of a report's 270 pages).
FOOTER_CSS = """@page {{ @bottom-center {{
  content: "{title} — page " counter(page) " / " counter(pages);
  font-family: "DejaVu Sans", "Segoe UI", Arial, sans-serif; font-size: {size}px;
  color: #5b6475; text-align: center; vertical-align: middle; }} }}"""
FOOTER_PX = 8

# Where the printer serves plotly.js to the pages it prints (`_PageServer`).
PLOTLY_PATH = "/.impression/plotly.min.js"


def print_pdf(
    html_path: Path,
    pdf_path: Path,
    *,
    root: Path | None = None,
    stamp: dt.datetime | None = None,
    timeout_ms: int = 60_000,
) -> Path:
    """Print one page (see `print_pdfs`)."""
    print_pdfs([(html_path, pdf_path)], root=root, stamp=stamp, timeout_ms=timeout_ms)
    return pdf_path


def print_pdfs(
    pages: Sequence[tuple[Path, Path]],
    *,
    root: Path | None = None,
    stamp: dt.datetime | None = None,
    timeout_ms: int = 60_000,
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
) -> list[Path]:
    """Print each (html, pdf) pair once all its charts are drawn, with one Chromium for all,
    `workers` pages at once (default `print_workers()`: one per core). `root`: the reports
    folder the pages are served from, which holds every file they load (default: each
    page's folder); `stamp`: the date
    written in the PDFs (default `generated_at()`), so the same pages print to the same
    bytes whatever the order they finish in; `progress(done, total)` after each PDF.
    Returns the PDFs in the order of `pages`; the first failure stops the printing."""
    if not pages:
        return []
    when = stamp or generated_at()
    at_once = max(1, min(workers or print_workers(), len(pages)))
    job = _Job(list(pages), root, when, timeout_ms, progress, at_once)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_print(job))
    # Inside a running event loop (a notebook, another Playwright session): print from a
    # thread with a loop of its own.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, _print(job)).result()


def print_workers() -> int:
    """How many pages print at once: `CLASSEMENT_PDF_WORKERS` when set, else one per core
    this process may use (Chromium lays out and paints each page on one core)."""
    chosen = os.environ.get("CLASSEMENT_PDF_WORKERS")
    if chosen:
        if not chosen.isdigit() or int(chosen) < 1:
            raise ValueError(
                f"CLASSEMENT_PDF_WORKERS={chosen} : attendu un nombre entier de pages "
                "imprimées à la fois, au moins 1"
            )
        return int(chosen)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1


# A page holding this many table rows or more is long: printing it is the memory of a
# build (a season report of 20,000 players, 11,600 rows: Chromium's processes reach about
# 1.5 GiB together, their PSS, 1.2 GiB of it the page's renderer; 0.35 GiB once loaded).
# Long pages print `LONG_PRINTING` at a time, one more loading meanwhile when there are
# workers for it (`_LongPages`); the smaller pages (the circuits', most seasons') print
# side by side.
ALONE_ROWS = 4_000
# How many long pages print at once: two, one a core (a page's layout and painting for
# the paper run on one core), each in a renderer of its own (the largest process of the
# printing is one page's whatever the number).
LONG_PRINTING = 2
# How many long pages are open at once: those printing and the next one loading.
LONG_OPEN = LONG_PRINTING + 1
# A page not printed after this many seconds (loaded, its charts drawn and printed, its
# turn to print awaited) fails the build, naming it: Playwright's printing and scripts
# wait without limit, and a Chromium that stops answering would hold the build for ever.
# The bench's longest pages (season reports of 20,000 players) take well under a minute.
PAGE_SECONDS = 600


def _is_long(html_path: Path) -> bool:
    """Whether the page holds at least `ALONE_ROWS` table rows."""
    return html_path.read_bytes().count(b"<tr") >= ALONE_ROWS


class _LongPages:
    """The limits of the long pages (`ALONE_ROWS`): at most `LONG_OPEN` open at once, and
    `LONG_PRINTING` printing at a time. A long page's loading (reading, scripts, charts: a
    third of its CPU) runs beside the printing of the others."""

    def __init__(self) -> None:
        self.opened = asyncio.Semaphore(LONG_OPEN)
        self.printing = asyncio.Semaphore(LONG_PRINTING)

    def open(self, long: bool) -> contextlib.AbstractAsyncContextManager[None]:
        """The time a page is open in its tab (a short page: no limit)."""
        return _held(self.opened, long)

    def print(self, long: bool) -> contextlib.AbstractAsyncContextManager[None]:
        """The time a page prints (a short page: no limit)."""
        return _held(self.printing, long)


@contextlib.asynccontextmanager
async def _held(limit: asyncio.Semaphore, long: bool) -> AsyncIterator[None]:
    """One of `limit`'s places held for a long page; a short page takes none."""
    if not long:
        yield
        return
    async with limit:
        yield


@dataclass(frozen=True)
class _Job:
    pages: list[tuple[Path, Path]]
    root: Path | None
    when: dt.datetime
    timeout_ms: int
    progress: Callable[[int, int], None] | None
    workers: int


def _file_in(folder: Path, relative: str) -> Path | None:
    """The file `relative` names inside `folder` (never outside it), None when none."""
    path = (folder / relative).resolve()
    return path if path.is_relative_to(folder.resolve()) and path.is_file() else None


def _serve(root: Path) -> Callable[[Route], Awaitable[None]]:
    async def handle(route: Route) -> None:
        relative = route.request.url.removeprefix(REPORTS_URL).split("#")[0].split("?")[0]
        path = _file_in(root, relative)
        if path is not None:
            content = _TYPES.get(path.suffix, "application/octet-stream")
            await route.fulfill(
                status=200, body=path.read_bytes(), headers={"content-type": content}
            )
        else:
            await route.fulfill(status=404, body=b"")

    return handle


@cache
def _inline_plotly() -> bytes:
    """plotly.js as a report embeds it (`pipelines.reports.page.page`)."""
    return b"<script>" + plotly_js().encode("utf-8") + b"</script>"


def external_plotly(html: bytes) -> bytes:
    """A page as the printer serves it: its embedded plotly.js (if any) loaded from
    `PLOTLY_PATH` instead, the same script run at the same place of the page. Chromium keeps
    the code it compiled for a script it loads by address (never for one written in the
    page): from the third report of a build on, plotly.js is not compiled again."""
    return html.replace(_inline_plotly(), f'<script src="{PLOTLY_PATH}"></script>'.encode(), 1)


@cache
def _print_plotly() -> bytes:
    return print_plotly_js().encode("utf-8")


class _PageServer(http.server.ThreadingHTTPServer):
    """The folders of the pages to print, served to the printing Chromium alone (on
    127.0.0.1, a port of the system's choosing, for the time of the printing): the
    `n`th folder under `/n/`, and plotly.js at `PLOTLY_PATH` (its cartesian bundle,
    `pipelines.reports.page.print_plotly_js`), which Chromium may cache."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _PageRequest)
        self.folders: list[Path] = []

    def url(self, html_path: Path, root: Path) -> str:
        if root not in self.folders:
            self.folders.append(root)
        relative = urllib.parse.quote(html_path.resolve().relative_to(root).as_posix())
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/{self.folders.index(root)}/{relative}"

    def content(self, address: str) -> tuple[bytes, str, str] | None:
        """(body, content type, cache rule) of an address, None when it names nothing."""
        path = urllib.parse.unquote(urllib.parse.urlsplit(address).path)
        if path == PLOTLY_PATH:  # the cartesian bundle (`print_plotly_js`)
            return _print_plotly(), _TYPES[".js"], "max-age=86400"
        index, _, relative = path.removeprefix("/").partition("/")
        if not index.isdigit() or int(index) >= len(self.folders):
            return None
        file = _file_in(self.folders[int(index)], relative)
        if file is None:
            return None
        kind = _TYPES.get(file.suffix, "application/octet-stream")
        if file.suffix == ".html":
            return external_plotly(file.read_bytes()), kind, "no-store"
        return file.read_bytes(), kind, "max-age=86400"


class _PageRequest(http.server.BaseHTTPRequestHandler):
    server: _PageServer

    def do_GET(self) -> None:
        found = self.server.content(self.path)
        body, kind, caching = found or (b"", "text/plain", "no-store")
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", caching)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Silent: the build says what is printed."""


@contextlib.contextmanager
def _serving() -> Iterator[_PageServer]:
    server = _PageServer()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


def print_scale(page_width: float) -> float:
    """The scale a page `page_width` CSS pixels wide prints at: 1 when it fits the paper,
    else what shrinks it onto the paper, as Chromium itself would, but asked for at once:
    Chromium laid such a page out at the paper's width, found it too wide and laid it out
    again at its own width (about 3 s of a season report of 20,000 players)."""
    if page_width <= PRINT_WIDTH_PX:
        return 1.0
    return PAPER_WIDTH_PX / (page_width + 1)


def footer_css(title: str) -> str:
    """The footer's style sheet, the page's title in a CSS string (a margin box is not
    shrunk with a page wider than the paper: `FOOTER_PX` whatever the page's scale)."""
    quoted = "".join(f"\\{ord(c):x} " if c in '"\\' or ord(c) < 32 else c for c in title)
    return FOOTER_CSS.format(title=quoted, size=FOOTER_PX)


def page_title(html: bytes) -> str:
    """The page's title as the browser reads it (`document.title`)."""
    found = _TITLE.search(html)
    return " ".join(unescape(found.group(1).decode("utf-8")).split()) if found else ""


async def _print(job: _Job) -> list[Path]:
    """`job.workers` tasks take the pages in order, each printing one page at a time in
    its own tab of the one browser (long pages: `ALONE_ROWS`); the first error
    cancels the others and is raised."""
    from playwright.async_api import async_playwright

    executable = chromium_path()
    queue = list(enumerate(job.pages))
    queue.reverse()
    done: dict[int, Path] = {}
    longs = _LongPages()

    async def worker(browser: BrowserContext, server: _PageServer) -> None:
        while queue:
            index, (html_path, pdf_path) = queue.pop()
            served = (job.root or html_path.parent).resolve()
            long = _is_long(html_path)
            async with longs.open(long):
                try:
                    async with asyncio.timeout(PAGE_SECONDS):
                        done[index] = await _print_page(
                            browser,
                            server,
                            (html_path, pdf_path, served),
                            job,
                            partial(longs.print, long),
                        )
                except TimeoutError:
                    raise TimeoutError(
                        f"{html_path} : impression non terminée après {PAGE_SECONDS} s"
                    ) from None
            if job.progress is not None:
                job.progress(len(done), len(job.pages))

    # A profile of its own for the time of the printing: Chromium keeps the code it
    # compiles there (plotly.js, `external_plotly`); a context without one keeps none.
    with (
        _serving() as server,
        tempfile.TemporaryDirectory(prefix="classement-pdf-") as profile,
    ):
        async with async_playwright() as pw:
            browser = await pw.chromium.launch_persistent_context(
                profile,
                executable_path=executable,
                args=list(CHROMIUM_ARGS),
                viewport={"width": PRINT_WIDTH_PX, "height": VIEWPORT_HEIGHT},
            )
            try:
                async with asyncio.TaskGroup() as group:
                    for _ in range(job.workers):
                        group.create_task(worker(browser, server))
            except BaseExceptionGroup as failed:
                raise _first(failed) from None
            finally:
                await browser.close()
    return [done[i] for i in range(len(job.pages))]


def _first(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first error of a task group (a page that failed), not the group itself: the
    build names its type and message."""
    first = group.exceptions[0]
    return _first(first) if isinstance(first, BaseExceptionGroup) else first


async def _print_page(
    browser: BrowserContext,
    server: _PageServer,
    paths: tuple[Path, Path, Path],
    job: _Job,
    printing: Callable[[], contextlib.AbstractAsyncContextManager[None]],
) -> Path:
    """Print the page `html_path` to `pdf_path`, served from `root` (`paths`), once loaded
    and its charts drawn; the printing itself within `printing()`."""
    html_path, pdf_path, root = paths
    when, timeout_ms = job.when, job.timeout_ms
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = pdf_path.with_name(f".{pdf_path.name}.tmp")
    errors: list[str] = []
    page = await browser.new_page()
    try:
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.emulate_media(media="print")
        await page.add_init_script(HOLD_TABLES)
        footer = footer_css(page_title(html_path.read_bytes()))
        await page.add_init_script(ADOPT_STYLE % json.dumps(footer))
        await page.goto(server.url(html_path, root), wait_until="load", timeout=timeout_ms)
        # Routed only once loaded: Playwright's routing turns Chromium's cache off.
        await page.route(f"{REPORTS_URL}**", _serve(root))
        source = html_path.resolve()
        await page.evaluate(AT_ADDRESS, REPORTS_URL + source.relative_to(root).as_posix())
        await page.wait_for_function(CHARTS_DRAWN, timeout=timeout_ms)
        await page.evaluate(OPEN_DETAILS)
        sampled = {"rows": SAMPLE_ROWS, "screen": SCREEN_ONLY}
        scale = print_scale(await page.evaluate(SAMPLE_TABLES, sampled))
        await page.evaluate("document.fonts.ready")
        if errors:
            raise RuntimeError(f"{html_path}: erreur JavaScript : {errors[0]}")
        async with printing():
            await page.pdf(
                path=str(tmp),
                format="A4",
                scale=scale,
                print_background=True,
                prefer_css_page_size=True,
                margin=MARGINS,
            )
    finally:
        await page.close()
    stamped = _PDF_DATE.sub(
        lambda m: b"/" + m.group(1) + b" (D:" + when.strftime("%Y%m%d%H%M%S").encode(),
        tmp.read_bytes(),
    )
    tmp.write_bytes(stamped)
    os.replace(tmp, pdf_path)
    return pdf_path
