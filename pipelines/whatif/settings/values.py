"""The `KEY=VALUE` settings read: each value parsed for its parameter's kind, an unknown key
refused with the nearest known ones, every message in French.
"""

from __future__ import annotations

import difflib
import fnmatch
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from pipelines.whatif.settings.model import (
    CATEGORIES_FILE,
    CATEGORIES_PREFIX,
    QUOTAS_FILE,
    QUOTAS_PREFIX,
    REST,
    SUPPORTED_FILES,
    Parameter,
    WhatIfError,
)

# What each kind of value expects, in the messages.
EXPECTED = {
    "number": "un nombre",
    "whole": "un nombre entier",
    "fraction": "une fraction ou un nombre (2/3, 0.5)",
    "bool": "oui ou non",
    "optional": "un nombre, ou « aucun »",
    "share": "un pourcentage de N (un nombre) ou « rest »",
    "text": "un texte",
    "list": "une liste de valeurs séparées par des virgules",
}
TRUE_WORDS = {"oui", "true", "vrai", "yes", "1"}
FALSE_WORDS = {"non", "false", "faux", "no", "0"}
NONE_WORDS = {"", "aucun", "aucune", "null", "none", "~"}
NEAR_KEYS = 5
# The values a parameter may take, bounds included, by key pattern (the first that matches):
# beyond them a what-if is refused, naming the key and the bound (docs/rules.md §9). Every
# other number lies within ±MAX_VALUE.
BOUNDS: tuple[tuple[str, float, float], ...] = (
    ("series.min_divisor", 0, 1000),
    (f"{CATEGORIES_PREFIX}.*.pj_max", 0, 1000),
    (f"{CATEGORIES_PREFIX}.*.pj_min", -1000, 0),
    (f"{CATEGORIES_PREFIX}.*.bonus_m", 0, 1000),
    ("cote.initial_cote", 0, 5000),
    ("cote.series_equivalence.*", 0, 5000),
    ("cote.bounds.*", 0, 5000),
)
MAX_VALUE = 1_000_000
MIN_NEAR_KEYS = 3


def show(value: Any) -> str:
    """A parameter value as a committee reads it: `0,75`, `reste`, `aucun`, `1, 2, 5, 10`."""
    if value is None:
        return "aucun"
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, list):
        return ", ".join(show(v) for v in value)
    if isinstance(value, float):
        text = f"{value:.10g}"
        return text.replace(".", ",").replace("-", "−")
    if isinstance(value, int):
        return str(value).replace("-", "−")
    if value == REST:
        return "reste"
    return str(value)


def _canonical(value: Any) -> str:
    """A stable text of a value, for the hash of the changes."""
    if isinstance(value, list):
        return "[" + ",".join(_canonical(v) for v in value) + "]"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value) if isinstance(value, str) else str(value)


def _bad(param: Parameter, text: str, reason: str) -> WhatIfError:
    if param.choices:
        expected = f"{', '.join(param.choices[:-1])} ou {param.choices[-1]}"
    else:
        expected = EXPECTED.get(param.kind, "")
    return WhatIfError(
        f"valeur refusée pour « {param.key} » : « {text} » {reason} "
        f"(attendu : {expected} ; valeur actuelle : {show(param.value)})"
    )


def _parse_number(param: Parameter, text: str) -> int | float:
    cleaned = text.strip().replace("\u202f", "").replace(" ", "").replace("−", "-")
    if cleaned.count(",") == 1 and "." not in cleaned:
        cleaned = cleaned.replace(",", ".")  # French decimal comma
    try:
        number: int | float = int(cleaned)
    except ValueError:
        try:
            number = float(cleaned)
        except ValueError:
            raise _bad(param, text, "n'est pas un nombre") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise _bad(param, text, "n'est pas un nombre") from None
    if param.kind == "whole" and not float(number).is_integer():
        raise _bad(param, text, "n'est pas un nombre entier")
    low, high = bounds_of(param.key)
    if not low <= number <= high:
        raise _bad(param, text, f"est hors des bornes : de {show(low)} à {show(high)}")
    if param.kind == "whole":
        return int(number)
    return number


def bounds_of(key: str) -> tuple[int | float, int | float]:
    """The smallest and largest value of a parameter (`BOUNDS`, else ±MAX_VALUE)."""
    for pattern, low, high in BOUNDS:
        if fnmatch.fnmatchcase(key, pattern):
            return low, high
    return -MAX_VALUE, MAX_VALUE


def parse_value(param: Parameter, text: str) -> Any:
    """The value `text` gives `param`, or a `WhatIfError` naming the key, the value and what
    is expected."""
    raw = text.strip()
    kind = param.kind
    if kind in ("number", "whole"):
        return _parse_number(param, raw)
    if kind == "optional":
        return None if raw.lower() in NONE_WORDS else _parse_number(param, raw)
    if kind == "share":
        if raw.lower() in (REST, "reste"):
            return REST
        share = _parse_number(param, raw)
        if share < 0:
            raise _bad(param, text, "est négatif")
        return share
    if kind == "fraction":
        try:
            Fraction(raw.replace(",", "."))
        except (ValueError, ZeroDivisionError):
            raise _bad(param, text, "n'est ni une fraction ni un nombre") from None
        return raw.replace(",", ".")
    if kind == "bool":
        if raw.lower() in TRUE_WORDS:
            return True
        if raw.lower() in FALSE_WORDS:
            return False
        raise _bad(param, text, "n'est ni oui ni non")
    if kind == "preset":
        if raw not in param.choices:
            raise _bad(param, text, "n'est pas un préréglage de elo.yaml")
        return raw
    if kind == "list":
        items = [i.strip() for i in raw.split(",") if i.strip()]
        if not items:
            raise _bad(param, text, "est une liste vide")
        current = param.value if isinstance(param.value, list) else []
        if current and all(isinstance(v, int) and not isinstance(v, bool) for v in current):
            whole = Parameter(param.key, param.file, param.value, "whole", param.path)
            return [_parse_number(whole, i) for i in items]
        if current and all(isinstance(v, int | float) for v in current):
            number = Parameter(param.key, param.file, param.value, "number", param.path)
            return [_parse_number(number, i) for i in items]
        return items
    return raw


def _file_of_key(key: str) -> str | None:
    """The reference file a key's first part names (`circuits.seeds` → `circuits.yaml`)."""
    return key.split(".", 1)[0]


def unknown_key(key: str, known: Iterable[str], reference_dir: Path) -> WhatIfError:
    """« clé inconnue … clés proches : … », or, for a key of a reference file the what-if
    does not recompute, which files it does."""
    stem = _file_of_key(key)
    stems = {Path(f).stem for f in SUPPORTED_FILES}
    others = sorted(
        (
            p.name
            for p in reference_dir.glob(f"{stem}.*")
            if p.suffix in (".yaml", ".yml", ".csv") and p.name not in SUPPORTED_FILES
        ),
        key=lambda name: (not name.endswith((".yaml", ".yml")), name),
    )
    if stem not in stems and others:
        supported = ", ".join(
            f"{f} (clés {QUOTAS_PREFIX}.…)"
            if f == QUOTAS_FILE
            else f"{f} (clés {CATEGORIES_PREFIX}.…)"
            if f == CATEGORIES_FILE
            else f
            for f in SUPPORTED_FILES
        )
        return WhatIfError(
            f"clé « {key} » : le what-if ne recalcule pas les règles de {others[0]} ; "
            f"fichiers pris en charge : {supported}"
        )
    keys = list(known)
    near = difflib.get_close_matches(key, keys, n=NEAR_KEYS, cutoff=0.6)
    if len(near) < MIN_NEAR_KEYS:  # always a few to choose from, the closest first
        others = difflib.get_close_matches(key, keys, n=NEAR_KEYS, cutoff=0.0)
        near += [k for k in others if k not in near][: MIN_NEAR_KEYS - len(near)]
    return WhatIfError(f"clé inconnue : « {key} » ; clés proches : {', '.join(near)}")


def parse_settings(
    settings: Sequence[str], params: Mapping[str, Parameter], reference_dir: Path
) -> dict[str, Any]:
    """`KEY=VALUE` settings → {key: value}, each key known and each value valid."""
    chosen: dict[str, Any] = {}
    written: dict[str, str] = {}
    for setting in settings:
        key, sep, text = setting.partition("=")
        key = key.strip()
        if not sep or not key:
            example = key or "series.min_divisor"
            raise WhatIfError(
                f"réglage « {setting} » sans valeur : écrivez CLÉ=VALEUR, par exemple {example}=10"
            )
        param = params.get(key)
        if param is None:
            raise unknown_key(key, params, reference_dir)
        if key in chosen:
            raise WhatIfError(
                f"la clé « {key} » est réglée deux fois ({written[key]} puis {text.strip()}) : "
                "gardez-en une"
            )
        chosen[key] = parse_value(param, text)
        written[key] = text.strip()
    return chosen
