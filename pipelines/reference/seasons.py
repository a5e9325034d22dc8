"""Loader of the season calendar (`seasons.yaml`, docs/rules.md §0)."""

from __future__ import annotations

from pathlib import Path

from pipelines.reference.files import ReferenceDataError, read_yaml, require
from transforms.calendar import SeasonCalendar

SEASONS_FILE = "seasons.yaml"


def load_calendar(reference_dir: Path) -> SeasonCalendar:
    """The season calendar: the month and day a season starts on. No default: a missing
    value is an error naming the file."""
    path = Path(reference_dir) / SEASONS_FILE
    data = read_yaml(path)
    try:
        return SeasonCalendar(
            int(require(data, "start_month", path)), int(require(data, "start_day", path))
        )
    except ValueError as err:
        raise ReferenceDataError(f"{path}: {err}") from None
