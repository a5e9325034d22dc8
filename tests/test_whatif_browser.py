"""The what-if's comparison report in a real headless Chromium: no error, every chart
drawn, and every list complete (as many rows as changements.csv has for it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from pipelines.whatif.run import WhatIfOutputs, run_whatif
from tests.browser import Tab, launched, tab_of
from tests.whatif_world import SEASON

# Browser tests never skip: without Chromium (scripts/system-deps.sh installs it) they fail.
pytestmark = pytest.mark.slow

# Per plot div: its main svg and the bars actually drawn (paired bars, histograms).
CHART_STATE = """() => Array.from(document.querySelectorAll('.plot')).map(div => ({
  id: div.id,
  svg: div.querySelectorAll('svg.main-svg').length,
  traces: div.querySelectorAll('.barlayer .trace').length,
  drawn: div.querySelectorAll('.barlayer .trace path').length,
}))"""
# Per list of changed players: its kind, the rows it announces and the rows it holds.
LISTS = """() => Array.from(document.querySelectorAll('div.changes')).map(div => ({
  kind: div.dataset.change,
  announced: Number(div.dataset.rows),
  rows: div.querySelectorAll('tbody tr').length,
  licences: Array.from(div.querySelectorAll('tbody tr td:nth-child(2)')).map(td => td.textContent),
}))"""


@pytest.fixture(scope="module")
def outputs(whatif_site: Path, tmp_path_factory: pytest.TempPathFactory) -> WhatIfOutputs:
    """A what-if of the hand-made federation (the session's build, only read) changing a
    quota, the minimum divisor and a series equivalence: series, national series, bars,
    cote and its chain all move."""
    return run_whatif(
        whatif_site / "w.duckdb",
        SEASON,
        ["series.quotas.*.1=2", "series.min_divisor=10", "cote.series_equivalence.1=2800"],
        out_dir=tmp_path_factory.mktemp("whatif-browser") / "whatif",
        reports_dir=whatif_site / "reports",
        pdf=False,
    )


@pytest.fixture(scope="module")
def browser(outputs: WhatIfOutputs) -> Iterator[Any]:
    yield from launched()


@pytest.fixture(scope="module")
def tab(browser: Any) -> Iterator[Tab]:
    yield from tab_of(browser)


def test_the_charts_are_drawn(tab: Tab, outputs: WhatIfOutputs, tmp_path: Path) -> None:
    page = tab.open(outputs.html, tmp_path / "whatif.png")
    charts = {c["id"]: c for c in page.evaluate(CHART_STATE)}
    assert set(charts) == {"chart-effectifs-series", "chart-cote-distribution"}
    for chart in charts.values():
        assert chart["svg"] >= 1, chart
        assert chart["traces"] == 2 and chart["drawn"] >= 2, chart  # before and after
    # The paired bars hold every series, before and after, with the counts of the table.
    data = page.evaluate(
        "() => document.getElementById('chart-effectifs-series').data.map(t => [t.name, t.y])"
    )
    counts = outputs.comparison.counts
    assert data == [["Avant", counts["before"].to_list()], ["Après", counts["after"].to_list()]]


def test_every_list_is_complete(tab: Tab, outputs: WhatIfOutputs, tmp_path: Path) -> None:
    page = tab.open(outputs.html, tmp_path / "lists.png")
    lists = {entry["kind"]: entry for entry in page.evaluate(LISTS)}
    csv = pl.read_csv(outputs.csv, infer_schema=False)
    kinds = set(csv["changement"])
    assert {"série", "série nationale", "cote", "rang à la cote"} <= kinds
    for kind in kinds:
        rows = csv.filter(pl.col("changement") == kind)
        shown = lists[kind]
        assert shown["announced"] == shown["rows"] == rows.height, kind
        assert shown["licences"] == rows["licence"].to_list(), kind
    comparison = outputs.comparison
    assert lists["valeurs"]["rows"] == comparison.criteria.height
    chain = comparison.chain
    assert lists["départ"]["rows"] + lists["chaîne"]["rows"] == chain.height
    # Folded on screen, opened when printed.
    assert page.locator("details[open]").count() == 0
    page.emulate_media(media="print")
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    assert page.locator("details:not([open])").count() == 0


def test_a_phone_does_not_scroll_sideways(tab: Tab, outputs: WhatIfOutputs, tmp_path: Path) -> None:
    page = tab.open(outputs.html, tmp_path / "phone.png", width=390)
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 390, wide
