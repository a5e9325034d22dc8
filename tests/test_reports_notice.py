"""Reports a committee can sign: every page says when it was generated, from which data, and
names each rejected export of its season; the season of a rejected export; players known
only from a rating list; plurals and labels a reader understands."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import polars as pl
import pytest

from classement.cli import main
from pipelines.ingest.attribution import export_season, with_rejections
from pipelines.ingest.batch import ingest_files
from pipelines.ingest.raw import read_raw
from pipelines.reports.data import ReportData
from pipelines.reports.html import count_of, player_filename
from pipelines.reports.labels import category_label, series_long
from pipelines.reports.page import Rejected, generation_line, notice
from pipelines.warehouse import Warehouse
from tests.support import CALENDAR, PARAMETERS, PLAYERS, results_csv

# --------------------------------------------------------------------------- attribution


@pytest.mark.parametrize(
    ("path", "text", "season"),
    [
        ("2023-2024/C2.csv", b"", "2023-2024"),
        ("fed/2022-2023/sub/C2.csv", b"2024-01-01", "2022-2023"),  # the folder wins
        ("liste_2023-08-31.csv", b"", "2022-2023"),  # the season ends on 31 August
        ("C2.csv", b"a,b\nx,2024-03-10\n", "2023-2024"),
        ("C2.csv", "a;b\nx;10/09/2024\n".encode("cp1252"), "2024-2025"),  # French dates
        ("C2.csv", b"a,b\nx,2024-02-30,2023-10-01\n", "2023-2024"),  # invalid ones skipped
        ("2023-2025/C2.csv", b"", None),  # not a season
        ("C2.xlsx", b"PK\x03\x04 2024-01-01", None),  # compressed: nothing read
        ("C2.csv", b"a,b\n1,2\n", None),
    ],
)
def test_the_season_of_an_export(path: str, text: bytes, season: str | None) -> None:
    assert export_season(path, text, CALENDAR) == season


def _log(*rows: tuple[str, str, str | None]) -> pl.DataFrame:
    return pl.DataFrame(
        [{"path": p, "status": "rejected", "message": m, "season": s} for p, m, s in rows],
        schema={"path": pl.String, "status": pl.String, "message": pl.String, "season": pl.String},
    )


def test_rejections_change_their_season_fingerprint_only() -> None:
    prints = pl.DataFrame({"season": ["2022-2023", "2023-2024"], "fingerprint": ["a", "b"]})
    none = with_rejections(prints, _log())
    assert none.equals(prints)
    one = with_rejections(prints, _log(("2023-2024/x.csv", "x : faux", "2023-2024")))
    assert one["fingerprint"].to_list()[0] == "a"
    assert one["fingerprint"].to_list()[1] not in ("b",)
    other = with_rejections(prints, _log(("2023-2024/x.csv", "x : autre", "2023-2024")))
    assert other["fingerprint"][1] != one["fingerprint"][1]  # the message counts
    unknown = with_rejections(prints, _log(("x.csv", "x : faux", None)))
    assert all(a != b for a, b in zip(unknown["fingerprint"], prints["fingerprint"], strict=True))


def test_the_ingest_log_holds_each_exports_season(raw: Path) -> None:
    (raw / "orphan.csv").write_text("foo,bar\n1,2\n", encoding="utf-8")
    log = ingest_files(read_raw(raw), params=PARAMETERS).log
    seasons = dict(log.select("path", "season").iter_rows())
    assert seasons == {
        "2023-2024/C1.csv": "2023-2024",
        "2023-2024/C1_games.csv": "2023-2024",
        "2023-2024/D1.csv": "2023-2024",
        "liste_2023-08-31.csv": "2022-2023",
        "orphan.csv": None,
    }


# --------------------------------------------------------------------------- the notice


def test_the_notice_says_when_from_what_and_what_was_refused() -> None:
    line = generation_line(dt.date(2024, 3, 10), dt.datetime(2025, 1, 15, 12, 0))
    assert line.startswith("Généré le 15/01/2025 à 12 h 00 (UTC) à partir des exports reçus")
    assert "jusqu'au 10/03/2024" in line
    clean = notice(dt.date(2024, 3, 10), [], scope="pour cette saison", glossary="g.html")
    assert "aucun export refusé pour cette saison" in clean
    assert 'href="g.html"' in clean and "warn" not in clean
    one = notice(
        None,
        [Rejected("a.csv", "a.csv, ligne 3 : <faux>", "2023-2024")],
        scope="pour cette saison",
        glossary="g.html",
    )
    assert "1 export refusé pour cette saison" in one and "corrigez-le " in one
    assert "a.csv, ligne 3 : &lt;faux&gt;" in one  # escaped
    two = notice(
        None,
        [Rejected("a.csv", "a.csv : x", "2023-2024"), Rejected("b.csv", "b.csv : y", None)],
        scope="dans ce calcul",
        glossary="g.html",
    )
    assert "2 exports refusés dans ce calcul" in two and "corrigez-les" in two
    assert "[saison inconnue] b.csv : y" in two


def test_plurals_and_labels() -> None:
    assert count_of(0, "tournoi") == "0 tournoi"
    assert count_of(1, "tournoi") == "1 tournoi"
    assert count_of(3, "tournoi") == "3 tournois"
    assert count_of(1234, "joueur") == "1\u202f234 joueurs"
    assert count_of(2, "export refusé", "exports refusés") == "2 exports refusés"
    assert category_label("regional") == "Régional"
    assert category_label("homologue") == "Homologué"
    assert category_label("Inconnue") == "Inconnue"
    assert series_long("7") == "Série 7 (nouveaux licenciés)"
    assert series_long("SS").startswith("Super-série")


# --------------------------------------------------------------------------- whole builds


def _build_args(raw: Path, out: Path) -> list[str]:
    warehouse, reports = str(out / "w.duckdb"), str(out / "reports")
    return ["build", "--raw", str(raw), "--warehouse", warehouse, "--reports", reports, "--no-pdf"]


@pytest.mark.slow
def test_a_build_with_one_bad_export_names_it_in_every_report(
    raw: Path, tmp_path: Path, capsys
) -> None:
    """Exit 1; the season report's notice names the file and the row; the index lists it;
    a player page of that season too; the rest of the season is built."""
    bad = results_csv("C2", PLAYERS, date="2024-03-10").splitlines()
    bad[3] = bad[3].replace(",3,open,", ",ex,open,")
    (raw / "2023-2024" / "C2.csv").write_text("\n".join(bad) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    status = main(_build_args(raw, out))
    printed = capsys.readouterr().out
    assert status == 1
    assert "quarantaine : " in printed
    expected = "2023-2024/C2.csv, ligne 4, colonne « rank » : « ex » n'est pas un nombre entier"
    season = (out / "reports" / "2023-2024" / "index.html").read_text(encoding="utf-8")
    notice_html = re.search(r'<aside class="notice warn" id="data-notice">.*?</aside>', season)
    assert notice_html is not None
    assert expected.replace("'", "&#x27;") in notice_html.group(0)
    assert "1 export refusé pour cette saison" in notice_html.group(0)
    assert "Généré le 15/01/2025 à 12 h 00 (UTC)" in notice_html.group(0)
    assert "jusqu&#x27;au 11/02/2024" in notice_html.group(0)  # D1, the latest loaded
    index = (out / "reports" / "index.html").read_text(encoding="utf-8")
    assert "[2023-2024] " + expected.replace("'", "&#x27;") in index
    player = (out / "reports" / "joueurs" / player_filename("100")).read_text("utf-8")
    assert expected.replace("'", "&#x27;") in player
    glossary = (out / "reports" / "glossaire.html").read_text(encoding="utf-8")
    assert "PJ (points de jeu)" in glossary and "%N1, %N2, %N3, %N4" in glossary

    # the file corrected: the season is built again and its notice says nothing is refused
    (raw / "2023-2024" / "C2.csv").write_text(
        results_csv("C2", PLAYERS, date="2024-03-10"), encoding="utf-8"
    )
    status = main(_build_args(raw, out))
    assert status == 0
    season = (out / "reports" / "2023-2024" / "index.html").read_text(encoding="utf-8")
    assert "aucun export refusé pour cette saison" in season
    assert "ligne 4" not in season


@pytest.mark.slow
def test_players_known_only_from_a_rating_list(raw: Path, tmp_path: Path) -> None:
    """A list that names its players (last_name, first_name): shown with their listed
    values; a nameless one: left out of the directory, no page."""
    (raw / "liste_2024-06-30.csv").write_text(
        "player_id,as_of,cote,elo,series,last_name,first_name\n"
        "900,2024-06-30,1650,1580.5,4,Leblanc,Odette\n"
        "901,2024-06-30,1400,,6,,\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    status = main(_build_args(raw, out))
    assert status == 0
    data = ReportData(Warehouse(out / "w.duckdb"))
    named = dict(data.player_names().select("player_id", "named").iter_rows())
    assert named["900"] is True and named["901"] is False
    index = (out / "reports" / "index.html").read_text(encoding="utf-8")
    assert "Leblanc Odette" in index
    assert player_filename("901") not in index
    pages = out / "reports" / "joueurs"
    assert not (pages / player_filename("901")).exists()
    page = (pages / player_filename("900")).read_text(encoding="utf-8")
    assert "<h1>Leblanc Odette</h1>" in page
    assert "1\u202f650" in page and "1\u202f580,5" in page and "Série 4 (internationale)" in page
    assert "connu seulement par une liste de classement" in page


@pytest.mark.slow
def test_cote_explain_explains_a_duplicate_only_player(raw: Path, tmp_path: Path, capsys) -> None:
    """Zoé Gérard (104) played duplicate only: no « joueur inconnu », but why she has no
    cote and what the warehouse holds of her; an id found nowhere is still unknown."""
    out = tmp_path / "out"
    assert main(_build_args(raw, out)) == 0
    capsys.readouterr()
    warehouse = str(out / "w.duckdb")
    assert main(["cote", "explain", "104", "--warehouse", warehouse]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "Gérard Zoé (104) : aucun tournoi classique coté, donc aucune cote calculée ici."
    )
    assert "  tournois duplicate : 1" in lines
    assert any(line.startswith("  duplicate, fin de saison 2023-2024 : série ") for line in lines)
    assert main(["cote", "explain", "999", "--warehouse", warehouse]) == 1
    assert "joueur inconnu : 999" in capsys.readouterr().err
