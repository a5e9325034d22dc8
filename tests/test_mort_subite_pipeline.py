"""The Mort Subite challenge in the pipeline (docs/rules.md §6): its two export kinds —
the example files of docs/exports.md (Mort Subite), and each bad case's message —, the
season assets, the report section, the player pages, and generated samples."""

from __future__ import annotations

import io
from pathlib import Path

import dagster as dg
import openpyxl
import polars as pl
import pytest

from pipelines.defs.ingest.assets import ingest
from pipelines.defs.mort_subite.assets import PLACED_CHECK, mort_subite_challenge
from pipelines.ingest.batch import season_fingerprints
from pipelines.instance import build_instance
from pipelines.paths import PROJECT_ROOT, REFERENCE_DIR
from pipelines.reference.seasons import load_calendar
from pipelines.reports.data import ReportData
from pipelines.reports.html import Html
from pipelines.reports.player_blocks.mort_subite import BLOCK
from pipelines.reports.season import render_season_report
from pipelines.reports.section import Chart
from pipelines.reports.sections.mort_subite import SECTION
from pipelines.resources import WarehouseResource
from pipelines.warehouse import Warehouse
from tests.support import ingested

EXAMPLES = PROJECT_ROOT / "docs" / "examples" / "mort_subite"
CALENDAR = load_calendar(REFERENCE_DIR)
SEASON = "2024-2025"
ROUND = "MS2024-03"
EVIL_HOST = "Festival <b>&</b> Spa"


def example_files() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(EXAMPLES.glob("*.csv"))}


def lines(files: dict[str, bytes], name: str) -> list[str]:
    return files[name].decode("utf-8").splitlines()


def replaced(files: dict[str, bytes], name: str, rows: list[str]) -> dict[str, bytes]:
    return {**files, name: ("\n".join(rows) + "\n").encode("utf-8")}


# --- the example files ---------------------------------------------------------------------


def test_the_example_files_load() -> None:
    result = ingested(example_files())
    assert result.rejected == {}
    log = {r["path"]: r["kinds"] for r in result.log.iter_rows(named=True)}
    assert log == {
        "D2024-031.csv": "results",
        "moves.csv": "mort_subite_moves",
        "players.csv": "mort_subite_players",
    }
    players = result.tables["mort_subite_players"]
    moves = result.tables["mort_subite_moves"]
    assert (players.height, moves.height) == (22, 50)
    assert players.row(3, named=True) == {
        "round_id": ROUND,
        "host_tournament_id": "D2024-031",
        "date": pl.Series(["2025-01-19"]).str.to_date()[0],
        "final": 0,
        "player_id": "4004",
        "host_rank": 4,
        "series": "1",
        "present": None,
        "source_file": "players.csv",
    }
    assert players.filter(pl.col("player_id").is_in(["4012", "4013"]))["host_rank"].to_list() == [
        12,
        12,
    ]
    assert moves.row(5, named=True) == {
        "round_id": ROUND,
        "move": 1,
        "top": 78,
        "player_id": "4007",
        "score": 78,
        "warning": 1,
        "penalty": None,  # a file of today's format, without the column, loads unchanged
        "source_file": "moves.csv",
    }


def _with_penalty(files: dict[str, bytes], penalty: str) -> dict[str, bytes]:
    """moves.csv with the organisers' « Pénalité » column: `penalty` on line 13 (4015, out
    on move 1 with 72), empty elsewhere."""
    rows = lines(files, "moves.csv")
    body = [row + (f",{penalty}" if line == 13 else ",") for line, row in enumerate(rows[1:], 2)]
    return replaced(files, "moves.csv", [f"{rows[0]},Pénalité", *body])


def test_a_moves_file_with_a_penalty_column() -> None:
    """FISF §5.6, §5.9: the points the arbiter took off a move (a wrong position: 5) are a
    column of their own; whole, at least 0."""
    files = example_files()
    result = ingested(_with_penalty(files, "5"))
    assert result.rejected == {}
    moves = result.tables["mort_subite_moves"]
    assert moves.filter(pl.col("penalty").is_not_null()).select("player_id", "penalty").rows() == [
        ("4015", 5)
    ]
    assert _rejected(_with_penalty(files, "-5"))["moves.csv"] == (
        "moves.csv, ligne 13, colonne « penalty » (Pénalité) : penalty : -5 n'est pas un nombre "
        "de points retirés au coup (entier à partir de 0, vide : 0)"
    )


def _workbook(files: dict[str, bytes], *, extra_move: str | None = None) -> bytes:
    """The example round as one workbook: a players sheet and a moves sheet with the
    organisers' French headers, a title row above the players' header."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Joueurs"
    sheet.append(["Challenge Mort Subite — manche du Festival de Spa"])
    sheet.append(
        ["Manche", "Tournoi hôte", "Date", "Finale", "N° licence", "Rang hôte", "Série", "Présent"]
    )
    for line in lines(files, "players.csv")[1:]:
        sheet.append([cell or None for cell in line.split(",")])
    coups = book.create_sheet("Coups")
    coups.append(["Manche", "Coup", "Top", "Licence", "Points", "Avertissement"])
    for line in [*lines(files, "moves.csv")[1:], *([extra_move] if extra_move else [])]:
        cells = line.split(",")
        coups.append(
            [cells[0], *(int(c) if c else None for c in cells[1:3]), cells[3]]
            + [int(c) if c else None for c in cells[4:]]
        )
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_round_in_one_workbook_with_french_headers() -> None:
    files = example_files()
    csv_tables = ingested(files).tables
    book = {"D2024-031.csv": files["D2024-031.csv"], "manche.xlsx": _workbook(files)}
    result = ingested(book)
    assert result.rejected == {}
    assert result.log["kinds"].to_list() == ["results", "mort_subite_moves+mort_subite_players"]
    for name in ("mort_subite_players", "mort_subite_moves"):
        assert result.tables[name].drop("source_file").equals(csv_tables[name].drop("source_file"))
    # An error names the sheet, its row and the header the sheet writes.
    bad = {**book, "manche.xlsx": _workbook(files, extra_move=f"{ROUND},1,78,4011,78,")}
    assert ingested(bad).rejected["manche.xlsx"] == (
        "manche.xlsx [feuille Coups], ligne 52, colonne « player_id » (Licence) : le joueur "
        f"4011 n'est pas qualifié pour la manche {ROUND}"
    )


# --- what rejects a file -------------------------------------------------------------------


def _rejected(files: dict[str, bytes]) -> dict[str, str]:
    return ingested(files).rejected


def test_a_move_of_a_player_not_qualified() -> None:
    files = example_files()
    moves = [*lines(files, "moves.csv"), f"{ROUND},1,78,4011,78,"]  # 4011: 11th, 4th of 2
    assert _rejected(replaced(files, "moves.csv", moves)) == {
        "moves.csv": "moves.csv, ligne 52, colonne « player_id » : le joueur 4011 n'est pas "
        f"qualifié pour la manche {ROUND}",
        # its round then has no moves: the players file goes with it
        "players.csv": "players.csv, ligne 2, colonne « round_id » : la manche "
        f"{ROUND} n'a aucun coup dans l'export des coups",
    }


def test_a_move_after_the_players_elimination() -> None:
    files = example_files()
    moves = [*lines(files, "moves.csv"), f"{ROUND},2,30,4015,30,"]  # 4015 was out on move 1
    rejected = _rejected(replaced(files, "moves.csv", moves))
    assert rejected["moves.csv"] == (
        "moves.csv, ligne 52, colonne « move » : le joueur 4015 a été éliminé au coup 1 de la "
        f"manche {ROUND} : il ne joue plus au coup 2"
    )
    assert set(rejected) == {"moves.csv", "players.csv"}


def test_a_round_with_no_moves() -> None:
    files = example_files()
    other = [
        "round_id,host_tournament_id,date,final,player_id,host_rank,series,present",
        "MS2024-05,D2024-031,2025-01-19,0,4001,1,1,1",
        "MS2024-05,D2024-031,2025-01-19,0,4002,2,2,1",
    ]
    assert _rejected(replaced(files, "players_05.csv", other)) == {
        "players_05.csv": "players_05.csv, ligne 2, colonne « round_id » : la manche MS2024-05 "
        "n'a aucun coup dans l'export des coups"
    }


def test_a_present_player_who_is_not_qualified() -> None:
    files = example_files()
    players = lines(files, "players.csv")
    assert players[11] == f"{ROUND},D2024-031,2025-01-19,0,4011,11,2,"
    players[11] += "1"
    rejected = _rejected(replaced(files, "players.csv", players))
    assert rejected["players.csv"] == (
        "players.csv, ligne 12, colonne « present » : le joueur 4011 est marqué présent mais "
        f"n'est pas qualifié pour la manche {ROUND}"
    )
    assert rejected["moves.csv"] == (
        "moves.csv, ligne 2, colonne « round_id » : la manche MS2024-03 n'a aucune ligne dans "
        "l'export des joueurs (son fichier de joueurs manque ou a été refusé)"
    )


def test_moves_without_their_players_file() -> None:
    files = example_files()
    del files["players.csv"]
    assert _rejected(files) == {
        "moves.csv": "moves.csv, ligne 2, colonne « round_id » : la manche MS2024-03 n'a "
        "aucune ligne dans l'export des joueurs (son fichier de joueurs manque ou a été refusé)"
    }


def test_the_host_tournament_and_its_players() -> None:
    files = example_files()
    without_host = {k: v for k, v in files.items() if k != "D2024-031.csv"}
    assert _rejected(without_host)["players.csv"] == (
        "players.csv, ligne 2, colonne « host_tournament_id » : le tournoi hôte D2024-031 de "
        f"la manche {ROUND} n'a pas de résultats (son fichier de résultats manque ou a été "
        "refusé)"
    )
    players = lines(files, "players.csv")
    players[22] = players[22].replace(",4022,", ",4999,")
    assert _rejected(replaced(files, "players.csv", players))["players.csv"] == (
        "players.csv, ligne 23, colonne « player_id » : le joueur 4999 ne figure pas dans les "
        f"résultats du tournoi hôte D2024-031 de la manche {ROUND}"
    )
    early = [
        players[0],
        *(p.replace("2025-01-19", "2025-01-18") for p in lines(files, "players.csv")[1:]),
    ]
    assert _rejected(replaced(files, "players.csv", early))["players.csv"] == (
        f"players.csv, ligne 2, colonne « date » : la manche {ROUND} (2025-01-18) a lieu avant "
        "la fin de son tournoi hôte D2024-031 (2025-01-19)"
    )


def test_a_round_in_two_players_files() -> None:
    files = example_files()
    files["players_bis.csv"] = files["players.csv"]
    assert _rejected(files) == {
        "players_bis.csv": "players_bis.csv, ligne 2, colonne « round_id » : la manche "
        f"{ROUND} a déjà ses joueurs dans players.csv : une manche doit figurer dans un seul "
        "fichier de joueurs (pour la corriger, remplacez ce fichier)"
    }


def test_a_value_of_the_wrong_type() -> None:
    files = example_files()
    moves = lines(files, "moves.csv")
    moves[6] = moves[6].removesuffix("1") + "oui"
    assert _rejected(replaced(files, "moves.csv", moves))["moves.csv"] == (
        "moves.csv, ligne 7, colonne « warning » : « oui » n'est pas un nombre entier"
    )


def test_players_and_moves_are_dated_by_their_round() -> None:
    files = example_files()
    earlier = files["D2024-031.csv"].decode("utf-8")
    earlier = earlier.replace("D2024-031", "D2023-009").replace("2025-01-19", "2023-10-01")
    files["D2023-009.csv"] = earlier.encode("utf-8")

    def fingerprints(files: dict[str, bytes]) -> dict[str, str]:
        result = ingested(files)
        assert result.rejected == {}
        return dict(season_fingerprints(result.tables, CALENDAR).iter_rows())

    before = fingerprints(files)
    assert sorted(before) == ["2023-2024", SEASON]
    players = lines(files, "players.csv")
    players[22] = players[22].replace(",22,2,", ",22,3,")  # 4022: series 3, still not qualified
    after = fingerprints(replaced(files, "players.csv", players))
    assert after["2023-2024"] == before["2023-2024"] and after[SEASON] != before[SEASON]
    moves = lines(files, "moves.csv")
    assert moves[12] == f"{ROUND},1,78,4015,72,"
    moves[12] = f"{ROUND},1,78,4015,71,"  # still out on move 1
    after = fingerprints(replaced(files, "moves.csv", moves))
    # a round's moves take its date from its players' rows: only its season changes
    assert after["2023-2024"] == before["2023-2024"] and after[SEASON] != before[SEASON]


# --- the season assets -----------------------------------------------------------------------

# The season's final, after the example round: every player of the round is a candidate
# (ranked by their round's points); 4001, 4007, 4002 and 4015 take part.
CANDIDATES = [f"40{n:02d}" for n in (1, 2, 3, 5, 6, 7, 8, 9, 10, 12, 13, 15)]
FINALISTS = ("4001", "4007", "4002", "4015")
FINAL_PLAYERS = [
    "round_id,host_tournament_id,date,final,player_id,host_rank,series,present",
    *(f"MS2024-F,,2025-06-28,1,{p},,,{1 if p in FINALISTS else ''}" for p in CANDIDATES),
]
FINAL_MOVES = [
    "round_id,move,top,player_id,score,warning",
    "MS2024-F,1,50,4001,50,",
    "MS2024-F,1,50,4007,50,",
    "MS2024-F,1,50,4002,50,",
    "MS2024-F,1,50,4015,44,",  # out
    "MS2024-F,2,30,4001,30,",
    "MS2024-F,2,30,4007,25,",  # out with 4002, better placed in the challenge
    "MS2024-F,2,30,4002,25,",
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A warehouse of the example round (4016's series left empty: the host's results
    give it) and of the season's final, its 2024-2025 and (empty) 2023-2024 built."""
    tmp = tmp_path_factory.mktemp("mort_subite")
    raw = tmp / "raw"
    raw.mkdir()
    files = example_files()
    players = lines(files, "players.csv")
    assert players[16] == f"{ROUND},D2024-031,2025-01-19,0,4016,16,2,"
    players[16] = f"{ROUND},D2024-031,2025-01-19,0,4016,16,,"
    files = replaced(files, "players.csv", players)
    host = lines(files, "D2024-031.csv")
    files = replaced(
        files, "D2024-031.csv", [r.replace("Festival de Spa", EVIL_HOST) for r in host]
    )
    files = replaced(files, "finale_joueurs.csv", FINAL_PLAYERS)
    files = replaced(files, "finale_coups.csv", FINAL_MOVES)
    for name, data in files.items():
        (raw / name).write_bytes(data)
    resource = WarehouseResource(
        raw_dir=str(raw), warehouse_path=str(tmp / "w.duckdb"), reports_dir=str(tmp / "reports")
    )
    instance = build_instance()
    assert dg.materialize([ingest], resources={"warehouse": resource}, instance=instance).success
    assert ingested(raw).rejected == {}
    instance.add_dynamic_partitions("season", ["2023-2024"])
    for season in ("2023-2024", SEASON):
        result = dg.materialize(
            [mort_subite_challenge],
            resources={"warehouse": resource},
            instance=instance,
            partition_key=season,
        )
        assert result.success
        (check,) = result.get_asset_check_evaluations()
        assert check.check_name == PLACED_CHECK and check.passed
    return tmp / "w.duckdb"


def test_qualified_with_the_series_of_the_host_results(built: Path) -> None:
    qualified = Warehouse(built).table("mort_subite_qualified")
    assert qualified.columns == ["season", "round_id", "player_id", "host_rank", "series", "reason"]
    assert set(qualified["season"].to_list()) == {SEASON}
    regular = qualified.filter(pl.col("round_id") == ROUND)
    # 4016 (host 16) has no series in the export: series 2 from the host's results, so not
    # qualified (as series 7 they would be the first of that series).
    assert "4016" not in regular["player_id"].to_list()
    assert regular.height == 14
    final = qualified.filter(pl.col("round_id") == "MS2024-F")
    assert final.select("player_id", "host_rank", "series", "reason").rows() == [
        ("4001", 1, "1", "both"),
        ("4007", 2, "4", "both"),
        ("4002", 3, "2", "both"),
        ("4008", 4, "1", "both"),  # 2nd of series 1 among the candidates
        ("4006", 5, "2", "both"),
        ("4010", 6, "3", "both"),
        ("4003", 7, "1", "both"),
        ("4009", 8, "2", "both"),
        ("4005", 9, "3", "both"),
        ("4012", 10, "3", "both"),
        ("4013", 10, "3", "both"),
        ("4015", 12, "4", "top 3 of series"),
    ]


def test_results_of_the_round_and_of_the_final(built: Path) -> None:
    results = Warehouse(built).table("mort_subite_results")
    assert results.columns == [
        "season", "round_id", "player_id", "place", "eliminated_at_move", "score_on_move",
        "points", "shared_with",
    ]  # fmt: skip
    final = results.filter(pl.col("round_id") == "MS2024-F")
    assert final.select("player_id", "place", "eliminated_at_move", "points").rows() == [
        ("4001", 1, None, 140.0),
        ("4007", 2, 2, 134.0),
        ("4002", 3, 2, 128.0),
        ("4015", 4, 1, 122.0),
    ]
    shared = results.filter(pl.col("shared_with") == 2)
    assert shared.select("player_id", "place", "points").rows() == [
        ("4012", 10, 41.5),
        ("4013", 10, 41.5),
    ]


def test_standings_trophies_and_cups(built: Path) -> None:
    standings = Warehouse(built).table("mort_subite_standings")
    got = {
        r["player_id"]: (
            r["series"],
            r["total"],
            r["final_points"],
            r["place"],
            r["trophy"],
            r["cup"],
        )
        for r in standings.to_dicts()
    }
    # One regular round (x = 1 counts it) plus the final.
    assert got["4001"] == ("1", 210.0, 140.0, 1, "series 1-3", "1")
    assert got["4007"] == ("4", 201.0, 134.0, 2, "series 4+", "4")
    assert got["4002"] == ("2", 192.0, 128.0, 3, None, "2")
    assert got["4015"] == ("4", 159.0, 122.0, 4, None, None)
    assert got["4008"] == ("1", 61.0, None, 5, None, None)
    assert got["4010"] == ("3", 55.0, None, 7, None, "3")
    assert got["4012"][1:4] == got["4013"][1:4] == (41.5, None, 11)
    assert standings["place"].is_sorted()


# --- the report section and the player pages -------------------------------------------------


def test_the_section_draws_the_rounds_down_move_by_move(built: Path) -> None:
    data = ReportData.open(built)
    fragments = SECTION.render(data, SEASON)
    charts = [f for f in fragments if isinstance(f, Chart)]
    assert [c.key for c in charts] == ["elimination"]
    figure = charts[0].figure
    assert isinstance(figure, dict)
    traces = {t["name"]: t["y"] for t in figure["data"]}
    assert traces == {
        f"{ROUND} — Festival &lt;b&gt;&amp;&lt;/b&gt; Spa": [12, 11, 9, 7, 6, 3, 2, 1],
        "Finale": [4, 3, 1],
    }
    html = render_season_report(data, SEASON, [SECTION])
    assert "Festival &lt;b&gt;&amp;&lt;/b&gt; Spa" in html and EVIL_HOST not in html
    assert 'id="chart-mort_subite-elimination"' in html
    assert "Trophée des séries 1 à 3" in html and "Coupe de la série 4" in html
    assert "Classement de la saison" in html


def test_the_section_of_a_season_without_rounds(built: Path) -> None:
    fragments = SECTION.render(ReportData.open(built), "2023-2024")
    assert fragments == [
        Html('<p class="note">Aucune manche du challenge Mort Subite pour cette saison.</p>')
    ]


def test_the_player_pages_list_the_rounds(built: Path) -> None:
    loaded = BLOCK.load(ReportData.open(built))
    winner = BLOCK.render("4001", loaded)
    assert winner is not None
    assert "Finale" in winner and "en lice jusqu&#x27;au dernier coup" in winner
    assert "<td>1 / 4</td>" in winner.replace('<td class="num">', "<td>")
    assert "Trophée des séries 1 à 3 ; Coupe de la série 1" in winner
    shared = BLOCK.render("4012", loaded)
    assert shared is not None and "10 / 12 (ex æquo)" in shared and "41,5" in shared
    assert "coup 2 (26 points joués)" in shared
    assert BLOCK.render("4016", loaded) is None  # not qualified: no round, no standing


# --- generated samples -----------------------------------------------------------------------


def test_the_generator_writes_rounds_and_a_final_deterministically(
    generated: Path, generated_first_season: Path
) -> None:
    """The run's generated federation (`generated` in conftest: seed 7, two seasons from
    2021) and its first season generated again alone (`generated_first_season`; both
    made once a run): the same Mort Subite files, byte for byte (a season does not depend
    on the seasons after it either, tests/test_generate.py)."""
    alone = generated_first_season
    season = generated / "2021-2022"
    written = sorted(p.name for p in season.glob("MS*"))
    assert written and written[-1] == "MS2021-F.xlsx"
    assert any(name.endswith("_coups.csv") for name in written)
    assert written == sorted(p.name for p in (alone / "2021-2022").glob("MS*"))
    for name in written:
        assert (season / name).read_bytes() == (alone / "2021-2022" / name).read_bytes()
    result = ingested(alone)
    assert not [p for p in result.rejected if "/MS" in p], result.rejected
    assert result.tables["mort_subite_players"]["final"].max() == 1


def test_the_generated_sample_builds_with_its_rounds(sample_site: Path) -> None:
    """The bundled sample (`classement generate --seed 2026`, built once for the suite):
    every season's Mort Subite rounds loaded with their final, trophies awarded, the
    elimination chart in each season's report and the challenge on the winner's page."""
    wh = Warehouse(sample_site / "w.duckdb")
    assert set(wh.table("ingest_log")["status"]) == {"ingested"}
    rounds = wh.read(
        "SELECT season, count(DISTINCT round_id) AS rounds, max(final) AS final FROM "
        "mort_subite_results JOIN (SELECT DISTINCT round_id, final FROM mort_subite_players) "
        "USING (round_id) GROUP BY season ORDER BY season"
    )
    seasons = ["2023-2024", "2024-2025", "2025-2026"]
    assert rounds["season"].to_list() == seasons
    assert all(n >= 2 for n in rounds["rounds"]) and rounds["final"].to_list() == [1, 1, 1]
    standings = wh.table("mort_subite_standings")
    assert standings.filter(pl.col("trophy").is_not_null()).height >= len(seasons)
    for season in seasons:
        report = (sample_site / "reports" / season / "index.html").read_text(encoding="utf-8")
        assert 'id="chart-mort_subite-elimination"' in report, season
    winner = standings.filter(pl.col("place") == 1)["player_id"][0]
    page = (sample_site / "reports" / "joueurs" / f"{winner}.html").read_text(encoding="utf-8")
    assert "Challenge Mort Subite" in page
