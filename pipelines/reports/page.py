"""The page shell shared by the season reports, the index and the player pages."""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from plotly.offline import get_plotlyjs, get_plotlyjs_version

from pipelines.reports.html import Html, count_of, esc, fmt_date, link

# Plotly in French (months, days, number separators, mode bar) and the chart loader: each
# chart marks its div `data-rendered` once drawn (the PDF printer and the tests wait on it).
LOADER_JS = """
Plotly.register({moduleType: "locale", name: "fr", dictionary: {
  "Autoscale": "Échelle automatique", "Box Select": "Sélection rectangulaire",
  "Compare data on hover": "Comparer au survol", "Double-click to zoom back out":
  "Double-cliquer pour dézoomer", "Download plot as a png": "Télécharger en PNG",
  "Lasso Select": "Sélection au lasso", "Pan": "Déplacer", "Reset axes":
  "Réinitialiser les axes", "Show closest data on hover": "Donnée la plus proche au survol",
  "Toggle Spike Lines": "Lignes de repère", "Zoom": "Zoom", "Zoom in": "Zoom avant",
  "Zoom out": "Zoom arrière"}, format: {
  days: ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"],
  shortDays: ["dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."],
  months: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
    "septembre", "octobre", "novembre", "décembre"],
  shortMonths: ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.",
    "oct.", "nov.", "déc."],
  date: "%d/%m/%Y", decimal: ",", thousands: "\\u202f"}});
// On a narrow screen (a phone) the legend goes below the chart, under the axis titles,
// the chart growing by its height; the side margins shrink.
var NARROW = 600;
var LEGEND_ROW = 22;
window.classementPlot = function (id, spec) {
  var div = document.getElementById(id);
  var layout = spec.layout || {};
  if (window.innerWidth < NARROW && spec.narrow) {
    // the chart's own layout for a phone (e.g. its subplots stacked in one column)
    layout = Object.assign({}, layout);
    Object.keys(spec.narrow).forEach(function (key) {
      var value = spec.narrow[key];
      var merge = value && typeof value === "object" && !Array.isArray(value) &&
        layout[key] && typeof layout[key] === "object";
      layout[key] = merge ? Object.assign({}, layout[key], value) : value;
    });
    if (spec.narrow.height) { div.style.height = layout.height + "px"; }
  }
  if (window.innerWidth < NARROW) {
    layout = Object.assign({}, layout);
    var entries = (spec.data || []).filter(function (t) {
      return t.showlegend !== false;
    }).length;
    var shown = layout.showlegend === true || (layout.showlegend !== false && entries > 1);
    var m = Object.assign({}, layout.margin || {});
    m.l = Math.min(m.l === undefined ? 60 : m.l, 48);
    m.r = Math.min(m.r === undefined ? 20 : m.r, 12);
    if (shown) {
      var extra = LEGEND_ROW * entries + 10;
      layout.legend = Object.assign({}, layout.legend || {}, {orientation: "h", x: 0,
        xanchor: "left", xref: "container", y: 0, yanchor: "bottom", yref: "container"});
      m.b = (m.b === undefined ? 50 : m.b) + extra;
      layout.height = (layout.height || div.clientHeight || 420) + extra;
      div.style.height = layout.height + "px";
    }
    layout.margin = m;
  }
  Plotly.newPlot(div, spec.data, layout, spec.config).then(function () {
    div.setAttribute("data-rendered", "true");
  });
};
"""

# Printed from the browser (or by `pdf.print_pdfs`), every list is opened first.
PRINT_JS = """
// Printed from the browser, every list (<details>) is opened: the paper holds it all.
window.classementOpenDetails = function () {
  Array.prototype.forEach.call(document.querySelectorAll("details"), function (d) {
    d.open = true;
  });
};
window.addEventListener("beforeprint", window.classementOpenDetails);
if (window.matchMedia) {
  var printing = window.matchMedia("print");
  var opened = function (e) { if (e.matches) { window.classementOpenDetails(); } };
  if (printing.addEventListener) { printing.addEventListener("change", opened); }
}
"""
LOADER_JS += PRINT_JS

CSS = """
:root { --ink: #1d2433; --muted: #5b6475; --line: #d9dee7; --accent: #1f5fa8; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Segoe UI", Arial, sans-serif; color: var(--ink);
  margin: 0 auto; max-width: 1100px; padding: 1.5rem; line-height: 1.45; font-size: 15px; }
header.page { border-bottom: 3px solid var(--accent); margin-bottom: 1rem; }
header.page h1 { margin: 0 0 .3rem; font-size: 1.7rem; }
header.page p { margin: 0 0 .6rem; color: var(--muted); }
nav.toc ol { columns: 2; margin: .3rem 0 1rem; }
nav.breadcrumb { font-size: .9rem; margin-bottom: .5rem; }
a { color: var(--accent); }
h2 { border-bottom: 1px solid var(--line); padding-bottom: .2rem; margin-top: 2rem; }
h3 { margin: 1.2rem 0 .4rem; font-size: 1.1rem; }
p.note, figcaption, caption { color: var(--muted); font-size: .85rem; }
figure.chart { margin: .8rem 0 1.2rem; break-inside: avoid; page-break-inside: avoid; }
figcaption { margin-top: .2rem; }
caption { caption-side: top; text-align: left; padding: .2rem 0; }
table { border-collapse: collapse; margin: .4rem 0 1rem; font-size: .85rem; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: .2rem .45rem; text-align: left;
  vertical-align: top; }
th { background: #f2f4f8; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr { break-inside: avoid; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
.search { background: #f2f4f8; padding: .6rem .8rem; border-radius: 6px; margin: .6rem 0; }
.search input { font-size: 1rem; padding: .25rem .4rem; width: 22rem; max-width: 100%; }
.search ul { list-style: none; padding: 0; margin: .4rem 0 0; display: flex; flex-wrap: wrap;
  gap: .3rem; }
.search button { font-size: .85rem; cursor: pointer; }
.grid-2 { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
footer { margin-top: 2rem; color: var(--muted); font-size: .8rem;
  border-top: 1px solid var(--line); }
.scroll { overflow-x: auto; max-width: 100%; }
.scroll > table { margin-top: 0; }
aside.notice { border: 1px solid var(--line); border-left: 4px solid #2e9a4b;
  background: #f5faf6; padding: .4rem .8rem; margin: .6rem 0 1rem; font-size: .85rem; }
aside.notice.warn { border-left-color: #c23b3b; background: #fdf3f2; }
aside.notice p { margin: .2rem 0; }
aside.notice p.shrink { color: #a12a2a; }
aside.notice ul { margin: .2rem 0 .3rem; padding-left: 1.2rem; }
aside.notice li { overflow-wrap: anywhere; }
details > summary { cursor: pointer; }
dl.glossary dt { font-weight: bold; margin-top: .6rem; }
dl.glossary dd { margin: .1rem 0 0 1.2rem; }
@media (max-width: 600px) {
  body { padding: .6rem; font-size: 14px; }
  header.page h1 { font-size: 1.3rem; }
  nav.toc ol { columns: 1; }
  .grid-2 { display: block; }
  .search input { width: 100%; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: .3rem; }
}
@page { size: A4; margin: 12mm 10mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 11px; }
  .no-print { display: none !important; }
  section.report-section { break-before: page; page-break-before: always; }
  section.report-section:first-of-type { break-before: auto; page-break-before: auto; }
  a { color: inherit; text-decoration: none; }
  .grid-2 { display: block; }
  .scroll { overflow: visible; }
  details > summary { list-style: none; font-weight: bold; }
  details::details-content { content-visibility: visible; display: contents; }
}
"""

# Width in CSS pixels of an A4 page's printable area (210 mm − 2 × 10 mm): the report is
# laid out at that width before printing so the charts fit the page.
PRINT_WIDTH_PX = 718


def generated_at() -> dt.datetime:
    """When the reports are generated: now (UTC, to the second), or `SOURCE_DATE_EPOCH`
    when set (reproducible builds: the same inputs then give the same bytes)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return dt.datetime.fromtimestamp(int(epoch), dt.UTC).replace(tzinfo=None)
    return dt.datetime.now(dt.UTC).replace(microsecond=0, tzinfo=None)


GLOSSARY_PAGE = "glossaire.html"  # at the root of the reports folder


def generation_line(
    as_of: dt.date | None, when: dt.datetime | None = None, *, whose: str = "chargés"
) -> str:
    """« Généré le 15/01/2025 à 12 h 00 (UTC) à partir des exports reçus jusqu'au … »
    (`whose`: « chargés », or « de ce joueur » on a player page, whose as-of date is the
    player's own latest data)."""
    moment = when or generated_at()
    line = f"Généré le {fmt_date(moment.date())} à {moment:%H} h {moment:%M} (UTC)"
    if as_of is None:
        return line + " ; aucun export chargé."
    return (
        f"{line} à partir des exports reçus jusqu'au {fmt_date(as_of)} (date du dernier "
        f"tournoi ou de la dernière liste de classement {whose})."
    )


@dataclass(frozen=True)
class Rejected:
    """An export the build refused, for the data-quality notice."""

    path: str
    message: str
    season: str | None  # None: its season is unknown (named in every report)


def notice(
    as_of: dt.date | None,
    rejected: Sequence[Rejected],
    *,
    scope: str,
    glossary: str,
    show_season: bool = False,
    whose: str = "chargés",
    warnings: Sequence[str] = (),
) -> Html:
    """The data-quality notice at the top of every page: when it was generated, from which
    data, the `warnings` of a raw folder that shrank since the last build (the home page:
    `pipelines.shrink`), each rejected export of its scope (`scope`: « pour cette
    saison »…) with its reason, or that none was, and the link to the glossary."""
    parts = [f"<p>{esc(generation_line(as_of, whose=whose))}</p>"]
    parts += [f'<p class="shrink"><strong>{esc(w)}</strong></p>' for w in warnings]
    if rejected:
        items = []
        for r in rejected:
            where = r.season or "saison inconnue"
            prefix = f"[{where}] " if show_season or r.season is None else ""
            items.append(f"<li>{esc(prefix)}{esc(r.message)}</li>")
        counted = count_of(len(rejected), "export refusé", "exports refusés")
        parts.append(
            f"<p><strong>Avis sur les données : {esc(counted)} "
            f"{esc(scope)}.</strong> "
            + (
                "Ce qu'il contient manque aux chiffres ci-dessous ; corrigez-le et relancez "
                "le calcul.</p>"
                if len(rejected) == 1
                else "Ce qu'ils contiennent manque aux chiffres ci-dessous ; corrigez-les et "
                "relancez le calcul.</p>"
            )
            + f"<ul>{''.join(items)}</ul>"
        )
        cls = "notice warn"
    else:
        parts.append(
            f"<p><strong>Avis sur les données :</strong> aucun export refusé {esc(scope)}.</p>"
        )
        cls = "notice"
    parts.append(f"<p>{link(glossary, 'Glossaire')} : les termes et sigles des rapports.</p>")
    return Html(f'<aside class="{cls}" id="data-notice">{"".join(parts)}</aside>')


@cache
def plotly_js() -> str:
    """plotly.min.js of the installed plotly package (no CDN: the pages work offline)."""
    return get_plotlyjs()


# plotly.js's « cartesian » bundle, of the version the plotly package embeds (npm package
# `plotly.js-cartesian-dist-min`, `assets/README.md`): the same code as the full bundle for
# the trace types it holds (`PRINT_TRACES`), a third of its size. The PDF printer serves it
# to Chromium in place of the full one (`pipelines.reports.pdf`: the bench's 42 circuit
# pages ~11 % less CPU); the PDFs are the same bytes but their dates.
PRINT_PLOTLY = Path(__file__).parent / "assets" / "plotly-cartesian.min.js"
# The trace types of `PRINT_PLOTLY` (its README): a report's chart is of one of them
# (`pipelines.reports.section.chart_html` refuses any other).
PRINT_TRACES = frozenset(
    (
        "bar",
        "box",
        "contour",
        "heatmap",
        "histogram",
        "histogram2d",
        "histogram2dcontour",
        "image",
        "pie",
        "scatter",
        "scatterternary",
        "violin",
    )
)
_BUNDLE_VERSION = re.compile(r"plotly\.js \(cartesian - minified\) v(\S+)")


def bundle_version(js: str) -> str | None:
    """The version a plotly.js bundle names in its heading comment (None: none named)."""
    found = _BUNDLE_VERSION.search(js[:500])
    return found.group(1) if found else None


@cache
def print_plotly_js() -> str:
    """The plotly.js the PDF printer serves: `PRINT_PLOTLY` when it is of the version the
    installed plotly package embeds, else that package's own full bundle (a plotly upgraded
    without its cartesian bundle prints as before, only slower:
    `tests/test_reports_pdf.py` says which file to replace)."""
    cartesian = PRINT_PLOTLY.read_text(encoding="utf-8")
    if bundle_version(cartesian) == get_plotlyjs_version():
        return cartesian
    return plotly_js()


def page(title: str, body: Html, *, plotly_src: str | None = None, with_plotly: bool = True) -> str:
    """A complete HTML document. plotly.js is embedded once in the head when `plotly_src`
    is None, else loaded from that relative path (the site's shared copy); a page without
    charts (`with_plotly=False`) loads none."""
    if not with_plotly:
        plotly = ""
    elif plotly_src is None:
        plotly = f"<script>{plotly_js()}</script>"
    else:
        plotly = f'<script src="{esc(plotly_src)}"></script>'
    return (
        "<!DOCTYPE html>\n"
        '<html lang="fr">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n"
        f"{plotly}\n<script>{LOADER_JS if with_plotly else PRINT_JS}</script>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )
