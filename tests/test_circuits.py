"""docs/rules.md §5 (PACA regional ranking): the four points tables, a tournament's points, the
window of each ranking on [001]'s 2010–2011 calendars, club points, best 5, ties, movement,
seeds and the Masters invitees."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from pipelines.reference.circuits import load_circuit_names, load_circuit_params
from pipelines.reference.files import ReferenceDataError
from transforms.circuits import (
    CircuitError,
    CircuitParams,
    calendar_editions,
    circuit_codes_expr,
    circuit_tables,
    in_circuit,
    ranking_inconsistencies,
    ranking_windows,
    seeds_from_ranking,
    tournament_points,
    unknown_circuits_expr,
    with_circuit_codes,
)
from transforms.elo import GAME_SIDE_SCHEMA
from transforms.tables import table

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "circuits"
PARAMS = load_circuit_params(REFERENCE)


def _grid(*rows: list[int]) -> tuple[tuple[Fraction, ...], ...]:
    return tuple(tuple(Fraction(v) for v in row) for row in rows)


# Hand-computable parameters: 2 seeds, 4 places scored. Columns = 0, 1, 2 seeds present.
SMALL = CircuitParams(
    circuit="PACA",
    seeds=2,
    places_scored=4,
    best_results=5,
    club_best_players=3,
    masters_invitees=2,
    duplicate_points=_grid([10, 20, 30], [5, 10, 15], [2, 4, 6], [1, 2, 3]),
    win_points=(Fraction(50), Fraction(30)),
    draw_points=(Fraction(25), Fraction(15)),
    final_points=_grid([100, 200, 300], [60, 120, 180], [40, 80, 120], [20, 40, 60]),
)
# The same with places points that do not depend on the seeds present, and no duplicate.
FLAT = CircuitParams(
    circuit="PACA",
    seeds=2,
    places_scored=4,
    best_results=5,
    club_best_players=3,
    masters_invitees=2,
    duplicate_points=_grid([0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]),
    win_points=(Fraction(50), Fraction(30)),
    draw_points=(Fraction(25), Fraction(15)),
    final_points=_grid([100, 100, 100], [60, 60, 60], [40, 40, 40], [20, 20, 20]),
)


# --------------------------------------------------------------------------- the tables


def test_table_1_reproduces_the_source() -> None:
    """[001] §2.2: 12 seeds, 11th of the duplicate → 110; §2.6: 13 seeds, 10th → 125."""
    assert PARAMS.duplicate_points[11 - 1][12] == 110
    assert PARAMS.duplicate_points[10 - 1][13] == 125


def test_table_4_reproduces_the_source() -> None:
    """[001] §2.5: 12 seeds, 4th → 540; §2.6: 13 seeds, 7th → 470."""
    assert PARAMS.final_points[4 - 1][12] == 540
    assert PARAMS.final_points[7 - 1][13] == 470


def test_table_2_wins_over_seeds() -> None:
    """[001] §2.3 and §2.6: seeds 3, 4, 8, 10 → 70, 65, 45, 35; the line 85 − 5n."""
    assert [PARAMS.win_points[n - 1] for n in (3, 4, 8, 10)] == [70, 65, 45, 35]
    assert list(PARAMS.win_points) == [85 - 5 * n for n in range(1, 17)]


def test_table_3_draws_are_half_of_table_2() -> None:
    """[001] §2.4: seed 6 → 27.5; seeds 5 and 10 drawing score 17.5 and 30."""
    assert PARAMS.draw_points[6 - 1] == Fraction(55, 2)
    assert PARAMS.draw_points[10 - 1] == Fraction(35, 2)
    assert PARAMS.draw_points[5 - 1] == 30
    assert [2 * d for d in PARAMS.draw_points] == list(PARAMS.win_points)
    assert PARAMS.unit == 2


def test_default_place_tables_cover_32_places_and_0_to_16_seeds() -> None:
    for grid in (PARAMS.duplicate_points, PARAMS.final_points):
        assert len(grid) == 32 and all(len(row) == 17 for row in grid)
        for place in range(32):
            row = grid[place]
            assert all(v >= 1 for v in row), "each of the 32 first scores"
            assert list(row) == sorted(row), "more seeds present never scores less"
            if place:
                assert all(a <= b for a, b in zip(row, grid[place - 1], strict=True))
    assert PARAMS.best_results == 5 and PARAMS.club_best_players == 3
    assert PARAMS.seeds == 16 and PARAMS.masters_invitees == 16
    assert PARAMS.places_scored == 32 and PARAMS.circuit == "PACA"


def test_loader_names_the_file_of_a_wrong_table(tmp_path: Path) -> None:
    (tmp_path / "circuits").mkdir()
    for name in ("circuits.yaml", *(f"circuits/paca_{k}_points.csv" for k in ("win", "final"))):
        (tmp_path / name).write_text((REFERENCE / name).read_text(encoding="utf-8"))
    (tmp_path / "circuits" / "paca_draw_points.csv").write_text("seed,points\n1,40\n")
    with pytest.raises(ReferenceDataError, match=r"paca_duplicate_points\.csv: file not found"):
        load_circuit_params(tmp_path)
    text = (REFERENCE / "circuits" / "paca_duplicate_points.csv").read_text(encoding="utf-8")
    (tmp_path / "circuits" / "paca_duplicate_points.csv").write_text(text)
    with pytest.raises(
        ReferenceDataError, match=r"paca_draw_points\.csv: expected one row per seed"
    ):
        load_circuit_params(tmp_path)


# --------------------------------------------------------------------------- one tournament


def _seeds(count: int) -> pl.DataFrame:
    """Seeds S1..S<count>, numbered 1..count."""
    return pl.DataFrame(
        {"player_id": [f"S{n}" for n in range(1, count + 1)], "seed": list(range(1, count + 1))},
        schema={"player_id": pl.String, "seed": pl.Int64},
    )


def _field(
    seeds: int, player: str, rank: int, duplicate_rank: int | None, seeds_from: int = 40
) -> pl.DataFrame:
    """`player` at (rank, duplicate_rank) and seeds S1..S<seeds> at places `seeds_from`,
    `seeds_from` + 1, … (40: beyond the 32 places that score)"""
    ids = [player, *(f"S{n}" for n in range(1, seeds + 1))]
    return pl.DataFrame(
        {
            "player_id": ids,
            "rank": [rank, *range(seeds_from, seeds_from + seeds)],
            "duplicate_rank": [duplicate_rank, *range(seeds_from, seeds_from + seeds)],
        },
        schema={"player_id": pl.String, "rank": pl.Int64, "duplicate_rank": pl.Int64},
    )


def _games(*games: tuple[str, str, int | None, int | None, float | None]) -> pl.DataFrame:
    """Games (player, opponent, player_score, opponent_score, player_result), one per round."""
    return pl.DataFrame(
        {
            "tournament_id": ["T"] * len(games),
            "round": list(range(1, len(games) + 1)),
            "player_id": [g[0] for g in games],
            "opponent_id": [g[1] for g in games],
            "player_score": [g[2] for g in games],
            "opponent_score": [g[3] for g in games],
            "player_result": [g[4] for g in games],
        },
        schema=GAME_SIDE_SCHEMA,
    )


def _row(points: pl.DataFrame, player: str) -> dict[str, object]:
    return points.filter(pl.col("player_id") == player).row(0, named=True)


def test_the_660_total_of_the_source() -> None:
    """[001] §2.6: 13 seeds, 10th of the duplicate (125), beats seed 4 (65), 7th (470)."""
    points = tournament_points(
        _field(13, "X", rank=7, duplicate_rank=10),
        _games(("X", "S4", 61, 48, None)),
        _seeds(13),
        PARAMS,
        tournament_id="T",
        year=2011,
    )
    x = _row(points, "X")
    assert x["seeds_present"] == 13 and x["seed"] is None
    assert (x["duplicate_points"], x["win_points"], x["draw_points"], x["final_points"]) == (
        125.0,
        65.0,
        0.0,
        470.0,
    )
    assert x["total"] == 660.0
    assert _row(points, "S4")["win_points"] == 0.0
    assert points.columns == table("circuit_points").column_names


def test_twelve_seeds_duplicate_11th_and_final_4th() -> None:
    """[001] §2.2: 11th of the duplicate with 12 seeds → 110; §2.5: 4th with 12 → 540."""
    points = tournament_points(
        _field(12, "X", rank=4, duplicate_rank=11),
        None,
        _seeds(12),
        PARAMS,
        tournament_id="T",
        year=2011,
    )
    x = _row(points, "X")
    assert (x["seeds_present"], x["duplicate_points"], x["final_points"], x["total"]) == (
        12,
        110.0,
        540.0,
        650.0,
    )


def test_wins_over_seeds_8_and_3_score_115() -> None:
    """[001] §2.3: a player beating seeds 8 and 3 scores 45 + 70 = 115."""
    points = tournament_points(
        _field(16, "X", rank=16, duplicate_rank=None, seeds_from=17),
        _games(("X", "S8", 55, 40, None), ("S3", "X", 39, 62, None)),
        _seeds(16),
        PARAMS,
        tournament_id="T",
        year=2011,
    )
    x = _row(points, "X")
    final = float(PARAMS.final_points[15][16])
    assert (x["win_points"], x["final_points"], x["total"]) == (115.0, final, 115.0 + final)


def test_seed_3_beating_seed_10_scores_35() -> None:
    """[001] §2.3: the rule holds between seeds, the better-placed one winning too."""
    points = tournament_points(
        _field(16, "X", rank=50, duplicate_rank=None, seeds_from=17),
        _games(("S3", "S10", 60, 51, None)),
        _seeds(16),
        PARAMS,
        tournament_id="T",
        year=2011,
    )
    assert _row(points, "S3")["win_points"] == 35.0
    assert _row(points, "S3")["seed"] == 3
    assert _row(points, "S10")["win_points"] == 0.0


def test_draws_with_seeds() -> None:
    """[001] §2.4: a draw with seed 6 → 27.5; seeds 5 and 10 drawing → 17.5 and 30.

    The first draw is read from equal scores, the second from `player_result`."""
    points = tournament_points(
        _field(16, "X", rank=16, duplicate_rank=None, seeds_from=17),
        _games(("X", "S6", 50, 50, None), ("S5", "S10", None, None, 0.5)),
        _seeds(16),
        PARAMS,
        tournament_id="T",
        year=2011,
    )
    assert _row(points, "X")["draw_points"] == 27.5
    assert _row(points, "S5")["draw_points"] == 17.5
    assert _row(points, "S10")["draw_points"] == 30.0


def test_every_win_counts_and_player_result_wins_over_scores() -> None:
    """Two wins over seed 2 (one stated as `player_result` 1 with level scores): 2 × 30."""
    points = tournament_points(
        _field(2, "X", rank=3, duplicate_rank=None),
        _games(("X", "S2", 40, 35, None), ("S2", "X", 44, 44, 0.0)),
        _seeds(2),
        SMALL,
        tournament_id="T",
        year=2012,
    )
    assert _row(points, "X")["win_points"] == 60.0
    assert _row(points, "S2")["draw_points"] == 0.0


def test_ties_at_16_read_the_16_column_and_places_beyond_32_score_nothing() -> None:
    """17 seeds present (two tied 16th) read table 4's 16-seed column; the 33rd scores 0."""
    seeds = pl.concat([_seeds(16), pl.DataFrame({"player_id": ["S17"], "seed": [16]})])
    field = pl.concat(
        [
            _field(16, "X", rank=1, duplicate_rank=33),
            pl.DataFrame({"player_id": ["S17"], "rank": [60], "duplicate_rank": [60]}),
        ],
        how="vertical_relaxed",
    )
    points = tournament_points(field, None, seeds, PARAMS, tournament_id="T", year=2011)
    x = _row(points, "X")
    assert x["seeds_present"] == 17
    assert x["final_points"] == float(PARAMS.final_points[0][16])
    assert x["duplicate_points"] == 0.0


def test_a_40th_placed_player_scores_0_in_all_four_tables() -> None:
    """[001]: « Les 32 premiers joueurs d'un tournoi marquent des points » and « Tous les
    joueurs classés dans les 32 premiers d'un tournoi marquent des points ». X, 40th of the
    tournament but 5th of the duplicate, beats seed 1 (table 2: 80) and draws with seed 6
    (table 3: 27.5): 0 in every table. The 32nd (S16) still scores."""
    field = pl.concat(
        [
            _field(16, "X", rank=40, duplicate_rank=5, seeds_from=17),
            pl.DataFrame({"player_id": ["Y"], "rank": [33], "duplicate_rank": [33]}),
        ],
        how="vertical_relaxed",
    )
    points = tournament_points(
        field,
        _games(("X", "S1", 70, 50, None), ("S6", "X", 44, 44, None), ("Y", "S2", 60, 40, None)),
        _seeds(16),
        PARAMS,
        tournament_id="T",
        year=2011,
    )
    for player in ("X", "Y"):
        row = _row(points, player)
        assert (
            row["duplicate_points"],
            row["win_points"],
            row["draw_points"],
            row["final_points"],
            row["total"],
        ) == (0.0, 0.0, 0.0, 0.0, 0.0)
    assert float(PARAMS.win_points[0]) == 80.0 and float(PARAMS.draw_points[5]) == 27.5
    assert field.filter(pl.col("player_id") == "S16")["rank"].item() == 32
    assert _row(points, "S16")["final_points"] == float(PARAMS.final_points[31][16]) > 0


def test_a_game_without_scores_or_result_is_an_error() -> None:
    with pytest.raises(CircuitError, match=r"tournoi T, ronde 1 : la partie de X contre S1"):
        tournament_points(
            _field(1, "X", rank=1, duplicate_rank=1),
            _games(("X", "S1", None, None, None)),
            _seeds(1),
            SMALL,
            tournament_id="T",
            year=2012,
        )


def test_seeds_are_the_places_1_to_16_with_points() -> None:
    ranking = pl.DataFrame(
        {
            "player_id": ["a", "b", "c", "d"],
            "place": [1, 2, 2, 4],
            "best5_total": [300.0, 100.0, 100.0, 0.0],
        }
    )
    seeds = seeds_from_ranking(ranking, SMALL)
    assert seeds.rows() == [("a", 1), ("b", 2), ("c", 2)]


def test_circuit_names_are_read_from_a_list() -> None:
    cells = pl.DataFrame({"circuit": ["PACA", " paca ; Grand Sud", "Grand Est", None]})
    assert cells.select(in_circuit(pl.col("circuit"), "PACA")).to_series().to_list() == [
        True,
        True,
        False,
        False,
    ]


# --------------------------------------------------------------------------- the window


def _calendar() -> pl.DataFrame:
    return pl.read_csv(FIXTURES / "calendar_2010_2011.csv", try_parse_dates=True)


def _held(calendar: pl.DataFrame) -> pl.DataFrame:
    return calendar.filter(pl.col("status") == "held").select(
        "tournament_id", pl.col("date").alias("end_date")
    )


def _windows(calendar: pl.DataFrame) -> dict[str, list[str]]:
    """Each ranking (by the tournament it follows, `PACA-` dropped) → its tournaments."""
    windows = ranking_windows(calendar, _held(calendar), "PACA")
    short = pl.col("tournament_id").str.strip_prefix("PACA-")
    grouped = windows.group_by("after_tournament_id", maintain_order=True).agg(short)
    return {after.removeprefix("PACA-"): counted for after, counted in grouped.iter_rows()}


_2010 = ["2010-BRIANCON", "2010-ORANGE", "2010-ARLES", "2010-SAINT-TROPEZ", "2010-MENTON"]
_2010_ALL = [*_2010, "2010-SISTERON"]
_2011 = [
    "2011-SAINT-TROPEZ",
    "2011-BRIANCON",
    "2011-ARLES",
    "2011-SISTERON",
    "2011-ORANGE",
    "2011-NICE",
]


def test_every_2010_ranking_counts_the_tournaments_held_so_far() -> None:
    got = _windows(_calendar())
    assert got["2010-BRIANCON"] == _2010[:1]
    assert got["2010-ORANGE"] == _2010[:2]
    assert got["2010-ARLES"] == _2010[:3]
    assert got["2010-SAINT-TROPEZ"] == _2010[:4]
    assert got["2010-MENTON"] == _2010[:5]
    assert got["2010-SISTERON"] == _2010_ALL


def test_2011_rankings_when_orange_2011_was_announced_before_the_anniversary() -> None:
    """Orange 2011 announced on 1 March 2011, before 11 April: Orange 2010 counts until
    Orange 2011 replaces it. Saint-Tropez 2010 is replaced on 9 January 2011; Menton 2010
    counts through Arles 2011 and is gone at Sisteron 2011."""
    got = _windows(_calendar())
    old = ["2010-BRIANCON", "2010-ORANGE", "2010-ARLES", "2010-MENTON", "2010-SISTERON"]
    assert got["2011-SAINT-TROPEZ"] == [*old, "2011-SAINT-TROPEZ"]
    assert got["2011-BRIANCON"] == [
        "2010-ORANGE",
        "2010-ARLES",
        "2010-MENTON",
        "2010-SISTERON",
        "2011-SAINT-TROPEZ",
        "2011-BRIANCON",
    ]
    assert got["2011-ARLES"] == [
        "2010-ORANGE",
        "2010-MENTON",
        "2010-SISTERON",
        *_2011[:3],
    ]
    assert got["2011-SISTERON"] == ["2010-ORANGE", *_2011[:4]]
    assert got["2011-ORANGE"] == _2011[:5]
    assert got["2011-NICE"] == _2011


def test_2011_rankings_when_orange_2011_was_announced_after_the_anniversary() -> None:
    """Orange 2011 announced on 1 June 2011 (after 11 April, before Arles): Orange 2010
    is dropped at Arles 2011, the first ranking after its anniversary."""
    calendar = _calendar().with_columns(
        announced_on=pl.when(pl.col("tournament_id") == "PACA-2011-ORANGE")
        .then(pl.lit(dt.date(2011, 6, 1)))
        .otherwise(pl.col("announced_on"))
    )
    got = _windows(calendar)
    assert "2010-ORANGE" in got["2011-BRIANCON"]
    assert got["2011-ARLES"] == ["2010-MENTON", "2010-SISTERON", *_2011[:3]]
    assert got["2011-SISTERON"] == _2011[:4]
    assert got["2011-ORANGE"] == _2011[:5]


def test_saint_tropez_2010_counts_from_25_july_2010_to_9_january_2011() -> None:
    got = _windows(_calendar())
    holding = [after for after, counted in got.items() if "2010-SAINT-TROPEZ" in counted]
    assert holding == ["2010-SAINT-TROPEZ", "2010-MENTON", "2010-SISTERON"]


def test_the_year_s_last_rankings() -> None:
    windows = ranking_windows(_calendar(), _held(_calendar()), "PACA")
    last = windows.filter(pl.col("last_of_year"))["after_tournament_id"].unique().sort()
    assert last.to_list() == ["PACA-2010-SISTERON", "PACA-2011-NICE"]
    assert windows["year"].unique().sort().to_list() == [2010, 2011]


def test_a_ranking_followed_by_an_announced_edition_is_not_the_last() -> None:
    """Sisteron, Orange and Nice 2011 cancelled: the ranking after Arles 2011 is the year's
    last and counts 2011 only. With Nice 2011 still announced, it is not the last and
    Menton 2010 and Sisteron 2010 (anniversaries to come) still count."""
    cancelled = pl.col("tournament_id").is_in(
        ["PACA-2011-SISTERON", "PACA-2011-ORANGE", "PACA-2011-NICE"]
    )
    calendar = _calendar().with_columns(
        status=pl.when(cancelled).then(pl.lit("cancelled")).otherwise(pl.col("status")),
        tournament_id=pl.when(cancelled).then(None).otherwise(pl.col("tournament_id")),
    )
    assert _windows(calendar)["2011-ARLES"] == _2011[:3]

    nice = pl.col("event_key") == "Nice"
    announced = calendar.with_columns(
        status=pl.when(nice).then(pl.lit("announced")).otherwise(pl.col("status"))
    )
    windows = ranking_windows(announced, _held(announced), "PACA")
    assert not windows.filter(pl.col("year") == 2011)["last_of_year"].any()
    assert _windows(announced)["2011-ARLES"] == [
        "2010-MENTON",
        "2010-SISTERON",
        *_2011[:3],
    ]


def _small_calendar(rows: list[tuple[str, int, str, str | None, str, str | None]]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "circuit": ["PACA"] * len(rows),
            "event_key": [r[0] for r in rows],
            "year": [r[1] for r in rows],
            "date": [dt.date.fromisoformat(r[2]) for r in rows],
            "announced_on": [dt.date.fromisoformat(r[3]) if r[3] else None for r in rows],
            "status": [r[4] for r in rows],
            "tournament_id": [r[5] for r in rows],
        }
    )


def test_the_anniversary_day_itself_still_counts() -> None:
    """A 2010 is not held again. A ranking on its anniversary (1 March 2011) keeps it, the
    next one (2 March) drops it — unless A 2011 is announced by the anniversary."""
    rows = [
        ("A", 2010, "2010-03-01", None, "held", "A10"),
        ("B", 2011, "2011-03-01", None, "held", "B11"),
        ("C", 2011, "2011-03-02", None, "held", "C11"),
        ("D", 2011, "2011-12-01", None, "announced", None),
    ]
    calendar = _small_calendar(rows)
    got = _windows(calendar)
    assert got["B11"] == ["A10", "B11"]
    assert got["C11"] == ["B11", "C11"]
    on_the_day = _small_calendar(
        [*rows, ("A", 2011, "2011-10-01", "2011-03-01", "announced", None)]
    )
    assert _windows(on_the_day)["C11"] == ["A10", "B11", "C11"]
    too_late = _small_calendar([*rows, ("A", 2011, "2011-10-01", "2011-03-02", "announced", None)])
    assert _windows(too_late)["C11"] == ["B11", "C11"]


def test_calendar_errors_are_in_french_and_name_the_tournament() -> None:
    calendar = _calendar()
    extra = pl.DataFrame({"tournament_id": ["PACA-2011-GAP"], "end_date": [dt.date(2011, 5, 1)]})
    with pytest.raises(CircuitError, match="le tournoi PACA-2011-GAP est rattaché au circuit"):
        ranking_windows(calendar, pl.concat([_held(calendar), extra]), "PACA")
    wrong = calendar.with_columns(
        status=pl.when(pl.col("event_key") == "Nice").then(pl.lit("prévu")).otherwise("status")
    )
    with pytest.raises(CircuitError, match="l'édition 2011 de Nice a le statut « prévu »"):
        ranking_windows(wrong, _held(calendar), "PACA")


# --------------------------------------------------------------------------- whole circuit


def _results(
    tournament: str, date: str, rows: list[tuple[str, int, int | None, str | None]]
) -> pl.DataFrame:
    """Results rows (player, rank, duplicate_rank, club) of one PACA tournament."""
    return pl.DataFrame(
        {
            "tournament_id": [tournament] * len(rows),
            "end_date": [dt.date.fromisoformat(date)] * len(rows),
            "circuit": ["PACA"] * len(rows),
            "player_id": [r[0] for r in rows],
            "rank": [r[1] for r in rows],
            "duplicate_rank": [r[2] for r in rows],
            "club": [r[3] for r in rows],
        },
        schema={
            "tournament_id": pl.String,
            "end_date": pl.Date,
            "circuit": pl.String,
            "player_id": pl.String,
            "rank": pl.Int64,
            "duplicate_rank": pl.Int64,
            "club": pl.String,
        },
    )


def _season(tournaments: list[tuple[str, str]]) -> pl.DataFrame:
    """A calendar holding each (tournament id = event key, date) as a held 2012 edition."""
    return _small_calendar([(t, 2012, d, None, "held", t) for t, d in tournaments])


def test_a_club_s_fourth_player_does_not_count() -> None:
    """No seeds (no earlier ranking): final 100/60/40/20 for places 1–4, duplicate 10/5/2/1.
    Marseille: M1 100 + 2 = 102, M2 60 + 1 = 61, M3 40, M4 20 + 10 = 30 → 102 + 61 + 40 =
    203, M4 not counted. Nice: N1, 5th, beyond the 4 places SMALL scores, scores nothing
    though 2nd of the duplicate ([001]: only the first places of a tournament score)."""
    results = _results(
        "T1",
        "2012-01-15",
        [
            ("M1", 1, 3, "Marseille"),
            ("M2", 2, 4, "Marseille"),
            ("M3", 3, None, "Marseille"),
            ("M4", 4, 1, " Marseille "),
            ("N1", 5, 2, "Nice"),
            ("Z", 6, None, None),
        ],
    )
    out = circuit_tables(results, None, _season([("T1", "2012-01-15")]), None, SMALL)
    totals = dict(out.points.select("player_id", "total").iter_rows())
    assert totals == {"M1": 102.0, "M2": 61.0, "M3": 40.0, "M4": 30.0, "N1": 0.0, "Z": 0.0}
    assert out.club_points.select("club", "total", "counted_players").rows() == [
        ("Marseille", 203.0, "M1;M2;M3"),
        ("Nice", 0.0, "N1"),
    ]
    assert out.club_rankings.select("club", "place", "best5_total", "played").rows() == [
        ("Marseille", 1, 203.0, 1),
        ("Nice", 2, 0.0, 1),
    ]
    assert out.club_rankings["movement"].null_count() == 2


FIVE_THEN_SIX = [
    ("T1", "2012-01-15"),
    ("T2", "2012-02-12"),
    ("T3", "2012-03-11"),
    ("T4", "2012-04-15"),
    ("T5", "2012-05-13"),
    ("T6", "2012-06-10"),
]


def _five_then_six() -> pl.DataFrame:
    """Final places (FLAT: 100, 60, 40, 20 for places 1–4, whatever the seeds)."""
    places = {
        "T1": [("A", 1), ("B", 2), ("C", 2), ("D", 4)],
        "T2": [("D", 1), ("C", 2), ("A", 3), ("B", 4), ("E", 5)],
        "T3": [("A", 1), ("B", 2)],
        "T4": [("B", 1), ("C", 2), ("D", 3), ("A", 4)],
        "T5": [("B", 1), ("A", 2)],
        "T6": [("A", 1), ("B", 2)],
    }
    return pl.concat(
        [_results(t, d, [(p, r, None, None) for p, r in places[t]]) for t, d in FIVE_THEN_SIX]
    )


def _ranking(out: object, after: str) -> list[tuple[object, ...]]:
    rankings = out.rankings  # type: ignore[attr-defined]
    return (
        rankings.filter(pl.col("after_tournament_id") == after)
        .select(
            "player_id",
            "place",
            "best5_total",
            "total",
            "played",
            "counted_tournaments",
            "movement",
        )
        .rows()
    )


def test_a_tie_shares_the_place_and_skips_the_next() -> None:
    """After T1: A 100; B and C tied 2nd in the tournament, 60 each, share the 2nd place;
    D (20) is 4th."""
    out = circuit_tables(_five_then_six(), None, _season(FIVE_THEN_SIX), None, FLAT)
    assert [r[:3] for r in _ranking(out, "T1")] == [
        ("A", 1, 100.0),
        ("B", 2, 60.0),
        ("C", 2, 60.0),
        ("D", 4, 20.0),
    ]


def test_movement_counts_the_places_gained_or_lost() -> None:
    """After T2: A 100 + 40 = 140 (1st, 0), C 60 + 60 = 120 and D 20 + 100 = 120 (2nd: C
    0, D +2), B 60 + 20 = 80 (4th, −2), E new with 0 points (5th, no movement)."""
    out = circuit_tables(_five_then_six(), None, _season(FIVE_THEN_SIX), None, FLAT)
    assert [(r[0], r[1], r[2], r[6]) for r in _ranking(out, "T2")] == [
        ("A", 1, 140.0, 0),
        ("C", 2, 120.0, 0),
        ("D", 2, 120.0, 2),
        ("B", 4, 80.0, -2),
        ("E", 5, 0.0, None),
    ]


def test_a_sixth_tournament_replaces_the_weakest_of_the_best_five() -> None:
    """A scores 100, 40, 100, 20, 60 in T1–T5 (best five 320, all counted), then 100 in
    T6: total 420 over 6 played, best five 420 − 20 = 400 without T4. A was 2nd after T5
    (B: 60 + 20 + 60 + 100 + 100 = 340) and is 1st after T6: one place gained."""
    out = circuit_tables(_five_then_six(), None, _season(FIVE_THEN_SIX), None, FLAT)
    a5 = next(r for r in _ranking(out, "T5") if r[0] == "A")
    assert a5[2:6] == (320.0, 320.0, 5, "T1;T2;T3;T4;T5")
    a6 = next(r for r in _ranking(out, "T6") if r[0] == "A")
    assert a6 == ("A", 1, 400.0, 420.0, 6, "T1;T2;T3;T5;T6", 1)


def test_masters_invitees_come_from_the_year_s_last_ranking() -> None:
    """After T6 (the year's last): A 400; B 60 + 20 + 60 + 100 + 100 + 60 = 400 over six,
    best five 380 (T2's 20 left out); C 60 + 60 + 60 = 180; D 20 + 100 + 40 = 160; E 0.
    The top two are invited (FLAT invites 2)."""
    out = circuit_tables(_five_then_six(), None, _season(FIVE_THEN_SIX), None, FLAT)
    last = _ranking(out, "T6")
    assert [r[:5] for r in last] == [
        ("A", 1, 400.0, 420.0, 6),
        ("B", 2, 380.0, 400.0, 6),
        ("C", 3, 180.0, 180.0, 3),
        ("D", 4, 160.0, 160.0, 3),
        ("E", 5, 0.0, 0.0, 1),
    ]
    assert out.masters.select("year", "after_tournament_id", "player_id", "place").rows() == [
        (2012, "T6", "A", 1),
        (2012, "T6", "B", 2),
    ]
    assert out.windows.filter(pl.col("last_of_year"))["after_tournament_id"].unique().to_list() == [
        "T6"
    ]


def test_seeds_come_from_the_imported_ranking_then_from_our_own() -> None:
    """SMALL tables (columns = 0, 1, 2 seeds present).

    T1: seeds from the imported ranking: P1 (1), P2 (2); only P1 plays → column 1.
    X: 1st (200) + 2nd of the duplicate (10) + a win over seed 1 (50) = 260;
    P1: 2nd (120) + 1st of the duplicate (20) = 140; P3: 3rd (80) + a draw with seed 1
    (25) = 105. Ranking: X 1 (new), P1 2 (was 1: −1), P3 3 (was 3: 0).
    T2: seeds from that ranking: X (1), P1 (2), both play → column 2.
    X: 1st (300); P1: 2nd (180) + a win over seed 1 (50) = 230; P2: 3rd (120) + a draw
    with seed 2 (15) = 135."""
    published = pl.DataFrame(
        {
            "circuit": ["PACA"] * 3 + ["Grand Sud"],
            "as_of": [dt.date(2011, 12, 18)] * 3 + [dt.date(2012, 1, 1)],
            "player_id": ["P1", "P2", "P3", "X"],
            "place": [1, 2, 3, 1],
            "points": [900.0, 800.0, 700.0, 999.0],
        }
    )
    results = pl.concat(
        [
            _results(
                "T1", "2012-01-15", [("X", 1, 2, None), ("P1", 2, 1, None), ("P3", 3, None, None)]
            ),
            _results(
                "T2",
                "2012-02-12",
                [("X", 1, None, None), ("P1", 2, None, None), ("P2", 3, None, None)],
            ),
        ]
    )
    games = pl.DataFrame(
        {
            "tournament_id": ["T1", "T1", "T2", "T2"],
            "round": [1, 2, 1, 2],
            "player_id": ["X", "P3", "P1", "P2"],
            "opponent_id": ["P1", "P1", "X", "P1"],
            "player_score": [50, 45, 52, 47],
            "opponent_score": [41, 45, 50, 47],
        }
    )
    calendar = _season([("T1", "2012-01-15"), ("T2", "2012-02-12")])
    out = circuit_tables(results, games, calendar, published, SMALL)
    got = out.points.select("tournament_id", "player_id", "seeds_present", "seed", "total").rows()
    assert got == [
        ("T1", "X", 1, None, 260.0),
        ("T1", "P1", 1, 1, 140.0),
        ("T1", "P3", 1, None, 105.0),
        ("T2", "X", 2, 1, 300.0),
        ("T2", "P1", 2, 2, 230.0),
        ("T2", "P2", 2, None, 135.0),
    ]
    assert [(r[0], r[1], r[6]) for r in _ranking(out, "T1")] == [
        ("X", 1, None),
        ("P1", 2, -1),
        ("P3", 3, 0),
    ]


def _long_circuit() -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Two years of 8 tournaments each among 24 players, in fields of 10 to 18 (the first
    of each year: 5, two of them beyond the places that score) with tied places, clubs,
    games listed from one or both sides (wins, draws, results without scores), and an
    imported ranking: results, games, calendar, published ranking."""
    rng = np.random.default_rng(2026)
    players = [f"P{n:02d}" for n in range(24)]
    frames: list[pl.DataFrame] = []
    games: list[tuple[object, ...]] = []
    calendar: list[tuple[str, int, str, str | None, str, str | None]] = []
    for year in (2012, 2013):
        for k in range(8):
            tid = f"T{year}-{k}"
            day = dt.date(year, 1 + k, 10 + k)
            calendar.append((f"E{k}", year, day.isoformat(), None, "held", tid))
            field = list(rng.choice(players, size=int(rng.integers(10, 19)), replace=False))
            ranks = np.sort(rng.integers(1, len(field) + 1, size=len(field)))
            if k == 0:  # a small first field: players 4th and 5th of its ranking without points
                field, ranks = field[:5], np.array([1, 2, 3, 11, 12])
            rows = [
                (p, int(r), int(d) if d else None, f"C{int(c)}" if c else None)
                for p, r, d, c in zip(
                    field,
                    ranks,
                    rng.permutation(len(field) + 1)[: len(field)],
                    rng.integers(0, 4, size=len(field)),
                    strict=True,
                )
            ]
            frames.append(_results(tid, day.isoformat(), rows))
            for rnd in range(1, 5):
                order = rng.permutation(field)
                for a, b in zip(order[::2], order[1::2], strict=False):
                    score = int(rng.integers(30, 60))
                    other = score if rng.random() < 0.15 else int(rng.integers(30, 60))
                    result = float(rng.choice([1.0, 0.5, 0.0])) if rng.random() < 0.1 else None
                    games.append((tid, rnd, str(a), str(b), score, other, result))
                    if rng.random() < 0.3:  # also listed from the other side
                        back = None if result is None else 1.0 - result
                        games.append((tid, rnd, str(b), str(a), other, score, back))
    game_frame = pl.DataFrame(
        games,
        schema=GAME_SIDE_SCHEMA,
        orient="row",
    )
    published = pl.DataFrame(
        {
            "circuit": ["PACA"] * 6,
            "as_of": [dt.date(2011, 12, 31)] * 6,
            "player_id": players[:6],
            "place": [1, 2, 2, 4, 5, 6],
            "points": [500.0, 400.0, 400.0, 300.0, 200.0, 0.0],
        }
    )
    return pl.concat(frames), game_frame, _small_calendar(calendar), published


# 4 seeds, 10 places scored, halves in every table.
LONG = CircuitParams(
    circuit="PACA",
    seeds=4,
    places_scored=10,
    best_results=5,
    club_best_players=3,
    masters_invitees=4,
    duplicate_points=tuple(
        tuple(Fraction(2 * (10 - p) + s, 2) for s in range(5)) for p in range(10)
    ),
    win_points=(Fraction(41, 2), Fraction(15), Fraction(12), Fraction(10)),
    draw_points=(Fraction(10), Fraction(15, 2), Fraction(6), Fraction(5)),
    final_points=tuple(tuple(Fraction(10 * (12 - p) + 3 * s) for s in range(5)) for p in range(10)),
)


def test_a_long_circuit_scores_each_tournament_with_the_seeds_of_the_ranking_before() -> None:
    """16 tournaments: each tournament's points are those `tournament_points` gives it
    alone with the seeds of the ranking published before it (the imported one for the
    first), every ranking adds up, and the seeds are not idle (present, beaten, drawn)."""
    results, games, calendar, published = _long_circuit()
    out = circuit_tables(results, games, calendar, published, LONG)
    order = out.windows["after_tournament_id"].unique(maintain_order=True).to_list()
    assert len(order) == 16
    seeds = seeds_from_ranking(published.select("player_id", "place", "points"), LONG)
    for tid in order:
        alone = tournament_points(
            results.filter(pl.col("tournament_id") == tid),
            games.filter(pl.col("tournament_id") == tid),
            seeds,
            LONG,
            tournament_id=tid,
            year=int(tid[1:5]),
        )
        assert out.points.filter(pl.col("tournament_id") == tid).equals(alone), tid
        after = out.rankings.filter(pl.col("after_tournament_id") == tid)
        seeds = seeds_from_ranking(after.select("player_id", "place", "best5_total"), LONG)
    assert ranking_inconsistencies(out.points, out.rankings).height == 0
    assert out.points["seeds_present"].max() == 4
    assert out.points.filter(pl.col("win_points") > 0).height > 20
    assert out.points.filter(pl.col("draw_points") > 0).height > 3


def test_the_first_tournament_that_cannot_be_scored_is_named() -> None:
    """T2012-3 lists a player twice, T2012-1 has a game without scores or result: the
    error names T2012-1, the earlier in event order, whatever the rows' order."""
    results, games, calendar, published = _long_circuit()
    twice = results.filter(pl.col("tournament_id") == "T2012-3").head(1)
    broken = games.with_columns(
        player_score=pl.when(pl.col("tournament_id") == "T2012-1")
        .then(None)
        .otherwise(pl.col("player_score")),
        player_result=pl.when(pl.col("tournament_id") == "T2012-1")
        .then(None)
        .otherwise(pl.col("player_result")),
    )
    with pytest.raises(CircuitError, match=r"tournoi T2012-1, ronde 1 : la partie de"):
        circuit_tables(pl.concat([twice, results]), broken, calendar, published, LONG)
    with pytest.raises(CircuitError, match=r"tournoi T2012-3 : le joueur P\d+ figure plusieurs"):
        circuit_tables(pl.concat([twice, results]), games, calendar, published, LONG)


def test_whole_circuit_outputs_are_declared_and_deterministic() -> None:
    results = _five_then_six().with_columns(circuit=pl.lit("Grand Sud; paca"), club=pl.lit("Aix"))
    first = circuit_tables(results, None, _season(FIVE_THEN_SIX), None, FLAT)
    shuffled = results.sample(fraction=1.0, shuffle=True, seed=7)
    second = circuit_tables(shuffled, None, _season(FIVE_THEN_SIX), None, FLAT)
    for name, declared in (
        ("points", "circuit_points"),
        ("club_points", "circuit_club_points"),
        ("rankings", "circuit_rankings"),
        ("club_rankings", "circuit_club_rankings"),
        ("windows", "circuit_ranking_windows"),
        ("masters", "circuit_masters_invitees"),
    ):
        frame = getattr(first, name)
        assert frame.schema == table(declared).schema, name
        assert frame.equals(getattr(second, name)), name
        assert frame.height > 0, name
    assert set(first.rankings["year"].to_list()) == {2012}


def test_results_of_a_held_edition_must_name_the_circuit() -> None:
    results = _five_then_six().with_columns(
        circuit=pl.when(pl.col("tournament_id") == "T3").then(None).otherwise(pl.col("circuit"))
    )
    with pytest.raises(CircuitError, match="tournoi T3 comme joué"):
        circuit_tables(results, None, _season(FIVE_THEN_SIX), None, FLAT)


def test_no_circuit_tournament_gives_empty_declared_tables() -> None:
    results = _five_then_six().with_columns(circuit=pl.lit("Grand Est"))
    out = circuit_tables(results, None, _season([]), None, FLAT)
    assert out.rankings.height == 0
    assert out.points.schema == table("circuit_points").schema


# --------------------------------------------------------------------------- merged editions


def test_an_edition_announced_then_held_is_one_edition() -> None:
    """Orange 2011 announced on 1 March 2011 in one export, held in a later one (without
    `announced_on`): held, announced on 1 March — so Orange 2010 is kept past its
    anniversary (11 April) until Orange 2011 replaces it."""
    rows = [
        ("Orange", 2010, "2010-04-11", None, "held", "O10"),
        ("B", 2011, "2011-05-01", None, "held", "B11"),
        ("Orange", 2011, "2011-12-11", "2011-03-01", "announced", None),
        ("Orange", 2011, "2011-12-11", None, "held", "O11"),
    ]
    calendar = _small_calendar(rows)
    editions = calendar_editions(calendar, "PACA")
    assert editions.select("event_key", "year", "status", "announced_on").rows() == [
        ("Orange", 2010, "held", None),
        ("B", 2011, "held", None),
        ("Orange", 2011, "held", dt.date(2011, 3, 1)),
    ]
    assert _windows(calendar)["B11"] == ["O10", "B11"]
    late = _small_calendar(
        [*rows[:2], ("Orange", 2011, "2011-12-11", "2011-06-01", "announced", None), rows[3]]
    )
    assert _windows(late)["B11"] == ["B11"]  # not announced by 11 April: dropped


def test_an_edition_announced_then_cancelled_is_never_announced() -> None:
    rows = [
        ("A", 2010, "2010-03-01", None, "held", "A10"),
        ("B", 2011, "2011-04-01", None, "held", "B11"),
        ("A", 2011, "2011-03-06", "2010-12-01", "announced", None),
        ("A", 2011, "2011-03-06", None, "cancelled", None),
    ]
    assert calendar_editions(_small_calendar(rows), "PACA")["status"].to_list() == [
        "held",
        "cancelled",
        "held",
    ]
    assert _windows(_small_calendar(rows))["B11"] == ["B11"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("A", 2011, "2011-03-06", None, "held", "A11b"), "figure deux fois avec le statut held"),
        (("A", 2011, "2011-03-06", None, "cancelled", None), r"jouée \(held\) et annulée"),
    ],
)
def test_two_rows_of_one_status_or_held_and_cancelled_are_errors(
    extra: tuple[str, int, str, str | None, str, str | None], message: str
) -> None:
    rows = [("A", 2011, "2011-03-06", None, "held", "A11"), extra]
    with pytest.raises(CircuitError, match=message):
        calendar_editions(_small_calendar(rows), "PACA")


# --------------------------------------------------------------------------- names, checks


def test_circuit_names_go_through_the_alias_table() -> None:
    names = load_circuit_names(REFERENCE)
    frame = pl.DataFrame(
        {"circuit": ["Région PACA ; grand-est", "paca", None, " ", "Provence;PACA", "MGS"]}
    )
    out = frame.select(
        code=circuit_codes_expr("circuit", names), unknown=unknown_circuits_expr("circuit", names)
    )
    assert out.rows() == [
        ("PACA;GRAND_EST", None),
        ("PACA", None),
        (None, None),
        (None, None),
        ("Provence;PACA", "Provence"),
        ("MASTERS_GRAND_SUD", None),
    ]
    coded = with_circuit_codes(frame, names).filter(in_circuit(pl.col("circuit"), "PACA"))
    assert coded.height == 3


def test_ranking_inconsistencies_find_a_best5_that_does_not_add_up() -> None:
    points = table("circuit_points").complete(
        pl.DataFrame(
            {
                "circuit": ["PACA"] * 3,
                "tournament_id": ["T1", "T2", "T1"],
                "player_id": ["a", "a", "b"],
                "total": [100.0, 27.5, 40.0],
            }
        )
    )
    rankings = table("circuit_rankings").complete(
        pl.DataFrame(
            {
                "circuit": ["PACA"] * 2,
                "after_tournament_id": ["T2", "T2"],
                "player_id": ["a", "b"],
                "best5_total": [127.5, 41.0],
                "played": [2, 1],
                "counted_tournaments": ["T1;T2", "T1"],
            }
        )
    )
    wrong = ranking_inconsistencies(points, rankings)
    assert wrong.select("player_id", "best5_total", "recomputed").rows() == [("b", 41.0, 40.0)]
