"""The example of docs/exports.md loads as the docs say."""

from __future__ import annotations

import polars as pl

from pipelines.ingest.batch import ingest_files
from pipelines.paths import PROJECT_ROOT
from tests.support import PARAMETERS

EXAMPLE = PROJECT_ROOT / "docs" / "examples" / "reports" / "liste_2024-06-30.csv"


def test_the_named_rating_list_example_loads() -> None:
    result = ingest_files({"liste_2024-06-30.csv": EXAMPLE.read_bytes()}, params=PARAMETERS)
    assert result.rejected == {}
    listed = result.tables["rating_lists"].sort("player_id")
    assert listed["last_name"].to_list() == ["Dupont", "Leblanc", None]
    assert listed.filter(pl.col("player_id") == "900")["elo"].item() == 1580.5
    players = result.tables["players"].sort("player_id")
    assert players.select("player_id", "last_name", "first_name").rows() == [
        ("100", "Dupont", "Jean"),
        ("900", "Leblanc", "Odette"),
        ("901", None, None),
    ]
    text = (PROJECT_ROOT / "docs" / "exports.md").read_text(encoding="utf-8")
    assert EXAMPLE.read_text(encoding="utf-8").strip() in text
