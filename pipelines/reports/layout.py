"""Where every generated page lives under the reports folder (one place for every path)."""

from __future__ import annotations

from pathlib import Path

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
