"""A file is recognised by its content: an export rewritten at the same size with its old
date and inode (`cp -p`, `rsync -t`, `touch -r`) is read again, by the ingest cache and by
the no-change fast path of a build."""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl
import pytest

from pipelines.build_state import raw_digest
from pipelines.ingest.cache import ingest_folder
from tests.builds import build
from tests.support import PARAMETERS, snapshot

C1 = "2023-2024/C1.csv"


def _rewrite_in_place(path: Path, old: bytes, new: bytes) -> None:
    """Replace `old` by `new` (the same length) in the file, writing into it (same inode),
    then give it back its modification time."""
    assert len(old) == len(new)
    info = os.stat(path)
    data = path.read_bytes()
    assert data.count(old) == 1
    with open(path, "r+b") as handle:
        handle.write(data.replace(old, new))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (
        info.st_size,
        info.st_mtime_ns,
        info.st_ino,
    )


def _swap_first_two(path: Path) -> None:
    """Ranks 1 and 2 of C1 exchanged: the same size, date and inode, another result."""
    _rewrite_in_place(path, b"Dupont,Jean,1,", b"Dupont,Jean,2,")
    _rewrite_in_place(path, "Martin,Hélène,2,".encode(), "Martin,Hélène,1,".encode())


def test_the_ingest_cache_reads_again_a_same_size_same_date_rewrite(
    raw: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    first = ingest_folder(raw, params=PARAMETERS, cache_dir=cache)
    digest = raw_digest(raw)
    _swap_first_two(raw / C1)
    assert raw_digest(raw) != digest  # the fast path sees it too
    again = ingest_folder(raw, params=PARAMETERS, cache_dir=cache)
    fresh = ingest_folder(raw, params=PARAMETERS)
    ranks = dict(
        again.tables["results"].filter(tournament_id="C1").select("player_id", "rank").rows()
    )
    assert ranks["100"] == 2 and ranks["101"] == 1
    assert ranks != dict(
        first.tables["results"].filter(tournament_id="C1").select("player_id", "rank").rows()
    )
    for name, frame in fresh.tables.items():
        assert again.tables[name].equals(frame), name
    assert again.log.equals(fresh.log)


@pytest.mark.slow
def test_a_same_size_same_date_rewrite_builds_as_a_fresh_build(raw: Path, tmp_path: Path) -> None:
    build(raw, tmp_path / "incremental")
    _swap_first_two(raw / C1)
    lines: list[str] = []
    build(raw, tmp_path / "incremental", lines)
    assert not any(line.startswith("Rien n'a changé") for line in lines)
    build(raw, tmp_path / "fresh")
    assert snapshot(tmp_path / "incremental") == snapshot(tmp_path / "fresh")


@pytest.mark.slow
def test_a_full_build_ignores_every_cache(raw: Path, raw_site: Path, tmp_path: Path) -> None:
    build(raw, tmp_path / "out")
    # the ingest cache tampered with: a build trusting it would load a rank no file holds
    cached = tmp_path / "out" / "w.duckdb.cache" / "ingest" / "results.parquet"
    frame = pl.read_parquet(cached)
    frame.with_columns(rank=pl.col("rank") * 10).write_parquet(cached)
    lines: list[str] = []
    summary = build(raw, tmp_path / "out", lines, full=True)
    assert not any(line.startswith("Rien n'a changé") for line in lines)
    assert summary.seasons_built == ["2023-2024"]  # every season, stale or not
    assert summary.years_built == ["2024"]
    # a fresh build of the same exports (write_raw, unchanged), made once a run
    assert snapshot(tmp_path / "out") == snapshot(raw_site / "out")
