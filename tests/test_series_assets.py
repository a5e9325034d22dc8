"""Series assets on a small warehouse: two seasons built in order, partitions isolated."""

from __future__ import annotations

import datetime as dt

import dagster as dg
import polars as pl
import pytest

from pipelines.defs.series.assets import (
    QUOTA_CHECK,
    ZERO_CHECK,
    duplicate_event_scores,
    series_classification,
    series_standings,
)
from pipelines.instance import build_instance
from pipelines.paths import REFERENCE_DIR
from pipelines.reference.series import load_series_params, load_series_quotas
from pipelines.warehouse import Warehouse
from tests.builds import materialise
from tests.support import declared
from transforms.series_provisional import provisional_as_of, provisional_classification

S1, S2 = "2022-2023", "2023-2024"
PLAYERS = [f"p{i:02d}" for i in range(1, 21)]
SERIES_TABLES = [
    "duplicate_event_scores",
    "series_standings",
    "series_classification",
    "series_bars",
    "series_movements",
    "series_provisional",
]


def _tournaments() -> pl.DataFrame:
    rows = [
        ("A1", "duplicate", dt.date(2022, 10, 2), S1, "homologue", 3, None),
        ("A2", "duplicate", dt.date(2023, 3, 5), S1, "open", 5, 2.0),
        ("K1", "classique", dt.date(2023, 4, 1), S1, "homologue", 7, None),
        ("B1", "duplicate", dt.date(2023, 11, 12), S2, "homologue", 3, None),
        ("B2", "duplicate", dt.date(2024, 2, 4), S2, None, 4, None),
        ("K2", "classique", dt.date(2024, 3, 1), S2, "homologue", 7, None),
    ]
    return pl.DataFrame(
        {
            "tournament_id": [r[0] for r in rows],
            "tournament_name": [f"Tournoi {r[0]}" for r in rows],
            "discipline": [r[1] for r in rows],
            "start_date": [r[2] for r in rows],
            "end_date": [r[2] for r in rows],
            "season": [r[3] for r in rows],
            "city": ["Vichy"] * len(rows),
            "country": ["FRA"] * len(rows),
            "category": [r[4] for r in rows],
            "games": [r[5] for r in rows],
            "coefficient": [r[6] for r in rows],
            "top_total": [3000] * len(rows),
            "players": [20, 20, 2, 20, 20, 2],
        },
        schema_overrides={
            "games": pl.Int64,
            "coefficient": pl.Float64,
            "top_total": pl.Int64,
            "players": pl.Int64,
        },
    )


def _written_series(i: int) -> str | None:
    if i == 1:
        return "1"
    if i <= 3:
        return "2"
    if i <= 6:
        return "3"
    if i <= 10:
        return "4"
    return "5" if i <= 14 else "6"


def _results() -> pl.DataFrame:
    rows: list[tuple[str, str, int, str | None]] = []
    for t in ("A1", "A2", "B1", "B2"):
        order = PLAYERS if t in ("A1", "B1") else PLAYERS[1:5] + PLAYERS[:1] + PLAYERS[5:]
        for place, pid in enumerate(order, start=1):
            i = int(pid[1:])
            series = _written_series(i)
            if pid == "p20" and t.startswith("A"):
                series = None  # falls back on the rating list
            if pid == "p19" and t.startswith("B"):
                series = None  # falls back on the project's season-1 classification
            rows.append((t, pid, place, series))
    rows += [
        ("K1", "p01", 1, "1"),
        ("K1", "p02", 2, "2"),
        ("K2", "n01", 1, None),
        ("K2", "p03", 2, "2"),
    ]
    return pl.DataFrame(
        {
            "tournament_id": [r[0] for r in rows],
            "player_id": [r[1] for r in rows],
            "rank": [r[2] for r in rows],
            "federation": ["FRA"] * len(rows),
            "club": ["Club"] * len(rows),
            "series": [r[3] for r in rows],
            "birth_year": [1970] * len(rows),
            "score": [900 - r[2] for r in rows],
        },
        schema_overrides={
            "rank": pl.Int64,
            "series": pl.String,
            "birth_year": pl.Int64,
            "score": pl.Int64,
        },
    )


def _players() -> pl.DataFrame:
    ids = [*PLAYERS, "n01", "k01"]
    return pl.DataFrame(
        {
            "player_id": ids,
            "last_name": [f"Nom{p}" for p in ids],
            "first_name": [f"Prénom{p}" for p in ids],
            "federation": ["FFSc"] * len(ids),
            "club": ["Club"] * len(ids),
            "birth_year": [1970] * len(ids),
            # k01: first (classique) tournament in 2023-2024, never listed: not a duplicate
            # licensee, not counted by the cascade.
            "first_tournament_date": [dt.date(2010, 1, 1)] * len(PLAYERS)
            + [dt.date(2024, 3, 1), dt.date(2024, 3, 1)],
        },
        schema_overrides={"birth_year": pl.Int64},
    )


def _rating_lists() -> pl.DataFrame:
    return pl.DataFrame(
        {
            # n01: licensed in 2023-2024 (listed in series 7), no result: a new licensee.
            "player_id": ["p20", "p20", "n01"],
            "as_of": [dt.date(2022, 9, 1), dt.date(2021, 9, 1), dt.date(2023, 9, 1)],
            "cote": [1600, 1500, None],
            "elo": [1500.0, 1500.0, None],
            "elo_games": [0, 0, None],
            "series": ["6", "5", "7"],
            "source_file": ["liste.csv", "liste.csv", "licences.csv"],
        },
        schema_overrides={"cote": pl.Int64, "elo_games": pl.Int64},
    )


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Warehouse, dict[str, dg.ExecuteInProcessResult]]:
    """The two seasons built in order, once for the module (the tests only read them)."""
    path = tmp_path_factory.mktemp("series-assets") / "w.duckdb"
    wh = Warehouse(path)
    wh.replace_tables(
        declared(
            tournaments=_tournaments(),
            results=_results(),
            players=_players(),
            rating_lists=_rating_lists(),
        )
    )
    instance = build_instance()
    instance.add_dynamic_partitions("season", [S1, S2])
    assets = [duplicate_event_scores, series_standings, series_classification]
    runs: dict[str, dg.ExecuteInProcessResult] = {}
    runs[S1] = materialise(assets, path, partition=S1, instance=instance)
    runs["snapshot"] = {
        t: wh.read(f'SELECT * FROM "{t}" WHERE season = ?', [S1])  # type: ignore[assignment]
        for t in SERIES_TABLES
    }
    runs[S2] = materialise(assets, path, partition=S2, instance=instance)
    return wh, runs


def test_event_scores_only_duplicate_with_series_fallbacks(built) -> None:
    wh, _ = built
    scores = wh.table("duplicate_event_scores")
    assert scores.filter(pl.col("season") == S1).height == 40
    assert set(scores.get_column("tournament_id")) == {"A1", "A2", "B1", "B2"}
    p20 = scores.filter((pl.col("player_id") == "p20") & (pl.col("season") == S1))
    assert set(p20.get_column("series")) == {"6"}  # latest rating list on or before the event
    assert set(p20.get_column("series_source")) == {"rating_list"}
    cls1 = wh.read("SELECT * FROM series_classification WHERE season = ?", [S1])
    p19_next = cls1.filter(pl.col("player_id") == "p19").get_column("series")[0]
    p19 = scores.filter((pl.col("player_id") == "p19") & (pl.col("season") == S2))
    assert set(p19.get_column("series")) == {p19_next}
    # A1: 20 players, 3 games → winner 20 × 15/4 = 75 PC.
    winner = scores.filter((pl.col("tournament_id") == "A1") & (pl.col("place") == 1))
    assert winner.get_column("pc").to_list() == [75.0]


def test_standings_weights_and_super_serie_reads_previous_season(built) -> None:
    wh, _ = built
    st = wh.table("series_standings")
    # p02: A1 place 2 (series 2, zone 1 = {p01} → %N1 0), A2 winner (100), A2 weighs 2.
    p02 = st.filter((pl.col("season") == S1) & (pl.col("player_id") == "p02")).row(0, named=True)
    assert p02["pct_n1"] == pytest.approx((0 * 1 + 100 * 2) / 3)
    assert p02["federation"] == "FFSc"
    assert p02["pc"] == pytest.approx((19 * 15 / 4) + (20 * 25 / 4))
    p02_2 = st.filter((pl.col("season") == S2) & (pl.col("player_id") == "p02")).row(0, named=True)
    assert p02_2["super_serie_previous"] == pytest.approx(p02["super_serie_season"])
    assert p02_2["super_serie_pct"] == pytest.approx(
        0.75 * p02_2["super_serie_season"] + 0.25 * p02["super_serie_season"]
    )


def test_classification_new_licensee_bars_and_movements(built) -> None:
    wh, _ = built
    cls2 = wh.read("SELECT * FROM series_classification WHERE season = ?", [S2])
    assert cls2.height == 21  # 20 players with results + the new licensee n01
    assert cls2.filter(pl.col("player_id") == "n01").get_column("series").to_list() == ["7"]
    cls1 = wh.read("SELECT * FROM series_classification WHERE season = ?", [S1])
    assert cls1.height == 20  # n01 is not a licensee of season 1
    # N = 20: boundaries 0, 1, 1, 4, 8; series 6 the rest. Six players share %N4 100 at
    # the series-4 bar (target 3): all admitted, series 5 shrinks to one.
    sizes = dict(cls1.group_by("series").agg(pl.len()).iter_rows())
    assert sizes == {"2": 1, "4": 6, "5": 1, "6": 12}
    bars = wh.read("SELECT * FROM series_bars WHERE season = ?", [S1])
    assert {"SS", "1", "2", "3", "4", "5", "6", "7"} <= set(bars.get_column("series"))
    moves = wh.read("SELECT * FROM series_movements WHERE season = ?", [S2])
    assert moves.filter(pl.col("player_id") == "n01").get_column("movement").to_list() == ["new"]
    assert set(moves.get_column("movement")) <= {"promoted", "relegated", "unchanged", "new"}
    prov = wh.read("SELECT * FROM series_provisional WHERE season = ?", [S2])
    assert prov.get_column("after_tournament_id").unique(maintain_order=True).to_list() == [
        "B1",
        "B2",
    ]


def test_provisional_stores_changes_that_rebuild_every_event(built) -> None:
    wh, _ = built
    params = load_series_params(REFERENCE_DIR)
    quotas = load_series_quotas(REFERENCE_DIR)
    events = wh.read(
        "SELECT * FROM tournaments WHERE season = ? AND discipline = 'duplicate'", [S2]
    )
    scores = wh.read("SELECT * FROM duplicate_event_scores WHERE season = ?", [S2])
    new = pl.DataFrame({"player_id": ["n01"], "federation": ["FFSc"]})
    full = provisional_classification(scores, events, quotas, params, new)
    stored = wh.read("SELECT * FROM series_provisional WHERE season = ?", [S2])
    assert stored.height < full.height  # B2 only stores the players whose row changed
    first = stored.filter(pl.col("after_tournament_id") == "B1")
    assert first.height == 21  # everyone's first appearance, n01 in series 7
    for tid in ("B1", "B2"):
        expected = full.filter(pl.col("after_tournament_id") == tid)
        assert provisional_as_of(stored, tid, events).equals(expected), tid


def test_season_one_untouched_and_check_passes(built) -> None:
    wh, runs = built
    for table, before in runs["snapshot"].items():  # type: ignore[union-attr]
        after = wh.read(f'SELECT * FROM "{table}" WHERE season = ?', [S1])
        assert after.sort(after.columns).equals(before.sort(before.columns)), table
    for season in (S1, S2):
        evaluations = runs[season].get_asset_check_evaluations()
        assert [e.check_name for e in evaluations] == [QUOTA_CHECK, ZERO_CHECK]
        assert all(e.passed for e in evaluations)
