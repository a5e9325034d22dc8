"""The generated pages in a real headless Chromium: no error, every chart drawn, the search
box works, and injected names stay text. Screenshots go to the test's tmp folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipelines.reports.html import player_filename
from tests.browser import Tab, launched, tab_of
from tests.support import EVIL, PLAYERS, SEASON, results_csv, write_evil_raw

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
def browser(sample: Path, evil: Path, refused_site: Path) -> Iterator[Any]:
    """One Chromium for the module, started once the sites are built (a Dagster run made
    while Playwright's event loop runs leaves a coroutine never awaited: a warning)."""
    yield from launched()


@pytest.fixture(scope="module")
def tab(browser: Any) -> Iterator[Tab]:
    """The tab every test of the module opens its pages in (`tests.browser`)."""
    yield from tab_of(browser)


def _open(tab: Tab, path: Path, shot: Path) -> Tab:
    """Open a page from disk (file://, no server, no network) in the module's tab, wait for
    its charts, check it raised nothing, screenshot it, and check every chart is drawn; the
    tab (its `page`, and the `errors` and `dialogs` of the page since it opened)."""
    page = tab.open(path, shot)
    charts = page.evaluate(CHART_STATE)
    for chart in charts:
        assert chart["svg"] >= 1, chart
        assert chart["traces"] >= 1 and chart["drawn"] >= 1, chart
    return tab


def _sample_seasons(sample: Path) -> list[str]:
    return sorted(p.parent.name for p in sample.glob("*/index.html"))


def test_season_reports_render(tab: Tab, sample: Path, tmp_path: Path) -> None:
    seasons = _sample_seasons(sample)
    assert len(seasons) >= 2
    for season in seasons:
        opened = _open(tab, sample / season / "index.html", tmp_path / f"{season}.png")
        page = opened.page
        ids = page.evaluate("() => Array.from(document.querySelectorAll('.plot')).map(d => d.id)")
        assert "chart-trajectories-cote" in ids and "chart-cascade-movements" in ids, ids
        # Bars of the classique series drawn as lines on the cote chart.
        assert page.locator("#chart-trajectories-cote .shapelayer path").count() >= 1


def test_search_adds_a_player_trajectory(tab: Tab, sample: Path, tmp_path: Path) -> None:
    season = _sample_seasons(sample)[-1]
    opened = _open(tab, sample / season / "index.html", tmp_path / "before.png")
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


def test_index_and_player_pages_render(tab: Tab, sample: Path, tmp_path: Path) -> None:
    opened = _open(tab, sample / "index.html", tmp_path / "index.png")
    rows = opened.page.locator("#players tbody tr")
    total = rows.count()
    assert total > 100
    opened.page.fill("#player-filter", "zzzz-nobody")
    assert opened.page.locator("#players tbody tr:not([hidden])").count() == 0
    links = opened.page.eval_on_selector_all(
        "#players tbody a", "els => els.map(e => e.getAttribute('href'))"
    )
    # A couple of players: the first with a cote, and one with duplicate results only.
    pages = sorted((sample / "joueurs").glob("*.html"))
    assert len(pages) == total and len(links) == total
    with_chart = [p for p in pages if "chart-player-trajectory" in p.read_text("utf-8")]
    without = [p for p in pages if p not in with_chart]
    for page_path in [with_chart[0], with_chart[-1], *without[:1]]:
        _open(tab, page_path, tmp_path / f"{page_path.stem}.png")


def test_injected_names_stay_text_in_the_browser(tab: Tab, evil: Path, tmp_path: Path) -> None:
    reports = evil
    for path in (
        reports / SEASON / "index.html",
        reports / "joueurs" / player_filename("100"),
        reports / "index.html",
    ):
        opened = _open(tab, path, tmp_path / f"evil-{path.parent.name}.png")
        page = opened.page
        assert EVIL in page.inner_text("body")
        assert page.evaluate("() => document.querySelectorAll('img').length") == 0
        assert opened.dialogs == []
        if path.name == "index.html" and path.parent.name == SEASON:
            legend = page.eval_on_selector_all(
                "#chart-trajectories-cote .legendtext", "els => els.map(e => e.textContent)"
            )
            assert EVIL + " " + "</script><img src=x onerror=alert(2)>" in legend, legend


# ---------------------------------------------------------------------------- issue 17

NARROW = {"width": 390, "height": 844}
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


@pytest.fixture(scope="module")
def refused_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny site built with one export rejected (a rank written « ex »)."""
    from tests.builds import build  # Dagster: only for this fixture's build

    root = tmp_path_factory.mktemp("refused")
    raw = write_evil_raw(root / "raw")
    lines = results_csv("C3", PLAYERS, date="2024-04-14").splitlines()
    lines[2] = lines[2].replace(",2,open,", ",ex,open,")
    (raw / SEASON / "C3.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    summary = build(raw, root)
    assert [path for path, _ in summary.rejected] == [f"{SEASON}/C3.csv"]
    return root / "reports"


def test_the_notice_names_a_rejected_export_on_every_page(
    tab: Tab, refused_site: Path, tmp_path: Path
) -> None:
    for path in (
        refused_site / SEASON / "index.html",
        refused_site / "index.html",
        refused_site / "joueurs" / player_filename("101"),
    ):
        opened = _open(tab, path, tmp_path / f"notice-{path.parent.name}.png")
        notice = opened.page.locator("#data-notice")
        assert notice.is_visible()
        text = notice.inner_text()
        assert f"{SEASON}/C3.csv, ligne 3, colonne « rank »" in text, text
        assert "Généré le" in text and "Avis sur les données : 1 export refusé" in text
        href = notice.locator("a").get_attribute("href")
        assert href is not None and href.endswith("glossaire.html")
        assert (path.parent / href).resolve().exists()


def test_a_clean_build_says_nothing_was_refused(tab: Tab, sample: Path, tmp_path: Path) -> None:
    season = _sample_seasons(sample)[-1]
    opened = _open(tab, sample / season / "index.html", tmp_path / "clean.png")
    text = opened.page.locator("#data-notice").inner_text()
    assert "aucun export refusé pour cette saison" in text


def test_print_media_opens_every_list(tab: Tab, sample: Path, tmp_path: Path) -> None:
    season = next(
        s
        for s in _sample_seasons(sample)
        if "<details>" in (sample / s / "index.html").read_text(encoding="utf-8")
    )
    opened = _open(tab, sample / season / "index.html", tmp_path / "screen.png")
    page = opened.page
    assert page.locator("details tbody tr").count() >= 1
    hidden_rows = (
        "() => Array.from(document.querySelectorAll('details tbody tr'))"
        ".filter(r => !r.checkVisibility()).length"
    )
    assert page.evaluate(hidden_rows) > 0  # on screen, the lists start closed
    page.emulate_media(media="print")
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('details')).every(d => d.open)"
    )
    assert page.evaluate(hidden_rows) == 0
    page.screenshot(path=str(tmp_path / "print.png"))


def test_both_index_bars_are_visible(tab: Tab, sample: Path, tmp_path: Path) -> None:
    opened = _open(tab, sample / "index.html", tmp_path / "index-bars.png")
    boxes = opened.page.evaluate(
        """() => Array.from(document.querySelectorAll('#chart-index-seasons .barlayer .trace'))
        .map(t => Array.from(t.querySelectorAll('path')).map(p => {
            const b = p.getBoundingClientRect(); return [b.left, b.right, b.height]; }))"""
    )
    assert len(boxes) == 2 and all(boxes), boxes
    for tournament, players in zip(boxes[0], boxes[1], strict=True):
        assert tournament[2] > 0 and players[2] > 0
        assert tournament[1] <= players[0] + 0.5  # side by side, never one over the other
    ticks = opened.page.eval_on_selector_all(
        "#chart-index-seasons .y2tick text", "els => els.map(e => e.textContent)"
    )
    values = [int(t.replace("\u202f", "").replace(" ", "")) for t in ticks]
    step = values[1] - values[0]
    assert any(step == f * 10**k for f in (1, 2, 5) for k in range(6)), ticks


# Per chart, its labels (annotations: bar labels; axis titles) that overlap another or
# leave the chart's box: [chart id, text, other text or « dehors »].
LABEL_CLASHES = """() => Array.from(document.querySelectorAll('.plot')).flatMap(div => {
  const box = div.getBoundingClientRect();
  const labels = Array.from(div.querySelectorAll(
    '.infolayer g.annotation, .infolayer text[class$="title"]'))
    .map(e => ({text: e.textContent, r: e.getBoundingClientRect()}))
    .filter(l => l.r.width > 0 && l.r.height > 0);
  const clashes = [];
  labels.forEach((a, i) => {
    if (a.r.left < box.left - 1 || a.r.right > box.right + 1) {
      clashes.push([div.id, a.text, 'dehors']);
    }
    labels.slice(i + 1).forEach(b => {
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 1 && h > 1) { clashes.push([div.id, a.text, b.text]); }
    });
  });
  return clashes;
})"""


def test_no_sideways_scroll_on_a_phone(tab: Tab, sample: Path, tmp_path: Path) -> None:
    """At 390 px: no page wider than the screen (the season reports, a player, the index
    and every circuit page: issue 27, item 5, the PACA ranking once made its page 1 175 px
    wide), no chart label over another or out of its chart (Figure 4's axis titles, the
    cote bar labels), and legends under their charts."""
    season = _sample_seasons(sample)[-1]
    pages = sorted((sample / "joueurs").glob("*.html"))
    with_series = next(p for p in pages if "chart-player-series" in p.read_text("utf-8"))
    # each kind of circuit page (a year's index, PACA, the two finals), of its latest year
    latest = {p.name: p for p in sorted((sample / "circuits").glob("*/*.html"))}
    assert {"index.html", "paca.html", "masters-grand-sud.html", "grand-est.html"} <= set(latest)
    paths = [sample / season / "index.html", with_series, sample / "index.html"]
    for path in [*paths, *latest.values()]:
        shot = f"phone-{path.parent.name}-{path.stem}.png"
        page = tab.open(path, tmp_path / shot, **NARROW)
        assert page.evaluate(OVERFLOW) <= 0, path
        assert page.evaluate(LABEL_CLASHES) == [], path
        # the legends sit below their charts, never beside them
        legends = page.evaluate(
            """() => Array.from(document.querySelectorAll('.plot')).flatMap(div => {
                const legend = div.querySelector('.legend'); const plot =
                div.querySelector('.cartesianlayer .subplot, .nsewdrag');
                if (!legend || !plot) return [];
                return [[legend.getBoundingClientRect().top,
                         plot.getBoundingClientRect().bottom]]; })"""
        )
        for top, bottom in legends:
            assert top >= bottom - 1, (path, legends)


def test_the_series_history_chart_has_traces(tab: Tab, sample: Path, tmp_path: Path) -> None:
    pages = sorted((sample / "joueurs").glob("*.html"))
    with_series = [p for p in pages if "chart-player-series" in p.read_text("utf-8")]
    assert with_series
    opened = _open(tab, with_series[0], tmp_path / "series.png")
    state = {c["id"]: c for c in opened.page.evaluate(CHART_STATE)}
    assert state["chart-player-series"]["traces"] == 2
    assert state["chart-player-series"]["drawn"] >= 1
    text = opened.page.inner_text("body")
    assert "Série tenue (officielle)" in text and "Série calculée ici" in text
    assert "%N1" in text and "Part" in text
