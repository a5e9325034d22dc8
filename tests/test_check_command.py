"""`classement check FILE…`: the ingest's reading and checks on the given files alone, no
warehouse, French messages, exit 0 when all are accepted and 1 otherwise."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from classement.cli import main
from pipelines.ingest.batch import ingest_files
from pipelines.ingest.raw import read_raw
from tests.broken_exports import BROKEN, bytes_of
from tests.support import FIXTURES, PARAMETERS, PLAYERS, games_csv, results_csv
from tests.test_ingest import C2, GAMES_CASES, SINGLE_FILE_CASES


def _check(
    folder: Path, names: list[str], capsys: pytest.CaptureFixture[str], monkeypatch
) -> tuple[int, str]:
    monkeypatch.chdir(folder)
    status = main(["check", *names])
    return status, capsys.readouterr().out


@pytest.mark.parametrize(("name", "content", "message"), SINGLE_FILE_CASES)
def test_the_ingest_messages_of_one_bad_file(
    tmp_path: Path, name: str, content: bytes, message: str, capsys, monkeypatch
) -> None:
    (tmp_path / "2023-2024").mkdir()
    (tmp_path / "2023-2024" / name).write_bytes(content)
    status, out = _check(tmp_path, [f"2023-2024/{name}"], capsys, monkeypatch)
    assert status == 1
    assert f"✗ {message}\n" in out
    assert "1 fichier vérifié, 1 refusé" in out


@pytest.mark.parametrize(("games", "message"), GAMES_CASES)
def test_games_are_checked_against_the_results_given_with_them(
    tmp_path: Path, games, message: str, capsys, monkeypatch
) -> None:
    season = tmp_path / "2023-2024"
    season.mkdir()
    (season / "C2.csv").write_text(results_csv("C2", C2), encoding="utf-8")
    (season / "C2_games.csv").write_text(games_csv("C2", games), encoding="utf-8")
    status, out = _check(
        tmp_path, ["2023-2024/C2.csv", "2023-2024/C2_games.csv"], capsys, monkeypatch
    )
    assert status == 1
    assert f"✗ {message}\n" in out
    # the results file is refused with its games (the build rejects both), by name
    assert "2023-2024/C2.csv" in out


@pytest.mark.parametrize(("name", "made", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_the_reliability_cases(
    tmp_path: Path, name: str, made: bytes | Callable[[], bytes], message: str, capsys, monkeypatch
) -> None:
    folder = tmp_path / "2023-2024"
    folder.mkdir()
    if name.endswith(".t"):  # TSH: its config.tsh beside it is read with it
        (folder / "config.tsh").write_bytes(
            (FIXTURES / "tsh/open-lyon-2024/config.tsh").read_bytes()
        )
    (folder / name).write_bytes(bytes_of(made))
    status, out = _check(tmp_path, [f"2023-2024/{name}"], capsys, monkeypatch)
    assert status == 1
    assert f"✗ 2023-2024/{name}{message}" in out, out


def test_good_files_pass_with_what_they_hold(
    tmp_path: Path, raw: Path, capsys, monkeypatch
) -> None:
    status, out = _check(
        raw,
        ["2023-2024/C1.csv", "2023-2024/C1_games.csv", "liste_2023-08-31.csv"],
        capsys,
        monkeypatch,
    )
    assert status == 0, out
    assert "✓ 2023-2024/C1.csv : accepté, 4 lignes (résultats), 1 tournoi\n" in out
    assert "✓ 2023-2024/C1_games.csv : accepté, 4 lignes (parties)\n" in out
    assert "✓ liste_2023-08-31.csv : accepté, 2 lignes (liste de classement)\n" in out
    assert out.rstrip().endswith("3 fichiers vérifiés : tout est accepté.")


def test_a_folder_stands_for_its_exports_as_the_build_reads_them(
    raw: Path, capsys, monkeypatch
) -> None:
    (raw / "2023-2024" / "bad.csv").write_text(
        results_csv("C9", [("300", "Roy", "Ali", 1)]).replace(",1,open", ",un,open"),
        encoding="utf-8",
    )
    status, out = _check(raw.parent, ["raw"], capsys, monkeypatch)
    assert status == 1
    expected = ingest_files(read_raw(raw), params=PARAMETERS).rejected["2023-2024/bad.csv"]
    assert f"✗ raw/{expected}" in out
    assert "✓ raw/2023-2024/C1.csv : accepté" in out


def test_a_noted_file_is_accepted_with_its_note(tmp_path: Path, capsys, monkeypatch) -> None:
    rows = [(p, last, first, 1 if rank < 3 else 2) for p, last, first, rank in PLAYERS]
    (tmp_path / "C3.csv").write_text(results_csv("C3", rows), encoding="utf-8")
    status, out = _check(tmp_path, ["C3.csv"], capsys, monkeypatch)
    assert status == 0, out
    assert "✓ C3.csv : accepté" in out
    assert "  ℹ C3.csv" in out  # ranks renumbered, said so


def test_a_missing_file_is_refused(tmp_path: Path, capsys, monkeypatch) -> None:
    status, out = _check(tmp_path, ["absent.csv"], capsys, monkeypatch)
    assert status == 1
    assert "✗ absent.csv : fichier introuvable" in out
