"""`classement notebook-html NOTEBOOK --out DIR`: an analyst notebook run and written as one
self-contained HTML page, readable opened as a file (file://) with no network.

Decisions taken here:
- marimo's own export (`marimo export html`) writes a page that needs marimo's frontend:
  JavaScript modules, which browsers refuse to load from a `file://` page, and which still
  ask for outside addresses once served. This command therefore runs the notebook itself
  (marimo's `App.run`, in this process, against the warehouse of `CLASSEMENT_WAREHOUSE`)
  and writes each cell's output into the page shell of the reports
  (`pipelines.reports.page.page`): plotly.js and every chart's data inline, the French
  plotly locale, no `<script src>`, no `type="module"`, no outside address.
- marimo's widgets become what they showed when the notebook ran: a chart
  (`mo.ui.plotly`) is drawn by the page's own plotly; a control (dropdown, slider…) is
  written as its label and its value at export time (the page is a snapshot: to change a
  value, open the notebook in marimo).
- Tables are those of `display_frame` (`pipelines.reports.data.DisplayTable`): typed
  columns (each header says its kind, each number cell carries its value) with French
  text.
- Output written only when every cell ran; the same warehouse gives the same bytes.

Exit 0 when written, 1 when the notebook failed, 2 for a notebook that does not exist.
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

from pipelines.paths import PROJECT_ROOT
from pipelines.reports.html import Html, esc, safe_json
from pipelines.reports.page import page
from pipelines.reports.section import PLOT_CONFIG

# A marimo element of an output's markup: its tag, its attributes (single-quoted, as
# marimo writes them) and its content.
ELEMENT = re.compile(r"<marimo-([a-z-]+)((?:\s+[a-z-]+='[^']*')*)\s*>(.*?)</marimo-\1>", re.S)
ATTRIBUTE = re.compile(r"([a-z-]+)='([^']*)'")
# The class that marks an exported page, and a drawn chart's div id.
PAGE_CLASS = "notebook-export"
CHART_ID = "notebook-chart-{}"


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "notebook-html",
        help="exporter un carnet d'analyse en une page HTML qui s'ouvre hors ligne",
        description="Exécute un carnet marimo de notebooks/ sur l'entrepôt "
        "(CLASSEMENT_WAREHOUSE, sinon data/warehouse.duckdb) et écrit DOSSIER/<nom>.html : "
        "une page autonome (graphiques, tableaux, plotly.js compris) qui s'ouvre comme un "
        "fichier, sans réseau.",
    )
    parser.add_argument("notebook", help="un carnet : son chemin, ou son nom dans notebooks/")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("notebooks-html"),
        help="le dossier écrit (par défaut : notebooks-html/)",
    )
    parser.set_defaults(func=run)


def _notebook(name: str) -> Path | None:
    for candidate in (Path(name), PROJECT_ROOT / "notebooks" / name):
        for path in (candidate, candidate.with_suffix(".py")):
            if path.is_file():
                return path
    return None


def _attributes(text: str) -> dict[str, Any]:
    """An element's `data-*` attributes, decoded from the JSON marimo writes in them."""
    out: dict[str, Any] = {}
    for name, raw in ATTRIBUTE.findall(text):
        value = html.unescape(raw)
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    return out


def _shown_value(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(_shown_value(v) for v in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} : {_shown_value(v)}" for k, v in value.items()) or "—"
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, float):
        return f"{value:g}".replace(".", ",")
    return "—" if value is None else str(value)


class _Renderer:
    """Turns the markup of the cells' outputs into static markup, numbering the charts."""

    def __init__(self) -> None:
        self.charts = 0

    def chart(self, figure: dict[str, Any]) -> str:
        self.charts += 1
        div_id = CHART_ID.format(self.charts)
        layout = dict(figure.get("layout", {}))
        height = int(layout.get("height") or 420)
        layout["height"] = height
        payload = {"data": figure.get("data", []), "layout": layout, "config": PLOT_CONFIG}
        return (
            f'<figure class="chart"><div id="{div_id}" class="plot" '
            f'style="height:{height}px"></div></figure>'
            f'<script>classementPlot("{div_id}",{safe_json(payload)});</script>'
        )

    def element(self, match: re.Match[str]) -> str:
        tag, attributes, content = match.group(1), match.group(2), match.group(3)
        if tag == "ui-element":
            return self.markup(content)
        attrs = _attributes(attributes)
        if tag == "plotly":
            return self.chart(attrs.get("data-figure") or {})
        label = attrs.get("data-label")
        value = _shown_value(attrs.get("data-initial-value"))
        shown = (
            f"{label} : " if isinstance(label, str) and label else ""
        )  # marimo's markup of the label (the notebook's own text, rendered by marimo)
        return (
            f'<p class="control" data-control="{esc(tag)}">{shown}<strong>{esc(value)}</strong>'
            " <small>(valeur à l'export ; pour la changer, ouvrir le notebook dans "
            "marimo)</small></p>"
        )

    def markup(self, text: str) -> str:
        return ELEMENT.sub(self.element, text)


def run_notebook(path: Path) -> list[str]:
    """The markup of each cell's output (cells without output left out)."""
    import marimo

    spec = importlib.util.spec_from_file_location(f"classement_notebook_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} n'est pas un module Python")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    outputs, _ = module.app.run()
    return [marimo.as_html(o).text for o in outputs if o is not None]


def notebook_page(name: str, outputs: list[str]) -> str:
    """The exported page: every output in order, made static, in the reports' shell."""
    renderer = _Renderer()
    cells = "".join(f'<section class="cell">{renderer.markup(o)}</section>' for o in outputs)
    body = Html(
        f'<main class="{PAGE_CLASS}">{cells}<p class="note">Notebook {esc(name)} exporté '
        "par classement notebook-html : une page autonome (graphiques et données inclus), "
        "lisible sans réseau.</p></main>"
    )
    return page(f"Notebook {name}", body, with_plotly=renderer.charts > 0)


def run(args: argparse.Namespace) -> int:
    notebook = _notebook(args.notebook)
    if notebook is None:
        print(f"erreur : notebook introuvable : {args.notebook}", file=sys.stderr)
        return 2
    try:
        outputs = run_notebook(notebook)
    except Exception as err:  # a notebook's own error, said in French with its cause
        print(
            f"erreur : le notebook {notebook} a échoué : {type(err).__name__} : {err}",
            file=sys.stderr,
        )
        return 1
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{notebook.stem}.html"
    target.write_text(notebook_page(notebook.stem, outputs), encoding="utf-8")
    print(f"Écrit : {target} (une page autonome : l'ouvrir comme un fichier, sans réseau)")
    return 0
