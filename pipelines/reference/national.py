"""Loader of the national classification parameters (`national.yaml`, docs/rules.md §4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipelines.reference.federations import FEDERATIONS_FILE, load_federations
from pipelines.reference.files import ReferenceDataError, read_yaml, require
from transforms.national import (
    RULES,
    BelgiumParams,
    FranceParams,
    MedianParams,
    NationalParams,
    SwitzerlandParams,
)

NATIONAL_FILE = "national.yaml"


def _number(section: dict[str, Any], key: str, path: Path, name: str) -> float:
    value = require(section, key, path)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ReferenceDataError(f"{path}: {name}.{key} must be a number, found {value!r}")
    if value < 0:
        raise ReferenceDataError(f"{path}: {name}.{key} must not be negative")
    return float(value)


def _count(section: dict[str, Any], key: str, path: Path, name: str) -> int:
    value = require(section, key, path)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ReferenceDataError(f"{path}: {name}.{key} must be a positive whole number")
    return value


def _section(data: dict[str, Any], key: str, path: Path) -> dict[str, Any]:
    section = require(data, key, path)
    if not isinstance(section, dict):
        raise ReferenceDataError(f"{path}: {key} must be a mapping")
    return section


def load_national_params(reference_dir: Path) -> NationalParams:
    """Every parameter of docs/rules.md §4; errors name the file and the key. Federation codes must
    be codes of `federations.csv`."""
    path = Path(reference_dir) / NATIONAL_FILE
    data = read_yaml(path)
    codes = set(load_federations(Path(reference_dir)).codes)
    rules = _section(data, "rules", path)
    for code, rule in rules.items():
        if rule not in RULES:
            raise ReferenceDataError(
                f"{path}: rules.{code}: unknown rule {rule!r} (known: {', '.join(RULES)})"
            )
        if str(code) not in codes:
            raise ReferenceDataError(f"{path}: rules.{code}: not a code of {FEDERATIONS_FILE}")
    france = _section(data, "france", path)
    if "min_pc" in france:
        raise ReferenceDataError(
            f"{path}: france.min_pc is no longer a parameter: 5A's PC bar is set each season "
            "by 5A's quota in series_quotas.csv (docs/rules.md §4); remove it"
        )
    belgium = _section(data, "belgium", path)
    switzerland = _section(data, "switzerland", path)
    median = _section(data, "median", path)
    reference = str(require(median, "reference_federation", path))
    if reference not in codes:
        raise ReferenceDataError(
            f"{path}: median.reference_federation {reference!r} is not a code of {FEDERATIONS_FILE}"
        )
    series = require(median, "series", path)
    if not isinstance(series, list) or not series:
        raise ReferenceDataError(f"{path}: median.series must be a list of series")
    try:
        return NationalParams(
            rules={str(code): str(rule) for code, rule in rules.items()},
            france=FranceParams(min_pct_n4=_number(france, "min_pct_n4", path, "france")),
            belgium=BelgiumParams(min_pp5=_number(belgium, "min_pp5", path, "belgium")),
            switzerland=SwitzerlandParams(
                counted_events=_count(switzerland, "counted_events", path, "switzerland"),
                home_events=_count(switzerland, "home_events", path, "switzerland"),
            ),
            median=MedianParams(
                reference_federation=reference,
                series=tuple(str(s) for s in series),
            ),
        )
    except ValueError as err:
        raise ReferenceDataError(f"{path}: {err}") from None
