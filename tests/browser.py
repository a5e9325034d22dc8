"""Chromium for the browser tests of a single report (the what-if and the backtest):
Debian's Chromium driven by Playwright, a page opened from its file with every error it
raises collected (a script error, a console error, a request that failed)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright import sync_api

from pipelines.reports.pdf import CHARTS_DRAWN, CHROMIUM_ARGS, chromium_path


def launched() -> Iterator[Any]:
    """The system's Chromium, closed afterwards (the body of a module fixture)."""
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=chromium_path(), args=list(CHROMIUM_ARGS))
        yield chromium
        chromium.close()


def open_page(browser: Any, path: Path, shot: Path, width: int = 1200) -> Any:
    """`path` opened at `width` px, its charts drawn, a full-page screenshot in `shot`; no
    error raised on the way."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
    page.goto(path.resolve().as_uri(), wait_until="load")
    page.wait_for_function(CHARTS_DRAWN, timeout=30_000)
    page.screenshot(path=str(shot), full_page=True)
    assert errors == [], errors
    return page
