"""The regional circuits in the pipeline (docs/rules.md §5, issues 14 and 15): their export
kinds and checks, the year-partitioned assets (a year built alone = the same year of a full
build), the circuit reports, the player block, and a generated sample built end to end."""

from __future__ import annotations

import json
import re
import shutil
import weakref
from collections.abc import Callable
from pathlib import Path

import dagster as dg
import polars as pl
import pytest

from pipelines.defs.circuits.assets import paca_circuit, round_robin_finals
from pipelines.defs.circuits.reports import circuit_reports
from pipelines.defs.ingest.assets import ingest
from pipelines.defs.years.assets import YEAR_ASSETS
from pipelines.paths import PROJECT_ROOT, REFERENCE_DIR
from pipelines.reference.circuits import load_circuit_names, load_circuit_params
from pipelines.reports.circuits.common import Lookup, page_names, results_of
from pipelines.reports.circuits.pages import render_circuit_page, write_year_reports, year_pages
from pipelines.reports.data import ReportData
from pipelines.reports.html import player_filename
from pipelines.reports.layout import circuit_page_path, year_index_path
from pipelines.reports.player_blocks.circuits import BLOCK
from pipelines.resources import WarehouseResource
from pipelines.staleness import YEARS
from pipelines.warehouse import Warehouse
from tests.builds import materialise
from tests.support import SAMPLE, ingested
from transforms.circuits import circuit_tables, with_circuit_codes
from transforms.tables import Table, registry, table

EXAMPLES = PROJECT_ROOT / "docs" / "examples" / "circuits"
YEAR = "2024"
Edit = Callable[[str], str]


def _examples(tmp_path: Path, edits: dict[str, Edit] | None = None) -> Path:
    """A copy of the example exports, each file of `edits` rewritten (created if new)."""
    folder = tmp_path / "raw"
    shutil.copytree(EXAMPLES, folder)
    for name, edit in (edits or {}).items():
        path = folder / name
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        path.write_text(edit(text), encoding="utf-8")
    return folder


def _drop(prefix: str) -> Edit:
    return lambda text: "".join(
        line for line in text.splitlines(keepends=True) if not line.startswith(prefix)
    )


def _drop_player(player: str) -> Edit:
    return lambda text: "".join(
        line for line in text.splitlines(keepends=True) if f",{player}," not in line
    )


def _replace(old: str, new: str) -> Edit:
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new)

    return edit


# ---------------------------------------------------------------------------- ingest


def test_the_example_exports_load() -> None:
    result = ingested(EXAMPLES)
    assert result.rejected == {}
    kinds = dict(result.log.select("path", "kinds").iter_rows())
    assert kinds["calendrier_PACA.csv"] == "circuit_calendar"
    assert kinds["classement_PACA_2023-12-31.csv"] == "circuit_ranking"
    assert kinds["L2024-MGS_matches.csv"] == "matches"
    calendar = result.tables["circuit_calendar"]
    assert calendar.columns == table("circuit_calendar").column_names
    assert calendar["status"].to_list() == [
        "held",
        "held",
        "held",
        "held",
        "cancelled",
        "announced",
    ]
    assert calendar["source_file"].unique().to_list() == ["calendrier_PACA.csv"]
    rankings = result.tables["published_circuit_rankings"]
    assert rankings.height == 6 + 18
    assert rankings.filter(pl.col("player_id") == "1001")["points"].to_list() == [1985.5]
    matches = result.tables["matches"]
    assert matches.height == 2 * 120 + 2 * (120 - 2)  # the withdrawn player's last two
    assert (
        matches.filter(pl.col("tournament_id") == "L2024-MGS")["player_top_moves"].null_count()
        == 240
    )
    tournaments = result.tables["tournaments"]
    assert dict(tournaments.select("tournament_id", "circuit").iter_rows()) == {
        "L2024-GE1": "Grand Est",
        "L2024-GE2": "Grand Est",
        "L2024-MGS": "Masters Grand Sud",
        "L2024-ORA": "Région PACA",
        "L2024-GEF": "Grand Est",
    }
    withdrawn = result.tables["results"].filter(pl.col("withdrawn_after_round").is_not_null())
    assert withdrawn.select("player_id", "withdrawn_after_round").rows() == [("3009", 13)]


def test_a_calendar_with_french_headers_and_semicolons_loads(tmp_path: Path) -> None:
    text = (
        "Circuit;Tournoi récurrent;Année;Date;Annoncé le;Statut;Id tournoi\r\n"
        "Région PACA;Orange;2023;16/04/2023;20/11/2022;held;L2023-ORA\r\n"
        "paca;Arles;2023;11/06/2023;;HELD;L2023-ARL\r\n"
    )
    folder = tmp_path / "raw"
    folder.mkdir()
    (folder / "calendrier.csv").write_bytes(text.encode("cp1252"))
    result = ingested(folder)
    assert result.rejected == {}
    calendar = result.tables["circuit_calendar"]
    assert calendar.select("event_key", "status", "announced_on").rows() == [
        ("Orange", "held", pl.Series(["2022-11-20"]).str.to_date()[0]),
        ("Arles", "held", None),
    ]


CALENDAR_FILE = "calendrier_PACA.csv"
RANKING_FILE = "classement_PACA_2023-12-31.csv"
KNOWN = (
    "écrivez un circuit de data/reference/circuits.csv (PACA (Classement régional PACA), "
    "MASTERS_GRAND_SUD (Masters Grand Sud), GRAND_EST (Championnat du Grand Est)), plusieurs "
    "séparés par « ; »"
)

BAD_CASES: list[tuple[str, dict[str, Edit], str, str]] = [
    (
        "unknown status",
        {CALENDAR_FILE: _replace("2024-05-02,announced", "2024-05-02,annoncé")},
        CALENDAR_FILE,
        "calendrier_PACA.csv, ligne 7, colonne « status » : « annoncé » n'est pas un statut "
        "d'édition : écrivez held (jouée), announced (annoncée) ou cancelled (annulée)",
    ),
    (
        "held without its tournament",
        {CALENDAR_FILE: _replace(",held,L2023-MEN", ",held,")},
        CALENDAR_FILE,
        "calendrier_PACA.csv, ligne 4, colonne « tournament_id » : une édition jouée (held) "
        "doit donner son tournoi (tournament_id)",
    ),
    (
        "date out of the edition's year",
        {CALENDAR_FILE: _replace("PACA,Menton,2023,2023-10-08", "PACA,Menton,2023,2024-10-08")},
        CALENDAR_FILE,
        "calendrier_PACA.csv, ligne 4, colonne « date » : la date 2024-10-08 n'est pas dans "
        "l'année 2023 de l'édition",
    ),
    (
        "unknown circuit in a calendar",
        {CALENDAR_FILE: _replace("PACA,Arles,2024", "Provence,Arles,2024")},
        CALENDAR_FILE,
        "calendrier_PACA.csv, ligne 6, colonne « circuit » : circuit inconnu : « Provence » ; "
        + KNOWN,
    ),
    (
        "an edition twice with one status, across files",
        {
            "calendrier_2025.csv": lambda _: (
                "circuit,event_key,year,date,status,tournament_id\n"
                "PACA,Orange,2024,2024-04-14,held,L2024-ORA\n"
            )
        },
        CALENDAR_FILE,
        "calendrier_PACA.csv, ligne 5, colonne « status » : l'édition 2024 d'Orange du circuit "
        "PACA figure déjà avec le statut held (calendrier_2025.csv, ligne 2) : une édition a au "
        "plus une ligne par statut",
    ),
    (
        "an edition held and cancelled",
        {
            "calendrier_2025.csv": lambda _: (
                "circuit,event_key,year,date,status,tournament_id\n"
                "PACA,Arles,2024,2024-06-09,held,L2024-ARL\n"
            )
        },
        CALENDAR_FILE,
        "calendrier_PACA.csv, ligne 6, colonne « status » : l'édition 2024 d'Arles du circuit "
        "PACA est déjà jouée (held) (calendrier_2025.csv, ligne 2) : elle ne peut pas être à "
        "la fois jouée et annulée",
    ),
    (
        "a held edition whose tournament ends another year",
        {
            CALENDAR_FILE: _replace(
                "PACA,Orange,2024,2024-04-14,2023-11-19,held,L2024-ORA",
                "PACA,Orange,2023,2023-04-14,2022-11-19,held,L2024-ORA",
            )
        },
        CALENDAR_FILE,
        "calendrier_PACA.csv, ligne 5, colonne « status » : l'édition 2023 d'Orange du circuit "
        "PACA figure déjà avec le statut held (calendrier_PACA.csv, ligne 2) : une édition a "
        "au plus une ligne par statut",
    ),
    (
        "a PACA tournament the calendar does not hold",
        {CALENDAR_FILE: _drop("PACA,Orange,2024")},
        "L2024-ORA.csv",
        "L2024-ORA.csv, ligne 2, colonne « circuit » : le tournoi L2024-ORA est rattaché au "
        "circuit PACA, mais aucun calendrier de ce circuit ne le donne comme édition jouée "
        "(held) : ajoutez-le au calendrier du circuit (docs/exports.md)",
    ),
    (
        "a held edition whose results do not name the circuit",
        {"L2024-ORA.csv": _replace("Région PACA", "")},
        "L2024-ORA.csv",
        "L2024-ORA.csv, ligne 2, colonne « circuit » : le calendrier du circuit PACA "
        "(calendrier_PACA.csv, ligne 5) donne ce tournoi (L2024-ORA) comme son édition 2024 "
        "d'Orange : la colonne « circuit » de ses résultats doit nommer PACA",
    ),
    (
        "an unknown circuit in results",
        {"L2024-GE1.csv": _replace("Grand Est", "Grand Ouest")},
        "L2024-GE1.csv",
        "L2024-GE1.csv, ligne 2, colonne « circuit » : circuit inconnu : « Grand Ouest » ; "
        + KNOWN,
    ),
    (
        "a place 0 in a circuit ranking",
        {RANKING_FILE: _replace("1003,1,2140", "1003,0,2140")},
        RANKING_FILE,
        "classement_PACA_2023-12-31.csv, ligne 2, colonne « place » : la place 0 n'est pas une "
        "place (1 ou plus)",
    ),
    (
        "negative points in a circuit ranking",
        {RANKING_FILE: _replace("1003,1,2140", "1003,1,-2140")},
        RANKING_FILE,
        "classement_PACA_2023-12-31.csv, ligne 2, colonne « points » : -2140.0 points : un "
        "total de points n'est jamais négatif",
    ),
    (
        "a player twice in a circuit ranking",
        {RANKING_FILE: lambda text: text + "PACA,2023-12-31,1003,7,500\n"},
        RANKING_FILE,
        "classement_PACA_2023-12-31.csv, ligne 8, colonne « player_id » : le joueur 1003 "
        "figure déjà au classement PACA du 2023-12-31 (classement_PACA_2023-12-31.csv, "
        "ligne 2) : un joueur figure une fois par classement",
    ),
    (
        "a match given from one side only",
        {"L2024-MGS_matches.csv": _drop("L2024-MGS,1,1,2017,2001,")},
        "L2024-MGS_matches.csv",
        "L2024-MGS_matches.csv, ligne 2, colonne « opponent_id » : le match de la ronde 1 "
        "entre 2001 et 2017 n'est donné que du côté de 2001 : il manque la ligne de 2017 "
        "contre 2001",
    ),
    (
        "a match contradicting its mirror",
        {
            "L2024-MGS_matches.csv": _replace(
                "L2024-MGS,1,1,2017,2001,4,8", "L2024-MGS,1,1,2017,2001,5,8"
            )
        },
        "L2024-MGS_matches.csv",
        "L2024-MGS_matches.csv, ligne 3, colonne « player_moves » : 2017 gagne 5 coups ici, "
        "mais 4 d'après la ligne 2 (2001 contre 2017, ronde 1)",
    ),
    (
        "matches of a tournament that is not a final",
        {"L2024-MGS.csv": _replace(",masters\n", ",open\n")},
        "L2024-MGS_matches.csv",
        "L2024-MGS_matches.csv, ligne 2, colonne « tournament_id » : le tournoi L2024-MGS n'est "
        "pas une finale en toutes rondes : ses résultats doivent nommer le circuit Masters "
        "Grand Sud ou Championnat du Grand Est (colonne circuit) et avoir la catégorie "
        "masters, finale",
    ),
    (
        "a player of the matches missing from the results",
        {"L2024-MGS_matches.csv": lambda text: text.replace(",2016,", ",9999,")},
        "L2024-MGS_matches.csv",
        "L2024-MGS_matches.csv, ligne 4, colonne « opponent_id » : le joueur 9999 ne figure "
        "pas dans les résultats du tournoi L2024-MGS",
    ),
    (
        "a Grand Est final without the moves at the top",
        {"L2024-GEF_matches.csv": lambda text: re.sub(r",\d+\n", ",\n", text, count=2)},
        "L2024-GEF_matches.csv",
        "L2024-GEF_matches.csv, ligne 2, colonne « player_top_moves » : valeur vide : la finale "
        "du Grand Est départage d'abord au nombre de coups joués au top, à donner sur chaque "
        "ligne",
    ),
    (
        "a round robin missing a match",
        {"L2024-MGS_matches.csv": _drop("L2024-MGS,15,")},
        "L2024-MGS_matches.csv",
        "L2024-MGS_matches.csv, ligne 2, colonne « opponent_id » : il manque le match entre "
        "2001 et 2002 : dans une finale en toutes rondes, chaque participant rencontre une "
        "fois chacun des autres (sauf un joueur qui abandonne)",
    ),
    (
        "a withdrawn player still playing",
        {"L2024-GEF.csv": _replace(",13\n", ",10\n")},
        "L2024-GEF_matches.csv",
        "L2024-GEF_matches.csv, ligne 172, colonne « round » : 3009 a abandonné après la "
        "ronde 10 (colonne withdrawn_after_round de ses résultats) mais joue la ronde 11",
    ),
    (
        "a final of fifteen",
        {"L2024-MGS.csv": _drop_player("2016"), "L2024-MGS_matches.csv": _drop_player("2016")},
        "L2024-MGS_matches.csv",
        "L2024-MGS_matches.csv, ligne 2, colonne « tournament_id » : une finale réunit 16 "
        "joueurs : les résultats du tournoi L2024-MGS en comptent 15",
    ),
    (
        "a Masters player missing from the annual ranking",
        {"classement_annuel_MGS_2024-01-31.csv": _drop_player("2016")},
        "L2024-MGS_matches.csv",
        "L2024-MGS_matches.csv, ligne 5, colonne « player_id » : le joueur 2016 joue le "
        "Masters sans figurer au classement annuel Masters Grand Sud du 2024-01-31",
    ),
    (
        "a Masters without an annual ranking before it",
        {"classement_annuel_MGS_2024-01-31.csv": lambda t: t.replace("2024-01-31", "2024-03-31")},
        "L2024-MGS_matches.csv",
        "L2024-MGS_matches.csv, ligne 2, colonne « tournament_id » : aucun classement annuel "
        "Masters Grand Sud (fichier de classement de circuit) daté au plus tard du 2024-02-24 "
        ": les participants du Masters en viennent",
    ),
    (
        "a Grand Est finalist who played no qualifier",
        {"L2024-GE2.csv": _drop_player("3016")},
        "L2024-GEF_matches.csv",
        "L2024-GEF_matches.csv, ligne 3, colonne « player_id » : le joueur 3016 joue la "
        "finale du Grand Est sans avoir joué de tournoi qualificatif du championnat 2024",
    ),
]


@pytest.mark.parametrize(
    ("edits", "path", "message"),
    [case[1:] for case in BAD_CASES],
    ids=[case[0] for case in BAD_CASES],
)
def test_a_bad_export_is_rejected_with_a_french_message(
    tmp_path: Path, edits: dict[str, Edit], path: str, message: str
) -> None:
    result = ingested(_examples(tmp_path, edits))
    assert result.rejected.get(path) == message
    log = result.log.filter(pl.col("path") == path).row(0, named=True)
    assert (log["status"], log["message"]) == ("rejected", message)
    # the other circuits' files still load
    untouched = {"L2024-GE1.csv", "L2024-GE2.csv", "L2024-MGS.csv"} - set(edits) - {path}
    assert not untouched & set(result.rejected)


def test_a_rejected_calendar_takes_its_circuit_s_results_with_it(tmp_path: Path) -> None:
    """The PACA results need their calendar: a calendar refused for a bad row refuses the
    tournaments it holds (and their games), never the other circuits' files."""
    edits = {CALENDAR_FILE: _replace("2024-05-02,announced", "2024-05-02,annoncé")}
    result = ingested(_examples(tmp_path, edits))
    assert sorted(result.rejected) == ["L2024-ORA.csv", "L2024-ORA_games.csv", CALENDAR_FILE]
    assert result.rejected["L2024-ORA_games.csv"].endswith(
        "le tournoi L2024-ORA n'a pas de résultats (son fichier de résultats manque ou a été "
        "refusé)"
    )
    assert result.tables["matches"].height == 476


# ---------------------------------------------------------------------------- assets


def _materialise(
    resource: WarehouseResource, instance: dg.DagsterInstance, year: str, *, pages: bool = True
) -> None:
    """The year's circuit tables (and, unless not `pages`, its circuit pages) materialised;
    both asset checks passed."""
    assets = [paca_circuit, round_robin_finals] + ([circuit_reports] if pages else [])
    result = materialise(assets, resource, partition=year, instance=instance)
    assert result.success
    checks = {c.check_name: c.passed for c in result.get_asset_check_evaluations()}
    assert checks == {"circuit_rankings_add_up": True, "masters_follow_the_pairing_table": True}


@pytest.fixture(scope="module")
def example_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example exports ingested and their year built (tables and circuit pages)."""
    root = tmp_path_factory.mktemp("circuits-examples")
    resource = WarehouseResource(
        raw_dir=str(EXAMPLES),
        warehouse_path=str(root / "w.duckdb"),
        reports_dir=str(root / "reports"),
    )
    instance = dg.DagsterInstance.ephemeral()
    assert dg.materialize([ingest], resources={"warehouse": resource}, instance=instance).success
    assert instance.get_dynamic_partitions("year") == [YEAR]
    _materialise(resource, instance, YEAR)
    return root


def _table(site: Path, name: str) -> pl.DataFrame:
    return Warehouse(site / "w.duckdb").table(name)


def test_the_year_assets_write_every_circuit_table(example_site: Path) -> None:
    points = _table(example_site, "circuit_points")
    assert points.height == 8 and points["year"].unique().to_list() == [2024]
    # player 1002 (seed 4 of the imported ranking): table 1 for 1st of the duplicate with 5
    # seeds, two wins over seeds 2 and 1 (75 + 80 = 155), table 4 for 1st place
    row = points.filter(pl.col("player_id") == "1002").row(0, named=True)
    assert (row["seed"], row["seeds_present"], row["win_points"]) == (4, 5, 155.0)
    assert row["total"] == row["duplicate_points"] + 155.0 + row["final_points"]
    # a draw with seed 3 scores table 3 (half of 85 − 15 = 35)
    assert points.filter(pl.col("player_id") == "1006")["draw_points"].to_list() == [35.0]
    rankings = _table(example_site, "circuit_rankings")
    assert rankings["after_tournament_id"].unique().to_list() == ["L2024-ORA"]
    assert rankings.sort("place")["player_id"].to_list()[:2] == ["1002", "1001"]
    windows = _table(example_site, "circuit_ranking_windows")
    # Orange 2024 replaced Orange 2023; Arles and Menton 2023 still count; not the last
    # ranking of 2024: Menton 2024 is announced
    assert windows["tournament_id"].to_list() == ["L2023-ARL", "L2023-MEN", "L2024-ORA"]
    assert windows["last_of_year"].unique().to_list() == [False]
    assert _table(example_site, "circuit_masters_invitees").height == 0
    clubs = _table(example_site, "circuit_club_points").sort("total", descending=True)
    assert clubs.row(0, named=True)["counted_players"].count(";") == 2  # three best of four
    standings = _table(example_site, "round_robin_standings")
    assert sorted(standings["circuit"].unique().to_list()) == ["GRAND_EST", "MASTERS_GRAND_SUD"]
    assert standings["year"].unique().to_list() == [2024]
    withdrawn = standings.filter(pl.col("player_id") == "3009").row(0, named=True)
    assert (withdrawn["place"], withdrawn["tiebreak_used"]) == (None, "withdrawn")
    masters = standings.filter(pl.col("tournament_id") == "L2024-MGS")
    # the 4th of the annual ranking did not come: the 17th is number 16
    assert masters.filter(pl.col("player_id") == "2017").select("seed", "ranking_place").row(0) == (
        16,
        17,
    )
    qualifying = _table(example_site, "grand_est_qualifying")
    assert qualifying.height == 18 and qualifying["place"].min() == 1


@pytest.mark.slow
def test_a_year_built_alone_equals_the_year_of_a_full_build(
    generated: Path, tmp_path: Path
) -> None:
    raw = generated  # seed 7, two seasons from 2021, 300 players (only read)
    base = tmp_path / "ingested.duckdb"
    instance = dg.DagsterInstance.ephemeral()
    resource = WarehouseResource(
        raw_dir=str(raw), warehouse_path=str(base), reports_dir=str(tmp_path / "r0")
    )
    assert dg.materialize([ingest], resources={"warehouse": resource}, instance=instance).success
    years = instance.get_dynamic_partitions("year")
    assert years == ["2021", "2022", "2023"]

    def built(name: str, keys: list[str]) -> Warehouse:
        path = tmp_path / f"{name}.duckdb"
        shutil.copy(base, path)
        copy = WarehouseResource(
            raw_dir=str(raw), warehouse_path=str(path), reports_dir=str(tmp_path / name)
        )
        for key in keys:  # the tables only: the pages write none (compared below)
            _materialise(copy, instance, key, pages=False)
        return copy.warehouse

    full = built("full", years)
    names = [t.name for t in _year_tables()]
    for year in years:
        alone = built(f"alone-{year}", [year])
        with alone.reading(), full.reading():  # one connection each, not one per read
            for name in names:
                a = alone.read(f'SELECT * FROM "{name}" WHERE year = ?', [int(year)])
                b = full.read(f'SELECT * FROM "{name}" WHERE year = ?', [int(year)])
                assert a.equals(b), (name, year)
    # and the PACA tables are those of one computation over all the data
    ingested = Warehouse(base)
    names_table = load_circuit_names(REFERENCE_DIR)
    everything = circuit_tables(
        with_circuit_codes(
            ingested.read(
                "SELECT r.*, t.end_date, t.start_date, t.circuit FROM results r "
                "JOIN tournaments t USING (tournament_id)"
            ),
            names_table,
        ),
        ingested.table("games"),
        with_circuit_codes(ingested.table("circuit_calendar"), names_table),
        with_circuit_codes(ingested.table("published_circuit_rankings"), names_table),
        load_circuit_params(REFERENCE_DIR),
    )
    assert full.table("circuit_rankings").equals(everything.rankings)
    assert full.table("circuit_points").equals(everything.points)
    assert everything.rankings.height > 0


def _year_tables() -> list[Table]:
    return [t for t in registry().values() if t.family.partition == "year"]


# ---------------------------------------------------------------------------- reports


def _charts(html: str) -> dict[str, dict]:
    calls = re.findall(r'classementPlot\("(chart-[a-z0-9-]+)",(\{.*?\})\);</script>', html)
    return {div: json.loads(spec) for div, spec in calls}


def test_the_year_index_lists_the_circuits(example_site: Path) -> None:
    index = year_index_path(example_site / "reports", YEAR).read_text(encoding="utf-8")
    for slug in ("paca", "masters-grand-sud", "grand-est"):
        assert f'href="{slug}.html"' in index and f'href="{slug}.pdf"' in index
    assert "Classement régional PACA" in index and "Championnat du Grand Est" in index


def test_the_paca_page(example_site: Path) -> None:
    html = circuit_page_path(example_site / "reports", YEAR, "paca").read_text(encoding="utf-8")
    for section in ("paca-year", "paca-rankings", "paca-top", "paca-clubs", "paca-masters"):
        assert f'id="{section}"' in html
    charts = _charts(html)
    assert list(charts) == ["chart-paca-top-top16"]
    traces = charts["chart-paca-top-top16"]["data"]
    assert len(traces) == 8  # every player of the only ranking is in its top 16
    assert traces[0]["name"] == "Bonnet Bruno" and traces[0]["y"] == [1]
    assert all(y is None or 1 <= y <= 16 for t in traces for y in t["y"])
    assert "Classement après Tournoi DCDL d&#x27;Orange (14/04/2024)" in html
    assert "Pas encore d'invités" in html  # Menton 2024 is still announced
    assert "annulé" in html and "annoncé" in html  # the calendar's statuses
    assert f'href="../../joueurs/{player_filename("1002")}"' in html


def test_the_finals_pages(example_site: Path) -> None:
    reports = example_site / "reports"
    masters = circuit_page_path(reports, YEAR, "masters-grand-sud").read_text(encoding="utf-8")
    grand_est = circuit_page_path(reports, YEAR, "grand-est").read_text(encoding="utf-8")
    assert list(_charts(masters)) == ["chart-final-progress-points-1"]
    progress = _charts(grand_est)["chart-final-progress-points-1"]["data"]
    assert len(progress) == 16
    # the withdrawn player plays no match after round 13
    (withdrawn,) = [t for t in progress if t["y"][13:] == [None, None]]
    assert withdrawn["y"][12] is not None
    for html in (masters, grand_est):
        assert 'class="crosstable"' in html and "#cfe8d5" in html and "#f4c7c3" in html
        assert 'id="final-tiebreaks"' in html
    assert "défense (coups concédés)" in masters
    assert "Tous les matchs suivent la table des matchs." in masters
    assert "coups joués au top" in grand_est
    assert "abandonne après la ronde 13" in grand_est
    assert "<s>" in grand_est  # annulled games struck out in the crosstable
    assert 'id="grand-est-qualifying"' in grand_est
    assert "Classement de la phase qualificative 2024" in grand_est


def test_a_page_reads_the_results_of_its_own_tournaments(example_site: Path) -> None:
    """`results_of`: the results rows of the tournaments asked for, read alone (not the
    whole table), in the table's order — the rows the whole table holds for them."""
    warehouse = Warehouse(example_site / "w.duckdb")
    with warehouse.held():  # one connection for the reads
        data = ReportData(warehouse)
        ids = data.table("circuit_points")["tournament_id"].unique().sort().to_list()
        ids += data.table("round_robin_standings")["tournament_id"].unique().sort().to_list()
        got = results_of(data, ids)
        whole = data.table("results")
    assert got.equals(whole.filter(pl.col("tournament_id").is_in(ids)))
    assert got["tournament_id"].n_unique() == len(set(ids)) >= 3
    assert got.height < whole.height


def test_a_lookup_answers_as_the_whole_table_and_builds_it_only_when_needed() -> None:
    built: list[int] = []

    def whole() -> dict[str, str]:
        built.append(1)
        return {"1001": "Bonnet Bruno", "1002": "Durand Anne", "9": "Zoé"}

    names = Lookup({"1001": "Bonnet Bruno", "1002": "Durand Anne"}, whole)
    assert names.get("1002", "1002") == "Durand Anne" and built == []
    assert names.get("9", "9") == "Zoé" and names.get("404", "404") == "404"
    assert names.get("1001", "1001") == "Bonnet Bruno" and built == [1]


def test_what_the_pages_share_never_keeps_their_report_data(example_site: Path) -> None:
    """What the pages of a year share (`common.shared`, weakly keyed by report data) never
    holds its report data: a name lookup that did (a bound method) kept every year's report
    data, whole tables included, until the build ended (20 seasons: 0,6 GiB; issue 25).
    Freed by its reference count alone, at once (no cycle left for the collector)."""
    data = ReportData.open(example_site / "w.duckdb")
    names = page_names(data)  # what the year's pages name players with
    assert names.get("not-a-licence", "absent") == "absent"  # the whole table's, built
    gone = weakref.ref(data)
    del data
    assert gone() is None


def test_a_year_without_circuits_still_has_its_index(example_site: Path, tmp_path: Path) -> None:
    data = ReportData.open(example_site / "w.duckdb")
    assert year_pages(data, "2023") == []
    written = write_year_reports(data, "2023", tmp_path)
    assert [p.name for p in written] == ["index.html"]
    assert "Aucun circuit régional n'a de résultats cette année." in written[0].read_text(
        encoding="utf-8"
    )


def test_pages_are_the_same_bytes_and_names_are_escaped(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>"
    raw = _examples(tmp_path, {"L2024-ORA.csv": _replace("Bonnet,Bruno", f"{evil},Bruno")})
    assert ingested(raw).rejected == {}
    resource = WarehouseResource(
        raw_dir=str(raw),
        warehouse_path=str(tmp_path / "w.duckdb"),
        reports_dir=str(tmp_path / "reports"),
    )
    instance = dg.DagsterInstance.ephemeral()
    assert dg.materialize([ingest], resources={"warehouse": resource}, instance=instance).success
    _materialise(resource, instance, YEAR)
    data = ReportData.open(tmp_path / "w.duckdb")
    page = next(p for p in year_pages(data, YEAR) if p.slug == "paca")
    html = render_circuit_page(data, YEAR, page)
    assert html == render_circuit_page(data, YEAR, page)
    assert evil not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Bruno" in html
    names = [t["name"] for t in _charts(html)["chart-paca-top-top16"]["data"]]
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Bruno" in names


# ---------------------------------------------------------------------------- player block


def test_the_player_block(example_site: Path) -> None:
    loaded = BLOCK.load(ReportData.open(example_site / "w.duckdb"))
    paca = BLOCK.render("1002", loaded)
    assert paca is not None
    assert 'href="../circuits/2024/paca.html"' in paca
    assert "<strong>809</strong>" in paca or "809" in paca
    assert "le plus récent (au 14/04/2024)" in paca
    final = BLOCK.render("3009", loaded)
    assert final is not None
    assert "abandon" in final and 'href="../circuits/2024/grand-est.html"' in final
    assert BLOCK.render("999999", loaded) is None


# ---------------------------------------------------------------------------- the build


def test_the_year_record_waits_for_the_circuit_reports() -> None:
    assert {"circuit_reports", "circuit_reports_pdf"} <= set(YEAR_ASSETS)
    assert "circuit_reports_pdf" in YEARS.pdf_assets
    from pipelines.definitions import defs

    graph = defs.resolve_asset_graph()
    parents = graph.get(dg.AssetKey("year_builds")).parent_keys
    for key in graph.get_all_asset_keys():
        node = graph.get(key)
        if node.group_name in ("circuits", "circuit_reports") and key.path != ["year_builds"]:
            assert key in parents, key


def test_the_generated_sample_fills_every_circuit_table(sample_site: Path) -> None:
    """The bundled sample (`classement generate --seed 2026`, built once for the suite):
    every year table filled, a withdrawn finalist, both round-robin circuits, PACA's
    last window of each year but the one still announcing editions, every year's pages."""
    calendar = pl.concat(
        [pl.read_csv(p, infer_schema=False) for p in sorted(SAMPLE.glob("*/calendrier_PACA_*.csv"))]
    )
    assert {"held", "announced", "cancelled"} <= set(calendar["status"].to_list())
    wh = Warehouse(sample_site / "w.duckdb")
    assert set(wh.table("ingest_log")["status"]) == {"ingested"}
    years = ["2023", "2024", "2025", "2026"]
    assert sorted(wh.table("year_builds")["year"].to_list()) == years
    for name in [t.name for t in _year_tables()] + [
        "circuit_calendar",
        "published_circuit_rankings",
        "matches",
    ]:
        assert wh.table(name).height > 0, name
    standings = wh.table("round_robin_standings")
    assert standings.filter(pl.col("tiebreak_used") == "withdrawn").height == 1
    assert set(standings["circuit"].to_list()) == {"MASTERS_GRAND_SUD", "GRAND_EST"}
    windows = wh.table("circuit_ranking_windows")
    assert windows.filter(pl.col("last_of_year"))["year"].unique().sort().to_list() == [
        2023,
        2024,
        2025,
    ]  # 2026 still announces editions after the data ends
    reports = sample_site / "reports"
    for year in years:
        assert year_index_path(reports, year).exists()
        assert circuit_page_path(reports, year, "paca").exists()
    assert circuit_page_path(reports, "2024", "grand-est").exists()
    player = wh.table("circuit_points")["player_id"][0]
    page = (reports / "joueurs" / player_filename(player)).read_text(encoding="utf-8")
    assert "Circuits régionaux" in page


@pytest.mark.slow
def test_the_circuit_pages_print_to_pdf(example_site: Path, tmp_path: Path) -> None:
    """The PDF asset prints every circuit page of the year (Chromium; charts drawn)."""
    import subprocess

    from pipelines.defs.circuits.reports import circuit_reports_pdf

    reports = tmp_path / "reports"
    shutil.copytree(example_site / "reports", reports)
    resource = WarehouseResource(
        raw_dir=str(EXAMPLES),
        warehouse_path=str(example_site / "w.duckdb"),
        reports_dir=str(reports),
    )
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("year", [YEAR])
    result = dg.materialize(
        [circuit_reports_pdf],
        resources={"warehouse": resource},
        instance=instance,
        partition_key=YEAR,
    )
    assert result.success
    for slug, title in (
        ("paca", "Classement après chaque tournoi"),
        ("masters-grand-sud", "Tableau croisé"),
        ("grand-est", "Phase qualificative"),
    ):
        pdf = reports / "circuits" / YEAR / f"{slug}.pdf"
        text = subprocess.run(
            ["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True
        ).stdout
        assert title in text, slug
