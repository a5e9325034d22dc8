"""docs/rules.md §1: the classique cote, its tournament parameters, rankings and series bars."""

from __future__ import annotations

import datetime as dt
import random
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

from pipelines.reference.classique import load_cote_params, load_ranking_params
from transforms.calendar import SeasonCalendar
from transforms.classique_series import (
    RankingParams,
    cote_ranking,
    season_cote_rankings,
    series_bars,
    years_before,
)
from transforms.cote import (
    CategoryParams,
    CoteError,
    CoteParams,
    TournamentParams,
    UnknownCategoryError,
    cote_history,
    last_cotes,
    ordered_tournaments,
    rate_tournament,
    starting_cotes,
    tournament_params,
)
from transforms.series_population import event_series

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference"

PARAMS = CoteParams(
    initial_cote=1500,
    series_equivalence={
        "SS": 2750,
        "1": 2650,
        "2": 2300,
        "3": 2100,
        "4": 2000,
        "5": 1800,
        "6": 1600,
    },
    bonus_divisors=(1, 2, 5, 10),
    pj_gain=Fraction(2, 3),
    pj_loss=Fraction(1, 3),
    categories=(
        CategoryParams("homologue", 0, 100, -103, 210),
        CategoryParams("homologue", 7, 100, -125, 250),
        CategoryParams("mondial", 0, 250, -200, 400),
    ),
)
WIDE = TournamentParams(bonus_m=100, pj_min=-1000, pj_max=1000)


def _players(cotes: list[int], ranks: list[int]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "player_id": [f"p{i}" for i in range(len(cotes))],
            "cote_before": cotes,
            "rank": ranks,
        }
    )


def _row(frame: pl.DataFrame, player_id: str) -> dict:
    return frame.filter(pl.col("player_id") == player_id).row(0, named=True)


# --- one tournament -------------------------------------------------------------------


def test_pj_worked_examples_before_clamping() -> None:
    # 1500 wins where the top-rated had 2000: +333; 2000 ends at a place of reference 1500: −167.
    out = rate_tournament(_players([2000, 1500], [2, 1]), WIDE, PARAMS, "T")
    winner, second = _row(out, "p1"), _row(out, "p0")
    assert winner["pj_raw"] == 333 and winner["pj"] == 333
    assert second["pj_raw"] == -167 and second["pj"] == -167
    assert (winner["pe"], winner["bonus"], winner["cote_after"]) == (2, 100, 1500 + 2 + 100 + 333)
    assert (second["pe"], second["bonus"], second["cote_after"]) == (1, 50, 2000 + 1 + 50 - 167)
    assert list(out.columns) == [
        "season", "tournament_id", "player_id", "cote_before", "initial_place", "rank",
        "pe", "bonus", "pj_raw", "pj", "cote_after",
    ]  # fmt: skip


def test_world_cup_2007() -> None:
    # Amar Diokh: 1763, 36 players, winner, M_B 250, top cote 2586, PJmax 400 → 2449.
    cotes = [2586, *(1500 + 5 * i for i in range(34)), 1763]
    ranks = [*range(2, 36), 36, 1]
    out = rate_tournament(_players(cotes, ranks), TournamentParams(250, -200, 400), PARAMS, "WC")
    diokh = _row(out, "p35")
    assert diokh["initial_place"] == 2
    assert (diokh["pe"], diokh["bonus"], diokh["pj_raw"], diokh["pj"]) == (36, 250, 549, 400)
    assert diokh["cote_after"] == 2449


def test_ties_share_place_bonus_and_reference() -> None:
    # Two players 2nd (next is 4th): both PE 4, bonus M_B/2 = 62.5 → 63, reference cote of
    # place 2 (1900); nobody is 3rd so M_B/5 goes to nobody; 4th gets 12.5 → 13.
    out = rate_tournament(
        _players([2000, 1900, 1800, 1700, 1600], [1, 4, 2, 2, 5]),
        TournamentParams(125, -103, 210),
        PARAMS,
        "T",
    )
    got = {
        r["player_id"]: (r["pe"], r["bonus"], r["pj_raw"], r["cote_after"]) for r in out.to_dicts()
    }
    assert got == {
        "p0": (5, 125, 0, 2130),
        "p2": (4, 63, 67, 1934),  # d = 1900 − 1800 = 100 → 66.67 → 67
        "p3": (4, 63, 133, 1900),  # d = 200 → 133.33 → 133
        "p1": (2, 13, -67, 1848),  # reference of place 4 = 1700: d = −200 → −66.67 → −67
        "p4": (1, 0, 0, 1601),
    }


def test_equal_cotes_share_initial_place() -> None:
    out = rate_tournament(_players([1800, 1800, 1500], [3, 1, 2]), WIDE, PARAMS, "T")
    assert out.sort("player_id")["initial_place"].to_list() == [1, 1, 3]


def test_pj_clamped_on_both_sides() -> None:
    out = rate_tournament(
        _players([3000, 1000, 2000], [3, 1, 2]), TournamentParams(100, -103, 210), PARAMS, "T"
    )
    assert (_row(out, "p1")["pj_raw"], _row(out, "p1")["pj"]) == (1333, 210)
    assert (_row(out, "p0")["pj_raw"], _row(out, "p0")["pj"]) == (-667, -103)
    assert (_row(out, "p2")["pj_raw"], _row(out, "p2")["pj"]) == (0, 0)


def test_rank_out_of_range_is_an_error() -> None:
    with pytest.raises(ValueError, match="T9"):
        rate_tournament(_players([1500, 1500], [1, 3]), WIDE, PARAMS, "T9")


# --- tournament parameters --------------------------------------------------------------


def test_stated_params_win_field_by_field() -> None:
    row = {"tournament_id": "T", "category": "homologue", "games": 7}
    assert tournament_params(row, PARAMS) == TournamentParams(100, -125, 250)
    assert tournament_params({**row, "games": 5}, PARAMS) == TournamentParams(100, -103, 210)
    assert tournament_params({**row, "games": None}, PARAMS) == TournamentParams(100, -103, 210)
    assert tournament_params({**row, "category": " Mondial "}, PARAMS) == TournamentParams(
        250, -200, 400
    )
    assert tournament_params({**row, "pj_max": 300}, PARAMS) == TournamentParams(100, -125, 300)
    stated = {"tournament_id": "T", "category": "Z", "bonus_m": 80, "pj_min": -110, "pj_max": 220}
    assert tournament_params(stated, PARAMS) == TournamentParams(80, -110, 220)


def test_unknown_category_names_the_tournament() -> None:
    row = {"tournament_id": "C2023-004", "tournament_name": "Open de X", "category": "Z"}
    with pytest.raises(UnknownCategoryError) as err:
        tournament_params({**row, "bonus_m": 100}, PARAMS)
    message = str(err.value)
    assert "C2023-004 (Open de X)" in message
    assert "'Z'" in message and "cote_categories.csv" in message
    assert "bonus_m/pj_min/pj_max" in message


# --- the pass over all tournaments ----------------------------------------------------


def _tournament(tid: str, start: str, end: str, discipline: str = "classique", **kw) -> dict:
    row = {
        "tournament_id": tid,
        "tournament_name": f"Tournoi {tid}",
        "discipline": discipline,
        "start_date": dt.date.fromisoformat(start),
        "end_date": dt.date.fromisoformat(end),
        "category": "homologue",
        "games": 7,
        "bonus_m": None,
        "pj_min": None,
        "pj_max": None,
    }
    row.update(kw)
    return row


TOURNAMENTS = pl.DataFrame(
    [
        # Listed out of order on purpose: the pass sorts by end date, start date, id.
        _tournament("T2", "2018-11-01", "2018-11-02"),
        _tournament("T1", "2018-10-01", "2018-10-02", bonus_m=100, pj_min=-150, pj_max=300),
        _tournament("D1", "2018-09-15", "2018-09-15", discipline="duplicate"),
    ],
    schema_overrides={"bonus_m": pl.Int64, "pj_min": pl.Int64, "pj_max": pl.Int64},
)
RESULTS = pl.DataFrame(
    {
        "tournament_id": ["D1", "D1", "T1", "T1", "T1", "T1", "T2", "T2", "T2"],
        "player_id": ["D", "N", "N", "L", "S", "D", "Q", "L", "N"],
        "rank": [1, 2, 1, 2, 3, 4, 1, 2, 3],
        "series": ["4B", "7", None, None, "2", None, None, None, None],
    }
)
RATING_LISTS = pl.DataFrame(
    {
        "player_id": ["L", "L", "L", "Q"],
        "as_of": [
            dt.date(2018, 9, 1),
            dt.date(2018, 10, 1),
            dt.date(2018, 10, 15),
            dt.date(2018, 10, 15),
        ],
        "cote": [1900, 2500, 9999, 1700],
        "series": [None, None, None, None],
    },
    schema_overrides={"series": pl.String},
)
# The project's classification of 2017-2018: D in series 4 for 2018-2019.
CLASSIFIED = pl.DataFrame(
    {"season": ["2017-2018"], "player_id": ["D"], "series": ["4"], "super_serie": [False]}
)


def _held(results: pl.DataFrame, tournaments: pl.DataFrame, lists: pl.DataFrame, classified):
    """The series each player holds in each tournament (docs/rules.md §3 order)."""
    entries = results.join(tournaments, on="tournament_id").select(
        "tournament_id",
        "player_id",
        "series",
        pl.lit("2018-2019").alias("season"),
        pl.coalesce("start_date", "end_date").alias("start"),
    )
    return event_series(entries, classified, lists)


def test_cote_history_pass() -> None:
    held = _held(RESULTS, TOURNAMENTS, RATING_LISTS, CLASSIFIED)
    out = cote_history(TOURNAMENTS, RESULTS, RATING_LISTS, PARAMS, series=held)
    got = {
        (r["tournament_id"], r["player_id"]): (
            r["cote_before"],
            r["pj_raw"],
            r["pj"],
            r["cote_after"],
        )
        for r in out.to_dicts()
    }
    assert got == {
        # T1 (M_B 100, PJ −150..300 stated). Starts: L from the list of 1 Sept (the list of
        # 1 Oct is not before the start), S from series 2 on this row, D from series 4 of
        # last season's classification (the 4B written on the earlier duplicate's row does
        # not count for T1), N holds nothing → series 7 → 1500.
        ("T1", "N"): (1500, 533, 300, 1500 + 4 + 100 + 300),
        ("T1", "L"): (1900, 67, 67, 1900 + 3 + 50 + 67),
        ("T1", "S"): (2300, -133, -133, 2300 + 2 + 20 - 133),
        ("T1", "D"): (2000, -167, -150, 2000 + 1 + 10 - 150),
        # T2 (homologue, 7 games: M_B 100, PJ −125..250). L and N carry their cotes (L's
        # list of 15 Oct is ignored); Q starts from that list.
        ("T2", "Q"): (1700, 213, 213, 1700 + 3 + 100 + 213),
        ("T2", "L"): (2020, -39, -39, 2020 + 2 + 50 - 39),
        ("T2", "N"): (1904, -68, -68, 1904 + 1 + 20 - 68),
    }
    assert out["tournament_id"].to_list() == ["T1"] * 4 + ["T2"] * 3
    assert out["rank"].to_list() == [1, 2, 3, 4, 1, 2, 3]


def test_a_rating_list_series_gives_the_starting_cote() -> None:
    """R is on the list of 1 September with series 2 and no cote: R holds series 2 in T1
    (no series written, no classification) and starts at its equivalence, 2300 — not at
    the beginner's 1500. Without the `series` input only the row's series counts."""
    lists = pl.DataFrame(
        {"player_id": ["R"], "as_of": [dt.date(2018, 9, 1)], "cote": [None], "series": ["2"]},
        schema_overrides={"cote": pl.Int64, "series": pl.String},
    )
    results = pl.DataFrame(
        {"tournament_id": ["T1", "T1"], "player_id": ["R", "Z"], "rank": [2, 1]},
    ).with_columns(pl.lit(None, dtype=pl.String).alias("series"))
    held = _held(results, TOURNAMENTS, lists, CLASSIFIED.clear())
    assert dict(held.select("player_id", "series_source").rows()) == {
        "R": "rating_list",
        "Z": "default",
    }
    out = cote_history(TOURNAMENTS, results, lists, PARAMS, series=held)
    assert dict(out.select("player_id", "cote_before").rows()) == {"R": 2300, "Z": 1500}
    bare = cote_history(TOURNAMENTS, results, lists, PARAMS)
    assert dict(bare.select("player_id", "cote_before").rows()) == {"R": 1500, "Z": 1500}


def test_a_later_season_starts_from_the_prior_cotes() -> None:
    """The pass over one season carries the cotes of earlier ones (`prior`): the same
    numbers as one pass over both."""
    held = _held(RESULTS, TOURNAMENTS, RATING_LISTS, CLASSIFIED)
    whole = cote_history(TOURNAMENTS, RESULTS, RATING_LISTS, PARAMS, series=held)
    first = cote_history(
        TOURNAMENTS.filter(pl.col("tournament_id") != "T2"),
        RESULTS,
        RATING_LISTS,
        PARAMS,
        series=held,
    )
    second = cote_history(
        TOURNAMENTS.filter(pl.col("tournament_id") == "T2"),
        RESULTS,
        RATING_LISTS,
        PARAMS,
        series=held,
        prior=last_cotes(first),
    )
    assert pl.concat([first, second]).equals(whole)


def test_unknown_category_in_pass() -> None:
    tournaments = pl.DataFrame(
        [_tournament("C2023-004", "2023-01-01", "2023-01-01", category="Z")],
        schema_overrides={"bonus_m": pl.Int64, "pj_min": pl.Int64, "pj_max": pl.Int64},
    )
    results = pl.DataFrame(
        {"tournament_id": ["C2023-004"], "player_id": ["A"], "rank": [1], "series": [None]}
    )
    with pytest.raises(UnknownCategoryError, match="C2023-004"):
        cote_history(tournaments, results, RATING_LISTS.head(0), PARAMS)


def test_loader_reads_reference_files() -> None:
    params = load_cote_params(REFERENCE)
    assert params.initial_cote == 1500
    assert params.series_equivalence["SS"] == 2750 and params.series_equivalence["6"] == 1600
    assert params.bonus_divisors == (1, 2, 5, 10)
    assert (params.pj_gain, params.pj_loss) == (Fraction(2, 3), Fraction(1, 3))
    for c in params.categories:
        assert -200 <= c.pj_min <= -103 and 210 <= c.pj_max <= 400
    ranking = load_ranking_params(REFERENCE)
    assert ranking.activity_years == 2 and ranking.bar_step == 50
    assert [s for s, _ in ranking.series_shares] == ["Joker", "A", "B", "C"]
    assert sum(share for _, share in ranking.series_shares) == pytest.approx(1.0)


# --- rankings, activity, series bars -----------------------------------------------------

RANKING = RankingParams(
    activity_years=2,
    series_shares=(("Joker", 0.05), ("A", 0.10), ("B", 0.30), ("C", 0.55)),
    bar_step=50,
    calendar=SeasonCalendar(9, 1),
)


def test_years_before() -> None:
    assert years_before(dt.date(2019, 8, 31), 2) == dt.date(2017, 8, 31)
    assert years_before(dt.date(2020, 2, 29), 2) == dt.date(2018, 2, 28)


def test_activity_two_years_before_the_date() -> None:
    tournaments = pl.DataFrame(
        {
            "tournament_id": ["a", "b", "c", "d"],
            "end_date": [
                dt.date(2017, 9, 1),
                dt.date(2017, 8, 31),
                dt.date(2019, 8, 31),
                dt.date(2019, 9, 1),
            ],
        }
    )
    history = pl.DataFrame(
        {
            "tournament_id": ["a", "b", "c", "d", "c"],
            "player_id": ["A", "B", "C", "D", "A"],
            "cote_after": [1600, 1700, 1650, 1800, 1620],
        }
    )
    ranking, _ = cote_ranking(history, tournaments, dt.date(2019, 8, 31), RANKING)
    # B's last tournament is exactly two years before: inactive. D's is after the date.
    assert ranking.select("player_id", "rank", "value", "tournaments").rows() == [
        ("C", 1, 1650, 1),
        ("A", 2, 1620, 2),
    ]
    assert ranking["season"].unique().to_list() == ["2018-2019"]
    # A year later A and C are still active (within two years); D too.
    later, _ = cote_ranking(history, tournaments, dt.date(2021, 8, 30), RANKING)
    assert sorted(later["player_id"].to_list()) == ["A", "C", "D"]
    # On 31 August 2021, the tournaments of 31 August 2019 are two years old.
    assert cote_ranking(history, tournaments, dt.date(2021, 8, 31), RANKING)[0][
        "player_id"
    ].to_list() == ["D"]


def test_series_bars_rounded_to_50() -> None:
    values = [3010, 2990, 2974, 2950, 2900, 2880, 2860, 2840, 2825, 2800]
    values += list(range(2000, 1000, -100))
    # N = 20: boundaries 1, 3, 9 → cotes 3010, 2974, 2825 → bars 3000, 2950, 2850 (2825 is
    # a half: away from zero).
    assert series_bars(values, RANKING) == [("Joker", 3000), ("A", 2950), ("B", 2850)]
    assert series_bars([], RANKING) == []
    # Tiny populations: every boundary admits at least one player.
    # N = 3: boundaries 0.15, 0.45, 1.35 round to 0, 0, 1; each admits at least 1 player.
    assert series_bars([1612, 1500, 1400], RANKING) == [("Joker", 1600), ("A", 1600), ("B", 1600)]


def test_ranking_series_and_ties() -> None:
    values = [3010, 2990, 2974, 2950, 2900, 2880, 2860, 2840, 2825, 2800]
    values += list(range(2000, 1000, -100))
    values[-1] = 1200  # tie with the 19th: both 19th
    ids = [f"P{i:02d}" for i in range(20)]
    tournaments = pl.DataFrame({"tournament_id": ["t"], "end_date": [dt.date(2019, 6, 1)]})
    history = pl.DataFrame({"tournament_id": ["t"] * 20, "player_id": ids, "cote_after": values})
    ranking, bars = cote_ranking(history, tournaments, dt.date(2019, 8, 31), RANKING)
    assert bars == [("Joker", 3000), ("A", 2950), ("B", 2850)]
    counts = dict(ranking.group_by("classique_series").len().iter_rows())
    assert counts == {"Joker": 1, "A": 3, "B": 3, "C": 13}
    assert ranking["rank"].to_list()[-2:] == [19, 19]


def test_season_rankings_and_bars_frame() -> None:
    tournaments = pl.DataFrame(
        {
            "tournament_id": ["t1", "t2"],
            "discipline": ["classique", "classique"],
            "end_date": [dt.date(2018, 10, 1), dt.date(2020, 3, 1)],
        }
    )
    history = pl.DataFrame(
        {
            "tournament_id": ["t1", "t1", "t2"],
            "player_id": ["A", "B", "A"],
            "cote_after": [1710, 1490, 1760],
        }
    )
    ranking, bars = season_cote_rankings(history, tournaments, RANKING)
    assert ranking.select("season", "player_id", "rank", "value", "classique_series").rows() == [
        ("2018-2019", "A", 1, 1710, "Joker"),
        ("2018-2019", "B", 2, 1490, "C"),
        ("2019-2020", "A", 1, 1760, "Joker"),
        ("2019-2020", "B", 2, 1490, "C"),  # t1 (October 2018) is within two years
    ]
    # N = 2: every boundary is the first player (1710 → 1700; 1760 → 1750).
    assert bars.rows() == [
        ("2018-2019", dt.date(2019, 9, 1), "Joker", 1700),
        ("2018-2019", dt.date(2019, 9, 1), "A", 1700),
        ("2018-2019", dt.date(2019, 9, 1), "B", 1700),
        ("2019-2020", dt.date(2020, 9, 1), "Joker", 1750),
        ("2019-2020", dt.date(2020, 9, 1), "A", 1750),
        ("2019-2020", dt.date(2020, 9, 1), "B", 1750),
    ]


def test_pass_refuses_the_first_tournament_that_cannot_be_rated() -> None:
    """The pass checks every tournament before rating: the first one in event order that
    cannot be rated is named (T1 ends before T2), as rating them one by one would."""
    twice = RESULTS.with_columns(
        pl.when((pl.col("tournament_id") == "T1") & (pl.col("player_id") == "D"))
        .then(pl.lit("L"))
        .otherwise(pl.col("player_id"))
        .alias("player_id")
    )
    beyond = RESULTS.with_columns(
        pl.when(pl.col("tournament_id") == "T2").then(pl.col("rank") * 2).otherwise("rank")
    )
    unranked = RESULTS.with_columns(
        pl.when(pl.col("tournament_id") == "T2").then(None).otherwise("rank").alias("rank")
    )
    both_broken = pl.concat(
        [
            twice.filter(pl.col("tournament_id") == "T1"),
            beyond.filter(pl.col("tournament_id") == "T2"),
        ]
    )
    with pytest.raises(CoteError, match="T1: a player is listed more than once"):
        cote_history(TOURNAMENTS, both_broken, RATING_LISTS, PARAMS)
    with pytest.raises(CoteError, match=r"T2: ranks must lie in 1\.\.3"):
        cote_history(TOURNAMENTS, beyond, RATING_LISTS, PARAMS)
    with pytest.raises(CoteError, match="T2: every player needs a rank"):
        cote_history(TOURNAMENTS, unranked, RATING_LISTS, PARAMS)


def test_pass_equals_rating_each_tournament_in_turn() -> None:
    """The pass over a season (players by index, one frame at the end) gives the rows of
    `rate_tournament` applied tournament after tournament, each player's cote carried:
    40 tournaments of 3–25 of 60 players, tied ranks, stated and category parameters."""
    rng = random.Random(2025)
    tournaments, results = [], []
    for t in range(40):
        day = dt.date(2019, 1, 1) + dt.timedelta(days=3 * t)
        stated = {"bonus_m": 120, "pj_min": -90, "pj_max": 180} if t % 3 == 0 else {}
        tid = f"T{t:02d}"
        tournaments.append(_tournament(tid, day.isoformat(), day.isoformat(), **stated))
        players = rng.sample([f"p{i:02d}" for i in range(60)], rng.randint(3, 25))
        ranks = sorted(rng.randint(1, len(players)) for _ in players)
        ranks = [1 + sum(r < x for r in ranks) for x in ranks]  # competition places
        results += [
            (tid, p, r, rng.choice([None, "3", "5"])) for p, r in zip(players, ranks, strict=True)
        ]
    frame = pl.DataFrame(
        tournaments,
        schema_overrides={"bonus_m": pl.Int64, "pj_min": pl.Int64, "pj_max": pl.Int64},
    )
    rows = pl.DataFrame(
        results, schema=["tournament_id", "player_id", "rank", "series"], orient="row"
    )
    got = cote_history(frame, rows, RATING_LISTS, PARAMS)

    starts = starting_cotes(
        ordered_tournaments(frame, PARAMS.disciplines), rows, RATING_LISTS, None, PARAMS
    )
    cotes: dict[str, int] = {}
    expected = []
    for tournament in frame.iter_rows(named=True):
        tid = tournament["tournament_id"]
        players = rows.filter(pl.col("tournament_id") == tid).join(
            starts, on=["tournament_id", "player_id"]
        )
        before = [cotes.get(p, s) for p, s in players.select("player_id", "start_cote").rows()]
        rated = rate_tournament(
            players.with_columns(cote_before=pl.Series(before, dtype=pl.Int64)),
            tournament_params(tournament, PARAMS),
            PARAMS,
            tournament_id=tid,
            season=tournament.get("season"),
        ).sort("rank", "player_id")
        cotes.update(rated.select("player_id", "cote_after").rows())
        expected.append(rated)
    assert got.equals(pl.concat(expected))
