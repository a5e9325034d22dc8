"""docs/rules.md §7: move scoring ([002]), the replay of game sheets and their audit."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import polars as pl
import pytest
import yaml

from pipelines.reference.files import ReferenceDataError
from pipelines.reference.scoring import load_scoring_params
from transforms.scoring import (
    SHEET_SCHEMA,
    STATUS_ILLEGAL,
    STATUS_OK,
    STATUS_SCORE_DIFFERS,
    STATUS_SCORE_MISSING,
    STATUS_TOP_TOTAL_DIFFERS,
    STATUS_TOP_TOTAL_OK,
    STATUS_TOP_TOTAL_UNCHECKED,
    Board,
    GameSheetError,
    MoveReplay,
    Placement,
    audit_game_sheets,
    format_game,
    format_move,
    parse_position,
    parse_rack,
    parse_word,
    render_board,
    replay_games,
    replay_move,
)
from transforms.tables import table

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "game_sheets"
PARAMS = load_scoring_params(REFERENCE)


def _play(
    board: Board,
    word: str,
    position: str,
    rack: str | None = "",
    stated: int | None = None,
) -> MoveReplay:
    """One move; its rack is, unless given, the word's own tiles (`?` for a blank)."""
    if rack == "":
        rack = "".join("?" if blank else letter for letter, blank in parse_word(word))
    return replay_move(board, PARAMS, word=word, position=position, rack=rack, stated_score=stated)


def _words(move: MoveReplay) -> list[tuple[str, int]]:
    return [(w.word, w.score) for w in move.words]


def _sheet(rows: Sequence[tuple[str, int, int, str, str, str, int | None]]) -> pl.DataFrame:
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


# --- parameters ----------------------------------------------------------------------


def test_reference_parameters() -> None:
    values = PARAMS.letter_values
    assert [values[c] for c in "AEILNORSTU"] == [1] * 10
    assert [values[c] for c in "DGM"] == [2] * 3
    assert [values[c] for c in "BCP"] == [3] * 3
    assert [values[c] for c in "FHV"] == [4] * 3
    assert [values[c] for c in "JQ"] == [8] * 2
    assert [values[c] for c in "KWXYZ"] == [10] * 5
    assert (PARAMS.blank_value, PARAMS.bonus, PARAMS.rack_size) == (0, 50, 7)
    assert PARAMS.size == 15 and PARAMS.start == (7, 7)  # H8
    marks = Counter(s.mark for row in PARAMS.squares for s in row)
    assert marks == Counter({"": 164, "LD": 24, "LT": 12, "MD": 16, "MT": 8, "**": 1})
    star = PARAMS.squares[7][7]
    assert (star.word, star.letter, star.start) == (2, 1, True)
    # The squares the worked examples of [002] use.
    assert PARAMS.squares[7][11].letter == 2  # H12 double letter (Z of HANTEZ)
    assert PARAMS.squares[5][5].letter == 3  # F6 triple letter (F of FAÇADES)
    assert PARAMS.squares[9][5].letter == 3  # J6 triple letter (D of FAÇADES)
    assert PARAMS.squares[5][9].letter == 3  # F10 triple letter (J of JUNGLE)
    assert PARAMS.squares[0][0].word == 3 and PARAMS.squares[4][4].word == 2  # A1, E5
    # The board is symmetric under both diagonals' reflections.
    for r in range(15):
        for c in range(15):
            assert PARAMS.squares[r][c] == PARAMS.squares[c][r] == PARAMS.squares[14 - r][c]


def _write_reference(tmp_path: Path, **changes: object) -> Path:
    data = yaml.safe_load((REFERENCE / "scoring.yaml").read_text(encoding="utf-8"))
    data.update(changes)
    (tmp_path / "scoring.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    return tmp_path


def test_reference_errors_name_the_file(tmp_path: Path) -> None:
    values = {1: "AEILNORSTU", 2: "DGM", 3: "BCP", 4: "FHV", 8: "JQ", 10: "KWXY"}
    with pytest.raises(ReferenceDataError, match=r"scoring.yaml: letter_values: no value for Z"):
        load_scoring_params(_write_reference(tmp_path, letter_values=values))
    twice = {**values, 10: "KWXYZ", 5: "A"}
    with pytest.raises(ReferenceDataError, match="A is listed twice"):
        load_scoring_params(_write_reference(tmp_path, letter_values=twice))
    layout = (REFERENCE / "scoring.yaml").read_text(encoding="utf-8")
    board = yaml.safe_load(layout)["premium_squares"]
    with pytest.raises(ReferenceDataError, match="exactly one start square, not 2"):
        load_scoring_params(
            _write_reference(tmp_path, premium_squares=board.replace("MT", "**", 1))
        )
    with pytest.raises(ReferenceDataError, match="row A has 14 squares, expected 15"):
        load_scoring_params(_write_reference(tmp_path, premium_squares=board.replace("MT ", "", 1)))
    with pytest.raises(ReferenceDataError, match="token\\(s\\) XX not in premium_legend"):
        load_scoring_params(_write_reference(tmp_path, premium_squares=board.replace("MT", "XX")))
    with pytest.raises(ReferenceDataError, match="missing key 'bonus'"):
        data = yaml.safe_load(layout)
        del data["bonus"]
        (tmp_path / "scoring.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
        load_scoring_params(tmp_path)


# --- notation ------------------------------------------------------------------------


def test_position_notation() -> None:
    assert parse_position("H8") == Placement(7, 7, True)
    assert parse_position("8H") == Placement(7, 7, False)
    assert parse_position(" 6f ") == Placement(5, 5, False)
    assert parse_position("f10") == Placement(5, 9, True)
    assert parse_position("A1").label == "A1" and parse_position("15o").label == "15O"


@pytest.mark.parametrize("text", ["P3", "H16", "16H", "H0", "0A"])
def test_position_off_the_board(text: str) -> None:
    with pytest.raises(ValueError, match=r"hors de la grille \(lignes A à O, colonnes 1 à 15\)"):
        parse_position(text)


@pytest.mark.parametrize("text", ["HH", "8", "H8H", "H 8 8 8", "8-H"])
def test_position_unreadable(text: str) -> None:
    with pytest.raises(ValueError, match="illisible : une lettre puis un nombre"):
        parse_position(text)


def test_word_notation() -> None:
    assert "".join(letter for letter, _ in parse_word("FAÇADES")) == "FACADES"
    assert parse_word("HANTEz")[-1] == ("Z", True)
    assert parse_word("éTÉ") == (("E", True), ("T", False), ("E", False))
    with pytest.raises(ValueError, match="« Œ » n'est pas une lettre"):
        parse_word("ŒUF")
    with pytest.raises(ValueError, match="au moins 2 lettres"):
        parse_word("A")
    with pytest.raises(ValueError, match="mot non indiqué"):
        parse_word("  ")


def test_rack_notation() -> None:
    assert parse_rack("eis+AN?-t") == Counter(
        {"E": 1, "I": 1, "S": 1, "A": 1, "N": 1, "?": 1, "T": 1}
    )
    with pytest.raises(ValueError, match="« 3 » n'est ni une lettre, ni \\?, ni \\+ ou -"):
        parse_rack("AB3")


# --- [002]: the four worked moves on one board ---------------------------------------


def test_worked_moves_of_002_in_sequence() -> None:
    board = Board()
    hantez = _play(board, "HANTEZ", "H7", stated=56)
    assert _words(hantez) == [("HANTEZ", 56)]
    assert (hantez.computed_score, hantez.bonus, hantez.status) == (56, 0, STATUS_OK)

    facades = _play(board, "FAÇADES", "6F", stated=96)
    assert _words(facades) == [("FACADES", 25), ("CHANTEZ", 21)]
    assert (facades.bonus, facades.computed_score, facades.status) == (50, 96, STATUS_OK)

    aerien = _play(board, "AERIEN", "G6", rack="EEINR", stated=23)
    assert _words(aerien) == [
        ("AERIEN", 8),
        ("EH", 6),
        ("RA", 2),
        ("IN", 3),
        ("ET", 2),
        ("NE", 2),
    ]
    assert (aerien.computed_score, aerien.status) == (23, STATUS_OK)

    jungle = _play(board, "JUNGLE", "F10", stated=61)
    assert _words(jungle) == [("JUNGLE", 32), ("JET", 26), ("UNE", 3)]
    assert (jungle.computed_score, jungle.status) == (61, STATUS_OK)
    assert [w.position for w in jungle.words] == ["F10", "10F", "11F"]
    assert board.tiles == 6 + 7 + 5 + 6


def test_002_printed_position_h6_cannot_score_56() -> None:
    # [002] prints "H6": from H6 the N covers the star and the Z lands on H11, a plain
    # square: (4 + 1 + 1 + 1 + 1 + 10) × 2 = 36, not 56.
    move = _play(Board(), "HANTEZ", "H6", stated=56)
    assert move.computed_score == 36 and move.status == STATUS_SCORE_DIFFERS


# --- hand-made cases -----------------------------------------------------------------


def test_blank_on_a_letter_premium_square() -> None:
    # z blank on the double-letter H12: 4 + 1 + 1 + 1 + 1 + 0 × 2 = 8, star ×2 = 16.
    move = _play(Board(), "HANTEz", "H7", rack="AEHNT?S", stated=16)
    assert _words(move) == [("HANTEz", 16)] and move.status == STATUS_OK


def test_blank_on_the_star_still_doubles_the_word() -> None:
    # h blank on H8 (star): (0 + 1 + 1 + 1 + E on the double-letter H12 2 + Z 10) × 2 = 30.
    move = _play(Board(), "hANTEZ", "H8")
    assert move.computed_score == 30


def test_word_across_two_double_word_squares() -> None:
    board = Board()
    # RAIE down column 8 from E8 to the star H8: (1 + 1 + 1 + 1) × 2 = 8.
    assert _play(board, "RAIE", "8E").computed_score == 8
    # BARREAU on row E from the double-word E5 to the double-word E11 through the R on E8:
    # (3 + 1 + 1 + 1 + 1 + 1 + 1) × 2 × 2 = 36, six tiles, no cross word.
    move = _play(board, "BARREAU", "E5", rack="ABREAU", stated=36)
    assert _words(move) == [("BARREAU", 36)] and move.status == STATUS_OK


def test_word_across_two_triple_word_squares() -> None:
    board = Board()
    board.put(0, 1, "E")  # A2
    board.put(0, 4, "N")  # A5
    # REMANIER from A1 (triple word) to A8 (triple word), A on the double-letter A4:
    # (1 + 1 + 2 + 1 × 2 + 1 + 1 + 1 + 1) × 3 × 3 = 90; six new tiles, no bonus.
    move = _play(board, "REMANIER", "A1", rack="AEIMRR", stated=90)
    assert _words(move) == [("REMANIER", 90)] and move.status == STATUS_OK


def test_word_across_three_triple_word_squares() -> None:
    board = Board()
    for col, letter in ((2, "X"), (3, "T"), (5, "A"), (6, "O"), (9, "I"), (10, "N")):
        board.put(0, col - 1, letter)
    board.put(0, 11, "I")  # A12: a double letter already used
    board.put(0, 12, "R")  # A13
    # EXTRAORDINAIRES from A1 to A15: new E (A1 ×3 word), R (A4 double letter), R, D (A8 ×3
    # word), A, E, S (A15 ×3 word): (1 + 10 + 1 + 1 × 2 + 1 + 1 + 1 + 2 + 1 + 1 + 1 + 1 + 1
    # + 1 + 1) × 27 = 26 × 27 = 702, plus 50 for seven tiles = 752.
    move = _play(board, "EXTRAORDINAIRES", "A1", rack="ADEERRS")
    assert _words(move) == [("EXTRAORDINAIRES", 702)]
    assert (move.bonus, move.computed_score) == (50, 752)


def test_parallel_move_counts_every_cross_word() -> None:
    board = Board()
    _play(board, "HANTEZ", "H7")
    # EU on I7 (double letter) and I8, under the H and the A: EU 2 + 1 = 3, HE 4 + 2 = 6,
    # AU 1 + 1 = 2: 11.
    move = _play(board, "EU", "I7", stated=11)
    assert _words(move) == [("EU", 3), ("HE", 6), ("AU", 2)] and move.computed_score == 11
    assert move.status == STATUS_OK


def test_tiles_not_on_the_rack() -> None:
    move = _play(Board(), "HANTEZ", "H7", rack="AEHNTS?", stated=56)
    assert move.status == STATUS_ILLEGAL and move.computed_score == 56
    assert move.problems == ("lettres posées absentes du tirage AEHNTS? : Z",)
    blank = _play(Board(), "HANTEz", "H7", rack="AEHNTZS", stated=16)
    assert blank.problems == ("lettres posées absentes du tirage AEHNTZS : un joker (?)",)
    two = _play(Board(), "EXCES", "H8", rack="ECS+AB??")
    assert two.problems == ("lettres posées absentes du tirage ECS+AB?? : E, X",)
    double = _play(Board(), "HEE", "H8", rack="H")
    assert double.problems == ("lettres posées absentes du tirage H : E ×2",)


def test_rack_larger_than_a_full_rack() -> None:
    move = _play(Board(), "HANTEZ", "H7", rack="ST+AEHNTZ")
    assert move.problems == ("le tirage ST+AEHNTZ compte 8 lettres, plus que les 7 d'un chevalet",)


def test_missing_rack_is_a_note_not_a_fault() -> None:
    move = _play(Board(), "HANTEZ", "H7", rack=None, stated=56)
    assert move.status == STATUS_OK
    assert move.message == (
        "tirage non indiqué : les lettres posées n'ont pas été vérifiées ; "
        "décompte : HANTEZ 56 = 56"
    )


def test_word_touching_nothing() -> None:
    board = Board()
    _play(board, "HANTEZ", "H7")
    # BOL on A1: placed and scored, (3 + 1 + 1) × 3 = 15, but it touches nothing.
    move = _play(board, "BOL", "A1", stated=15)
    assert move.status == STATUS_ILLEGAL and move.computed_score == 15
    assert move.problems == ("le mot BOL en A1 ne touche aucune lettre déjà posée",)
    assert board.tile(0, 0) == "B"


def test_stated_score_off_by_one() -> None:
    move = _play(Board(), "HANTEZ", "H7", stated=57)
    assert (move.status, move.stated_score, move.computed_score) == (STATUS_SCORE_DIFFERS, 57, 56)
    assert move.message == (
        "score annoncé 57, score calculé 56 (écart +1) ; décompte : HANTEZ 56 = 56"
    )


def test_score_missing() -> None:
    move = _play(Board(), "HANTEZ", "H7", stated=None)
    assert move.status == STATUS_SCORE_MISSING and move.computed_score == 56
    assert move.message == "score non indiqué sur la feuille ; décompte : HANTEZ 56 = 56"


def test_position_off_the_board_is_not_placed() -> None:
    board = Board()
    move = _play(board, "HANTEZ", "P3", stated=56)
    assert move.status == STATUS_ILLEGAL and move.computed_score is None
    assert move.problems == ("position P3 hors de la grille (lignes A à O, colonnes 1 à 15)",)
    assert board.is_empty()


def test_word_running_off_the_board() -> None:
    across = _play(Board(), "HANTEZ", "H12")
    assert across.problems == (
        "le mot HANTEZ (6 lettres) en H12 sort de la grille : il dépasse la colonne 15 de 2 cases",
    )
    down = _play(Board(), "HANTEZ", "8K")
    assert down.problems == (
        "le mot HANTEZ (6 lettres) en 8K sort de la grille : il dépasse la ligne O de 1 case",
    )


def test_word_disagreeing_with_the_board() -> None:
    board = Board()
    _play(board, "HANTEZ", "H7")
    move = _play(board, "CHANTER", "H6", rack="CR")
    assert move.status == STATUS_ILLEGAL and move.computed_score is None
    assert move.problems == ("la case H12 porte un Z, le mot CHANTER y met un R",)
    assert board.tile(7, 5) == "" and board.tiles == 6  # nothing placed


def test_word_must_be_written_whole() -> None:
    board = Board()
    _play(board, "HANTEZ", "H7")
    move = _play(board, "ANTEZE", "H8", rack="E")
    assert move.problems == (
        "la case H7 porte déjà un H : le mot écrit doit être le mot entier, lettres déjà "
        "posées comprises",
    )
    again = _play(board, "HANTEZ", "H7")
    assert again.problems == ("le mot HANTEZ en H7 ne pose aucune lettre nouvelle",)


def test_first_move_not_covering_the_centre() -> None:
    board = Board()
    # HANTEZ on A1: placed and scored, (4 ×3 word … T on the double-letter A4):
    # (4 + 1 + 1 + 1 × 2 + 1 + 10) × 3 = 57.
    move = _play(board, "HANTEZ", "A1", stated=57)
    assert move.status == STATUS_ILLEGAL and move.computed_score == 57
    assert move.problems == ("premier coup : le mot doit passer par la case centrale H8",)


def test_first_move_is_the_first_one_placed() -> None:
    board = Board()
    assert _play(board, "HANTEZ", "Z9").computed_score is None
    assert _play(board, "HANTEZ", "H7", stated=56).status == STATUS_OK


# --- game sheets ---------------------------------------------------------------------


def _example() -> pl.DataFrame:
    return pl.read_csv(FIXTURES / "example.csv", schema_overrides={"rack": pl.String})


def test_example_sheet_audit() -> None:
    tournaments = pl.DataFrame({"tournament_id": ["EX-2008"], "top_total": [275], "games": [1]})
    audit = audit_game_sheets(_example(), tournaments, PARAMS, season="2007-2008")
    assert audit.columns == table("game_sheet_audit").column_names
    assert set(audit["season"]) == {"2007-2008"}
    moves = audit.filter(pl.col("move").is_not_null())
    assert moves["computed_score"].to_list() == [56, 96, 23, 61, 9, 13, 17]
    assert moves["stated_score"].to_list() == [56, 96, 23, 61, 9, 13, 17]
    assert set(moves["status"]) == {STATUS_OK}
    assert moves["message"][1] == "FACADES 25 + CHANTEZ 21 + 50 (scrabble) = 96"
    total = audit.row(-1, named=True)
    assert total == {
        "season": "2007-2008",
        "tournament_id": "EX-2008",
        "game": None,
        "move": None,
        "word": None,
        "position": None,
        "stated_score": 275,
        "computed_score": 275,
        "status": STATUS_TOP_TOTAL_OK,
        "message": "somme des tops calculés 275 = top total annoncé (manche 1 : 275)",
    }


def test_tops_not_summing_to_top_total() -> None:
    rows = [
        ("T1", 1, 1, "AEHNTZS", "HANTEZ", "H7", 56),
        ("T1", 1, 2, "S+AACDEF", "FAÇADES", "6F", 96),
        ("T1", 2, 1, "AEHNTZS", "HANTEZ", "H7", 56),
        ("T2", 1, 1, "AEHNTZS", "HANTEZ", "H7", 56),
        ("T3", 1, 1, "AEHNTZS", "HANTEZ", "H7", 56),
        ("T4", 1, 1, "AEHNTZS", "HANTEZ", "P7", 56),
        ("T5", 1, 1, "AEHNTZS", "HANTEZ", "H7", 56),
    ]
    tournaments = pl.DataFrame(
        {
            "tournament_id": ["T1", "T2", "T3", "T4", "T5"],
            "top_total": [210, 56, 56, 56, None],
            "games": [2, None, 2, None, 1],
        }
    )
    audit = audit_game_sheets(_sheet(rows), tournaments, PARAMS)
    totals = audit.filter(pl.col("move").is_null())
    assert totals["tournament_id"].to_list() == ["T1", "T2", "T3", "T4"]  # T5 states none
    t1, t2, t3, t4 = totals.iter_rows(named=True)
    # T1: 56 + 96 in game 1, 56 in game 2 = 208, stated 210.
    assert (t1["status"], t1["stated_score"], t1["computed_score"]) == (
        STATUS_TOP_TOTAL_DIFFERS,
        210,
        208,
    )
    assert t1["message"] == (
        "somme des tops calculés 208 ≠ top total annoncé 210 (écart +2 ; manche 1 : 152, "
        "manche 2 : 56)"
    )
    assert (t2["status"], t2["computed_score"]) == (STATUS_TOP_TOTAL_OK, 56)
    assert (t3["status"], t3["computed_score"]) == (STATUS_TOP_TOTAL_UNCHECKED, None)
    assert t3["message"] == (
        "top total non vérifié : la feuille de partie contient 1 manche(s), le tournoi en compte 2"
    )
    assert t4["status"] == STATUS_TOP_TOTAL_UNCHECKED
    assert t4["message"] == "top total non vérifié : coup(s) non calculé(s) (manche 1 coup 1)"
    # Each game is replayed on its own board: game 2's HANTEZ is a first move again.
    game2 = audit.filter((pl.col("tournament_id") == "T1") & (pl.col("game") == 2))
    assert game2["status"].to_list() == [STATUS_OK]


def test_audit_is_sorted_and_deterministic() -> None:
    sheet = _example()
    tournaments = pl.DataFrame({"tournament_id": ["EX-2008"], "top_total": [275]})
    audit = audit_game_sheets(sheet, tournaments, PARAMS)
    shuffled = audit_game_sheets(
        sheet.sample(fraction=1.0, shuffle=True, seed=3), tournaments, PARAMS
    )
    assert audit.equals(shuffled)
    assert audit["move"].to_list() == [1, 2, 3, 4, 5, 6, 7, None]
    assert audit_game_sheets(sheet, None, PARAMS).height == 7


def test_a_move_listed_twice_is_an_error() -> None:
    rows = [
        ("T1", 1, 1, "AEHNTZS", "HANTEZ", "H7", 56),
        ("T1", 1, 1, "AEHNTZS", "HANTEZ", "H7", 56),
    ]
    with pytest.raises(GameSheetError, match="le coup 1 de la manche 1 du tournoi T1 figure"):
        audit_game_sheets(_sheet(rows), None, PARAMS)


def test_replay_one_game_of_a_sheet() -> None:
    rows = [
        ("T1", 1, 1, "AEHNTZS", "HANTEZ", "H7", 56),
        ("T1", 2, 1, "AEHNTZS", "HANTEZ", "H7", 55),
        ("T1", 2, 2, "S+AACDEF", "FAÇADES", "6F", 96),
    ]
    replays = replay_games(_sheet(rows), PARAMS, game=2)
    assert [(r.tournament_id, r.game, len(r.moves)) for r in replays] == [("T1", 2, 2)]
    assert replays[0].computed_total == 152
    # A sheet without tournament or rack columns still replays (the command's input).
    bare = _sheet(rows).select("game", "move", "word", "position")
    assert [r.computed_total for r in replay_games(bare, PARAMS)] == [56, 152]


# --- text ----------------------------------------------------------------------------


def test_render_board() -> None:
    board = Board()
    _play(board, "HANTEz", "H7")
    lines = render_board(board, PARAMS).splitlines()
    assert len(lines) == 16
    assert lines[0] == "    1  2  3  4  5  6  7  8  9 10 11 12 13 14 15"
    assert lines[1] == "A  MT  .  . LD  .  .  . MT  .  .  . LD  .  . MT"
    assert lines[8] == "H  MT  .  . LD  .  .  H  A  N  T  E  z  .  . MT"
    assert lines[9] == "I   .  . LD  .  .  . LD  . LD  .  .  . LD  .  ."
    empty = render_board(Board(), PARAMS).splitlines()
    assert empty[8] == "H  MT  .  . LD  .  .  .  *  .  .  . LD  .  . MT"
    plain = render_board(board, PARAMS, premiums=False).splitlines()
    assert plain[1] == "A " + "  ." * 15
    assert plain[8] == "H   .  .  .  .  .  .  H  A  N  T  E  z  .  .  ."


def test_format_move_and_game() -> None:
    board = Board()
    _play(board, "HANTEZ", "H7", stated=56)
    facades = _play(board, "FAÇADES", "6F", rack="S+AACDEF", stated=95)
    assert format_move(facades) == (
        "- FAÇADES en 6F, tirage S+AACDEF : FACADES 25 + CHANTEZ 21 + 50 (scrabble) = 96\n"
        "   ! score annoncé 95, score calculé 96 (écart -1)"
    )
    replay = replay_games(_example(), PARAMS)[0]
    text = format_game(replay, PARAMS)
    lines = text.splitlines()
    assert lines[0] == "Tournoi EX-2008 — manche 1"
    assert lines[2] == "1. HANTEZ en H7, tirage AEHNTZS : HANTEZ 56 = 56"
    assert lines[4] == (
        "3. AERIEN en G6, tirage EEINRST : AERIEN 8 + EH 6 + RA 2 + IN 3 + ET 2 + NE 2 = 23"
    )
    assert "Total des tops calculés : 275" in lines
    assert text.endswith(render_board(replay.board, PARAMS))
    assert "I   .  . LD  .  .  A LD  .  D  .  .  . LD  .  s" in lines


def test_format_unplaced_move() -> None:
    move = _play(Board(), "HANTEZ", "P3")
    assert format_move(move) == (
        "- HANTEZ en P3, tirage HANTEZ : non calculé\n"
        "   ! position P3 hors de la grille (lignes A à O, colonnes 1 à 15)"
    )


def test_empty_sheet_and_missing_columns() -> None:
    empty = pl.DataFrame(schema=dict(SHEET_SCHEMA))
    tournaments = pl.DataFrame({"tournament_id": ["T1"], "top_total": [56]})
    audit = audit_game_sheets(empty, tournaments, PARAMS)
    assert audit.height == 0 and audit.schema == table("game_sheet_audit").schema
    with pytest.raises(GameSheetError, match="colonne\\(s\\) manquante\\(s\\) position"):
        audit_game_sheets(empty.drop("position"), None, PARAMS)


def test_missing_move_numbers_are_noted() -> None:
    rows = [
        ("T1", 1, 2, "AEHNTZS", "HANTEZ", "H7", 56),
        ("T1", 1, 3, "S+AACDEF", "FAÇADES", "6F", 96),
        ("T1", 1, 6, "EEINRST", "AERIEN", "G6", 23),
    ]
    (replay,) = replay_games(_sheet(rows), PARAMS)
    assert [m.notes for m in replay.moves] == [
        ("le coup 1 manque sur la feuille : la partie est rejouée sans lui",),
        (),
        ("les coups 4 à 5 manquent sur la feuille : la partie est rejouée sans eux",),
    ]
    assert [m.status for m in replay.moves] == [STATUS_OK] * 3  # a note, not a fault
    assert replay.moves[2].message == (
        "les coups 4 à 5 manquent sur la feuille : la partie est rejouée sans eux ; "
        "décompte : AERIEN 8 + EH 6 + RA 2 + IN 3 + ET 2 + NE 2 = 23"
    )


def test_board_copy_is_independent() -> None:
    board = Board()
    _play(board, "HANTEZ", "H7")
    other = board.copy()
    assert _play(other, "FAÇADES", "6F").computed_score == 96
    assert (board.tiles, other.tiles) == (6, 13)
    assert board.tile(5, 5) == "" and other.tile(5, 5) == "F"
