"""docs/rules.md §7, « The FISF's rules of a game sheet »: the FISF's *Règlement du Scrabble
duplicate francophone de compétition* (in force 1 January 2023,
/work/shared/references/fisf-duplicate-rules-2023.md) in the game-sheet audit. Every sheet
here is written by hand; each test names the section it checks."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest
import yaml

from pipelines.reference.files import ReferenceDataError
from pipelines.reference.scoring import load_scoring_params
from transforms.scoring import (
    STATUS_ILLEGAL,
    STATUS_OK,
    STATUS_SCORE_MISSING,
    audit_game_sheets,
    draw_problem,
    parse_word,
    rack_redrawn,
    replay_games,
)

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "game_sheets"
PARAMS = load_scoring_params(REFERENCE)

Row = tuple[str, int, int, str | None, str, str, int | None]


def _sheet(rows: Sequence[Row]) -> pl.DataFrame:
    return pl.DataFrame(
        rows,
        schema={
            "tournament_id": pl.String,
            "game": pl.Int64,
            "move": pl.Int64,
            "rack": pl.String,
            "word": pl.String,
            "position": pl.String,
            "score": pl.Int64,
        },
        orient="row",
    )


def _moves(rows: Sequence[Row], params: object = PARAMS) -> list[tuple[str, int | None, str]]:
    """(status, computed score, message) of every move of the sheet, in order."""
    audit = audit_game_sheets(_sheet(rows), None, params)  # type: ignore[arg-type]
    return list(audit.select("status", "computed_score", "message").iter_rows())


# --- the parameters: FISF §1.1 and §3.2 ----------------------------------------------


def test_the_bag_and_the_draw_rule_of_the_reference() -> None:
    # FISF §1.1, « Les lettres du jeu francophone »: 100 letters and 2 jokers.
    assert PARAMS.tiles == {
        **dict.fromkeys("JKQWXYZ", 1),
        **dict.fromkeys("BCFGHPV?", 2),
        **dict.fromkeys("DM", 3),
        "L": 5,
        **dict.fromkeys("NORSTU", 6),
        "I": 8,
        "A": 9,
        "E": 15,
    }
    assert sum(PARAMS.tiles.values()) == 102
    rule = PARAMS.draw
    assert (rule.vowels, rule.either) == (frozenset("AEIOU"), frozenset("Y?"))
    assert (rule.early_moves, rule.early_minimum, rule.minimum) == (15, 2, 1)
    assert PARAMS.variant_rack_sizes == (8, 9)


# --- FISF §3.4: the first move is horizontal -----------------------------------------


def test_fisf_3_4_a_vertical_first_move_is_a_finding() -> None:
    # HANTEZ at 8G is HANTEZ at H7 ([002]'s first worked move) reflected in the board's
    # diagonal: A on the star H8, Z on the double letter L8, the same 56 points; but FISF
    # §3.4: « au premier coup, le mot est impérativement placé horizontalement ».
    assert _moves([("T", 1, 1, "AEHNTZS", "HANTEZ", "8G", 56)]) == [
        (
            STATUS_ILLEGAL,
            56,
            "premier coup vertical (8G) : au premier coup, le mot est impérativement placé "
            "horizontalement (FISF §3.4) ; décompte : HANTEZ 56 = 56",
        )
    ]
    # The same move written horizontally conforms, and a later vertical move is free.
    rows: list[Row] = [
        ("T", 1, 1, "AEHNTZS", "HANTEZ", "H7", 56),
        ("T", 1, 2, "S+AACDEF", "FAÇADES", "6F", 96),
    ]
    assert [m[0] for m in _moves(rows)] == [STATUS_OK, STATUS_OK]


def test_fisf_3_4_concerns_the_first_move_placed() -> None:
    # Move 1 cannot be placed (off the board): move 2 is the first move on the empty board.
    moves = _moves(
        [
            ("T", 1, 1, "AEHNTZS", "HANTEZ", "Z9", 56),
            ("T", 1, 2, "AEHNTZS", "HANTEZ", "8G", 56),
        ]
    )
    assert [m[:2] for m in moves] == [(STATUS_ILLEGAL, None), (STATUS_ILLEGAL, 56)]
    assert moves[1][2].startswith("premier coup vertical (8G)")


# --- FISF §3.2: the validity of a rack -----------------------------------------------


def test_fisf_3_2_two_vowels_and_two_consonants_up_to_move_15() -> None:
    # HAIE at H8: (4 + 1 + 1 + 1) × 2 (the star) = 14. The rack AEIOUEH holds 6 vowels and
    # 1 consonant: up to move 15 the arbiter must reject it (FISF §3.2).
    moves = _moves([("T", 1, 1, "AEIOUEH", "HAIE", "H8", 14)])
    assert moves == [
        (
            STATUS_ILLEGAL,
            14,
            "tirage AEIOUEH non valide (FISF §3.2) : jusqu'au coup 15, il faut au moins "
            "2 voyelles et 2 consonnes ; il compte 6 voyelles et 1 consonne ; aucun rejet "
            "n'est noté (-) : le juge-arbitre devait rejeter ce tirage ; décompte : HAIE 14 "
            "= 14",
        )
    ]
    # Three vowels and four consonants: valid.
    assert _moves([("T", 1, 1, "AEIHBCD", "HAIE", "H8", 14)])[0][0] == STATUS_OK


def test_fisf_3_2_the_y_and_the_blank_count_as_either() -> None:
    # « le juge-arbitre peut considérer, à son gré, les jokers et la lettre Y comme voyelles
    # ou comme consonnes » (FISF §3.2): the audit counts them as the kind that helps.
    ok = [
        "EYSTRNL",  # 1 vowel + Y as the second vowel
        "E?STRNL",  # 1 vowel + the blank as the second vowel
        "AEIOUY?",  # Y and the blank as the two consonants
        "AEIOUSY",  # 1 consonant + Y as the second consonant
    ]
    for rack in ok:
        assert draw_problem(rack, 1, Counter(PARAMS.tiles), PARAMS) is None, rack
    # 6 vowels and the Y: one consonant at most, whichever way the Y counts.
    assert draw_problem("AEIOUEY", 1, Counter(PARAMS.tiles), PARAMS) == (
        "tirage AEIOUEY non valide (FISF §3.2) : jusqu'au coup 15, il faut au moins "
        "2 voyelles et 2 consonnes ; il compte 6 voyelles et 0 consonne, plus 1 Y ou "
        "joker(s) comptés au choix ; aucun rejet n'est noté (-) : le juge-arbitre devait "
        "rejeter ce tirage"
    )


def test_fisf_3_2_one_vowel_and_one_consonant_from_move_16() -> None:
    # A sheet whose game is given from move 16 (its first 15 moves missing): the board is
    # empty, every letter is left, and the minimum is one vowel and one consonant.
    moves = _moves(
        [
            ("T", 1, 16, "AEIOUEB", "BAIE", "H8", 12),
            ("T", 2, 16, "AEIOUEE", "AIE", "H8", 6),
        ]
    )
    gap = "les coups 1 à 15 manquent sur la feuille : la partie est rejouée sans eux"
    assert moves == [
        (STATUS_OK, 12, f"{gap} ; décompte : BAIE 12 = 12"),
        (
            STATUS_ILLEGAL,
            6,
            "tirage AEIOUEE non valide (FISF §3.2) : à partir du coup 16, il faut au moins "
            "1 voyelle et 1 consonne ; il compte 7 voyelles et 0 consonne ; aucun rejet "
            f"n'est noté (-) : le juge-arbitre devait rejeter ce tirage ; {gap} ; décompte : "
            "AIE 6 = 6",
        ),
    ]


def test_fisf_3_2_a_redrawn_rack_is_read_and_must_be_valid_too() -> None:
    # `-` in front: every letter of the previous rack, the reliquat with it, went back to the
    # bag and seven were drawn anew (a « rejet », FISF §3.2) — « jusqu'à ce que les
    # conditions requises soient remplies »: the new rack must be valid too.
    assert rack_redrawn("-AEIHBCD") and rack_redrawn(" -aeihbcd")
    assert not rack_redrawn("AEI+HBCD") and not rack_redrawn(None)
    assert _moves([("T", 1, 1, "-AEIHBCD", "HAIE", "H8", 14)])[0][0] == STATUS_OK
    (moves,) = _moves([("T", 1, 1, "-AEIOUEH", "HAIE", "H8", 14)])
    assert moves[2] == (
        "tirage -AEIOUEH non valide (FISF §3.2) : jusqu'au coup 15, il faut au moins "
        "2 voyelles et 2 consonnes ; il compte 6 voyelles et 1 consonne ; le tirage est "
        "noté rejeté (-), mais le nouveau tirage devait la respecter ; décompte : HAIE 14 = 14"
    )
    # A redrawn rack keeps no letter: it cannot write a reliquat.
    (moves,) = _moves([("T", 1, 1, "-AEI+HBCD", "HAIE", "H8", 14)])
    assert moves[:2] == (STATUS_ILLEGAL, 14)
    assert moves[2].startswith(
        "tirage -AEI+HBCD : un tirage rejeté (- en tête) ne garde aucune lettre, il ne peut "
        "pas écrire de reliquat avec +"
    )


def test_fisf_3_1_the_reliquat_stays_on_the_rack_unless_redrawn() -> None:
    # HANTEZ from AEHNTZS leaves an S: the next rack holds it (FISF §3.1, the arbiter draws
    # what completes the rack), written whole or as S+…, unless it was redrawn (`-`, §3.2).
    first: Row = ("T", 1, 1, "AEHNTZS", "HANTEZ", "H7", 56)
    for rack in ("S+AACDEF", "AACDEFS", "-AACDEFS"):
        moves = _moves([first, ("T", 1, 2, rack, "FAÇADES", "6F", 96)])
        assert [m[0] for m in moves] == [STATUS_OK, STATUS_OK], rack
    # The reliquat written is not the one the move before left.
    moves = _moves([first, ("T", 1, 2, "E+AACDFS", "FAÇADES", "6F", 96)])
    assert moves[1][:2] == (STATUS_ILLEGAL, 96)
    assert moves[1][2].startswith(
        "tirage E+AACDFS : le reliquat écrit (E) n'est pas celui que laisse le coup "
        "précédent (S) (FISF §3.1) ; décompte"
    )
    # A whole rack without the S, not marked redrawn. FACADE at 6F: F on the triple letter
    # F6, D on the triple letter J6: 12 + 1 + 3 + 1 + 6 + 1 = 24, and CHANTEZ 21: 45.
    moves = _moves([first, ("T", 1, 2, "AACDEFR", "FACADE", "6F", 45)])
    assert moves[1] == (
        STATUS_ILLEGAL,
        45,
        "tirage AACDEFR : il n'a pas tout le reliquat du coup précédent (S ; manque S) et "
        "n'est pas noté rejeté (- en tête, FISF §3.1, §3.2) ; décompte : FACADE 24 + "
        "CHANTEZ 21 = 45",
    )
    # The same rack marked redrawn is a new draw of seven letters: nothing to say.
    assert _moves([first, ("T", 1, 2, "-AACDEFR", "FACADE", "6F", 45)])[1][0] == STATUS_OK


def test_fisf_3_2_and_3_7_the_end_of_the_bag() -> None:
    # A bag of 9 tiles (the rule's arithmetic is the same with the 102 of FISF §1.1):
    # A ×2, E, B ×2, C ×2, T, S.
    bag = {"A": 2, "E": 1, "B": 2, "C": 2, "T": 1, "S": 1}
    small = replace(PARAMS, tiles=bag)
    rows: list[Row] = [
        # BEAT at H8: (3 + 1 + 1 + 1) × 2 = 12. Left after it: A, B, C, C, S (one vowel).
        ("T", 1, 1, "AAEBBCT", "BEAT", "H8", 12),
        # Move 2 (≤ 15), but the letters left allow no second vowel: one of each is enough
        # (« ou plus tôt du fait du reliquat »). CAS at 10G through the A: 3 + 1 + 1 = 5.
        ("T", 1, 2, "ABC+CS", "CAS", "10G", 5),
        # TAB at 11H: 1 + 1 + 3 = 5, with SA (row I) 1 + 1 = 2: 7. Left after it: C.
        ("T", 1, 3, "ABC", "TAB", "11H", 7),
        # One letter left: the game ends (FISF §3.7, « s'il ne reste qu'une seule lettre »).
        # TABC at 11H, the C on the double word K11: (1 + 1 + 3 + 3) × 2 = 16.
        ("T", 1, 4, "C", "TABC", "11H", 16),
    ]
    moves = _moves(rows, small)
    assert [m[:2] for m in moves] == [
        (STATUS_OK, 12),
        (STATUS_OK, 5),
        (STATUS_OK, 7),
        (STATUS_ILLEGAL, 16),
    ]
    assert moves[3][2] == (
        "la partie aurait dû s'arrêter avant ce coup (FISF §3.2, §3.7) : il ne reste "
        "qu'une lettre (C), pas de quoi faire un tirage d'au moins 1 voyelle et 1 consonne "
        "; décompte : TABC 16 = 16"
    )
    # Move 2 with no vowel at all (redrawn: the reliquat ABC held one) breaks the lowered
    # minimum.
    broken = [*rows[:1], ("T", 1, 2, "-BCCS", "CAS", "10G", 5)]
    assert _moves(broken, small)[1][2] == (
        "tirage -BCCS non valide (FISF §3.2) : au coup 2, les lettres restantes ne "
        "permettant plus 2 voyelles et 2 consonnes, il faut au moins 1 voyelle et "
        "1 consonne ; il compte 0 voyelle et 4 consonnes ; le tirage est noté rejeté (-), "
        "mais le nouveau tirage devait la respecter ; décompte : CAS 5 = 5"
    )
    # A blank (or the Y) among two letters or more keeps the game going (FISF §3.7).
    assert draw_problem("C?", 20, Counter({"C": 1, "?": 1}), small) is None
    assert draw_problem("Y", 20, Counter({"Y": 1}), small) is not None


# --- FISF §4.2: the blank as sheets print it -----------------------------------------


def test_fisf_4_2_the_blank_in_parentheses() -> None:
    assert parse_word("C(H)ACUNE") == parse_word("ChACUNE") == parse_word("C(h)ACUNE")
    for word, message in (
        ("C(HA)CUNE", "une seule lettre entre parenthèses, celle du joker"),
        ("CHACUN(", "après « ( », la lettre du joker puis « ) »"),
        ("C()ACUNE", "après « ( », la lettre du joker puis « ) »"),
        ("CHA)CUNE", "« ) » n'est pas une lettre"),
    ):
        with pytest.raises(ValueError, match=re.escape(message)):
            parse_word(word)


def test_a_sheet_with_parenthesised_blanks_scores_as_with_lower_case() -> None:
    lower = pl.read_csv(FIXTURES / "example.csv", schema_overrides={"rack": pl.String})
    assert lower.filter(pl.col("word").str.contains("[a-z]")).height == 1  # ETEs
    circled = lower.with_columns(pl.col("word").str.replace_all(r"([a-z])", "($1)"))
    assert circled["word"][4] == "ETE(s)"
    circled = circled.with_columns(pl.col("word").str.replace("(s)", "(S)", literal=True))
    tournaments = pl.DataFrame({"tournament_id": ["EX-2008"], "top_total": [275], "games": [1]})
    before = audit_game_sheets(lower, tournaments, PARAMS)
    after = audit_game_sheets(circled, tournaments, PARAMS)
    assert after.drop("word").equals(before.drop("word"))
    assert after["status"].to_list() == [STATUS_OK] * 7 + ["top_total_ok"]
    assert after["word"][4] == "ETE(S)" and after["message"][4] == "ETEs 9 = 9"
    (game,) = replay_games(circled, PARAMS)
    assert game.board.tile(8, 14) == "s"  # I15: the blank stays a blank on the board


def test_a_rack_without_a_move_number_is_not_judged() -> None:
    assert draw_problem("AEIOUEH", None, Counter(PARAMS.tiles), PARAMS) is None
    assert draw_problem(None, 1, Counter(PARAMS.tiles), PARAMS) is None
    assert draw_problem("AB3", 1, Counter(PARAMS.tiles), PARAMS) is None  # unreadable
    assert _moves([("T", 1, 1, None, "HAIE", "H8", None)])[0][0] == STATUS_SCORE_MISSING


def _reference(tmp_path: Path, **changes: object) -> Path:
    data = yaml.safe_load((REFERENCE / "scoring.yaml").read_text(encoding="utf-8"))
    data.update(changes)
    (tmp_path / "scoring.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    return tmp_path


def test_the_fisf_parameters_are_checked_when_loaded(tmp_path: Path) -> None:
    tiles = {**PARAMS.tiles}
    del tiles["W"]
    with pytest.raises(ReferenceDataError, match=r"scoring\.yaml: tiles: no count for W"):
        load_scoring_params(_reference(tmp_path, tiles=tiles))
    with pytest.raises(ReferenceDataError, match="tiles: 1 is not a letter nor \\?"):
        load_scoring_params(_reference(tmp_path, tiles={**PARAMS.tiles, "1": 2}))
    rule = {"vowels": "AEIOUY", "either": "Y?", "early_moves": 15, "early_minimum": 2}
    with pytest.raises(ReferenceDataError, match="draw_rule: vowels must be letters"):
        load_scoring_params(_reference(tmp_path, draw_rule={**rule, "minimum": 1}))
    with pytest.raises(ReferenceDataError, match="missing key 'minimum'"):
        load_scoring_params(_reference(tmp_path, draw_rule={**rule, "vowels": "AEIOU"}))
    with pytest.raises(ReferenceDataError, match="variant_rack_sizes must be a list"):
        load_scoring_params(_reference(tmp_path, variant_rack_sizes=8))
