"""National classifications in the pipeline: the assets on a small hand-made warehouse,
the data-quality notes, the report sections and the player block; on the bundled sample,
one row per licensee of each federation with a national rule, every rule with players on
both sides of its bars."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from pathlib import Path

import dagster as dg
import duckdb
import polars as pl
import pytest

from pipelines.defs.national.assets import ONE_ROW_CHECK, national_classification
from pipelines.defs.quality.assets import data_quality_notes
from pipelines.defs.series.assets import (
    duplicate_event_scores,
    series_classification,
    series_standings,
)
from pipelines.ingest.batch import ingest_files
from pipelines.instance import build_instance
from pipelines.paths import PROJECT_ROOT, REFERENCE_DIR
from pipelines.reference.federations import load_federations
from pipelines.reference.national import load_national_params
from pipelines.reports.data import ReportData
from pipelines.reports.html import Html
from pipelines.reports.player_blocks.national import BLOCK
from pipelines.reports.section import Chart
from pipelines.reports.sections.data_quality import SECTION as QUALITY_SECTION
from pipelines.reports.sections.national import SECTION
from pipelines.warehouse import Warehouse
from tests.builds import materialise
from tests.support import EVIL, PARAMETERS, declared
from transforms.national import licensee_rows_check
from transforms.quality import unknown_federations_and_countries

S1, S2 = "2024-2025", "2025-2026"
SWISS = {"s1": "CH", "s2": "Suisse", "s3": "SUI", "s4": "FSSC"}  # one federation, 4 ways
FRENCH = [f"f{k:02d}" for k in range(1, 13)]
OTHERS = {"l1": "Luxembourg", "l2": "LU", "b1": "FBS", "q1": "Québec", "w1": "Wakanda"}
FEDERATION = {
    **SWISS,
    **{
        p: ("FFSc" if i % 3 == 0 else "France" if i % 3 == 1 else "FRA")
        for i, p in enumerate(FRENCH)
    },
    **OTHERS,
}
# (tournament, country, day, players in rank order). s4 plays two events in Switzerland
# only; s1–s3 three (the country written `CH`, `Suisse`, `Schweiz`). E5 is held in a
# country the alias table does not know. Only f01 (series 4, the winner of E1–E4) and f07
# (the winner of E5) have a %N above 0: the international series; everyone else is
# classified by the national rules.
EVENTS = [
    ("E1", "CH", dt.date(2024, 10, 5), ["f01", "s1", "s2", "s3", "f02", "s4", "l1", "w1"]),
    ("E2", "Suisse", dt.date(2024, 11, 9), ["f01", "s3", "s1", "s4", "s2", "f03", "b1", "q1"]),
    ("E3", "Schweiz", dt.date(2024, 12, 7), ["f01", "s2", "s1", "s3", "f02", "f04", "l2", "f05"]),
    ("E4", "France", dt.date(2025, 2, 1), [*FRENCH, "s1", "s2", "s3", "s4", "l1", "l2", "b1"]),
    ("E5", "Atlantide", dt.date(2025, 3, 1), ["f07", "f08", "s4", "l1", "f09", "w1", "f10", "q1"]),
    # season 2: one event, to check the partitions stay apart
    ("E6", "France", dt.date(2025, 10, 4), ["f01", "f02", "s1", "l1", "f03", "f04"]),
]
SERIES = {"f01": "4", "f02": "5", "s1": "5", "s3": "5", "f03": "5", "f04": "5"}


def _tournaments() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "tournament_id": [e[0] for e in EVENTS],
            "tournament_name": [f"Tournoi {e[0]}" for e in EVENTS],
            "discipline": ["duplicate"] * len(EVENTS),
            "start_date": [e[2] for e in EVENTS],
            "end_date": [e[2] for e in EVENTS],
            "season": [S1 if e[2] < dt.date(2025, 9, 1) else S2 for e in EVENTS],
            "city": ["Ville"] * len(EVENTS),
            "country": [e[1] for e in EVENTS],
            "category": ["open"] * len(EVENTS),
            "games": [3] * len(EVENTS),
            "coefficient": [1.0] * len(EVENTS),
            "top_total": [3000] * len(EVENTS),
            "players": [len(e[3]) for e in EVENTS],
        },
        schema_overrides={"games": pl.Int64, "top_total": pl.Int64, "players": pl.Int64},
    )


def _results() -> pl.DataFrame:
    rows = [
        (tid, pid, place, FEDERATION[pid], SERIES.get(pid, "6"), 2900 - 37 * place - len(pid))
        for tid, _, _, players in EVENTS
        for place, pid in enumerate(players, start=1)
    ]
    return pl.DataFrame(
        {
            "tournament_id": [r[0] for r in rows],
            "player_id": [r[1] for r in rows],
            "rank": [r[2] for r in rows],
            "federation": [r[3] for r in rows],
            "series": [r[4] for r in rows],
            "score": [r[5] for r in rows],
        },
        schema_overrides={"rank": pl.Int64, "score": pl.Int64},
    )


def _players() -> pl.DataFrame:
    ids = sorted(FEDERATION)
    return pl.DataFrame(
        {
            "player_id": ids,
            "last_name": [EVIL if p == "s4" else f"Nom{p}" for p in ids],
            "first_name": [f"Prénom{p}" for p in ids],
            "federation": [FEDERATION[p] for p in ids],
            "first_tournament_date": [dt.date(2010, 1, 1)] * len(ids),
        }
    )


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, dg.ExecuteInProcessResult]]:
    path = tmp_path_factory.mktemp("national") / "w.duckdb"
    wh = Warehouse(path)
    wh.replace_tables(
        declared(
            tournaments=_tournaments(),
            results=_results(),
            players=_players(),
            rating_lists=pl.DataFrame({"player_id": ["f01"], "as_of": [dt.date(2024, 8, 31)]}),
        )
    )
    instance = build_instance()
    instance.add_dynamic_partitions("season", [S1, S2])
    assets = [
        duplicate_event_scores,
        series_standings,
        series_classification,
        national_classification,
        data_quality_notes,
    ]
    runs = {
        season: materialise(assets, path, partition=season, instance=instance)
        for season in (S1, S2)
    }
    return path, runs


def _season(path: Path, name: str, season: str = S1) -> pl.DataFrame:
    return Warehouse(path).read(f'SELECT * FROM "{name}" WHERE season = ?', [season])


def test_switzerland_written_four_ways_is_one_federation(built) -> None:
    path, runs = built
    assert all(run.success for run in runs.values())
    national = _season(path, "national_classification")
    rows = {r["player_id"]: r for r in national.iter_rows(named=True)}
    assert {rows[p]["federation"] for p in SWISS} == {"SUI"}
    assert {rows[p]["federation"] for p in ("l1", "l2")} == {"LUX"}
    # s1–s3: three events held in Switzerland (CH, Suisse, Schweiz): classified by PC.
    scores = _season(path, "duplicate_event_scores")
    for pid in ("s1", "s2", "s3"):
        assert rows[pid]["rule"] == "switzerland_pc"
        assert rows[pid]["series"] is not None
        # 5 events or fewer: they all count (3 best home events + up to 5 others)
        assert rows[pid]["value"] == pytest.approx(
            scores.filter(pl.col("player_id") == pid)["pc"].sum()
        )
    # s4: E1 and E2 in Switzerland, E4 in France, E5 in Atlantide (no country known).
    assert (rows["s4"]["series"], rows["s4"]["value"]) == (None, None)
    assert rows["s4"]["reason"].startswith("seulement 2 tournois joués en Suisse")


def test_one_row_per_licensee_and_the_check(built) -> None:
    path, runs = built
    national = _season(path, "national_classification")
    assert national.select("season", "player_id").is_duplicated().sum() == 0
    # Every licensee of FRA, SUI, LUX, BEL; Québec has no national rule, Wakanda is unknown.
    assert set(national["player_id"]) == set(FEDERATION) - {"q1", "w1"}
    assert national.filter(pl.col("series").is_null() & pl.col("reason").is_null()).height == 0
    checks = {c.check_name: c.passed for c in runs[S1].get_asset_check_evaluations()}
    assert checks[ONE_ROW_CHECK] is True
    # The check finds what breaks the rule.
    classification = _season(path, "series_classification")
    params = load_national_params(REFERENCE_DIR)
    federations = load_federations(REFERENCE_DIR)
    assert licensee_rows_check(classification, national, params, federations).height == 0
    twice = pl.concat([national, national.filter(pl.col("player_id") == "s1")])
    missing = national.filter(pl.col("player_id") != "l2")
    stray = pl.concat(
        [
            national,
            national.filter(pl.col("player_id") == "b1").with_columns(player_id=pl.lit("w1")),
        ]
    )
    empty = national.with_columns(
        pl.when(pl.col("player_id") == "s4").then(None).otherwise(pl.col("reason")).alias("reason")
    )
    for frame, problem in (
        (twice, "licencié avec plusieurs lignes"),
        (missing, "licencié sans ligne"),
        (
            stray,
            "ligne d'un joueur qui n'est licencié d'aucune fédération ayant une règle nationale",
        ),
        (empty, "ligne sans série ni raison"),
    ):
        found = licensee_rows_check(classification, frame, params, federations)
        assert found["problem"].to_list() == [problem]


def test_partitions_bars_and_cle(built) -> None:
    path, _ = built
    second = _season(path, "national_classification", S2)
    assert set(second["player_id"]) == {"f01", "f02", "s1", "l1", "f03", "f04"}
    assert _season(path, "national_classification").height == len(FEDERATION) - 2
    bars = _season(path, "national_bars")
    assert set(bars["federation"]) == {"FRA", "SUI", "BEL"}
    assert set(bars["kind"]) == {"minimum", "quota", "rest"}
    cle = _season(path, "cle_de_repartition")
    assert cle["series"].to_list() == ["5", "6", "7"]
    assert set(cle["reference_federation"]) == {"FRA"}


def test_data_quality_notes(built) -> None:
    path, _ = built
    notes = _season(path, "data_quality_notes")
    assert notes.select("notice", "subject", "rows").rows() == [
        ("unknown_country", "Atlantide", 1),
        # w1 writes Wakanda in E1 and E5, and it is w1's federation on the players table
        ("unknown_federation", "Wakanda", 3),
    ]
    detail = dict(notes.select("subject", "detail").rows())
    assert "écrite dans 2 lignes de résultats de la saison (1 joueur)" in detail["Wakanda"]
    assert "la table des fédérations et pays du classement" in detail["Atlantide"]
    assert "federations.csv" not in detail["Atlantide"]
    # Season 2 writes only known values: nothing to note, and season 1's notes stay.
    assert _season(path, "data_quality_notes", S2).height == 0


def test_unknown_values_each_once_whatever_their_case_or_spaces() -> None:
    federations = load_federations(REFERENCE_DIR)
    results = pl.DataFrame(
        {
            "player_id": ["a", "b", "b", "c", "d"],
            "federation": [" Wakanda", "Wakanda ", "Wakanda", "CH", None],
        }
    )
    players = pl.DataFrame({"player_id": ["a", "e"], "federation": ["Wakanda", "Atlantide"]})
    tournaments = pl.DataFrame({"tournament_id": ["T1", "T2"], "country": ["Helvétie", "CH"]})
    notes = unknown_federations_and_countries(S1, results, players, tournaments, federations)
    assert notes.select("notice", "subject", "rows").rows() == [
        ("unknown_country", "Helvétie", 1),
        ("unknown_federation", "Atlantide", 1),
        ("unknown_federation", "Wakanda", 4),
    ]
    atlantide = notes.filter(pl.col("subject") == "Atlantide")["detail"][0]
    assert "fédération la plus récente de 1 joueur de la saison" in atlantide
    assert "lignes de résultats" not in atlantide


# --------------------------------------------------------------------------- reports


def _html(fragments: Sequence[object]) -> str:
    return "".join(f for f in fragments if isinstance(f, Html))


def test_the_section_renders_with_a_chart_per_federation(built) -> None:
    path, _ = built
    data = ReportData.open(path)
    fragments = list(SECTION.render(data, S1))
    charts = [f for f in fragments if isinstance(f, Chart)]
    # FRA, SUI, LUX draw their players; BEL's only player b1 is drawn too.
    assert sorted(c.key for c in charts) == ["bel", "fra", "lux", "sui"]
    html = _html(fragments)
    for name in ("France", "Suisse", "Luxembourg", "Belgique"):
        assert f"<h3>{name} (" in html
    assert "seulement 2 tournois joués en Suisse" in html
    assert EVIL not in html and "&lt;script&gt;" in html  # s4's name, escaped
    assert "Clé de répartition de la saison" in html
    swiss = next(c for c in charts if c.key == "sui")
    figure = dict(swiss.figure)
    shown = {x for trace in figure["data"] for x in trace["x"]}
    assert shown  # the Swiss players' PC
    assert all(EVIL not in str(trace.get("text")) for trace in figure["data"])
    # The quota bars are drawn as lines.
    assert any(s["type"] == "line" for s in figure["layout"]["shapes"])


def test_the_section_without_national_data(tmp_path: Path) -> None:
    data = ReportData(Warehouse(tmp_path / "empty.duckdb"))
    fragments = list(SECTION.render(data, S1))
    assert not any(isinstance(f, Chart) for f in fragments)
    assert "pas de classement national" in _html(fragments)
    assert "Rien à signaler" in _html(list(QUALITY_SECTION.render(data, S1)))


def test_the_data_quality_annex(built) -> None:
    path, _ = built
    data = ReportData.open(path)
    html = _html(list(QUALITY_SECTION.render(data, S1)))
    assert "Fédération inconnue" in html and "Pays inconnu" in html
    assert "Wakanda" in html and "Atlantide" in html
    assert QUALITY_SECTION.order > SECTION.order
    assert "Rien à signaler" in _html(list(QUALITY_SECTION.render(data, S2)))


def test_the_player_block(built) -> None:
    path, _ = built
    data = ReportData.open(path)
    loaded = BLOCK.load(data)
    s1 = BLOCK.render("s1", loaded)
    assert s1 is not None
    assert "Suisse" in s1 and S1 in s1 and S2 in s1 and s1.count("<tr>") == 3
    assert "PC des meilleures performances" in s1
    s4 = BLOCK.render("s4", loaded)
    assert s4 is not None and "seulement 2 tournois joués en Suisse" in s4
    f01 = BLOCK.render("f01", loaded)
    assert f01 is not None and f01.count("<tr>") == 3  # header + both seasons
    assert BLOCK.render("w1", loaded) is None  # unknown federation: no national row


# --------------------------------------------------------------------------- docs


def test_docs_warehouse_documents_both_tables() -> None:
    text = (PROJECT_ROOT / "docs" / "warehouse.md").read_text(encoding="utf-8")
    for name in ("national_classification", "cle_de_repartition", "data_quality_notes"):
        assert f"### `{name}`" in text


def test_the_example_export_ingests_and_maps_to_one_federation() -> None:
    folder = PROJECT_ROOT / "docs" / "examples" / "national"
    files = {p.name: p.read_bytes() for p in sorted(folder.glob("*.csv"))}
    assert files
    result = ingest_files(files, params=PARAMETERS)
    assert result.rejected == {}
    federations = load_federations(REFERENCE_DIR)
    results = result.tables["results"]
    codes = {federations.code_of(f) for f in results["federation"].to_list()}
    assert codes == {"SUI", "FRA", "LUX"}
    swiss = results.filter(pl.col("player_id").str.starts_with("2"))
    assert {federations.code_of(f) for f in swiss["federation"].to_list()} == {"SUI"}
    assert set(swiss["federation"]) == {"CH", "Suisse", "FSSc", "SUI"}
    (country,) = result.tables["tournaments"]["country"].to_list()
    assert federations.code_of(country) == "SUI"


# --------------------------------------------------------------------------- the sample


def one_row_problems(warehouse: Path) -> pl.DataFrame:
    """Every break of "one row per licensee of each federation with a national rule, per
    season" in a built warehouse (empty when none)."""
    wh = Warehouse(warehouse)
    return licensee_rows_check(
        wh.table("series_classification"),
        wh.table("national_classification"),
        load_national_params(REFERENCE_DIR),
        load_federations(REFERENCE_DIR),
    )


def both_sides_problems(warehouse: Path) -> list[str]:
    """What keeps a rule from having players on both sides of its bars in some season:
    France's 5A reached by %N4 alone each season and by PC in some season (the PC route
    admits what the %N4 route leaves of 5A's quota: nothing when it fills it, docs/rules.md
    §4), players above and below each quota bar and
    minimum, Swiss players classified and not (3 Swiss events), the clé's federations in
    two series at least."""
    with duckdb.connect(str(warehouse), read_only=True) as con:
        national = con.sql("SELECT * FROM national_classification").pl()
        bars = con.sql("SELECT * FROM national_bars").pl()
    problems: list[str] = []
    by_pc = national.filter(
        (pl.col("federation") == "FRA")
        & (pl.col("rule") == "france_pc")
        & (pl.col("subseries") == "5A")
    )
    if by_pc.height == 0:
        problems.append("no 5A by PC in any season")
    for season in sorted(national["season"].unique().to_list()):
        rows = national.filter(pl.col("season") == season)

        french = rows.filter(pl.col("federation") == "FRA")
        if french.filter(pl.col("rule") == "france_pct_n4").height == 0:
            problems.append(f"{season}: no 5A by %N4 alone")
        for code in ("FRA", "BEL", "SUI"):
            ruled = rows.filter(
                (pl.col("federation") == code)
                & ~pl.col("rule").is_in(["international", "new_licensee"])
            )
            steps = bars.filter((pl.col("season") == season) & (pl.col("federation") == code))
            above = 0  # players of the rule admitted by the steps so far (bars in order)
            for r in steps.iter_rows(named=True):
                if r["kind"] != "minimum":
                    above += r["admitted"]
                if r["kind"] == "rest" or r["target"] == 0:
                    continue  # no bar: a rest, or a quota the players above already fill
                below = ruled.height - (r["admitted"] if r["kind"] == "minimum" else above)
                if r["admitted"] == 0 or below <= 0:
                    problems.append(f"{season}: {code} {r['subseries'] or r['series']} one-sided")
        swiss = rows.filter(pl.col("rule") == "switzerland_pc")
        if swiss.filter(pl.col("series").is_null()).height == 0 or swiss.height == 0:
            problems.append(f"{season}: SUI nobody on one side of the 3 Swiss events")
        if not swiss.filter(pl.col("reason").str.contains("seulement 2 tournois")).height:
            problems.append(f"{season}: SUI nobody with exactly 2 Swiss events")
        for code in ("LUX", "GBR"):
            mapped = rows.filter((pl.col("federation") == code) & (pl.col("rule") == "median_cle"))
            if mapped["series"].drop_nulls().n_unique() < 2:
                problems.append(f"{season}: {code} in fewer than two series of the clé")
    return problems


@pytest.mark.slow
def test_sample_one_row_per_licensee_per_season(sample_site: Path) -> None:
    warehouse = sample_site / "w.duckdb"
    assert one_row_problems(warehouse).height == 0
    national = Warehouse(warehouse).table("national_classification")
    for season in national["season"].unique().to_list():
        present = set(national.filter(pl.col("season") == season)["federation"])
        assert present == set(load_national_params(REFERENCE_DIR).rules), season


@pytest.mark.slow
def test_sample_every_rule_has_players_on_both_sides_of_its_bars(sample_site: Path) -> None:
    assert both_sides_problems(sample_site / "w.duckdb") == []


@pytest.mark.slow
def test_sample_report_has_the_national_section(sample_site: Path) -> None:
    for index in sorted((sample_site / "reports").glob("*-*/index.html")):
        html = index.read_text(encoding="utf-8")
        assert 'id="national"' in html and 'id="data_quality"' in html
        for code in ("fra", "bel", "sui", "lux", "gbr"):
            assert re.search(rf'id="chart-national-{code}"', html), (index, code)
