"""The backtest's report in a real headless Chromium: no error, every chart drawn with a
curve per system, a phone does not scroll sideways, and the printed PDF holds the whole
report (its verdict, tables and both figures)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipelines.backtest.report import system_label
from pipelines.backtest.run import Outputs, from_raw, run_backtest
from tests.browser import Tab, launched, tab_of
from tests.support import FIXTURES, PARAMETERS
from transforms import backtest

# Browser tests never skip: without Chromium (scripts/system-deps.sh installs it) they fail.
pytestmark = pytest.mark.slow

CHART_STATE = """() => Array.from(document.querySelectorAll('.plot')).map(div => ({
  id: div.id,
  svg: div.querySelectorAll('svg.main-svg').length,
  traces: div.querySelectorAll('.scatterlayer .trace').length,
  points: div.querySelectorAll('.scatterlayer .trace .points path').length,
  names: div.data.map(t => t.name),
}))"""
SYSTEMS = backtest.system_names(list(PARAMETERS.elo_presets))


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Outputs:
    """The bundled WESPA tournaments backtested with every system, the PDF printed."""
    return run_backtest(
        from_raw(FIXTURES / "wespa", PARAMETERS),
        PARAMETERS,
        out_dir=tmp_path_factory.mktemp("backtest-browser") / "out",
        pdf=True,
    )


@pytest.fixture(scope="module")
def browser(outputs: Outputs) -> Iterator[Any]:
    yield from launched()


@pytest.fixture(scope="module")
def tab(browser: Any) -> Iterator[Tab]:
    yield from tab_of(browser)


def test_the_charts_are_drawn(tab: Tab, outputs: Outputs, tmp_path: Path) -> None:
    page = tab.open(outputs.html, tmp_path / "backtest.png")
    charts = {c["id"]: c for c in page.evaluate(CHART_STATE)}
    assert set(charts) == {"chart-calibration-calibration", "chart-saisons-seasons"}
    calibration = charts["chart-calibration-calibration"]
    # the diagonal, then every system but the constant 50 % (a single point at ½)
    assert calibration["names"] == [
        "Calibration parfaite",
        *(system_label(s) for s in SYSTEMS if s != "coin"),
    ]
    assert calibration["traces"] == len(SYSTEMS) and calibration["points"] > 20
    seasons = charts["chart-saisons-seasons"]
    assert seasons["names"] == [system_label(s) for s in SYSTEMS if s != "higher_cote"]
    assert seasons["svg"] >= 1 and seasons["points"] >= 8 * (len(SYSTEMS) - 1)
    verdict = page.locator("p.verdict").inner_text()
    assert verdict.startswith("Sur ") and "intervalle à 95 %" in verdict
    assert page.locator("#data-notice li").count() == 2  # the two refused exports


def test_a_phone_does_not_scroll_sideways(tab: Tab, outputs: Outputs, tmp_path: Path) -> None:
    page = tab.open(outputs.html, tmp_path / "phone.png", width=390)
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 390, wide


def test_the_printed_report_is_whole(tab: Tab, outputs: Outputs, tmp_path: Path) -> None:
    page = tab.open(outputs.html, tmp_path / "print.png")
    page.emulate_media(media="print")
    for section in ("ensemble", "calibration", "saisons", "methode"):
        assert page.locator(f"section#{section}").is_visible(), section
    assert not page.locator("nav.breadcrumb").is_visible()  # the link to the PDF
    assert outputs.pdf is not None and outputs.pdf_error is None
    text = subprocess.run(
        ["pdftotext", "-layout", str(outputs.pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    for expected in (
        "Quel classement prédit le mieux les parties ?",
        "Scores sur l'ensemble",
        "Figure 1 : courbes de calibration",
        "Figure 2 : perte logarithmique par saison",
        "Glicko-2",
        "Weng-Lin (openskill)",
        "atlant16.tou",
    ):
        assert expected in text, expected
