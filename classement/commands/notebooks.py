"""`classement notebook-html NOTEBOOK --out DIR`: an analyst notebook exported to HTML that
opens without the Internet.

`marimo export html` writes a page that loads marimo's frontend from a CDN (jsDelivr), and
marimo has no self-contained option for it (its `html-wasm --offline` bundles a Python
runtime to download, and our notebooks read a DuckDB file a browser cannot). The frontend
ships inside the marimo package (`marimo/_static`): this command runs the export, copies
those files beside the page (`DIR/marimo/`) and points the page at them, so the folder is
complete. Browsers refuse JavaScript modules from `file://` pages: serve the folder from
this machine (`python -m http.server --directory DIR --bind 127.0.0.1`) and open
`http://127.0.0.1:8000/<notebook>.html`, with no network needed. Exit 0 when written, 1 when
the export failed, 2 for a notebook that does not exist.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pipelines.paths import PROJECT_ROOT

ASSETS_DIR = "marimo"
CDN = re.compile(r"https://cdn\.jsdelivr\.net/npm/@marimo-team/frontend@[^/\"']+/dist/?")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "notebook-html",
        help="export an analyst notebook to HTML that works without the Internet",
        description="Run a marimo notebook of notebooks/ and export it to DIR/<name>.html "
        "with marimo's frontend copied to DIR/marimo/ (no CDN). Serve DIR locally to read "
        "it: python -m http.server --directory DIR --bind 127.0.0.1.",
    )
    parser.add_argument("notebook", help="a notebook: its path, or its name in notebooks/")
    parser.add_argument("--out", type=Path, default=Path("notebooks-html"), help="folder")
    parser.set_defaults(func=run)


def marimo_static() -> Path:
    """The frontend files the installed marimo package ships."""
    import marimo

    return Path(marimo.__file__).parent / "_static"


def localise(html: str, assets: str = ASSETS_DIR) -> str:
    """The exported page with every address of marimo's CDN pointing to `assets/`."""
    return CDN.sub(f"{assets}/", html)


def _notebook(name: str) -> Path | None:
    for candidate in (Path(name), PROJECT_ROOT / "notebooks" / name):
        for path in (candidate, candidate.with_suffix(".py")):
            if path.is_file():
                return path
    return None


def run(args: argparse.Namespace) -> int:
    notebook = _notebook(args.notebook)
    if notebook is None:
        print(f"erreur : notebook introuvable : {args.notebook}", file=sys.stderr)
        return 2
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    page = out / f"{notebook.stem}.html"
    # Exported from a copy: marimo writes a session snapshot beside the notebook it runs,
    # which must not touch the project's notebooks/ folder.
    with tempfile.TemporaryDirectory(prefix="classement-notebook-") as scratch:
        copy = Path(scratch) / notebook.name
        shutil.copyfile(notebook, copy)
        path = os.pathsep.join(p for p in (str(PROJECT_ROOT), os.environ.get("PYTHONPATH")) if p)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "marimo",
                "export",
                "html",
                str(copy),
                "-o",
                str(page.resolve()),
                "-f",
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": path},
        )
    if done.returncode != 0 or not page.exists():
        print(f"erreur : l'export de {notebook} a échoué :\n{done.stderr[-2000:]}", file=sys.stderr)
        return 1
    page.write_text(localise(page.read_text(encoding="utf-8")), encoding="utf-8")
    assets = out / ASSETS_DIR
    if assets.exists():
        shutil.rmtree(assets)
    shutil.copytree(marimo_static(), assets)
    print(f"Écrit : {page} (et le frontend de marimo dans {assets}/)")
    print(
        f"Lecture sans Internet : python -m http.server --directory {out} --bind 127.0.0.1, "
        f"puis http://127.0.0.1:8000/{page.name}"
    )
    return 0
