"""The circuits' pages of a year: which circuits have one, each page from its sections, the
year's index, and writing them all (`write_year_reports`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from pipelines.reports.circuits import finals, paca
from pipelines.reports.circuits.common import circuit_names, for_year, slug
from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, esc, fmt_number, link, table, tag, write_atomic
from pipelines.reports.layout import circuit_page_path, year_dir, year_index_path
from pipelines.reports.page import GLOSSARY_PAGE, page
from pipelines.reports.pdf_links import pdf_link
from pipelines.reports.section import Chart, Section, chart_html, chart_id

PLOTLY_FROM_YEAR = "../../assets/plotly.min.js"


@dataclass(frozen=True)
class CircuitPage:
    """One circuit's report of a year."""

    code: str
    name: str
    slug: str
    sections: tuple[Section, ...]
    summary: str  # one line for the year's index


def year_pages(data: ReportData, year: str) -> list[CircuitPage]:
    """The circuits with results in `year`, each with its page: the PACA ranking when a
    ranking was published after one of the year's tournaments, a final's circuit when one of
    its finals was ranked (or, for the Grand Est, qualifiers were played)."""
    names = circuit_names(data)
    pages: list[CircuitPage] = []
    code = data.params.paca.circuit
    rankings = for_year(data.table("circuit_rankings"), year).filter(pl.col("circuit") == code)
    if rankings.height:
        held = rankings["after_tournament_id"].n_unique()
        players = (
            for_year(data.table("circuit_points"), year)
            .filter(pl.col("circuit") == code)["player_id"]
            .n_unique()
        )
        pages.append(
            CircuitPage(
                code,
                names.name(code),
                slug(code),
                tuple(paca.sections(code)),
                f"{fmt_number(held)} tournoi(s), {fmt_number(players)} joueur(s) classé(s)",
            )
        )
    standings = for_year(data.table("round_robin_standings"), year)
    for params, grand_est in (
        (data.params.masters, False),
        (data.params.grand_est, True),
    ):
        mine = standings.filter(pl.col("circuit") == params.circuit)
        qualifying = for_year(data.table("grand_est_qualifying"), year) if grand_est else None
        if mine.height == 0 and (qualifying is None or qualifying.height == 0):
            continue
        parts = []
        if mine.height:
            parts.append(f"{fmt_number(mine['tournament_id'].n_unique())} finale(s) classée(s)")
        if qualifying is not None and qualifying.height:
            parts.append(f"{fmt_number(qualifying.height)} joueur(s) au classement qualificatif")
        pages.append(
            CircuitPage(
                params.circuit,
                names.name(params.circuit),
                slug(params.circuit),
                tuple(finals.sections(params.circuit, grand_est=grand_est)),
                ", ".join(parts),
            )
        )
    return pages


def render_circuit_page(data: ReportData, year: str, circuit: CircuitPage) -> str:
    """The HTML of one circuit's page; same warehouse, same bytes."""
    parts: list[str] = []
    number = 0
    seen: set[str] = set()
    for section in circuit.sections:
        body: list[str] = []
        for fragment in section.render(data, year):
            if isinstance(fragment, Chart):
                div_id = chart_id(section.key, fragment.key)
                if div_id in seen:
                    raise ValueError(f"two charts of the page have the id {div_id}")
                seen.add(div_id)
                number += 1
                body.append(chart_html(div_id, fragment, number))
            else:
                body.append(fragment)
        parts.append(
            f'<section class="report-section" id="{esc(section.key)}" '
            f'data-title="{esc(section.title)}">'
            f"<h2>{esc(section.title)}</h2>{''.join(body)}</section>"
        )
    toc = "".join(f"<li>{link('#' + s.key, s.title)}</li>" for s in circuit.sections)
    title = f"{circuit.name} — {year}"
    header = Html(
        '<nav class="breadcrumb no-print">'
        f"{link('../../index.html', '← Accueil')} · "
        f"{link('index.html', f'Circuits {year}')} · "
        f"{pdf_link(f'{circuit.slug}.pdf', 'Version PDF')} · "
        f"{link(f'../../{GLOSSARY_PAGE}', 'Glossaire')}</nav>"
        f'<header class="page"><h1>{esc(title)}</h1>'
        "<p>Circuit régional des clubs Des chiffres et des lettres, année civile "
        f"{esc(year)} ; les termes sont expliqués dans le "
        f"{link(f'../../{GLOSSARY_PAGE}', 'glossaire')}.</p></header>"
        f'<nav class="toc"><strong>Sommaire</strong><ol>{toc}</ol></nav>'
    )
    footer = Html(
        f"<footer><p>{esc(title)}, établi à partir de l'entrepôt de données du classement. "
        "Les noms sont ceux transmis par les organisateurs.</p></footer>"
    )
    return page(title, Html(header + "".join(parts) + footer))


def render_year_index(data: ReportData, year: str, pages: Sequence[CircuitPage]) -> str:
    """`circuits/<year>/index.html`: the year's circuits and their reports."""
    if pages:
        listing = table(
            ["Circuit", "Rapport", "Impression", "En bref"],
            [
                (
                    link(f"{c.slug}.html", c.name),
                    link(f"{c.slug}.html", "page HTML"),
                    pdf_link(f"{c.slug}.pdf", "PDF"),
                    c.summary,
                )
                for c in pages
            ],
        )
    else:
        listing = Html('<p class="note">Aucun circuit régional n\'a de résultats cette année.</p>')
    years = sorted(data.table("year_fingerprints")["year"].to_list())
    others = " · ".join(link(f"../{y}/index.html", y) for y in years if y != year)
    nav = (
        link("../../index.html", "← Accueil")
        + Html(f" · {link(f'../../{GLOSSARY_PAGE}', 'Glossaire')}")
        + (Html(f" · Autres années : {others}") if others else "")
    )
    body = Html(
        f'<nav class="breadcrumb no-print">{nav}</nav>'
        f'<header class="page"><h1>Circuits régionaux — {esc(year)}</h1>'
        "<p>Classement régional PACA, Masters Grand Sud et championnat du Grand Est "
        "(Des chiffres et des lettres), par année civile.</p></header>"
        + tag("h2", "Circuits de l'année")
        + listing
    )
    return page(f"Circuits régionaux — {year}", body, plotly_src=PLOTLY_FROM_YEAR)


def write_year_reports(data: ReportData, year: str, reports: Path) -> list[Path]:
    """Write the year's circuit pages and its index (always: the index marks the year as
    built); pages of circuits gone from the year are removed. Returns the pages written,
    index last."""
    pages = year_pages(data, year)
    written: list[Path] = []
    for circuit in pages:
        path = circuit_page_path(reports, year, circuit.slug)
        write_atomic(path, render_circuit_page(data, year, circuit))
        written.append(path)
    index = year_index_path(reports, year)
    write_atomic(index, render_year_index(data, year, pages))
    keep = {p.name for p in written} | {p.with_suffix(".pdf").name for p in written}
    for stale in sorted(year_dir(reports, year).glob("*")):
        if stale.suffix in {".html", ".pdf"} and stale.name not in keep | {index.name}:
            stale.unlink()
    return [*written, index]
