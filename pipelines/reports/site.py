"""The pages that gather every season: the index (`pipelines.reports.index_page`) and one page
per player (`pipelines.reports.player_pages`).

They share one `assets/plotly.min.js` (relative path, still offline): a copy of plotly.js
in each of a thousand player pages would weigh gigabytes. The season reports embed their
own copy instead, as they travel alone (sent by mail, archived, printed).
"""

from __future__ import annotations

from pathlib import Path

from pipelines.reports.html import write_atomic
from pipelines.reports.page import plotly_js

PLOTLY_ASSET = Path("assets") / "plotly.min.js"


def write_plotly_asset(reports: Path) -> Path:
    """The site's shared copy of plotly.js."""
    path = reports / PLOTLY_ASSET
    content = plotly_js()
    if not path.exists() or path.read_text(encoding="utf-8") != content:
        write_atomic(path, content)
    return path
