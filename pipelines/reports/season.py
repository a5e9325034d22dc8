"""The season report: every discovered section, in one self-contained HTML page."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, esc, link, tag, write_atomic
from pipelines.reports.layout import report_path
from pipelines.reports.page import GLOSSARY_PAGE, notice, page
from pipelines.reports.pdf_links import pdf_link
from pipelines.reports.section import Chart, Section, chart_html, chart_id
from pipelines.reports.sections import discover


def render_season_report(
    data: ReportData, season: str, sections: Sequence[Section] | None = None
) -> str:
    """The HTML of a season's report; same warehouse, same bytes."""
    sections = discover() if sections is None else sections
    parts: list[str] = []
    number = 0
    seen: set[str] = set()
    for section in sections:
        body: list[str] = []
        for fragment in section.render(data, season):
            if isinstance(fragment, Chart):
                div_id = chart_id(section.key, fragment.key)
                if div_id in seen:
                    raise ValueError(f"two charts of the report have the id {div_id}")
                seen.add(div_id)
                number += 1
                body.append(chart_html(div_id, fragment, number))
            elif isinstance(fragment, Html):
                body.append(fragment)
            else:
                body.append(tag("p", fragment))
        parts.append(
            f'<section class="report-section" id="{esc(section.key)}" '
            f'data-title="{esc(section.title)}">'
            f"<h2>{esc(section.title)}</h2>{''.join(body)}</section>"
        )
    toc = "".join(f"<li>{link('#' + s.key, s.title)}</li>" for s in sections)
    header = Html(
        '<nav class="breadcrumb no-print">'
        f"{link('../index.html', '← Toutes les saisons')} · "
        f"{pdf_link(f'rapport-{season}.pdf', 'Version PDF')} · "
        f"{link(f'../{GLOSSARY_PAGE}', 'Glossaire')}</nav>"
        '<header class="page">'
        f"<h1>Rapport de la saison {esc(season)}</h1>"
        "<p>Classements et classifications des fédérations francophones de Scrabble : cotes "
        "et Elo (classique), séries duplicate. Les séries calculées en fin de saison "
        "s'appliquent à la saison suivante.</p></header>"
        + notice(
            data.as_of(season),
            data.rejected_exports(season),
            scope="pour cette saison",
            glossary=f"../{GLOSSARY_PAGE}",
        )
        + '<p class="note">Sigles et termes (PE, B, PJ, PC, %N1–%N4, barre d\'accès, '
        "super-série…) : voir le glossaire.</p>"
        f'<nav class="toc"><strong>Sommaire</strong><ol>{toc}</ol></nav>'
    )
    footer = Html(
        f"<footer><p>Rapport de la saison {esc(season)}, établi à partir de l'entrepôt de "
        "données du classement. Les noms sont ceux transmis par les organisateurs.</p>"
        "</footer>"
    )
    return page(f"Rapport de la saison {season}", Html(header + "".join(parts) + footer))


def write_season_report(data: ReportData, season: str, reports: Path) -> Path:
    """Render and write `<reports>/<season>/index.html`; returns its path."""
    path = report_path(reports, season)
    write_atomic(path, render_season_report(data, season))
    return path
