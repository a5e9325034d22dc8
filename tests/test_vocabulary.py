"""The project's one vocabulary: seasons, event order, rounding, places, series labels."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from pipelines.reference.files import ReferenceDataError
from pipelines.reference.seasons import load_calendar
from transforms.calendar import (
    SeasonCalendar,
    next_season,
    ordered_events,
    previous_season,
    shift_season_expr,
)
from transforms.ranking import competition_rank_expr, competition_ranks
from transforms.rounding import (
    divide_half_away,
    round_half_away,
    round_half_away_array,
    round_to_step,
)
from transforms.series_labels import (
    french_series,
    normalised_label,
    series_level,
    series_sort_key,
    series_step,
    series_sub,
    zone_series,
)

SEPTEMBER = SeasonCalendar(9, 1)
JULY = SeasonCalendar(7, 1)  # France in 2007: the season ended on 30 June


def test_season_of_a_date_and_its_bounds() -> None:
    assert SEPTEMBER.season_of(dt.date(2018, 9, 1)) == "2018-2019"
    assert SEPTEMBER.season_of(dt.date(2019, 8, 31)) == "2018-2019"
    assert JULY.season_of(dt.date(2007, 6, 30)) == "2006-2007"
    assert JULY.season_of(dt.date(2007, 7, 1)) == "2007-2008"
    assert SEPTEMBER.bounds("2018-2019") == (dt.date(2018, 9, 1), dt.date(2019, 8, 31))
    assert JULY.end("2006-2007") == dt.date(2007, 6, 30)
    assert SEPTEMBER.seasons_spanning(dt.date(2018, 10, 1), dt.date(2020, 9, 2)) == [
        "2018-2019",
        "2019-2020",
        "2020-2021",
    ]
    dates = pl.Series([dt.date(2018, 8, 31), dt.date(2018, 9, 1), dt.date(2019, 6, 30)])
    assert dates.to_frame("d").select(JULY.season_expr(pl.col("d")))["d"].to_list() == [
        "2018-2019",
        "2018-2019",
        "2018-2019",
    ]
    assert previous_season("2023-2024") == "2022-2023"
    assert next_season("2023-2024") == "2024-2025"
    shifted = pl.DataFrame({"s": ["2023-2024"]}).select(shift_season_expr(pl.col("s"), 1))
    assert shifted.item() == "2024-2025"


def test_a_calendar_needs_a_real_day(tmp_path) -> None:
    with pytest.raises(ValueError, match="month 2, day 30"):
        SeasonCalendar(2, 30)
    (tmp_path / "seasons.yaml").write_text("start_month: 9\n", encoding="utf-8")
    with pytest.raises(ReferenceDataError, match="missing key 'start_day'"):
        load_calendar(tmp_path)


def test_event_order_end_then_start_then_id() -> None:
    events = pl.DataFrame(
        {
            "tournament_id": ["B", "A", "C", "D"],
            "start_date": [dt.date(2024, 1, 5), None, dt.date(2024, 1, 1), dt.date(2024, 1, 7)],
            "end_date": [dt.date(2024, 1, 7)] * 3 + [dt.date(2024, 1, 6)],
        }
    )
    # D ends first; then among those ending on the 7th: C started on the 1st, B on the 5th,
    # A has no start date (counts as its end date, the 7th).
    assert ordered_events(events)["tournament_id"].to_list() == ["D", "C", "B", "A"]


def test_rounding_half_away_from_zero() -> None:
    assert [round_half_away(Fraction(n, 2)) for n in (5, -5, 7, -7, 4, -4)] == [
        3,
        -3,
        4,
        -4,
        2,
        -2,
    ]
    assert round_half_away(Fraction(-500, 3)) == -167  # docs/rules.md §1: PJ of d = −500
    assert divide_half_away(np.array([5, -5, 7, -7, 4, -4]), 2).tolist() == [3, -3, 4, -4, 2, -2]
    assert divide_half_away(250, np.array([1, 2, 5, 10])).tolist() == [250, 125, 50, 25]
    assert round_half_away_array(np.array([15.5, -15.5, 0.49])).tolist() == [16.0, -16.0, 0.0]
    assert round_half_away(2.5) == 3 and round_half_away(-2.5) == -3
    assert round_to_step(2125, 50) == 2150 and round_to_step(2124.9, 50) == 2100
    with pytest.raises(ValueError):
        divide_half_away(1, 0)


def test_competition_ranks_share_the_best_place() -> None:
    assert competition_ranks([10, 7, 7, 3]).tolist() == [1, 2, 2, 4]
    # by wins, then spread
    assert competition_ranks([2, 2, 2, 1], [50, 10, 50, 99]).tolist() == [1, 3, 1, 4]
    assert competition_ranks([]).tolist() == []
    frame = pl.DataFrame({"v": [3.0, 5.0, 5.0, 1.0]})
    assert frame.select(competition_rank_expr(pl.col("v")))["v"].to_list() == [3, 1, 1, 4]


@pytest.mark.parametrize(
    ("written", "level", "sub", "label"),
    [
        ("5", "5", None, "5"),
        (" 4B ", "4", "B", "4B"),
        ("Série 5 A", "5", "A", "5A"),
        ("super-série", "SS", None, "SS"),
        ("SS", "SS", None, "SS"),
        ("10", None, None, "10"),
        ("N4", None, None, "N4"),
        (None, None, None, None),
    ],
)
def test_series_labels(written: str | None, level: str | None, sub: str | None, label) -> None:
    frame = pl.DataFrame({"s": [written]}, schema={"s": pl.String})
    row = frame.select(
        series_level(pl.col("s")).alias("level"),
        series_sub(pl.col("s")).alias("sub"),
        normalised_label(pl.col("s")).alias("label"),
    ).row(0)
    assert row == (level, sub, label)


def test_series_order_steps_and_french_names() -> None:
    frame = pl.DataFrame({"s": ["SS", "1", "7", "x"]})
    assert frame.select(series_step(pl.col("s")))["s"].to_list() == [0, 1, 7, None]
    assert frame.select(zone_series(pl.col("s")).alias("z"))["z"].to_list() == [1, 1, 7, None]
    assert sorted(["3", "SS", None, "1"], key=series_sort_key) == ["SS", "1", "3", None]
    assert [french_series(s) for s in ("SS", "4", None)] == ["Super-série", "Série 4", "—"]
