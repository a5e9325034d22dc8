"""The French name of each changeable parameter, as a committee reads it in a what-if report
(`quota de la série 4A (Belgique)`, never `series.quotas.BEL.4A`; issue 27, item 4).

Keys are matched by pattern, so a parameter added to a reference file is named as soon as
its pattern is known; `tests/test_whatif_labels.py` checks that every key of the project's
reference folder has a name here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pipelines.reports.labels import category_label

ELO = r"elo\.presets\.(?P<preset>[^.]+)\."
FED = r"(?P<fed>[^.]+)"

# (pattern of a key, its French name: `{group}` filled from the match; `{fed}` a federation
# by its name, `{cat}` a tournament category by its label, `{serie}` a series spelled out,
# `{preset}` an Elo preset by its name).
PATTERNS: tuple[tuple[str, str], ...] = (
    (rf"series\.quotas\.{FED}\.(?P<s>[^.]+)", "quota de la série {s} ({fed})"),
    (r"series\.min_divisor", "diviseur minimal des quotas des séries"),
    (r"series\.default_coefficient", "coefficient d'une épreuve (par défaut)"),
    (r"series\.coefficient_by_category\.(?P<cat>[^.]+)", "coefficient d'une épreuve ({cat})"),
    (r"series\.super_serie\.size", "nombre de joueurs de la super-série"),
    (r"series\.super_serie\.threshold", "pourcentage minimal de la super-série"),
    (r"series\.super_serie\.current_weight", "poids de la saison (super-série)"),
    (r"series\.super_serie\.previous_weight", "poids de la saison précédente (super-série)"),
    (r"cote\.initial_cote", "cote initiale d'un débutant"),
    (r"cote\.series_equivalence\.(?P<serie>[^.]+)", "cote de départ équivalente ({serie})"),
    (r"cote\.bounds\.low", "cote minimale"),
    (r"cote\.bounds\.high", "cote maximale"),
    (r"cote\.bonus_divisors", "diviseurs du bonus B (places 1 à 4)"),
    (r"cote\.pj_gain", "part de l'écart gagnée en PJ"),
    (r"cote\.pj_loss", "part de l'écart perdue en PJ"),
    (r"cote\.disciplines", "disciplines cotées"),
    (r"cote\.categories\.(?P<cat>[^.]+)\.bonus_m", "bonus M ({cat})"),
    (r"cote\.categories\.(?P<cat>[^.]+)\.pj_max", "PJ maximal ({cat})"),
    (r"cote\.categories\.(?P<cat>[^.]+)\.pj_min", "PJ minimal ({cat})"),
    (r"cote\.ranking\.activity_years", "années d'activité retenues (classement des cotes)"),
    (r"cote\.ranking\.bar_step", "arrondi des barres des séries classiques"),
    (r"cote\.ranking\.series_shares\.(?P<s>[^.]+)", "part de la série classique {s}"),
    (r"elo\.preset", "préréglage Elo retenu"),
    (rf"{ELO}curve\.kind", "courbe du score attendu (Elo {preset})"),
    (rf"{ELO}curve\.scale", "échelle de la courbe (Elo {preset})"),
    (rf"{ELO}initial_rating", "classement Elo initial (Elo {preset})"),
    (rf"{ELO}cap_difference", "écart plafonné (Elo {preset})"),
    (rf"{ELO}round_change", "variation arrondie à chaque tournoi (Elo {preset})"),
    (rf"{ELO}disciplines", "disciplines classées (Elo {preset})"),
    (rf"{ELO}k\.k_new", "K d'un nouveau joueur (Elo {preset})"),
    (rf"{ELO}k\.new_games", "parties d'un nouveau joueur (Elo {preset})"),
    (rf"{ELO}k\.k_junior", "K d'un junior (Elo {preset})"),
    (rf"{ELO}k\.junior_age", "âge limite d'un junior (Elo {preset})"),
    (rf"{ELO}k\.junior_below", "classement sous lequel un junior a son K (Elo {preset})"),
    (rf"{ELO}k\.k_default", "K ordinaire (Elo {preset})"),
    (rf"{ELO}k\.k_high", "K des meilleurs classements (Elo {preset})"),
    (rf"{ELO}k\.high_threshold", "classement des meilleurs (Elo {preset})"),
    (rf"national\.rules\.{FED}", "règle du classement national ({fed})"),
    (r"national\.france\.min_pct_n4", "%N4 minimal pour la série 5A (France)"),
    (r"national\.belgium\.min_pp5", "PP5 minimal pour la 5e série (Belgique)"),
    (r"national\.switzerland\.counted_events", "performances retenues (Suisse)"),
    (r"national\.switzerland\.home_events", "tournois en Suisse parmi elles, au moins (Suisse)"),
    (r"national\.median\.reference_federation", "fédération de référence (règle médiane)"),
    (r"national\.median\.series", "séries de la clé de répartition (règle médiane)"),
)
_COMPILED = tuple((re.compile(p), name) for p, name in PATTERNS)


# The presets of elo.yaml as a reader names them (another preset: as written).
PRESETS = {"default": "par défaut", "fide": "FIDE", "wespa": "WESPA"}


def _serie(code: str) -> str:
    return "super-série" if code.upper() == "SS" else f"série {code}"


def _federation(code: str, federation_name: Callable[[str], str]) -> str:
    return "autres fédérations" if code == "*" else federation_name(code)


def parameter_label(key: str, federation_name: Callable[[str], str] = str) -> str | None:
    """The French name of a parameter's key (None when no pattern knows it);
    `federation_name` names a federation by its code (the reference's table)."""
    for pattern, name in _COMPILED:
        found = pattern.fullmatch(key)
        if found is None:
            continue
        parts = found.groupdict()
        if "fed" in parts:
            parts["fed"] = _federation(parts["fed"], federation_name)
        if "cat" in parts:
            parts["cat"] = f"catégorie {category_label(parts['cat']) or parts['cat']}"
        if "preset" in parts:
            parts["preset"] = PRESETS.get(parts["preset"], parts["preset"])
        if "serie" in parts:
            parts["serie"] = _serie(parts["serie"])
        return name.format(**parts)
    return None
