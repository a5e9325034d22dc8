"""Print a season report to PDF with the system's Chromium, driven by Playwright.

Playwright's own browser download is never used: Debian's `chromium` package is launched
(`scripts/system-deps.sh` installs it). The page is laid out at the printable width of an A4
page, every chart is awaited, then Chromium prints it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pipelines.reports.page import PRINT_WIDTH_PX

CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
CHARTS_DRAWN = "() => document.querySelectorAll('.plot:not([data-rendered])').length === 0"


class ChromiumMissingError(RuntimeError):
    pass


def chromium_path() -> str:
    """The Chromium to drive: `CLASSEMENT_CHROMIUM`, else `/usr/bin/chromium` or on PATH."""
    candidates = [os.environ.get("CLASSEMENT_CHROMIUM"), "/usr/bin/chromium"]
    candidates += [shutil.which(n) for n in ("chromium", "chromium-browser")]
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            return candidate
    raise ChromiumMissingError(
        "Chromium introuvable (paquet Debian `chromium`) : lancez scripts/system-deps.sh "
        "ou indiquez son chemin dans CLASSEMENT_CHROMIUM."
    )


def print_pdf(html_path: Path, pdf_path: Path, *, timeout_ms: int = 60_000) -> Path:
    """Print the page `html_path` to `pdf_path` once all its charts are drawn."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _print(html_path, pdf_path, timeout_ms)
    # Playwright's sync API refuses to run inside an event loop (a notebook, another
    # Playwright session): print from a thread of its own then.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(_print, html_path, pdf_path, timeout_ms).result()


def _print(html_path: Path, pdf_path: Path, timeout_ms: int) -> Path:
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = pdf_path.with_name(f".{pdf_path.name}.tmp")
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=list(CHROMIUM_ARGS))
        try:
            page = browser.new_page(viewport={"width": PRINT_WIDTH_PX, "height": 1000})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.emulate_media(media="print")
            page.goto(html_path.resolve().as_uri(), wait_until="load", timeout=timeout_ms)
            page.wait_for_function(CHARTS_DRAWN, timeout=timeout_ms)
            page.evaluate("document.fonts.ready")
            if errors:
                raise RuntimeError(f"{html_path}: erreur JavaScript : {errors[0]}")
            page.pdf(
                path=str(tmp),
                format="A4",
                print_background=True,
                prefer_css_page_size=True,
                display_header_footer=True,
                header_template="<span></span>",
                footer_template=(
                    '<div style="font-size:8px;width:100%;text-align:center;color:#5b6475">'
                    '<span class="title"></span> — page <span class="pageNumber"></span> / '
                    '<span class="totalPages"></span></div>'
                ),
                margin={"top": "12mm", "bottom": "14mm", "left": "10mm", "right": "10mm"},
            )
        finally:
            browser.close()
    os.replace(tmp, pdf_path)
    return pdf_path
