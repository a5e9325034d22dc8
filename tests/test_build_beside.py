"""A build computes the seasons' chain in its thread and, in another at once, the season
families that read only the ingest's tables and the calendar years (`pipelines.build._beside`,
issue 25): the same tables as the stages in turn, and a failure on either side fails the
build and leaves the warehouse as it was."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from pipelines.plan.season import APART, SeasonInputs, compute_season, family_tables
from pipelines.reference.bundle import load_parameters
from pipelines.warehouse import Warehouse
from tests.builds import build
from tests.support import SAMPLE
from transforms.tables import registry


def _tables(path: Path) -> dict[str, pl.DataFrame]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        names = [
            r[0]
            for r in con.execute(
                "SELECT table_name FROM duckdb_tables() ORDER BY table_name"
            ).fetchall()
        ]
        return {name: con.sql(f'SELECT * FROM "{name}"').pl() for name in names}
    finally:
        con.close()


def test_the_families_apart_read_only_the_ingest_and_their_own_earlier_seasons(
    sample_site: Path, tmp_path: Path
) -> None:
    built = _tables(sample_site / "w.duckdb")
    ingest = {name for name, t in registry().items() if t.family.key == "ingest"}
    apart = set(family_tables(APART))
    params = load_parameters()
    seasons = sorted(built["season_fingerprints"]["season"].to_list())
    assert len(seasons) >= 2 and built["elo_history"].height > 0
    for season in seasons:
        copy = tmp_path / f"{season}.duckdb"
        shutil.copy(sample_site / "w.duckdb", copy)
        con = duckdb.connect(str(copy))
        for name in built:
            if name in apart:  # their own earlier seasons only
                con.execute(f'DELETE FROM "{name}" WHERE season >= ?', [season])
            elif name not in ingest:
                con.execute(f'DROP TABLE "{name}"')
        con.close()
        computed = compute_season(SeasonInputs(Warehouse(copy), season, params), APART)
        assert set(computed) == apart
        for name, frame in computed.items():
            expected = built[name].filter(pl.col("season") == season)
            assert_frame_equal(frame, expected, check_row_order=False), (season, name)


def test_a_build_beside_writes_the_tables_of_a_build_in_turn(
    sample_site: Path, tmp_path: Path
) -> None:
    from pipelines.instance import build_instance

    lines: list[str] = []
    # an instance of the caller's: the stages run in turn (`pipelines.build._materialise`)
    build(SAMPLE, tmp_path, lines, instance=build_instance())
    beside, in_turn = _tables(sample_site / "w.duckdb"), _tables(tmp_path / "w.duckdb")
    assert sorted(beside) == sorted(in_turn)
    for name, frame in in_turn.items():
        assert_frame_equal(beside[name], frame), name
    # the same steps reported, each partition's lines together
    said = (sample_site / "build.txt").read_text(encoding="utf-8").splitlines()
    assert any(line.startswith("Saison ") and "(Elo, Mort Subite" in line for line in said)
    assert not any("(Elo, Mort Subite" in line for line in lines)

    def steps(printed: list[str]) -> list[str]:  # (the sample site printed its PDFs too)
        return sorted(
            line.split(" (")[0] for line in printed if line.startswith("  ✓") and "PDF" not in line
        )

    assert steps(said) == steps(lines)


@pytest.mark.parametrize("side", ["year", "apart", "chain"])
def test_a_failure_on_either_side_fails_the_build_and_keeps_the_warehouse(
    side: str, raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build(raw, tmp_path)
    before = _tables(tmp_path / "w.duckdb")
    threads = threading.active_count()
    if side == "year":  # in the thread beside the seasons
        import pipelines.defs.circuits.assets as circuits
        from transforms.circuits import CircuitError

        def fails(*_args: object, **_kwargs: object) -> None:
            raise CircuitError("calendrier illisible (essai)")

        monkeypatch.setattr(circuits, "compute_year", fails)
        expected = "calendrier illisible"
    elif side == "apart":  # a family apart: the chain's steps waiting for it fail after it
        import pipelines.plan.season as plan

        def wrong(*_args: object, **_kwargs: object) -> None:
            raise ValueError("feuille de partie illisible (essai)")

        monkeypatch.setattr(plan, "audit_game_sheets", wrong)
        expected = "feuille de partie illisible"
    else:  # in the seasons' chain, while the other thread works
        import pipelines.plan.season as plan

        def breaks(*_args: object, **_kwargs: object) -> None:
            raise ValueError("classement impossible (essai)")

        monkeypatch.setattr(plan, "classify_national", breaks)
        expected = "classement impossible"
    with pytest.raises(Exception, match=expected):
        build(raw, tmp_path, full=True)
    assert threading.active_count() == threads  # the other thread ended too
    after = _tables(tmp_path / "w.duckdb")
    assert sorted(after) == sorted(before)
    for name, frame in before.items():
        assert_frame_equal(after[name], frame), name
