"""Adding a season's exports builds that season only; earlier seasons are not recomputed."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

from pipelines.warehouse import Warehouse
from simulator import GenerateConfig, generate
from tests.builds import build

pytestmark = pytest.mark.slow

SEASON_TABLES = [
    "duplicate_event_scores",
    "series_standings",
    "series_classification",
    "series_bars",
    "series_movements",
]


def _season_rows(path: Path, season: str) -> dict[str, pl.DataFrame]:
    warehouse = Warehouse(path)
    return {
        t: warehouse.read(f"SELECT * FROM {t} WHERE season = ? ORDER BY ALL", [season])
        for t in SEASON_TABLES
    }


def test_a_new_season_builds_alone(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    generate(raw, GenerateConfig(seed=7, seasons=3, players=300))
    held_back = tmp_path / "later"
    shutil.move(raw / "2025-2026", held_back)
    warehouse = tmp_path / "w.duckdb"

    first = build(raw, tmp_path)
    assert first.seasons_built == ["2023-2024", "2024-2025"]
    before = {s: _season_rows(warehouse, s) for s in first.seasons_built}
    assert all(f.height for f in before["2024-2025"].values())

    unchanged = build(raw, tmp_path)
    assert unchanged.seasons_built == []

    shutil.move(held_back, raw / "2025-2026")
    second = build(raw, tmp_path)
    assert second.seasons_built == ["2025-2026"]
    for season, tables in before.items():
        after = _season_rows(warehouse, season)
        for name, frame in tables.items():
            assert frame.equals(after[name]), (season, name)
    assert _season_rows(warehouse, "2025-2026")["series_classification"].height > 0
