"""Data-quality notes on players' names (issue 24, item 9): a mis-encoded name (`RÃ©gis`)
and a licence written under several names are noted, the name kept and the other
spellings listed, never accepted in silence."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from tests.support import PLAYERS, results_csv
from transforms.quality import LICENCE_SPELLINGS, MOJIBAKE_NAME, name_notes, repaired_name

SEASON = "2023-2024"


def _results(rows: list[tuple[str, str | None, str | None]]) -> pl.DataFrame:
    return pl.DataFrame(
        rows, schema={"player_id": pl.String, "last_name": pl.String, "first_name": pl.String},
        orient="row",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("DUPONT RÃ©gis", "DUPONT Régis"),
        ("Lefèvre RÃ©gis", "Lefèvre Régis"),  # an accent of its own elsewhere in the name
        ("Ã‰ric", "Éric"),
        ("Lâ€™Hermite", "L’Hermite"),
        ("MÃ¼ller", "Müller"),
        ("FranÃ§ois", "François"),
        ("LÃ¢â‚¬â„¢Hermite", "L’Hermite"),  # garbled twice
        ("VoilÃ\u00a0", "Voilà"),
    ],
)
def test_a_mis_encoded_name_is_recognised_and_read_back(written: str, meant: str) -> None:
    assert repaired_name(written) == meant


@pytest.mark.parametrize(
    "name", ["Dupont", "Hélène", "Châtel", "Benoît", "Jérôme", "Lâm", "Âge", "Ã", "Ñúñez"]
)
def test_a_correct_name_is_not_taken_for_a_mis_encoded_one(name: str) -> None:
    assert repaired_name(name) is None


def test_the_notes_name_the_spelling_the_licences_and_the_name_kept() -> None:
    results = _results(
        [
            ("100", "DUPONT", "RÃ©gis"),
            ("100", "DUPONT", "RÃ©gis"),
            ("101", "Martin", "Hélène"),
            ("101", "MARTIN", "Hélène"),
            ("101", "Martín", "Hélène"),
            ("102", "Lefèvre", "RÃ©gis"),
            ("103", "Dupond", "Jean"),
            ("103", "DUPOND ", " Jean"),  # case and spaces only: one name
            ("104", "Durand", None),
            ("104", None, None),  # no name: no spelling
        ]
    )
    players = _results(
        [
            ("100", "DUPONT", "RÃ©gis"),
            ("101", "Martín", "Hélène"),
            ("102", "Lefèvre", "Régis"),
            ("103", "Dupond", "Jean"),
            ("104", "Durand", None),
        ]
    )
    notes = name_notes(SEASON, results, players)
    assert notes.columns == ["season", "notice", "subject", "detail", "rows"]
    assert notes.rows() == [
        (
            SEASON,
            LICENCE_SPELLINGS,
            "101",
            "La licence 101 porte des noms différents dans les résultats de la saison : "
            "« MARTIN Hélène » (1 ligne) ; « Martin Hélène » (1 ligne) ; « Martín Hélène » "
            "(1 ligne). Le nom gardé (fiche joueur, le dernier écrit) est « Martín Hélène ». "
            "S'il s'agit de deux personnes, une licence est erronée dans un export.",
            3,
        ),
        (
            SEASON,
            MOJIBAKE_NAME,
            "DUPONT RÃ©gis",
            "Nom mal encodé « DUPONT RÃ©gis », écrit dans 2 lignes de résultats de la saison "
            "pour la licence 100 : un texte UTF-8 lu comme du Latin-1, probablement « DUPONT "
            "Régis ». C'est le nom gardé (fiche joueur). Le nom est gardé tel qu'écrit : "
            "corrigez l'export (enregistré en UTF-8) puis reconstruisez.",
            2,
        ),
        (
            SEASON,
            MOJIBAKE_NAME,
            "Lefèvre RÃ©gis",
            "Nom mal encodé « Lefèvre RÃ©gis », écrit dans 1 ligne de résultats de la saison "
            "pour la licence 102 : un texte UTF-8 lu comme du Latin-1, probablement « Lefèvre "
            "Régis ». Le nom gardé (fiche joueur) est « Lefèvre Régis ». Le nom est gardé tel "
            "qu'écrit : corrigez l'export (enregistré en UTF-8) puis reconstruisez.",
            1,
        ),
    ]


def test_one_mis_encoded_spelling_of_several_licences_is_one_note_and_both_notices_apply() -> None:
    results = _results(
        [
            ("100", "DUPONT", "RÃ©gis"),
            ("100", "DUPONT", "Régis"),
            ("200", "DUPONT", "RÃ©gis"),
        ]
    )
    players = _results([("100", "DUPONT", "Régis")])  # 200: no name kept (not given)
    notes = name_notes(SEASON, results, players)
    assert notes.select("notice", "subject", "rows").rows() == [
        (LICENCE_SPELLINGS, "100", 2),
        (MOJIBAKE_NAME, "DUPONT RÃ©gis", 2),
    ]
    mojibake = notes.filter(pl.col("notice") == MOJIBAKE_NAME)["detail"].item()
    assert "pour les licences 100, 200 : " in mojibake
    assert "Le nom gardé (fiche joueur) est « DUPONT Régis »." in mojibake


def test_nothing_to_say_is_no_note() -> None:
    results = _results([("100", "Dupont", "Jean"), ("101", "Martin", "Hélène")])
    assert name_notes(SEASON, results, results).height == 0


@pytest.mark.slow
def test_a_build_notes_both_in_the_warehouse_and_in_the_reports_annex(
    raw: Path, tmp_path: Path
) -> None:
    from pipelines.warehouse import Warehouse
    from tests.builds import build

    # C1 and D1 as written, then C2 with Jean Dupont's first name garbled and Hélène's
    # licence under another last name
    c2 = [("100", "Dupont", "JÃ©rÃ´me", 1), ("101", "Martinez", "Hélène", 2)]
    (raw / SEASON / "C2.csv").write_text(
        results_csv("C2", c2 + PLAYERS[2:], date="2024-03-10"), encoding="utf-8"
    )
    summary = build(raw, tmp_path)
    assert summary.rejected == []
    notes = Warehouse(tmp_path / "w.duckdb").read(
        "SELECT notice, subject, rows FROM data_quality_notes WHERE season = ? "
        "ORDER BY notice, subject",
        [SEASON],
    )
    assert notes.rows() == [
        (LICENCE_SPELLINGS, "100", 3),  # C1, D1, C2
        (LICENCE_SPELLINGS, "101", 2),
        (MOJIBAKE_NAME, "Dupont JÃ©rÃ´me", 1),
    ]
    page = (tmp_path / "reports" / SEASON / "index.html").read_text(encoding="utf-8")
    assert "Nom mal encodé" in page and "Licence sous plusieurs noms" in page
    assert "probablement « Dupont Jérôme ». C&#x27;est le nom gardé (fiche joueur)." in page
    assert (
        "« Martin Hélène » (1 ligne) ; « Martinez Hélène » (1 ligne). Le nom gardé (fiche "
        "joueur, le dernier écrit) est « Martinez Hélène »."
    ) in page
