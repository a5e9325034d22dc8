"""The classique Dagster assets and checks on a small warehouse, and `classement cote explain`."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from classement.cli import main
from pipelines.defs.classique.assets import (
    cote_history,
    cote_history_adds_up,
    cote_rankings,
    elo_expected_matches_scores,
    elo_history,
    elo_ranking,
)
from pipelines.warehouse import Warehouse
from tests.builds import materialise
from tests.support import declared, games_frame

D = dt.date.fromisoformat


def _tournaments() -> pl.DataFrame:
    rows = [
        # id, name, discipline, start, end, category, games, bonus_m, pj_min, pj_max
        ("T2", "Open de Vichy", "classique", "2018-11-01", "2018-11-02", "open", 7, 100, -125, 250),
        ("T1", "Open de Nîmes", "classique", "2018-10-01", "2018-10-02", "open", 7, 100, -150, 300),
        ("D1", "Simultané", "duplicate", "2018-09-15", "2018-09-15", None, 3, None, None, None),
    ]  # fmt: skip
    return pl.DataFrame(
        {
            "tournament_id": [r[0] for r in rows],
            "tournament_name": [r[1] for r in rows],
            "discipline": [r[2] for r in rows],
            "start_date": [D(r[3]) for r in rows],
            "end_date": [D(r[4]) for r in rows],
            "season": ["2018-2019"] * 3,
            "city": [None] * 3,
            "country": ["FR"] * 3,
            "category": [r[5] for r in rows],
            "games": [r[6] for r in rows],
            "coefficient": [1.0] * 3,
            "top_total": [None] * 3,
            "bonus_m": [r[7] for r in rows],
            "pj_min": [r[8] for r in rows],
            "pj_max": [r[9] for r in rows],
            "players": [4, 4, 2],
            "source_file": ["x.csv"] * 3,
        },
        schema_overrides={
            "city": pl.String,
            "top_total": pl.Int64,
            "bonus_m": pl.Int64,
            "pj_min": pl.Int64,
            "pj_max": pl.Int64,
        },
    )


def _results() -> pl.DataFrame:
    rows = [
        ("D1", "D", 1, "4B", 1990),
        ("D1", "N", 2, "7", None),
        ("T1", "N", 1, None, None),
        ("T1", "L", 2, None, 1950),
        ("T1", "S", 3, "2", None),
        ("T1", "D", 4, None, 1990),
        ("T2", "Q", 1, None, None),
        ("T2", "L", 2, None, 1950),
        ("T2", "N", 3, None, None),
    ]
    n = len(rows)
    return pl.DataFrame(
        {
            "tournament_id": [r[0] for r in rows],
            "player_id": [r[1] for r in rows],
            "rank": [r[2] for r in rows],
            "federation": ["FFSc"] * n,
            "club": [None] * n,
            "series": [r[3] for r in rows],
            "birth_year": [r[4] for r in rows],
            "score": [None] * n,
            "wins": [None] * n,
            "spread": [None] * n,
            "duplicate_rank": [None] * n,
        },
        schema_overrides={
            "club": pl.String,
            "birth_year": pl.Int64,
            "score": pl.Int64,
            "wins": pl.Float64,
            "spread": pl.Int64,
            "duplicate_rank": pl.Int64,
        },
    )


def _games() -> pl.DataFrame:
    return games_frame(
        [
            ("T1", 1, "N", "L", 420, 380),
            ("T1", 1, "S", "D", 400, 350),
            ("T1", 2, "L", "S", 390, 390),
            ("T1", 2, "N", "D", 300, 350),
            ("T2", 1, "Q", "L", 450, 300),
            ("T2", 1, "N", None, 50, 0),
            ("T2", 2, "L", "N", 400, 390),
        ]
    )


def _rating_lists() -> pl.DataFrame:
    return pl.DataFrame(
        {
            # D: listed in series 4 with no cote, so D starts at 4's equivalence (2000).
            "player_id": ["L", "L", "Q", "D"],
            "as_of": [D("2018-09-01"), D("2018-10-15"), D("2018-10-15"), D("2018-09-01")],
            "cote": [1900, 9999, 1700, None],
            "elo": [1700.0, None, None, None],
            "elo_games": [50, None, None, None],
            "series": [None, None, None, "4"],
            "source_file": ["list.csv"] * 4,
        },
        schema_overrides={
            "cote": pl.Int64,
            "series": pl.String,
            "elo": pl.Float64,
            "elo_games": pl.Int64,
        },
    )


def _players() -> pl.DataFrame:
    ids = ["D", "L", "N", "Q", "S"]
    return pl.DataFrame(
        {
            "player_id": ids,
            "last_name": ["Durand", "Lefèvre", "Nguyen", "Quentin", "Simon"],
            "first_name": ["Denis", "Léa", "Nam", "Quitterie", "Sami"],
            "federation": ["FFSc"] * 5,
            "club": [None] * 5,
            "birth_year": [1990, 1950, None, None, None],
        },
        schema_overrides={"club": pl.String, "birth_year": pl.Int64},
    )


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("classique")
    path = tmp / "warehouse.duckdb"
    Warehouse(path).replace_tables(
        declared(
            tournaments=_tournaments(),
            results=_results(),
            games=_games(),
            rating_lists=_rating_lists(),
            players=_players(),
        )
    )
    result = materialise(
        [
            cote_history,
            elo_history,
            cote_rankings,
            elo_ranking,
            cote_history_adds_up,
            elo_expected_matches_scores,
        ],
        path,
        partition="2018-2019",
        partitions={"season": ["2018-2019"]},
    )
    assert result.success
    checks = result.get_asset_check_evaluations()
    assert len(checks) == 2 and all(c.passed for c in checks)
    return path


def test_cote_history_table(warehouse: Path) -> None:
    frame = Warehouse(warehouse).table("cote_history")
    assert frame.columns == [
        "season", "tournament_id", "player_id", "cote_before", "initial_place", "rank",
        "pe", "bonus", "pj_raw", "pj", "cote_after",
    ]  # fmt: skip
    assert frame.select("tournament_id", "player_id", "cote_before", "cote_after").rows() == [
        ("T1", "N", 1500, 1904),
        ("T1", "L", 1900, 2020),
        ("T1", "S", 2300, 2189),
        ("T1", "D", 2000, 1861),
        ("T2", "Q", 1700, 2016),
        ("T2", "L", 2020, 2033),
        ("T2", "N", 1904, 1857),
    ]


def test_elo_history_table(warehouse: Path) -> None:
    frame = Warehouse(warehouse).table("elo_history")
    rows = {(r["tournament_id"], r["player_id"]): r for r in frame.to_dicts()}
    assert len(rows) == 7
    # L starts from the list (1700, 50 games: K 20); the others at 1500 with K 40.
    n1 = rows["T1", "N"]
    e_vs_l = 1 / (1 + 10 ** ((1700 - 1500) / 400))
    assert (n1["rating_before"], n1["k"], n1["games"], n1["score"]) == (1500, 40, 2, 1.0)
    assert n1["delta"] == pytest.approx(40 * ((1 - e_vs_l) + (0 - 0.5)))
    assert rows["T1", "L"]["k"] == 20
    assert rows["T1", "L"]["delta"] == pytest.approx(
        20 * ((0 - (1 - e_vs_l)) + (0.5 - (1 - e_vs_l)))
    )
    # N's bye in T2 is not a game.
    assert rows["T2", "N"]["games"] == 1
    assert rows["T2", "L"]["rating_before"] == pytest.approx(rows["T1", "L"]["rating_after"])


def test_rankings_and_bars(warehouse: Path) -> None:
    wh = Warehouse(warehouse)
    cote = wh.table("cote_ranking")
    assert cote.select("season", "as_of", "player_id", "rank", "value", "tournaments").rows() == [
        ("2018-2019", D("2019-08-31"), "S", 1, 2189, 1),
        ("2018-2019", D("2019-08-31"), "L", 2, 2033, 2),
        ("2018-2019", D("2019-08-31"), "Q", 3, 2016, 1),
        ("2018-2019", D("2019-08-31"), "D", 4, 1861, 1),
        ("2018-2019", D("2019-08-31"), "N", 5, 1857, 2),
    ]
    # N = 5: boundaries 0.25 → 1, 0.75 → 1, 2.25 → 2: bars 2189 → 2200, 2200, 2033 → 2050.
    assert wh.table("classique_series_bars").select("season", "series", "bar").rows() == [
        ("2018-2019", "Joker", 2200),
        ("2018-2019", "A", 2200),
        ("2018-2019", "B", 2050),
    ]
    # Rounding the bars to 50 leaves Joker and A empty here: S (2189) is in B.
    assert cote["classique_series"].to_list() == ["B", "C", "C", "C", "C"]
    elo = wh.table("elo_ranking")
    assert elo.columns == [
        "season", "as_of", "player_id", "rank", "value", "classique_series", "games",
    ]  # fmt: skip
    assert sorted(elo["player_id"].to_list()) == ["D", "L", "N", "Q", "S"]
    assert elo["rank"].to_list() == [1, 2, 3, 4, 5]
    assert elo["value"].is_sorted(descending=True)
    assert dict(elo.select("player_id", "games").iter_rows())["N"] == 3


def test_cli_cote_explain(warehouse: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cote", "explain", "L", "--warehouse", str(warehouse)]) == 0
    lines = capsys.readouterr().out.splitlines()
    # the name as the reports write it, French dates and numbers (issue 27, item 4)
    assert lines[0] == "Cote de Lefèvre Léa (L) — 2 tournois"
    assert lines[1] == (
        "02/10/2018  Open de Nîmes (T1)  cote 1\u202f900  place 2/4  PE +3  B +50  PJ +67  "
        "→ 2\u202f020"
    )
    assert lines[2] == (
        "02/11/2018  Open de Vichy (T2)  cote 2\u202f020  place 2/3  PE +2  B +50  PJ −39  "
        "→ 2\u202f033"
    )
    assert main(["cote", "explain", "N", "--warehouse", str(warehouse)]) == 0
    assert "PJ +533→+300  → 1\u202f904" in capsys.readouterr().out


def test_cli_cote_explain_errors(
    warehouse: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cote", "explain", "ZZZ", "--warehouse", str(warehouse)]) == 1
    assert "joueur inconnu : ZZZ" in capsys.readouterr().err
    missing = tmp_path / "none.duckdb"
    assert main(["cote", "explain", "L", "--warehouse", str(missing)]) == 1
    assert "n'existe pas" in capsys.readouterr().err
    assert not missing.exists()
