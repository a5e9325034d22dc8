"""The generated pages in a real headless Chromium: no error, every chart drawn, the search
box works, and injected names stay text. Screenshots go to the test's tmp folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright import sync_api

from pipelines.reports.html import player_filename
from pipelines.reports.pdf import CHARTS_DRAWN, CHROMIUM_ARGS, chromium_path
from tests.conftest import EVIL, SEASON

# Browser tests never skip: without Chromium (scripts/system-deps.sh installs it) they fail.
pytestmark = pytest.mark.slow

# Per plot div: its main svg, and the traces actually drawn (lines/markers or bars).
CHART_STATE = """() => Array.from(document.querySelectorAll('.plot')).map(div => ({
  id: div.id,
  svg: div.querySelectorAll('svg.main-svg').length,
  traces: div.querySelectorAll('.scatterlayer .trace, .barlayer .trace').length,
  drawn: div.querySelectorAll('.scatterlayer .trace path.js-line, '
    + '.scatterlayer .trace path.point, .barlayer .trace path').length,
}))"""


@pytest.fixture(scope="module")
def sample(sample_site: Path) -> Path:
    return sample_site / "reports"


@pytest.fixture(scope="module")
def evil(evil_site: Path) -> Path:
    return evil_site / "reports"


@pytest.fixture(scope="module")
def browser(sample: Path, evil: Path) -> Iterator[object]:
    """One Chromium for the module, started once the sites are built."""
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=chromium_path(), args=list(CHROMIUM_ARGS))
        yield chromium
        chromium.close()


class Opened:
    def __init__(self, page: object, errors: list[str], dialogs: list[str]) -> None:
        self.page = page
        self.errors = errors
        self.dialogs = dialogs


def _open(browser: object, path: Path, shot: Path, *, full_page: bool = False) -> Opened:
    """Open a page from disk (file://, no server, no network), wait for its charts, check
    it raised nothing, and screenshot it."""
    page = browser.new_page(viewport={"width": 1200, "height": 900})  # type: ignore[attr-defined]
    errors: list[str] = []
    dialogs: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(path.resolve().as_uri(), wait_until="load")
    page.wait_for_function(CHARTS_DRAWN, timeout=30_000)
    page.screenshot(path=str(shot), full_page=full_page)
    assert errors == [], errors
    assert dialogs == [], dialogs
    charts = page.evaluate(CHART_STATE)
    for chart in charts:
        assert chart["svg"] >= 1, chart
        assert chart["traces"] >= 1 and chart["drawn"] >= 1, chart
    return Opened(page, errors, dialogs)


def _sample_seasons(sample: Path) -> list[str]:
    return sorted(p.parent.name for p in sample.glob("*/index.html"))


def test_season_reports_render(browser: object, sample: Path, tmp_path: Path) -> None:
    seasons = _sample_seasons(sample)
    assert len(seasons) >= 2
    for i, season in enumerate(seasons):
        opened = _open(
            browser, sample / season / "index.html", tmp_path / f"{season}.png", full_page=i == 0
        )
        page = opened.page
        ids = page.evaluate("() => Array.from(document.querySelectorAll('.plot')).map(d => d.id)")
        assert "chart-trajectories-cote" in ids and "chart-cascade-movements" in ids, ids
        # Bars of the classique series drawn as lines on the cote chart.
        assert page.locator("#chart-trajectories-cote .shapelayer path").count() >= 1
        page.close()


def test_search_adds_a_player_trajectory(browser: object, sample: Path, tmp_path: Path) -> None:
    season = _sample_seasons(sample)[-1]
    opened = _open(browser, sample / season / "index.html", tmp_path / "before.png")
    page = opened.page
    count = "() => document.getElementById('chart-trajectories-cote').data.length"
    before = page.evaluate(count)
    page.fill("#trajectories-search", "a")
    page.fill("#trajectories-search", "an")
    buttons = page.locator("#trajectories-results button")
    assert buttons.count() >= 1
    buttons.first.click()
    page.wait_for_function(f"() => ({count})() === {before + 1}")
    page.locator("#chart-trajectories-cote").screenshot(path=str(tmp_path / "after.png"))
    assert opened.errors == []
    page.click("#trajectories-clear")
    assert page.evaluate(count) == before
    page.close()


def test_index_and_player_pages_render(browser: object, sample: Path, tmp_path: Path) -> None:
    opened = _open(browser, sample / "index.html", tmp_path / "index.png")
    rows = opened.page.locator("#players tbody tr")
    total = rows.count()
    assert total > 100
    opened.page.fill("#player-filter", "zzzz-nobody")
    assert opened.page.locator("#players tbody tr:not([hidden])").count() == 0
    links = opened.page.eval_on_selector_all(
        "#players tbody a", "els => els.map(e => e.getAttribute('href'))"
    )
    opened.page.close()
    # A couple of players: the first with a cote, and one with duplicate results only.
    pages = sorted((sample / "joueurs").glob("*.html"))
    assert len(pages) == total and len(links) == total
    with_chart = [p for p in pages if "chart-player-trajectory" in p.read_text("utf-8")]
    without = [p for p in pages if p not in with_chart]
    for page_path in [with_chart[0], with_chart[-1], *without[:1]]:
        _open(browser, page_path, tmp_path / f"{page_path.stem}.png").page.close()


def test_injected_names_stay_text_in_the_browser(
    browser: object, evil: Path, tmp_path: Path
) -> None:
    reports = evil
    for path in (
        reports / SEASON / "index.html",
        reports / "joueurs" / player_filename("100"),
        reports / "index.html",
    ):
        opened = _open(browser, path, tmp_path / f"evil-{path.parent.name}.png")
        page = opened.page
        assert EVIL in page.inner_text("body")
        assert page.evaluate("() => document.querySelectorAll('img').length") == 0
        assert opened.dialogs == []
        if path.name == "index.html" and path.parent.name == SEASON:
            legend = page.eval_on_selector_all(
                "#chart-trajectories-cote .legendtext", "els => els.map(e => e.textContent)"
            )
            assert EVIL + " " + "</script><img src=x onerror=alert(2)>" in legend, legend
        page.close()
