"""Rebuilds do only what changed: a build with nothing changed runs no job, a new
tournament renders again only the pages of its players, and either way the result is
what a fresh build of the same folder gives."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import BinaryIO

import pytest

import pipelines.build as build
import pipelines.ingest.raw as raw_module
from pipelines.build_state import STATE_FILE, load_state
from pipelines.reports.html import player_filename
from pipelines.reports.player_pages import DIGESTS_FILE, SOURCES_FILE
from pipelines.reports.player_seasons import SEASONS_DIR
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
    # every hash kept, however shortly after its file was written (`raw._SETTLED_NS`)
    monkeypatch.setattr(raw_module, "_SETTLED_NS", -(10**18))
    first = _build(raw, tmp_path)
    warehouse = (tmp_path / "w.duckdb").read_bytes()
    pages = tree_hashes(tmp_path / "reports")
    state = load_state(default_cache(tmp_path / "w.duckdb"))
    assert state is not None and state.summary["ingested"] == first.ingested

    _no_jobs(monkeypatch)
    read: list[object] = []
    hash_of = raw_module._hash_of

    def counted(handle: BinaryIO) -> str:
        read.append(handle)
        return hash_of(handle)

    monkeypatch.setattr(raw_module, "_hash_of", counted)
    lines: list[str] = []
    second = _build(raw, tmp_path, lines)
    assert read == []  # no export read: the stats are those of the last build's hashes
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


def _season_records(folder: Path) -> dict[str, dict[str, object]]:
    """The records of the season file of 2023-2024 (`player_seasons`), by licence."""
    text = (folder / SEASONS_DIR / "2023-2024.js").read_text(encoding="utf-8")
    return dict(json.loads(text[text.index("= {") + 2 : text.rindex("}") + 1]))


def test_a_new_tournament_renders_only_its_players_pages(raw: Path, tmp_path: Path) -> None:
    """A classique tournament where 101 (4th in Elo) beats 100 twice: the Elo ranks of 102
    and 103, who did not play it, move; their pages show them from the season's shared file,
    which changes, and are not rewritten: only the pages of 100 and 101 are."""
    _build(raw, tmp_path)
    folder = tmp_path / "reports" / "joueurs"
    assert (folder / DIGESTS_FILE).exists()
    before = {p.name: (p.stat().st_ino, p.read_bytes()) for p in folder.glob("*.html")}
    ranks = _season_records(folder)
    (raw / "2023-2024" / "C2.csv").write_text(
        results_csv(
            "C2",
            [("101", "Martin", "Hélène", 1), ("100", "Dupont", "Jean", 2)],
            date="2024-03-10",
            games=2,
        ),
        encoding="utf-8",
    )
    (raw / "2023-2024" / "C2_games.csv").write_text(
        "tournament_id,round,player_id,opponent_id,player_score,opponent_score\n"
        "C2,1,101,100,450,300\nC2,2,101,100,420,310\n",
        encoding="utf-8",
    )
    _build(raw, tmp_path)
    after = {p.name: (p.stat().st_ino, p.read_bytes()) for p in folder.glob("*.html")}
    assert after.keys() == before.keys()
    rendered = {name for name in after if after[name][0] != before[name][0]}
    assert rendered == {player_filename("100"), player_filename("101")}
    # no other page changed a byte, though a rank it shows moved
    assert all(after[n][1] == before[n][1] for n in after if n not in rendered)
    moved = _season_records(folder)
    assert [ranks[p]["e"] for p in ("101", "102", "103")] == ["4", "2", "3"]
    assert [moved[p]["e"] for p in ("101", "102", "103")] == ["2", "3", "4"]

    fresh = tmp_path / "fresh"
    _build(raw, fresh)
    # the pages and season files as a fresh build writes them (the digests hash the code,
    # which another edit of the tree may change between two builds)
    ours, theirs = tree_hashes(folder), tree_hashes(fresh / "reports" / "joueurs")
    # (and the pages' sources, fingerprinted in each warehouse's row order)
    kept = {DIGESTS_FILE, SOURCES_FILE}
    assert {k: v for k, v in ours.items() if k not in kept} == {
        k: v for k, v in theirs.items() if k not in kept
    }


def test_a_deleted_player_page_is_written_again(raw: Path, tmp_path: Path) -> None:
    _build(raw, tmp_path)
    page = tmp_path / "reports" / "joueurs" / player_filename("102")
    content = page.read_bytes()
    page.unlink()
    _build(raw, tmp_path)
    assert page.read_bytes() == content
