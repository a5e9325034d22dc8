"""A what-if from start to end: the settings checked, the changed reference folder written
in a temporary folder, the families recomputed from the warehouse (read-only), and the
outputs written in the what-if's own folder — `index.html` (self-contained),
`whatif-<season>.pdf`, `changements.csv` and `glossaire.html` — by default
`data/whatif/<season>-<hash of the changes>/` (git-ignored). Neither the warehouse nor the
reports folder is ever written."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from pipelines.paths import DEFAULT_REPORTS_DIR, PROJECT_ROOT
from pipelines.reference.bundle import load_parameters, reference_dir
from pipelines.reports.csv import spreadsheet_safe
from pipelines.reports.data import ReportData
from pipelines.reports.glossary import render_glossary
from pipelines.reports.html import write_atomic
from pipelines.reports.page import GLOSSARY_PAGE
from pipelines.reports.pdf import print_pdfs
from pipelines.staleness import SEASONS, stale_partitions
from pipelines.warehouse import Warehouse
from pipelines.whatif.compare import Comparison, compare
from pipelines.whatif.compute import Families, recompute, seasons_up_to, stored
from pipelines.whatif.report import render_report
from pipelines.whatif.settings.model import Scenario, WhatIfError
from pipelines.whatif.settings.scenario import prepare
from transforms import whatif

DEFAULT_WHATIF_DIR = PROJECT_ROOT / "data" / "whatif"
INDEX = "index.html"
CSV = "changements.csv"


def pdf_name(season: str) -> str:
    return f"whatif-{season}.pdf"


def default_reference() -> Path:
    """The parameters the warehouse is built with: `CLASSEMENT_REFERENCE_DIR`, else
    `data/reference/` (as the build: `pipelines.reference.bundle.reference_dir`)."""
    return reference_dir()


def default_folder(season: str, scenario: Scenario, root: Path | None = None) -> Path:
    """`<root>/<season>-<hash of the changes>/`, `root` being `data/whatif/` by default."""
    return (root or DEFAULT_WHATIF_DIR) / f"{season}-{scenario.digest}"


@dataclass(frozen=True)
class WhatIfOutputs:
    """What a what-if wrote, and its comparison."""

    folder: Path
    html: Path
    csv: Path
    pdf: Path | None  # None: not printed (`pdf_error` says why, unless not asked)
    pdf_error: str | None
    comparison: Comparison

    @property
    def exit_status(self) -> int:
        """0 when everything is written, 3 when the PDF could not be printed (as builds)."""
        return 3 if self.pdf_error else 0


def _check_folder(folder: Path, warehouse: Path, reports: Path) -> None:
    target = folder.resolve()
    for forbidden, what in ((reports.resolve(), "des rapports"),):
        if target == forbidden or target.is_relative_to(forbidden):
            raise WhatIfError(
                f"dossier de sortie {folder} refusé : il est dans le dossier {what} ({reports}) ; "
                "un what-if n'écrit jamais dans les rapports publiés"
            )
    if target == warehouse.resolve():
        raise WhatIfError(f"dossier de sortie {folder} refusé : c'est l'entrepôt")


def run_whatif(
    warehouse_path: Path,
    season: str,
    settings: Sequence[str],
    *,
    reference: Path | None = None,
    alternative: Path | None = None,
    out_dir: Path | None = None,
    root: Path | None = None,
    reports_dir: Path = DEFAULT_REPORTS_DIR,
    pdf: bool = True,
) -> WhatIfOutputs:
    """Run a what-if of `season` on the warehouse at `warehouse_path`.

    `settings`: `KEY=VALUE` changes; `reference`: the folder the warehouse was built with
    (default `default_reference()`); `alternative`: a whole other reference folder to
    compare with it (settings apply on top); `out_dir`: the output folder (default
    `default_folder`, under `root`). A `WhatIfError` (French) when the what-if cannot run."""
    warehouse = Warehouse(Path(warehouse_path))
    if not warehouse.exists():
        raise WhatIfError(
            f"entrepôt introuvable : {warehouse_path} ; construisez-le avec « classement "
            "build » ou indiquez-le avec --warehouse"
        )
    # every read through one read-only connection, closed before the files are written and
    # printed (a writer of the warehouse is not kept waiting while Chromium prints)
    with warehouse.reading():
        base = Path(reference or default_reference())
        data = ReportData(warehouse, base)
        with tempfile.TemporaryDirectory(prefix="classement-whatif-") as tmp:
            # the keys and values first, then the season: both before any computation
            scenario = prepare(settings, base, Path(tmp) / "reference", alternative)
            seasons_up_to(warehouse, season)
            comparison = compare(warehouse, season, scenario, data.names())
        folder = Path(out_dir) if out_dir else default_folder(season, scenario, root)
        _check_folder(folder, Path(warehouse_path), Path(reports_dir))
        stale = _stale(warehouse, season, base)
        as_of, rejected = data.as_of(season), data.rejected_exports(season)
    html_path, csv_path, printed = folder / INDEX, folder / CSV, folder / pdf_name(season)
    html = render_report(
        comparison,
        as_of=as_of,
        rejected=rejected,
        stale=stale,
        pdf_name=printed.name,
        csv_name=csv_path.name,
    )
    write_atomic(html_path, html)
    write_atomic(csv_path, spreadsheet_safe(comparison.rows()).write_csv())
    write_atomic(folder / GLOSSARY_PAGE, render_glossary())
    pdf_path: Path | None = None
    pdf_error: str | None = None
    if pdf:
        try:
            print_pdfs([(html_path, printed)], root=folder)
            pdf_path = printed
        except Exception as err:  # HTML and CSV are written: say why the PDF is not
            pdf_error = f"{type(err).__name__} : {err}"
    return WhatIfOutputs(folder, html_path, csv_path, pdf_path, pdf_error, comparison)


def _stale(warehouse: Warehouse, season: str, reference: Path) -> bool:
    """Whether the warehouse's season was computed from other inputs, code or parameters
    than those it would be built from now (its « before » is then not current)."""
    return season in stale_partitions(warehouse, SEASONS, params=load_parameters(reference))


def series_counts(
    warehouse_path: Path,
    season: str,
    settings: Sequence[str],
    *,
    reference: Path | None = None,
) -> tuple[Scenario, pl.DataFrame]:
    """The series counts before and after (`transforms.whatif.series_counts`) of a what-if of
    the duplicate series alone (the notebook's sliders): quicker than `run_whatif`, same
    numbers. A key of another family is refused."""
    warehouse = Warehouse(Path(warehouse_path))
    base = Path(reference or default_reference())
    with warehouse.reading(), tempfile.TemporaryDirectory(prefix="classement-whatif-") as tmp:
        before = stored(warehouse, season)
        scenario = prepare(settings, base, Path(tmp) / "reference")
        others = sorted(scenario.files - {"series.yaml", "series_quotas.csv"})
        if others:
            raise WhatIfError(
                f"ces séries ne dépendent pas de {', '.join(others)} : utilisez classement whatif"
            )
        families = Families(series=bool(scenario.changes))
        after = recompute(warehouse, season, scenario.reference_dir, families, before)
    return scenario, whatif.series_counts(before.classification, after.classification)
