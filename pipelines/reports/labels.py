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
# Tournament categories as exports write them (cote_categories.csv, the simulator's
# duplicate events) → the words a reader knows.
CATEGORIES = {
    "mondial": "Mondial",
    "international": "International",
    "national": "National",
    "championnat": "Championnat",
    "regional": "Régional",
    "régional": "Régional",
    "open": "Open",
    "club": "Club",
    "homologue": "Homologué",
    "homologué": "Homologué",
    "masters": "Masters",
    "wespa": "WESPA (anglophone)",
}


def category_label(category: str | None) -> str | None:
    """« Régional » for `regional`; an unknown category as written."""
    if category is None:
        return None
    return CATEGORIES.get(category.strip().lower(), category)


def series_long(series: str | None) -> str:
    """A series spelled out for readers: « Série 3 (internationale) », « Série 7
    (nouveaux licenciés) », « Super-série (élite de la série 1) »."""
    if series is None:
        return "—"
    label = series_label(series)
    return f"{label} ({SERIES_KINDS[series]})" if series in SERIES_KINDS else label


SERIES_KINDS = {
    "SS": "élite de la série 1",
    "1": "internationale",
    "2": "internationale",
    "3": "internationale",
    "4": "internationale",
    "5": "nationale",
    "6": "nationale",
    "7": "nouveaux licenciés",
}
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
    "CATEGORIES",
    "CRITERIA",
    "DISCIPLINES",
    "MOVEMENTS",
    "MOVEMENT_LABELS",
    "SERIES_KINDS",
    "category_label",
    "series_label",
    "series_long",
    "series_sort_key",
]
