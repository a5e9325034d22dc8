"""Impossible values are refused by the ingest, each with its file, row, column and the bound
it breaks (issue 24, item 3; docs/exports.md « Impossible values »): a score outside 0 and
the tournament's total of tops, a negative game score, a date later than the build's
reference date, a held circuit edition without results, an edition announced after it was
held, a cote outside cote.yaml's bounds, a 0–0 match. The what-if refuses values outside
their parameter's bounds."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from classement.cli import main
from pipelines.ingest.batch import IngestResult, ingest_files
from pipelines.ingest.raw import read_raw
from pipelines.paths import PROJECT_ROOT, REFERENCE_DIR
from pipelines.whatif.settings.model import WhatIfError
from pipelines.whatif.settings.scenario import prepare
from tests.support import C1_GAMES, PARAMETERS, PLAYERS, games_csv, results_csv

AS_OF = dt.date(2026, 12, 1)  # the reference date of these tests' builds
# the end of every message of a date too late
LATER = "(date de référence : --as-of, aujourd'hui par défaut)"
CIRCUITS = PROJECT_ROOT / "docs" / "examples" / "circuits"

DUPLICATE = (
    "tournament_id,tournament_name,discipline,end_date,player_id,last_name,first_name,rank,"
    "score,top_total,games\n"
    "D7,Open de Royan,duplicate,2024-03-10,100,Dupont,Jean,1,4980,5122,3\n"
    "D7,Open de Royan,duplicate,2024-03-10,101,Martin,Hélène,2,{score},5122,3\n"
)


def _ingest(files: dict[str, str], as_of: dt.date = AS_OF) -> IngestResult:
    data = {name: text.encode("utf-8") for name, text in files.items()}
    return ingest_files(data, params=PARAMETERS, as_of=as_of)


def _circuits(tmp_path: Path, file: str, old: str | None, new: str) -> Path:
    """The circuits' example folder with one line of `file` replaced (`old`) or appended."""
    folder = tmp_path / "circuits"
    shutil.copytree(CIRCUITS, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    if old is None:
        text = text.rstrip("\n") + "\n" + new + "\n"
    else:
        assert text.count(old) == 1
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return folder


def _ingest_folder(folder: Path) -> IngestResult:
    return ingest_files(read_raw(folder), params=PARAMETERS, as_of=AS_OF)


def test_the_unchanged_examples_load() -> None:
    assert _ingest_folder(CIRCUITS).rejected == {}


def test_a_negative_results_score() -> None:
    result = _ingest({"D7.csv": DUPLICATE.format(score=-4871)})
    assert result.rejected == {
        "D7.csv": "D7.csv, ligne 3, colonne « score » : le score -4871 est hors des bornes : "
        "un score va de 0 au total des tops du tournoi (5122)"
    }


def test_a_results_score_above_the_top_total() -> None:
    result = _ingest({"D7.csv": DUPLICATE.format(score=999_999_999)})
    assert result.rejected == {
        "D7.csv": "D7.csv, ligne 3, colonne « score » : le score 999999999 dépasse le total "
        "des tops du tournoi (5122) : un score va de 0 au total des tops"
    }


def test_a_score_at_the_top_total_loads() -> None:
    assert _ingest({"D7.csv": DUPLICATE.format(score=5122)}).rejected == {}


def test_a_negative_game_score() -> None:
    games = [*C1_GAMES[:1], (1, "102", "103", -50, 399), *C1_GAMES[2:]]
    result = _ingest({"C1.csv": results_csv("C1", PLAYERS), "C1_games.csv": games_csv("C1", games)})
    assert result.rejected["C1_games.csv"] == (
        "C1_games.csv, ligne 3, colonne « player_score » : le score -50 est négatif : un "
        "score de partie vaut 0 ou plus"
    )


def test_a_tournament_ending_after_the_reference_date() -> None:
    result = _ingest({"C9.csv": results_csv("C9", PLAYERS, date="2031-01-19")})
    assert result.rejected == {
        "C9.csv": "C9.csv, ligne 2, colonne « end_date » : la date 2031-01-19 est postérieure "
        "à la date de référence de la construction (2026-12-01) : un export ne donne que des "
        f"faits passés {LATER}"
    }
    assert result.tables["tournaments"].height == 0  # no 2030-2031 season
    later = _ingest({"C9.csv": results_csv("C9", PLAYERS, date="2031-01-19")}, dt.date(2031, 1, 19))
    assert later.rejected == {}


def test_a_rating_list_of_2099() -> None:
    result = _ingest({"liste.csv": "player_id,as_of,cote\n100,2099-06-30,1800\n"})
    assert result.rejected == {
        "liste.csv": "liste.csv, ligne 2, colonne « as_of » : la date 2099-06-30 est "
        "postérieure à la date de référence de la construction (2026-12-01) : un export ne "
        f"donne que des faits passés {LATER}"
    }


def test_a_cote_below_its_bounds() -> None:
    result = _ingest(
        {"liste.csv": "player_id,as_of,cote\n100,2023-08-31,1800\n101,2023-08-31,-99999\n"}
    )
    assert result.rejected == {
        "liste.csv": "liste.csv, ligne 3, colonne « cote » : la cote -99999 est hors des "
        "bornes : une cote va de 0 à 5000 (data/reference/cote.yaml, bounds)"
    }
    assert PARAMETERS.cote_bounds.low == 0 and PARAMETERS.cote_bounds.high == 5000


def test_a_circuit_edition_held_in_2031(tmp_path: Path) -> None:
    folder = _circuits(
        tmp_path, "calendrier_PACA.csv", None, "PACA,Orange,2031,2031-04-13,2026-11-17,held,X"
    )
    assert _ingest_folder(folder).rejected["calendrier_PACA.csv"] == (
        "calendrier_PACA.csv, ligne 8, colonne « date » : la date 2031-04-13 est postérieure "
        "à la date de référence de la construction (2026-12-01) : une édition jouée (held) a "
        f"déjà eu lieu ; une édition à venir est annoncée (announced) {LATER}"
    )


def test_an_edition_announced_for_2031_loads(tmp_path: Path) -> None:
    folder = _circuits(
        tmp_path, "calendrier_PACA.csv", None, "PACA,Orange,2031,2031-04-13,2026-11-17,announced,"
    )
    assert _ingest_folder(folder).rejected == {}


def test_a_held_edition_whose_tournament_has_no_results(tmp_path: Path) -> None:
    folder = _circuits(
        tmp_path,
        "calendrier_PACA.csv",
        None,
        "PACA,Fantome,2024,2024-05-12,2023-11-19,held,L2024-FAN",
    )
    rejected = _ingest_folder(folder).rejected
    assert rejected["calendrier_PACA.csv"] == (
        "calendrier_PACA.csv, ligne 8, colonne « tournament_id » : l'édition jouée (held) "
        "2024 de Fantome du circuit PACA donne le tournoi L2024-FAN, qu'aucun fichier de "
        "résultats ne contient : envoyez ses résultats, ou écrivez l'édition annoncée "
        "(announced) ou annulée (cancelled) ; seules les éditions jouées avant le premier "
        "tournoi du circuit dans les données (2024-04-14) peuvent être sans résultats"
    )


def test_a_held_edition_whose_results_file_is_refused_keeps_its_calendar(
    tmp_path: Path,
) -> None:
    """The tournament exists (its file was sent, and refused for itself): the calendar
    loads, the other PACA tournaments with it."""
    folder = _circuits(tmp_path, "L2024-ORA_games.csv", None, "")
    (folder / "L2024-ORA.csv").write_text(
        (folder / "L2024-ORA.csv").read_text(encoding="utf-8").replace(",1,", ",un,", 1),
        encoding="utf-8",
    )
    rejected = _ingest_folder(folder).rejected
    assert "L2024-ORA.csv" in rejected
    assert "calendrier_PACA.csv" not in rejected


def test_an_edition_announced_after_its_date(tmp_path: Path) -> None:
    folder = _circuits(
        tmp_path,
        "calendrier_PACA.csv",
        "PACA,Menton,2024,2024-10-06,2024-05-02,announced,",
        "PACA,Menton,2024,2024-10-06,2024-10-20,announced,",
    )
    assert _ingest_folder(folder).rejected["calendrier_PACA.csv"] == (
        "calendrier_PACA.csv, ligne 7, colonne « announced_on » : annoncée le 2024-10-20, "
        "après la date de l'édition (2024-10-06) : une édition est annoncée au plus tard le "
        "jour où elle a lieu"
    )


def test_a_match_at_nil_all(tmp_path: Path) -> None:
    folder = _circuits(
        tmp_path,
        "L2024-MGS_matches.csv",
        "L2024-MGS,1,1,2001,2017,8,4\nL2024-MGS,1,1,2017,2001,4,8\n",
        "L2024-MGS,1,1,2001,2017,0,0\nL2024-MGS,1,1,2017,2001,0,0\n",
    )
    assert _ingest_folder(folder).rejected["L2024-MGS_matches.csv"] == (
        "L2024-MGS_matches.csv, ligne 2, colonne « player_moves » : le match de la ronde 1 "
        "entre 2001 et 2017 est à 0 coup à 0 : un match joué donne au moins un coup à l'un "
        "des deux joueurs (1 ou plus au total) ; un match non joué n'a pas de ligne (un "
        "abandon s'écrit dans withdrawn_after_round)"
    )


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (
            "series.min_divisor=-5",
            "valeur refusée pour « series.min_divisor » : « -5 » est hors des bornes : de 0 "
            "à 1000 (attendu : un nombre ; valeur actuelle : 0)",
        ),
        (
            "cote.categories.open.pj_max=1e23",
            "valeur refusée pour « cote.categories.open.pj_max » : « 1e23 » est hors des "
            "bornes : de 0 à 1000 (attendu : un nombre entier ; valeur actuelle : 300, 320)",
        ),
    ],
)
def test_the_what_if_refuses_a_value_beyond_its_bounds(
    tmp_path: Path, setting: str, message: str
) -> None:
    with pytest.raises(WhatIfError) as refused:
        prepare([setting], REFERENCE_DIR, tmp_path / "reference")
    assert str(refused.value) == message


def test_check_refuses_a_far_future_tournament_unless_told_a_later_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "C9.csv").write_text(
        results_csv("C9", PLAYERS, date="2031-01-19"), encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    today = dt.date.today().isoformat()
    assert main(["check", "C9.csv"]) == 1
    out = capsys.readouterr().out
    assert (
        "✗ C9.csv, ligne 2, colonne « end_date » : la date 2031-01-19 est postérieure à la "
        f"date de référence de la construction ({today}) : un export ne donne que des faits "
        f"passés {LATER}\n"
    ) in out
    assert main(["check", "C9.csv", "--as-of", "2031-12-31"]) == 0
    assert "✓ C9.csv : accepté, 4 lignes (résultats), 1 tournoi\n" in capsys.readouterr().out


@pytest.mark.slow
def test_a_later_reference_date_recomputes_only_what_it_may_accept(tmp_path: Path) -> None:
    """The no-change fast path survives the next day when no file was refused for a date
    (a later date refuses nothing more), and not when one was (it may now be accepted)."""
    from pipelines.build import run_build

    raw = tmp_path / "raw"
    (raw / "2023-2024").mkdir(parents=True)
    (raw / "2023-2024" / "C1.csv").write_text(results_csv("C1", PLAYERS), encoding="utf-8")
    lines: list[str] = []

    def build(day: dt.date) -> list[tuple[str, str]]:
        lines.clear()
        summary = run_build(
            raw,
            tmp_path / "w.duckdb",
            tmp_path / "reports",
            emit=lines.append,
            pdf=False,
            as_of=day,
        )
        return summary.rejected

    assert build(dt.date(2025, 1, 1)) == []
    assert build(dt.date(2025, 1, 2)) == []
    assert any(line.startswith("Rien n'a changé") for line in lines)
    (raw / "2023-2024" / "C9.csv").write_text(
        results_csv("C9", PLAYERS, date="2025-06-01"), encoding="utf-8"
    )
    assert [path for path, _ in build(dt.date(2025, 1, 3))] == ["2023-2024/C9.csv"]
    assert build(dt.date(2025, 6, 1)) == []  # the later date accepts it: recomputed
    assert not any(line.startswith("Rien n'a changé") for line in lines)
    assert build(dt.date(2025, 1, 3)) != []  # an earlier date refuses it again
