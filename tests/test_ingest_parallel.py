"""The exports read, typed and checked alone in worker processes (`pipelines.ingest.cache`,
from `PARALLEL_FILES` files): the groups of files give the rows, the records and their
order of one call of `stage_files` (the checks across files and the tables are computed
from them: the ingest is the same)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipelines.ingest import cache
from pipelines.ingest.batch import stage_files
from pipelines.ingest.raw import listing
from tests.support import PARAMETERS

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.fixture(scope="module")
def raw(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample, a file no reader accepts and a file the listing refuses added."""
    folder = tmp_path_factory.mktemp("parallel") / "raw"
    shutil.copytree(SAMPLE, folder)
    (folder / "2024-2025" / "abime.csv").write_bytes(b"Nom;Pr\xe9nom\n\x00\x01")
    (folder / "2024-2025" / "notes.docx").write_bytes(b"PK\x03\x04")
    return folder


def test_workers_stage_the_files_as_one_call_does(
    raw: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = listing(raw)
    files = cache._Files(dict(sorted(seen.exports)))
    expected = stage_files(files, seen.refused, PARAMETERS.categories)
    monkeypatch.setattr(cache, "PARALLEL_FILES", 1)
    progress: list[tuple[int, int]] = []
    staged = cache._stage(
        files, seen.refused, PARAMETERS.categories, {}, lambda d, t: progress.append((d, t))
    )
    assert list(staged.records) == list(expected.records)  # the same keys in the same order
    assert staged.records == expected.records
    assert list(staged.frames) == list(expected.frames)
    for kind, frame in expected.frames.items():
        assert staged.frames[kind].equals(frame), kind
    assert sum(r.rejected is not None for r in staged.records.values()) >= 1
    assert progress[-1] == (len(files), len(files)) and len(progress) == cache.STAGE_GROUPS


def test_workers_started_ahead_are_taken_by_the_ingest_or_stopped(
    raw: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build reading every export in parallel starts the workers first (`prestart`):
    the next parallel staging takes them (the same rows), and a build that never used them
    stops them (`discard_prestarted`)."""
    seen = listing(raw)
    files = cache._Files(dict(sorted(seen.exports)))
    expected = stage_files(files, seen.refused, PARAMETERS.categories)
    monkeypatch.setattr(cache, "PARALLEL_FILES", 1)
    cache.prestart()
    ahead = cache._PRESTARTED
    assert ahead is not None
    staged = cache._stage(files, seen.refused, PARAMETERS.categories, {}, None)
    assert cache._PRESTARTED is None  # taken, and shut down with the staging
    assert staged.records == expected.records
    for kind, frame in expected.frames.items():
        assert staged.frames[kind].equals(frame), kind
    with pytest.raises(RuntimeError):  # shut down
        ahead.submit(cache._warm)
    cache.prestart()
    unused = cache._PRESTARTED
    assert unused is not None
    cache.discard_prestarted()
    assert cache._PRESTARTED is None
    with pytest.raises(RuntimeError):
        unused.submit(cache._warm)
