"""Rebuilds do only what changed: a build with nothing changed runs no job, a new
tournament renders again only the pages of its players, and either way the result is
what a fresh build of the same folder gives."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import pipelines.build as build
from pipelines.build_state import STATE_FILE, load_state
from pipelines.reports.html import player_filename
from pipelines.reports.player_pages import DIGESTS_FILE
from pipelines.resources import default_cache
from tests.builds import build as _build  # `build`: the module, patched below
from tests.support import results_csv, tree_hashes

pytestmark = pytest.mark.slow


def _no_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a build with nothing changed ran its jobs")

    monkeypatch.setattr(build, "_materialise", refuse)


def test_a_build_with_nothing_changed_runs_no_job(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _build(raw, tmp_path)
    warehouse = (tmp_path / "w.duckdb").read_bytes()
    pages = tree_hashes(tmp_path / "reports")
    state = load_state(default_cache(tmp_path / "w.duckdb"))
    assert state is not None and state.summary["ingested"] == first.ingested

    _no_jobs(monkeypatch)
    lines: list[str] = []
    second = _build(raw, tmp_path, lines)
    assert any(line.startswith("Rien n'a changé depuis la dernière construction") for line in lines)
    assert (second.ingested, second.rejected, second.row_counts) == (
        first.ingested,
        first.rejected,
        first.row_counts,
    )
    assert second.seasons_built == [] and second.years_built == []
    assert (tmp_path / "w.duckdb").read_bytes() == warehouse
    assert tree_hashes(tmp_path / "reports") == pages


@pytest.mark.parametrize("change", ["edit", "touch", "add", "remove", "report", "warehouse"])
def test_any_change_is_built(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """An export edited, re-saved, added or removed, a season's report deleted or the
    warehouse replaced: the next build runs."""
    _build(raw, tmp_path)
    export = raw / "2023-2024" / "D1.csv"
    if change == "edit":
        export.write_bytes(export.read_bytes().replace(b";912;", b";913;"))
    elif change == "touch":  # same bytes, saved again: read again (and found unchanged)
        info = export.stat()
        os.utime(export, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
    elif change == "add":
        (raw / "2023-2024" / "C2.csv").write_text(
            results_csv("C2", [("100", "Dupont", "Jean", 1), ("101", "Martin", "Hélène", 2)]),
            encoding="utf-8",
        )
    elif change == "remove":
        export.unlink()
    elif change == "report":
        shutil.rmtree(tmp_path / "reports" / "2023-2024")
    else:
        shutil.copy2(tmp_path / "w.duckdb", tmp_path / "copy.duckdb")
        os.replace(tmp_path / "copy.duckdb", tmp_path / "w.duckdb")
    ran: list[bool] = []
    real = build._materialise

    def spy(*args: object, **kwargs: object) -> object:
        ran.append(True)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build, "_materialise", spy)
    lines: list[str] = []
    _build(raw, tmp_path, lines)
    assert ran == [True]
    assert not any(line.startswith("Rien n'a changé") for line in lines)
    assert (tmp_path / "reports" / "2023-2024" / "index.html").exists()


def test_a_failed_build_forgets_the_state(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _build(raw, tmp_path)
    (raw / "2023-2024" / "D1.csv").write_bytes(b"")  # a change, rejected

    def fail(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("disque plein")

    monkeypatch.setattr(build, "_materialise", fail)
    with pytest.raises(RuntimeError, match="disque plein"):
        _build(raw, tmp_path)
    assert not (default_cache(tmp_path / "w.duckdb") / STATE_FILE).exists()


def test_a_new_tournament_renders_only_its_players_pages(raw: Path, tmp_path: Path) -> None:
    _build(raw, tmp_path)
    folder = tmp_path / "reports" / "joueurs"
    assert (folder / DIGESTS_FILE).exists()
    before = {p.name: p.stat().st_ino for p in folder.glob("*.html")}
    # a classique tournament between players 100 and 101 only
    (raw / "2023-2024" / "C2.csv").write_text(
        results_csv(
            "C2",
            [("100", "Dupont", "Jean", 1), ("101", "Martin", "Hélène", 2)],
            date="2024-03-10",
            games=1,
        ),
        encoding="utf-8",
    )
    (raw / "2023-2024" / "C2_games.csv").write_text(
        "tournament_id,round,player_id,opponent_id,player_score,opponent_score\n"
        "C2,1,100,101,400,350\n",
        encoding="utf-8",
    )
    _build(raw, tmp_path)
    after = {p.name: p.stat().st_ino for p in folder.glob("*.html")}
    assert after.keys() == before.keys()
    rendered = {name for name in after if after[name] != before[name]}
    assert rendered == {player_filename("100"), player_filename("101")}

    fresh = tmp_path / "fresh"
    _build(raw, fresh)
    assert tree_hashes(folder) == tree_hashes(fresh / "reports" / "joueurs")


def test_a_deleted_player_page_is_written_again(raw: Path, tmp_path: Path) -> None:
    _build(raw, tmp_path)
    page = tmp_path / "reports" / "joueurs" / player_filename("102")
    content = page.read_bytes()
    page.unlink()
    _build(raw, tmp_path)
    assert page.read_bytes() == content
