"""docs/rules.md §4: national classifications — France, Belgium, Switzerland, the median rule and
its clé de répartition. Every number below is computed by hand in the comments."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from pathlib import Path

import polars as pl
import pytest

from pipelines.reference.federations import load_federations
from pipelines.reference.files import ReferenceDataError
from pipelines.reference.national import load_national_params
from pipelines.reference.series import load_series_params, load_series_quotas
from transforms.federations import AliasTable
from transforms.national import (
    BelgiumParams,
    FranceParams,
    National,
    NationalParams,
    best_events_pc,
    classify_national,
    cle_de_repartition,
    event_percentages,
    pp_standings,
    season_held_series,
    season_medians,
)
from transforms.series import SeriesParams, SeriesQuotas, duplicate_event_scores, season_standings
from transforms.tables import table

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference"
SEASON = "2024-2025"


@pytest.fixture(scope="module")
def quotas() -> SeriesQuotas:
    return load_series_quotas(REFERENCE)


@pytest.fixture(scope="module")
def series_params() -> SeriesParams:
    return load_series_params(REFERENCE)


@pytest.fixture(scope="module")
def federations() -> AliasTable:
    return load_federations(REFERENCE)


@pytest.fixture(scope="module")
def params() -> NationalParams:
    return load_national_params(REFERENCE)


# --------------------------------------------------------------------------- builders


@dataclasses.dataclass
class Event:
    """A duplicate event: rows are (player, rank, series held that day, score)."""

    tid: str
    rows: Sequence[tuple[str, int, str, int | None]]
    country: str = "France"
    top_total: int | None = 1000
    games: int = 4
    coefficient: float = 1.0


@dataclasses.dataclass
class Season:
    """The warehouse frames of one season, built from events and a population."""

    classification: pl.DataFrame
    scores: pl.DataFrame
    standings: pl.DataFrame
    tournaments: pl.DataFrame
    results: pl.DataFrame


def _season(
    events: list[Event],
    population: Sequence[tuple[str, str | None, str]],
    series_params: SeriesParams,
    standings: pl.DataFrame | None = None,
) -> Season:
    """`population`: (player, federation as written, the cascade's series; `SS` = super-série).
    Events are dated one week apart, in list order."""
    start = dt.date(2024, 9, 7)
    tournaments = table("tournaments").complete(
        pl.DataFrame(
            {
                "tournament_id": [e.tid for e in events],
                "discipline": ["duplicate"] * len(events),
                "start_date": [start + dt.timedelta(weeks=i) for i in range(len(events))],
                "end_date": [start + dt.timedelta(weeks=i) for i in range(len(events))],
                "season": [SEASON] * len(events),
                "country": [e.country for e in events],
                "games": [e.games for e in events],
                "coefficient": [e.coefficient for e in events],
                "top_total": [e.top_total for e in events],
            },
            schema_overrides={"top_total": pl.Int64, "games": pl.Int64},
        )
    )
    rows = [(e.tid, p, r, s, sc) for e in events for p, r, s, sc in e.rows]
    results = table("results").complete(
        pl.DataFrame(
            {
                "tournament_id": [r[0] for r in rows],
                "player_id": [r[1] for r in rows],
                "rank": [r[2] for r in rows],
                "series": [r[3] for r in rows],
                "score": [r[4] for r in rows],
            },
            schema={
                "tournament_id": pl.String,
                "player_id": pl.String,
                "rank": pl.Int64,
                "series": pl.String,
                "score": pl.Int64,
            },
        )
    )
    scores = duplicate_event_scores(results, tournaments)
    if standings is None:
        standings = season_standings(scores, tournaments, series_params)
    classification = table("series_classification").complete(
        pl.DataFrame(
            {
                "season": [SEASON] * len(population),
                "player_id": [p for p, _, _ in population],
                "series": ["1" if s == "SS" else s for _, _, s in population],
                "super_serie": [s == "SS" for _, _, s in population],
                "federation": [f for _, f, _ in population],
            },
            schema={
                "season": pl.String,
                "player_id": pl.String,
                "series": pl.String,
                "super_serie": pl.Boolean,
                "federation": pl.String,
            },
        )
    )
    return Season(classification, scores, standings, tournaments, results)


def _classify(
    season: Season,
    params: NationalParams,
    quotas: SeriesQuotas,
    series_params: SeriesParams,
    federations: AliasTable,
) -> National:
    return classify_national(
        season.classification,
        season.scores,
        season.standings,
        season.tournaments,
        season.results,
        params,
        quotas,
        series_params,
        federations,
    )


def _rows(national: National, federation: str) -> dict[str, dict[str, object]]:
    frame = national.classification.filter(pl.col("federation") == federation)
    return {r["player_id"]: r for r in frame.iter_rows(named=True)}


def _placed(rows: dict[str, dict[str, object]]) -> dict[str, tuple[object, object]]:
    return {p: (r["series"], r["subseries"]) for p, r in rows.items()}


# --------------------------------------------------------------------------- France


def _france_standings() -> tuple[list[tuple[str, str | None, str]], pl.DataFrame]:
    """100 French licensees: 18 international (series 1–4), 2 new licensees, 80 in the
    pool. In the pool: four 5A candidates, then p01…p76 by PC; p05 and p06 tied at 4800;
    p35…p76 have no PC."""
    population: list[tuple[str, str | None, str]] = [
        (f"i{k:02d}", "FRA", "4") for k in range(1, 19)
    ]
    population += [("n1", "FFSc", "7"), ("n2", "France", "7")]
    values: dict[str, tuple[float, float]] = {  # player: (global %N4, season PC)
        "by_n4": (7.0, 3000.0),  # 5A by %N4 alone
        "by_pc": (0.0, 6500.0),  # the best PC of the pool
        "both": (12.0, 7000.0),  # both: the %N4 route is the one written
        "edge": (4.0, 6000.0),  # %N4 4: at the minimum only when it is 4
    }
    for k in range(1, 77):
        pc = 5000.0 - 50.0 * (k - 1) if k <= 34 else 0.0
        values[f"p{k:02d}"] = (4.99 if k == 1 else 0.0, pc)
    values["p05"] = values["p06"] = (0.0, 4800.0)  # tie at the 5B bar
    population += [(p, "FRA", "5" if v[1] >= 4000 else "6") for p, v in values.items()]
    ids = sorted(values)
    standings = table("series_standings").complete(
        pl.DataFrame(
            {
                "season": [SEASON] * len(ids),
                "player_id": ids,
                "pct_n4": [values[p][0] for p in ids],
                "pc": [values[p][1] for p in ids],
            }
        )
    )
    return population, standings


def test_france_5a_by_pct_n4_or_by_pc_within_its_quota_then_pc_bars_with_a_tie(
    params: NationalParams,
    quotas: SeriesQuotas,
    series_params: SeriesParams,
    federations: AliasTable,
) -> None:
    population, standings = _france_standings()
    season = _season([], population, series_params, standings=standings)
    france = dataclasses.replace(params, france=FranceParams(min_pct_n4=5.0))
    result = _classify(season, france, quotas, series_params, federations)
    rows = _rows(result, "FRA")
    assert len(rows) == 100  # one row per licensee

    # N = 100, FRA cumulative shares: 1–4 18, 5A 22, 5B 27, 5C 32, 5D 38, 6A 45, 6B 52,
    # 6C 60 (docs/rules.md §4: every PC bar, 5A's included, from the quotas).
    # 5A by %N4 ≥ 5: by_n4 (7) and both (12), whatever their PC; p01 (4.99) and edge (4)
    # do not. 5A by PC: round(22 % × 100) = 22 − 18 above − 2 by %N4 = 2: by_pc (6500)
    # and edge (6000); p01 (5000) does not.
    assert (rows["by_n4"]["rule"], rows["by_n4"]["value"]) == ("france_pct_n4", 7.0)
    assert (rows["both"]["rule"], rows["both"]["value"]) == ("france_pct_n4", 12.0)
    assert (rows["by_pc"]["rule"], rows["by_pc"]["value"]) == ("france_pc", 6500.0)
    assert (rows["edge"]["rule"], rows["edge"]["value"]) == ("france_pc", 6000.0)
    five_a = {p for p, r in rows.items() if r["subseries"] == "5A"}
    assert five_a == {"by_n4", "by_pc", "both", "edge"}

    # Above 5B: 18 + 4 = 22, so 5B wants 27 − 22 = 5: p01…p05, and p06 tied with
    # p05 at 4800 comes too (6). 5C wants 32 − 28 = 4 (p07…p10), 5D 38 − 32 = 6
    # (p11…p16), 6A 7 (p17…p23), 6B 7 (p24…p30); 6C wants 8 but only p31…p34 have PC
    # (a bar is never 0); 6D is the rest: p35…p76 (42).
    expected = {
        "5B": range(1, 7),
        "5C": range(7, 11),
        "5D": range(11, 17),
        "6A": range(17, 24),
        "6B": range(24, 31),
        "6C": range(31, 35),
        "6D": range(35, 77),
    }
    for sub, ks in expected.items():
        got = {p for p, r in rows.items() if r["subseries"] == sub}
        assert got == {f"p{k:02d}" for k in ks}, sub
        assert all(rows[p]["rule"] == "france_pc" for p in got)
        assert all(rows[p]["series"] == sub[0] for p in got)
    assert rows["p06"]["value"] == rows["p05"]["value"] == 4800.0
    assert {rows[p]["rule"] for p in ("i01", "i18")} == {"international"}
    assert (rows["n1"]["series"], rows["n1"]["rule"], rows["n1"]["value"]) == (
        "7",
        "new_licensee",
        None,
    )
    assert all(r["reason"] is None for r in rows.values())

    bars = {
        (b["subseries"], b["rule"]): (b["bar"], b["admitted"], b["target"])
        for b in result.bars.filter(pl.col("federation") == "FRA").iter_rows(named=True)
    }
    assert bars == {
        ("5A", "france_pct_n4"): (5.0, 2, None),  # by_n4 and both reach the %N4 minimum
        ("5A", "france_pc"): (6000.0, 2, 2),  # the quota's bar: edge, its last admitted
        ("5B", "france_pc"): (4800.0, 6, 5),
        ("5C", "france_pc"): (5000.0 - 50 * 9, 4, 4),  # p10: 4550
        ("5D", "france_pc"): (5000.0 - 50 * 15, 6, 6),  # p16: 4250
        ("6A", "france_pc"): (5000.0 - 50 * 22, 7, 7),  # p23: 3900
        ("6B", "france_pc"): (5000.0 - 50 * 29, 7, 7),  # p30: 3550
        ("6C", "france_pc"): (5000.0 - 50 * 33, 4, 8),  # p34: 3350
        ("6D", "france_pc"): (0.0, 42, None),
    }
    kinds = dict(
        result.bars.filter(pl.col("federation") == "FRA")
        .select(pl.concat_str("subseries", "rule", separator=" "), "kind")
        .rows()
    )
    assert kinds["5A france_pct_n4"] == "minimum"
    assert kinds["5A france_pc"] == kinds["5B france_pc"] == kinds["6C france_pc"] == "quota"
    assert kinds["6D france_pc"] == "rest"


def test_france_5a_by_pc_admits_what_the_pct_n4_route_leaves_of_the_quota(
    params: NationalParams,
    quotas: SeriesQuotas,
    series_params: SeriesParams,
    federations: AliasTable,
) -> None:
    """A lower %N4 minimum (4): by_n4, both, edge (4.0) and p01 (4.99) reach 5A by %N4,
    18 + 4 = 22 = 5A's boundary: the PC route admits nobody, by_pc's 6500 included (a
    fixed 6000 PC would have let it in), and 5A's PC step has no bar."""
    population, standings = _france_standings()
    season = _season([], population, series_params, standings=standings)
    low = dataclasses.replace(params, france=FranceParams(min_pct_n4=4.0))
    result = _classify(season, low, quotas, series_params, federations)
    rows = _rows(result, "FRA")
    assert {p for p, r in rows.items() if r["subseries"] == "5A"} == {
        "by_n4",
        "both",
        "edge",
        "p01",
    }
    assert {rows[p]["rule"] for p in ("by_n4", "both", "edge", "p01")} == {"france_pct_n4"}
    # 5B wants 27 − 22 = 5: by_pc 6500, p02 … p04 (4950 … 4850) and p05, p06 (4800, tied 5th)
    assert {p for p, r in rows.items() if r["subseries"] == "5B"} == {
        "by_pc",
        "p02",
        "p03",
        "p04",
        "p05",
        "p06",
    }
    assert (rows["by_pc"]["rule"], rows["by_pc"]["value"]) == ("france_pc", 6500.0)
    # 5C wants 32 − 28 = 4: p07 … p10
    assert {p for p, r in rows.items() if r["subseries"] == "5C"} == {"p07", "p08", "p09", "p10"}
    bars = {
        (b["subseries"], b["rule"]): (b["bar"], b["admitted"], b["target"])
        for b in result.bars.filter(pl.col("federation") == "FRA").iter_rows(named=True)
    }
    assert bars[("5A", "france_pct_n4")] == (4.0, 4, None)
    assert bars[("5A", "france_pc")] == (None, 0, 0)
    assert bars[("5B", "france_pc")] == (4800.0, 6, 5)


# --------------------------------------------------------------------------- Belgium


def _belgium(series_params: SeriesParams) -> Season:
    """Ten Belgian licensees: x1, x2 international (series 4), b1 … b8 in the pool.

    B1: x1(4) 1, b1(5) 2, j(5) 3, b3(5) 4, b4(5) 5, b5(6) 6, b6(6) 7, b7(7) 8
    B2: x2(4) 1, b1(5) 2, b8(5) 3, b4(5) 4, b3(5) 5, j(5) 6, b6(6) 7, b5(6) 8, b7(7) 9
    B3: z(4, French) 1, y(6, French) 2, b8(5) 3
    """
    events = [
        Event(
            "B1",
            [
                ("x1", 1, "4", None),
                ("b1", 2, "5", None),
                ("j", 3, "5", None),
                ("b3", 4, "5", None),
                ("b4", 5, "5", None),
                ("b5", 6, "6", None),
                ("b6", 7, "6", None),
                ("b7", 8, "7", None),
            ],
            country="Belgique",
        ),
        Event(
            "B2",
            [
                ("x2", 1, "4", None),
                ("b1", 2, "5", None),
                ("b8", 3, "5", None),
                ("b4", 4, "5", None),
                ("b3", 5, "5", None),
                ("j", 6, "5", None),
                ("b6", 7, "6", None),
                ("b5", 8, "6", None),
                ("b7", 9, "7", None),
            ],
            country="BE",
        ),
        Event("B3", [("z", 1, "4", None), ("y", 2, "6", None), ("b8", 3, "5", None)]),
    ]
    population = [("x1", "BEL", "4"), ("x2", "FBS", "4")]
    population += [(p, "Belgique", "6") for p in ("b1", "j", "b3", "b4", "b5", "b6", "b7", "b8")]
    return _season(events, population, series_params)


def test_belgian_pp5_pp6_pp7_by_the_zone_method(series_params: SeriesParams) -> None:
    season = _belgium(series_params)
    pp = {
        r["player_id"]: (r["pp5"], r["pp6"], r["pp7"])
        for r in pp_standings(season.scores, season.tournaments, series_params).iter_rows(
            named=True
        )
    }
    # PP5 zones: B1 a = 2, four series-5 players → b = 5: b1 100, j 75, b3 50, b4 25;
    # B2 a = 2, five → b = 6: b1 100, b8 80, b4 60, b3 40, j 20; B3 a = 2, b = 2: b8 at 3 is
    # below (0). PP6 zones: B1 a = 6, b = 7: b5 100, b6 50, b7 0, the first five 100;
    # B2 a = 7, b = 8: b6 100, b5 50; B3 a = 3, b = 3: b8 (3rd) 100. PP7: b7 alone in
    # the zone of B1 (a = b = 8) and B2 (a = b = 9): 100.
    assert pp["b1"] == pytest.approx((100.0, 100.0, 100.0))
    assert pp["j"] == pytest.approx(((75 + 20) / 2, 100.0, 100.0))  # 47.5
    assert pp["b3"] == pytest.approx(((50 + 40) / 2, 100.0, 100.0))  # 45
    assert pp["b4"] == pytest.approx(((25 + 60) / 2, 100.0, 100.0))  # 42.5
    assert pp["b8"] == pytest.approx(((80 + 0) / 2, 100.0, 100.0))  # 40
    assert pp["b5"] == pytest.approx((0.0, (100 + 50) / 2, 100.0))
    assert pp["b6"] == pytest.approx((0.0, (50 + 100) / 2, 100.0))
    assert pp["b7"] == pytest.approx((0.0, 0.0, 100.0))
    # Only the players asked for (the Belgian pools): only their events scored, every
    # player of them — their PP exactly the same.
    asked = pp_standings(
        season.scores, season.tournaments, series_params, players=pl.Series(["b8"])
    )
    mine = {r["player_id"]: (r["pp5"], r["pp6"], r["pp7"]) for r in asked.iter_rows(named=True)}
    assert mine["b8"] == pp["b8"]  # B2 and B3, not B1
    played = season.scores.filter(pl.col("tournament_id").is_in(["B2", "B3"]))
    assert set(mine) == set(played["player_id"].to_list()) < set(pp)


def test_belgian_just_under_the_pp5_minimum_is_not_series_5(
    params: NationalParams,
    quotas: SeriesQuotas,
    series_params: SeriesParams,
    federations: AliasTable,
) -> None:
    season = _belgium(series_params)
    belgium = dataclasses.replace(params, belgium=BelgiumParams(min_pp5=50.0))
    result = _classify(season, belgium, quotas, series_params, federations)
    rows = _rows(result, "BEL")
    assert len(rows) == 10
    # N = 10, BEL cumulative shares: 1–4 18, 5A 28 → 3, 5B 38 → 4, 6A 69 → 7. Above: x1, x2.
    # 5A wants 3 − 2 = 1: b1 (PP5 100). 5B wants 1, but j, the best left, has PP5 47.5 <
    # 50: nobody. 6A wants 7 − 3 = 4 by PP6: j, b3, b4, b8 (100). 6B: PP6 above 0: b5, b6
    # (75). Series 7: b7 (PP6 0), by PP7 100.
    assert _placed(rows) == {
        "x1": ("4", None),
        "x2": ("4", None),
        "b1": ("5", "5A"),
        "j": ("6", "6A"),
        "b3": ("6", "6A"),
        "b4": ("6", "6A"),
        "b8": ("6", "6A"),
        "b5": ("6", "6B"),
        "b6": ("6", "6B"),
        "b7": ("7", None),
    }
    assert (rows["j"]["rule"], rows["j"]["value"]) == ("belgium_pp6", pytest.approx(100.0))
    assert (rows["b1"]["rule"], rows["b7"]["rule"]) == ("belgium_pp5", "belgium_pp7")
    bars = {
        b["subseries"] or b["series"]: (b["bar"], b["admitted"], b["target"])
        for b in result.bars.filter(pl.col("federation") == "BEL").iter_rows(named=True)
    }
    assert bars["5B"] == (None, 0, 1)
    assert bars["6A"] == (pytest.approx(100.0), 4, 4)
    # The PP5 minimum is published too, with the players reaching it (b1 100, and PP5 of
    # j 47.5, b3 45, b4 42.5, b8 40 are under 50).
    assert bars["5"] == (50.0, 1, None)
    kinds = result.bars.filter(pl.col("federation") == "BEL").select("subseries", "kind").rows()
    assert kinds == [
        (None, "minimum"),
        ("5A", "quota"),
        ("5B", "quota"),
        ("6A", "quota"),
        ("6B", "rest"),
        (None, "rest"),
    ]

    # At a minimum of 47.5, j reaches it (a minimum is inclusive) and is 5B; 6A then wants
    # 7 − 4 = 3: b3, b4, b8.
    lower = dataclasses.replace(params, belgium=BelgiumParams(min_pp5=47.5))
    rows = _rows(_classify(season, lower, quotas, series_params, federations), "BEL")
    assert _placed(rows)["j"] == ("5", "5B")
    assert rows["j"]["value"] == pytest.approx(47.5)
    assert {p for p, r in rows.items() if r["subseries"] == "6A"} == {"b3", "b4", "b8"}


# --------------------------------------------------------------------------- Switzerland


def _swiss_player(
    player: str, home: list[int], away: list[int], countries: tuple[str, ...] = ("CH",)
) -> list[Event]:
    """One 10-player, 4-game event per place: PC = 50 − 5 × (place − 1). Home events are
    held in Switzerland (the country written in turn as `countries`), the others in France."""
    events = []
    for k, place in enumerate(home + away):
        tid = f"{player}-{k + 1:02d}"
        rows = [(f"{tid}-f{r}", r, "6", None) for r in range(1, 11) if r != place]
        rows.append((player, place, "6", None))
        country = countries[k % len(countries)] if k < len(home) else "France"
        events.append(Event(tid, rows, country=country))
    return events


def test_switzerland_best_eight_with_three_swiss_events(
    params: NationalParams,
    quotas: SeriesQuotas,
    series_params: SeriesParams,
    federations: AliasTable,
) -> None:
    events = (
        # s1: 10 events, exactly 3 in Switzerland (places 1, 5, 9 → PC 50, 30, 10) and 7
        # elsewhere (45, 40, 35, 25, 20, 15, 5). Counted: 50 + 30 + 10 and the 5 best others
        # 45 + 40 + 35 + 25 + 20 → 255 (the 8 best overall would give 260).
        _swiss_player("s1", [1, 5, 9], [2, 3, 4, 6, 7, 8, 10], ("CH", "Suisse", "Schweiz"))
        # s2: only 2 Swiss events: not classified by the rule.
        + _swiss_player("s2", [1, 2], [3, 4, 5, 6, 7, 8])
        # s3: 4 Swiss events (50, 45, 40, 35) and 6 others (30 … 5): the 3 best Swiss, then
        # the 5 best of the rest, the 4th Swiss event included: 135 + 35 + 30 + 25 + 20 + 15
        # → 260.
        + _swiss_player("s3", [1, 2, 3, 4], [5, 6, 7, 8, 9, 10], ("SUI",))
        # s4: 3 Swiss events (places 8, 9, 10 → 15, 10, 5) and nothing else: 30.
        + _swiss_player("s4", [8, 9, 10], [], ("FSSC",))
    )
    # The players' federation written four ways in one season.
    population = [("s1", "CH", "6"), ("s2", "Suisse", "6"), ("s3", "SUI", "5")]
    population += [("s4", "FSSC", "6")]
    season = _season(events, population, series_params)

    members = pl.DataFrame({"player_id": ["s1", "s2", "s3", "s4"], "federation": ["SUI"] * 4})
    best = {
        r["player_id"]: (r["events"], r["home_events"], r["pc_best"])
        for r in best_events_pc(
            season.scores, season.tournaments, members, federations, params.switzerland
        ).iter_rows(named=True)
    }
    assert best == {
        "s1": (10, 3, 255.0),
        "s2": (8, 2, 50 + 45 + 40 + 35 + 30 + 25 + 20.0),  # 2 home + the 5 best others
        "s3": (10, 4, 260.0),
        "s4": (3, 3, 30.0),
    }

    rows = _rows(_classify(season, params, quotas, series_params, federations), "SUI")
    assert set(rows) == {"s1", "s2", "s3", "s4"}
    # N = 4, SUI cumulative shares: 5A 28 → 1, 5B 38 → 2, 6A 69 → 3, 6B the rest.
    assert _placed(rows) == {
        "s3": ("5", "5A"),
        "s1": ("5", "5B"),
        "s4": ("6", "6A"),
        "s2": (None, None),
    }
    assert (rows["s1"]["rule"], rows["s1"]["value"]) == ("switzerland_pc", 255.0)
    assert rows["s2"]["value"] is None
    assert rows["s2"]["reason"] == (
        "seulement 2 tournois joués en Suisse dans la saison, 3 exigés : non classé par la "
        "règle suisse (PC des 8 meilleures performances, dont les 3 meilleures en Suisse)"
    )


# --------------------------------------------------------------------------- median rule


def _median_season(series_params: SeriesParams, drop: int = 0) -> Season:
    """French reference players in R1 (top total 1000): series 5 at 900, 880, 860 (minus
    `drop`), series 6 at 800 and 780, series 7 at 700. Luxembourg and UK players:
    l1 in R1–R4 at 800, 900, 700, 850 (an even count); l2 835; l3 740; g1 600, 950, 910;
    l4 without a score."""
    r1 = [
        ("r5a", "5", 900 - drop),
        ("r5b", "5", 880 - drop),
        ("r5c", "5", 860 - drop),
        ("r6a", "6", 800),
        ("r6b", "6", 780),
        ("r7a", "7", 700),
        ("l1", "6", 800),
        ("l2", "6", 835),
        ("l3", "6", 740),
        ("g1", "5", 600),
        ("l4", "6", None),
    ]
    ranked = sorted(r1, key=lambda r: -(r[2] or 0))
    events = [
        Event("R1", [(p, k + 1, s, sc) for k, (p, s, sc) in enumerate(ranked)], country="LU"),
        Event("R2", [("l1", 1, "6", 900), ("g1", 2, "5", 950)]),
        Event("R3", [("l1", 1, "6", 700), ("g1", 2, "5", 910)], country="Royaume-Uni"),
        Event("R4", [("l1", 1, "6", 850)]),
    ]
    population = [(p, "FRA", "6") for p in ("r5a", "r5b", "r5c", "r6a", "r6b", "r7a")]
    population += [("l1", "LUX", "6"), ("l2", "Luxembourg", "6"), ("l3", "FLSc", "6")]
    population += [("g1", "Royaume-Uni", "5"), ("l4", "LU", "6")]
    return _season(events, population, series_params)


def test_median_of_an_even_count_is_the_mean_of_the_two_middle_values(
    series_params: SeriesParams,
) -> None:
    season = _median_season(series_params)
    medians = {
        r["player_id"]: (r["events"], r["median"])
        for r in season_medians(
            event_percentages(season.scores, season.results, season.tournaments)
        ).iter_rows(named=True)
    }
    assert medians["l1"] == (4, pytest.approx((80 + 85) / 2))  # 70, 80, 85, 90 → 82.5
    assert medians["g1"] == (3, pytest.approx(91.0))  # 60, 91, 95 → 91
    assert medians["r5a"] == (1, pytest.approx(90.0))
    assert "l4" not in medians  # no score: no percentage


def test_cle_de_repartition_and_the_mapping(
    params: NationalParams,
    quotas: SeriesQuotas,
    series_params: SeriesParams,
    federations: AliasTable,
) -> None:
    result = _classify(_median_season(series_params), params, quotas, series_params, federations)
    cle = {r["series"]: r for r in result.cle.iter_rows(named=True)}
    # Reference medians: series 5 median(90, 88, 86) = 88; 6 median(80, 78) = 79; 7 70.
    # Bounds: 5/6 (88 + 79) / 2 = 83.5, 6/7 (79 + 70) / 2 = 74.5.
    assert [
        (s, r["reference_median"], r["lower_bound"], r["upper_bound"], r["players"])
        for s, r in cle.items()
    ] == [
        ("5", pytest.approx(88.0), pytest.approx(83.5), None, 3),
        ("6", pytest.approx(79.0), pytest.approx(74.5), pytest.approx(83.5), 2),
        ("7", pytest.approx(70.0), None, pytest.approx(74.5), 1),
    ]
    assert set(result.cle.get_column("reference_federation")) == {"FRA"}
    lux, gbr = _rows(result, "LUX"), _rows(result, "GBR")
    assert set(lux) == {"l1", "l2", "l3", "l4"} and set(gbr) == {"g1"}
    assert (lux["l1"]["series"], lux["l1"]["value"]) == ("6", pytest.approx(82.5))
    assert lux["l2"]["series"] == "5"  # 83.5, on the bound: the better series
    assert lux["l3"]["series"] == "7"  # 74 < 74.5
    assert (gbr["g1"]["series"], gbr["g1"]["rule"]) == ("5", "median_cle")  # 91
    assert lux["l4"]["series"] is None
    assert lux["l4"]["reason"] == (
        "aucun résultat de la saison avec un score et un total des tops : pas de pourcentage médian"
    )


def test_the_cle_moves_with_the_reference_federation(
    params: NationalParams,
    quotas: SeriesQuotas,
    series_params: SeriesParams,
    federations: AliasTable,
) -> None:
    # The French series-5 players score 40 less: 86, 84, 82 → median 84; the 5/6 bound
    # becomes (84 + 79) / 2 = 81.5, and l1 (82.5) moves from series 6 to series 5.
    before = _classify(_median_season(series_params), params, quotas, series_params, federations)
    after = _classify(
        _median_season(series_params, drop=40), params, quotas, series_params, federations
    )
    five = after.cle.filter(pl.col("series") == "5").row(0, named=True)
    assert five["reference_median"] == pytest.approx(84.0)
    assert five["lower_bound"] == pytest.approx(81.5)
    assert _rows(before, "LUX")["l1"]["series"] == "6"
    assert _rows(after, "LUX")["l1"]["series"] == "5"
    # The Luxembourg data did not move.
    assert _rows(after, "LUX")["l1"]["value"] == _rows(before, "LUX")["l1"]["value"]


def test_an_empty_cle_classifies_nobody_and_says_why(
    params: NationalParams,
    quotas: SeriesQuotas,
    series_params: SeriesParams,
    federations: AliasTable,
) -> None:
    # Belgium as the reference federation: no Belgian player in this season.
    belgian = dataclasses.replace(
        params, median=dataclasses.replace(params.median, reference_federation="BEL")
    )
    result = _classify(_median_season(series_params), belgian, quotas, series_params, federations)
    assert result.cle.get_column("players").to_list() == [0, 0, 0]
    assert result.cle.get_column("reference_median").null_count() == 3
    l1 = _rows(result, "LUX")["l1"]
    assert (l1["series"], l1["value"]) == (None, pytest.approx(82.5))
    assert l1["reason"] == (
        "clé de répartition vide : aucun joueur de la fédération de référence (BEL) des "
        "séries 5, 6, 7 n'a de pourcentage cette saison"
    )


def test_cle_series_without_reference_player(series_params: SeriesParams) -> None:
    # No reference player held series 6: its row has no median nor bounds, and the bound
    # between 5 and 7 is their midpoint (88 + 70) / 2 = 79.
    season = _median_season(series_params)
    medians = season_medians(event_percentages(season.scores, season.results, season.tournaments))
    held = season_held_series(season.scores, season.tournaments).filter(
        ~pl.col("player_id").is_in(["r6a", "r6b"])
    )
    players = pl.DataFrame({"player_id": ["r5a", "r5b", "r5c", "r7a"], "federation": ["FRA"] * 4})
    params = load_national_params(REFERENCE).median
    cle = cle_de_repartition(SEASON, medians, held, players, params)
    assert cle.select(
        "series", "reference_median", "lower_bound", "upper_bound", "players"
    ).rows() == [
        ("5", pytest.approx(88.0), pytest.approx(79.0), None, 3),
        ("6", None, None, None, 0),
        ("7", pytest.approx(70.0), None, pytest.approx(79.0), 1),
    ]


# --------------------------------------------------------------------------- the whole season


def test_one_row_per_licensee_of_each_federation_with_a_rule(
    params: NationalParams,
    quotas: SeriesQuotas,
    series_params: SeriesParams,
    federations: AliasTable,
) -> None:
    median = _median_season(series_params)
    belgium = _belgium(series_params)
    swiss = _season(
        _swiss_player("s1", [1, 2, 3], [4]) + _swiss_player("s2", [1], [2]),
        [("s1", "CH", "6"), ("s2", "FSSC", "6")],
        series_params,
    )
    frames = [median, belgium, swiss]
    season = Season(
        *(pl.concat([getattr(f, c.name) for f in frames]) for c in dataclasses.fields(Season))
    )
    extra = table("series_classification").complete(
        pl.DataFrame(
            {
                "season": [SEASON] * 4,
                "player_id": ["q1", "w1", "n1", "ss"],
                "series": ["5", "6", "7", "1"],
                "super_serie": [False, False, False, True],
                "federation": ["Québec", "Wakanda", "Suisse", "Belgique"],
            }
        )
    )
    season.classification = pl.concat([season.classification, extra])
    result = _classify(season, params, quotas, series_params, federations)
    table_ = result.classification
    assert table_.select("season", "player_id").is_duplicated().sum() == 0
    # Every licensee of FRA, BEL, SUI, LUX, GBR: not q1 (Québec has no rule) nor w1
    # (unknown federation).
    expected = set(season.classification.get_column("player_id")) - {"q1", "w1"}
    assert set(table_.get_column("player_id")) == expected
    assert table_.filter(pl.col("series").is_null() & pl.col("reason").is_null()).height == 0
    assert _rows(result, "SUI")["n1"]["rule"] == "new_licensee"
    assert (_rows(result, "BEL")["ss"]["series"], _rows(result, "BEL")["ss"]["rule"]) == (
        "SS",
        "international",
    )
    assert str(_rows(result, "SUI")["s2"]["reason"]).startswith(
        "seulement 1 tournoi joué en Suisse"
    )
    # Deterministic: the same inputs give the same frames.
    again = _classify(season, params, quotas, series_params, federations)
    assert again.classification.equals(result.classification)
    assert again.bars.equals(result.bars)
    assert again.cle.equals(result.cle)


# --------------------------------------------------------------------------- parameters


def test_national_yaml(params: NationalParams) -> None:
    assert dict(params.rules) == {
        "FRA": "france",
        "BEL": "belgium",
        "SUI": "switzerland",
        "LUX": "median",
        "GBR": "median",
    }
    assert (params.switzerland.counted_events, params.switzerland.home_events) == (8, 3)
    assert (params.median.reference_federation, params.median.series) == ("FRA", ("5", "6", "7"))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("  BEL: belgium", "  BEL: wallonie"), r"rules\.BEL: unknown rule 'wallonie'"),
        (("  GBR: median", "  XYZ: median"), r"rules\.XYZ: not a code of federations\.csv"),
        (("reference_federation: FRA", "reference_federation: France"), "not a code"),
        (("home_events: 3 ", "home_events: 9 "), "home_events <= counted_events"),
        (("min_pct_n4: 5 ", "min_pct_n4: beaucoup "), r"france\.min_pct_n4 must be a number"),
        (("min_pct_n4: 5 ", "min_pc: 6000\n  min_pct_n4: 5 "), r"france\.min_pc is no longer"),
        (('series: ["5", "6", "7"]', 'series: ["5", "8"]'), "series must be among"),
    ],
)
def test_national_yaml_errors_name_the_file_and_key(
    tmp_path: Path, edit: tuple[str, str], message: str
) -> None:
    text = (REFERENCE / "national.yaml").read_text(encoding="utf-8")
    assert edit[0] in text
    (tmp_path / "national.yaml").write_text(text.replace(edit[0], edit[1]), encoding="utf-8")
    (tmp_path / "federations.csv").write_bytes((REFERENCE / "federations.csv").read_bytes())
    with pytest.raises(ReferenceDataError, match=rf"national\.yaml: .*{message}"):
        load_national_params(tmp_path)


def test_a_federation_without_pool_still_gets_its_rows(
    params: NationalParams,
    quotas: SeriesQuotas,
    series_params: SeriesParams,
    federations: AliasTable,
) -> None:
    season = _season([], [("x", "BEL", "4"), ("n", "Belgique", "7")], series_params)
    result = _classify(season, params, quotas, series_params, federations)
    assert _placed(_rows(result, "BEL")) == {"x": ("4", None), "n": ("7", None)}
    # The bars are still published, with nobody admitted.
    assert set(result.bars.get_column("admitted")) == {0}
    assert result.bars.select("series", "subseries", "kind").rows() == [
        ("5", None, "minimum"),
        ("5", "5A", "quota"),
        ("5", "5B", "quota"),
        ("6", "6A", "quota"),
        ("6", "6B", "rest"),
        ("7", None, "rest"),
    ]
