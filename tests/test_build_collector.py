"""A build runs with the cyclic collector's thresholds of `pipelines.build.GC_THRESHOLDS`
(its young generation collected every 50,000 allocations, not 700) and puts the process's
own back afterwards, even when it fails (the test workers and the notebooks keep theirs)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from pipelines import build


def test_a_build_runs_at_the_builds_thresholds_then_puts_them_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, ...]] = []

    def stop(*_: object) -> None:
        seen.append(gc.get_threshold())
        raise RuntimeError("arrêt du test")

    monkeypatch.setattr(build, "listing", stop)
    (tmp_path / "raw").mkdir()
    before = gc.get_threshold()
    assert before != build.GC_THRESHOLDS
    with pytest.raises(RuntimeError, match="arrêt du test"):
        build.run_build(tmp_path / "raw", tmp_path / "w.duckdb", tmp_path / "reports")
    assert seen == [build.GC_THRESHOLDS]
    assert gc.get_threshold() == before
