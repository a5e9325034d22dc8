"""Season reports rendered by a worker process while the build goes on (issue 25,
`pipelines.reports.background`): the same bytes as the build's own, the warehouse as it was
when the report's step ran, and a failure that fails the build, naming the season."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

from pipelines.reference.bundle import load_parameters
from pipelines.reports import background
from pipelines.reports.background import BackgroundReports, ReportFailedError
from pipelines.reports.layout import report_path
from pipelines.warehouse import Warehouse
from tests.support import SAMPLE


def _seasons(site: Path) -> list[str]:
    return sorted(p.parent.name for p in (site / "reports").glob("*/index.html"))


def _copy(site: Path, target: Path) -> Warehouse:
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(site / "w.duckdb", target / "w.duckdb")
    return Warehouse(target / "w.duckdb")


def test_reports_rendered_in_the_background_see_the_warehouse_as_their_step_saw_it(
    sample_site: Path, tmp_path: Path
) -> None:
    """The home page, each season's report and each year's circuit pages, rendered by the
    worker from a copy of the sample's warehouse, are the build's pages byte for byte, even
    when the warehouse changes right after a report was asked for (the season's cote history and
    series emptied, a table written again): a report reads the snapshot taken when it was
    asked for."""
    warehouse = _copy(sample_site, tmp_path)
    params = load_parameters()
    seasons = _seasons(sample_site)
    years = sorted(p.name for p in (sample_site / "reports" / "circuits").glob("[0-9]*"))
    assert len(seasons) >= 3 and years
    with warehouse.held(), BackgroundReports() as reports:
        reports.submit(warehouse, "", tmp_path / "reports", params, "index", ((),))
        for season in seasons:
            reports.submit(warehouse, season, tmp_path / "reports", params)
            for name in ("cote_history", "series_classification"):
                empty = warehouse.read(f'SELECT * FROM "{name}" LIMIT 0')
                warehouse.replace_partition(name, empty, "season", season)
            warehouse.replace_tables({"data_quality_notes": warehouse.table("data_quality_notes")})
        for year in years:
            reports.submit(warehouse, year, tmp_path / "reports", params, "circuits")
        reports.finish()
        assert reports.pending == 0
        # the changes above were made: a report rendered now would differ
        assert warehouse.read("SELECT count(*) AS n FROM cote_history")["n"][0] == 0
    home = (sample_site / "reports" / "index.html").read_bytes()
    assert (tmp_path / "reports" / "index.html").read_bytes() == home
    for season in seasons:
        built = report_path(sample_site / "reports", season).read_bytes()
        assert report_path(tmp_path / "reports", season).read_bytes() == built, season
    for year in years:
        expected = sample_site / "reports" / "circuits" / year
        pages = sorted(expected.glob("*.html"))
        assert len(pages) >= 2, year
        for page in pages:
            got = tmp_path / "reports" / "circuits" / year / page.name
            assert got.read_bytes() == page.read_bytes(), page


def test_a_build_with_its_reports_in_the_background_writes_the_same_pages(
    sample_site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole build of the sample with its reports in the background
    (`CLASSEMENT_BACKGROUND_REPORTS=1`; the sample is below `FROM_PLAYERS`) writes every
    page the build in one process wrote, byte for byte, and each season's report, each
    year's circuit pages and the home page were indeed asked of the worker."""
    from tests.builds import build

    asked: list[str] = []
    submit = BackgroundReports.submit

    def counted(self: BackgroundReports, warehouse: Warehouse, key: str, *args: object) -> None:
        asked.append(key)
        submit(self, warehouse, key, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(BackgroundReports, "submit", counted)
    monkeypatch.setenv(background.SWITCH, "1")
    build(SAMPLE, tmp_path)
    years = sorted(p.name for p in (sample_site / "reports" / "circuits").glob("[0-9]*"))
    # each stage's partitions in order (the years are computed beside the seasons, so the
    # two kinds interleave: `pipelines.build._beside`)
    assert years and [key for key in asked if "-" in key] == _seasons(sample_site)
    assert [key for key in asked if key.isdigit()] == years
    assert asked.count("") == 1  # the home page, beside the player pages
    expected = sample_site / "reports"
    for page in sorted(expected.rglob("*.html")):
        relative = page.relative_to(expected)
        assert (tmp_path / "reports" / relative).read_bytes() == page.read_bytes(), relative


def test_the_switch_and_the_size_choose_the_background(
    sample_site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unset, the background serves from `FROM_PLAYERS` players on; « 1 » and « 0 » force
    it; anything else is refused, in French."""
    warehouse = Warehouse(sample_site / "w.duckdb")
    players = warehouse.read("SELECT count(*) AS n FROM players")["n"][0]
    monkeypatch.delenv(background.SWITCH, raising=False)
    assert not background.wanted(warehouse)
    monkeypatch.setattr(background, "FROM_PLAYERS", players)
    assert background.wanted(warehouse)
    monkeypatch.setenv(background.SWITCH, "0")
    assert not background.wanted(warehouse)
    monkeypatch.setattr(background, "FROM_PLAYERS", 10**9)
    monkeypatch.setenv(background.SWITCH, "1")
    assert background.wanted(warehouse)
    monkeypatch.setenv(background.SWITCH, "oui")
    with pytest.raises(ValueError, match="attendu 1"):
        background.wanted(warehouse)


def _unrenderable(sample_site: Path, tmp_path: Path) -> tuple[Warehouse, str]:
    """A copy of the sample's warehouse whose last season's report the worker cannot render
    (a table with a column of another name), and that season."""
    warehouse = _copy(sample_site, tmp_path)
    with warehouse.connect() as con:
        con.execute('ALTER TABLE cote_history RENAME COLUMN "cote_after" TO "cote_renommee"')
    return warehouse, _seasons(sample_site)[-1]


def test_a_report_that_fails_in_the_background_fails_the_build_naming_its_season(
    sample_site: Path, tmp_path: Path
) -> None:
    """A report the worker cannot render (a table of the warehouse with a column of another
    name) is raised by `finish` with its season and the worker's error; the next report
    asked for is refused at once."""
    warehouse, season = _unrenderable(sample_site, tmp_path)
    with warehouse.held(), BackgroundReports() as reports:
        reports.submit(warehouse, season, tmp_path / "reports", load_parameters())
        with pytest.raises(ReportFailedError, match=f"rapport de la saison {season}") as err:
            reports.finish()
        assert "cote_history" in str(err.value)
        with pytest.raises(ReportFailedError):
            reports.submit(warehouse, season, tmp_path / "reports", load_parameters())
    assert not report_path(tmp_path / "reports", season).exists()


def test_a_worker_that_dies_fails_the_build(sample_site: Path, tmp_path: Path) -> None:
    """A worker killed between two reports (for want of memory, say): the next report fails
    with a message saying the worker stopped; no build waits for ever."""
    warehouse = _copy(sample_site, tmp_path)
    first, second = _seasons(sample_site)[:2]
    params = load_parameters()
    with warehouse.held(), BackgroundReports() as reports:
        reports.submit(warehouse, first, tmp_path / "reports", params)
        reports.finish()
        process = reports._process
        assert process is not None
        process.kill()
        process.join()
        reports.submit(warehouse, second, tmp_path / "reports", params)
        with pytest.raises(ReportFailedError, match="s'est arrêté"):
            reports.finish()
    assert report_path(tmp_path / "reports", first).exists()
    assert not report_path(tmp_path / "reports", second).exists()


def test_the_worker_keeps_a_whole_table_while_its_digest_stays() -> None:
    """A whole table read by a report is kept by the worker under its digest (the table's
    comment): asked again with the same digest, it is not read again; with another digest
    or none, it is."""
    asked: list[str] = []

    class Link:
        def send(self, message: tuple) -> None:
            asked.append(message[1])

        def recv(self) -> tuple:
            return ("rows", pl.DataFrame({"n": [len(asked)]}))

    background._KEPT.clear()
    sql = 'SELECT * FROM "players"'
    remote = background._Remote(Path("w.duckdb"), Link(), {"players": "digest:1"})  # type: ignore[arg-type]
    assert remote.read(sql)["n"][0] == 1
    assert remote.read(sql)["n"][0] == 1 and len(asked) == 1
    changed = background._Remote(Path("w.duckdb"), Link(), {"players": "digest:2"})  # type: ignore[arg-type]
    assert changed.read(sql)["n"][0] == 2
    plain = background._Remote(Path("w.duckdb"), Link(), {"players": None})  # type: ignore[arg-type]
    assert plain.read(sql)["n"][0] == 3 and plain.read(sql)["n"][0] == 4
    assert remote.read('SELECT * FROM "players" WHERE 1 = ?', [1])["n"][0] == 5
    background._KEPT.clear()


def test_a_report_that_failed_before_the_build_waits_still_fails_it(
    sample_site: Path, tmp_path: Path
) -> None:
    """The build's last wait for its reports (`pipelines.build._reports_written`) raises a
    report that failed while nothing was pending any longer (the year's circuit pages
    rendered, and failed, before the player pages ended): it used to return at once."""
    from pipelines.build import _reports_written

    warehouse, season = _unrenderable(sample_site, tmp_path)
    with warehouse.held(), BackgroundReports() as reports:
        reports.submit(warehouse, season, tmp_path / "reports", load_parameters())
        with reports._done:
            reports._done.wait_for(lambda: reports._pending == 0)
        assert reports.pending == 0
        token = background.CURRENT.set(reports)
        try:
            with pytest.raises(ReportFailedError, match=f"rapport de la saison {season}"):
                _reports_written({})
        finally:
            background.CURRENT.reset(token)
