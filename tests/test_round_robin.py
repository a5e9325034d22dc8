"""docs/rules.md §5b, second part: the Masters Grand Sud and the Grand Est championship [001].

Every standings case below is computed by hand; each test writes out the numbers it checks.
"""

from __future__ import annotations

import datetime as dt
import shutil
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

from pipelines.reference.files import ReferenceDataError
from pipelines.reference.round_robin import (
    load_final_categories,
    load_grand_est_params,
    load_masters_params,
    load_pairings,
    load_qualifying_points,
)
from transforms.round_robin.grand_est import championship_year, grand_est_qualifying
from transforms.round_robin.matches import matches_errors
from transforms.round_robin.pairings import default_pairings, pairing_errors, pairing_problems
from transforms.round_robin.params import (
    GrandEstParams,
    MastersParams,
    MatchPoints,
    Pairing,
    RoundRobinError,
    WithdrawalRule,
)
from transforms.round_robin.participants import (
    NEXT_QUALIFIED,
    QUALIFIED,
    SUBSTITUTE,
    grand_est_field,
    masters_field,
)
from transforms.round_robin.standings import (
    _MASTERS_CRITERIA,
    _Cascade,
    grand_est_final_standings,
    masters_standings,
)
from transforms.round_robin.year import round_robin_tables
from transforms.tables import table

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference"
POINTS = MatchPoints(win=2, draw=1, loss=0)


def _masters(players: int, rule: WithdrawalRule | None = None) -> MastersParams:
    return MastersParams(
        circuit="MASTERS_GRAND_SUD",
        players=players,
        points=POINTS,
        pairings=default_pairings(players),
        withdrawal=rule or WithdrawalRule(rounds_left=3, decided_places=3),
    )


def _grand_est(players: int, rule: WithdrawalRule | None = None) -> GrandEstParams:
    return GrandEstParams(
        circuit="GRAND_EST",
        players=players,
        points=POINTS,
        withdrawal=rule or WithdrawalRule(rounds_left=3, decided_places=3),
        qualifying_points=tuple(Fraction(p) for p in (12, 9, 7, 5, 4, 3, 2, 1)),
        counted_places=8,
    )


def _round_robin(
    seeds: list[str],
    scores: dict[tuple[str, str], tuple[int, int]],
    tops: dict[tuple[str, str], tuple[int, int]] | None = None,
    tid: str = "F1",
) -> pl.DataFrame:
    """Both rows of every match of the default pairing table for these seeds (1, 2, …);
    `scores[(a, b)]` = (moves of a, moves of b); a pair missing from `scores` did not play."""
    seat = {i: p for i, p in enumerate(seeds, start=1)}
    rows = []
    for pairing in default_pairings(len(seeds)):
        a, b = seat[pairing.player_a], seat[pairing.player_b]
        if (b, a) in scores:
            a, b = b, a
        if (a, b) not in scores:
            continue
        am, bm = scores[(a, b)]
        at, bt = (tops or {}).get((a, b), (None, None))
        rows.append((tid, pairing.match, pairing.table, a, b, am, bm, at))
        rows.append((tid, pairing.match, pairing.table, b, a, bm, am, bt))
    frame = pl.DataFrame(
        rows,
        schema={
            "tournament_id": pl.String,
            "round": pl.Int64,
            "table": pl.Int64,
            "player_id": pl.String,
            "opponent_id": pl.String,
            "player_moves": pl.Int64,
            "opponent_moves": pl.Int64,
            "player_top_moves": pl.Int64,
        },
        orient="row",
    )
    return frame if tops is not None else frame.drop("player_top_moves")


def _field(seeds: list[str], places: list[int] | None = None) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "player_id": seeds,
            "seed": list(range(1, len(seeds) + 1)),
            "place": places or list(range(1, len(seeds) + 1)),
        }
    )


def _by_player(frame: pl.DataFrame) -> dict[str, dict]:
    return {r["player_id"]: r for r in frame.iter_rows(named=True)}


def _standard(results: dict[tuple[str, str], str], win=(7, 5), draw=(6, 6)) -> dict:
    """Moves of each match from its result ('W': the first player wins, 'D': draw)."""
    return {pair: win if r == "W" else draw for pair, r in results.items()}


# --- the pairing table ---------------------------------------------------------------


def test_pairing_example_match_3_table_2_is_2nd_against_13th() -> None:
    # [001]: « Au 3ème match, en table 2, le 2ème joueur du classement annuel rencontre le 13ème. »
    for pairings in (default_pairings(16), load_masters_params(REFERENCE).pairings):
        (line,) = [p for p in pairings if p.match == 3 and p.table == 2]
        assert (line.player_a, line.player_b) == (2, 13)


def test_default_table_is_a_single_round_robin() -> None:
    pairings = load_masters_params(REFERENCE).pairings
    assert pairings == default_pairings(16)
    assert len(pairings) == 120  # 15 matches × 8 tables
    for match in range(1, 16):
        rows = [p for p in pairings if p.match == match]
        assert sorted(p.table for p in rows) == list(range(1, 9))
        assert sorted(s for p in rows for s in (p.player_a, p.player_b)) == list(range(1, 17))
        # tables numbered by the better-ranked player of each pair
        assert [p.player_a for p in sorted(rows, key=lambda p: p.table)] == sorted(
            p.player_a for p in rows
        )
    pairs = {frozenset((p.player_a, p.player_b)) for p in pairings}
    assert len(pairs) == 120 == 16 * 15 // 2
    # the 16th meets in match r the player i with 2i ≡ 3 − r (mod 15): match 3 → the 15th
    assert [p for p in pairings if p.match == 3 and 16 in (p.player_a, p.player_b)] == [
        Pairing(3, 8, 15, 16)
    ]
    assert pairing_problems(pairings, 16) == []


def test_pairing_problems_name_what_is_wrong() -> None:
    broken = list(default_pairings(4))
    broken[0] = Pairing(1, 1, 1, 2)  # match 1 now pairs 1–2 and 2–3; 1–2 again in match 3
    problems = pairing_problems(broken, 4)
    assert "match 1 : chaque joueur doit jouer une fois et une seule" in problems
    assert any("déjà rencontrés" in p for p in problems)


def test_loader_rejects_a_pairing_table_that_is_not_a_round_robin(tmp_path: Path) -> None:
    path = tmp_path / "pairings.csv"
    lines = ["match,table,player_a,player_b"]
    lines += [f"{p.match},{p.table},{p.player_a},{p.player_b}" for p in default_pairings(4)][:-1]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReferenceDataError, match=r"pairings\.csv: match 3 : il faut les tables"):
        load_pairings(path, 4)


def test_loader_rejects_points_that_rise_with_the_place(tmp_path: Path) -> None:
    path = tmp_path / "points.csv"
    path.write_text("place,points\n1,10\n2,12\n", encoding="utf-8")
    with pytest.raises(ReferenceDataError, match="never rise"):
        load_qualifying_points(path)
    path.write_text("place,points\n1,27.5\n2,1/2\n", encoding="utf-8")
    assert load_qualifying_points(path) == (Fraction(55, 2), Fraction(1, 2))


def test_reference_parameters() -> None:
    masters, grand_est = load_masters_params(REFERENCE), load_grand_est_params(REFERENCE)
    assert (masters.players, masters.points) == (16, MatchPoints(2, 1, 0))
    assert (masters.circuit, grand_est.circuit) == ("MASTERS_GRAND_SUD", "GRAND_EST")
    assert load_final_categories(REFERENCE) == ("masters", "finale")
    assert (grand_est.players, grand_est.points, grand_est.counted_places) == (16, POINTS, 32)
    assert len(grand_est.qualifying_points) == 32
    assert grand_est.withdrawal == WithdrawalRule(rounds_left=3, decided_places=3)


def test_loader_names_the_file_of_a_missing_key(tmp_path: Path) -> None:
    shutil.copytree(REFERENCE / "round_robin", tmp_path / "round_robin")
    (tmp_path / "round_robin.yaml").write_text(
        "masters_grand_sud: {circuit: MASTERS_GRAND_SUD, players: 16, "
        "points: {win: 2, draw: 1, loss: 0}}\n",
        encoding="utf-8",
    )
    with pytest.raises(ReferenceDataError, match=r"round_robin\.yaml: missing key 'pairings_file'"):
        load_masters_params(tmp_path)


# --- the participants ----------------------------------------------------------------

RANKING = pl.DataFrame(
    {
        "circuit": ["Masters Grand Sud"] * 20,
        "as_of": [dt.date(2024, 12, 31)] * 20,
        "player_id": [f"p{i:02d}" for i in range(1, 21)],
        "place": list(range(1, 21)),
        "points": [float(1000 - 10 * i) for i in range(1, 21)],
    }
)


def test_masters_absentees_are_replaced_by_the_17th_then_the_18th() -> None:
    field = masters_field(RANKING, _masters(16), absent=["p02", "p07", "p20"])
    assert field.height == 16
    assert field["player_id"].to_list() == [
        "p01", "p03", "p04", "p05", "p06", "p08", "p09", "p10",
        "p11", "p12", "p13", "p14", "p15", "p16", "p17", "p18",
    ]  # fmt: skip
    assert field["seed"].to_list() == list(range(1, 17))  # p03 is number 2, p18 number 16
    entries = dict(zip(field["player_id"], field["entry"], strict=True))
    assert entries["p16"] == QUALIFIED
    assert entries["p17"] == entries["p18"] == NEXT_QUALIFIED


def test_masters_field_refuses_a_tie_across_the_last_seat() -> None:
    tied = RANKING.with_columns(
        place=pl.when(pl.col("player_id") == "p17").then(16).otherwise(pl.col("place"))
    )
    with pytest.raises(RoundRobinError, match=r"p16, p17 sont ex aequo à la 16e place"):
        masters_field(tied, _masters(16))
    # once one of them is absent, the other is the 16th
    assert masters_field(tied, _masters(16), absent=["p16"])["player_id"][-1] == "p17"


def test_grand_est_final_field_next_qualified_then_best_present_non_qualified() -> None:
    qualifying = RANKING.select("player_id", "place")
    field = grand_est_field(
        qualifying,
        _grand_est(16),
        declined=["p03"],
        absent=["p05"],
        present=["p20", "p19", "p03", "p04"],
    )
    # p03 declined → p17 (next qualified); p05 absent on the day → p19, the best-ranked
    # player present in the room who was not invited (p18 is not there; p03 declined).
    assert field["player_id"].to_list() == [
        "p01", "p02", "p04", "p06", "p07", "p08", "p09", "p10",
        "p11", "p12", "p13", "p14", "p15", "p16", "p17", "p19",
    ]  # fmt: skip
    entries = dict(zip(field["player_id"], field["entry"], strict=True))
    assert (entries["p16"], entries["p17"], entries["p19"]) == (
        QUALIFIED,
        NEXT_QUALIFIED,
        SUBSTITUTE,
    )
    assert field.filter(pl.col("player_id") == "p19")["place"].item() == 19
    with pytest.raises(RoundRobinError, match="sans avoir été invité"):
        grand_est_field(qualifying, _grand_est(16), absent=["p18"], present=["p19"])
    with pytest.raises(RoundRobinError, match="1 place\\(s\\) à pourvoir mais seulement 0"):
        grand_est_field(qualifying, _grand_est(16), absent=["p01"], present=[])


# --- Masters standings ---------------------------------------------------------------

ABCD = ["A", "B", "C", "D"]


def test_two_way_ties_decided_by_defense_then_by_attack() -> None:
    # Matches (moves won by each side; seeds A 1, B 2, C 3, D 4, default 4-player table):
    #   A–D 7-4, B–C 5-6, A–C 8-3, B–D 7-5, A–B 5-6, C–D 5-6.
    # A: 4 pts, won 7+8+5 = 20, conceded 4+3+6 = 13;  B: 4 pts, won 5+7+6 = 18, conceded 6+5+5 = 16
    # D: 2 pts, won 4+5+6 = 15, conceded 7+7+5 = 19; C: 2 pts, won 6+3+5 = 14, conceded 5+8+6 = 19
    # A before B by défense (13 < 16); D before C: same défense (19), attaque 15 > 14.
    scores = {
        ("A", "D"): (7, 4),
        ("B", "C"): (5, 6),
        ("A", "C"): (8, 3),
        ("B", "D"): (7, 5),
        ("A", "B"): (5, 6),
        ("C", "D"): (5, 6),
    }
    out = masters_standings(_round_robin(ABCD, scores), _field(ABCD), _masters(4))
    assert out["player_id"].to_list() == ["A", "B", "D", "C"]
    rows = _by_player(out)
    assert [(rows[p]["place"], rows[p]["tiebreak_used"]) for p in ("A", "B", "D", "C")] == [
        (1, "defense"),
        (2, "defense"),
        (3, "attack"),
        (4, "attack"),
    ]
    assert [
        (rows[p]["points"], rows[p]["moves_won"], rows[p]["moves_conceded"]) for p in "ABDC"
    ] == [
        (4, 20, 13),
        (4, 18, 16),
        (2, 15, 19),
        (2, 14, 19),
    ]
    assert (rows["A"]["wins"], rows["A"]["draws"], rows["A"]["losses"]) == (2, 0, 1)
    assert rows["A"]["top_moves"] is None  # not in this export
    assert not out["play_off_needed"].any()
    assert out["annulled_games"].to_list() == [[], [], [], []]
    assert table("round_robin_standings").check(out) is out


def test_tie_for_first_level_after_head_to_head_is_flagged_as_a_play_off() -> None:
    # A–D 7-4, B–C 7-4, A–C 8-5, B–D 8-5, A–B 6-6, C–D 5-5.
    # A and B: 5 pts each, won 7+8+6 = 21, conceded 4+5+6 = 15, drew their match → the tie
    # for first survives head-to-head: both 1st, play-off needed (not the annual place).
    # C and D: 1 pt each, won 4+5+5 = 14, conceded 7+8+5 = 20, drew → annual place: C 3rd.
    scores = {
        ("A", "D"): (7, 4),
        ("B", "C"): (7, 4),
        ("A", "C"): (8, 5),
        ("B", "D"): (8, 5),
        ("A", "B"): (6, 6),
        ("C", "D"): (5, 5),
    }
    out = masters_standings(_round_robin(ABCD, scores), _field(ABCD), _masters(4))
    rows = _by_player(out)
    assert [
        (
            p,
            rows[p]["place"],
            rows[p]["points"],
            rows[p]["tiebreak_used"],
            rows[p]["play_off_needed"],
        )
        for p in ABCD
    ] == [
        ("A", 1, 5, "play_off", True),
        ("B", 1, 5, "play_off", True),
        ("C", 3, 1, "annual_place", False),
        ("D", 4, 1, "annual_place", False),
    ]
    assert (rows["C"]["moves_won"], rows["C"]["moves_conceded"]) == (14, 20)
    assert (rows["D"]["moves_won"], rows["D"]["moves_conceded"]) == (14, 20)


SIX = ["A", "B", "C", "D", "E", "F"]


def test_three_way_tie_decided_by_the_mini_table() -> None:
    # Every win 7-5, every draw 6-6. A, B and C each win 3, draw 1, lose 1: 7 pts, won
    # 3×7 + 6 + 5 = 32, conceded 3×5 + 6 + 7 = 28. Their games with each other: A beats B,
    # B beats C, A–C drawn → mini-table A 3, B 2, C 1. D 4 pts, E 3, F 2.
    results = {
        ("A", "B"): "W", ("A", "C"): "D", ("A", "D"): "W", ("A", "E"): "W", ("F", "A"): "W",
        ("B", "C"): "W", ("B", "D"): "W", ("B", "E"): "D", ("B", "F"): "W",
        ("C", "D"): "W", ("C", "E"): "W", ("C", "F"): "W",
        ("D", "E"): "W", ("D", "F"): "W", ("E", "F"): "W",
    }  # fmt: skip
    out = masters_standings(_round_robin(SIX, _standard(results)), _field(SIX), _masters(6))
    rows = _by_player(out)
    assert [(p, rows[p]["place"], rows[p]["points"], rows[p]["tiebreak_used"]) for p in SIX] == [
        ("A", 1, 7, "head_to_head"),
        ("B", 2, 7, "head_to_head"),
        ("C", 3, 7, "head_to_head"),
        ("D", 4, 4, None),
        ("E", 5, 3, None),
        ("F", 6, 2, None),
    ]
    assert {(rows[p]["moves_won"], rows[p]["moves_conceded"]) for p in "ABC"} == {(32, 28)}
    assert not out["play_off_needed"].any()  # the tie for first was settled head-to-head


def test_mini_table_recomputed_among_those_still_level_then_annual_place() -> None:
    # Same scoring; A, B, C 7 pts each (3 wins, 1 draw, 1 loss). Among them A beats B and C
    # (mini-table A 4, B 1, C 1), B–C drawn: their own match separates nothing, so the annual
    # place decides (B 2nd, C 3rd). F 4 pts, E 3, D 2.
    results = {
        ("A", "B"): "W", ("A", "C"): "W", ("A", "D"): "W", ("A", "E"): "D", ("F", "A"): "W",
        ("B", "C"): "D", ("B", "D"): "W", ("B", "E"): "W", ("B", "F"): "W",
        ("C", "D"): "W", ("C", "E"): "W", ("C", "F"): "W",
        ("D", "E"): "W", ("F", "D"): "W", ("E", "F"): "W",
    }  # fmt: skip
    out = masters_standings(_round_robin(SIX, _standard(results)), _field(SIX), _masters(6))
    rows = _by_player(out)
    assert [(p, rows[p]["place"], rows[p]["tiebreak_used"]) for p in "ABCFED"] == [
        ("A", 1, "head_to_head"),
        ("B", 2, "annual_place"),
        ("C", 3, "annual_place"),
        ("F", 4, None),
        ("E", 5, None),
        ("D", 6, None),
    ]


def test_mini_table_split_then_recomputed_within_each_part() -> None:
    # Six players level on points, défense and attaque (the cascade itself, no tournament
    # around it). Their games: A beats B, C, D; B beats C, E, F; C beats D, E, F; D beats B,
    # E; E beats A, F; F beats A, D. Mini-table of the six: A 6, B 6, C 6, D 4, E 4, F 4.
    # Recomputed among A, B, C: A 4, B 2, C 0 → places 1, 2, 3. Among D, E, F (D beats E,
    # E beats F, F beats D): 2 each, nothing separates them → annual place: D, E, F.
    beats = {
        "A": "BCD", "B": "CEF", "C": "DEF", "D": "BE", "E": "AF", "F": "AD",
    }  # fmt: skip
    results = {}
    for winner, losers in beats.items():
        for loser in losers:
            results[(winner, loser)], results[(loser, winner)] = 2, 0
    players = list("ABCDEF")
    totals = {p: {"points": 10, "moves_conceded": 30, "moves_won": 30} for p in players}
    places = {p: i for i, p in enumerate(players, start=1)}
    placed = _Cascade(_MASTERS_CRITERIA, totals, places, results).rank(players, 1)
    assert [(p, placed[p].place, placed[p].code) for p in players] == [
        ("A", 1, "head_to_head"),
        ("B", 2, "head_to_head"),
        ("C", 3, "head_to_head"),
        ("D", 4, "annual_place"),
        ("E", 5, "annual_place"),
        ("F", 6, "annual_place"),
    ]
    assert not any(placed[p].play_off for p in players)


def _sixteen() -> tuple[list[str], pl.DataFrame]:
    seeds = [f"p{i:02d}" for i in range(1, 17)]
    # the better-ranked player wins every match 7-5
    scores = {(a, b): (7, 5) for i, a in enumerate(seeds) for b in seeds[i + 1 :]}
    return seeds, _round_robin(seeds, scores, tid="MGS2024")


def test_a_full_masters_follows_the_default_table() -> None:
    seeds, matches = _sixteen()
    params = load_masters_params(REFERENCE)
    field = masters_field(RANKING, params, absent=["p17", "p18", "p19", "p20"])
    assert matches.height == 240  # 120 matches, two rows each
    assert pairing_errors(matches, field, params.pairings).height == 0
    out = masters_standings(matches, field, params)
    assert out.height == 16
    # the k-th wins 16 − k matches: 2 × (16 − k) points, places 1..16 in seed order
    assert out["player_id"].to_list() == seeds
    assert out["points"].to_list() == [2 * (16 - k) for k in range(1, 17)]
    assert out["points"].sum() == 240
    assert (out["wins"] + out["draws"] + out["losses"]).to_list() == [15] * 16
    assert out["tiebreak_used"].null_count() == 16


def test_pairing_errors_name_the_match_and_the_table() -> None:
    seeds, matches = _sixteen()
    params = load_masters_params(REFERENCE)
    field = _field(seeds)
    # match 3, table 2 (2nd v 13th) written at table 3
    moved = matches.with_columns(
        table=pl.when((pl.col("round") == 3) & pl.col("player_id").is_in(["p02", "p13"]))
        .then(3)
        .otherwise(pl.col("table"))
    )
    errors = pairing_errors(moved, field, params.pairings)
    assert errors["column"].to_list() == ["table", "table"]
    assert errors["message"][0] == (
        "au match 3, le 2e et le 13e du classement annuel jouent en table 2 d'après la table "
        "des matchs, pas en table 3"
    )
    # match 1: the 1st meets the 15th instead of the 16th (and the 2nd the 16th)
    swap = {"p15": "p16", "p16": "p15"}
    swapped = matches.with_columns(
        opponent_id=pl.when((pl.col("round") == 1) & pl.col("player_id").is_in(["p01", "p02"]))
        .then(pl.col("opponent_id").replace(swap))
        .otherwise(pl.col("opponent_id"))
    )
    errors = pairing_errors(swapped, field, params.pairings)
    first = errors.row(0, named=True)
    assert first["column"] == "opponent_id"
    # the 1st and the 15th meet in match r with 1 + 15 ≡ 3 − r (mod 15): r = 2
    assert first["message"] == (
        "au match 1, le 1er et le 15e du classement annuel ne se rencontrent pas : la table des "
        "matchs les oppose au match 2"
    )


# --- Grand Est final -----------------------------------------------------------------

ONE_TO_FOUR = ["1", "2", "3", "4"]


def test_grand_est_ties_by_moves_at_top_then_moves_scored() -> None:
    # (moves, moves at the top) — 1–4 9-6 (5, 3), 2–3 7-8 (4, 5), 1–3 8-7 (4, 4),
    # 2–4 10-5 (6, 2), 1–2 6-7 (3, 4), 3–4 5-10 (2, 6).
    # 1: 4 pts, top 5+4+3 = 12, won 23;  2: 4 pts, top 4+6+4 = 14, won 24
    # 3: 2 pts, top 5+4+2 = 11, won 8+7+5 = 20, conceded 7+8+10 = 25
    # 4: 2 pts, top 3+2+6 = 11, won 6+5+10 = 21, conceded 9+10+5 = 24
    # 2 before 1 at the top (14 > 12); 3 and 4 level at the top, 4 scored more moves.
    scores = {
        ("1", "4"): (9, 6),
        ("2", "3"): (7, 8),
        ("1", "3"): (8, 7),
        ("2", "4"): (10, 5),
        ("1", "2"): (6, 7),
        ("3", "4"): (5, 10),
    }
    tops = {
        ("1", "4"): (5, 3),
        ("2", "3"): (4, 5),
        ("1", "3"): (4, 4),
        ("2", "4"): (6, 2),
        ("1", "2"): (3, 4),
        ("3", "4"): (2, 6),
    }
    matches = _round_robin(ONE_TO_FOUR, scores, tops, tid="GE2024F")
    out = grand_est_final_standings(matches, _field(ONE_TO_FOUR), _grand_est(4))
    rows = _by_player(out)
    assert [
        (p, rows[p]["place"], rows[p]["points"], rows[p]["top_moves"], rows[p]["moves_won"])
        for p in ("2", "1", "4", "3")
    ] == [("2", 1, 4, 14, 24), ("1", 2, 4, 12, 23), ("4", 3, 2, 11, 21), ("3", 4, 2, 11, 20)]
    assert [rows[p]["tiebreak_used"] for p in ("2", "1", "4", "3")] == [
        "top_moves",
        "top_moves",
        "moves_scored",
        "moves_scored",
    ]
    assert out["tournament_id"].unique().to_list() == ["GE2024F"]


@pytest.mark.parametrize(
    ("second_against_fourth", "order", "code"),
    [
        # 2 conceded 5 + 3 + 6 = 14 < 1's 4 + 6 + 6 = 16: smallest total of the opponents
        ((7, 3), ["2", "1"], "opponents_scored"),
        # 2 conceded 5 + 5 + 6 = 16 = 1's: the qualifying place decides
        ((7, 5), ["1", "2"], "qualifying_place"),
    ],
)
def test_grand_est_ties_by_opponents_total_then_qualifying_place(
    second_against_fourth: tuple[int, int], order: list[str], code: str
) -> None:
    # 1–4 8-4 (5, 2), 2–3 8-5 (5, 3), 1–3 7-6 (4, 3), 2–4 (4, 2), 1–2 6-6 (3, 3), 3–4 7-5.
    # 1 and 2: 5 pts, top 12, won 21, drew their match.
    scores = {
        ("1", "4"): (8, 4),
        ("2", "3"): (8, 5),
        ("1", "3"): (7, 6),
        ("2", "4"): second_against_fourth,
        ("1", "2"): (6, 6),
        ("3", "4"): (7, 5),
    }
    tops = {
        ("1", "4"): (5, 2),
        ("2", "3"): (5, 3),
        ("1", "3"): (4, 3),
        ("2", "4"): (4, 2),
        ("1", "2"): (3, 3),
        ("3", "4"): (4, 3),
    }
    out = grand_est_final_standings(
        _round_robin(ONE_TO_FOUR, scores, tops), _field(ONE_TO_FOUR), _grand_est(4)
    )
    rows = _by_player(out)
    assert out["player_id"].to_list()[:2] == order
    assert [(rows[p]["place"], rows[p]["tiebreak_used"]) for p in order] == [(1, code), (2, code)]
    assert (rows["1"]["top_moves"], rows["1"]["moves_won"], rows["1"]["moves_conceded"]) == (
        12,
        21,
        16,
    )
    assert (rows["3"]["place"], rows["4"]["place"]) == (3, 4)
    # level on every criterion (same qualifying place too): they share 1st place
    if code == "qualifying_place":
        shared = grand_est_final_standings(
            _round_robin(ONE_TO_FOUR, scores, tops),
            _field(ONE_TO_FOUR, places=[1, 1, 3, 4]),
            _grand_est(4),
        )
        assert shared.filter(pl.col("place") == 1)["tiebreak_used"].to_list() == [
            "ex_aequo",
            "ex_aequo",
        ]
        assert not shared["play_off_needed"].any()


def test_grand_est_final_needs_the_moves_at_the_top() -> None:
    scores = {(a, b): (7, 5) for i, a in enumerate(ONE_TO_FOUR) for b in ONE_TO_FOUR[i + 1 :]}
    with pytest.raises(RoundRobinError, match="coups joués au top"):
        grand_est_final_standings(
            _round_robin(ONE_TO_FOUR, scores), _field(ONE_TO_FOUR), _grand_est(4)
        )


# --- withdrawal ----------------------------------------------------------------------

# Six players, default 6-player table; wins 8-5 (top 5 and 2), draws 6-6 (top 3 each).
#   round 1: 6 beats 1, 5 beats 2, 3 beats 4      round 2: 1 beats 5, 2 beats 4, 3 beats 6
#   round 3: 1 beats 4, 2–3 drawn, 5 beats 6      round 4: 1 beats 3, 2 beats 6, 4 beats 5
#   round 5: 2 beats 1, 5 beats 3, (4–6 not played: 6 withdrew after round 4)
WITHDRAWAL_RESULTS = {
    ("6", "1"): "W", ("5", "2"): "W", ("3", "4"): "W",
    ("1", "5"): "W", ("2", "4"): "W", ("3", "6"): "W",
    ("1", "4"): "W", ("2", "3"): "D", ("5", "6"): "W",
    ("1", "3"): "W", ("2", "6"): "W", ("4", "5"): "W",
    ("2", "1"): "W", ("5", "3"): "W",
}  # fmt: skip
ONE_TO_SIX = ["1", "2", "3", "4", "5", "6"]


def _withdrawal_matches(drop: tuple[tuple[str, str], ...] = ()) -> pl.DataFrame:
    results = {pair: r for pair, r in WITHDRAWAL_RESULTS.items() if pair not in drop}
    scores = _standard(results, win=(8, 5))
    tops = {pair: (5, 2) if r == "W" else (3, 3) for pair, r in results.items()}
    return _round_robin(ONE_TO_SIX, scores, tops, tid="GE2024F")


def _withdrawn(after: int) -> pl.DataFrame:
    return pl.DataFrame(
        {"player_id": ONE_TO_SIX, "withdrawn_after_round": [None] * 5 + [after]},
        schema={"player_id": pl.String, "withdrawn_after_round": pl.Int64},
    )


@pytest.mark.parametrize("rounds_left", [1, 2])
def test_late_withdrawal_decides_the_winner_with_the_games_kept_and_the_rest_without(
    rounds_left: int,
) -> None:
    # 6 withdraws after round 4 of 5: 1 round left ≤ R (1 or 2). After round 4 the leader is
    # 1 (6 pts); 2, 3 (5 pts) and 5 (4 pts) can still reach 6 with their last match, and all
    # four have played 6; 4 (2 pts, no match left) cannot. So place 1 (D = 1) is decided
    # with 6's games kept: 2 has 7 pts (beat 6) and 1 has 6 (lost to 6) → 2 wins.
    # The rest without 6's games: 1 6 pts, 5 4 pts, 3 3 pts, 4 2 pts.
    params = _grand_est(6, WithdrawalRule(rounds_left=rounds_left, decided_places=1))
    out = grand_est_final_standings(
        _withdrawal_matches(), _field(ONE_TO_SIX), params, withdrawals=_withdrawn(4)
    )
    rows = _by_player(out)
    assert [
        (p, rows[p]["place"], rows[p]["points"], rows[p]["annulled_games"]) for p in "21534"
    ] == [
        ("2", 1, 7, []),
        ("1", 2, 6, ["6"]),
        ("5", 3, 4, ["6"]),
        ("3", 4, 3, ["6"]),
        ("4", 5, 2, []),
    ]
    # 2's counters keep the win over 6: 3 wins, 1 draw, 1 loss; moves 3×8 + 6 + 5 = 35.
    assert (rows["2"]["wins"], rows["2"]["draws"], rows["2"]["losses"]) == (3, 1, 1)
    assert (rows["2"]["moves_won"], rows["2"]["moves_conceded"], rows["2"]["top_moves"]) == (
        35,
        29,
        20,
    )
    # 1's counters drop the loss to 6: 3 wins, 1 loss; moves 3×8 + 5 = 29, top 3×5 + 2 = 17.
    assert (rows["1"]["wins"], rows["1"]["losses"], rows["1"]["moves_won"]) == (3, 1, 29)
    assert rows["1"]["top_moves"] == 17
    assert (rows["6"]["place"], rows["6"]["tiebreak_used"]) == (None, "withdrawn")
    assert rows["6"]["annulled_games"] == ["1", "2", "3", "5"]
    assert rows["6"]["points"] == 2  # the games 6 played (a win over 1), for the record
    assert out["player_id"].to_list()[-1] == "6"


def test_late_withdrawal_with_d_two_keeps_the_games_for_the_first_two_places() -> None:
    # With the games kept: 2 7 pts, then 1 and 5 6 pts each. 1 and 5: top 1 = 3×5 + 2×2 = 19,
    # top 5 = 3×5 + 2×2 = 19; moves won 1 = 3×8 + 2×5 = 34 = 5's; 5 beat 2 but lost to 1
    # → head-to-head: 1 beat 5 → 1 2nd. Places 1..2 kept; 5, 3, 4 ranked without 6.
    params = _grand_est(6, WithdrawalRule(rounds_left=2, decided_places=2))
    out = grand_est_final_standings(
        _withdrawal_matches(), _field(ONE_TO_SIX), params, withdrawals=_withdrawn(4)
    )
    rows = _by_player(out)
    assert [(p, rows[p]["place"], rows[p]["points"]) for p in "21534"] == [
        ("2", 1, 7),
        ("1", 2, 6),
        ("5", 3, 4),
        ("3", 4, 3),
        ("4", 5, 2),
    ]
    assert (rows["1"]["annulled_games"], rows["1"]["tiebreak_used"]) == ([], "head_to_head")
    assert (rows["1"]["wins"], rows["1"]["losses"], rows["1"]["top_moves"]) == (3, 2, 19)


def _all_annulled(out: pl.DataFrame) -> list[tuple[str, int | None, int]]:
    rows = _by_player(out)
    return [(p, rows[p]["place"], rows[p]["points"]) for p in out["player_id"].to_list()]


def test_early_withdrawal_annuls_all_the_withdrawn_players_games() -> None:
    # 6 withdraws after round 2 (3 rounds left > R = 2): he played 1 (won) and 3 (lost);
    # his rounds 3–5 matches were not played. Every game of 6 is annulled for everyone:
    # 1 6 pts, 2 5 pts, 5 4 pts, 3 3 pts, 4 2 pts.
    params = _grand_est(6, WithdrawalRule(rounds_left=2, decided_places=1))
    matches = _withdrawal_matches(drop=(("5", "6"), ("2", "6")))
    out = grand_est_final_standings(matches, _field(ONE_TO_SIX), params, withdrawals=_withdrawn(2))
    assert _all_annulled(out) == [
        ("1", 1, 6),
        ("2", 2, 5),
        ("5", 3, 4),
        ("3", 4, 3),
        ("4", 5, 2),
        ("6", None, 2),
    ]
    annulled = dict(zip(out["player_id"], out["annulled_games"].to_list(), strict=True))
    assert annulled == {"1": ["6"], "2": [], "3": ["6"], "4": [], "5": [], "6": ["1", "3"]}


def test_late_withdrawal_before_a_contender_has_played_him_annuls_everything() -> None:
    # 6 withdraws after round 3 (2 rounds left ≤ R = 2) without having played 2 (round 4).
    # After round 3: 3 leads with 5 pts; 2 has 3 pts and one match left (round 5): 3 + 2 = 5
    # can still catch 3 but has not played 6 → all of 6's games annulled.
    params = _grand_est(6, WithdrawalRule(rounds_left=2, decided_places=1))
    matches = _withdrawal_matches(drop=(("2", "6"),))
    out = grand_est_final_standings(matches, _field(ONE_TO_SIX), params, withdrawals=_withdrawn(3))
    assert _all_annulled(out)[:5] == [
        ("1", 1, 6),
        ("2", 2, 5),
        ("5", 3, 4),
        ("3", 4, 3),
        ("4", 5, 2),
    ]
    annulled = dict(zip(out["player_id"], out["annulled_games"].to_list(), strict=True))
    assert annulled == {"1": ["6"], "2": [], "3": ["6"], "4": [], "5": ["6"], "6": ["1", "3", "5"]}


def test_r_zero_makes_the_same_withdrawal_early() -> None:
    params = _grand_est(6, WithdrawalRule(rounds_left=0, decided_places=1))
    out = grand_est_final_standings(
        _withdrawal_matches(), _field(ONE_TO_SIX), params, withdrawals=_withdrawn(4)
    )
    assert _all_annulled(out)[:2] == [("1", 1, 6), ("2", 2, 5)]


def test_withdrawn_player_cannot_play_after_withdrawing() -> None:
    params = _grand_est(6, WithdrawalRule(rounds_left=2, decided_places=1))
    with pytest.raises(RoundRobinError, match="abandonné après la ronde 2 mais joue encore"):
        grand_est_final_standings(
            _withdrawal_matches(), _field(ONE_TO_SIX), params, withdrawals=_withdrawn(2)
        )


def test_a_missing_match_is_an_error() -> None:
    with pytest.raises(RoundRobinError, match="il manque le match entre 4 et 6"):
        grand_est_final_standings(_withdrawal_matches(), _field(ONE_TO_SIX), _grand_est(6))


# --- Grand Est qualifying ------------------------------------------------------------


def test_grand_est_qualifying_tie_broken_by_second_places_then_duplicate_places() -> None:
    # Table (test values): 1st 12, 2nd 9, 3rd 7, 4th 5, 5th 4, 6th 3, 7th 2, 8th 1.
    #   T1: A 1st, Y 2nd, X 3rd, D 4th;  T2: B 1st, Y 2nd, X 3rd;  T3: C 1st, X 2nd, D 3rd, Y 4th
    # X 7 + 7 + 9 = 23 and Y 9 + 9 + 5 = 23, no 1st place: Y has two 2nd places, X one → Y 1st.
    # A, B, C 12 pts, one 1st place each: duplicate places A 1st, B 2nd, C 2nd → A, then B and
    # C share 4th. D 5 + 7 = 12 but no 1st place → 6th. T4 (2025) counts for 2025 only.
    tournaments = pl.DataFrame(
        {
            "tournament_id": ["T1", "T2", "T3", "T4"],
            "end_date": [
                dt.date(2024, 3, 6),
                dt.date(2024, 4, 10),
                dt.date(2024, 5, 22),
                dt.date(2025, 3, 5),
            ],
        }
    )
    rows = [
        ("T1", "A", 1, 1), ("T1", "Y", 2, 3), ("T1", "X", 3, 2), ("T1", "D", 4, 4),
        ("T2", "B", 1, 2), ("T2", "Y", 2, 1), ("T2", "X", 3, 3),
        ("T3", "C", 1, 2), ("T3", "X", 2, 1), ("T3", "D", 3, 3), ("T3", "Y", 4, 4),
        ("T4", "A", 1, 1),
    ]  # fmt: skip
    columns = ("tournament_id", "player_id", "rank", "duplicate_rank")
    results = pl.DataFrame(
        rows,
        schema=dict(zip(columns, (pl.String, pl.String, pl.Int64, pl.Int64), strict=True)),
        orient="row",
    )
    out = grand_est_qualifying(tournaments, results, _grand_est(16))
    assert table("grand_est_qualifying").check(out) is out
    y2024 = out.filter(pl.col("year") == 2024)
    assert y2024.select("player_id", "place", "points", "tournaments").rows() == [
        ("Y", 1, 23.0, 3),
        ("X", 2, 23.0, 3),
        ("A", 3, 12.0, 1),
        ("B", 4, 12.0, 1),
        ("C", 4, 12.0, 1),
        ("D", 6, 12.0, 2),
    ]
    histograms = dict(zip(y2024["player_id"], y2024["places_histogram"].to_list(), strict=True))
    assert histograms["Y"] == [0, 2, 0, 1, 0, 0, 0, 0]
    assert histograms["X"] == [0, 1, 2, 0, 0, 0, 0, 0]
    assert out.filter(pl.col("year") == 2025).select("player_id", "place", "points").rows() == [
        ("A", 1, 12.0)
    ]
    # without the duplicate places, B and C stay level with A: the three share 3rd place
    plain = grand_est_qualifying(tournaments, results.drop("duplicate_rank"), _grand_est(16))
    assert plain.filter(pl.col("player_id").is_in(["A", "B", "C"]) & (pl.col("year") == 2024))[
        "place"
    ].to_list() == [3, 3, 3]


def test_grand_est_qualifying_sums_decimal_points_exactly() -> None:
    params = GrandEstParams(
        circuit="GRAND_EST",
        players=16,
        points=POINTS,
        withdrawal=WithdrawalRule(3, 3),
        qualifying_points=(Fraction(55, 2), Fraction(1, 3)),
        counted_places=2,
    )
    tournaments = pl.DataFrame(
        {"tournament_id": ["T1", "T2", "T3"], "end_date": [dt.date(2024, m, 1) for m in (1, 2, 3)]}
    )
    results = pl.DataFrame(
        {
            "tournament_id": ["T1", "T2", "T3", "T1"],
            "player_id": ["A", "A", "A", "B"],
            "rank": [2, 2, 2, 1],
        }
    )
    out = grand_est_qualifying(tournaments, results, params)
    # A: 1/3 × 3 = 1 exactly; B 27.5
    assert out.select("player_id", "place", "points").rows() == [("B", 1, 27.5), ("A", 2, 1.0)]


# --- the matches export ----------------------------------------------------------------

MATCH_SCHEMA = {
    "tournament_id": pl.String,
    "round": pl.Int64,
    "table": pl.Int64,
    "player_id": pl.String,
    "opponent_id": pl.String,
    "player_moves": pl.Int64,
    "opponent_moves": pl.Int64,
}


def _rows(*rows: tuple) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema=MATCH_SCHEMA, orient="row")


def test_mirror_rows_must_exist_and_agree() -> None:
    matches = _rows(
        ("T", 1, 1, "a", "b", 7, 5),
        ("T", 1, 1, "b", "a", 5, 7),  # the mirror of row 0: fine
        ("T", 1, 2, "c", "d", 6, 6),
        ("T", 1, 3, "d", "c", 6, 5),  # other table, and c's moves differ from row 2
        ("T", 2, 1, "a", "c", 8, 4),  # c's side is missing
    )
    errors = matches_errors(matches)
    assert errors.rows() == [
        (
            3,
            "opponent_moves",
            "c gagne 5 coups ici, mais 6 d'après la ligne 3 (c contre d, ronde 1)",
        ),
        (
            3,
            "table",
            "table 3 ici, mais table 2 pour le même match à la ligne 3 (c contre d, ronde 1)",
        ),
        (
            4,
            "opponent_id",
            "le match de la ronde 2 entre a et c n'est donné que du côté de a : il manque la "
            "ligne de c contre a",
        ),
    ]
    assert matches_errors(matches.head(2)).height == 0


def test_matches_errors_name_the_organisers_row_numbers() -> None:
    matches = _rows(("T", 1, 1, "a", "b", 7, 5), ("T", 1, 1, "b", "a", 6, 7)).with_columns(
        _file=pl.lit("mgs.csv"), _row=pl.Series([2, 3], dtype=pl.Int64)
    )
    (row,) = matches_errors(matches).rows()
    assert row == (
        1,
        "player_moves",
        "b gagne 6 coups ici, mais 5 d'après la ligne 2 (a contre b, ronde 1)",
    )


def test_matches_errors_seats_pairs_and_tables() -> None:
    matches = _rows(
        ("T", 1, 1, "a", "b", 7, 5),
        ("T", 1, 1, "b", "a", 5, 7),
        ("T", 1, 1, "c", "d", 6, 6),  # table 1 of round 1 already holds a–b
        ("T", 1, 1, "d", "c", 6, 6),
        ("T", 2, 1, "a", "b", 6, 6),  # a and b meet again
        ("T", 2, 1, "b", "a", 6, 6),
        ("T", 2, 2, "a", "c", 6, 6),  # a already plays in round 2
        ("T", 2, 2, "c", "a", 6, 6),
        ("T", 3, 1, "e", "e", 6, -1),
    )
    errors = matches_errors(matches)
    found = {(r, c) for r, c, _ in errors.rows()}
    assert {(2, "table"), (3, "table"), (4, "round"), (5, "round"), (6, "player_id")} <= found
    assert {(8, "opponent_id"), (8, "opponent_moves")} <= found
    messages = dict(((r, c), m) for r, c, m in errors.rows())
    assert (
        messages[(2, "table")] == "la table 1 de la ronde 1 accueille déjà le match a–b (ligne 1)"
    )
    assert messages[(4, "round")] == (
        "a et b se sont déjà rencontrés à la ronde 1 (ligne 1) : un tournoi toutes rondes ne les "
        "oppose qu'une fois"
    )
    assert (
        messages[(6, "player_id")]
        == "le joueur a a déjà un match à la ronde 2 du tournoi T (ligne 5)"
    )
    assert messages[(8, "opponent_moves")] == "-1 n'est pas un nombre de coups (0 ou plus)"


def test_matches_errors_missing_column_and_top_moves_in_duplicate_match() -> None:
    errors = matches_errors(_rows(("T", 1, 1, "a", "b", 7, 5)).drop("table"))
    assert errors.rows() == [(None, "table", "colonne obligatoire « table » absente des matchs")]
    dm = _rows(("T", 1, 1, "a", "b", 7, 5), ("T", 1, 1, "b", "a", 5, 7)).with_columns(
        player_top_moves=pl.Series([8, 2], dtype=pl.Int64)
    )
    assert matches_errors(dm).height == 0
    (row,) = matches_errors(dm, duplicate_match=True).rows()
    assert row[:2] == (0, "player_top_moves")


def test_standings_refuse_inconsistent_matches() -> None:
    matches = _round_robin(
        ABCD, {(a, b): (7, 5) for i, a in enumerate(ABCD) for b in ABCD[i + 1 :]}
    )
    with pytest.raises(RoundRobinError, match="ligne 1, colonne « opponent_id » : le match"):
        masters_standings(matches.slice(1), _field(ABCD), _masters(4))
    with pytest.raises(RoundRobinError, match="sans faire partie des participants"):
        masters_standings(matches, _field(ABCD[:3]), _masters(4))


def test_standings_are_deterministic() -> None:
    _, matches = _sixteen()
    field = _field([f"p{i:02d}" for i in range(1, 17)])
    params = load_masters_params(REFERENCE)
    first = masters_standings(matches, field, params)
    again = masters_standings(matches.sample(fraction=1.0, shuffle=True, seed=7), field, params)
    assert first.equals(again)


# --- a calendar year of finals ------------------------------------------------------------


@pytest.mark.parametrize(
    ("final", "ends", "year"),
    [
        (dt.date(2011, 11, 20), [dt.date(2011, 3, 6), dt.date(2011, 9, 11)], 2011),
        # « La finale 2011 aura lieu … à une date à déterminer »: held in January 2012
        (dt.date(2012, 1, 15), [dt.date(2011, 3, 6), dt.date(2012, 3, 4)], 2011),
        (dt.date(2012, 6, 3), [dt.date(2011, 3, 6), dt.date(2012, 3, 4)], 2012),
        (dt.date(2012, 6, 3), [], 2012),
    ],
)
def test_the_championship_a_grand_est_final_closes(
    final: dt.date, ends: list[dt.date], year: int
) -> None:
    assert championship_year(final, ends) == year


def _tournament(tid: str, day: dt.date, circuit: str, category: str | None) -> dict:
    return {
        "tournament_id": tid,
        "end_date": day,
        "start_date": day,
        "circuit": circuit,
        "category": category,
    }


def test_a_year_of_finals() -> None:
    """A Masters of 4 (the 3rd of the annual ranking absent: the 5th is number 4), a Grand
    Est final of 4 after two qualifiers, a Masters without matches yet (not ranked), all in
    2024; the qualifying ranking of 2024."""
    masters, grand_est = _masters(4), _grand_est(4)
    tournaments = pl.DataFrame(
        [
            _tournament("M", dt.date(2024, 2, 25), "MASTERS_GRAND_SUD", "Masters"),
            _tournament("M2", dt.date(2024, 12, 1), "MASTERS_GRAND_SUD", "masters"),
            _tournament("Q1", dt.date(2024, 3, 10), "GRAND_EST", "open"),
            _tournament("Q2", dt.date(2024, 4, 14), "PACA;GRAND_EST", None),
            _tournament("F", dt.date(2024, 11, 17), "GRAND_EST", "finale"),
        ]
    )
    results = pl.DataFrame(
        [
            *(("M", p, k, None) for k, p in enumerate(["a1", "a2", "a4", "a5"], 1)),
            *(("Q1", p, k, k) for k, p in enumerate(["g1", "g2", "g3", "g5", "g4"], 1)),
            *(("Q2", p, k, k) for k, p in enumerate(["g2", "g1", "g4", "g3"], 1)),
            *(("F", p, k, None) for k, p in enumerate(["g1", "g2", "g3", "g4"], 1)),
        ],
        schema={
            "tournament_id": pl.String,
            "player_id": pl.String,
            "rank": pl.Int64,
            "duplicate_rank": pl.Int64,
        },
        orient="row",
    )
    annual = pl.DataFrame(
        {
            "circuit": ["MASTERS_GRAND_SUD"] * 5 + ["PACA"],
            "as_of": [dt.date(2024, 1, 31)] * 5 + [dt.date(2024, 2, 1)],
            "player_id": ["a1", "a2", "a3", "a4", "a5", "a3"],
            "place": [1, 2, 3, 4, 5, 1],
        }
    )
    seeds = ["a1", "a2", "a4", "a5"]
    m = _round_robin(
        seeds, {(a, b): (7, 5) for i, a in enumerate(seeds) for b in seeds[i + 1 :]}, tid="M"
    )
    finalists = ["g1", "g2", "g3", "g4"]
    f = _round_robin(
        finalists,
        {(a, b): (6, 4) for i, a in enumerate(finalists) for b in finalists[i + 1 :]},
        tops={(a, b): (3, 2) for i, a in enumerate(finalists) for b in finalists[i + 1 :]},
        tid="F",
    )
    out = round_robin_tables(
        tournaments,
        results,
        pl.concat([m, f], how="diagonal"),
        annual,
        masters,
        grand_est,
        ("masters", "finale"),
        2024,
    )
    standings = out.standings
    assert standings["tournament_id"].unique(maintain_order=True).to_list() == ["M", "F"]
    assert standings["year"].unique().to_list() == [2024]
    rows = standings.select("circuit", "player_id", "seed", "ranking_place", "place").rows()
    assert rows[:4] == [
        ("MASTERS_GRAND_SUD", "a1", 1, 1, 1),
        ("MASTERS_GRAND_SUD", "a2", 2, 2, 2),
        ("MASTERS_GRAND_SUD", "a4", 3, 4, 3),
        ("MASTERS_GRAND_SUD", "a5", 4, 5, 4),
    ]
    # qualifying 2024 (4 places, test table 12/9/7/5/4): g1 12 + 9 = 21, g2 9 + 12 = 21 (one
    # 1st place each, 2nd places each: duplicate places decide: g1 1st and 2nd, g2 2nd and
    # 1st — level: shared 1st), g3 7 + 5 = 12, g4 4 + 7 = 11, g5 5
    assert out.qualifying.select("player_id", "place", "points").rows() == [
        ("g1", 1, 21.0),
        ("g2", 1, 21.0),
        ("g3", 3, 12.0),
        ("g4", 4, 11.0),
        ("g5", 5, 5.0),
    ]
    finals = standings.filter(pl.col("tournament_id") == "F")
    assert finals.select("player_id", "ranking_place", "place").rows() == [
        ("g1", 1, 1),
        ("g2", 1, 2),
        ("g3", 3, 3),
        ("g4", 4, 4),
    ]
    assert out.pairing_issues.height == 0
    # a Masters off the table: a1 and a2 swapped in the annual ranking
    swapped = annual.with_columns(
        place=pl.when(pl.col("player_id") == "a1")
        .then(2)
        .when(pl.col("player_id") == "a2")
        .then(1)
        .otherwise(pl.col("place"))
    )
    off = round_robin_tables(
        tournaments,
        results,
        pl.concat([m, f], how="diagonal"),
        swapped,
        masters,
        grand_est,
        ("masters", "finale"),
        2024,
    )
    assert off.pairing_issues.height > 0
    assert off.pairing_issues["tournament_id"].unique().to_list() == ["M"]
    assert off.standings.height == standings.height  # still ranked
    # no annual ranking before the Masters: an error naming it
    with pytest.raises(RoundRobinError, match="tournoi M : aucun classement annuel"):
        round_robin_tables(
            tournaments,
            results,
            m,
            annual.with_columns(as_of=pl.lit(dt.date(2024, 3, 1))),
            masters,
            grand_est,
            ("masters", "finale"),
            2024,
        )
