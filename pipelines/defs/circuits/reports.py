"""The regional circuits' reports, one partition per calendar year.

Written under `WarehouseResource.reports`: `circuits/<year>/index.html` (the year's circuits;
it marks the year as built), `circuits/<year>/<circuit>.html` (self-contained, plotly.js
embedded once) and `circuits/<year>/<circuit>.pdf`.
"""

# No `from __future__ import annotations`: Dagster inspects the `context` annotation.
import dagster as dg

from pipelines.partitions import YEAR_REPORT_GROUP, year_partitions
from pipelines.reports import background as background_reports
from pipelines.reports.circuits.pages import write_year_reports, year_pages
from pipelines.reports.data import ReportData
from pipelines.reports.layout import circuit_page_path, circuit_pdf_path, year_index_path
from pipelines.reports.pdf import print_pdfs
from pipelines.resources import WAREHOUSE_POOL, WarehouseResource

# Every table the circuit reports read.
REPORT_INPUTS = [
    "tournaments",
    "players",
    "results",
    "matches",
    "circuit_calendar",
    "circuit_points",
    "circuit_club_points",
    "circuit_rankings",
    "circuit_club_rankings",
    "circuit_ranking_windows",
    "circuit_masters_invitees",
    "round_robin_standings",
    "grand_est_qualifying",
]


def _data(warehouse: WarehouseResource) -> ReportData:
    return ReportData(warehouse.warehouse, warehouse.parameters)


@dg.asset(
    deps=REPORT_INPUTS,
    partitions_def=year_partitions,
    pool=WAREHOUSE_POOL,
    group_name=YEAR_REPORT_GROUP,
    kinds={"duckdb", "plotly", "html"},
)
def circuit_reports(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """The year's circuit reports in French: one self-contained page per circuit with
    results (PACA: the ranking after each tournament, the top 16 over the year, the clubs,
    the Masters PACA invitees; Masters Grand Sud and Grand Est: crosstable, standings and
    tie-breaks, withdrawals, qualifying ranking) and the year's index."""
    year = context.partition_key
    background = background_reports.CURRENT.get()
    if background is not None:  # a build's run: written by its worker meanwhile
        background.submit(
            warehouse.warehouse, year, warehouse.reports, warehouse.parameters, "circuits"
        )
        index = year_index_path(warehouse.reports, year)
        return dg.MaterializeResult(metadata={"index": dg.MetadataValue.path(str(index))})
    paths = write_year_reports(_data(warehouse), year, warehouse.reports)
    return dg.MaterializeResult(
        metadata={
            "index": dg.MetadataValue.path(str(paths[-1])),
            "pages": ", ".join(p.name for p in paths[:-1]) or "aucune",
        }
    )


@dg.asset(
    deps=["circuit_reports"],
    partitions_def=year_partitions,
    pool=WAREHOUSE_POOL,  # every user of the warehouse resource runs in its pool
    group_name=YEAR_REPORT_GROUP,
    kinds={"pdf", "chromium"},
)
def circuit_reports_pdf(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Each circuit page of the year printed for the committees (A4 PDF, charts drawn), by
    the system's Chromium through Playwright: one browser for the year's pages (each page
    had its own: about 1,3 CPU-s to start one)."""
    year = context.partition_key
    printed = print_pdfs(
        [
            (
                circuit_page_path(warehouse.reports, year, page.slug),
                circuit_pdf_path(warehouse.reports, year, page.slug),
            )
            for page in year_pages(_data(warehouse), year)
        ]
    )
    return dg.MaterializeResult(metadata={"pdfs": ", ".join(p.name for p in printed) or "aucun"})
