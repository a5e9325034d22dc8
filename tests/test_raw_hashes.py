"""The raw folder's content hashes kept between builds (`pipelines.ingest.raw.stated`): a
file whose stat is the one it had when the last build hashed it is not read again; any
other file is (the change time tells a rewrite whatever its size and date say)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import pipelines.ingest.raw as raw_module
from pipelines.build_state import raw_digest
from pipelines.ingest.raw import (
    content_hash,
    listing,
    save_stated,
    stated,
    stated_reads,
    stated_stat,
)


def _folder(tmp_path: Path) -> Path:
    raw = tmp_path / "raw"
    (raw / "2023-2024").mkdir(parents=True)
    for name, score in (("D1", 912), ("D2", 845), ("C1", 700)):
        (raw / "2023-2024" / f"{name}.csv").write_text(
            f"tournament_id;licence;score\n{name};100;{score}\n", encoding="utf-8"
        )
    return raw


def _state(raw: Path, known: Path | None, keep: Path) -> tuple[str, int]:
    """The folder's digest stated as a build states it, and how many files were read."""
    with stated(raw, listing(raw), known):
        digest = raw_digest(raw)
        reads = stated_reads()
        save_stated(keep)
    return digest, reads


def test_an_untouched_file_is_not_read_again_and_a_rewritten_one_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(raw_module, "_SETTLED_NS", 50_000_000)
    raw = _folder(tmp_path)
    time.sleep(0.1)  # the files settled: their hashes are kept
    known = tmp_path / "raw_hashes.json"
    first, reads = _state(raw, known, known)
    assert reads == 3

    assert _state(raw, known, known) == (first, 0)  # nothing read

    # new bytes at the same size, the modification time set back: the change time moved
    export = raw / "2023-2024" / "D1.csv"
    info = export.stat()
    export.write_bytes(export.read_bytes().replace(b";912", b";913"))
    os.utime(export, ns=(info.st_atime_ns, info.st_mtime_ns))
    after = export.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (
        info.st_size,
        info.st_mtime_ns,
        info.st_ino,
    )
    changed, reads = _state(raw, known, known)
    assert reads == 1 and changed != first
    with stated(raw, listing(raw)):  # nothing known: every file hashed
        assert raw_digest(raw) == changed and stated_reads() == 3
        assert raw_module.stated_hash(export) == content_hash(export)


def test_a_hash_taken_just_after_a_write_is_not_kept(tmp_path: Path) -> None:
    """A file written in the last moments before it was hashed could be written again
    with the same stat: its hash is not kept, the next build reads it again."""
    raw = _folder(tmp_path)
    known = tmp_path / "raw_hashes.json"
    first, reads = _state(raw, known, known)
    assert reads == 3
    assert _state(raw, known, known) == (first, 3)


@pytest.mark.parametrize(
    "damage", ["{", '{"version": 1, "hashes": {"x": [1, 2]}}'], ids=["cut short", "another layout"]
)
def test_a_damaged_record_of_hashes_reads_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    monkeypatch.setattr(raw_module, "_SETTLED_NS", 50_000_000)
    raw = _folder(tmp_path)
    time.sleep(0.1)
    known = tmp_path / "raw_hashes.json"
    first, _ = _state(raw, known, known)
    known.write_text(damage, encoding="utf-8")
    assert _state(raw, known, tmp_path / "again.json") == (first, 3)


def test_a_build_given_the_folder_by_another_path_takes_up_the_hashes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hashes are kept by absolute path: the folder named relatively (the command
    line's `data/x`) then absolutely (Dagster's resource) reads no file again."""
    monkeypatch.setattr(raw_module, "_SETTLED_NS", 50_000_000)
    raw = _folder(tmp_path)
    time.sleep(0.1)  # the files settled: their hashes are kept
    known = tmp_path / "raw_hashes.json"
    monkeypatch.chdir(tmp_path)
    relative = Path("raw")
    first, reads = _state(relative, known, known)
    assert reads == 3
    assert _state(raw.resolve(), known, known) == (first, 0)  # nothing read
    assert _state(relative, known, known) == (first, 0)


def test_a_build_given_the_folder_through_a_link_takes_up_the_hashes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder named through a link to a folder around it (`/srv/classement` leading
    elsewhere; `classement bench`'s workloads) then by its real path (what the command
    line's `--raw` resolves to) reads no file again, either way round."""
    monkeypatch.setattr(raw_module, "_SETTLED_NS", 50_000_000)
    raw = _folder(tmp_path / "real")
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    linked = tmp_path / "link" / "raw"
    time.sleep(0.1)  # the files settled: their hashes are kept
    known = tmp_path / "raw_hashes.json"
    first, reads = _state(linked, known, known)
    assert reads == 3
    assert _state(raw.resolve(), known, known) == (first, 0)  # nothing read
    assert _state(linked, known, known) == (first, 0)


def test_the_ingest_takes_the_stat_the_build_listed(tmp_path: Path) -> None:
    """Within a build (`stated`), `raw_digest` keeps each regular file's stat from its
    listing and the ingest takes it (`stated_stat`) rather than asking each file again: the
    folder as the build found it when it started. Outside a build, or for another folder,
    the stat is asked now."""
    raw = _folder(tmp_path)
    path = raw / "2023-2024" / "D1.csv"
    key = "2023-2024/D1.csv"
    with stated(raw, listing(raw)):
        raw_digest(raw)
        listed = stated_stat(raw, key, path)
        path.write_text("tournament_id;licence;score\nD1;100;913\nD1;101;650\n", encoding="utf-8")
        assert stated_stat(raw, key, path) is listed  # as listed at the build's start
        assert stated_stat(tmp_path / "other", key, path).st_size == path.stat().st_size
    assert stated_stat(raw, key, path).st_size == path.stat().st_size != listed.st_size
