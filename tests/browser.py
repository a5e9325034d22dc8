"""Chromium for the browser tests: Debian's Chromium driven by Playwright, and one tab that a
test module navigates from page to page, every error a page raises collected (a script
error, a console error, a request that failed, a dialog).

Why one tab rather than a new one per page: a renderer keeps the code it compiled for the
scripts it ran. plotly.js (4.8 MB) costs ~2.2 CPU-s to compile in a new tab (1.4 s of
wall time, measured 5 December 2026), 0.25 s in a tab that already ran it from the same
file (`assets/plotly.min.js`: the index, player and circuit pages) or opened the same page
before (a report with plotly.js inside it). Each page is still loaded whole from its file
(file://, no server, no network), at the width the test asks for."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright import sync_api

from pipelines.reports.pdf import CHARTS_DRAWN, CHROMIUM_ARGS, chromium_path

HEIGHT = 900


def launched() -> Iterator[Any]:
    """The system's Chromium, closed afterwards (the body of a module fixture)."""
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=chromium_path(), args=list(CHROMIUM_ARGS))
        yield chromium
        chromium.close()


class Tab:
    """One tab of `browser`, navigated by `open`: each page opened starts with no error and
    no dialog recorded, on the screen's media, at the width asked for."""

    def __init__(self, browser: Any) -> None:
        self.page = browser.new_page(viewport={"width": 1200, "height": HEIGHT})
        self.size = (1200, HEIGHT)
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        page = self.page
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.on(
            "console",
            lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None,
        )
        page.on("requestfailed", lambda r: self.errors.append(f"request failed: {r.url}"))
        page.on("dialog", self._on_dialog)

    def _on_dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def open(
        self,
        path: Path,
        shot: Path,
        *,
        width: int = 1200,
        height: int = HEIGHT,
    ) -> Any:
        """`path` loaded in a `width` × `height` px window, its charts drawn, a screenshot of
        the window in `shot` (the whole page would cost a season report ~2 CPU-s more to
        paint, and the checks read the page, not the picture); no error raised on the way,
        no dialog."""
        self.errors.clear()
        self.dialogs.clear()
        page = self.page
        page.emulate_media(media="null")  # a test before may have asked for print
        if (width, height) != self.size:
            page.set_viewport_size({"width": width, "height": height})
            self.size = (width, height)
        page.goto(path.resolve().as_uri(), wait_until="load")
        page.wait_for_function(CHARTS_DRAWN, timeout=30_000)
        page.screenshot(path=str(shot))
        assert self.errors == [], self.errors
        assert self.dialogs == [], self.dialogs
        return page

    def close(self) -> None:
        self.page.close()


def tab_of(browser: Any) -> Iterator[Tab]:
    """A `Tab` of `browser`, closed afterwards (the body of a module fixture)."""
    tab = Tab(browser)
    yield tab
    tab.close()
