"""A PDF is linked as the report's only when it matches its page (issue 24, item 7): after
a build that could not print, the pages say that the PDF is an earlier build's, with its
date, and link it as the previous version."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from pipelines.reports.html import write_atomic
from pipelines.reports.pdf_links import mark_pdf_links, pdf_link, restore_pdf_links
from tests.support import PLAYERS, results_csv

SEASON = "2023-2024"
NOT_PRINTED = "Le PDF de ce rapport n'a pas pu être imprimé lors de la dernière construction"
# 2025-01-10 12:00 UTC: the same calendar day in every time zone of the federations
EARLIER = dt.datetime(2025, 1, 10, 12, tzinfo=dt.UTC).timestamp()


def _span(href: str, label: str) -> str:
    return f'<span class="pdf-link" data-pdf="{href}" data-label="{label}">'


def _plain(href: str, label: str) -> str:
    return f'{_span(href, label)}<a href="{href}">{label}</a></span>'


def _dated(href: str, label: str) -> str:
    return (
        f"{_span(href, label)}{NOT_PRINTED} "
        f'(<a href="{href}">PDF du 10/01/2025 : version précédente</a>).</span>'
    )


def _missing(href: str, label: str) -> str:
    return f"{_span(href, label)}{NOT_PRINTED}.</span>"


def _site(reports: Path) -> tuple[Path, Path, Path]:
    """A home page and a season report, each linking the season's PDF."""
    home, page = reports / "index.html", reports / SEASON / "index.html"
    write_atomic(home, f"<p>{pdf_link(f'{SEASON}/rapport-{SEASON}.pdf', 'rapport PDF')}</p>")
    write_atomic(page, f"<nav>{pdf_link(f'rapport-{SEASON}.pdf', 'Version PDF')}</nav>")
    return home, page, reports / SEASON / f"rapport-{SEASON}.pdf"


def _links(home: Path, page: Path) -> tuple[str, str]:
    return home.read_text(encoding="utf-8"), page.read_text(encoding="utf-8")


def test_a_missing_or_older_pdf_is_said_so_and_a_printed_one_linked(tmp_path: Path) -> None:
    home, page, pdf = _site(tmp_path)
    home_href, page_href = f"{SEASON}/rapport-{SEASON}.pdf", f"rapport-{SEASON}.pdf"
    assert _links(home, page) == (
        f"<p>{_plain(home_href, 'rapport PDF')}</p>",
        f"<nav>{_plain(page_href, 'Version PDF')}</nav>",
    )
    # never printed
    assert mark_pdf_links(tmp_path) == [home, page]
    assert _links(home, page) == (
        f"<p>{_missing(home_href, 'rapport PDF')}</p>",
        f"<nav>{_missing(page_href, 'Version PDF')}</nav>",
    )
    # an earlier build's PDF: older than the page
    pdf.write_bytes(b"%PDF-1.7")
    os.utime(pdf, (EARLIER, EARLIER))
    assert mark_pdf_links(tmp_path) == [home, page]
    assert _links(home, page) == (
        f"<p>{_dated(home_href, 'rapport PDF')}</p>",
        f"<nav>{_dated(page_href, 'Version PDF')}</nav>",
    )
    assert mark_pdf_links(tmp_path) == []  # nothing changed: nothing written
    # before printing, the page gets its plain link back; printed, every link is plain
    assert restore_pdf_links(page)
    assert page.read_text(encoding="utf-8") == f"<nav>{_plain(page_href, 'Version PDF')}</nav>"
    pdf.write_bytes(b"%PDF-1.7")
    assert mark_pdf_links(tmp_path) == [home]
    assert _links(home, page) == (
        f"<p>{_plain(home_href, 'rapport PDF')}</p>",
        f"<nav>{_plain(page_href, 'Version PDF')}</nav>",
    )


def test_a_label_or_target_with_special_characters_is_escaped_and_kept(tmp_path: Path) -> None:
    page = tmp_path / SEASON / "index.html"
    write_atomic(page, pdf_link('r&d "1".pdf', "PDF <1>"))
    href = "r&amp;d &quot;1&quot;.pdf"
    plain = f'<span class="pdf-link" data-pdf="{href}" data-label="PDF &lt;1&gt;">'
    assert page.read_text(encoding="utf-8") == f'{plain}<a href="{href}">PDF &lt;1&gt;</a></span>'
    (tmp_path / SEASON / f"rapport-{SEASON}.pdf").write_bytes(b"")  # not the linked one
    assert mark_pdf_links(tmp_path) == []


@pytest.mark.slow
def test_after_a_build_that_could_not_print_the_old_pdf_is_not_presented_as_current(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.builds import build

    out = tmp_path / "out"
    first = build(raw, out, pdf=True)
    assert first.exit_status == 0 and first.pdf_error is None
    reports = out / "reports"
    home, page = reports / "index.html", reports / SEASON / "index.html"
    pdf = reports / SEASON / f"rapport-{SEASON}.pdf"
    home_href, page_href = f"{SEASON}/rapport-{SEASON}.pdf", f"rapport-{SEASON}.pdf"
    assert _plain(page_href, "Version PDF") in page.read_text(encoding="utf-8")
    assert _plain(home_href, "rapport PDF") in home.read_text(encoding="utf-8")
    os.utime(pdf, (EARLIER, EARLIER))  # printed on an earlier day
    old_pdf = pdf.read_bytes()

    # a new tournament; the PDFs cannot be printed
    (raw / SEASON / "C2.csv").write_text(
        results_csv("C2", PLAYERS, name="Open de Nevers", date="2024-02-11"), encoding="utf-8"
    )

    def broken(*args: object, **kwargs: object) -> list[Path]:
        raise RuntimeError("Chromium s'est arrêté")

    monkeypatch.setattr("pipelines.build.print_pdfs", broken)
    second = build(raw, out, pdf=True)
    assert second.exit_status == 3 and second.pdf_error == "RuntimeError : Chromium s'est arrêté"
    text, index = page.read_text(encoding="utf-8"), home.read_text(encoding="utf-8")
    assert "Open de Nevers" in text  # the page is the new one
    assert pdf.read_bytes() == old_pdf  # the PDF the old one
    assert _plain(page_href, "Version PDF") not in text
    assert _dated(page_href, "Version PDF") in text
    assert _plain(home_href, "rapport PDF") not in index
    assert _dated(home_href, "rapport PDF") in index

    # printing works again: the PDF is printed from the page with its plain link
    monkeypatch.undo()
    third = build(raw, out, pdf=True)
    assert third.exit_status == 0 and third.pdf_printed == [f"{SEASON}/rapport-{SEASON}.pdf"]
    text, index = page.read_text(encoding="utf-8"), home.read_text(encoding="utf-8")
    assert _plain(page_href, "Version PDF") in text and NOT_PRINTED not in text
    assert _plain(home_href, "rapport PDF") in index and NOT_PRINTED not in index
    assert pdf.stat().st_mtime >= page.stat().st_mtime


def test_with_nothing_to_print_the_pages_left_plain_by_the_last_build_are_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build with nothing changed whose last build left every PDF link plain reads no
    page for its links (`links_plain`); a PDF to print, and the pages are marked again."""
    from pipelines.build import _print_reports

    home, page, pdf = _site(tmp_path)
    pdf.write_bytes(b"%PDF-1.7")
    later = page.stat().st_mtime + 10
    os.utime(pdf, (later, later))  # printed after its page: current
    read: list[Path] = []
    original = Path.read_bytes

    def counting(path: Path) -> bytes:
        read.append(path)
        return original(path)

    monkeypatch.setattr(Path, "read_bytes", counting)
    assert _print_reports(tmp_path, print, links_plain=True) == ([], None)
    assert read == []
    assert _print_reports(tmp_path, print) == ([], None)  # the pass: every page read
    assert read == [home, page]

    def broken(*_args: object, **_kwargs: object) -> list[Path]:
        raise RuntimeError("Chromium absent")

    monkeypatch.setattr("pipelines.build.print_pdfs", broken)
    os.utime(pdf, (EARLIER, EARLIER))  # older than its page: to print
    printed, error = _print_reports(tmp_path, lambda _line: None, links_plain=True)
    assert printed == [] and error == "RuntimeError : Chromium absent"
    home_href, page_href = f"{SEASON}/rapport-{SEASON}.pdf", f"rapport-{SEASON}.pdf"
    monkeypatch.undo()
    assert _links(home, page) == (
        f"<p>{_dated(home_href, 'rapport PDF')}</p>",
        f"<nav>{_dated(page_href, 'Version PDF')}</nav>",
    )
