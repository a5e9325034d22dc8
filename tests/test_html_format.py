"""`fmt_number` and `fmt_date` keep a cache of the texts they wrote (issue 25: the player
pages write the same numbers and dates again and again): the texts are those of the plain
formulas, whatever was asked before (-0.0 and 0.0 are one key of a cache, two texts)."""

from __future__ import annotations

import datetime as dt
import math

from hypothesis import given
from hypothesis import strategies as st

from pipelines.reports.html import fmt_date, fmt_number


def _plain_number(value: float, decimals: int) -> str:
    if math.isnan(value):
        return "—"
    body = f"{value:,.{decimals}f}".replace(",", "\u202f").replace(".", ",")
    return body.replace("-", "−")


@given(
    values=st.lists(
        st.one_of(st.floats(allow_infinity=False), st.integers(-(10**9), 10**9)), max_size=30
    ),
    decimals=st.integers(0, 3),
)
def test_a_number_written_again_is_written_the_same(values: list[float], decimals: int) -> None:
    for value in [*values, *values]:  # the second time from the cache
        assert fmt_number(value, decimals) == _plain_number(float(value), decimals)


def test_minus_zero_and_zero_keep_their_own_texts_in_either_order() -> None:
    assert [fmt_number(v, 1) for v in (0.0, -0.0, 0, -0.0, 0.0)] == [
        "0,0",
        "−0,0",
        "0,0",
        "−0,0",
        "0,0",
    ]
    assert fmt_number(-0.4) == "−0" and fmt_number(0.4) == "0"
    assert fmt_number(None) == "—" and fmt_number(float("nan"), 2) == "—"


@given(st.dates(min_value=dt.date(1900, 1, 1)))
def test_a_date_written_again_is_written_the_same(day: dt.date) -> None:
    assert fmt_date(day) == fmt_date(day) == day.strftime("%d/%m/%Y")
    moment = dt.datetime.combine(day, dt.time(15, 30))
    assert fmt_date(moment) == day.strftime("%d/%m/%Y")
    assert fmt_date(None) == "—"
