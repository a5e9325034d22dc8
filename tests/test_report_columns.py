"""The season report's column-wise builders give the same text as the row-wise ones the
player pages use: French numbers (`french_numbers` = `fmt_number`, `fmt_signed`), the
trajectories of a whole season (`season_trajectories` = `cote_trajectories`,
`elo_trajectories`)."""

from __future__ import annotations

import datetime as dt
import math

import polars as pl
import pytest

from pipelines.reports.charts import (
    cote_trajectories,
    elo_trajectories,
    french_columns,
    french_numbers,
    season_trajectories,
)
from pipelines.reports.html import (
    Html,
    esc,
    esc_expr,
    fmt_number,
    fmt_signed,
    frame_table,
    link,
    per_value,
    player_filename,
    player_link,
    player_link_expr,
    table,
)
from transforms.series_labels import french_series

# halves written exactly in binary (0.25, 1234.5: to even), near-halves that are not (1.15,
# 2.675), negative zero, NaN, infinities, thousands
FLOATS = [None, 0.0, -0.0, 0.05, -0.05, 0.25, 1.15, 2.675, 1234.5, -1234.55, 999.95]
FLOATS += [1e16, -1e-9, math.nan, math.inf, -math.inf, 12345678.125]
INTS = [None, 0, -1, 1, 999, 1000, -1234567, 2**53 + 1]


@pytest.mark.parametrize("decimals", [0, 1, 2])
@pytest.mark.parametrize("signed", [False, True])
def test_french_numbers_are_fmt_number(decimals: int, signed: bool) -> None:
    fmt = fmt_signed if signed else fmt_number
    got = french_numbers(pl.Series(FLOATS, dtype=pl.Float64), decimals, signed=signed)
    assert got.to_list() == [fmt(v, decimals) for v in FLOATS]
    ints = french_numbers(pl.Series(INTS, dtype=pl.Int64), signed=signed)
    assert ints.to_list() == [fmt(v) for v in INTS]


def test_french_numbers_examples() -> None:
    values = pl.Series([2350.0, 0.24, -0.05, 1234.5, None])
    assert french_numbers(values, 2).to_list() == [
        "2\u202f350,00",
        "0,24",
        "−0,05",
        "1\u202f234,50",
        "—",
    ]
    assert french_numbers(pl.Series([12.25, -0.0, 3.0]), 1, signed=True).to_list() == [
        "+12,2",
        "−0,0",
        "+3,0",
    ]


def test_french_columns_are_french_numbers_of_each_column() -> None:
    # columns sharing values (a rating before and after), an integer column beside the
    # floats, the same column asked with and without its sign and with other decimals
    floats = pl.Series(FLOATS, dtype=pl.Float64)
    frame = pl.DataFrame(
        {
            "before": floats,
            "after": floats.reverse(),
            "delta": floats.shift(1),
            "games": pl.Series(INTS + [7] * (len(FLOATS) - len(INTS)), dtype=pl.Int64),
        }
    )
    wanted = [
        ("before", 1, False),
        ("after", 1, False),
        ("delta", 1, True),
        ("before", 2, False),
        ("before", 1, True),
        ("games", 0, False),
        ("games", 0, True),
        ("after", 1, False),
    ]
    got = french_columns(frame, wanted)
    assert set(got) == set(wanted)
    for column, decimals, signed in wanted:
        expected = french_numbers(frame[column], decimals, signed=signed)
        assert got[(column, decimals, signed)].to_list() == expected.to_list()
        assert got[(column, decimals, signed)].name == column


def _events(n: int) -> dict[str, list[object]]:
    """Event columns of `ReportData.cote_history()` rows: an escaped name, an empty one
    (the licence shown), a missing date."""
    names = ["Open <Paris> & Co", "", None, "Festival d'été"]
    return {
        "tournament_id": [f"T{i % 4}" for i in range(n)],
        "tournament_name": [names[i % 4] for i in range(n)],
        "start_date": [dt.date(2024, 9, 1 + i % 4) for i in range(n)],
        "end_date": [None if i % 4 == 3 else dt.date(2024, 9, 2 + i % 4) for i in range(n)],
        "players": [1200 + i for i in range(n)],
    }


PLAYERS = ["P1", "P2", "P1", "P3", "P2", "P1", "P4", "P3"]
NAMES = {"P1": "DUPONT <b>Jean</b>", "P2": "L'ÉTÉ & Fils", "P3": "P3"}  # P4: no name


def test_season_trajectories_are_the_row_by_row_ones() -> None:
    n = len(PLAYERS)
    cote = pl.DataFrame(
        {
            "player_id": PLAYERS,
            "cote_before": [1500, -3, 2500, 0, 1499, 2612, 1000, 12],
            "cote_after": [1510, 4, 2612, 12, 1480, 2700, 1000, 0],
            "pe": [10, 7, 112, 12, -19, 88, 0, -12],
            "bonus": [0, 0, 5, None, 0, 0, 0, 0],
            "pj": [3, -2, 0, 1, None, 14, 0, -7],
            "rank": list(range(1, n + 1)),
            **_events(n),
        }
    )
    start = dt.date(2024, 9, 1)
    assert season_trajectories(cote, NAMES, start, "cote") == cote_trajectories(cote, NAMES, start)
    elo = pl.DataFrame(
        {
            "player_id": PLAYERS,
            "rating_before": [1351.25, 1500.0, 1412.35, 2049.95, None, 1400.0, 1800.04, 0.0],
            "rating_after": [1386.1, 1489.75, 1412.35, 2100.0, 1510.0, 1400.0, 1799.96, -0.0],
            "delta": [34.85, -10.25, -0.0, 50.05, 0.04, math.nan, -0.08, 0.0],
            "score": [3.0, 2.5, 1.0, 5.0, 4.0, 0.5, 2.0, 0.0],
            "games": [7, 7, 7, 7, 6, 6, 6, 6],
            "expected": [2.125, 2.675, 1.005, 4.0, 3.999, 0.5, 2.0, 0.0],
            **_events(n),
        }
    )
    got = season_trajectories(elo, NAMES, start, "elo")
    assert got == elo_trajectories(elo, NAMES, start)
    assert list(got) == ["P1", "P2", "P3", "P4"]  # first seen first, as the row-by-row one
    assert got["P1"]["text"][0] == "<b>DUPONT &lt;b&gt;Jean&lt;/b&gt;</b><br>début : 1\u202f351,2"
    assert got["P4"]["x"] == ["2024-09-01", "2024-09-04"]


def test_season_trajectories_of_an_unknown_kind() -> None:
    with pytest.raises(ValueError, match="no trajectory"):
        season_trajectories(pl.DataFrame({"player_id": []}), {}, dt.date(2024, 9, 1), "wespa")


def test_table_cells_escaped_as_before() -> None:
    """`table` writes its common cells directly: the same text as `esc` of each."""
    row = (None, 12, -3, True, 2.5, "O'Brien & <b>", Html("<b>x</b>"), "—")
    got = table([f"h{i}" for i in range(len(row))], [row], numeric=(1, 4))
    cells = "".join(
        f'<td class="num">{c}</td>' if i in (1, 4) else f"<td>{c}</td>"
        for i, c in enumerate(
            [
                "—",
                "12",
                "-3",
                "True",
                "2.5",
                "O&#x27;Brien &amp; &lt;b&gt;",
                "<b>x</b>",
                "—",
            ]
        )
    )
    assert f"<tbody><tr>{cells}</tr></tbody>" in got
    for cell in row:
        expected = cell if isinstance(cell, Html) else esc("—" if cell is None else cell)
        assert f">{expected}</td>" in got
    assert player_link("a/b", "<Nom>") == link("../joueurs/" + player_filename("a/b"), "<Nom>")


LICENCES = ["123", "A-1.b", ".hidden", "a/b", "", "é", "x" * 121, "x" * 120, "a_b", "ab\n"]


def test_column_wise_table_is_the_row_wise_one() -> None:
    """`frame_table` of `esc_expr`/`player_link_expr`/`per_value` columns: `table`'s
    markup, cell for cell (licences escaped or hashed, quotes, missing cells)."""
    names = ["<Nom> & « Prénom »", 'O"Brien', None, "L'Été", "x", "y", "z", "w", "v", "u"]
    series = ["1", "SS", None, "7", "3", "1", None, "2", "5", "6"]
    frame = pl.DataFrame({"player_id": LICENCES, "name": names, "series": series})
    cells = frame.select(
        player_link_expr(
            pl.col("player_id"),
            pl.col("name").fill_null(pl.col("player_id")),
            frame["player_id"],
        ).alias("link"),
        esc_expr(pl.col("name")).alias("name"),
        esc_expr(pl.lit(per_value(frame["series"], french_series))).alias("series"),
        pl.col("series").alias("code"),  # a missing cell: « — »
    )
    rows = [
        (
            player_link(pid, name if name is not None else pid),
            "" if name is None else name,
            french_series(s),
            s,
        )
        for pid, name, s in frame.iter_rows()
    ]
    headers = ["Joueur", "Nom", "Série", "Code"]
    assert frame_table(headers, cells, numeric=(3,), caption="Liste") == table(
        headers, rows, numeric=(3,), caption="Liste"
    )
