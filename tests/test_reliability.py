"""Nothing lost, nothing corrupted: one writer at a time, no file stops the build, an
incremental build equals a fresh one, bad values never pass silently."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from pipelines.locks import WarehouseLocked, exclusive
from pipelines.paths import PROJECT_ROOT
from pipelines.reports.html import player_filename
from pipelines.reports.pdf import CHROMIUMS, ChromiumMissingError, chromium_path
from pipelines.warehouse import Warehouse
from tests.broken_exports import BROKEN, bytes_of
from tests.builds import build
from tests.support import FIXTURES, PLAYERS, ingested, results_csv, snapshot


@pytest.mark.parametrize(("name", "made", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_file_is_rejected_by_name_and_the_others_load(
    raw: Path, name: str, made: bytes | Callable[[], bytes], message: str
) -> None:
    folder = raw / "2023-2024"
    if name.endswith(".t"):
        folder = raw / "2023-2024" / "lyon"
        folder.mkdir()
        (folder / "config.tsh").write_bytes(
            (FIXTURES / "tsh/open-lyon-2024/config.tsh").read_bytes()
        )
    (folder / name).write_bytes(bytes_of(made))
    result = ingested(raw, refused=True)
    key = (folder / name).relative_to(raw).as_posix()
    assert set(result.rejected) == {key}
    assert result.rejected[key].startswith(key + message), result.rejected[key]
    tournaments = set(result.tables["tournaments"]["tournament_id"].to_list())
    assert {"C1", "D1"} <= tournaments  # the good files loaded


def test_links_out_of_the_raw_folder_and_names_that_are_not_utf8(raw: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.csv"
    outside.write_text(results_csv("S1", PLAYERS), encoding="utf-8")
    (raw / "2023-2024" / "link.csv").symlink_to(outside)
    (raw / "2023-2024" / "dangling.csv").symlink_to(tmp_path / "nowhere.csv")
    inside = raw / "2023-2024" / "C1.csv"
    (raw / "2023-2024" / "alias.csv").symlink_to(inside)  # a link inside: followed, C1 twice
    bad_name = os.fsencode(raw / "2023-2024") + b"/r\xe9sultats.csv"
    with open(bad_name, "wb") as handle:
        handle.write(results_csv("C9", PLAYERS).encode())
    result = ingested(raw, refused=True)
    assert result.rejected["2023-2024/link.csv"].startswith(
        "2023-2024/link.csv : ce lien mène hors du dossier des exports"
    )
    assert "2023-2024/dangling.csv" in result.rejected
    assert result.rejected["2023-2024/r\\xe9sultats.csv"].startswith(
        "2023-2024/r\\xe9sultats.csv : le nom du fichier n'est pas écrit en UTF-8"
    )
    assert "secret" not in str(result.tables)  # never read
    assert "2023-2024/alias.csv" in result.rejected  # C1 already has its results in C1.csv


def test_an_unforeseen_failure_in_a_parser_rejects_that_file_only(
    raw: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipelines.ingest.formats import aupair

    def explode(data: bytes, name: str) -> dict:
        raise RuntimeError("index out of range")

    (raw / "2023-2024" / "event.tou").write_bytes(
        (FIXTURES / "wespa/2006/NZL/TT2006.tou").read_bytes()
    )
    monkeypatch.setattr(aupair, "parse", explode)
    result = ingested(raw, refused=True)
    assert result.rejected == {
        "2023-2024/event.tou": "2023-2024/event.tou : le fichier n'a pas pu être lu (index out "
        "of range) : vérifiez qu'il s'agit bien d'un export de tournoi, enregistré de nouveau "
        "depuis le logiciel ou le tableur"
    }


def test_player_page_names_are_one_to_one_and_bounded() -> None:
    ids = ["a/b", "a_2f_b", "a_b", "a b", ".x", "_2e_x", "x" * 500, "x" * 499 + "y", "é"]
    names = [player_filename(i) for i in ids]
    assert len(set(names)) == len(names)
    assert all(len(n) <= 125 and "/" not in n and not n.startswith(".") for n in names)
    assert player_filename("100123") == "100123.html"


def test_a_bad_chromium_path_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLASSEMENT_CHROMIUM", "/nowhere/chromium")
    with pytest.raises(ChromiumMissingError, match="CLASSEMENT_CHROMIUM=/nowhere/chromium"):
        chromium_path()


def test_the_headless_shell_is_preferred_to_the_browser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLASSEMENT_CHROMIUM", raising=False)
    browser_only, both = tmp_path / "browser", tmp_path / "both"
    for folder, names in ((browser_only, ["chromium"]), (both, CHROMIUMS)):
        folder.mkdir()
        for name in names:
            (folder / name).write_text("#!/bin/sh\n")
            (folder / name).chmod(0o755)
    assert chromium_path(str(browser_only)) == str(browser_only / "chromium")
    assert chromium_path(str(both)) == str(both / "chromium-headless-shell")
    with pytest.raises(ChromiumMissingError, match="Chromium introuvable"):
        chromium_path(str(tmp_path / "nowhere"))


def test_the_lock_refuses_a_second_writer(tmp_path: Path) -> None:
    warehouse = tmp_path / "w.duckdb"
    held = exclusive(warehouse)
    with held, pytest.raises(WarehouseLocked, match=f"pid {os.getpid()}"), exclusive(warehouse):
        pass
    with exclusive(warehouse):  # released
        pass


@pytest.mark.slow
def test_without_chromium_the_warehouse_and_pages_are_built(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLASSEMENT_CHROMIUM", "/bin/false")
    summary = build(raw, tmp_path, pdf=True)
    assert summary.exit_status == 3 and summary.pdf_error
    assert (tmp_path / "reports" / "2023-2024" / "index.html").exists()
    assert Warehouse(tmp_path / "w.duckdb").table("series_classification").height > 0


@pytest.mark.slow
def test_a_failed_write_leaves_nothing_behind_and_says_why(
    raw: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(self: Warehouse, name: str, frame: pl.DataFrame, column: str, value: object):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Warehouse, "replace_partition", full)
    with pytest.raises(OSError, match="No space left on device"):
        build(raw, tmp_path, pdf=True)
    # No warehouse, no staging file; only the lock and each file's cached reading.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["raw", "w.duckdb.cache", "w.duckdb.lock"]


def _cli_build(raw: Path, out: Path, log: Path) -> subprocess.Popen[bytes]:
    """`classement build` started; its output goes to `log` (a pipe nobody reads while the
    test waits would stop the build once full)."""
    command = [sys.executable, "-m", "classement", "build", "--raw", str(raw)]
    command += ["--warehouse", str(out / "w.duckdb"), "--reports", str(out / "reports")]
    with log.open("wb") as sink:
        return subprocess.Popen(
            [*command, "--no-pdf"], cwd=PROJECT_ROOT, stdout=sink, stderr=subprocess.STDOUT
        )


@pytest.mark.slow
def test_two_builds_at_once_never_corrupt_the_warehouse(
    raw: Path, raw_site: Path, tmp_path: Path
) -> None:
    """The second of two simultaneous builds exits at once (status 4, nothing touched) or,
    once the first is done, builds on its result; either way the warehouse and the reports
    equal a clean build's."""
    expected = snapshot(raw_site / "out")  # a clean build of the same exports (write_raw)
    for offset in (0.0, 0.8, 2.5):
        out = tmp_path / f"at-{offset}"
        logs = (tmp_path / f"first-{offset}.log", tmp_path / f"second-{offset}.log")
        first = _cli_build(raw, out, logs[0])
        time.sleep(offset)
        second = _cli_build(raw, out, logs[1])
        status = (first.wait(timeout=300), second.wait(timeout=300))
        said = [log.read_text(encoding="utf-8", errors="replace") for log in logs]
        assert status in {(0, 4), (0, 0), (4, 0)}, (offset, status, said)
        if 4 in status:
            assert "Construction refusée : l'entrepôt" in said[status.index(4)]
        assert snapshot(out) == expected, offset


@pytest.mark.slow
def test_removed_and_redated_exports_leave_nothing_behind(raw: Path, tmp_path: Path) -> None:
    """A season whose exports are gone (all of them, or re-dated into another season) loses
    its rows, its report and its links, as a fresh build of the same folder has none."""
    out = tmp_path / "out"
    build(raw, out)
    assert (out / "reports" / "2023-2024" / "index.html").exists()
    moved = results_csv("C1", PLAYERS, date="2024-10-06")  # into 2024-2025
    (raw / "2023-2024" / "C1.csv").write_text(moved, encoding="utf-8")
    (raw / "2023-2024" / "D1.csv").unlink()
    build(raw, out)
    fresh = tmp_path / "fresh"
    build(raw, fresh)
    assert snapshot(out) == snapshot(fresh)
    assert not (out / "reports" / "2023-2024").exists()
    index = (out / "reports" / "index.html").read_text(encoding="utf-8")
    assert "2023-2024/index.html" not in index
    for path in list(raw.rglob("*.csv")):
        path.unlink()
    build(raw, out, allow_empty=True)  # emptied on purpose (refused otherwise: test_publish)
    warehouse = Warehouse(out / "w.duckdb")
    for name in ("series_classification", "cote_history", "season_builds"):
        assert warehouse.table(name).height == 0, name
