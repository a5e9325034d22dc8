"""The French words of every report: criteria, disciplines, movements and series labels.

Sections, the site pages and the notebooks take their labels from here, never from each
other."""

from __future__ import annotations

from pipelines.reports.charts import PALETTE
from pipelines.reports.html import fmt_number
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

# National classifications (docs/rules.md §4): rule code → how the player was classified.
NATIONAL_RULES = {
    "international": "cascade internationale",
    "new_licensee": "nouveau licencié",
    "france_pct_n4": "5A par le %N4 minimum",
    "france_pc": "points de classement (PC)",
    "belgium_pp5": "PP5",
    "belgium_pp6": "PP6",
    "belgium_pp7": "PP7",
    "switzerland_pc": "PC des meilleures performances",
    "median_cle": "pourcentage médian et clé de répartition",
}
# Rule code → (criterion of its value, unit, decimals).
NATIONAL_CRITERIA: dict[str, tuple[str, str, int]] = {
    "international": ("critère de la cascade", " %", 2),
    "france_pct_n4": ("%N4", " %", 2),
    "france_pc": ("PC", "", 2),
    "belgium_pp5": ("PP5", " %", 2),
    "belgium_pp6": ("PP6", " %", 2),
    "belgium_pp7": ("PP7", " %", 2),
    "switzerland_pc": ("PC retenus", "", 2),
    "median_cle": ("pourcentage médian", " %", 2),
}
# `national_bars.kind` → French.
BAR_KINDS = {"minimum": "minimum", "quota": "quota", "rest": "reste"}
# `data_quality_notes.notice` → French (an unlisted code is shown as is).
NOTICES = {
    "unknown_federation": "Fédération inconnue",
    "unknown_country": "Pays inconnu",
    "mojibake_name": "Nom mal encodé",
    "licence_spellings": "Licence sous plusieurs noms",
}


def national_value(rule: str | None, value: float | None) -> str | None:
    """A national classification's value with its criterion: « PP5 45,20 % », « PC 1 234,50 »."""
    if value is None or rule is None:
        return None
    criterion, unit, decimals = NATIONAL_CRITERIA.get(rule, ("", "", 2))
    number = fmt_number(value, decimals) + unit
    return f"{criterion} {number}".strip()


__all__ = [
    "BAR_KINDS",
    "CATEGORIES",
    "CRITERIA",
    "DISCIPLINES",
    "MOVEMENTS",
    "MOVEMENT_LABELS",
    "NATIONAL_CRITERIA",
    "NATIONAL_RULES",
    "NOTICES",
    "SERIES_KINDS",
    "category_label",
    "national_value",
    "series_label",
    "series_long",
    "series_sort_key",
]
