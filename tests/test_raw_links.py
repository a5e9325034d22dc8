"""Links in the raw folder: a link that loops is refused by its name (never a failed build
nor a traceback), a season folder that is a link is read when it leads to a readable
folder and refused by its name otherwise, never skipped in silence."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from classement.cli import main
from tests.builds import build
from tests.support import snapshot, write_raw

SEASON = "2023-2024"
LOOP = "ce lien forme une boucle"


def _loops(raw: Path) -> None:
    """A link to itself, two links to each other, a folder link to its own folder."""
    os.symlink("self.csv", raw / "self.csv")
    os.symlink("b.csv", raw / "a.csv")
    os.symlink("a.csv", raw / "b.csv")
    os.symlink("..", raw / SEASON / "again")


def _check(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["check", *args])
    return status, capsys.readouterr().out


def test_links_that_loop_are_refused_by_name_in_check(
    raw: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _loops(raw)
    status, out = _check([str(raw)], capsys)
    assert status == 1
    for name in ("self.csv", "a.csv", "b.csv"):
        assert f"✗ {raw}/{name} : {LOOP}" in out
    assert f"✗ {raw}/{SEASON}/again : ce lien mène à un dossier qui contient" in out
    assert f"✓ {raw}/{SEASON}/C1.csv : accepté" in out
    assert "Traceback" not in out


@pytest.mark.slow
def test_links_that_loop_refuse_only_themselves_in_a_build(raw: Path, tmp_path: Path) -> None:
    _loops(raw)
    summary = build(raw, tmp_path / "out")
    assert summary.exit_status == 1
    refused = dict(summary.rejected)
    assert set(refused) == {"self.csv", "a.csv", "b.csv", f"{SEASON}/again"}
    assert refused["a.csv"].startswith(f"a.csv : {LOOP}")
    assert summary.ingested == 4  # the good files are built
    assert summary.row_counts["tournaments"] == 2
    quarantine = tmp_path / "out" / "w.duckdb.quarantine"
    assert LOOP in (quarantine / "self.csv.reason.txt").read_text(encoding="utf-8")


def _built(out: Path) -> object:
    """A build's tables and pages but the record of the code each partition was built
    with (other sessions may edit the code between two builds of a test)."""
    tables, pages = snapshot(out)
    code = {"season_builds", "year_builds"}
    return (
        {k: v for k, v in tables.items() if k not in code},
        {k: v for k, v in pages.items() if not k.endswith(".digests.json")},
    )


def _linked_season(root: Path) -> tuple[Path, Path]:
    """A raw folder whose season folder is a link to the real folder elsewhere, and the
    same exports as plain files in another raw folder."""
    plain = write_raw(root / "plain")
    elsewhere = root / "elsewhere"
    shutil.copytree(plain / SEASON, elsewhere / SEASON)
    linked = root / "linked"
    linked.mkdir()
    shutil.copy(plain / "liste_2023-08-31.csv", linked)
    os.symlink(elsewhere / SEASON, linked / SEASON)
    return plain, linked


def test_a_linked_season_folder_is_read_by_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, linked = _linked_season(tmp_path)
    status, out = _check([str(linked)], capsys)
    assert status == 0
    for name in ("C1.csv", "C1_games.csv", "D1.csv"):
        assert f"✓ {linked}/{SEASON}/{name} : accepté" in out
    assert "4 fichiers vérifiés : tout est accepté." in out


def test_a_season_link_that_cannot_be_read_is_refused_by_name_in_check(
    raw: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    os.symlink(tmp_path / "unmounted" / "2024-2025", raw / "2024-2025")
    os.symlink(raw / SEASON, raw / "courante")  # its files are read under their own name
    status, out = _check([str(raw)], capsys)
    assert status == 1
    assert f"✗ {raw}/2024-2025 : ce lien ne mène nulle part" in out
    assert f"✗ {raw}/courante : ce lien mène à un dossier déjà lu" in out
    assert "courante/C1.csv" not in out
    assert "tout est accepté" not in out


@pytest.mark.slow
def test_a_linked_season_folder_builds_as_the_folder_itself(tmp_path: Path) -> None:
    plain, linked = _linked_season(tmp_path)
    summary = build(linked, tmp_path / "linked-out")
    assert summary.exit_status == 0
    assert summary.ingested == 4
    build(plain, tmp_path / "plain-out")
    assert _built(tmp_path / "linked-out") == _built(tmp_path / "plain-out")
    # an export changed behind the link is seen by the next build
    season = tmp_path / "elsewhere" / SEASON
    (season / "C1.csv").unlink()
    (season / "C1_games.csv").unlink()
    (plain / SEASON / "C1.csv").unlink()
    (plain / SEASON / "C1_games.csv").unlink()
    build(linked, tmp_path / "linked-out")
    build(plain, tmp_path / "plain-out")
    assert _built(tmp_path / "linked-out") == _built(tmp_path / "plain-out")


@pytest.mark.slow
def test_a_season_link_leading_nowhere_is_refused_in_a_build(raw: Path, tmp_path: Path) -> None:
    os.symlink(tmp_path / "unmounted" / "2024-2025", raw / "2024-2025")
    summary = build(raw, tmp_path / "out")
    assert summary.exit_status == 1
    assert [path for path, _ in summary.rejected] == ["2024-2025"]
    assert summary.ingested == 4
