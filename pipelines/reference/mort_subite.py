"""Loader of the Mort Subite challenge parameters (`mort_subite.yaml`, docs/rules.md §6)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

from pipelines.reference.files import ReferenceDataError, read_yaml, require
from transforms.mort_subite.params import MortSubiteParams, TrophyCategory
from transforms.series_labels import SERIES_ORDER, SUPER_SERIE

MORT_SUBITE_FILE = "mort_subite.yaml"


def _whole(value: Any, name: str, path: Path, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ReferenceDataError(
            f"{path}: {name} must be a whole number >= {minimum}, got {value!r}"
        )
    return value


def _trophies(raw: Any, path: Path) -> tuple[TrophyCategory, ...]:
    if not isinstance(raw, list) or not raw:
        raise ReferenceDataError(f"{path}: trophies must be a non-empty list")
    categories: list[TrophyCategory] = []
    seen: set[str] = set()
    valid = [s for s in SERIES_ORDER if s != SUPER_SERIE]
    for item in raw:
        if not isinstance(item, dict):
            raise ReferenceDataError(f"{path}: each trophy needs a label and its series")
        label = str(require(item, "label", path))
        series = tuple(str(s) for s in require(item, "series", path))
        wrong = [s for s in series if s not in valid]
        if wrong:
            raise ReferenceDataError(
                f"{path}: trophy {label!r}: unknown series {wrong} (expected {', '.join(valid)};"
                " super-série counts as 1)"
            )
        twice = seen.intersection(series)
        if twice:
            raise ReferenceDataError(
                f"{path}: trophy {label!r}: series {sorted(twice)} already in another trophy"
            )
        seen.update(series)
        categories.append(TrophyCategory(label=label, series=series))
    return tuple(categories)


def load_mort_subite_params(reference_dir: Path) -> MortSubiteParams:
    """Every parameter of docs/rules.md §6, checked."""
    path = Path(reference_dir) / MORT_SUBITE_FILE
    data = read_yaml(path)
    qualification = require(data, "qualification", path)
    points = require(data, "points", path)
    warnings = require(data, "warnings", path)
    season = require(data, "season", path)
    table = require(points, "by_place", path)
    if not isinstance(table, list) or not table:
        raise ReferenceDataError(f"{path}: points.by_place must be a non-empty list")
    by_place = tuple(_whole(v, "points.by_place", path, minimum=0) for v in table)
    if any(a < b for a, b in pairwise(by_place)):
        raise ReferenceDataError(f"{path}: points.by_place must not increase from place to place")
    after = _whole(require(points, "after_table", path), "points.after_table", path, minimum=0)
    if after > by_place[-1]:
        raise ReferenceDataError(
            f"{path}: points.after_table ({after}) is above the table's last value ({by_place[-1]})"
        )
    return MortSubiteParams(
        top_overall=_whole(
            require(qualification, "top_overall", path), "top_overall", path, minimum=1
        ),
        top_per_series=_whole(
            require(qualification, "top_per_series", path), "top_per_series", path, minimum=1
        ),
        points_by_place=by_place,
        points_after_table=after,
        final_factor=_whole(
            require(points, "final_factor", path), "points.final_factor", path, minimum=1
        ),
        penalised_from_warning=_whole(
            require(warnings, "penalised_from", path), "warnings.penalised_from", path, minimum=1
        ),
        warning_penalty=_whole(
            require(warnings, "penalty", path), "warnings.penalty", path, minimum=0
        ),
        solo_margin=_whole(
            require(warnings, "solo_margin", path), "warnings.solo_margin", path, minimum=0
        ),
        dropped_rounds=_whole(
            require(season, "dropped_rounds", path), "season.dropped_rounds", path, minimum=0
        ),
        trophies=_trophies(require(data, "trophies", path), path),
    )
