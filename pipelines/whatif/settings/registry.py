"""The registry of changeable parameters, found by walking the files of a reference folder
(never listed by hand): each key with its file, current value and kind of value.
"""

from __future__ import annotations

import csv
import fnmatch
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from pipelines.whatif.settings.model import (
    CATEGORIES_FILE,
    CATEGORIES_PREFIX,
    CATEGORY_COLUMNS,
    QUOTAS_FILE,
    QUOTAS_PREFIX,
    REST,
    SUPPORTED_FILES,
    Parameter,
)

# Parameters the loaders read as whole numbers (`int(...)`): a decimal is refused for them,
# never rounded silently. Every other number may be decimal.
WHOLE_NUMBERS = (
    "cote.initial_cote",
    "cote.series_equivalence.*",
    "cote.bounds.*",
    "cote.bonus_divisors",
    "cote.ranking.activity_years",
    "cote.ranking.bar_step",
    f"{CATEGORIES_PREFIX}.*",
    "series.super_serie.size",
    "elo.presets.*.k.new_games",
    "elo.presets.*.k.junior_age",
    "national.switzerland.*",
)


def _is_scalar(value: object) -> bool:
    return value is None or isinstance(value, bool | int | float | str)


def _kind(key: str, value: object) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "whole" if any(fnmatch.fnmatchcase(key, p) for p in WHOLE_NUMBERS) else "number"
    if value is None:
        return "optional"
    if isinstance(value, str) and "/" in value:
        try:
            Fraction(value)
        except (ValueError, ZeroDivisionError):
            return "text"
        return "fraction"
    return "text"


def _pairs(node: list[Any]) -> bool:
    return bool(node) and all(
        isinstance(i, list) and len(i) == 2 and isinstance(i[0], str) and _is_scalar(i[1])
        for i in node
    )


def _walk(
    file: str, prefix: str, node: Any, path: tuple[Any, ...], out: dict[str, Parameter]
) -> None:
    key = ".".join([prefix, *(str(p) for p in path)]) if path else prefix
    if isinstance(node, dict):
        for name, child in node.items():
            _walk(file, prefix, child, (*path, name), out)
    elif isinstance(node, list):
        if _pairs(node):
            for index, (label, value) in enumerate(node):
                sub = f"{key}.{label}"
                out[sub] = Parameter(sub, file, value, _kind(sub, value), (*path, index, 1))
        elif all(_is_scalar(i) for i in node):
            out[key] = Parameter(key, file, list(node), "list", path)
        # a list of mappings (none in the files the what-if recomputes) is not addressable
    elif path:
        out[key] = Parameter(key, file, node, _kind(key, node), path)


def _csv_rows(path: Path) -> list[dict[str, str]]:
    """The data rows of a reference CSV (comment and blank lines skipped), values trimmed."""
    lines = [
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    reader = csv.DictReader(lines)
    return [{k.strip(): (v or "").strip() for k, v in row.items() if k} for row in reader]


def _quota_address(row: Mapping[str, str]) -> str:
    return f"{row['federation']}.{row['series']}{row['subseries']}"


def _number_text(text: str) -> int | float | str:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def registry(reference_dir: Path) -> dict[str, Parameter]:
    """Every parameter a what-if may change, by key, read from the supported files of
    `reference_dir` (sorted by key)."""
    out: dict[str, Parameter] = {}
    for file in SUPPORTED_FILES:
        path = reference_dir / file
        if not path.exists() or not file.endswith((".yaml", ".yml")):
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        _walk(file, Path(file).stem, data, (), out)
    quotas = reference_dir / QUOTAS_FILE
    if quotas.exists():
        for row in _csv_rows(quotas):
            key = f"{QUOTAS_PREFIX}.{_quota_address(row)}"
            share = row["share"]
            current = REST if share.lower() == REST else _number_text(share)
            out[key] = Parameter(key, QUOTAS_FILE, current, "share", (_quota_address(row),))
    categories = reference_dir / CATEGORIES_FILE
    if categories.exists():
        by_category: dict[str, list[dict[str, str]]] = {}
        for row in _csv_rows(categories):
            by_category.setdefault(row["category"].lower(), []).append(row)
        for category, rows in by_category.items():
            for column in CATEGORY_COLUMNS:
                key = f"{CATEGORIES_PREFIX}.{category}.{column}"
                values = [_number_text(r[column]) for r in rows]
                value: Any = values[0] if len(set(values)) == 1 else values
                out[key] = Parameter(key, CATEGORIES_FILE, value, "whole", (category, column))
    # A preset's value that another preset leaves empty (`cap_difference: null`) may be
    # emptied in every preset.
    tails: dict[str, list[str]] = {}
    for key in out:
        if key.startswith("elo.presets."):
            tails.setdefault(key.split(".", 3)[3], []).append(key)
    for keys in tails.values():
        if any(out[k].kind == "optional" for k in keys):
            for k in keys:
                if out[k].kind in ("number", "whole"):
                    out[k] = Parameter(k, out[k].file, out[k].value, "optional", out[k].path)
    presets = out.get("elo.preset")
    if presets is not None:
        names = tuple(
            sorted({k.split(".")[2] for k in out if k.startswith("elo.presets.")}, key=str)
        )
        out["elo.preset"] = Parameter(
            presets.key, presets.file, presets.value, "preset", presets.path, names
        )
    return dict(sorted(out.items()))
