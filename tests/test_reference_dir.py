"""The rule parameters' folder is one bundle that `classement check` and `classement build`
read alike (`CLASSEMENT_REFERENCE_DIR`, else `data/reference/`).

A copy of `data/reference/` adds a classique tournament category (`festival`, with its own
M_B, PJmin and PJmax) and a federation alias (`FWBS` for BEL). An export using them passes
the check and the build when `CLASSEMENT_REFERENCE_DIR` points at the copy; without it, the
check and the build refuse the festival tournament with the same message, and the build
notes the alias as an unknown federation (the check says nothing about federations: an
unknown one is a data-quality note of the build, not a refusal).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

from classement.cli import main
from pipelines.paths import REFERENCE_DIR
from pipelines.reference.bundle import ENVIRONMENT_VARIABLE, load_parameters
from pipelines.staleness import code_fingerprint
from pipelines.warehouse import Warehouse
from tests.support import PLAYERS, SEASON, results_csv
from transforms.federations import normalise_key

# The festival's parameters: none of them is a value of another category, and the PJ
# band is narrow enough for the rating list below to reach both of its ends.
BONUS_M, PJ_MIN, PJ_MAX = 180, -40, 60
FESTIVAL_ROW = f"festival,0,{BONUS_M},{PJ_MIN},{PJ_MAX}\n"
ALIAS = "FWBS"  # a made-up written form of the Belgian federation

FESTIVAL = f"{SEASON}/F1.csv"  # classique, category festival, the four PLAYERS
DUPLICATE = f"{SEASON}/D1.csv"  # duplicate, two players whose federation is written FWBS

# Starting cotes (list before the festival): the winner (100) starts lowest, so its raw PJ
# is above PJ_MAX; the last (103) starts high, so its raw PJ is below PJ_MIN.
RATING_LIST = (
    "player_id,as_of,cote,elo,elo_games,series\n"
    "100,2023-08-31,1500,1500,0,\n"
    "101,2023-08-31,1800,1500,0,\n"
    "102,2023-08-31,1600,1500,0,\n"
    "103,2023-08-31,1700,1500,0,\n"
)
DUPLICATE_CSV = (
    "tournament_id,tournament_name,discipline,end_date,player_id,last_name,first_name,rank,"
    "series,score,top_total,games,federation\n"
    f"D1,Coupe de Namur,duplicate,2024-02-11,100,Dupont,Jean,1,3,950,1000,3,{ALIAS}\n"
    f"D1,Coupe de Namur,duplicate,2024-02-11,101,Martin,Hélène,2,4,900,1000,3,{ALIAS}\n"
)


def _reference_copy(folder: Path) -> Path:
    """`data/reference/` copied to `folder`, with the festival category and the alias."""
    shutil.copytree(REFERENCE_DIR, folder)
    categories = folder / "cote_categories.csv"
    text = categories.read_text(encoding="utf-8")
    assert "festival" not in text.lower()
    categories.write_text(text.rstrip("\n") + "\n" + FESTIVAL_ROW, encoding="utf-8")
    federations = folder / "federations.csv"
    lines = federations.read_text(encoding="utf-8").splitlines(keepends=True)
    belgium = [i for i, line in enumerate(lines) if line.startswith("BEL,")]
    assert len(belgium) == 1
    assert ALIAS.lower() not in lines[belgium[0]].lower()
    lines[belgium[0]] = lines[belgium[0]].rstrip("\n") + f"|{ALIAS}\n"
    federations.write_text("".join(lines), encoding="utf-8")
    return folder


def _raw(folder: Path) -> Path:
    season = folder / SEASON
    season.mkdir(parents=True)
    (season / "F1.csv").write_text(
        results_csv("F1", PLAYERS, category="festival", games=3), encoding="utf-8"
    )
    (season / "D1.csv").write_text(DUPLICATE_CSV, encoding="utf-8")
    (folder / "liste_2023-08-31.csv").write_text(RATING_LIST, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the reference copy, the raw folder), made once for the module."""
    root = tmp_path_factory.mktemp("reference-dir")
    return _reference_copy(root / "reference"), _raw(root / "raw")


def _build(root: Path, raw: Path, reference: Path | None):
    """`run_build` of `raw` (no PDF) with `CLASSEMENT_REFERENCE_DIR` set to `reference`, or
    unset when None; returns (summary, warehouse)."""
    from pipelines.build import run_build  # Dagster: only when a test needs the build

    with pytest.MonkeyPatch.context() as mp:
        if reference is None:
            mp.delenv(ENVIRONMENT_VARIABLE, raising=False)
        else:
            mp.setenv(ENVIRONMENT_VARIABLE, str(reference))
        summary = run_build(
            raw, root / "w.duckdb", root / "reports", pdf=False, emit=lambda _: None
        )
    return summary, Warehouse(root / "w.duckdb")


@pytest.fixture(scope="module")
def default_build(world, tmp_path_factory: pytest.TempPathFactory):
    """The build under `data/reference/` (the variable unset)."""
    return _build(tmp_path_factory.mktemp("default-build"), world[1], None)


@pytest.fixture(scope="module")
def copy_build(world, tmp_path_factory: pytest.TempPathFactory):
    """The build under the copy (`CLASSEMENT_REFERENCE_DIR` set to it)."""
    return _build(tmp_path_factory.mktemp("copy-build"), world[1], world[0])


@pytest.fixture
def no_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    """`CLASSEMENT_REFERENCE_DIR` unset for the test (the project's `data/reference/`)."""
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)


def _check(
    raw: Path, args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch
) -> tuple[int, dict[str, str], str]:
    """`classement check` run in `raw`: (status, the line of each file by its name, out)."""
    monkeypatch.chdir(raw)
    capsys.readouterr()
    status = main(["check", *args])
    out = capsys.readouterr().out
    lines = {}
    for name in (FESTIVAL, DUPLICATE):
        found = [line for line in out.splitlines() if name in line]
        assert len(found) == 1, out
        lines[name] = found[0]
    return status, lines, out


# ---------------------------------------------------------------------------- the bundle


def test_the_folder_is_the_variable_s_and_changes_the_season_fingerprint(
    world, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference, _ = world
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)
    default = load_parameters()
    assert default.folder == REFERENCE_DIR.resolve()
    assert "festival" not in default.categories
    assert normalise_key(ALIAS) not in default.federations.lookup

    copy = load_parameters(reference)
    assert copy.folder == reference.resolve()
    assert "festival" in copy.categories
    assert copy.categories - default.categories == {"festival"}
    assert copy.federations.lookup[normalise_key(ALIAS)] == "BEL"
    assert copy.digest != default.digest
    assert code_fingerprint(copy) != code_fingerprint(default)

    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(reference))
    assert load_parameters() == copy
    assert code_fingerprint() == code_fingerprint(copy)


# ---------------------------------------------------------------------------- festival


def test_without_the_copy_check_and_build_refuse_the_festival_alike(
    world, default_build, no_variable, capsys, monkeypatch
) -> None:
    _, raw = world
    status, lines, out = _check(raw, [FESTIVAL, DUPLICATE], capsys, monkeypatch)
    assert status == 1, out
    summary, warehouse = default_build
    rejected = dict(summary.rejected)
    assert list(rejected) == [FESTIVAL], summary.rejected
    message = rejected[FESTIVAL]
    assert "« festival »" in message and "colonne « category »" in message
    assert lines[FESTIVAL] == f"✗ {message}"
    assert lines[DUPLICATE].startswith(f"✓ {DUPLICATE} : accepté")
    # the refused tournament is not rated, not even in part
    assert warehouse.table("cote_history").filter(pl.col("tournament_id") == "F1").height == 0
    assert "F1" not in warehouse.table("tournaments")["tournament_id"].to_list()


def test_with_the_copy_check_and_build_accept_the_festival_with_its_parameters(
    world, copy_build, capsys, monkeypatch
) -> None:
    reference, raw = world
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(reference))
    status, lines, out = _check(raw, [FESTIVAL, DUPLICATE], capsys, monkeypatch)
    assert status == 0, out
    assert lines[FESTIVAL] == f"✓ {FESTIVAL} : accepté, 4 lignes (résultats), 1 tournoi"
    assert lines[DUPLICATE].startswith(f"✓ {DUPLICATE} : accepté")

    summary, warehouse = copy_build
    assert summary.rejected == []
    history = warehouse.table("cote_history").filter(pl.col("tournament_id") == "F1")
    rows = {r["player_id"]: r for r in history.iter_rows(named=True)}
    assert sorted(rows) == ["100", "101", "102", "103"]
    # M_B: the winner's bonus is the festival's (bonus_divisors 1, 2, 5, 10)
    assert [rows[p]["bonus"] for p in ("100", "101", "102", "103")] == [
        BONUS_M,
        BONUS_M // 2,
        BONUS_M // 5,
        BONUS_M // 10,
    ]
    # PJmax and PJmin: the winner's and the last's raw PJ lie outside the festival's band
    winner, last = rows["100"], rows["103"]
    assert winner["cote_before"] == 1500 and last["cote_before"] == 1700
    assert winner["pj_raw"] > PJ_MAX and winner["pj"] == PJ_MAX
    assert last["pj_raw"] < PJ_MIN and last["pj"] == PJ_MIN


def test_check_reference_option_reads_the_copy_as_the_variable_does(
    world, no_variable, capsys, monkeypatch
) -> None:
    reference, raw = world
    monkeypatch.chdir(raw)
    capsys.readouterr()
    status = main(["check", "--reference", str(reference), FESTIVAL])
    out = capsys.readouterr().out
    assert status == 0, out
    assert f"✓ {FESTIVAL} : accepté, 4 lignes (résultats), 1 tournoi\n" in out


def test_build_reference_option_reads_the_copy_as_the_variable_does(
    world, copy_build, no_variable, tmp_path: Path, capsys
) -> None:
    reference, raw = world
    status = main(
        [
            "build",
            "--raw",
            str(raw),
            "--warehouse",
            str(tmp_path / "w.duckdb"),
            "--reports",
            str(tmp_path / "reports"),
            "--no-pdf",
            "--reference",
            str(reference),
        ]
    )
    out = capsys.readouterr()
    assert status == 0, out
    history = Warehouse(tmp_path / "w.duckdb").table("cote_history").sort("player_id")
    assert history.equals(copy_build[1].table("cote_history").sort("player_id"))


# ---------------------------------------------------------------------------- the alias


def _notes(warehouse: Warehouse) -> list[tuple[str, str, str]]:
    notes = warehouse.table("data_quality_notes")
    return [(r["season"], r["notice"], r["subject"]) for r in notes.iter_rows(named=True)]


def test_without_the_copy_the_alias_is_an_unknown_federation(default_build) -> None:
    _, warehouse = default_build
    assert _notes(warehouse) == [(SEASON, "unknown_federation", ALIAS)]
    # kept as written: no federation, so no national classification for these players
    assert warehouse.table("national_classification").height == 0
    players = warehouse.table("players").filter(pl.col("player_id").is_in(["100", "101"]))
    assert players["federation"].to_list() == [ALIAS, ALIAS]


def test_with_the_copy_the_alias_is_belgium(copy_build) -> None:
    _, warehouse = copy_build
    assert _notes(warehouse) == []
    national = warehouse.table("national_classification").sort("player_id")
    assert national.select("season", "federation", "player_id").rows() == [
        (SEASON, "BEL", "100"),
        (SEASON, "BEL", "101"),
    ]
    # what the organisers wrote is kept in the tables of what they wrote
    results = warehouse.table("results").filter(pl.col("tournament_id") == "D1")
    assert set(results["federation"].to_list()) == {ALIAS}
