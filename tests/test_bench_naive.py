"""The benchmark's naive implementation (benchmarks/naive.py): the same numbers as the fast
transforms on every season of the bundled sample, the worked examples of docs/rules.md
§1–§3 (the inputs of test_cote, test_elo and test_series), and a comparison that does
catch a changed number."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from benchmarks.naive import (
    naive_classify_season,
    naive_cote_history,
    naive_duplicate_event_scores,
    naive_elo_history,
    naive_event_series,
    naive_provisional_changes,
    naive_season_standings,
    run_season,
)
from benchmarks.season import (
    TABLE_KEYS,
    SeasonInputs,
    compare_table,
    fast_season,
    read_season_inputs,
    same_numbers,
)
from pipelines.paths import REFERENCE_DIR
from pipelines.reference.series import load_series_params, load_series_quotas
from pipelines.warehouse import Warehouse
from tests.test_cote import CLASSIFIED, PARAMS, RATING_LISTS, RESULTS, TOURNAMENTS
from tests.test_elo import DEFAULT, FIDE, NO_RESULTS
from tests.test_series import (
    FEDERATIONS,
    NO_NEW,
    SEASON,
    _event,
    _hundred,
    _no_rest_quotas,
    _random_season,
    _small_quotas,
    _standings,
)
from transforms.cote import cote_history
from transforms.elo import elo_history
from transforms.series import classify_season, duplicate_event_scores, season_standings
from transforms.series_provisional import provisional_changes

SERIES_PARAMS = load_series_params(REFERENCE_DIR)
QUOTAS = load_series_quotas(REFERENCE_DIR)

# --------------------------------------------------------------------------- the sample


@pytest.fixture(scope="module")
def sample_inputs(sample_site: Path) -> list[SeasonInputs]:
    """Every season of the built sample, its inputs read as the bench reads them."""
    warehouse = Warehouse(sample_site / "w.duckdb")
    with warehouse.reading():  # one connection for every read
        seasons = warehouse.read("SELECT DISTINCT season FROM tournaments ORDER BY season")
        return [
            read_season_inputs(warehouse, season, REFERENCE_DIR)
            for season in seasons.get_column("season").to_list()
        ]


@pytest.mark.slow
def test_naive_gives_the_fast_numbers_on_every_sample_season(
    sample_inputs: list[SeasonInputs],
) -> None:
    assert len(sample_inputs) == 3
    for inputs in sample_inputs:
        fast = fast_season(inputs)
        assert set(fast) == set(TABLE_KEYS)
        for name in ("cote_history", "elo_history", "series_provisional", "series_bars"):
            assert fast[name].height > 0, (inputs.season, name)
        assert same_numbers(fast, run_season(inputs)) == [], inputs.season


@pytest.mark.slow
def test_the_comparison_catches_a_changed_number(sample_inputs: list[SeasonInputs]) -> None:
    fast = fast_season(sample_inputs[1])
    assert same_numbers(fast, fast) == []

    def changed(name: str, frame: pl.DataFrame) -> list[str]:
        return same_numbers(fast, {**fast, name: frame})

    cotes = fast["cote_history"]
    one_more = cotes.with_columns(
        pl.when(pl.int_range(pl.len()) == 5).then(pl.col("cote_after") + 1).otherwise("cote_after")
    )
    assert len(changed("cote_history", one_more)) == 1
    assert "cote_after" in changed("cote_history", one_more)[0]

    standings = fast["series_standings"]
    best = standings.row(standings["pct_n2"].arg_max() or 0, named=True)
    assert best["pct_n2"] > 0
    for factor, reported in ((1 + 1e-6, True), (1 + 1e-12, False)):
        scaled = standings.with_columns(
            pl.when(pl.col("player_id") == best["player_id"])
            .then(pl.col("pct_n2") * factor)
            .otherwise("pct_n2")
        )
        assert bool(changed("series_standings", scaled)) is reported

    provisional = fast["series_provisional"]
    last = provisional.height - 1  # after another event: never a tie
    swapped = pl.concat(
        [provisional.slice(last, 1), provisional.slice(1, last - 1), provisional.slice(0, 1)]
    )
    assert any("row order" in p for p in changed("series_provisional", swapped))
    assert changed("series_provisional", provisional.slice(1))
    renamed = fast["series_classification"].with_columns(
        pl.when(pl.int_range(pl.len()) == 0).then(pl.lit("2")).otherwise("series").alias("series")
    )
    assert changed("series_classification", renamed)
    assert changed("elo_history", fast["elo_history"].with_columns(pl.col("k").cast(pl.Int64)))
    assert same_numbers(fast, {k: v for k, v in fast.items() if k != "series_bars"}) == [
        "series_bars: missing from the naive tables"
    ]


def test_rows_tied_within_the_tolerance_may_swap_others_may_not() -> None:
    def table(rows: list[tuple[str, str, float]]) -> pl.DataFrame:
        frame = pl.DataFrame(rows, schema=["player_id", "series", "value"], orient="row")
        return frame.with_columns(
            pl.lit(SEASON).alias("season"),
            pl.lit(None, dtype=pl.String).alias("subseries"),
        )

    key = TABLE_KEYS["series_classification"]
    fast = table([("a", "4", 90.0), ("b", "4", 90.0), ("c", "4", 80.0)])
    noisy = table([("b", "4", 90.0), ("a", "4", 89.99999999999999), ("c", "4", 80.0)])
    assert compare_table("series_classification", fast, noisy, key) == []
    apart = table([("b", "4", 90.0), ("a", "4", 89.9), ("c", "4", 80.0)])
    assert len(compare_table("series_classification", fast, apart, key)) == 2  # order, value
    other = table([("c", "4", 80.0), ("b", "4", 90.0), ("a", "4", 90.0)])
    assert compare_table("series_classification", fast, other, key) == [
        "series_classification: row order differs from row 0: ('a',) (fast) != ('c',) (naive)"
    ]
    # A table not sorted by a float: any other order is a difference.
    assert compare_table("series_movements", fast, noisy, ("player_id",))


# --------------------------------------------------------------------------- §1 cote


def _one_tournament(
    cotes: list[int], ranks: list[int], bonus_m: int, pj_min: int, pj_max: int
) -> dict[str, tuple]:
    """One classique tournament with stated parameters; the players start from `cotes`
    (given as the cotes earlier tournaments left them)."""
    ids = [f"p{i}" for i in range(len(cotes))]
    tournaments = pl.DataFrame(
        {
            "tournament_id": ["T"],
            "discipline": ["classique"],
            "start_date": [dt.date(2007, 11, 1)],
            "end_date": [dt.date(2007, 11, 4)],
            "season": ["2007-2008"],
            "category": ["mondial"],
            "games": [7],
            "bonus_m": [bonus_m],
            "pj_min": [pj_min],
            "pj_max": [pj_max],
        }
    )
    results = pl.DataFrame(
        {"tournament_id": ["T"] * len(ids), "player_id": ids, "rank": ranks, "series": None},
        schema_overrides={"series": pl.String},
    )
    prior = pl.DataFrame({"player_id": ids, "cote": cotes})
    no_lists = RATING_LISTS.clear()
    naive = naive_cote_history(tournaments, results, no_lists, PARAMS, prior=prior)
    fast = cote_history(tournaments, results, no_lists, PARAMS, prior=prior)
    assert compare_table("cote_history", fast, naive, TABLE_KEYS["cote_history"]) == []
    return {
        r["player_id"]: tuple(
            r[c] for c in ("initial_place", "pe", "bonus", "pj_raw", "pj", "cote_after")
        )
        for r in naive.to_dicts()
    }


def test_naive_cote_worked_examples() -> None:
    # 1500 wins where the top cote is 2000: PJ +333; 2000 at a place of reference 1500: −167.
    got = _one_tournament([2000, 1500], [2, 1], 100, -1000, 1000)
    assert got["p1"] == (2, 2, 100, 333, 333, 1500 + 2 + 100 + 333)
    assert got["p0"] == (1, 1, 50, -167, -167, 2000 + 1 + 50 - 167)
    # The 2007 World Cup: 1763, 36 players, winner, M 250, reference 2586, PJmax 400 → 2449.
    cotes = [2586, *(1500 + 5 * i for i in range(34)), 1763]
    got = _one_tournament(cotes, [*range(2, 36), 36, 1], 250, -200, 400)
    assert got["p35"] == (2, 36, 250, 549, 400, 2449)


def test_naive_cote_pass_starting_cotes() -> None:
    """test_cote's pass: starts from a list, a written series, last season's class."""
    entries = RESULTS.join(TOURNAMENTS, on="tournament_id").select(
        "tournament_id",
        "player_id",
        "series",
        pl.lit("2018-2019").alias("season"),
        pl.coalesce("start_date", "end_date").alias("start"),
    )
    held = naive_event_series(entries, CLASSIFIED, RATING_LISTS)
    out = naive_cote_history(TOURNAMENTS, RESULTS, RATING_LISTS, PARAMS, series=held)
    got = {
        (r["tournament_id"], r["player_id"]): tuple(
            r[c] for c in ("cote_before", "pj_raw", "pj", "cote_after")
        )
        for r in out.to_dicts()
    }
    assert got == {
        ("T1", "N"): (1500, 533, 300, 1500 + 4 + 100 + 300),
        ("T1", "L"): (1900, 67, 67, 1900 + 3 + 50 + 67),
        ("T1", "S"): (2300, -133, -133, 2300 + 2 + 20 - 133),
        ("T1", "D"): (2000, -167, -150, 2000 + 1 + 10 - 150),
        ("T2", "Q"): (1700, 213, 213, 1700 + 3 + 100 + 213),
        ("T2", "L"): (2020, -39, -39, 2020 + 2 + 50 - 39),
        ("T2", "N"): (1904, -68, -68, 1904 + 1 + 20 - 68),
    }
    fast = cote_history(TOURNAMENTS, RESULTS, RATING_LISTS, PARAMS, series=held)
    assert compare_table("cote_history", fast, out, TABLE_KEYS["cote_history"]) == []


# --------------------------------------------------------------------------- §2 Elo


@pytest.mark.parametrize(
    ("scores", "change"), [((400, 300), 15.2), ((350, 350), 5.2), ((300, 400), -4.8)]
)
def test_naive_elo_example_1500_against_1700(scores: tuple[int, int], change: float) -> None:
    # [003]: 1500 against 1700, K 20 (40 rated games, adult, below 2400): E ≈ 0.24.
    tournaments = pl.DataFrame(
        {
            "tournament_id": ["T"],
            "discipline": ["classique"],
            "start_date": [dt.date(2024, 1, 10)],
            "end_date": [dt.date(2024, 1, 10)],
        }
    )
    games = pl.DataFrame(
        {
            "tournament_id": ["T"],
            "round": [1],
            "player_id": ["a"],
            "opponent_id": ["b"],
            "player_score": [scores[0]],
            "opponent_score": [scores[1]],
        }
    )
    lists = pl.DataFrame(
        {
            "player_id": ["a", "b"],
            "as_of": [dt.date(2024, 1, 1)] * 2,
            "elo": [1500.0, 1700.0],
            "elo_games": [40, 40],
        }
    )
    naive = naive_elo_history(tournaments, games, lists, NO_RESULTS, DEFAULT)
    a = naive.filter(pl.col("player_id") == "a").row(0, named=True)
    assert (a["k"], round(a["expected"], 2), round(a["delta"], 1)) == (20.0, 0.24, change)
    fast = elo_history(tournaments, games, lists, NO_RESULTS, DEFAULT)
    assert compare_table("elo_history", fast, naive, TABLE_KEYS["elo_history"]) == []
    # FIDE switches: the change rounded half away from zero.
    rounded = naive_elo_history(tournaments, games, lists, NO_RESULTS, FIDE)
    assert rounded.filter(pl.col("player_id") == "a")["delta"][0] == float(round(change))


# --------------------------------------------------------------------------- §3 series


def test_naive_pc_example_100_players_4_games() -> None:
    results, events = _event([(f"p{i:03d}", i, "6") for i in range(1, 101)], games=4)
    scores = naive_duplicate_event_scores(results, events)
    assert scores["pc"].head(5).to_list() == [500.0, 495.0, 490.0, 485.0, 480.0]
    assert scores["pc"][-1] == 5.0
    fast = duplicate_event_scores(results, events)
    key = TABLE_KEYS["duplicate_event_scores"]
    assert compare_table("duplicate_event_scores", fast, scores, key) == []


def test_naive_zones_with_empty_zone_ties_winner_and_fallback() -> None:
    results, events = _event(
        [
            ("w", 1, "3"),
            ("ss", 2, "SS"),
            ("s1", 3, "1"),
            ("t3", 3, "3"),
            ("f4", 5, None),
            ("s3", 6, "3"),
            ("s5", 7, "5"),
            ("s4", 8, "4"),
            ("nw", 9, None),
        ]
    )
    previous = pl.DataFrame(
        {"season": ["2022-2023"], "player_id": ["f4"], "series": ["4"], "super_serie": [False]}
    )
    entries = results.with_columns(
        pl.lit(SEASON).alias("season"), pl.lit(dt.date(2024, 1, 7)).alias("start")
    )
    no_lists = pl.DataFrame(schema={"player_id": pl.String, "as_of": pl.Date, "series": pl.String})
    held = naive_event_series(entries, previous, no_lists)
    got = {
        r["player_id"]: r for r in naive_duplicate_event_scores(results, events, held).to_dicts()
    }
    zones = [(got["w"][f"zone{x}_a"], got["w"][f"zone{x}_b"]) for x in (1, 2, 3, 4)]
    assert zones == [(1, 2), (3, 2), (3, 5), (6, 7)]
    expected = {
        "w": (100.0, 100.0, 100.0, 100.0),
        "ss": (50.0, 100.0, 100.0, 100.0),
        "s1": (0.0, 0.0, 100.0, 100.0),
        "t3": (0.0, 0.0, 100.0, 100.0),
        "f4": (0.0, 0.0, 100.0 / 3.0, 100.0),
        "s3": (0.0, 0.0, 0.0, 100.0),
        "s5": (0.0, 0.0, 0.0, 50.0),
        "s4": (0.0, 0.0, 0.0, 0.0),
        "nw": (0.0, 0.0, 0.0, 0.0),
    }
    for pid, pct in expected.items():
        assert tuple(got[pid][f"pct_n{x}"] for x in (1, 2, 3, 4)) == pytest.approx(pct)
    assert (got["f4"]["series"], got["f4"]["series_source"]) == ("4", "classification")
    assert (got["nw"]["series"], got["nw"]["series_source"]) == ("7", "default")


def _both_classifications(standings: pl.DataFrame, quotas, held=None):
    naive = naive_classify_season(
        standings, NO_NEW, quotas, SERIES_PARAMS, held, federations=FEDERATIONS
    )
    fast = classify_season(standings, NO_NEW, quotas, SERIES_PARAMS, held, federations=FEDERATIONS)
    for name, a, b in (
        ("series_classification", fast.classification, naive.classification),
        ("series_bars", fast.bars, naive.bars),
        ("series_movements", fast.movements, naive.movements),
    ):
        assert compare_table(name, a, b, TABLE_KEYS[name]) == []
    return naive


def test_naive_tie_at_the_bar_admits_an_extra_player() -> None:
    rows = {
        "a": (90.0, 0.0, 0.0, 0.0, 0.0),
        "b": (80.0, 95.0, 0.0, 0.0, 0.0),
        "c": (10.0, 20.0, 70.0, 0.0, 0.0),
        "d": (10.0, 20.0, 60.0, 0.0, 0.0),
        "e": (10.0, 20.0, 60.0, 0.0, 0.0),
        "f": (10.0, 20.0, 10.0, 50.0, 0.0),
        "g": (10.0, 20.0, 10.0, 40.0, 0.0),
        "h": (10.0, 20.0, 10.0, 30.0, 30.0),
        "i": (10.0, 20.0, 10.0, 20.0, 20.0),
        "j": (10.0, 20.0, 10.0, 10.0, 10.0),
    }
    result = _both_classifications(_standings(rows, fed="XYZ"), _small_quotas())
    got = dict(result.classification.select("player_id", "series").iter_rows())
    assert got == dict(zip("abcdefghij", "1233346556", strict=True))
    bars = {
        r["series"]: (r["bar"], r["admitted"], r["target"])
        for r in result.bars.to_dicts()
        if r["subseries"] is None
    }
    assert bars["3"] == (60.0, 3, 2)
    assert bars["4"][:2] == (50.0, 1)
    assert bars["5"][:2] == (20.0, 2) and bars["6"][0] == 0.0


def test_naive_subseries_france_with_tie() -> None:
    standings = _hundred("FFSc").with_columns(
        pl.when(pl.col("player_id") == "p009")
        .then(pl.lit(100 - 8 / 2))
        .otherwise(pl.col("pct_n4"))
        .alias("pct_n4")
    )
    sub = dict(
        _both_classifications(standings, QUOTAS)
        .classification.select("player_id", "subseries")
        .iter_rows()
    )
    assert [sub[f"p{i:03d}"] for i in range(6, 18)] == [
        *["4A"] * 4,
        *["4B"] * 2,
        *["4C"] * 3,
        *["4D"] * 3,
    ]
    assert sub["p000"] == "1A"


def test_naive_movements() -> None:
    rows = {
        p: (100.0 - i, 100.0 - i, 100.0 - i, 100.0 - i, 100.0 - i)
        for i, p in enumerate("abcdefghij")
    }
    held = pl.DataFrame({"player_id": ["a", "b", "c", "j"], "series": ["SS", "4", "3", "6"]})
    result = _both_classifications(_standings(rows, fed="XYZ"), _small_quotas(), held)
    moves = {r["player_id"]: r["movement"] for r in result.movements.to_dicts()}
    assert (moves["a"], moves["b"], moves["c"], moves["j"], moves["d"]) == (
        "relegated",
        "promoted",
        "unchanged",
        "unchanged",
        "new",
    )


def test_naive_provisional_after_each_event() -> None:
    r1, e1 = _event([("a", 1, "2"), ("b", 2, "2")], tid="E1")
    r2, e2 = _event([("b", 1, "2"), ("c", 2, "2")], tid="E2")
    events = pl.concat([e1, e2]).with_columns(
        pl.Series("end_date", [dt.date(2023, 11, 1), dt.date(2023, 10, 1)])
    )
    scores = naive_duplicate_event_scores(pl.concat([r1, r2]), events)
    new = pl.DataFrame({"player_id": ["n"], "federation": ["XYZ"]})
    changes = naive_provisional_changes(scores, events, _small_quotas(), SERIES_PARAMS, new)
    rows = [(r["after_tournament_id"], r["player_id"], r["series"]) for r in changes.to_dicts()]
    # After E2 (first by end date), N = 3: b → 2, c → 4, n → 7. After E1, N = 4: a → 2,
    # b and c tie at %N3 100 → 3 (only the changes are stored).
    assert rows == [
        ("E2", "b", "2"),
        ("E2", "c", "4"),
        ("E2", "n", "7"),
        ("E1", "a", "2"),
        ("E1", "b", "3"),
        ("E1", "c", "3"),
    ]
    fast = provisional_changes(scores, events, _small_quotas(), SERIES_PARAMS, new)
    key = TABLE_KEYS["series_provisional"]
    assert compare_table("series_provisional", fast, changes, key) == []


@pytest.mark.parametrize(
    ("seed", "quota_kind", "divisor"),
    [(1, "reference", 0.0), (2, "small", 0.0), (3, "reference", 2.5), (4, "no_rest", 0.0)],
)
def test_naive_equals_fast_on_random_seasons(seed: int, quota_kind: str, divisor: float) -> None:
    """test_series's random seasons (ties, coefficients, tied end dates, a new licensee who
    plays, quotas without a rest series, a minimum divisor), split between federations with
    and without sub-series: every series table the same."""
    quotas = {"reference": QUOTAS, "small": _small_quotas(), "no_rest": _no_rest_quotas()}
    quota_table = quotas[quota_kind]
    params = dataclasses.replace(SERIES_PARAMS, minimum_divisor=divisor)
    results, events, new = _random_season(seed)
    ids = sorted(set(results["player_id"]))
    written = ("FFSc", "Belgique", "XYZ", None)
    feds = pl.DataFrame(
        {"player_id": ids, "federation": [written[j % 4] for j in range(len(ids))]},
        schema={"player_id": pl.String, "federation": pl.String},
    )
    previous = pl.DataFrame({"player_id": ids[::3], "super_serie_season": [80.0] * len(ids[::3])})
    fast_scores = duplicate_event_scores(results, events)
    scores = naive_duplicate_event_scores(results, events)
    fast: dict[str, pl.DataFrame] = {"duplicate_event_scores": fast_scores}
    naive: dict[str, pl.DataFrame] = {"duplicate_event_scores": scores}
    fast["series_standings"] = season_standings(scores, events, params, feds, previous)
    naive["series_standings"] = naive_season_standings(scores, events, params, feds, previous)
    labels = ("SS", "3", "6", "Série 5 A")
    held = pl.DataFrame(
        {"player_id": ids[::2], "series": [labels[j % 4] for j in range(len(ids[::2]))]}
    )
    new = new.with_columns(pl.lit(SEASON).alias("season"))
    for out, classify in ((fast, classify_season), (naive, naive_classify_season)):
        result = classify(
            fast["series_standings"], new, quota_table, params, held, federations=FEDERATIONS
        )
        out["series_classification"] = result.classification
        out["series_bars"] = result.bars
        out["series_movements"] = result.movements
    fast["series_provisional"] = provisional_changes(scores, events, quota_table, params, new)
    naive["series_provisional"] = naive_provisional_changes(
        scores, events, quota_table, params, new
    )
    assert same_numbers(fast, naive) == []
    if quota_kind == "reference":  # only its quotas have sub-series
        assert naive["series_classification"]["subseries"].drop_nulls().len() > 0
    if quota_kind == "no_rest":
        assert naive["series_provisional"]["series"].null_count() > 0  # left the classification
