"""Federations and countries as organisers write them: one code each (docs/rules.md §4)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl
import pytest

from pipelines.reference.federations import load_alias_table, load_federations
from pipelines.reference.files import ReferenceDataError
from pipelines.reference.series import load_series_quotas
from simulator.names import FEDERATIONS
from transforms.federations import (
    AliasEntry,
    AliasTable,
    AliasTableError,
    canonical_expr,
    known_expr,
    normalise_key,
    normalise_key_expr,
    unknown_values,
    with_codes,
)
from transforms.series import DEFAULT_FEDERATION, federation_key_expr

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference"


@pytest.fixture(scope="module")
def federations() -> AliasTable:
    return load_federations(REFERENCE)


def _codes(table: AliasTable, written: Sequence[str | None]) -> list[str | None]:
    frame = pl.DataFrame({"f": written}, schema={"f": pl.String})
    return frame.select(canonical_expr("f", table)).to_series().to_list()


def test_switzerland_written_four_ways_is_one_code(federations: AliasTable) -> None:
    written = ["CH", "Suisse", "SUI", "FSSC", "CHE", "FSSc", "Fédération suisse de Scrabble"]
    assert _codes(federations, written) == ["SUI"] * len(written)


def test_matching_ignores_case_accents_spaces_and_punctuation(federations: AliasTable) -> None:
    written = {
        "côte d’ivoire": "CIV",  # typographic apostrophe
        "COTE-D'IVOIRE": "CIV",
        "Cote d Ivoire": "CIV",
        "québec": "QUE",
        "QUEBEC": "QUE",
        "royaume uni": "GBR",
        "F.F.Sc.": "FRA",
        "  ffsc ": "FRA",
        "b.e.": "BEL",
        "Lëtzebuerg": "LUX",
        "sénégal": "SEN",
    }
    assert _codes(federations, list(written)) == list(written.values())


def test_iso_fisf_acronyms_and_french_names(federations: AliasTable) -> None:
    cases = {
        # ISO 3166 alpha-2 and alpha-3
        "FR": "FRA",
        "FRA": "FRA",
        "BE": "BEL",
        "BEL": "BEL",
        "CH": "SUI",
        "CHE": "SUI",
        "LU": "LUX",
        "LUX": "LUX",
        "GB": "GBR",
        "UK": "GBR",
        "GBR": "GBR",
        "CA": "QUE",
        "CAN": "QUE",
        "SN": "SEN",
        "SEN": "SEN",
        # FISF codes
        "SUI": "SUI",
        "QUE": "QUE",
        # federation acronyms
        "FFSc": "FRA",
        "FBS": "BEL",
        "FBSc": "BEL",
        "FSSC": "SUI",
        "FLSc": "LUX",
        "ABSP": "GBR",
        "ACSF-RU": "GBR",
        "FQCSF": "QUE",
        # French names
        "France": "FRA",
        "Belgique": "BEL",
        "Suisse": "SUI",
        "Luxembourg": "LUX",
        "Royaume-Uni": "GBR",
        "Québec": "QUE",
        "Sénégal": "SEN",
    }
    assert dict(zip(cases, _codes(federations, list(cases)), strict=True)) == cases


def test_african_federations(federations: AliasTable) -> None:
    cases = {
        "Sénégal": "SEN",
        "Côte d'Ivoire": "CIV",
        "Bénin": "BEN",
        "Burkina Faso": "BFA",
        "Cameroun": "CMR",
        "Congo": "COG",
        "République du Congo": "COG",
        "RDC": "COD",
        "Gabon": "GAB",
        "Mali": "MLI",
        "Niger": "NER",
        "Togo": "TGO",
        "TOG": "TGO",
        "Madagascar": "MDG",
        "Maurice": "MUS",
        "Île Maurice": "MUS",
        "Tunisie": "TUN",
        "Algérie": "DZA",
        "ALG": "DZA",
        "Maroc": "MAR",
        "Guinée": "GIN",
    }
    assert dict(zip(cases, _codes(federations, list(cases)), strict=True)) == cases


def test_quota_codes_are_codes_of_the_alias_table(federations: AliasTable) -> None:
    # The canonical codes of France, Belgium, Quebec and Switzerland are the quota codes.
    quota_codes = load_series_quotas(REFERENCE).federations() - {DEFAULT_FEDERATION}
    assert quota_codes == {"FRA", "BEL", "QUE", "SUI"}
    assert quota_codes <= set(federations.codes)


def test_the_series_quotas_map_federations_through_the_alias_table(
    federations: AliasTable,
) -> None:
    # Every spelling series.yaml used to list (FFSC, Québec, Quebec, …) and the ones it
    # did not know (CH, Schweiz, FR, Canada, fédération belge…) reach a quota code; a
    # federation without quotas of its own, an unknown one and an empty value use `*`.
    known = load_series_quotas(REFERENCE).federations()
    cases = {
        "FRA": "FRA",
        "FFSC": "FRA",
        "France": "FRA",
        "fr": "FRA",
        "BEL": "BEL",
        "FBS": "BEL",
        "FBSC": "BEL",
        "Belgique": "BEL",
        "Fédération belge de Scrabble": "BEL",
        "QUE": "QUE",
        "FQCSF": "QUE",
        "Québec": "QUE",
        "Quebec": "QUE",
        "Canada": "QUE",
        "SUI": "SUI",
        "FSSC": "SUI",
        "Suisse": "SUI",
        "CH": "SUI",
        "Schweiz": "SUI",
        "LUX": "*",
        "Royaume-Uni": "*",
        "Sénégal": "*",
        "Wakanda": "*",
        "": "*",
        None: "*",
    }
    frame = pl.DataFrame({"f": list(cases)}, schema={"f": pl.String})
    got = frame.select(federation_key_expr("f", federations, known)).to_series().to_list()
    assert dict(zip(cases, got, strict=True)) == cases


def test_the_generator_federations_and_countries_are_known(federations: AliasTable) -> None:
    for fed in FEDERATIONS:
        code = federations.code_of(fed.code)
        assert code is not None, fed.code
        assert federations.code_of(fed.country) == code, fed.country


def test_unknown_kept_as_written_flagged_and_listed_once_per_season(
    federations: AliasTable,
) -> None:
    frame = pl.DataFrame(
        {
            "season": ["2023-2024"] * 5 + ["2024-2025"] * 3,
            "federation": ["CH", " Wakanda ", "Wakanda", "", None, "Wakanda", "Atlantide", "BE"],
        }
    )
    mapped = with_codes(frame, "federation", federations)
    assert mapped.get_column("federation_code").to_list() == [
        "SUI",
        "Wakanda",
        "Wakanda",
        None,
        None,
        "Wakanda",
        "Atlantide",
        "BEL",
    ]
    assert mapped.get_column("federation_known").to_list() == [
        True,
        False,
        False,
        None,
        None,
        False,
        False,
        True,
    ]
    listed = unknown_values(frame, "federation", federations)
    assert listed.rows() == [
        ("2023-2024", "federation", "Wakanda", 2),
        ("2024-2025", "federation", "Atlantide", 1),
        ("2024-2025", "federation", "Wakanda", 1),
    ]


def test_python_and_polars_keys_agree(federations: AliasTable) -> None:
    written = [w for e in federations.entries for w in (e.code, e.name, *e.aliases)]
    written += ["Cœur", "Æther", "  São Tomé-et-Príncipe ", "ß", "Ärger", "l’Haÿ"]
    frame = pl.DataFrame({"w": written})
    polars_keys = frame.select(normalise_key_expr(pl.col("w"))).to_series().to_list()
    assert polars_keys == [normalise_key(w) for w in written]
    assert normalise_key("Côte d’Ivoire") == "COTEDIVOIRE"
    assert normalise_key("Cœur") == "COEUR"


def test_french_names_for_reports(federations: AliasTable) -> None:
    assert federations.name("SUI") == "Suisse"
    assert federations.name("GBR") == "Royaume-Uni"
    assert federations.name("XYZ") == "XYZ"
    names = federations.names()
    assert names.columns == ["code", "name"]
    assert names.height == len(federations.entries)


# --------------------------------------------------------------------------- generic tables

CIRCUITS = """\
# A second table of the same shape: the regional circuits.
code,name,aliases
PACA,Provence-Alpes-Côte d'Azur,Classement régional PACA|Masters PACA
GSUD,Masters Grand Sud,Grand Sud|Masters du Grand Sud
GEST,Grand Est,Championnat du Grand Est|Grand-Est
"""


def test_a_second_alias_table_uses_the_same_mechanism(tmp_path: Path) -> None:
    path = tmp_path / "circuits.csv"
    path.write_text(CIRCUITS, encoding="utf-8")
    circuits = load_alias_table(path)
    written = ["masters grand-sud", "Grand Sud", "GRAND EST", "P.A.C.A.", "Masters PACA", "Nord"]
    assert _codes(circuits, written) == ["GSUD", "GSUD", "GEST", "PACA", "PACA", "Nord"]
    frame = pl.DataFrame({"c": written})
    assert frame.select(known_expr("c", circuits)).to_series().to_list() == [
        True,
        True,
        True,
        True,
        True,
        False,
    ]


def test_a_written_form_matching_two_codes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "clash.csv"
    path.write_text("code,name,aliases\nCOG,Congo,\nCOD,RD Congo,congo\n", encoding="utf-8")
    with pytest.raises(ReferenceDataError, match=r"clash\.csv: 'congo' matches both COG and COD"):
        load_alias_table(path)
    with pytest.raises(AliasTableError, match="listed twice"):
        AliasTable((AliasEntry("A", "Alpha"), AliasEntry("A", "Again")))
    with pytest.raises(AliasTableError, match="has no letter or digit"):
        AliasTable((AliasEntry("A", "Alpha", ("--",)),))


def test_loader_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("# comment\ncode,label\nFRA,France\n", encoding="utf-8")
    with pytest.raises(ReferenceDataError, match=r"bad\.csv: line 2: expected the columns"):
        load_alias_table(path)
    path.write_text("code,name,aliases\nFRA,France\n", encoding="utf-8")
    with pytest.raises(ReferenceDataError, match=r"bad\.csv: line 2: expected 3 values"):
        load_alias_table(path)
    with pytest.raises(ReferenceDataError, match="file not found"):
        load_alias_table(tmp_path / "missing.csv")


def test_the_official_names_of_the_member_federations_countries(federations: AliasTable) -> None:
    """Organisers write a country's official name too (issue 26): each maps to its code."""
    written = {
        "Grand-Duché de Luxembourg": "LUX",
        "grand duche de luxembourg": "LUX",
        "République française": "FRA",
        "Royaume de Belgique": "BEL",
        "Confédération suisse": "SUI",
        "Royaume-Uni de Grande-Bretagne et d'Irlande du Nord": "GBR",
        "République du Sénégal": "SEN",
        "République de Côte d'Ivoire": "CIV",
        "République du Congo": "COG",
        "République démocratique du Congo": "COD",
        "Royaume du Maroc": "MAR",
        "Principauté de Monaco": "MCO",
    }
    assert _codes(federations, list(written)) == list(written.values())
