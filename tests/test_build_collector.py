"""A build runs with the cyclic collector's thresholds of `pipelines.collector.GC_THRESHOLDS`
(its young generation collected every 50,000 allocations, not 700) and puts the process's
own back afterwards, even when it fails (the test workers and the notebooks keep theirs)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from pipelines import build
from pipelines.collector import GC_THRESHOLDS


def test_a_build_runs_at_the_builds_thresholds_then_puts_them_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, ...]] = []

    def stop(*_: object) -> None:
        seen.append(gc.get_threshold())
        raise RuntimeError("arrêt du test")

    monkeypatch.setattr(build, "listing", stop)
    (tmp_path / "raw").mkdir()
    suite = gc.get_threshold()  # the suite's own (tests/conftest.py)
    gc.set_threshold(700, 10, 10)  # Python's defaults, as in a notebook
    try:
        with pytest.raises(RuntimeError, match="arrêt du test"):
            build.run_build(tmp_path / "raw", tmp_path / "w.duckdb", tmp_path / "reports")
        assert seen == [GC_THRESHOLDS]
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*suite)
