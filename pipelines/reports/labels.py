"""The French words of every report: criteria, disciplines, movements and series labels.

Sections, the site pages and the notebooks take their labels from here, never from each
other."""

from __future__ import annotations

from pipelines.reports.charts import PALETTE
from transforms.series_labels import french_series as series_label
from transforms.series_labels import series_sort_key

CRITERIA = {
    "pct_n1": "%N1",
    "pct_n2": "%N2",
    "pct_n3": "%N3",
    "pct_n4": "%N4",
    "pc": "PC",
    "super_serie_pct": "% super-série",
}
DISCIPLINES = {"duplicate": "Duplicate", "classique": "Classique", "dcdl": "DCDL"}
# Movement code → (plural label, colour) for charts and tables.
MOVEMENTS = {
    "promoted": ("Promus", PALETTE[2]),
    "relegated": ("Relégués", PALETTE[3]),
    "unchanged": ("Maintenus", "#9aa3b2"),
    "new": ("Nouveaux", PALETTE[0]),
}
# Movement code → what happened to one player.
MOVEMENT_LABELS = {
    "promoted": "Promu",
    "relegated": "Relégué",
    "unchanged": "Maintenu",
    "new": "Nouveau",
}

__all__ = [
    "CRITERIA",
    "DISCIPLINES",
    "MOVEMENTS",
    "MOVEMENT_LABELS",
    "series_label",
    "series_sort_key",
]
