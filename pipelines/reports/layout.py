"""Where every generated page lives under the reports folder (one place for every path)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

SEASON_DIR = re.compile(r"^\d{4}-\d{4}$")
YEAR_DIR = re.compile(r"^\d{4}$")

PLAYERS_DIR = "joueurs"
CIRCUITS_DIR = "circuits"


def season_dir(reports: Path, season: str) -> Path:
    return reports / season


def report_path(reports: Path, season: str) -> Path:
    """The season's report: `<season>/index.html`."""
    return season_dir(reports, season) / "index.html"


def pdf_path(reports: Path, season: str) -> Path:
    """The season's report printed: `<season>/rapport-<season>.pdf`."""
    return season_dir(reports, season) / f"rapport-{season}.pdf"


def year_dir(reports: Path, year: str) -> Path:
    """The regional circuits' reports of a calendar year: `circuits/<year>/`."""
    return reports / CIRCUITS_DIR / year


def year_index_path(reports: Path, year: str) -> Path:
    """The page listing the year's circuits and their reports: `circuits/<year>/index.html`."""
    return year_dir(reports, year) / "index.html"


def circuit_page_path(reports: Path, year: str, slug: str) -> Path:
    """A circuit's report of a year: `circuits/<year>/<slug>.html` (`paca`, `grand-est`…)."""
    return year_dir(reports, year) / f"{slug}.html"


def circuit_pdf_path(reports: Path, year: str, slug: str) -> Path:
    """That report printed: `circuits/<year>/<slug>.pdf`."""
    return year_dir(reports, year) / f"{slug}.pdf"


def printable_reports(reports: Path) -> Iterator[tuple[Path, Path]]:
    """(page, its PDF) of every report printed for the committees: each season's report,
    and each page of a year's circuits (`circuits/<year>/<circuit>.html` → `.pdf`)."""
    for folder in sorted(p for p in reports.iterdir() if SEASON_DIR.match(p.name)):
        if report_path(reports, folder.name).exists():
            yield report_path(reports, folder.name), pdf_path(reports, folder.name)
    circuits = reports / CIRCUITS_DIR
    if circuits.is_dir():
        for year in sorted(p for p in circuits.iterdir() if YEAR_DIR.match(p.name)):
            for page in sorted(year.glob("*.html")):
                if page.name != "index.html":
                    yield page, page.with_suffix(".pdf")
