"""Our series classification against the FFSc's published one: the transform on exact
hand-made cases, the `series_comparison` asset on a small warehouse, an FFSc fixture file
and the report section."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import dagster as dg
import polars as pl
import pytest

from pipelines.defs.series.comparison import series_comparison
from pipelines.ingest.formats import ffsc
from pipelines.instance import build_instance
from pipelines.paths import REFERENCE_DIR
from pipelines.reference.federations import load_federations
from pipelines.reports.data import ReportData
from pipelines.reports.section import Chart
from pipelines.reports.sections.comparison import SECTION
from pipelines.warehouse import Warehouse
from tests.builds import materialise
from transforms.calendar import SeasonCalendar
from transforms.series_comparison import (
    agreement_summary,
    compare_series,
    confusion_matrix,
)
from transforms.series_labels import normalised_label as series_label
from transforms.series_labels import series_level, series_sub
from transforms.tables import table as declared

COLUMNS = declared("series_comparison").schema
CALENDAR = SeasonCalendar(9, 1)

ALIASES = load_federations(REFERENCE_DIR)
KNOWN = {"FRA", "BEL", "*"}
FIXTURE = Path(__file__).parent / "fixtures" / "ffsc" / "classement_2019-06-30.csv"
S = "2023-2024"
EVIL = "<script>alert(1)</script>"

# (player_id, last, first, place, serie, serie_potentielle) of the list of 2024-08-31
PUBLISHED = [
    ("1001", "MARTIN", "Hélène", 1, "1", "SS"),  # we say super-série too: agree
    ("1002", "DUPONT", "Luc", 2, "2", "1"),  # we say SS: one series up
    ("1003", "DURAND", "Anne", 3, "3", "3"),  # we say 4: one series down
    ("1004", "PETIT", "Marc", 4, "4", "5"),  # we say 4: one series up
    ("1005", "ROUX", "Léa", 5, "4", "4"),  # we say 4B, the list states no sub-series: agree
    ("1006", "BLANC", "Yves", 6, "5", "5A"),  # we say 5A: agree
    ("1007", "NOËL", "Zoé", 7, "5", "5 b"),  # we say 5A: sub-series differ
    ("1008", "FAURE", "Inès", 8, "6", "Série 6"),  # we say 6: agree
    ("1009", "MOREL", "Paul", 9, "6", "6A"),  # we give no sub-series: level only, agree
    ("1010", EVIL, "Jean", 10, "6", "6"),  # we do not classify him
]
# (player_id, series, subseries, super_serie, federation) of our 2023-2024 classification
OURS = [
    ("1001", "1", "1A", True, "FRA"),
    ("1002", "1", "1B", True, "FRA"),
    ("1003", "4", "4A", False, "FRA"),
    ("1004", "4", "4D", False, "FRA"),
    ("1005", "4", "4B", False, "FRA"),
    ("1006", "5", "5A", False, "FRA"),
    ("1007", "5", "5A", False, "FRA"),
    ("1008", "6", None, False, "FRA"),
    ("1009", "6", None, False, "BEL"),  # another federation: still compared when listed
    ("2001", "7", None, False, "FRA"),  # French, not in the list
    ("2002", "6", "6D", False, "France"),  # French by alias, not in the list
    ("3001", "5", None, False, "BEL"),  # not French, not in the list: left out
]


def _published(rows: list[tuple], as_of: str = "2024-08-31") -> pl.DataFrame:
    return pl.DataFrame(
        {
            "as_of": [dt.date.fromisoformat(as_of)] * len(rows),
            "player_id": [r[0] for r in rows],
            "last_name": [r[1] for r in rows],
            "first_name": [r[2] for r in rows],
            "place": [r[3] for r in rows],
            "category": ["Seniors"] * len(rows),
            "series": [r[4] for r in rows],
            "club": ["Club"] * len(rows),
            "points": [100.0] * len(rows),
            "ps1": [90.0] * len(rows),
            "ps2": [95.0] * len(rows),
            "ps3": [85.0] * len(rows),
            "pp4": [50.0] * len(rows),
            "potential_series": [r[5] for r in rows],
            "source_file": [f"{S}/classement_{as_of}.csv"] * len(rows),
        },
        schema_overrides={"place": pl.Int64},
    )


def _classification(rows: list[tuple], season: str = S) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "season": [season] * len(rows),
            "player_id": [r[0] for r in rows],
            "series": [r[1] for r in rows],
            "subseries": [r[2] for r in rows],
            "super_serie": [r[3] for r in rows],
            "criterion": ["pct_n1"] * len(rows),
            "value": [50.0] * len(rows),
            "federation": [r[4] for r in rows],
            "super_serie_value": [40.0] * len(rows),
        },
        schema_overrides={"subseries": pl.String},
    )


NAMES = pl.DataFrame(
    {
        "player_id": ["2001", "2002", "3001"],
        "last_name": ["Lemaire", "Colin", "Peeters"],
        "first_name": ["Odile", "Régis", "Maes"],
    }
)


# ---------------------------------------------------------------------------- transform


def test_exact_comparison() -> None:
    out = compare_series(
        _published(PUBLISHED), _classification(OURS), ALIASES, KNOWN, calendar=CALENDAR, names=NAMES
    )
    assert out.schema == pl.Schema(COLUMNS)
    assert set(out["season"]) == {S} and set(out["as_of"]) == {dt.date(2024, 8, 31)}
    got = out.select(
        "player_id",
        "place",
        "published_series",
        "published_potential_series",
        "computed_series",
        "agrees",
        "difference",
    ).rows()
    assert got == [
        ("1001", 1, "1", "SS", "SS", True, 0),
        ("1002", 2, "2", "1", "SS", False, -1),
        ("1003", 3, "3", "3", "4", False, 1),
        ("1004", 4, "4", "5", "4", False, -1),
        ("1005", 5, "4", "4", "4", True, 0),
        ("1006", 6, "5", "5A", "5A", True, 0),
        ("1007", 7, "5", "5B", "5A", False, 0),
        ("1008", 8, "6", "6", "6", True, 0),
        ("1009", 9, "6", "6A", "6", True, 0),
        ("1010", 10, "6", "6", None, False, None),
        ("2001", None, None, None, "7", False, None),
        ("2002", None, None, None, "6", False, None),
    ]
    names = dict(zip(out["player_id"], out["last_name"], strict=True))
    assert names["1010"] == EVIL and names["2001"] == "Lemaire"  # filled from `names`


def test_summary_and_confusion_matrix() -> None:
    out = compare_series(
        _published(PUBLISHED), _classification(OURS), ALIASES, KNOWN, calendar=CALENDAR
    )
    summary = agreement_summary(out)
    assert summary.rows() == [
        ("series", "SS", 1, 1, 1.0),
        ("series", "1", 1, 0, 0.0),
        ("series", "3", 1, 0, 0.0),
        ("series", "4", 1, 1, 1.0),
        ("series", "5", 3, 1, pytest.approx(1 / 3)),
        ("series", "6", 3, 2, pytest.approx(2 / 3)),
        ("series", None, 2, 0, 0.0),
        ("overall", None, 12, 5, pytest.approx(5 / 12)),
    ]
    matrix = confusion_matrix(out)
    assert matrix.rows() == [
        ("SS", "SS", 1),
        ("1", "SS", 1),
        ("3", "4", 1),
        ("4", "4", 1),
        ("5", "4", 1),
        ("5", "5", 2),
        ("6", "6", 2),
        ("6", None, 1),
        (None, "6", 1),
        (None, "7", 1),
    ]
    assert matrix["players"].sum() == out.height


@pytest.mark.parametrize(
    ("label", "level", "sub", "normalised"),
    [
        ("5", "5", None, "5"),
        (" 5a ", "5", "A", "5A"),
        ("5 B", "5", "B", "5B"),
        ("Série 6", "6", None, "6"),
        ("serie 4-C", "4", "C", "4C"),
        ("SS", "SS", None, "SS"),
        ("ss", "SS", None, "SS"),
        ("Super-série", "SS", None, "SS"),
        ("7", "7", None, "7"),
        ("8", None, None, "8"),  # no such series: kept as given, agrees with nothing
        ("A", None, None, "A"),
        (None, None, None, None),
    ],
)
def test_series_labels(label: str | None, level: str | None, sub: str | None, normalised) -> None:
    frame = pl.DataFrame({"s": [label]}, schema={"s": pl.String})
    got = frame.select(
        series_level(pl.col("s")).alias("level"),
        series_sub(pl.col("s")).alias("sub"),
        series_label(pl.col("s")).alias("label"),
    ).row(0)
    assert got == (level, sub, normalised)


def test_lists_close_the_season_holding_their_date() -> None:
    published = pl.concat(
        [
            _published([("1003", "D", "A", 1, "3", "4")], "2024-08-31"),  # closes 2023-2024
            _published([("1003", "D", "A", 1, "4", "3")], "2024-09-01"),  # in 2024-2025
        ]
    ).with_columns(pl.col("as_of").cast(pl.String))  # ISO strings are read too
    ours = pl.concat(
        [
            _classification([("1003", "4", None, False, "FRA")], S),
            _classification([("1003", "3", None, False, "FRA")], "2024-2025"),
        ]
    )
    out = compare_series(published, ours, ALIASES, KNOWN, calendar=CALENDAR)
    assert out.select("season", "as_of", "computed_series", "agrees").rows() == [
        (S, dt.date(2024, 8, 31), "4", True),
        ("2024-2025", dt.date(2024, 9, 1), "3", True),
    ]
    # a season starting on 1 July: 2024-08-31 then falls in 2024-2025
    shifted = compare_series(published, ours, ALIASES, KNOWN, calendar=SeasonCalendar(7, 1))
    assert set(shifted["season"]) == {"2024-2025"}


def test_nothing_published_gives_no_row() -> None:
    empty = _published([]).clear()
    out = compare_series(empty, _classification(OURS), ALIASES, KNOWN, calendar=CALENDAR)
    assert out.height == 0 and out.schema == pl.Schema(COLUMNS)
    summary = agreement_summary(out)
    assert summary.rows() == [("overall", None, 0, 0, None)]


# ---------------------------------------------------------------------------- FFSc fixture


def test_ffsc_fixture_file() -> None:
    name = "ffsc/classement_2019-06-30.csv"
    frames = ffsc.parse(FIXTURE.read_bytes(), name)
    # the list's date comes from the file name (the ingest adds it as `as_of`)
    published = (
        frames["published_series"]
        .drop("_row")
        .with_columns(pl.lit(ffsc.date_from_name(name)).alias("as_of"))
    )
    ours = _classification(
        [
            ("123456", "1", "1A", False, "FRA"),  # published 1: agree
            ("234567", "2", "2A", False, "FRA"),  # published 1: one down
            ("345678", "1", "1B", True, "FRA"),  # published 1, SS for us: one up
            ("456789", "1", None, False, "FRA"),  # published 1: agree
            ("567890", "2", None, False, "SUI"),  # published 2: agree
            ("667788", "7", None, False, "FRA"),  # published 7: agree
            ("999999", "6", "6D", False, "FRA"),  # ours only
        ],
        "2018-2019",
    )
    out = compare_series(published, ours, ALIASES, KNOWN, calendar=CALENDAR)
    assert out.height == 16
    assert set(out["season"]) == {"2018-2019"}
    assert set(out["as_of"]) == {dt.date(2019, 6, 30)}
    by_id = {r["player_id"]: r for r in out.iter_rows(named=True)}
    assert by_id["123456"]["last_name"] == "LÉVÊQUE"
    assert (by_id["234567"]["computed_series"], by_id["234567"]["difference"]) == ("2", 1)
    assert (by_id["345678"]["computed_series"], by_id["345678"]["difference"]) == ("SS", -1)
    assert by_id["999999"]["published_potential_series"] is None
    assert by_id["890123"]["place"] == 7 and by_id["789012"]["place"] == 7  # `7ex` ties
    assert by_id["890123"]["computed_series"] is None
    assert sorted(p for p, r in by_id.items() if r["agrees"]) == [
        "123456",
        "456789",
        "567890",
        "667788",
    ]
    overall = agreement_summary(out).row(-1, named=True)
    assert (overall["players"], overall["agreements"]) == (16, 4)


# ---------------------------------------------------------------------------- asset


def _warehouse(path: Path) -> Warehouse:
    wh = Warehouse(path)
    wh.replace_tables(
        {
            "published_series": _published(PUBLISHED),
            "series_classification": pl.concat(
                [_classification(OURS), _classification(OURS[:3], "2024-2025")]
            ),
            "players": declared("players").complete(NAMES),
        }
    )
    return wh


def _materialise(instance: dg.DagsterInstance, path: Path, season: str):
    return materialise([series_comparison], path, partition=season, instance=instance)


def test_asset_writes_its_season(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    wh = _warehouse(path)
    instance = build_instance()
    instance.add_dynamic_partitions("season", [S, "2024-2025"])

    result = _materialise(instance, path, S)
    assert result.success
    table = wh.table("series_comparison")
    assert table.height == 12 and set(table["season"]) == {S}
    assert table["agrees"].sum() == 5
    expected = compare_series(
        _published(PUBLISHED), _classification(OURS), ALIASES, KNOWN, calendar=CALENDAR, names=NAMES
    )
    assert table.sort("player_id").equals(expected.sort("player_id"))
    (materialization,) = result.asset_materializations_for_node("series_comparison")
    metadata = {k: v.value for k, v in materialization.metadata.items()}
    assert metadata["agreements"] == 5 and metadata["rows"] == 12 and metadata["lists"] == 1

    # a season without a published ranking: no row, no failure, other seasons untouched
    empty = _materialise(instance, path, "2024-2025")
    assert empty.success
    assert wh.read("SELECT count(*) AS n FROM series_comparison WHERE season = '2024-2025'")[
        "n"
    ].to_list() == [0]
    assert wh.table("series_comparison").height == 12

    # the list withdrawn: a rebuild removes the season's rows
    wh.replace_tables({"published_series": _published(PUBLISHED).clear()})
    assert _materialise(instance, path, S).success
    assert wh.table("series_comparison").height == 0


def test_asset_on_a_warehouse_without_rankings(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    Warehouse(path).replace_tables({"series_classification": _classification(OURS)})
    instance = build_instance()
    instance.add_dynamic_partitions("season", [S])
    assert _materialise(instance, path, S).success
    assert Warehouse(path).table("series_comparison").height == 0


# ---------------------------------------------------------------------------- report


def test_report_section(tmp_path: Path) -> None:
    path = tmp_path / "w.duckdb"
    wh = Warehouse(path)
    frame = compare_series(
        _published(PUBLISHED), _classification(OURS), ALIASES, KNOWN, calendar=CALENDAR, names=NAMES
    )
    wh.replace_tables({"series_comparison": frame, "players": declared("players").complete(NAMES)})
    fragments = SECTION.render(ReportData(wh), S)
    charts = [f for f in fragments if isinstance(f, Chart)]
    assert [c.key for c in charts] == ["matrix"]
    html = "".join(f for f in fragments if not isinstance(f, Chart))
    assert "5 (41,7 %)" in html  # 5 agreements out of 12
    assert "Liste des désaccords (7 joueurs)" in html
    assert EVIL not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Lemaire Odile" in html  # a player the list omits, named from `players`
    trace = charts[0].figure["data"][0]  # type: ignore[index]
    assert sum(int(t) for t in trace["text"]) == 12

    nothing = SECTION.render(ReportData(wh), "2024-2025")
    assert len(nothing) == 1 and "Aucun classement publié par la FFSc" in nothing[0]


def test_report_section_without_the_table(tmp_path: Path) -> None:
    wh = Warehouse(tmp_path / "w.duckdb")
    wh.replace_tables({"players": declared("players").complete(NAMES)})
    (only,) = SECTION.render(ReportData(wh), S)
    assert "Aucun classement publié" in only
