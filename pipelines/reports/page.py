"""The page shell shared by the season reports, the index and the player pages."""

from __future__ import annotations

import datetime as dt
import os
from functools import cache

from plotly.offline import get_plotlyjs

from pipelines.reports.html import Html, esc

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
window.classementPlot = function (id, spec) {
  var div = document.getElementById(id);
  Plotly.newPlot(div, spec.data, spec.layout, spec.config).then(function () {
    div.setAttribute("data-rendered", "true");
  });
};
"""

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
@page { size: A4; margin: 12mm 10mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 11px; }
  .no-print { display: none !important; }
  section.report-section { break-before: page; page-break-before: always; }
  section.report-section:first-of-type { break-before: auto; page-break-before: auto; }
  a { color: inherit; text-decoration: none; }
  .grid-2 { display: block; }
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


@cache
def plotly_js() -> str:
    """plotly.min.js of the installed plotly package (no CDN: the pages work offline)."""
    return get_plotlyjs()


def page(title: str, body: Html, *, plotly_src: str | None = None) -> str:
    """A complete HTML document. plotly.js is embedded once in the head when `plotly_src`
    is None, else loaded from that relative path (the site's shared copy)."""
    if plotly_src is None:
        plotly = f"<script>{plotly_js()}</script>"
    else:
        plotly = f'<script src="{esc(plotly_src)}"></script>'
    return (
        "<!DOCTYPE html>\n"
        '<html lang="fr">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n"
        f"{plotly}\n<script>{LOADER_JS}</script>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )
