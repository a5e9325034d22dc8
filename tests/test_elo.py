"""docs/rules.md §2: Elo — expected score, K rules, FIDE switches, the pass, the calculator CLI."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from classement.cli import main
from pipelines.reference.classique import (
    ReferenceDataError,
    load_elo_params,
    load_elo_presets,
)
from tests.support import games_frame
from transforms.elo import (
    EloCurve,
    EloError,
    EloParams,
    KRules,
    elo_change,
    elo_history,
    expected_score,
    k_factors,
    last_elo,
)

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference"
BASE10 = EloCurve("base10", 400.0)
K = KRules(
    k_new=40,
    new_games=30,
    k_junior=40,
    junior_age=18,
    junior_below=2300,
    k_default=20,
    k_high=10,
    high_threshold=2400,
)
DEFAULT = EloParams(curve=BASE10, k=K, initial_rating=1500)
FIDE = EloParams(curve=BASE10, k=K, initial_rating=1500, cap_difference=400, round_change=True)


def e(diff: float) -> float:
    return 1 / (1 + 10 ** (-diff / 400))


# --- expected score and the [003] calculator -------------------------------------------


@pytest.mark.parametrize(
    ("diff", "expected"),
    [(0, 0.50), (50, 0.57), (100, 0.64), (200, 0.76), (300, 0.85), (400, 0.91), (500, 0.95)],
)
def test_expected_score_table(diff: float, expected: float) -> None:
    assert round(expected_score(diff, BASE10), 2) == expected


def test_expected_score_floats_and_arrays() -> None:
    assert isinstance(expected_score(0.0, BASE10), float)
    got = expected_score(np.array([-200.0, 0.0, 200.0]), BASE10)
    assert isinstance(got, np.ndarray)
    np.testing.assert_allclose(got, [e(-200), 0.5, e(200)])
    logistic = EloCurve("logistic", 250.0)
    assert expected_score(250.0, logistic) == pytest.approx(1 / (1 + np.exp(-1)))
    np.testing.assert_allclose(
        expected_score(np.array([0.0, -250.0]), logistic), [0.5, 1 / (1 + np.exp(1))]
    )


def test_calculator_example_1500_vs_1700() -> None:
    for result, change in [("win", 15.2), ("draw", 5.2), ("loss", -4.8)]:
        expected, delta = elo_change(1500, 1700, result, 20, BASE10)
        assert round(expected, 2) == 0.24
        assert round(delta, 1) == change
        assert delta == pytest.approx(20 * ({"win": 1, "draw": 0.5, "loss": 0}[result] - e(-200)))


def test_cli_elo_text(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["elo", "--rating", "1500", "--opponent", "1700", "--result", "win", "--k", "20"]
    assert main(args) == 0
    out = capsys.readouterr().out
    # the calculator's example, in French numbers (issue 27, item 4)
    assert "Classement : 1\u202f500   adversaire : 1\u202f700   écart : −200\n" in out
    assert "Score attendu : 0,24 (0,2403)\n" in out
    assert "Probabilité de gain" in out and " : 24,0 %\n" in out
    assert "variation : +15,2   nouveau classement : 1\u202f515,2\n" in out
    assert "." not in out.replace("data/reference/elo.yaml", "")
    assert main([*args[:-3], "loss", "--k", "20"]) == 0
    assert "Résultat : défaite (S = 0)   variation : −4,8" in capsys.readouterr().out
    assert main([*args[:-3], "nulle", "--k", "20"]) == 0  # the French word, as printed
    assert "Résultat : nulle (S = 0,5)   variation : +5,2" in capsys.readouterr().out


def test_cli_elo_json_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["elo", "--rating", "1500", "--opponent", "1700", "--result", "draw", "--k", "20"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["expected"] == pytest.approx(e(-200), abs=1e-15)
    assert data["delta"] == pytest.approx(20 * (0.5 - e(-200)), abs=1e-12)
    assert data["delta"] != 5.2


def test_cli_elo_logistic_default_scale(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["elo", "--rating", "1750", "--opponent", "1500", "--result", "win", "--curve"]
    assert main([*argv, "logistic", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scale"] == 250  # the wespa preset of elo.yaml
    assert data["expected"] == pytest.approx(1 / (1 + np.exp(-1)))


# --- K rules ----------------------------------------------------------------------------


def test_k_rules() -> None:
    rating = np.array([1500, 1500, 2299, 2300, 2350, 2399, 2400, 2390, 2410, 2200])
    games = np.array([29, 30, 100, 100, 100, 100, 100, 100, 5, 100])
    junior = np.array([False, False, True, True, False, False, False, False, False, True])
    reached = np.array([False, False, False, False, False, False, False, True, False, True])
    # K 10 wins over every other case once 2400 was reached: a new player rated 2410
    # (9th) and a junior below 2300 who had reached 2400 (10th) both get 10.
    assert k_factors(rating, games, junior, reached, K).tolist() == [
        40, 20, 40, 20, 20, 20, 10, 10, 10, 10
    ]  # fmt: skip


def _tournaments(*ids_dates: tuple[str, str], discipline: str = "classique") -> pl.DataFrame:
    return pl.DataFrame(
        {
            "tournament_id": [t for t, _ in ids_dates],
            "discipline": [discipline] * len(ids_dates),
            "start_date": [dt.date.fromisoformat(d) for _, d in ids_dates],
            "end_date": [dt.date.fromisoformat(d) for _, d in ids_dates],
        }
    )


def _lists(rows: list[tuple[str, str, float, int]]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "player_id": [r[0] for r in rows],
            "as_of": [dt.date.fromisoformat(r[1]) for r in rows],
            "elo": [float(r[2]) for r in rows],
            "elo_games": [r[3] for r in rows],
        }
    )


NO_RESULTS = pl.DataFrame(
    {"tournament_id": [], "player_id": [], "birth_year": []},
    schema={"tournament_id": pl.String, "player_id": pl.String, "birth_year": pl.Int64},
)


def _by(frame: pl.DataFrame) -> dict[tuple[str, str], dict]:
    return {(r["tournament_id"], r["player_id"]): r for r in frame.to_dicts()}


def test_k_stays_10_after_reaching_2400() -> None:
    tournaments = _tournaments(("T1", "2019-01-05"), ("T2", "2019-02-05"), ("T3", "2019-03-05"))
    lists = _lists([("X", "2019-01-01", 2390, 100), ("Y", "2019-01-01", 2390, 100),
                    ("Z", "2019-01-01", 2000, 100)])  # fmt: skip
    games = games_frame(
        [
            ("T1", 1, "X", "Y", 400, 300),  # X 2390 → 2400 (K 20, +10)
            ("T2", 1, "Z", "X", 420, 380),  # X loses to Z: K 10 now
            ("T3", 1, "X", "Y", 350, 350),  # X below 2400 again: K stays 10
        ]
    )
    out = _by(elo_history(tournaments, games, lists, NO_RESULTS, DEFAULT))
    assert out["T1", "X"]["k"] == 20 and out["T1", "X"]["rating_after"] == pytest.approx(2400)
    assert out["T1", "Y"]["rating_after"] == pytest.approx(2380)
    x2 = out["T2", "X"]
    assert x2["k"] == 10 and x2["delta"] == pytest.approx(10 * (0 - e(400)))
    assert out["T2", "Z"]["k"] == 20 and out["T2", "Z"]["delta"] == pytest.approx(
        20 * (1 - e(-400))
    )
    x3 = out["T3", "X"]
    assert x3["rating_before"] == pytest.approx(2400 - 10 * e(400)) and x3["rating_before"] < 2400
    assert x3["k"] == 10
    assert x3["delta"] == pytest.approx(10 * (0.5 - e(x3["rating_before"] - 2380)))
    assert out["T3", "Y"]["k"] == 20


def test_new_players_and_juniors() -> None:
    tournaments = _tournaments(("T1", "2019-01-05"), ("T2", "2019-02-05"))
    lists = _lists([("A", "2019-01-01", 1600, 25), ("B", "2019-01-01", 1600, 200),
                    ("J", "2019-01-01", 2250, 200)])  # fmt: skip
    rows = [("T1", r, "A", "B", 300, 200) for r in range(1, 7)]  # A: 25 → 31 games
    rows += [("T2", 1, "A", "B", 300, 200), ("T2", 2, "J", "N", 300, 200)]
    results = pl.DataFrame(
        {"tournament_id": ["T2", "T2"], "player_id": ["J", "N"], "birth_year": [2003, None]},
        schema={"tournament_id": pl.String, "player_id": pl.String, "birth_year": pl.Int64},
    )
    out = _by(elo_history(tournaments, games_frame(rows), lists, results, DEFAULT))
    assert out["T1", "A"]["k"] == 40 and out["T1", "A"]["games"] == 6
    assert out["T1", "B"]["k"] == 20
    assert out["T2", "A"]["k"] == 20  # 31 rated games before T2
    assert out["T2", "J"]["k"] == 40  # born 2003, 16 in 2019, rated below 2300
    n = out["T2", "N"]  # no list, no results: initial rating, first games
    assert (n["rating_before"], n["k"]) == (1500, 40)
    # All of T1 uses pre-tournament ratings: six wins at E(0) = 0.5 each.
    assert out["T1", "A"]["delta"] == pytest.approx(40 * 6 * 0.5)
    assert out["T1", "A"]["expected"] == pytest.approx(3.0)


def test_a_junior_who_reached_2400_then_fell_keeps_k_10() -> None:
    """J, born 2006 (a junior until 31 December 2024), starts at 2390 with 100 games: K 20
    (a junior, but above 2300); J beats Y and reaches 2400, then loses twice and falls
    below 2400 — still a junior in December 2024, yet K stays 10 once 2400 was reached."""
    tournaments = _tournaments(("T1", "2024-01-05"), ("T2", "2024-02-05"), ("T3", "2024-12-20"))
    lists = _lists([("J", "2024-01-01", 2390, 100), ("Y", "2024-01-01", 2390, 100),
                    ("Z", "2024-01-01", 1800, 100)])  # fmt: skip
    results = pl.DataFrame(
        {"tournament_id": ["T1"], "player_id": ["J"], "birth_year": [2006]},
        schema={"tournament_id": pl.String, "player_id": pl.String, "birth_year": pl.Int64},
    )
    games = games_frame(
        [
            ("T1", 1, "J", "Y", 400, 300),  # J 2390 → 2400 (K 20, +10)
            ("T2", 1, "Z", "J", 420, 380),  # J loses: K 10
            ("T2", 2, "Z", "J", 420, 380),
            ("T3", 1, "J", "Z", 350, 340),  # still 2024: a junior, below 2400, K still 10
        ]
    )
    out = _by(elo_history(tournaments, games, lists, results, DEFAULT))
    assert out["T1", "J"]["k"] == 20 and out["T1", "J"]["rating_after"] == pytest.approx(2400)
    assert out["T2", "J"]["k"] == 10
    assert out["T3", "J"]["rating_before"] < 2400 and out["T3", "J"]["k"] == 10


def test_2400_on_an_older_list_is_not_forgotten() -> None:
    """P is 2410 on the 2018 list and 2350 on the 2019 list: K 10 from the first tournament
    after 2019 (the 2400 stands on an earlier list). Q, 2350 on both lists, gets K 20."""
    tournaments = _tournaments(("T1", "2019-03-05"))
    lists = _lists([("P", "2018-01-01", 2410, 100), ("P", "2019-01-01", 2350, 100),
                    ("Q", "2018-01-01", 2350, 100), ("Q", "2019-01-01", 2350, 100)])  # fmt: skip
    out = _by(elo_history(tournaments, games_frame([("T1", 1, "P", "Q", 300, 310)]), lists,
                          NO_RESULTS, DEFAULT))  # fmt: skip
    assert out["T1", "P"]["rating_before"] == 2350 and out["T1", "P"]["k"] == 10
    assert out["T1", "Q"]["k"] == 20


def test_a_junior_until_31_december_of_the_year_they_turn_18() -> None:
    """Born 2006: 18 in 2024, still a junior on 20 December 2024 (K 40 below 2300), no
    longer one on 5 January 2025 (K 20)."""
    tournaments = _tournaments(("T1", "2024-12-20"), ("T2", "2025-01-05"))
    lists = _lists([("J", "2024-01-01", 2000, 100), ("O", "2024-01-01", 2000, 100)])
    results = pl.DataFrame(
        {"tournament_id": ["T1"], "player_id": ["J"], "birth_year": [2006]},
        schema={"tournament_id": pl.String, "player_id": pl.String, "birth_year": pl.Int64},
    )
    rows = [("T1", 1, "J", "O", 300, 300), ("T2", 1, "J", "O", 300, 300)]
    out = _by(elo_history(tournaments, games_frame(rows), lists, results, DEFAULT))
    assert out["T1", "J"]["k"] == 40
    assert out["T2", "J"]["k"] == 20


def test_byes_and_both_sides_forms() -> None:
    tournaments = _tournaments(("T1", "2019-01-05"))
    one_side = games_frame([("T1", 1, "A", "B", 400, 380), ("T1", 2, "C", None, 50, 0),
                       ("T1", 2, "A", "C", 300, 300)])  # fmt: skip
    both = pl.concat(
        [
            one_side,
            games_frame([("T1", 1, "B", "A", 380, 400), ("T1", 2, "C", "A", 300, 300)]),
        ]
    )
    lists = _lists([("A", "2019-01-01", 1500, 100), ("B", "2019-01-01", 1700, 100),
                    ("C", "2019-01-01", 1500, 100)])  # fmt: skip
    a = elo_history(tournaments, one_side, lists, NO_RESULTS, DEFAULT)
    b = elo_history(tournaments, both, lists, NO_RESULTS, DEFAULT)
    assert a.equals(b)
    rows = _by(a)
    assert rows["T1", "C"]["games"] == 1  # the bye does not count
    assert rows["T1", "A"]["games"] == 2 and rows["T1", "A"]["score"] == 1.5
    assert rows["T1", "A"]["delta"] == pytest.approx(20 * (1 - e(-200)) + 20 * (0.5 - 0.5))
    assert rows["T1", "B"]["delta"] == pytest.approx(-20 * (1 - e(-200)))
    assert a["delta"].sum() == pytest.approx(0)  # equal K: zero sum


def test_fide_switches() -> None:
    tournaments = _tournaments(("T1", "2019-01-05"))
    lists = _lists([("A", "2019-01-01", 1500, 100), ("B", "2019-01-01", 2100, 100),
                    ("C", "2019-01-01", 1700, 100)])  # fmt: skip
    games = games_frame([("T1", 1, "A", "B", 300, 400), ("T1", 2, "A", "C", 300, 300)])
    plain = _by(elo_history(tournaments, games, lists, NO_RESULTS, DEFAULT))
    fide = _by(elo_history(tournaments, games, lists, NO_RESULTS, FIDE))
    # Without the cap, 600 points counts as 600; with it, as 400.
    assert plain["T1", "A"]["expected"] == pytest.approx(e(-600) + e(-200))
    assert fide["T1", "A"]["expected"] == pytest.approx(e(-400) + e(-200))
    exact_a = 20 * (0.5 - e(-400) - e(-200))  # = 3.3867…
    assert fide["T1", "A"]["delta"] == 3.0 and round(exact_a) == 3
    assert fide["T1", "B"]["delta"] == 2.0  # B wins at E(400) = 0.909: 1.818 → 2
    assert fide["T1", "C"]["delta"] == -5.0  # 20 × (0.5 − 0.7597) = −5.19 → −5
    assert plain["T1", "C"]["delta"] == pytest.approx(20 * (0.5 - e(200)))


def test_fide_rounding_half_away_from_zero() -> None:
    tournaments = _tournaments(("T1", "2019-01-05"))
    lists = _lists([("A", "2019-01-01", 1500, 100), ("B", "2019-01-01", 1500, 100)])
    games = games_frame([("T1", 1, "A", "B", 300, 300)])
    # A K of 15 on a draw at E = .5 is 0: use a win instead, 15 × .5 = 7.5 → 8 and −8.
    k15 = KRules(**{**K.__dict__, "k_default": 15})
    params = EloParams(curve=BASE10, k=k15, initial_rating=1500, round_change=True)
    win = games_frame([("T1", 1, "A", "B", 400, 300)])
    out = _by(elo_history(tournaments, win, lists, NO_RESULTS, params))
    assert (out["T1", "A"]["delta"], out["T1", "B"]["delta"]) == (8.0, -8.0)
    draw = _by(elo_history(tournaments, games, lists, NO_RESULTS, params))
    assert draw["T1", "A"]["delta"] == 0


def test_missing_score_and_other_disciplines() -> None:
    tournaments = pl.concat(
        [_tournaments(("T1", "2019-01-05")), _tournaments(("M1", "2019-01-06"), discipline="dcdl")]
    )
    lists = _lists([])
    bad = games_frame([("T1", 3, "A", "B", None, 300)])
    with pytest.raises(EloError, match="T1, round 3"):
        elo_history(tournaments, bad, lists, NO_RESULTS, DEFAULT)
    other = games_frame([("M1", 1, "A", "B", 3, 2)])
    assert elo_history(tournaments, other, lists, NO_RESULTS, DEFAULT).height == 0


def test_rating_list_before_the_start_only() -> None:
    tournaments = _tournaments(("T1", "2019-01-05"))
    lists = _lists([("A", "2019-01-01", 1800, 100), ("A", "2019-01-05", 1900, 100)])
    out = _by(elo_history(tournaments, games_frame([("T1", 1, "A", "B", 1, 0)]), lists, NO_RESULTS,
                          DEFAULT))  # fmt: skip
    assert out["T1", "A"]["rating_before"] == 1800
    assert out["T1", "B"]["rating_before"] == 1500


def test_presets_in_reference() -> None:
    presets = load_elo_presets(REFERENCE)
    assert list(presets) == ["default", "fide", "wespa"]
    assert presets["default"].curve == BASE10
    assert presets["default"].cap_difference is None and not presets["default"].round_change
    assert presets["fide"].cap_difference == 400 and presets["fide"].round_change
    assert presets["wespa"].curve == EloCurve("logistic", 250.0)
    assert presets["default"].k == K and presets["default"].initial_rating == 1500
    assert load_elo_params(REFERENCE) == presets["default"]
    with pytest.raises(ReferenceDataError, match="nope"):
        load_elo_params(REFERENCE, "nope")


def test_a_later_season_starts_from_the_prior_state() -> None:
    """Rating one season after another from `last_elo` gives the numbers of one pass: the
    rating, the rated games (K 40 → 20 after 30 games) and the 2400 reached carry over."""
    tournaments = _tournaments(("T1", "2019-01-05"), ("T2", "2019-02-05"), ("T3", "2019-10-05"))
    lists = _lists([("A", "2019-01-01", 1600, 25), ("X", "2019-01-01", 2395, 100),
                    ("Y", "2019-01-01", 2390, 100)])  # fmt: skip
    rows = [("T1", r, "A", "Y", 300, 200) for r in range(1, 7)]
    rows += [("T2", 1, "X", "Y", 400, 300), ("T3", 1, "A", "X", 300, 350)]
    games = games_frame(rows)
    whole = elo_history(tournaments, games, lists, NO_RESULTS, DEFAULT)
    first = elo_history(tournaments.head(2), games, lists, NO_RESULTS, DEFAULT)
    second = elo_history(
        tournaments.tail(1), games, lists, NO_RESULTS, DEFAULT, prior=last_elo(first, DEFAULT)
    )
    assert pl.concat([first, second]).equals(whole)
    t3 = _by(whole)
    assert t3["T3", "A"]["games_before"] == 31 and t3["T3", "A"]["k"] == 20
    assert t3["T3", "X"]["k"] == 10  # reached 2400 in T2, now below it
