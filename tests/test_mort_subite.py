"""docs/rules.md §6: the Belgian Mort Subite challenge (source [004], the FBS regulation)."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

from pipelines.reference.files import ReferenceDataError
from pipelines.reference.mort_subite import load_mort_subite_params
from transforms.calendar import SeasonCalendar
from transforms.mort_subite.challenge import challenge, round_results, validate_challenge
from transforms.mort_subite.params import MortSubiteError, MortSubiteParams, TrophyCategory
from transforms.mort_subite.rules import (
    final_host_ranking,
    place_points,
    places_points,
    qualify,
    season_standings,
    shared_points,
)
from transforms.tables import table

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference"
EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples" / "mort_subite"
CALENDAR = SeasonCalendar(9, 1)

ART_12 = [
    70, 67, 64, 61, 58, 55, 52, 49, 46, 43, 40, 37, 34, 31, 28,
    25, 23, 21, 19, 17, 15, 13, 11, 9, 7,
]  # fmt: skip

PARAMS = MortSubiteParams(
    top_overall=10,
    top_per_series=3,
    points_by_place=tuple(ART_12),
    points_after_table=7,
    final_factor=2,
    penalised_from_warning=6,
    warning_penalty=5,
    solo_margin=5,
    dropped_rounds=1,
    trophies=(
        TrophyCategory("series 1-3", ("1", "2", "3")),
        TrophyCategory("series 4+", ("4", "5", "6", "7")),
    ),
)

PLAYERS_SCHEMA = {
    "round_id": pl.String,
    "host_tournament_id": pl.String,
    "date": pl.Date,
    "final": pl.Int64,
    "player_id": pl.String,
    "host_rank": pl.Int64,
    "series": pl.String,
    "present": pl.Int64,
}
MOVES_SCHEMA = {
    "round_id": pl.String,
    "move": pl.Int64,
    "top": pl.Int64,
    "player_id": pl.String,
    "score": pl.Int64,
    "warning": pl.Int64,
}


def players_frame(
    round_id: str,
    rows: Sequence[tuple[str, int | None, str | None, bool]],
    *,
    date: str = "2024-10-06",
    final: int = 0,
    host: str = "D2024-001",
) -> pl.DataFrame:
    """Rows are (player_id, host_rank, series, present)."""
    return pl.DataFrame(
        {
            "round_id": [round_id] * len(rows),
            "host_tournament_id": [host] * len(rows),
            "date": [pl.Series([date]).str.to_date()[0]] * len(rows),
            "final": [final] * len(rows),
            "player_id": [r[0] for r in rows],
            "host_rank": [r[1] for r in rows],
            "series": [r[2] for r in rows],
            "present": [1 if r[3] else None for r in rows],
        },
        schema=PLAYERS_SCHEMA,
    )


def moves_frame(
    round_id: str, moves: Sequence[tuple[int, dict[str, int], set[str] | None]]
) -> pl.DataFrame:
    """Moves are (top, {player: score}, players warned on the move), numbered from 1."""
    rows = []
    for number, (top, scores, warned) in enumerate(moves, start=1):
        for player, score in scores.items():
            warning = 1 if warned and player in warned else None
            rows.append((round_id, number, top, player, score, warning))
    return pl.DataFrame(rows, schema=MOVES_SCHEMA, orient="row")


def ranked(ids: list[str], *, series: str = "1") -> list[tuple[str, int, str, bool]]:
    """Everyone present, host ranks 1, 2, 3… in the order given."""
    return [(pid, rank, series, True) for rank, pid in enumerate(ids, start=1)]


def play(
    players: pl.DataFrame, moves: pl.DataFrame, params: MortSubiteParams = PARAMS
) -> dict[str, tuple[int, int | None, int | None, float, int]]:
    """(place, eliminated_at_move, score_on_move, points, shared_with) by player, every
    present player qualified with their host rank."""
    qualified = table("mort_subite_qualified").complete(
        players.select("round_id", "player_id", "host_rank", "series")
    )
    out = round_results(players, qualified, moves, params)
    assert out.columns == [
        "round_id", "player_id", "place", "eliminated_at_move", "score_on_move", "points",
        "shared_with",
    ]  # fmt: skip
    return {
        r["player_id"]: (
            r["place"],
            r["eliminated_at_move"],
            r["score_on_move"],
            r["points"],
            r["shared_with"],
        )
        for r in out.to_dicts()
    }


def ladder(n: int, *, final: int = 0) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A round of n players where the worst-ranked one goes out on each move (the first
    out is p{n}), so each player's place is their host rank."""
    ids = [f"p{i:02d}" for i in range(1, n + 1)]
    players = players_frame("R", ranked(ids), final=final)
    moves = []
    for k in range(1, n):
        alive = ids[: n - k + 1]
        moves.append((50, {pid: 50 if pid != alive[-1] else 40 for pid in alive}, None))
    return players, moves_frame("R", moves)


# --- points (art. 9, 12, 15) -----------------------------------------------------------


def test_reference_file_holds_the_rules_parameters() -> None:
    assert load_mort_subite_params(REFERENCE) == PARAMS


def test_art12_table_for_25_participants() -> None:
    assert places_points(25, PARAMS) == ART_12
    got = play(*ladder(25))
    assert [got[f"p{i:02d}"][3] for i in range(1, 26)] == ART_12
    assert got["p25"] == (25, 1, 40, 7.0, 1)  # the first out (art. 9: 7 points)
    assert got["p01"] == (1, None, None, 70.0, 1)  # the last one in: 70


def test_24_participants_first_out_scores_9() -> None:
    got = play(*ladder(24))
    assert got["p24"][:2] == (24, 1) and got["p24"][3] == 9.0
    assert [got[f"p{i:02d}"][3] for i in range(1, 25)] == ART_12[:24]


def test_27_participants_places_beyond_24_score_7() -> None:
    got = play(*ladder(27))
    # The first three out (27th, 26th, 25th) score 7; then 9, 11, … up to 70.
    assert [got[f"p{i:02d}"][3] for i in range(1, 28)] == [*ART_12, 7, 7]
    assert places_points(27, PARAMS)[23:] == [9, 7, 7, 7]


def test_final_scores_double() -> None:
    final_table = [
        140, 134, 128, 122, 116, 110, 104, 98, 92, 86, 80, 74, 68, 62, 56,
        50, 46, 42, 38, 34, 30, 26, 22, 18, 14,
    ]  # fmt: skip
    assert places_points(25, PARAMS, final=True) == final_table
    got = play(*ladder(25, final=1))
    assert [got[f"p{i:02d}"][3] for i in range(1, 26)] == final_table
    assert place_points(26, PARAMS, final=True) == 14  # "jusqu'au(x) vingt-cinquième(s)"


def test_shared_points_are_exact_means() -> None:
    assert shared_points(14, 2, PARAMS) == Fraction(59, 2)  # (31 + 28) / 2 = 29.5
    assert shared_points(15, 3, PARAMS) == Fraction(76, 3)  # (28 + 25 + 23) / 3
    assert shared_points(1, 2, PARAMS, final=True) == 137  # (140 + 134) / 2


# --- elimination move by move (art. 7, 8, 10) ------------------------------------------


def test_nobody_found_the_top_best_score_is_the_reference() -> None:
    players = players_frame("R", ranked(["a", "b", "c", "d"]))
    moves = moves_frame(
        "R",
        [
            # Top 60 missed by all: the best score played, 54, is the reference.
            (60, {"a": 54, "b": 54, "c": 50, "d": 48}, None),
            (20, {"a": 20, "b": 18}, None),
        ],
    )
    assert play(players, moves) == {
        "a": (1, None, None, 70.0, 1),
        "b": (2, 2, 18, 67.0, 1),
        "c": (3, 1, 50, 64.0, 1),
        "d": (4, 1, 48, 61.0, 1),
    }


def test_out_on_same_move_ordered_by_score_then_host_rank_then_shared() -> None:
    # 15 participants; on move 1 four go out: n12 scores 30 (best of them), n13 (host 13)
    # and n14 (host 14, tied in the host ranking with n15) score 25, n15 scores 25 too.
    # n13 is 13th by host rank; n14 and n15 are still tied: they share places 14–15.
    ids = [f"n{i:02d}" for i in range(1, 16)]
    rows = ranked(ids)
    rows[14] = ("n15", 14, "1", True)
    players = players_frame("R", rows)
    first = {pid: 40 for pid in ids[:11]} | {"n12": 30, "n13": 25, "n14": 25, "n15": 25}
    moves = [(40, first, None)]
    for k in range(1, 11):  # then one out per move, the worst-ranked first
        alive = ids[: 12 - k]
        moves.append((40, {pid: 40 if pid != alive[-1] else 39 for pid in alive}, None))
    got = play(players, moves_frame("R", moves))
    assert got["n12"] == (12, 1, 30, 37.0, 1)
    assert got["n13"] == (13, 1, 25, 34.0, 1)
    assert got["n14"] == got["n15"] == (14, 1, 25, 29.5, 2)  # (31 + 28) / 2
    assert got["n11"] == (11, 2, 39, 40.0, 1)
    assert got["n01"] == (1, None, None, 70.0, 1)


def test_three_way_share_is_exact() -> None:
    # Five players; c, d, e go out on move 1 with 30 and equal host ranks: places 3–5,
    # (64 + 61 + 58) / 3 = 61 each.
    players = players_frame(
        "R",
        [("a", 1, "1", True), ("b", 2, "1", True)] + [(p, 3, "2", True) for p in "cde"],
    )
    moves = moves_frame(
        "R",
        [
            (44, {"a": 44, "b": 44, "c": 30, "d": 30, "e": 30}, None),
            (21, {"a": 21, "b": 12}, None),
        ],
    )
    got = play(players, moves)
    assert got["c"] == got["d"] == got["e"] == (3, 1, 30, 61.0, 3)
    assert got["b"] == (2, 2, 12, 67.0, 1)


def test_two_survivors_at_the_end_both_take_the_maximum() -> None:
    players = players_frame("R", ranked(["a", "b", "c", "d", "e"]))
    moves = moves_frame(
        "R",
        [
            (70, {"a": 70, "b": 70, "c": 70, "d": 70, "e": 62}, None),
            (33, {"a": 33, "b": 33, "c": 33, "d": 24}, None),
            (27, {"a": 27, "b": 27, "c": 26}, None),
            (45, {"a": 45, "b": 45}, None),  # the last move: a and b still in
        ],
    )
    assert play(players, moves) == {
        "a": (1, None, None, 70.0, 1),
        "b": (1, None, None, 70.0, 1),
        "c": (3, 3, 26, 64.0, 1),  # the players out before them take the places after them
        "d": (4, 2, 24, 61.0, 1),
        "e": (5, 1, 62, 58.0, 1),
    }


# --- warnings (art. 11) ------------------------------------------------------------------


def _warned_round(last: tuple[int, dict[str, int], set[str] | None]) -> list:
    """Five moves where a, b, c, d all find the top, a being warned each time (5 free
    warnings), then `last`."""
    free = [(30 + k, {p: 30 + k for p in "abcd"}, {"a"}) for k in range(5)]
    return [*free, last]


def test_sixth_warning_eliminates() -> None:
    players = players_frame("R", ranked(["a", "b", "c", "d"]))
    # Move 6: everyone finds the top 40; a's 6th warning takes 5 off: 35 < 40, out.
    moves = _warned_round((40, {"a": 40, "b": 40, "c": 40, "d": 38}, {"a"}))
    moves.append((25, {"b": 25, "c": 20}, None))
    got = play(players, moves_frame("R", moves))
    assert got == {
        "b": (1, None, None, 70.0, 1),
        "c": (2, 7, 20, 67.0, 1),
        "d": (3, 6, 38, 64.0, 1),  # 38 beats a's counted 35 on move 6
        "a": (4, 6, 35, 61.0, 1),
    }


def test_sixth_warning_on_a_solo_less_than_5_above_eliminates() -> None:
    players = players_frame("R", ranked(["a", "b", "c", "d"]))
    # a's solo 50 is only 3 above b's 47: a counts 45, nobody has the top, the reference is
    # b's 47: a is out (with 45, ahead of c and d), b continues alone and wins.
    moves = _warned_round((50, {"a": 50, "b": 47, "c": 44, "d": 40}, {"a"}))
    got = play(players, moves_frame("R", moves))
    assert got == {
        "b": (1, None, None, 70.0, 1),
        "a": (2, 6, 45, 67.0, 1),
        "c": (3, 6, 44, 64.0, 1),
        "d": (4, 6, 40, 61.0, 1),
    }


def test_sixth_warning_on_a_solo_more_than_5_above_wins_the_round() -> None:
    players = players_frame("R", ranked(["a", "b", "c", "d"]))
    # a's solo top 50 is 6 above b's 44: a wins outright (70), the others are out.
    moves = _warned_round((50, {"a": 50, "b": 44, "c": 40, "d": 44}, {"a"}))
    got = play(players, moves_frame("R", moves))
    assert got == {
        "a": (1, None, None, 70.0, 1),
        "b": (2, 6, 44, 67.0, 1),  # b and d: same score, b better in the host ranking
        "d": (3, 6, 44, 64.0, 1),
        "c": (4, 6, 40, 61.0, 1),
    }


def test_solo_rule_is_its_own_margin_not_the_penalty() -> None:
    # With a 10-point penalty, a's counted 40 would be below b's 44; the solo rule (more
    # than 5 above the second-best score) still makes a the winner.
    params = replace(PARAMS, warning_penalty=10)
    players = players_frame("R", ranked(["a", "b", "c", "d"]))
    moves = _warned_round((50, {"a": 50, "b": 44, "c": 40, "d": 44}, {"a"}))
    got = play(players, moves_frame("R", moves), params)
    assert got["a"] == (1, None, None, 70.0, 1)
    assert got["b"][:3] == (2, 6, 44)


def test_sixth_warning_on_a_solo_exactly_5_above_continues() -> None:
    players = players_frame("R", ranked(["a", "b", "c", "d"]))
    # a's solo 50, b and c 45 (exactly 5 below): a, b and c continue, d (40) is out.
    moves = _warned_round((55, {"a": 50, "b": 45, "c": 45, "d": 40}, {"a"}))
    # Move 7: a's 7th warning also costs 5 (RULES decision): 40 − 5 = 35 < top 40.
    moves.append((40, {"a": 40, "b": 40, "c": 38}, {"a"}))
    got = play(players, moves_frame("R", moves))
    assert got == {
        "b": (1, None, None, 70.0, 1),
        "c": (2, 7, 38, 67.0, 1),
        "a": (3, 7, 35, 64.0, 1),
        "d": (4, 6, 40, 61.0, 1),
    }


def test_fifth_warning_costs_nothing() -> None:
    players = players_frame("R", ranked(["a", "b"]))
    moves: list[tuple[int, dict[str, int], set[str] | None]] = [
        (30 + k, {"a": 30 + k, "b": 30 + k}, {"a"}) for k in range(5)
    ]
    moves.append((20, {"a": 20, "b": 19}, None))
    got = play(players, moves_frame("R", moves))
    assert got["a"] == (1, None, None, 70.0, 1)
    assert got["b"] == (2, 6, 19, 67.0, 1)


# --- penalties on the move (FISF §3.5, §5.6, §5.8, §5.9) ----------------------------------

PENALTY_SCHEMA = {**MOVES_SCHEMA, "penalty": pl.Int64}


def penalised_moves(
    rows: Sequence[tuple[int, int, str, int, int | None, int | None]],
) -> pl.DataFrame:
    """Moves of round R as (move, top, player, score, warning, penalty) rows."""
    return pl.DataFrame([("R", *r) for r in rows], schema=PENALTY_SCHEMA, orient="row")


def test_a_wrong_position_costs_5_points_on_the_move() -> None:
    """FISF §5.6: a score that exists for the word but a wrong position costs 5 points;
    §5.9: « En compétition « Mort Subite », toute pénalité est appliquée sur le coup
    concerné, entraînant l'élimination du joueur si son score devient inférieur à celui des
    autres ». Move 1 (top 30): a finds 30 but misplaces it (30 − 5 = 25), b finds 30, c
    plays 28. b alone continues; c (28) is ahead of a (25)."""
    players = players_frame("R", ranked(["a", "b", "c"]))
    moves = penalised_moves(
        [(1, 30, "a", 30, None, 5), (1, 30, "b", 30, None, 0), (1, 30, "c", 28, None, None)]
    )
    assert play(players, moves) == {
        "b": (1, None, None, 70.0, 1),
        "c": (2, 1, 28, 67.0, 1),
        "a": (3, 1, 25, 64.0, 1),
    }


def test_a_penalty_never_makes_a_negative_score() -> None:
    """FISF §5.6: « Si cette pénalité de 5 points doit être appliquée à une solution
    rapportant au plus 4 points, le bulletin est sanctionné d'un zéro (pas de score
    négatif !) ». Move 2 (top 12): a plays 3 misplaced → 0, not −2; b plays 0; both are out
    on the move with 0 and are ordered by host rank (a 1st, b 2nd)."""
    players = players_frame("R", ranked(["a", "b", "c"]))
    moves = penalised_moves(
        [
            *[(1, 20, p, 20, None, None) for p in "abc"],
            (2, 12, "a", 3, None, 5),
            (2, 12, "b", 0, None, None),
            (2, 12, "c", 12, None, None),
        ]
    )
    assert play(players, moves) == {
        "c": (1, None, None, 70.0, 1),
        "a": (2, 2, 0, 67.0, 1),
        "b": (3, 2, 0, 64.0, 1),
    }


def test_a_disciplinary_warning_on_top_of_another_counts_twice() -> None:
    """FISF §5.8: « l'avertissement pour motif disciplinaire … peut s'ajouter à un autre
    avertissement »; art. 11: the 6th warning costs 5 points (and each later one, §6). a
    has 4 free warnings (moves 1–4); on move 5 a gets two (warning = 2): the 5th is free,
    the 6th costs 5: 40 − 5 = 35 < top 40, a is out. d, at 5 warnings after move 5 (one
    each on moves 1–5), gets two on move 6: the 6th and the 7th cost 5 each, 30 − 10 = 20:
    out behind c's 29 though d found the top."""
    players = players_frame("R", ranked(["a", "b", "c", "d"]))
    rows: list[tuple[int, int, str, int, int | None, int | None]] = []
    for move in range(1, 5):
        rows += [(move, 30, p, 30, 1 if p in "ad" else None, None) for p in "abcd"]
    rows += [
        (5, 40, "a", 40, 2, None),
        (5, 40, "b", 40, None, None),
        (5, 40, "c", 40, None, None),
        (5, 40, "d", 40, 1, None),
        (6, 30, "b", 30, None, None),
        (6, 30, "c", 29, None, None),
        (6, 30, "d", 30, 2, None),
    ]
    assert play(players, penalised_moves(rows)) == {
        "b": (1, None, None, 70.0, 1),
        "c": (2, 6, 29, 67.0, 1),
        "d": (3, 6, 20, 64.0, 1),
        "a": (4, 5, 35, 61.0, 1),
    }


def test_a_solo_is_judged_before_the_penalties() -> None:
    """FISF §3.5: « Les scores sont comparés avant application éventuelle d'une pénalité de
    5 points »; art. 11: a warned solo more than 5 above the second-best score wins the
    round. a's 6th warning (5) and a misplaced word (penalty 5) take 10 off a's solo 50:
    a counts 40, below b's 44, but the solo (50, 6 above 44) is judged on the scores played:
    a wins, the others are out on the move."""
    players = players_frame("R", ranked(["a", "b", "c", "d"]))
    rows: list[tuple[int, int, str, int, int | None, int | None]] = []
    for move in range(1, 6):
        rows += [(move, 30, p, 30, 1 if p == "a" else None, None) for p in "abcd"]
    rows += [
        (6, 50, "a", 50, 1, 5),
        (6, 50, "b", 44, None, None),
        (6, 50, "c", 40, None, None),
        (6, 50, "d", 44, None, None),
    ]
    assert play(players, penalised_moves(rows)) == {
        "a": (1, None, None, 70.0, 1),
        "b": (2, 6, 44, 67.0, 1),
        "d": (3, 6, 44, 64.0, 1),
        "c": (4, 6, 40, 61.0, 1),
    }


def test_a_penalised_solo_less_than_5_above_is_compared_after_the_penalty() -> None:
    """The same solo with the penalty only (no warning) 3 above b: not enough for art. 11,
    so the counted scores decide (FISF §5.9): a's 50 − 5 = 45 < b's 47, a is out."""
    players = players_frame("R", ranked(["a", "b", "c"]))
    moves = penalised_moves(
        [(1, 50, "a", 50, None, 5), (1, 50, "b", 47, None, None), (1, 50, "c", 40, None, None)]
    )
    assert play(players, moves) == {
        "b": (1, None, None, 70.0, 1),
        "a": (2, 1, 45, 67.0, 1),
        "c": (3, 1, 40, 64.0, 1),
    }


def test_two_warnings_and_a_penalty_on_one_move_is_an_error() -> None:
    """FISF §5.8: « Un avertissement ne se cumule pas avec une pénalité »; only the
    disciplinary one comes on top: warning = 2 with a penalty cannot happen."""
    players = players_frame("R", ranked(["a", "b"]))
    moves = penalised_moves([(1, 30, "a", 30, 2, 5), (1, 30, "b", 30, None, None)])
    assert _errors(players, moves) == [
        (
            "mort subite moves",
            "R",
            0,
            "penalty",
            "le joueur a a 2 avertissements et une pénalité au coup 1 : un avertissement ne "
            "se cumule pas avec une pénalité, seul l'avertissement disciplinaire s'y ajoute "
            "(FISF §5.8)",
        )
    ]


# --- qualification (art. 4) ---------------------------------------------------------------


def test_qualification_top_10_and_top_3_of_each_series_with_ties() -> None:
    rows = [
        ("s1", 1, "SS", True),  # super-série counts as series 1
        ("s2", 2, "1", True),
        ("s3", 3, "2", True),
        ("s4", 4, "1", True),
        ("s5", 5, "1", True),
        ("s6", 6, "2", True),
        ("s7", 7, "1", True),
        ("s8", 8, "3", True),
        ("s9", 9, "2", True),
        ("s10", 10, "1", True),
        ("s11", 10, "3", True),  # tied at the 10th place: qualified by the top 10
        ("s12", 12, "2", True),
        ("s13", 13, "Série 4 A", True),
        ("s14", 14, "3", True),  # 3rd of series 3 …
        ("s15", 14, "3", True),  # … tied with s15: both qualified
        ("s16", 16, "3", True),
        ("s17", 17, "4B", True),
        ("s18", 18, "4", True),
        ("s19", 18, "4A", True),  # tied 3rd of series 4
        ("s20", 20, "4", True),
        ("s21", 21, None, True),  # no series: counts as 7, and is the first of series 7
        ("s22", 22, "5", True),
    ]
    out = qualify(players_frame("R", rows), PARAMS)
    assert out.columns == ["round_id", "player_id", "host_rank", "series", "reason"]
    got = {r["player_id"]: (r["host_rank"], r["series"], r["reason"]) for r in out.to_dicts()}
    assert got == {
        "s1": (1, "SS", "both"),
        "s2": (2, "1", "both"),
        "s3": (3, "2", "both"),
        "s4": (4, "1", "both"),
        "s5": (5, "1", "top 10"),
        "s6": (6, "2", "both"),
        "s7": (7, "1", "top 10"),
        "s8": (8, "3", "both"),
        "s9": (9, "2", "both"),
        "s10": (10, "1", "top 10"),
        "s11": (10, "3", "both"),
        "s13": (13, "4", "top 3 of series"),
        "s14": (14, "3", "top 3 of series"),
        "s15": (14, "3", "top 3 of series"),
        "s17": (17, "4", "top 3 of series"),
        "s18": (18, "4", "top 3 of series"),
        "s19": (18, "4", "top 3 of series"),
        "s21": (21, "7", "top 3 of series"),
        "s22": (22, "5", "top 3 of series"),
    }
    assert out["player_id"].to_list()[:3] == ["s1", "s2", "s3"]  # sorted by host rank


def test_qualify_refuses_a_round_without_host_ranks() -> None:
    with pytest.raises(MortSubiteError, match="p2"):
        qualify(players_frame("R", [("p1", 1, "1", True), ("p2", None, "1", True)]), PARAMS)


# --- season classification (art. 14–16) ----------------------------------------------------


def _results(round_id: str, places: dict[str, int], *, final: bool = False) -> pl.DataFrame:
    """Results of a round where each player is alone at their place."""
    rows = [
        (round_id, pid, place, place_points(place, PARAMS, final=final), 1)
        for pid, place in places.items()
    ]
    frame = pl.DataFrame(
        rows,
        schema=["round_id", "player_id", "place", "points", "shared_with"],
        orient="row",
    ).with_columns(pl.col("points").cast(pl.Float64))
    return table("mort_subite_results").complete(frame)


def _season_players(
    rounds: dict[str, tuple[str, int, list[str]]], series: dict[str, str]
) -> pl.DataFrame:
    """Players export rows: round → (date, final, players) with their season series."""
    frames = [
        players_frame(
            rid,
            [(p, i, series[p], True) for i, p in enumerate(ids, start=1)],
            date=date,
            final=final,
        )
        for rid, (date, final, ids) in rounds.items()
    ]
    return pl.concat(frames)


def _standings(frame: pl.DataFrame) -> dict[str, tuple]:
    return {
        r["player_id"]: (
            r["rounds_played"],
            r["rounds_counted"],
            r["total"],
            r["final_points"],
            r["place"],
            r["trophy"],
            r["cup"],
        )
        for r in frame.to_dicts()
    }


SEASON_SERIES = {"A": "2", "B": "2", "C": "1", "D": "4", "E": "4"}
SEASON_ROUNDS = {
    "R1": ("2024-10-06", 0, list("ABCDE")),
    "R2": ("2025-01-19", 0, list("ABCDE")),
    "R3": ("2025-04-13", 0, list("ABCDE")),
    "F": ("2025-06-29", 1, list("ABCDE")),
}
# Places 1..5 score 70, 67, 64, 61, 58; the final doubles.
SEASON_RESULTS = pl.concat(
    [
        _results("R1", {"A": 1, "C": 2, "B": 3, "D": 4, "E": 5}),
        _results("R2", {"A": 1, "B": 2, "C": 3, "E": 4, "D": 5}),
        _results("R3", {"C": 1, "B": 2, "D": 3, "E": 4, "A": 5}),
        _results("F", {"C": 1, "B": 2, "A": 3, "D": 4, "E": 5}, final=True),
    ]
)


def test_season_drops_the_worst_round_and_the_final_breaks_a_tie() -> None:
    players = _season_players(SEASON_ROUNDS, SEASON_SERIES)
    out = season_standings(players, SEASON_RESULTS, PARAMS, CALENDAR)
    assert out.columns == [
        "season", "player_id", "series", "rounds_played", "rounds_counted", "total",
        "final_points", "place", "trophy", "cup",
    ]  # fmt: skip
    assert out["season"].unique().to_list() == ["2024-2025"]
    # x = 3 regular rounds: the 2 best count. A: 70 + 70 (58 dropped) + final 128 = 268;
    # B: 64, 67, 67 → 134 + final 134 = 268: tied, B was 2nd of the final, A 3rd.
    assert _standings(out) == {
        "C": (3, 2, 277.0, 140.0, 1, "series 1-3", "1"),  # 67 + 70 (64 dropped) + 140
        "B": (3, 2, 268.0, 134.0, 2, None, "2"),
        "A": (3, 2, 268.0, 128.0, 3, None, None),
        "D": (3, 2, 247.0, 122.0, 4, "series 4+", "4"),  # 61 + 64 (58 dropped) + 122
        "E": (3, 2, 238.0, 116.0, 5, None, None),  # 61 + 61 (58 dropped) + 116
    }
    assert out["player_id"].to_list() == ["C", "B", "A", "D", "E"]
    assert out["series"].to_list() == ["1", "2", "2", "4", "4"]


def test_final_qualification_uses_the_same_best_rounds() -> None:
    players = _season_players(SEASON_ROUNDS, SEASON_SERIES)
    regular = SEASON_RESULTS.filter(pl.col("round_id") != "F")
    ranking = final_host_ranking(players, regular, PARAMS, CALENDAR)
    # Before the final: A 140, C 137, B 134, D 125, E 122 (each one's 2 best of 3).
    assert ranking.select("round_id", "player_id", "host_rank", "series", "present").rows() == [
        ("F", "A", 1, "2", 1),
        ("F", "C", 2, "1", 1),
        ("F", "B", 3, "2", 1),
        ("F", "D", 4, "4", 1),
        ("F", "E", 5, "4", 1),
    ]
    small = replace(PARAMS, top_overall=2, top_per_series=1)
    got = qualify(ranking, small)
    assert got.select("player_id", "reason").rows() == [
        ("A", "both"),
        ("C", "both"),
        ("D", "top 1 of series"),
    ]


def test_a_non_finalist_with_the_most_points_does_not_win() -> None:
    # N wins the three regular rounds (2 count: 140) but skips the final; G (series 1, like
    # N) and H (series 4) are 8th and 9th each time (98 and 92) and finish 20th and 21st of
    # a large final (2 × 17 = 34, 2 × 15 = 30).
    series = {"N": "1", "G": "1", "H": "4"}
    rounds = {
        "R1": ("2024-10-06", 0, ["N", "G", "H"]),
        "R2": ("2025-01-19", 0, ["N", "G", "H"]),
        "R3": ("2025-04-13", 0, ["N", "G", "H"]),
        "F": ("2025-06-29", 1, ["G", "H"]),
    }
    results = pl.concat(
        [
            _results("R1", {"N": 1, "G": 8, "H": 9}),
            _results("R2", {"N": 1, "G": 8, "H": 9}),
            _results("R3", {"N": 1, "G": 8, "H": 9}),
            _results("F", {"G": 20, "H": 21}, final=True),
        ]
    )
    got = _standings(season_standings(_season_players(rounds, series), results, PARAMS, CALENDAR))
    # N keeps place 1 but wins no trophy: the trophy of series 1–3 goes to G, the best
    # finalist; the cup of series 1 goes to N, the best of the series (no final needed).
    assert got == {
        "N": (3, 2, 140.0, None, 1, None, "1"),
        "G": (3, 2, 132.0, 34.0, 2, "series 1-3", None),
        "H": (3, 2, 122.0, 30.0, 3, "series 4+", "4"),
    }


def test_finalists_lead_when_the_final_doubles_their_points() -> None:
    # The same N, against finalists who were 2nd and 3rd of the rounds and play the final.
    series = {"N": "1", "G": "1", "H": "4"}
    rounds = {
        "R1": ("2024-10-06", 0, ["N", "G", "H"]),
        "R2": ("2025-01-19", 0, ["N", "G", "H"]),
        "F": ("2025-06-29", 1, ["G", "H"]),
    }
    results = pl.concat(
        [
            _results("R1", {"N": 1, "G": 2, "H": 3}),
            _results("R2", {"N": 1, "G": 2, "H": 3}),
            _results("F", {"H": 1, "G": 2}, final=True),
        ]
    )
    got = _standings(season_standings(_season_players(rounds, series), results, PARAMS, CALENDAR))
    # x = 2: one round counts. H: 64 + 140 = 204; G: 67 + 134 = 201; N: 70.
    assert got == {
        "H": (2, 1, 204.0, 140.0, 1, "series 4+", "4"),
        "G": (2, 1, 201.0, 134.0, 2, "series 1-3", "1"),
        "N": (2, 1, 70.0, None, 3, None, None),
    }


def test_ties_by_rounds_counted_then_wins() -> None:
    # No final yet; x = 3 regular rounds, 2 count. A (2 rounds: 70 + 64) and B (3 rounds:
    # 67, 67, 61 → 134) have rounds counted 2 each (capped at x − 1): A's win decides.
    # C (one round, 61) and D (two rounds, 40 + 21 = 61): D counted more rounds.
    series = dict.fromkeys("ABCD", "1")
    rounds = {
        "R1": ("2024-10-06", 0, ["A", "B", "C", "D"]),
        "R2": ("2025-01-19", 0, ["A", "B", "D"]),
        "R3": ("2025-04-13", 0, ["B"]),
    }
    results = pl.concat(
        [
            _results("R1", {"A": 1, "B": 2, "C": 4, "D": 11}),
            _results("R2", {"A": 3, "B": 2, "D": 18}),
            _results("R3", {"B": 4}),
        ]
    )
    got = _standings(season_standings(_season_players(rounds, series), results, PARAMS, CALENDAR))
    assert got == {
        "A": (2, 2, 134.0, None, 1, None, "1"),
        "B": (3, 2, 134.0, None, 2, None, None),
        "D": (2, 2, 61.0, None, 3, None, None),
        "C": (1, 1, 61.0, None, 4, None, None),
    }


def test_season_sums_are_exact() -> None:
    # X shares places 14–20 of a round (164/7) and of the final (328/7): 492/7 exactly,
    # where adding the two floats gives 70.28571428571428.
    players = _season_players(
        {"R1": ("2024-10-06", 0, ["X", "Y"]), "F": ("2025-06-29", 1, ["X", "Y"])},
        {"X": "1", "Y": "1"},
    )
    shared = pl.DataFrame(
        {
            "round_id": ["R1", "F", "R1", "F"],
            "player_id": ["X", "X", "Y", "Y"],
            "place": [14, 14, 1, 1],
            "points": [164 / 7, 328 / 7, 70.0, 140.0],
            "shared_with": [7, 7, 1, 1],
        }
    )
    out = season_standings(players, table("mort_subite_results").complete(shared), PARAMS, CALENDAR)
    x = out.filter(pl.col("player_id") == "X").row(0, named=True)
    assert x["total"] == float(Fraction(492, 7)) != 164 / 7 + 328 / 7


# --- the whole season, from the exports ----------------------------------------------------


def test_challenge_from_the_exports() -> None:
    # Two regular rounds of three, then the final: qualification of the final on the best
    # 1 of 2 regular rounds, its points doubled, and the standings.
    r1 = players_frame("R1", ranked(["a", "b", "c", "z"]), date="2024-11-03")
    r1 = r1.with_columns(present=pl.when(pl.col("player_id") != "z").then(pl.lit(1, pl.Int64)))
    r2 = players_frame("R2", ranked(["c", "a", "b"]), date="2025-02-09")
    final = players_frame(
        "F", [("a", None, None, True), ("b", None, None, True), ("c", None, None, True)],
        date="2025-06-29", final=1, host="D2024-090",
    )  # fmt: skip
    players = pl.concat([r1, r2, final])
    r1_moves = [(40, {"a": 40, "b": 40, "c": 36}, None), (12, {"a": 12, "b": 9}, None)]
    final_moves = [(64, {"a": 64, "b": 60, "c": 64}, None), (50, {"a": 44, "c": 50}, None)]
    moves = pl.concat(
        [
            moves_frame("R1", r1_moves),
            moves_frame("R2", [(28, {"c": 28, "a": 25, "b": 25}, None)]),
            moves_frame("F", final_moves),
        ]
    )
    assert validate_challenge(players, moves, PARAMS, CALENDAR).height == 0
    tables = challenge(players, moves, PARAMS, CALENDAR)
    # R1: a 70, b 67, c 64. R2: c 70; a and b out on move 1 with 25: a better host rank.
    # Best 1 of 2: a 70, c 70, b 67; before the final a and c tie on 70 with a win each
    # and rounds counted 1: a is 2nd in R2, c 3rd in R1 → a 1st, c 2nd, b 3rd.
    final_q = tables.qualified.filter(pl.col("round_id") == "F")
    assert final_q.select("player_id", "host_rank").rows() == [("a", 1), ("c", 2), ("b", 3)]
    assert "z" in tables.qualified.filter(pl.col("round_id") == "R1")["player_id"].to_list()
    res = {
        (r["round_id"], r["player_id"]): (r["place"], r["points"])
        for r in tables.results.to_dicts()
    }
    assert res == {
        ("R1", "a"): (1, 70.0),
        ("R1", "b"): (2, 67.0),
        ("R1", "c"): (3, 64.0),
        ("R2", "c"): (1, 70.0),
        ("R2", "a"): (2, 67.0),
        ("R2", "b"): (3, 64.0),
        ("F", "c"): (1, 140.0),
        ("F", "a"): (2, 134.0),
        ("F", "b"): (3, 128.0),
    }
    assert _standings(tables.standings) == {
        "c": (2, 1, 210.0, 140.0, 1, "series 1-3", "1"),
        "a": (2, 1, 204.0, 134.0, 2, None, None),
        "b": (2, 1, 195.0, 128.0, 3, None, None),
    }


def test_example_exports_of_the_docs() -> None:
    players = pl.read_csv(
        EXAMPLES / "players.csv",
        schema_overrides={"player_id": pl.String, "series": pl.String, "date": pl.Date},
    )
    moves = pl.read_csv(EXAMPLES / "moves.csv", schema_overrides={"player_id": pl.String})
    assert validate_challenge(players, moves, PARAMS, CALENDAR).height == 0
    tables = challenge(players, moves, PARAMS, CALENDAR)
    reasons = dict(tables.qualified.select("player_id", "reason").iter_rows())
    # Top 10 (4001–4010) plus series 3's 3rd place shared by 4012 and 4013 (host rank 12)
    # and series 4's 2nd and 3rd (4014, 4015); 4008 is the 4th of series 1.
    assert reasons == {
        "4001": "both", "4002": "both", "4003": "both", "4004": "both", "4005": "both",
        "4006": "both", "4007": "both", "4008": "top 10", "4009": "both", "4010": "both",
        "4012": "top 3 of series", "4013": "top 3 of series", "4014": "top 3 of series",
        "4015": "top 3 of series",
    }  # fmt: skip
    # 12 of the 14 are present (4004 and 4014 are not). 4007's two warnings are free.
    got = {
        r["player_id"]: (r["place"], r["eliminated_at_move"], r["score_on_move"], r["points"])
        for r in tables.results.to_dicts()
    }
    assert got == {
        "4001": (1, None, None, 70.0),
        "4007": (2, 7, 38, 67.0),
        "4002": (3, 6, 80, 64.0),
        "4008": (4, 5, 33, 61.0),
        "4006": (5, 5, 30, 58.0),  # 30 like 4010, better host rank (6 against 10)
        "4010": (6, 5, 30, 55.0),
        "4003": (7, 4, 59, 52.0),
        "4009": (8, 3, 21, 49.0),  # move 3: nobody found the top 24, the reference is 22
        "4005": (9, 3, 20, 46.0),
        "4012": (10, 2, 26, 41.5),  # same move, score and host rank: (43 + 40) / 2
        "4013": (10, 2, 26, 41.5),
        "4015": (12, 1, 72, 37.0),
    }


# --- validation ------------------------------------------------------------------------------


def _errors(players: pl.DataFrame, moves: pl.DataFrame) -> list[tuple]:
    out = validate_challenge(players, moves, PARAMS, CALENDAR)
    assert out.columns == ["export", "round_id", "row_index", "column", "message"]
    return [tuple(r.values()) for r in out.to_dicts()]


ABC = players_frame("R", [("a", 1, "1", True), ("b", 2, "1", True), ("c", 3, "1", True)])
ABC_MOVES = moves_frame(
    "R", [(30, {"a": 30, "b": 30, "c": 22}, None), (18, {"a": 18, "b": 15}, None)]
)


def test_valid_round_has_no_errors() -> None:
    assert _errors(ABC, ABC_MOVES) == []


def test_error_move_of_a_player_not_qualified() -> None:
    moves = pl.concat([ABC_MOVES, moves_frame("R", [(30, {"x": 30}, None)])])
    assert _errors(ABC, moves) == [
        (
            "mort subite moves",
            "R",
            5,
            "player_id",
            "le joueur x n'est pas qualifié pour la manche R",
        )
    ]


def test_error_move_of_a_qualified_player_not_present() -> None:
    players = ABC.with_columns(present=pl.when(pl.col("player_id") == "c").then(None).otherwise(1))
    assert _errors(players, ABC_MOVES) == [
        (
            "mort subite moves",
            "R",
            2,
            "player_id",
            "le joueur c est qualifié pour la manche R mais n'y est pas marqué présent "
            "(colonne present de l'export des joueurs)",
        )
    ]


def test_error_present_but_not_qualified() -> None:
    rows = [(f"p{i:02d}", i, "1", i <= 3) for i in range(1, 13)]
    rows[11] = ("p12", 12, "1", True)  # 12th of series 1: not qualified, marked present
    players = players_frame("R", rows)
    first = {"p01": 30, "p02": 30, "p03": 20}
    moves = moves_frame("R", [(30, first, None), (9, {"p01": 9, "p02": 8}, None)])
    assert _errors(players, moves) == [
        (
            "mort subite players",
            "R",
            11,
            "present",
            "le joueur p12 est marqué présent mais n'est pas qualifié pour la manche R",
        )
    ]


def moves_rows(rows: list[tuple[int, int, str, int]]) -> pl.DataFrame:
    """Moves of round R as (move, top, player, score) rows, no warning."""
    return pl.DataFrame(
        [("R", m, t, p, s, None) for m, t, p, s in rows], schema=MOVES_SCHEMA, orient="row"
    )


def test_error_move_after_elimination() -> None:
    moves = moves_rows(
        [
            *[(1, 30, "a", 30), (1, 30, "b", 30), (1, 30, "c", 22)],
            *[(2, 18, "a", 18), (2, 18, "b", 15), (2, 18, "c", 18)],  # c still plays move 2
        ]
    )
    assert _errors(ABC, moves) == [
        (
            "mort subite moves",
            "R",
            5,
            "move",
            "le joueur c a été éliminé au coup 1 de la manche R : il ne joue plus au coup 2",
        )
    ]


def test_error_round_with_no_moves() -> None:
    other = players_frame("S", [("a", 1, "1", True), ("b", 2, "1", True)])
    assert _errors(pl.concat([ABC, other]), ABC_MOVES) == [
        (
            "mort subite players",
            "S",
            3,
            "round_id",
            "la manche S n'a aucun coup dans l'export des coups",
        )
    ]


def test_error_player_still_in_without_a_move_row() -> None:
    moves = ABC_MOVES.filter(~((pl.col("move") == 2) & (pl.col("player_id") == "b")))
    assert _errors(ABC, moves) == [
        (
            "mort subite moves",
            "R",
            3,
            "player_id",
            "le joueur b est encore en jeu au coup 2 de la manche R mais n'a pas de ligne "
            "pour ce coup",
        )
    ]


def test_error_move_after_the_round_is_won() -> None:
    moves = pl.concat([ABC_MOVES, moves_rows([(3, 20, "a", 20)])])
    assert _errors(ABC, moves) == [
        (
            "mort subite moves",
            "R",
            5,
            "move",
            "la manche R est finie depuis le coup 2 (il ne restait que le joueur a) : pas de "
            "coup 3",
        )
    ]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            pl.when(pl.col("row_index") == 4).then(pl.lit(19)).otherwise("score").alias("score"),
            (4, "score", "le score 19 dépasse le top 18 du coup 2"),
        ),
        (
            pl.when(pl.col("row_index") == 1).then(pl.lit(31)).otherwise("top").alias("top"),
            (
                1,
                "top",
                "le top du coup 1 de la manche R vaut 30 sur sa première ligne : un coup "
                "n'a qu'un top",
            ),
        ),
        (
            pl.when(pl.col("row_index") >= 3).then(pl.lit(3)).otherwise("move").alias("move"),
            (
                3,
                "move",
                "la manche R passe au coup 3 sans coup 2 : les coups se numérotent "
                "1, 2, 3… sans trou",
            ),
        ),
        (
            pl.when(pl.col("row_index") == 0).then(pl.lit(3)).otherwise("warning").alias("warning"),
            (
                0,
                "warning",
                "warning : 0, 1 ou 2 avertissements attendus (vide : 0), pas 3 — un joueur ne "
                "reçoit qu'un avertissement par coup, plus au besoin un avertissement "
                "disciplinaire (FISF §5.8)",
            ),
        ),
        (
            pl.when(pl.col("row_index") == 0).then(pl.lit(-5)).otherwise(0).alias("penalty"),
            (
                0,
                "penalty",
                "penalty : -5 n'est pas un nombre de points retirés au coup (entier à partir "
                "de 0, vide : 0)",
            ),
        ),
        (
            pl.when(pl.col("row_index") == 4)
            .then(pl.lit("a"))
            .otherwise("player_id")
            .alias("player_id"),
            (4, "player_id", "le joueur a a plus d'une ligne pour le coup 2 de la manche R"),
        ),
    ],
)
def test_errors_of_move_rows(change: pl.Expr, expected: tuple) -> None:
    moves = ABC_MOVES.with_row_index("row_index").with_columns(change).drop("row_index")
    assert _errors(ABC, moves) == [("mort subite moves", "R", *expected)]


def test_errors_of_players_rows() -> None:
    twice = players_frame("R", [("b", 4, "1", False)])
    unranked = players_frame("R", [("d", None, "2", False)])
    got = _errors(pl.concat([ABC, twice, unranked]), ABC_MOVES)
    assert got == [
        (
            "mort subite players",
            "R",
            3,
            "player_id",
            "le joueur b figure plus d'une fois dans la manche R",
        ),
        (
            "mort subite players",
            "R",
            4,
            "host_rank",
            "valeur manquante : le joueur d n'a pas de rang dans le tournoi hôte de la manche R",
        ),
    ]


def test_errors_of_the_season_finals() -> None:
    f1 = players_frame("F1", [("a", None, "1", True)], date="2025-05-04", final=1)
    f2 = players_frame("F2", [("a", None, "1", True)], date="2025-06-29", final=1)
    late = players_frame("L", [("a", 1, "1", True)], date="2025-06-01")
    errors = _errors(pl.concat([ABC, f1, f2, late]), ABC_MOVES)
    assert [e for e in errors if e[3] in ("final", "date")] == [
        (
            "mort subite players",
            "F2",
            4,
            "final",
            "la saison 2024-2025 a déjà une finale (manche F1) : la manche F2 ne peut pas en "
            "être une autre",
        ),
        (
            "mort subite players",
            "L",
            5,
            "date",
            "la manche L (2025-06-01) a lieu après la finale F1 (2025-05-04) de la saison "
            "2024-2025",
        ),
    ]


def test_challenge_raises_on_invalid_exports() -> None:
    moves = moves_rows(
        [
            *[(1, 30, "a", 30), (1, 30, "b", 30), (1, 30, "c", 22)],
            *[(2, 9, "a", 9), (2, 9, "b", 9), (2, 9, "c", 9)],  # c was out on move 1
        ]
    )
    with pytest.raises(MortSubiteError, match="le joueur c a été éliminé au coup 1"):
        challenge(ABC, moves, PARAMS, CALENDAR)
    with pytest.raises(MortSubiteError, match="éliminé"):
        round_results(ABC, qualify(ABC, PARAMS), moves, PARAMS)


# --- the reference file ---------------------------------------------------------------------


def test_reference_errors_name_the_file(tmp_path: Path) -> None:
    shutil.copy(REFERENCE / "mort_subite.yaml", tmp_path / "mort_subite.yaml")
    path = tmp_path / "mort_subite.yaml"
    path.write_text(path.read_text().replace("after_table: 7", "after_table: 9"))
    with pytest.raises(ReferenceDataError, match=r"mort_subite\.yaml.*after_table"):
        load_mort_subite_params(tmp_path)
    shutil.copy(REFERENCE / "mort_subite.yaml", path)
    path.write_text(path.read_text().replace("penalty: 5", "penalty: -5"))
    with pytest.raises(ReferenceDataError, match=r"mort_subite\.yaml.*penalty"):
        load_mort_subite_params(tmp_path)
