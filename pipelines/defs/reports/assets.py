"""Season reports, one partition per season, and the site pages gathering every season.

Written under `WarehouseResource.reports`: `<season>/index.html` (self-contained, plotly.js
embedded once), `<season>/rapport-<season>.pdf`, `index.html`, `joueurs/<licence>.html` and
`assets/plotly.min.js` (shared by the index and the player pages).
"""

# No `from __future__ import annotations`: Dagster inspects the `context` annotation.
import dagster as dg

from pipelines.defs.seasons.plan import wait_for_apart
from pipelines.partitions import season_partitions
from pipelines.progress import throttled
from pipelines.reports import background as background_reports
from pipelines.reports.data import ReportData
from pipelines.reports.index_page import write_index
from pipelines.reports.layout import pdf_path, report_path
from pipelines.reports.pdf import print_pdf
from pipelines.reports.player_pages import write_player_pages
from pipelines.reports.season import write_season_report
from pipelines.reports.sections import discover
from pipelines.reports.site import write_plotly_asset
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource
from transforms.tables import inputs_of, registry

SEASON_GROUP = "season_reports"
SITE_GROUP = "site"

# Every table a season report reads: the base tables and every table computed per season
# (each family's, from the table registry), so the report always comes last in its season.
REPORT_INPUTS = [
    *inputs_of("season"),
    *(t.name for t in registry().values() if t.family.partition == "season"),
]


def _data(warehouse: WarehouseResource) -> ReportData:
    return ReportData(warehouse.warehouse, warehouse.parameters)


@dg.asset(
    deps=REPORT_INPUTS,
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,
    group_name=SEASON_GROUP,
    kinds={"duckdb", "plotly", "html"},
)
def season_report(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """The season's report in French, one self-contained HTML page (works offline): rating
    trajectories with a player search, distributions with their bars, series cascade."""
    season = context.partition_key
    wait_for_apart(season)  # a build computing some of the season's tables beside the chain
    sections = ", ".join(s.key for s in discover())
    background = background_reports.CURRENT.get()
    if background is not None:  # a build's run: written by its worker meanwhile
        background.submit(warehouse.warehouse, season, warehouse.reports, warehouse.parameters)
        path = report_path(warehouse.reports, season)
        return dg.MaterializeResult(
            metadata={"path": dg.MetadataValue.path(str(path)), "sections": sections}
        )
    path = write_season_report(_data(warehouse), season, warehouse.reports)
    return dg.MaterializeResult(
        metadata={
            "path": dg.MetadataValue.path(str(path)),
            "bytes": path.stat().st_size,
            "sections": sections,
        }
    )


@dg.asset(
    deps=["season_report"],
    partitions_def=season_partitions,
    pool=WAREHOUSE_POOL,  # every user of the warehouse resource runs in its pool
    group_name=SEASON_GROUP,
    kinds={"pdf", "chromium"},
)
def season_report_pdf(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """The season's report printed for the committees (A4 PDF, charts drawn), by the
    system's Chromium through Playwright."""
    season = context.partition_key
    html = report_path(warehouse.reports, season)
    path = print_pdf(html, pdf_path(warehouse.reports, season), root=warehouse.reports)
    return dg.MaterializeResult(
        metadata={"path": dg.MetadataValue.path(str(path)), "bytes": path.stat().st_size}
    )


@dg.asset(pool=WAREHOUSE_POOL, group_name=SITE_GROUP, kinds={"plotly"})
def report_plotly_js(warehouse: WarehouseResource) -> dg.MaterializeResult:
    """`assets/plotly.min.js`: the one copy of plotly.js the index and player pages load."""
    path = write_plotly_asset(warehouse.reports)
    return dg.MaterializeResult(metadata={"path": dg.MetadataValue.path(str(path))})


@dg.asset(
    deps=[
        "report_plotly_js",
        "season_report",
        "season_report_pdf",
        "tournaments",
        "results",
        "players",
    ],
    pool=WAREHOUSE_POOL,
    group_name=SITE_GROUP,
    kinds={"duckdb", "html"},
)
def report_index(warehouse: WarehouseResource) -> dg.MaterializeResult:
    """`index.html`: the seasons with their reports (HTML, PDF) and the player directory."""
    data = _data(warehouse)
    background = background_reports.CURRENT.get()
    if background is not None:  # a build's run: written by its worker beside the player pages
        background.submit(
            warehouse.warehouse,
            "",
            warehouse.reports,
            warehouse.parameters,
            "index",
            (tuple(warehouse.build_warnings),),
        )
        path = warehouse.reports / "index.html"
    else:
        path = write_index(data, warehouse.reports, warehouse.build_warnings)
    return dg.MaterializeResult(
        metadata={"path": dg.MetadataValue.path(str(path)), "seasons": data.season_count()}
    )


# A player page shows every family's rows of the player (the circuits' by year too).
PLAYER_PAGE_INPUTS = [
    t.name
    for t in registry().values()
    if t.family.key == "ingest" or t.family.partition in ("season", "year")
]


@dg.asset(
    # after the home page: a build's report worker writes it while the pages are made
    deps=["report_plotly_js", "report_index", *PLAYER_PAGE_INPUTS],
    pool=WAREHOUSE_POOL,
    group_name=SITE_GROUP,
    kinds={"duckdb", "html"},
)
def player_pages(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """`joueurs/<licence>.html` per player: trajectory, end-of-season rankings, series,
    every cote and Elo change explained, tournaments. Only the pages whose content
    changed are rendered again (`pipelines.reports.player_pages.page_digests`); the
    season-wide facts they show (ranks, the series computed here) are in one shared file
    per season, `joueurs/saisons/<season>.js` (`pipelines.reports.player_seasons`)."""
    progress = throttled(context.log.info, "fiches des joueurs")
    written = write_player_pages(_data(warehouse), warehouse.reports, progress)
    return dg.MaterializeResult(
        metadata={
            "pages": written.total,
            "rendered": written.rendered,
            "examined": written.examined,
            "season_files_written": written.shared_files,
            "folder": dg.MetadataValue.path(str(warehouse.reports / "joueurs")),
        }
    )
