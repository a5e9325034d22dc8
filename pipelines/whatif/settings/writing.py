"""The changed copy of the reference folder: the changes written into its YAML and CSV files,
then every changed file read back by its ordinary loader.
"""

from __future__ import annotations

import csv
import io
import shutil
from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from pipelines.reference.classique import load_cote_params, load_elo_params, load_ranking_params
from pipelines.reference.files import ReferenceDataError
from pipelines.reference.national import load_national_params
from pipelines.reference.series import load_series_params, load_series_quotas
from pipelines.whatif.settings.model import (
    CATEGORIES_FILE,
    QUOTAS_FILE,
    REST,
    Parameter,
    WhatIfError,
)
from pipelines.whatif.settings.quotas import _share_text
from pipelines.whatif.settings.registry import _quota_address


def _set_path(data: Any, path: tuple[Any, ...], value: Any) -> None:
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value


def _write_yaml(path: Path, changes: Mapping[tuple[Any, ...], Any]) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    for where, value in changes.items():
        _set_path(data, where, value)
    header = "# Written by `classement whatif` from the reference folder, with changed values.\n"
    path.write_text(
        header + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100),
        encoding="utf-8",
    )


def _write_csv(path: Path, address: Any, changes: Mapping[str, Any]) -> None:
    """Rewrite the data rows of a reference CSV whose address (`address(row)`) is changed;
    comment lines are kept. `changes`: address → {column: value}."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[str] = []
    header: list[str] | None = None
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            out.append(line)
            continue
        cells = next(csv.reader([line]))
        if header is None:
            header = [c.strip() for c in cells]
            out.append(line)
            continue
        row = dict(zip(header, (c.strip() for c in cells), strict=False))
        updates = changes.get(address(row))
        if updates:
            for column, value in updates.items():
                cells[header.index(column)] = value
            buffer = io.StringIO()
            csv.writer(buffer, lineterminator="").writerow(cells)
            line = buffer.getvalue()
        out.append(line)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def _cell(value: Any) -> str:
    if value == REST:
        return REST
    if isinstance(value, float):
        return _share_text(Fraction(repr(value)))
    return str(value)


def write_reference(
    source: Path, target: Path, values: Mapping[str, Any], params: Mapping[str, Parameter]
) -> None:
    """`target` as a copy of the reference folder `source` with `values` (key → new value)."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target)
    yaml_changes: dict[str, dict[tuple[Any, ...], Any]] = {}
    quota_changes: dict[str, dict[str, str]] = {}
    category_changes: dict[str, dict[str, str]] = {}
    for key, value in values.items():
        param = params[key]
        if param.file == QUOTAS_FILE:
            quota_changes[param.path[0]] = {"share": _cell(value)}
        elif param.file == CATEGORIES_FILE:
            category, column = param.path
            category_changes.setdefault(category, {})[column] = _cell(value)
        else:
            yaml_changes.setdefault(param.file, {})[param.path] = value
    for file, changes in yaml_changes.items():
        _write_yaml(target / file, changes)
    if quota_changes:
        _write_csv(target / QUOTAS_FILE, _quota_address, quota_changes)
    if category_changes:
        _write_csv(target / CATEGORIES_FILE, lambda row: row["category"].lower(), category_changes)


def check_loads(reference_dir: Path, files: Iterable[str]) -> None:
    """Load the changed files with the ordinary loaders: a value they refuse stops the
    what-if with their reason."""
    loaders: dict[str, Any] = {
        "series.yaml": load_series_params,
        "series_quotas.csv": load_series_quotas,
        "cote.yaml": lambda d: (load_cote_params(d), load_ranking_params(d)),
        "cote_categories.csv": load_cote_params,
        "elo.yaml": load_elo_params,
        "national.yaml": load_national_params,
    }
    for file in sorted(set(files)):
        try:
            loaders[file](reference_dir)
        except (ReferenceDataError, ValueError, KeyError, TypeError) as err:
            raise WhatIfError(f"paramètres refusés par le chargeur de {file} : {err}") from None
