"""The links to a report's PDF, and what they say when the PDF is not that of the page.

A page links a report's PDF through `pdf_link`: the link inside a marked `<span>` (its
target and label in `data-` attributes). The PDFs are printed after the pages
(`pipelines.build._print_reports`), and printing can fail (the build then exits 3): a PDF
is then missing, or is an earlier build's, without the latest changes. `mark_pdf_links`,
run once printing is over, rewrites every such link (on the report's own page, on the
home page, on a year's circuits page) into a French sentence that says so, the earlier
PDF linked explicitly as the previous version with its date; `restore_pdf_links` gives
a page its plain links back before it is printed again.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Iterator
from pathlib import Path

from pipelines.reports.html import Html, esc, link, write_atomic
from pipelines.reports.layout import CIRCUITS_DIR, SEASON_DIR, YEAR_DIR, printable_reports

_MARKED = re.compile(
    r'<span class="pdf-link" data-pdf="(?P<href>[^"]*)" data-label="(?P<label>[^"]*)">'
    r"(?P<inner>.*?)</span>",
    re.S,
)
NOT_PRINTED = "Le PDF de ce rapport n'a pas pu être imprimé lors de la dernière construction"
_NOT_PRINTED_BYTES = NOT_PRINTED.encode("utf-8")  # as `earlier_pdf_text` writes it, unescaped


def pdf_link(href: str, label: str) -> Html:
    """The link to a report's PDF (`href` relative to the page), as pages write it."""
    return Html(
        f'<span class="pdf-link" data-pdf="{esc(href)}" data-label="{esc(label)}">'
        f"{link(href, label)}</span>"
    )


def _marked(href: str, label: str, inner: str) -> str:
    return f'<span class="pdf-link" data-pdf="{esc(href)}" data-label="{esc(label)}">{inner}</span>'


def earlier_pdf_text(href: str, printed_on: dt.date | None) -> str:
    """What a page says in place of the link to a PDF that is not its page's: the PDF is
    missing (`printed_on` None) or an earlier build's, printed on that date."""
    if printed_on is None:
        return f"{NOT_PRINTED}."
    label = f"PDF du {printed_on:%d/%m/%Y} : version précédente"
    return f"{NOT_PRINTED} ({link(href, label)})."


def _pages(reports: Path) -> Iterator[Path]:
    """The pages that may link a report's PDF: the home page, each season's report, each
    year's circuits pages (not the player pages)."""
    yield reports / "index.html"
    for folder in sorted(p for p in reports.iterdir() if SEASON_DIR.match(p.name)):
        yield folder / "index.html"
    circuits = reports / CIRCUITS_DIR
    if circuits.is_dir():
        for year in sorted(p for p in circuits.iterdir() if YEAR_DIR.match(p.name)):
            yield from sorted(year.glob("*.html"))


def _rewrite(page: Path, earlier: dict[Path, dt.date | None]) -> bool:
    """Each marked link of `page` to a PDF of `earlier` (resolved path → the date it was
    printed, None when missing) says so, the others are plain links; the page is written
    again only when it changes. With no such PDF, a page that says nothing of a PDF not
    printed (every link plain, as written) is left unread past that search: a build with
    nothing to print reads the long season reports once, not through the pattern."""
    data = page.read_bytes()
    if not earlier and _NOT_PRINTED_BYTES not in data:
        return False
    text = data.decode("utf-8")

    def replace(match: re.Match[str]) -> str:
        href, label = html.unescape(match["href"]), html.unescape(match["label"])
        target = (page.parent / href).resolve()
        if target in earlier:
            return _marked(href, label, earlier_pdf_text(href, earlier[target]))
        return _marked(href, label, link(href, label))

    new = _MARKED.sub(replace, text)
    if new == text:
        return False
    write_atomic(page, new)
    return True


def restore_pdf_links(page: Path) -> bool:
    """Every marked PDF link of `page` back to its plain link (before printing it: the PDF
    shows what the page will). Whether the page was written."""
    return page.is_file() and _rewrite(page, {})


def mark_pdf_links(reports: Path) -> list[Path]:
    """After printing: every link to a report's PDF that is missing or older than its page
    says so (`earlier_pdf_text`), every other is a plain link. The pages written."""
    earlier: dict[Path, dt.date | None] = {}
    for page, pdf in printable_reports(reports):
        if not pdf.exists():
            earlier[pdf.resolve()] = None
        elif pdf.stat().st_mtime < page.stat().st_mtime:
            earlier[pdf.resolve()] = dt.date.fromtimestamp(pdf.stat().st_mtime)
    return [page for page in _pages(reports) if page.is_file() and _rewrite(page, earlier)]
