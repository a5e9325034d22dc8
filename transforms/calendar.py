"""The season calendar and the order of events (docs/rules.md §0).

Ratings and series count in *seasons*: a season starts on the day of the year set in
`data/reference/seasons.yaml` (1 September by default, so season `2018-2019` runs from
2018-09-01 to 2019-08-31) and is named by its two years. Regional circuits count in
calendar years (`date.year`). No other module holds a season start: every caller takes
a `SeasonCalendar`, loaded once by `pipelines.reference.load_calendar`.

Events are always taken in one order: end date, then start date (the end date when none
is given), then tournament id.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import polars as pl


@dataclass(frozen=True)
class SeasonCalendar:
    """The day a season starts; every season-valued computation goes through it."""

    start_month: int
    start_day: int

    def __post_init__(self) -> None:
        try:
            dt.date(2001, self.start_month, self.start_day)
        except (TypeError, ValueError):
            raise ValueError(
                f"a season cannot start on month {self.start_month!r}, day {self.start_day!r}"
            ) from None

    def season_of(self, date: dt.date) -> str:
        """The season label (`2018-2019`) of one date."""
        starts = (date.month, date.day) >= (self.start_month, self.start_day)
        first = date.year if starts else date.year - 1
        return season_label(first)

    def season_expr(self, date: pl.Expr) -> pl.Expr:
        """The season label of each date of a column."""
        before_start = (date.dt.month() < self.start_month) | (
            (date.dt.month() == self.start_month) & (date.dt.day() < self.start_day)
        )
        first = pl.when(before_start).then(date.dt.year() - 1).otherwise(date.dt.year())
        return pl.format("{}-{}", first, first + 1)

    def bounds(self, season: str) -> tuple[dt.date, dt.date]:
        """First and last day of a season."""
        first = season_first_year(season)
        start = dt.date(first, self.start_month, self.start_day)
        end = dt.date(first + 1, self.start_month, self.start_day) - dt.timedelta(days=1)
        return start, end

    def end(self, season: str) -> dt.date:
        """Last day of a season."""
        return self.bounds(season)[1]

    def seasons_spanning(self, first: dt.date, last: dt.date) -> list[str]:
        """Every season from the one holding `first` to the one holding `last`."""
        a = season_first_year(self.season_of(first))
        b = season_first_year(self.season_of(last))
        return [season_label(y) for y in range(a, b + 1)]


def season_label(first_year: int) -> str:
    """`2018` → `2018-2019`."""
    return f"{first_year}-{first_year + 1}"


def season_first_year(season: str) -> int:
    """`2018-2019` → 2018."""
    return int(season.split("-")[0])


def previous_season(season: str) -> str:
    """`2023-2024` → `2022-2023`."""
    return season_label(season_first_year(season) - 1)


def next_season(season: str) -> str:
    """`2023-2024` → `2024-2025`."""
    return season_label(season_first_year(season) + 1)


def shift_season_expr(season: pl.Expr, seasons: int) -> pl.Expr:
    """Each season label moved by `seasons` (1: the next season, -1: the previous one)."""
    first = season.str.slice(0, 4).cast(pl.Int64) + seasons
    return pl.format("{}-{}", first, first + 1)


def ordered_events(events: pl.DataFrame) -> pl.DataFrame:
    """Events (rows with `tournament_id` and the dates) in event order; a missing start date
    counts as the end date; missing values sort last."""
    present = set(events.columns)
    keys: list[str | pl.Expr] = [c for c in ("end_date",) if c in present]
    if "start_date" in present:
        keys.append(pl.coalesce("start_date", "end_date") if keys else pl.col("start_date"))
    keys.append("tournament_id")
    return events.sort(keys, nulls_last=True, maintain_order=True)
