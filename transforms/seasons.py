"""Seasons (RULES §0): 1 September to 31 August by default; the start is a parameter."""

from __future__ import annotations

import datetime as dt

import polars as pl


def season_expr(date: pl.Expr, start_month: int = 9, start_day: int = 1) -> pl.Expr:
    """The season label (`2018-2019`) of each date: a season starts on start_month/day."""
    year = date.dt.year()
    before_start = (date.dt.month() < start_month) | (
        (date.dt.month() == start_month) & (date.dt.day() < start_day)
    )
    first = pl.when(before_start).then(year - 1).otherwise(year)
    return pl.format("{}-{}", first, first + 1)


def season_of(date: dt.date, start_month: int = 9, start_day: int = 1) -> str:
    """The season label of one date."""
    first = date.year if (date.month, date.day) >= (start_month, start_day) else date.year - 1
    return f"{first}-{first + 1}"


def season_bounds(season: str, start_month: int = 9, start_day: int = 1) -> tuple[dt.date, dt.date]:
    """First and last day of a season label."""
    first = int(season.split("-")[0])
    start = dt.date(first, start_month, start_day)
    end = dt.date(first + 1, start_month, start_day) - dt.timedelta(days=1)
    return start, end


# Order of events everywhere (RULES §0): end date, then start date, then tournament id.
EVENT_ORDER = ["end_date", "start_date", "tournament_id"]
