"""Season reports and site pages: escaping, determinism, one plotly.js, every section."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import dagster as dg
from plotly.offline import get_plotlyjs

from pipelines.defs.reports.assets import season_report
from pipelines.instance import build_instance
from pipelines.reports.data import ReportData
from pipelines.reports.html import player_filename, safe_json
from pipelines.reports.season import render_season_report
from pipelines.reports.sections import discover
from pipelines.resources import WarehouseResource
from pipelines.warehouse import Warehouse
from tests.builds import build
from tests.support import EVIL, EVIL_EVENT, EVIL_FIRST, SEASON, write_evil_raw


class _Scan(HTMLParser):
    """Script elements, attributes and text of a page, as a browser's parser sees them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self._in_script: dict[str, str | None] | None = None
        self._buffer: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script, self._buffer = dict(attrs), []

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._in_script is not None:
            self.scripts.append((self._in_script, "".join(self._buffer)))
            self._in_script = None

    def handle_data(self, data: str) -> None:
        if self._in_script is not None:
            self._buffer.append(data)
        else:
            self.text.append(data)


def _scan(path: Path) -> _Scan:
    scan = _Scan()
    scan.feed(path.read_text(encoding="utf-8"))
    scan.close()
    return scan


_CHART_CALL = re.compile(r'^classementPlot\("chart-[a-z0-9-]+",(\{.*\})\);$', re.S)
_FICHE_CALL = re.compile(
    r'^classementFiche\.(?:fill\("[^"<]*"\)|plot\("chart-[a-z0-9-]+",\{.*\},"[^"<]*"\));$', re.S
)
_SCRIPT_FILE = re.compile(r"^(?:.*assets/plotly\.min\.js|saisons/\d{4}-\d{4}\.js|fiche\.js)$")


def _assert_no_injection(path: Path) -> _Scan:
    scan = _scan(path)
    plotly = get_plotlyjs()
    for attrs, body in scan.scripts:
        if body != plotly:
            # Data inside a script never carries markup: `<` of names is written \u003c.
            assert not re.search(r"<\s*/?\s*(script|img)", body, re.I), body[:200]
        if attrs.get("type") == "application/json":
            json.loads(body)  # data only, and well formed
        elif attrs.get("src"):
            # plotly.js, or a player page's season files and their filler (player_seasons)
            assert _SCRIPT_FILE.match(attrs["src"]) and not body, attrs["src"]
        else:
            # Every executable script is ours: plotly.js, the loader, a chart or the search.
            assert (
                body == plotly
                or body.lstrip().startswith("Plotly.register")
                or _CHART_CALL.match(body)
                or _FICHE_CALL.match(body)
                or body.lstrip().startswith("(function () {")
            ), body[:200]
    for tag, attrs in scan.tags:
        assert tag != "img", attrs
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
    return scan


def test_names_from_exports_are_text_never_markup(evil_site: Path) -> None:
    reports = evil_site / "reports"
    pages = [
        reports / SEASON / "index.html",
        reports / "index.html",
        reports / "joueurs" / player_filename("100"),
    ]
    for page in pages:
        raw = page.read_text(encoding="utf-8")
        # No script element opened or closed by the data: the only `</script` are ours.
        assert raw.count("<script") == raw.count("</script>")
        scan = _assert_no_injection(page)
        assert raw.count("<script") == len(scan.scripts)
        text = "".join(scan.text)
        assert EVIL in text, page
        assert EVIL_FIRST in text, page
    season_text = "".join(_scan(pages[0]).text)
    assert EVIL_EVENT in season_text
    player_text = "".join(_scan(pages[2]).text)
    assert EVIL_EVENT in player_text


def test_chart_labels_escaped_for_plotly(evil_site: Path) -> None:
    """Plotly reads `<b>`, `<a>`… in labels: names reach it as entities, shown literally."""
    scan = _scan(evil_site / "reports" / SEASON / "index.html")
    specs = [json.loads(m.group(1)) for _, body in scan.scripts if (m := _CHART_CALL.match(body))]
    names = [t.get("name", "") for spec in specs for t in spec["data"]]
    escaped = EVIL.replace("<", "&lt;").replace(">", "&gt;")
    assert any(escaped in name for name in names), names
    hover = [x for spec in specs for t in spec["data"] for x in t.get("text") or []]
    assert any(escaped in h for h in hover)
    assert not any("<script" in h or "<img" in h for h in [*names, *hover])


def test_safe_json_cannot_end_a_script() -> None:
    encoded = safe_json({"name": "</script><script>alert(1)</script>", "x": "a & b\u2028"})
    assert "<" not in encoded and ">" not in encoded and "&" not in encoded
    assert json.loads(encoded)["name"] == "</script><script>alert(1)</script>"


def test_plotly_js_embedded_exactly_once(evil_site: Path) -> None:
    html = (evil_site / "reports" / SEASON / "index.html").read_text(encoding="utf-8")
    plotly = get_plotlyjs()
    assert html.count(plotly) == 1
    assert html.count("plotly.js v") == 1
    scripts = _scan(evil_site / "reports" / SEASON / "index.html").scripts
    assert [body == plotly for _, body in scripts].count(True) == 1
    assert not any(attrs.get("src") for attrs, _ in scripts)  # nothing fetched: offline
    assert "<link" not in html
    # The site pages share one copy instead.
    site = (evil_site / "reports" / "index.html").read_text(encoding="utf-8")
    assert plotly not in site and 'src="assets/plotly.min.js"' in site
    assert (evil_site / "reports" / "assets" / "plotly.min.js").read_text(
        encoding="utf-8"
    ) == plotly


def test_every_section_present(evil_site: Path) -> None:
    sections = discover()
    assert [s.key for s in sections] == [
        "overview",
        "trajectories",
        "distributions",
        "cascade",
        "comparison",
        "national",
        "game_sheets",
        "mort_subite",
        "data_quality",
    ]
    scan = _scan(evil_site / "reports" / SEASON / "index.html")
    found = {
        attrs["id"]: attrs["data-title"]
        for tag, attrs in scan.tags
        if tag == "section" and "report-section" in (attrs.get("class") or "")
    }
    assert found == {s.key: s.title for s in sections}
    charts = [attrs["id"] for tag, attrs in scan.tags if attrs.get("class") == "plot"]
    assert charts == [
        "chart-trajectories-cote",
        "chart-trajectories-elo",
        "chart-distributions-cote",
        "chart-distributions-percentages",
        "chart-cascade-quotas",
        "chart-cascade-movements",
    ]


def test_same_warehouse_same_bytes(evil_site: Path, tmp_path: Path) -> None:
    """A second build of the same exports writes byte-identical pages."""
    again = tmp_path / "again"
    build(write_evil_raw(tmp_path / "raw"), again)
    first = evil_site / "reports"
    pages = sorted(p.relative_to(first) for p in first.rglob("*.html"))
    assert len(pages) >= 7
    assert pages == sorted(
        p.relative_to(again / "reports") for p in (again / "reports").rglob("*.html")
    )
    for page in pages:
        assert (first / page).read_bytes() == (again / "reports" / page).read_bytes(), page
    data = ReportData.open(evil_site / "w.duckdb")
    assert render_season_report(data, SEASON) == render_season_report(data, SEASON)


def test_season_report_asset_writes_its_partition(evil_site: Path, tmp_path: Path) -> None:
    """The asset alone, materialised on a copy of the warehouse, writes only its season."""
    copy = tmp_path / "w.duckdb"
    copy.write_bytes((evil_site / "w.duckdb").read_bytes())
    instance = build_instance()
    instance.add_dynamic_partitions("season", [SEASON])
    result = dg.materialize(
        [season_report],
        partition_key=SEASON,
        instance=instance,
        resources={
            "warehouse": WarehouseResource(
                warehouse_path=str(copy), reports_dir=str(tmp_path / "reports")
            )
        },
    )
    assert result.success
    written = sorted(
        p.relative_to(tmp_path / "reports")
        for p in (tmp_path / "reports").rglob("*")
        if p.is_file()
    )
    assert written == [Path(SEASON) / "index.html"]
    assert (tmp_path / "reports" / SEASON / "index.html").read_bytes() == (
        evil_site / "reports" / SEASON / "index.html"
    ).read_bytes()


def test_missing_tables_read_as_empty(tmp_path: Path) -> None:
    """A warehouse with tournaments only still gives a report with every section."""
    full = Warehouse(tmp_path / "src.duckdb")
    data = ReportData(full)
    assert data.table("series_bars").height == 0
    html = render_season_report(data, SEASON)
    for section in discover():
        assert f'id="{section.key}"' in html
    assert "Aucun tournoi classique" in html
