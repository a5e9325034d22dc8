"""Reading the reviewed parameter files of `data/reference/`, with errors naming them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


class ReferenceDataError(ValueError):
    """A reference file that is missing, or is missing a value or holds a wrong one."""


def read_yaml(path: Path) -> dict[str, Any]:
    """A YAML reference file's top-level mapping."""
    if not path.exists():
        raise ReferenceDataError(f"{path}: file not found")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ReferenceDataError(f"{path}: expected a mapping at the top level")
    return data


def require(data: dict[str, Any], key: str, path: Path) -> Any:
    """`data[key]`, or an error naming the file and the key."""
    if key not in data:
        raise ReferenceDataError(f"{path}: missing key {key!r}")
    return data[key]
