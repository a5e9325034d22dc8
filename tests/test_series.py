"""docs/rules.md §3: %N1–%N4 zones, PC, weighted means, super-série, cascade, sub-series."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from pipelines.reference.federations import load_federations
from pipelines.reference.series import load_series_params, load_series_quotas
from transforms.calendar import ordered_events
from transforms.distinct import per_distinct
from transforms.series import (
    CASCADE_SERIES,
    CRITERIA,
    TIE_TOLERANCE,
    QuotaRow,
    SeriesParams,
    SeriesQuotas,
    classify_season,
    duplicate_event_scores,
    event_coefficients,
    federation_key_expr,
    quota_check,
    season_standings,
    series_boundaries,
    series_boundaries_array,
)
from transforms.series_labels import series_level, series_level_of
from transforms.series_population import event_series
from transforms.series_provisional import (
    _running_standings,
    provisional_as_of,
    provisional_changes,
    provisional_classification,
)

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference"
PCT = [f"pct_n{x}" for x in (1, 2, 3, 4)]
SEASON = "2023-2024"
FEDERATIONS = load_federations(REFERENCE)


@pytest.fixture(scope="module")
def quotas() -> SeriesQuotas:
    return load_series_quotas(REFERENCE)


@pytest.fixture(scope="module")
def params() -> SeriesParams:
    return load_series_params(REFERENCE)


def _small_quotas() -> SeriesQuotas:
    """Series shares 10/10/20/20/20/rest: easy boundaries for ten players."""
    rows = [
        QuotaRow("*", s, None, Fraction(p))
        for s, p in zip(range(1, 6), (10, 10, 20, 20, 20), strict=True)
    ]
    rows.append(QuotaRow("*", 6, None, None))
    return SeriesQuotas(tuple(rows))


def _event(players: list[tuple[str, int, str | None]], games: int = 4, tid: str = "T1"):
    results = pl.DataFrame(
        {
            "tournament_id": [tid] * len(players),
            "player_id": [p for p, _, _ in players],
            "rank": [r for _, r, _ in players],
            "series": [s for _, _, s in players],
        },
        schema={
            "tournament_id": pl.String,
            "player_id": pl.String,
            "rank": pl.Int64,
            "series": pl.String,
        },
    )
    events = pl.DataFrame({"tournament_id": [tid], "season": [SEASON], "games": [games]})
    return results, events


def _standings(rows: dict[str, tuple[float, float, float, float, float]], fed: str = "FRA"):
    ids = sorted(rows)
    return pl.DataFrame(
        {
            "season": [SEASON] * len(ids),
            "player_id": ids,
            "federation": [fed] * len(ids),
            "events": [1] * len(ids),
            "pct_n1": [rows[i][0] for i in ids],
            "pct_n2": [rows[i][1] for i in ids],
            "pct_n3": [rows[i][2] for i in ids],
            "pct_n4": [rows[i][3] for i in ids],
            "pc": [rows[i][4] for i in ids],
            "super_serie_pct": [0.0] * len(ids),
        }
    )


NO_NEW = pl.DataFrame(schema={"player_id": pl.String, "federation": pl.String})


def _series_of(frame: pl.DataFrame) -> dict[str, str]:
    return dict(frame.select("player_id", "series").iter_rows())


# --------------------------------------------------------------------------- PC


def test_pc_example_100_players_4_games() -> None:
    players = [(f"p{i:03d}", i, "6") for i in range(1, 101)]
    results, events = _event(players, games=4)
    scores = duplicate_event_scores(results, events).sort("place")
    assert scores.get_column("pc").head(5).to_list() == [500.0, 495.0, 490.0, 485.0, 480.0]
    assert scores.get_column("pc").tail(1).to_list() == [5.0]


def test_pc_is_exact_and_ties_share_the_best_place() -> None:
    # 3 players, 3 games: step 3.75, M = 11.25; two tied 1st, the next is 3rd.
    results, events = _event([("a", 1, "6"), ("b", 1, "6"), ("c", 3, "6")], games=3)
    pc = dict(duplicate_event_scores(results, events).select("player_id", "pc").iter_rows())
    assert pc == {"a": 11.25, "b": 11.25, "c": 3.75}


# --------------------------------------------------------------------------- zones


def test_percentages_by_zone_with_empty_zone_ties_winner_and_fallback() -> None:
    results, events = _event(
        [
            ("w", 1, "3"),  # winner from series 3
            ("ss", 2, "SS"),  # super-série counts as series 1
            ("s1", 3, "1"),
            ("t3", 3, "3"),  # tied 3rd with s1
            ("f4", 5, None),  # no series written: season series 4
            ("s3", 6, "3"),
            ("s5", 7, "5"),
            ("s4", 8, "4"),
            ("nw", 9, None),  # nothing known: series 7
        ]
    )
    # f4: series 4 by last season's classification; nw: nothing anywhere.
    previous = pl.DataFrame(
        {"season": ["2022-2023"], "player_id": ["f4"], "series": ["4"], "super_serie": [False]}
    )
    entries = results.with_columns(
        pl.lit(SEASON).alias("season"), pl.lit(dt.date(2024, 1, 7)).alias("start")
    )
    no_lists = pl.DataFrame(schema={"player_id": pl.String, "as_of": pl.Date, "series": pl.String})
    held = event_series(entries, previous, no_lists)
    scores = duplicate_event_scores(results, events, held)
    got = {r["player_id"]: r for r in scores.iter_rows(named=True)}
    # Zones: series 1 = {ss, s1} → a=1, b=2; N2 empty → a=3, b=2;
    # N3 = {w, t3, s3} → a=3, b=5; N4 = {f4, s4} → a=6, b=7.
    assert (got["w"]["zone1_a"], got["w"]["zone1_b"]) == (1, 2)
    assert (got["w"]["zone2_a"], got["w"]["zone2_b"]) == (3, 2)
    assert (got["w"]["zone3_a"], got["w"]["zone3_b"]) == (3, 5)
    assert (got["w"]["zone4_a"], got["w"]["zone4_b"]) == (6, 7)
    expected = {
        #        %N1    %N2    %N3          %N4
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
        row = got[pid]
        assert (row["pct_n1"], row["pct_n2"], row["pct_n3"], row["pct_n4"]) == pytest.approx(pct)
    assert got["f4"]["series"] == "4" and got["f4"]["series_source"] == "classification"
    assert got["nw"]["series"] == "7" and got["nw"]["series_source"] == "default"
    assert got["ss"]["series"] == "SS" and got["ss"]["series_source"] == "results"


# --------------------------------------------------------------------------- standings


def _two_events() -> tuple[pl.DataFrame, pl.DataFrame]:
    scores = pl.DataFrame(
        {
            "season": [SEASON] * 3,
            "tournament_id": ["E1", "E2", "E1"],
            "player_id": ["a", "a", "b"],
            "pct_n1": [100.0, 50.0, 40.0],
            "pct_n2": [100.0, 100.0, 80.0],
            "pct_n3": [100.0, 100.0, 100.0],
            "pct_n4": [100.0, 100.0, 100.0],
            "pc": [20.0, 7.5, 10.0],
        }
    )
    # E1 has no coefficient and an unknown category: default 1; E2 states 2.
    events = pl.DataFrame(
        {"tournament_id": ["E1", "E2"], "category": ["inconnue", None], "coefficient": [None, 2.0]},
        schema={"tournament_id": pl.String, "category": pl.String, "coefficient": pl.Float64},
    )
    return scores, events


def test_weighted_means_without_minimum_divisor(params: SeriesParams) -> None:
    scores, events = _two_events()
    st = {r["player_id"]: r for r in season_standings(scores, events, params).iter_rows(named=True)}
    assert st["a"]["pct_n1"] == pytest.approx((100 * 1 + 50 * 2) / 3)
    assert st["a"]["events"] == 2
    assert st["a"]["pc"] == 27.5
    assert st["b"]["pct_n1"] == pytest.approx(40.0)
    assert st["a"]["super_serie_season"] == pytest.approx(200 / 3)


def test_minimum_divisor_replaces_a_smaller_sum_of_weights(params: SeriesParams) -> None:
    scores, events = _two_events()
    strict = SeriesParams(**{**params.__dict__, "minimum_divisor": 4.0})
    st = {r["player_id"]: r for r in season_standings(scores, events, strict).iter_rows(named=True)}
    assert st["a"]["pct_n1"] == pytest.approx(200 / 4)  # weights 3 < D = 4
    assert st["b"]["pct_n1"] == pytest.approx(40 / 4)
    assert st["a"]["pct_n2"] == pytest.approx(300 / 4)
    # The super-série percentage ignores D.
    assert st["a"]["super_serie_season"] == pytest.approx(200 / 3)
    assert st["b"]["super_serie_season"] == pytest.approx(40.0)


def test_category_coefficient_applies_when_export_has_none(params: SeriesParams) -> None:
    scores, events = _two_events()
    by_cat = SeriesParams(**{**params.__dict__, "coefficient_by_category": {"Inconnue": 3.0}})
    st = season_standings(scores, events, by_cat).filter(pl.col("player_id") == "a")
    assert st.get_column("pct_n1")[0] == pytest.approx((100 * 3 + 50 * 2) / 5)


def test_super_serie_three_quarters_current_one_quarter_previous(params: SeriesParams) -> None:
    scores, events = _two_events()
    previous = pl.DataFrame({"player_id": ["b"], "super_serie_season": [80.0]})
    st = {
        r["player_id"]: r
        for r in season_standings(scores, events, params, previous=previous).iter_rows(named=True)
    }
    assert st["b"]["super_serie_pct"] == pytest.approx(0.75 * 40 + 0.25 * 80)  # 50
    # a was absent last season: that season counts 0.
    assert st["a"]["super_serie_pct"] == pytest.approx(0.75 * 200 / 3)  # 50
    assert st["a"]["super_serie_previous"] == 0.0


def _all_in_series_one() -> SeriesQuotas:
    """Series 1 takes every player (2–5 take none, 6 the rest)."""
    shares = {1: Fraction(100), 2: Fraction(0), 3: Fraction(0), 4: Fraction(0), 5: Fraction(0)}
    rows = [QuotaRow("*", s, None, share) for s, share in shares.items()]
    return SeriesQuotas((*rows, QuotaRow("*", 6, None, None)))


def test_super_serie_top_n_strictly_above_threshold() -> None:
    quotas = _all_in_series_one()
    standings = _standings({p: (50.0, 0, 0, 0, 0) for p in "abcde"}).with_columns(
        pl.Series("super_serie_pct", [90.0, 70.0, 70.0, 60.0, 50.0])
    )
    params = SeriesParams(super_serie_size=2, super_serie_threshold=50.0)
    result = classify_season(standings, NO_NEW, quotas, params, federations=FEDERATIONS)
    ss = set(result.classification.filter(pl.col("super_serie")).get_column("player_id"))
    assert ss == {"a", "b", "c"}  # b and c tied at the 2nd place: both in
    bar = result.bars.filter(pl.col("series") == "SS").row(0, named=True)
    assert (bar["bar"], bar["admitted"], bar["target"]) == (70.0, 3, 2)
    params_all = SeriesParams(super_serie_size=30, super_serie_threshold=50.0)
    ss_all = classify_season(
        standings, NO_NEW, quotas, params_all, federations=FEDERATIONS
    ).classification
    assert "e" not in set(ss_all.filter(pl.col("super_serie")).get_column("player_id"))


# --------------------------------------------------------------------------- cascade


def test_quotas_sum_exactly_to_population(quotas: SeriesQuotas) -> None:
    for n in (1, 7, 150, 1234, 9999):
        bounds = series_boundaries(quotas, n)
        sizes = [bounds[1]] + [bounds[s] - bounds[s - 1] for s in range(2, 6)]
        rest = n - bounds[5]
        assert sum(sizes) + rest == n
        for s, size in zip(range(1, 6), sizes, strict=True):
            assert abs(size - float(quotas.series_share(s)) * n / 100) < 1
    # 150: 1.5 → 2, 4.5 → 5 (half away from zero), 9, 27, 57.
    assert series_boundaries(quotas, 150) == {1: 2, 2: 5, 3: 9, 4: 27, 5: 57}


def test_cascade_sizes_sum_to_n_with_new_licensees(
    params: SeriesParams, quotas: SeriesQuotas
) -> None:
    ids = [f"p{i:03d}" for i in range(95)]
    rows = {p: (100 - i, 100 - i, 100 - i, 100 - i, 1000 - i) for i, p in enumerate(ids)}
    new = pl.DataFrame({"player_id": [f"n{i}" for i in range(5)], "federation": ["XYZ"] * 5})
    standings = _standings(rows, fed="XYZ")
    result = classify_season(standings, new, quotas, params, federations=FEDERATIONS)
    sizes = dict(result.classification.group_by("series").agg(pl.len()).iter_rows())
    assert sizes == {"1": 1, "2": 2, "3": 3, "4": 12, "5": 20, "6": 57, "7": 5}
    assert sum(sizes.values()) == 100
    assert quota_check(result.classification, quotas, standings).get_column("ok").all()
    assert set(result.movements.filter(pl.col("series") == "7").get_column("movement")) == {"new"}


def test_tie_at_the_bar_admits_an_extra_player(params: SeriesParams) -> None:
    quotas = _small_quotas()  # boundaries for ten: 1, 2, 4, 6, 8, rest
    rows = {
        "a": (90.0, 0.0, 0.0, 0.0, 0.0),
        "b": (80.0, 95.0, 0.0, 0.0, 0.0),
        "c": (10.0, 20.0, 70.0, 0.0, 0.0),
        "d": (10.0, 20.0, 60.0, 0.0, 0.0),
        "e": (10.0, 20.0, 60.0, 0.0, 0.0),  # tied with d, the last admitted to series 3
        "f": (10.0, 20.0, 10.0, 50.0, 0.0),
        "g": (10.0, 20.0, 10.0, 40.0, 0.0),
        "h": (10.0, 20.0, 10.0, 30.0, 30.0),
        "i": (10.0, 20.0, 10.0, 20.0, 20.0),
        "j": (10.0, 20.0, 10.0, 10.0, 10.0),
    }
    standings = _standings(rows, fed="XYZ")
    result = classify_season(standings, NO_NEW, quotas, params, federations=FEDERATIONS)
    got = _series_of(result.classification)
    # 1: a. 2: b. 3 wants 2 by %N3: c 70, d 60 — and e, tied with d at the bar, too.
    # 4 shrinks to 1 (boundary 6): f. 5 wants 2 by PC: h 30, i 20. 6: the rest.
    assert got == {
        "a": "1",
        "b": "2",
        "c": "3",
        "d": "3",
        "e": "3",
        "f": "4",
        "g": "6",
        "h": "5",
        "i": "5",
        "j": "6",
    }
    bars = {
        r["series"]: r
        for r in result.bars.filter(pl.col("subseries").is_null()).iter_rows(named=True)
    }
    assert (bars["3"]["bar"], bars["3"]["admitted"], bars["3"]["target"]) == (60.0, 3, 2)
    assert (bars["4"]["bar"], bars["4"]["admitted"]) == (50.0, 1)
    check = quota_check(result.classification, quotas, standings)
    assert check.get_column("ok").all()
    assert check.filter(pl.col("series") == "3").get_column("tie_excess")[0] == 1
    assert (bars["5"]["bar"], bars["5"]["admitted"], bars["6"]["bar"]) == (20.0, 2, 0.0)


def test_quota_check_fails_when_a_series_overflows_without_tie(params: SeriesParams) -> None:
    quotas = _small_quotas()
    rows = {
        p: (100.0 - i, 100.0 - i, 100.0 - i, 100.0 - i, 100.0 - i)
        for i, p in enumerate("abcdefghij")
    }
    standings = _standings(rows, fed="XYZ")
    result = classify_season(standings, NO_NEW, quotas, params, federations=FEDERATIONS)
    assert quota_check(result.classification, quotas, standings).get_column("ok").all()
    tampered = result.classification.with_columns(
        pl.when(pl.col("player_id") == "j")
        .then(pl.lit("5"))
        .otherwise(pl.col("series"))
        .alias("series")
    )
    check = quota_check(tampered, quotas, standings)
    # Series 5 holds 3 for a target of 2 with no tie at its bar.
    assert check.filter(~pl.col("ok")).get_column("series").to_list() == ["5"]


# --------------------------------------------------------------------------- sub-series


def _hundred(fed: str) -> pl.DataFrame:
    rows = {
        f"p{i:03d}": (100 - i / 2, 100 - i / 2, 100 - i / 2, 100 - i / 2, 1000.0 - i)
        for i in range(100)
    }
    return _standings(rows, fed=fed)


def test_subseries_split_france_with_tie(params: SeriesParams, quotas: SeriesQuotas) -> None:
    standings = _hundred("FFSc").with_columns(  # alias of FRA
        pl.when(pl.col("player_id") == "p009")
        .then(pl.lit(100 - 8 / 2))
        .otherwise(pl.col("pct_n4"))
        .alias("pct_n4")
    )
    result = classify_season(standings, NO_NEW, quotas, params, federations=FEDERATIONS)
    table = result.classification
    sub = dict(table.select("player_id", "subseries").iter_rows())
    # Series 4 = p006..p017 (12): boundaries 3, 6, 9; p009 tied with p008 → 4A has 4.
    assert [sub[f"p{i:03d}"] for i in range(6, 18)] == [
        "4A",
        "4A",
        "4A",
        "4A",
        "4B",
        "4B",
        "4C",
        "4C",
        "4C",
        "4D",
        "4D",
        "4D",
    ]
    # Series 1 (1 player): 0.5 / 1 × 1 = 0.5 → 1 in 1A, 1B empty.
    assert sub["p000"] == "1A"
    counts = dict(table.group_by("subseries").agg(pl.len()).iter_rows())
    assert (counts["2A"], counts["2B"], counts["3A"], counts["3B"]) == (1, 1, 1, 2)
    assert (counts["5A"], counts["5B"], counts["5C"], counts["5D"]) == (4, 5, 5, 6)
    assert (counts["6A"], counts["6B"], counts["6C"], counts["6D"]) == (7, 7, 8, 40)
    bar = result.bars.filter((pl.col("subseries") == "4A") & (pl.col("federation") == "FRA"))
    assert (bar.get_column("bar")[0], bar.get_column("admitted")[0]) == (96.0, 4)


@pytest.mark.parametrize("written", ["Belgique", "BE", "fbs", "Fédération belge de Scrabble"])
def test_subseries_split_belgium_only_4_to_6(
    params: SeriesParams, quotas: SeriesQuotas, written: str
) -> None:
    # However the federation is written, federations.csv maps it to the quota code BEL.
    table = classify_season(
        _hundred(written), NO_NEW, quotas, params, federations=FEDERATIONS
    ).classification
    counts = dict(
        table.group_by("series", "subseries")
        .agg(pl.len())
        .select(pl.concat_str("series", pl.col("subseries").fill_null("-"), separator="/"), "len")
        .iter_rows()
    )
    assert counts == {
        "1/-": 1,
        "2/-": 2,
        "3/-": 3,
        "4/4A": 6,
        "4/4B": 6,
        "5/5A": 10,
        "5/5B": 10,
        "6/6A": 31,
        "6/6B": 31,
    }
    other = classify_season(
        _hundred("XYZ"), NO_NEW, quotas, params, federations=FEDERATIONS
    ).classification
    assert other.get_column("subseries").null_count() == 100


# --------------------------------------------------------------------------- movements


def test_movements(params: SeriesParams) -> None:
    quotas = _small_quotas()
    rows = {
        p: (100.0 - i, 100.0 - i, 100.0 - i, 100.0 - i, 100.0 - i)
        for i, p in enumerate("abcdefghij")
    }
    held = pl.DataFrame({"player_id": ["a", "b", "c", "j"], "series": ["SS", "4", "3", "6"]})
    result = classify_season(
        _standings(rows, fed="XYZ"), NO_NEW, quotas, params, held, federations=FEDERATIONS
    )
    moves = {
        r["player_id"]: (r["previous_series"], r["series"], r["movement"])
        for r in result.movements.iter_rows(named=True)
    }
    assert moves["a"] == ("SS", "1", "relegated")  # %N1 100 but super-série value 0
    assert moves["b"] == ("4", "2", "promoted")
    assert moves["c"] == ("3", "3", "unchanged")
    assert moves["j"] == ("6", "6", "unchanged")
    assert moves["d"] == (None, "3", "new")


# --------------------------------------------------------------------------- provisional


def test_provisional_after_each_event(params: SeriesParams) -> None:
    quotas = _small_quotas()
    r1, e1 = _event([("a", 1, "2"), ("b", 2, "2")], tid="E1")
    r2, e2 = _event([("b", 1, "2"), ("c", 2, "2")], tid="E2")
    # E2 ends first: the provisional order follows end dates, not ids.
    events = pl.concat([e1, e2]).with_columns(
        pl.Series("end_date", [dt.date(2023, 11, 1), dt.date(2023, 10, 1)])
    )
    scores = duplicate_event_scores(pl.concat([r1, r2]), events)
    new = pl.DataFrame({"player_id": ["n"], "federation": ["XYZ"]})
    prov = provisional_classification(scores, events, quotas, params, new)
    first = dict(
        prov.filter(pl.col("after_tournament_id") == "E2").select("player_id", "series").iter_rows()
    )
    # After E2 (first by end date), N = 3: boundaries 0, 1, 1, 2, 2: series 2 ← b (%N2
    # 100), series 4 ← c (%N4 100), the new licensee n → 7.
    assert first == {"b": "2", "c": "4", "n": "7"}
    second = dict(
        prov.filter(pl.col("after_tournament_id") == "E1").select("player_id", "series").iter_rows()
    )
    # After E1, N = 4: boundaries 0, 1, 2, 2, 3. Series 2 ← a (%N2 100); series 3 wants 1:
    # b and c tie at %N3 100, both admitted; 4 and 5 are empty.
    assert second == {"a": "2", "b": "3", "c": "3", "n": "7"}
    b_value = prov.filter((pl.col("after_tournament_id") == "E1") & (pl.col("player_id") == "b"))
    assert b_value.get_column("value")[0] == 100.0
    assert set(prov.get_column("season")) == {SEASON}


# --------------------------------------------------------------------------- incremental


def _reference_cascade(standings: pl.DataFrame, population: int, quotas: SeriesQuotas):
    """The cascade of §3 written the plain way (sort the values above 0, take the `wanted`-th
    as the bar, admit everyone within TIE_TOLERANCE of it): the oracle of the vectorised
    versions."""
    bounds = series_boundaries(quotas, population)
    pool = standings.select("player_id", "pct_n1", "pct_n2", "pct_n3", "pct_n4", "pc")
    rows: list[tuple[str, str, str, float]] = []
    admitted = 0
    for s in CASCADE_SERIES:
        criterion = CRITERIA[s]
        if s in bounds:
            wanted = bounds[s] - admitted
            positive = pool.filter(pl.col(criterion) > 0)  # a bar is never 0
            values = positive.get_column(criterion).sort(descending=True)
            if wanted <= 0 or values.len() == 0:
                continue
            bar = values[min(wanted, values.len()) - 1]
            chosen = positive.filter(pl.col(criterion) >= bar - TIE_TOLERANCE)
        else:
            chosen = pool
        rows += [(p, str(s), criterion, v) for p, v in chosen.select("player_id", criterion).rows()]
        admitted += chosen.height
        pool = pool.join(chosen.select("player_id"), on="player_id", how="anti")
    return rows


def _random_season(seed: int) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """(results, events, new licensees): 14 events of 3–16 players out of 45, places with
    many ties, mixed series (some unwritten), coefficients from the export, the category or
    the default, end dates that tie (start date, then id, decide); new licensees `n1`, `n2`
    without result and `p44`, a new licensee who plays from the 10th event on."""
    rng = random.Random(seed)
    players = [f"p{i:02d}" for i in range(45)]
    series_pool = ["SS", "1", "2", "2", "3", "3", "4", "4", "4", "5", "6", "6", "7", None]
    series = {p: rng.choice(series_pool) for p in players}
    result_rows: list[tuple[str, str, int, str | None]] = []
    event_rows: list[dict[str, object]] = []
    for e in range(14):
        tid = f"E{rng.randrange(100):02d}{e:02d}"
        end = dt.date(2023, 10, 1) + dt.timedelta(days=7 * (e // 2))  # pairs share an end
        start = end - dt.timedelta(days=rng.choice([0, 1]))
        event_rows.append(
            {
                "tournament_id": tid,
                "season": SEASON,
                "games": rng.choice([2, 3, 5]),
                "category": rng.choice(["homologue", "open", None]),
                "coefficient": rng.choice([None, None, 0.5, 2.0]),
                "start_date": start,
                "end_date": end,
            }
        )
        eligible = players if e >= 9 else players[:-1]
        entrants = rng.sample(eligible, rng.randint(3, 16))
        scores = {p: rng.randint(0, 4) for p in entrants}  # few scores: many ex aequo
        for p in entrants:
            place = 1 + sum(1 for q in entrants if scores[q] > scores[p])
            result_rows.append((tid, p, place, series[p]))
    results = pl.DataFrame(
        result_rows,
        schema={
            "tournament_id": pl.String,
            "player_id": pl.String,
            "rank": pl.Int64,
            "series": pl.String,
        },
        orient="row",
    )
    events = pl.DataFrame(event_rows)
    new = pl.DataFrame({"player_id": ["n1", "n2", "p44"], "federation": ["FRA", "BEL", "FRA"]})
    return results, events, new


def _no_rest_quotas() -> SeriesQuotas:
    """Series 1–6 take 10/10/20/20/10/10 %: a fifth of the players is left out."""
    rows = [
        QuotaRow("*", s, None, Fraction(p))
        for s, p in zip(range(1, 7), (10, 10, 20, 20, 10, 10), strict=True)
    ]
    return SeriesQuotas(tuple(rows))


@pytest.mark.parametrize(
    ("seed", "quota_kind", "divisor"),
    [(1, "reference", 0.0), (2, "small", 0.0), (3, "reference", 2.5), (4, "no_rest", 0.0)],
)
def test_incremental_provisional_equals_from_scratch(
    params: SeriesParams, quotas: SeriesQuotas, seed: int, quota_kind: str, divisor: float
) -> None:
    chosen = {"reference": quotas, "small": _small_quotas(), "no_rest": _no_rest_quotas()}
    quota_table = chosen[quota_kind]
    season_params = dataclasses.replace(params, minimum_divisor=divisor)
    results, events, new = _random_season(seed)
    scores = duplicate_event_scores(results, events)
    full = provisional_classification(scores, events, quota_table, season_params, new)
    changes = provisional_changes(scores, events, quota_table, season_params, new)
    order = ordered_events(events).get_column("tournament_id").to_list()
    assert full.get_column("after_tournament_id").unique(maintain_order=True).to_list() == order
    assert changes.height < full.height

    for k, tid in enumerate(order):
        partial = scores.filter(pl.col("tournament_id").is_in(order[: k + 1]))
        standings = season_standings(partial, events, season_params)
        absent = new.join(standings.select("player_id"), on="player_id", how="anti")
        expected = _reference_cascade(standings, standings.height + absent.height, quota_table)
        expected += [(p, "7", None, None) for p in absent.get_column("player_id")]
        step = full.filter(pl.col("after_tournament_id") == tid)
        got = {r[0]: r[1:] for r in step.select("player_id", "series", "criterion", "value").rows()}
        assert set(got) == {r[0] for r in expected}, tid
        for player, series, criterion, value in expected:
            assert got[player][:2] == (series, criterion), (tid, player)
            assert got[player][2] == (None if value is None else pytest.approx(value, abs=1e-9))
        # The stored changes rebuild the same table after every event.
        rebuilt = provisional_as_of(changes, tid, events)
        assert rebuilt.equals(step), tid
        assert provisional_as_of(changes, tid, order).equals(step), tid

    # Tied players all change together; a first appearance is always stored.
    first = changes.filter(pl.col("after_tournament_id") == order[0])
    assert set(first.get_column("player_id")) == set(
        full.filter(pl.col("after_tournament_id") == order[0]).get_column("player_id")
    )
    if quota_kind == "no_rest":
        assert changes.filter(pl.col("series").is_null()).height > 0  # left the classification


def test_end_of_season_cascade_matches_reference(
    params: SeriesParams, quotas: SeriesQuotas
) -> None:
    results, events, new = _random_season(7)
    standings = season_standings(duplicate_event_scores(results, events), events, params)
    absent = new.join(standings.select("player_id"), on="player_id", how="anti")
    for quota_table in (quotas, _small_quotas(), _no_rest_quotas()):
        population = standings.height + absent.height
        expected = {
            p: (s, c) for p, s, c, _ in _reference_cascade(standings, population, quota_table)
        }
        classified = classify_season(
            standings,
            new.with_columns(pl.lit(SEASON).alias("season")),
            quota_table,
            params,
            federations=FEDERATIONS,
        ).classification.filter(pl.col("series") != "7")
        got = {
            p: (s, c) for p, s, c in classified.select("player_id", "series", "criterion").rows()
        }
        assert got == expected


def test_provisional_as_of_unknown_event() -> None:
    with pytest.raises(ValueError, match="unknown event"):
        provisional_as_of(pl.DataFrame(), "X", ["A", "B"])


# --------------------------------------------------------------------------- zero bars


def test_a_bar_is_never_zero_200_series_5_players_in_one_event(
    params: SeriesParams, quotas: SeriesQuotas
) -> None:
    """One event, 200 players all in series 5: the zones of series 1–4 are empty, so the
    winner scores 100 for every %X and everyone else 0. N = 200, boundaries 2, 6, 12, 36, 76.
    Series 1 wants 2 but only the winner is above 0: it holds 1; series 2, 3, 4 hold nobody
    (no %N2–%N4 above 0 is left); series 5 takes the next 76 − 1 = 75 by PC (places 2–76);
    series 6 the 124 others. The sizes still sum to N."""
    players = [(f"p{i:03d}", i, "5") for i in range(1, 201)]
    results, events = _event(players, games=4)
    scores = duplicate_event_scores(results, events)
    standings = season_standings(scores, events, params)
    result = classify_season(standings, NO_NEW, quotas, params, federations=FEDERATIONS)
    sizes = dict(result.classification.group_by("series").agg(pl.len()).iter_rows())
    assert sizes == {"1": 1, "5": 75, "6": 124}
    assert sum(sizes.values()) == 200
    got = _series_of(result.classification)
    assert got["p001"] == "1"
    assert {p for p, s in got.items() if s == "5"} == {f"p{i:03d}" for i in range(2, 77)}
    check = quota_check(result.classification, quotas, standings)
    assert check.get_column("ok").all()
    assert dict(check.select("series", "shortfall").iter_rows())["1"] == 1
    bars = {
        r["series"]: r
        for r in result.bars.filter(pl.col("subseries").is_null()).iter_rows(named=True)
    }
    assert bars["1"]["bar"] == 100.0 and bars["2"]["bar"] is None
    assert bars["5"]["bar"] == (200 - 76 + 1) * 5.0  # PC of the 76th: 125 × 5p/4 = 625
    # The provisional classification after the event is the same: nobody at 0 in 1–4.
    provisional = provisional_classification(scores, events, quotas, params, NO_NEW)
    assert dict(provisional.group_by("series").agg(pl.len()).iter_rows()) == sizes


def test_quota_check_refuses_a_shortfall_while_a_player_above_0_is_left() -> None:
    quotas = _small_quotas()  # ten players: boundaries 1, 2, 4, 6, 8, rest
    rows = {p: (0.0, 0.0, 0.0, 0.0, 100.0 - i) for i, p in enumerate("abcdefghij")}
    rows["a"] = (50.0, 0.0, 0.0, 0.0, 100.0)
    standings = _standings(rows, fed="XYZ")
    result = classify_season(standings, NO_NEW, quotas, SeriesParams(), federations=FEDERATIONS)
    got = _series_of(result.classification)
    # 1: a. 2, 3, 4: nobody above 0. 5 wants 8 − 1 = 7 by PC: b … h. 6: i, j.
    assert [p for p in "abcdefghij" if got[p] == "5"] == list("bcdefgh")
    assert quota_check(result.classification, quotas, standings).get_column("ok").all()
    # Tampered: b had a %N2 above 0, yet series 2 was left empty.
    tampered = standings.with_columns(
        pl.when(pl.col("player_id") == "b").then(30.0).otherwise(pl.col("pct_n2")).alias("pct_n2")
    )
    check = quota_check(result.classification, quotas, tampered)
    assert check.filter(~pl.col("ok")).get_column("series").to_list() == ["2"]


def test_super_serie_only_among_series_1(params: SeriesParams) -> None:
    """The top 3 by super-série value include `c`, whom the cascade puts in series 2 (a
    %N1 of 0): `c` is not super-série; `d`, 4th by value but in series 1, is."""
    quotas = SeriesQuotas(  # ten players: series 1 holds 3, series 2 one
        (
            QuotaRow("*", 1, None, Fraction(30)),
            QuotaRow("*", 2, None, Fraction(10)),
            *(QuotaRow("*", s, None, Fraction(10)) for s in (3, 4, 5)),
            QuotaRow("*", 6, None, None),
        )
    )
    rows = {p: (10.0, 10.0, 10.0, 10.0, 10.0) for p in "efghij"}
    rows |= {
        "a": (90.0, 0.0, 0.0, 0.0, 1.0),
        "b": (80.0, 0.0, 0.0, 0.0, 1.0),
        "d": (70.0, 0.0, 0.0, 0.0, 1.0),
        "c": (0.0, 99.0, 0.0, 0.0, 1.0),
    }
    value = {"a": 95.0, "b": 90.0, "c": 85.0, "d": 80.0} | dict.fromkeys("efghij", 20.0)
    standings = _standings(rows, fed="XYZ").with_columns(
        pl.col("player_id").replace_strict(value, return_dtype=pl.Float64).alias("super_serie_pct")
    )
    ss_params = dataclasses.replace(params, super_serie_size=3)
    result = classify_season(standings, NO_NEW, quotas, ss_params, federations=FEDERATIONS)
    got = _series_of(result.classification)
    assert (got["a"], got["b"], got["d"], got["c"]) == ("1", "1", "1", "2")
    ss = set(result.classification.filter(pl.col("super_serie")).get_column("player_id"))
    assert ss == {"a", "b", "d"}


def test_boundaries_of_many_populations_at_once(quotas: SeriesQuotas) -> None:
    """The provisional classification's boundaries after every event (one integer
    computation) are `series_boundaries`' exact roundings, halves away from zero included
    (1 % of 50 = 0.5 → 1; 3 % of 50 = 1.5 → 2), for the reference, small and no-rest quotas."""
    sizes = [*range(0, 301), 12_345, 19_999, 20_000, 1_000_003]
    for table in (quotas, _small_quotas(), _no_rest_quotas()):
        many = series_boundaries_array(table, np.array(sizes))
        for size, row in zip(sizes, many.tolist(), strict=True):
            one = series_boundaries(table, size)
            assert row == [one.get(s, -1) for s in CASCADE_SERIES], (size, row, one)
    assert series_boundaries_array(quotas, np.array([50]))[0, :2].tolist() == [1, 2]


# --------------------------------------------------------------------------- the fast paths


def test_labels_and_federations_read_once_per_distinct_value() -> None:
    """`series_level_of` and `per_distinct` give, row by row, what the expression gives on
    every row: written labels (accents, spaces, sub-series, nonsense, null) and the quota
    federation of written federations (a null federation is `*`)."""
    labels = ["5", " Série 4 B", "super-série", "ss", None, "8", "5", "6a", "", None, "Serie-3"]
    frame = pl.DataFrame({"series": labels})
    direct = frame.select(series_level(pl.col("series"))).to_series().to_list()
    assert direct[:4] == ["5", "4", "SS", "SS"]
    assert frame.select(series_level_of(frame, "series")).to_series().to_list() == direct

    feds = pl.DataFrame({"federation": ["FFSc", "France", None, "Belgique", "XYZ", "fra", None]})
    known = {"*", "FRA", "BEL"}
    keys = feds.select(federation_key_expr("federation", FEDERATIONS, known)).to_series()
    looked_up = feds.select(
        per_distinct(
            feds, "federation", lambda f: federation_key_expr(f, FEDERATIONS, known), pl.String
        )
    ).to_series()
    assert looked_up.to_list() == keys.to_list() == ["FRA", "FRA", "*", "BEL", "*", "FRA", "*"]


def test_running_standings_are_the_cumulative_sums_bit_for_bit(params: SeriesParams) -> None:
    """The provisional classification's running standings (one compiled pass) are, to the
    last bit, Polars' cumulative sums per player over the events divided by max(weight, D),
    on a random season with coefficients and a minimum divisor."""
    results, events, _ = _random_season(11)
    scores = duplicate_event_scores(results, events)
    ids = ordered_events(events).get_column("tournament_id")
    order = ids.to_frame().with_row_index("_k").with_columns(pl.col("_k").cast(pl.Int64))
    for divisor in (0.0, 2.5):
        season_params = dataclasses.replace(params, minimum_divisor=divisor)
        got = _running_standings(scores, order, events, season_params)
        w = pl.col("coefficient")
        per_event = (
            scores.join(order, on="tournament_id")
            .join(event_coefficients(events, season_params), on="tournament_id", how="left")
            .with_columns(w.fill_null(float(season_params.default_coefficient)))
            .group_by(["player_id", "_k"])
            .agg(
                *[(w * pl.col(c)).sum().alias(c) for c in PCT],
                w.sum().alias("_weight"),
                pl.col("pc").fill_null(0.0).sum(),
            )
            .sort(["player_id", "_k"])
        )
        weight = pl.col("_weight").cum_sum().over("player_id")
        divided = pl.max_horizontal(weight, pl.lit(divisor))
        expected = per_event.select(
            "player_id",
            "_k",
            *[(pl.col(c).cum_sum().over("player_id") / divided).alias(c) for c in PCT],
            pl.col("pc").cum_sum().over("player_id"),
        )
        assert got.height == expected.height > results.height // 2
        assert got.equals(expected)


def test_event_series_takes_each_players_latest_list_among_interleaved_dates() -> None:
    """The rating list a player's series comes from is their own latest one dated on or
    before the event, whatever the other players' list dates and the entries' order."""
    lists = pl.DataFrame(
        {
            "player_id": ["a", "b", "a", "b", "a", "c", "d"],
            "as_of": [dt.date(2023, m, 1) for m in (1, 2, 3, 4, 5, 6, 1)],
            "series": ["3", "5", "2", "4", None, "6", "1"],
        }
    )
    entries = pl.DataFrame(
        {
            "tournament_id": ["T5", "T1", "T4", "T2", "T3", "T6"],
            "player_id": ["a", "a", "b", "b", "a", "c"],
            "series": [None] * 6,
            "season": [SEASON] * 6,
            "start": [
                dt.date(2023, 5, 2),  # a: the May list gives no series, March's does
                dt.date(2023, 1, 1),  # a: the January list, dated that day
                dt.date(2023, 3, 31),  # b: February's, not a's March list
                dt.date(2023, 1, 15),  # b: no list yet
                dt.date(2023, 3, 1),
                dt.date(2023, 5, 31),  # c: June's list comes after
            ],
        },
        schema_overrides={"series": pl.String},
    )
    no_classification = pl.DataFrame(
        schema={"season": pl.String, "player_id": pl.String, "series": pl.String}
    )
    held = event_series(entries, no_classification, lists)
    assert held.rows() == [
        ("T5", "a", "2", "rating_list"),
        ("T1", "a", "3", "rating_list"),
        ("T4", "b", "5", "rating_list"),
        ("T2", "b", "7", "default"),
        ("T3", "a", "2", "rating_list"),
        ("T6", "c", "7", "default"),
    ]
    assert event_series(entries.clear(), no_classification, lists).height == 0
