"""Move scoring and the game-sheet audit (docs/rules.md §7, source [002]).

A game sheet is the master game of a duplicate round: one row per move, the top played on
it (`tournament_id, game, move, rack, word, position, score`). Each game is replayed move
by move on its own board (the replay is sequential: a move is scored against the tiles of
the moves before it), every move is checked and scored, and the sum of the computed tops of
a tournament is compared with the `top_total` its results state. Every number the rules
mark as a parameter (letter values, blank value, premium squares, the 50-point bonus, rack
size) comes in through `ScoringParams`, loaded from `data/reference/scoring.yaml` by
`pipelines.reference.scoring`.

Scoring ([002], "Décompte des points"): a word is worth the sum of its letters, a tile newly
placed on a letter premium counting double or triple; the sum is multiplied by the word
premium of every newly placed tile (two double-word squares ×4, two triple-word ×9, three
triple-word ×27); every word the move forms counts (the word written and each cross word of
two letters or more through a new tile); placing a full rack (7 tiles) adds 50; a blank is
worth 0, on any square.

Checks of a move, each giving a French message an arbiter understands (`MoveReplay`):
the position can be read and lies on the board; the word is made of letters and has at
least two; it does not run off the board; it is the whole word (the squares just before
and after it are empty); it agrees with the letters already on the board; it places at
least one new tile; the first move covers the centre star; a later move touches the
letters in place; the new tiles come from the rack; the stated score equals the computed
one. The first four groups make a move *unplaceable*: it is neither placed nor scored.
The others leave it placed and scored, with its problem stated.

The FISF's duplicate rules (*Règlement du Scrabble duplicate francophone de compétition*,
in force 1 January 2023; docs/rules.md §7 cites them), checked by `replay_game` since they
need the game around the move: the first move placed is horizontal (§3.4); each rack is
valid (§3.2: up to move 15 at least two vowels and two consonants if the letters left allow
it, then one of each; the Y and the blanks count as either); a move played when the
letters left allow no valid rack any more is a move after the end of the game (§3.2,
§3.7); a rack holds the reliquat the move before left (its rack minus the tiles it
placed; §3.1) unless marked redrawn (`-` in front, §3.2), and a redrawn rack writes no
kept letters. A breach is a problem
of the move, like a placement rule: status `illegal`, the section cited in the message.
`replay_move` alone (which the generator uses) checks [002]'s rules only.

Audit statuses (`game_sheet_audit.status`):

- per move (`move` set): `ok` (legal, stated score = computed score); `score_differs`
  (legal, the scores differ: both kept); `score_missing` (legal, no stated score);
  `illegal` (a placement rule is broken; `computed_score` is kept when the move could be
  scored, null when it could not be placed);
- per tournament (`game` and `move` null, only when its results state a `top_total`):
  `top_total_ok`, `top_total_differs` (`stated_score` = the `top_total`,
  `computed_score` = the sum of the computed tops over every game of the sheet), or
  `top_total_unchecked` (a move could not be scored, or the sheet does not hold as many
  games as the tournament's `games`; `computed_score` null).

Decisions taken here, where docs/rules.md §7 and [002] are silent:

- **Notation**: the position is read case-insensitively, spaces ignored; letter then number
  is horizontal, number then letter vertical. The word is written whole (letters already
  on the board included); an upper-case letter is a natural tile, a lower-case letter a
  blank. Accents and the cedilla are dropped (`FAÇADES` is played with a C); any other
  character (a digit, `Œ`, a hyphen) makes the word unreadable. On a square already
  occupied the written letter is compared without regard to case: the tile keeps what it
  is (a blank stays a blank).
- **Unplaceable moves** (unreadable or off-board position, word off the board, not whole,
  disagreeing with the board, or placing no new tile) leave the board as it was; the game
  goes on from that board, so a later move that relied on it may fail in turn.
- **First move** means the first move placed on an empty board (move 1, unless move 1
  could not be placed). A move placed despite a broken rule (first move off the centre,
  a word touching nothing, tiles not on the rack) stays on the board for the next moves.
- **Blank**: a lower-case letter (`ChACUNE`) or a letter in parentheses (`C(H)ACUNE`, the
  circled letter of FISF §4.2); one letter per parenthesis.
- **Rack**: `KEPT+DRAWN` (the reliquat, then the new letters); `-` in front (`-AEINRST`)
  marks a rack drawn after a rejet (FISF §3.2: every letter back in the bag, the reliquat
  included, seven drawn anew), which therefore writes no `+`; a `-` elsewhere is read as
  `+` (today's files); spaces are ignored; letters are read case-insensitively; `?` is a
  blank. The new tiles must be a sub-multiset of the rack: a natural letter needs that
  letter, a blank needs a `?`. A rack of more tiles than `rack_size` is illegal (8 or 9
  tiles, the variant games of FISF §3.8.2, are refused by the ingest before). An empty
  rack is not an error: the move's tiles are then not checked and the message says so.
- **Reliquat** (FISF §3.1, §3.2): when the move before has the number just below, was
  placed and wrote a readable rack, what it left (its rack minus the tiles it placed, read
  off the board) must be the kept part of a `KEPT+DRAWN` rack, or be contained in a rack
  written whole, unless the rack is marked redrawn (`-`). Not judged after missing move
  numbers, an unplaceable move or a rack not written.
- **Draw rule** (FISF §3.2): the rack of move `n` must hold `early_minimum` (2) vowels and
  as many consonants when `n ≤ early_moves` (15) and the tiles left allow it, else
  `minimum` (1) of each. "Tiles left" are the bag of `tiles` minus the tiles on the board
  before the move (the bag and the rack together: the text's « reliquat »). Each Y or
  blank counts as whichever kind helps (the text leaves it « à son gré » to the arbiter:
  a rack is a finding only when no choice makes it valid). A redrawn rack (`-`) must be
  valid too (« jusqu'à ce que les conditions requises soient remplies »); its message says
  the rejet was noted. When the tiles left allow not even `minimum` of each (all
  consonants, all vowels, one tile: §3.7), a move is a finding: the game should have
  ended. A rack that cannot be read, or a move without a number, is not judged.
- **Bonus**: given when the move places exactly `rack_size` new tiles.
- **Scores**: a move with no stated score has status `score_missing`; stated and computed
  scores are kept side by side whatever the status.
- **Top total**: compared per tournament, over every game of its sheet, with the
  tournament's `top_total` (a sum over all its games); when the tournament states its
  number of `games` and the sheet holds another number of games, the total is not compared
  (`top_total_unchecked`). No row is written for a tournament without a stated
  `top_total`.
- A move listed twice (same tournament, game and move number) is an error
  (`GameSheetError`): the order of the game could not be known. (The ingest rejects such
  a file before it reaches the audit: `pipelines/ingest/kinds/game_sheets.py`.)
- **Missing move numbers** (a game whose numbers skip, or do not start at 1) are noted on
  the move that follows the gap; the game is replayed without them (a later move that
  relied on them may then fail) and the status is not affected.
- **Season**: `audit_game_sheets` stamps every row with the season it is given (the
  partition of the asset), the column the partition replaces.
- **Order**: moves by tournament, game and move number; a tournament's total row after its
  moves.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Any

import numpy as np
import polars as pl

from transforms.tables import table

GAME_SHEET_AUDIT = table("game_sheet_audit")

ROW_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

STATUS_OK = "ok"
STATUS_SCORE_DIFFERS = "score_differs"
STATUS_SCORE_MISSING = "score_missing"
STATUS_ILLEGAL = "illegal"
STATUS_TOP_TOTAL_OK = "top_total_ok"
STATUS_TOP_TOTAL_DIFFERS = "top_total_differs"
STATUS_TOP_TOTAL_UNCHECKED = "top_total_unchecked"

# The game-sheet export: one row per move of the master game.
SHEET_SCHEMA: Mapping[str, pl.DataType] = {
    "tournament_id": pl.String(),
    "game": pl.Int64(),
    "move": pl.Int64(),
    "rack": pl.String(),
    "word": pl.String(),
    "position": pl.String(),
    "score": pl.Int64(),
}
_REQUIRED_COLUMNS = ("game", "move", "word", "position")

_POSITION = re.compile(r"^(?:([A-Z])(\d{1,2})|(\d{1,2})([A-Z]))$")


class GameSheetError(ValueError):
    """A game sheet that cannot be replayed at all; the message (French) names the move."""


@dataclass(frozen=True)
class Square:
    """One square of the board: its letter and word premiums, and the centre star."""

    letter: int = 1
    word: int = 1
    start: bool = False
    mark: str = ""  # the layout's token, drawn on an empty square ("" = plain)


@dataclass(frozen=True)
class DrawRule:
    """The validity of a rack (FISF §3.2): the vowels, the letters that count as either (the
    Y and the blank), and the minimum of each kind before and after move `early_moves`."""

    vowels: frozenset[str]
    either: frozenset[str]
    early_moves: int
    early_minimum: int
    minimum: int


@dataclass(frozen=True)
class ScoringParams:
    """Every parameter of docs/rules.md §7."""

    letter_values: Mapping[str, int]  # "A" … "Z"
    blank_value: int
    squares: tuple[tuple[Square, ...], ...]  # rows A… × columns 1…
    bonus: int
    rack_size: int
    tiles: Mapping[str, int]  # the bag: "A" … "Z" and "?" (FISF §1.1)
    draw: DrawRule
    variant_rack_sizes: tuple[int, ...]  # racks of the variant games (FISF §3.8.2)
    source: str = "data/reference/scoring.yaml"

    @property
    def size(self) -> int:
        return len(self.squares)

    @property
    def start(self) -> tuple[int, int]:
        """(row, column) of the centre star, 0-based."""
        for r, row in enumerate(self.squares):
            for c, square in enumerate(row):
                if square.start:
                    return r, c
        raise ValueError(f"{self.source}: the board has no start square")


@dataclass(frozen=True)
class Placement:
    """Where a word goes: its first square (0-based) and its direction."""

    row: int
    col: int
    horizontal: bool

    def squares(self, length: int) -> list[tuple[int, int]]:
        if self.horizontal:
            return [(self.row, self.col + i) for i in range(length)]
        return [(self.row + i, self.col) for i in range(length)]

    @property
    def label(self) -> str:
        """The French notation: `H8` horizontal, `8H` vertical."""
        return position_label(self.row, self.col, self.horizontal)


@dataclass(frozen=True)
class WordScore:
    """One word formed by a move: as it stands on the board (blanks in lower case)."""

    word: str
    position: str  # French notation of its first square and direction
    score: int


@dataclass(frozen=True)
class MoveReplay:
    """One move replayed: the words it formed and their scores, and what is wrong with it."""

    move: int | None
    rack: str | None
    word: str | None
    position: str | None
    stated_score: int | None
    words: tuple[WordScore, ...]
    bonus: int
    computed_score: int | None  # None: the move could not be placed
    problems: tuple[str, ...]  # placement rules broken (status `illegal`)
    notes: tuple[str, ...] = ()  # what could not be checked (status unaffected)

    @property
    def placed(self) -> bool:
        return self.computed_score is not None

    @property
    def score_problem(self) -> str | None:
        """The stated score against the computed one, when both are known and differ."""
        if self.computed_score is None or self.stated_score is None:
            return None
        if self.stated_score == self.computed_score:
            return None
        gap = self.stated_score - self.computed_score
        return (
            f"score annoncé {self.stated_score}, score calculé {self.computed_score} "
            f"(écart {gap:+d})"
        )

    @property
    def status(self) -> str:
        if self.problems or self.computed_score is None:
            return STATUS_ILLEGAL
        if self.stated_score is None:
            return STATUS_SCORE_MISSING
        if self.stated_score != self.computed_score:
            return STATUS_SCORE_DIFFERS
        return STATUS_OK

    @property
    def breakdown(self) -> str | None:
        """`FACADES 25 + CHANTEZ 21 + 50 (scrabble) = 96`; None when not scored."""
        if self.computed_score is None:
            return None
        parts = [f"{w.word} {w.score}" for w in self.words]
        if self.bonus:
            parts.append(f"{self.bonus} (scrabble)")
        return f"{' + '.join(parts)} = {self.computed_score}"

    @property
    def message(self) -> str:
        """Everything an arbiter needs to read about the move, most serious first."""
        parts = list(self.problems)
        if self.score_problem:
            parts.append(self.score_problem)
        if self.stated_score is None and self.computed_score is not None:
            parts.append("score non indiqué sur la feuille")
        parts.extend(self.notes)
        if self.breakdown:
            parts.append(f"décompte : {self.breakdown}" if parts else self.breakdown)
        return " ; ".join(parts)


class Board:
    """The tiles on the board: a letter per square (`""` when empty) and the blanks."""

    def __init__(self, size: int = 15) -> None:
        self.letters = np.full((size, size), "", dtype="<U1")
        self.blanks = np.zeros((size, size), dtype=bool)
        self.tiles = 0

    @property
    def size(self) -> int:
        return int(self.letters.shape[0])

    def is_empty(self) -> bool:
        return self.tiles == 0

    def occupied(self, row: int, col: int) -> bool:
        return 0 <= row < self.size and 0 <= col < self.size and self.letters[row, col] != ""

    def put(self, row: int, col: int, letter: str, blank: bool = False) -> None:
        """Place one tile (upper-case letter) on an empty square."""
        if self.letters[row, col] != "":
            raise ValueError(f"square {square_label(row, col)} is already occupied")
        self.letters[row, col] = letter
        self.blanks[row, col] = blank
        self.tiles += 1

    def tile(self, row: int, col: int) -> str:
        """The tile on a square as written: upper case, lower case for a blank, `""` empty."""
        letter = str(self.letters[row, col])
        return letter.lower() if self.blanks[row, col] else letter

    def copy(self) -> Board:
        """An independent copy (to try a move without changing this board)."""
        other = Board(self.size)
        other.letters = self.letters.copy()
        other.blanks = self.blanks.copy()
        other.tiles = self.tiles
        return other


@dataclass(frozen=True)
class GameReplay:
    """One game of a sheet replayed: its moves in order and the final board."""

    tournament_id: str | None
    game: int | None
    moves: tuple[MoveReplay, ...]
    board: Board

    @property
    def computed_total(self) -> int | None:
        """Sum of the computed tops; None when a move could not be scored."""
        scores = [m.computed_score for m in self.moves]
        if any(s is None for s in scores):
            return None
        return sum(s for s in scores if s is not None)


# ---------------------------------------------------------------------------- notation


def square_label(row: int, col: int) -> str:
    """A square's name: `H8` (row letter, column number)."""
    return f"{ROW_LABELS[row]}{col + 1}"


def position_label(row: int, col: int, horizontal: bool) -> str:
    """French notation of a word's start: `H8` horizontal, `8H` vertical."""
    return f"{ROW_LABELS[row]}{col + 1}" if horizontal else f"{col + 1}{ROW_LABELS[row]}"


def _board_bounds(size: int) -> str:
    return f"lignes A à {ROW_LABELS[size - 1]}, colonnes 1 à {size}"


def parse_position(text: str | None, size: int = 15) -> Placement:
    """`H8` (horizontal from row H, column 8) or `8H` (vertical from column 8, row H).

    Raises `ValueError` with the arbiter's message when unreadable or off the board.
    """
    raw = "" if text is None else str(text)
    cleaned = re.sub(r"\s+", "", raw).upper()
    if not cleaned:
        raise ValueError("position non indiquée")
    found = _POSITION.match(cleaned)
    if not found:
        raise ValueError(
            f"position « {raw.strip()} » illisible : une lettre puis un nombre pour un mot "
            "horizontal (H8), un nombre puis une lettre pour un mot vertical (8H)"
        )
    if found.group(1):
        row_letter, number, horizontal = found.group(1), int(found.group(2)), True
    else:
        row_letter, number, horizontal = found.group(4), int(found.group(3)), False
    row = ROW_LABELS.index(row_letter)
    if row >= size or not 1 <= number <= size:
        raise ValueError(f"position {cleaned} hors de la grille ({_board_bounds(size)})")
    return Placement(row=row, col=number - 1, horizontal=horizontal)


def _base_letters(text: str) -> str:
    """`text` without accents or cedilla (NFD, combining marks dropped)."""
    if text.isascii():  # nothing to decompose (most racks and words)
        return text
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def parse_word(word: str | None) -> tuple[tuple[str, bool], ...]:
    """The tiles of a written word: (upper-case base letter, is a blank) per letter. A blank
    is a lower-case letter (`ChACUNE`) or a letter in parentheses (`C(H)ACUNE`).

    Raises `ValueError` with the arbiter's message when the word cannot be read.
    """
    raw = "" if word is None else str(word).strip()
    if not raw:
        raise ValueError("mot non indiqué")
    tiles: list[tuple[str, bool]] = []
    text = _base_letters(raw)
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "(":  # the blank as sheets print it: C(H)ACUNE (FISF §4.2's circled letter)
            circled = text[i + 1 : i + 3]
            if len(circled) < 2 or not circled[0].isascii() or not circled[0].isalpha():
                raise ValueError(
                    f"mot « {raw} » : après « ( », la lettre du joker puis « ) » "
                    "(C(H)ACUNE, une lettre par parenthèse)"
                )
            if circled[1] != ")":
                raise ValueError(
                    f"mot « {raw} » : une seule lettre entre parenthèses, celle du joker "
                    "(C(H)ACUNE)"
                )
            tiles.append((circled[0].upper(), True))
            i += 3
            continue
        if "A" <= ch <= "Z":
            tiles.append((ch, False))
        elif "a" <= ch <= "z":
            tiles.append((ch.upper(), True))
        else:
            raise ValueError(f"mot « {raw} » : « {ch} » n'est pas une lettre")
        i += 1
    if len(tiles) < 2:
        raise ValueError(f"mot « {raw} » : un mot compte au moins 2 lettres")
    return tuple(tiles)


def parse_rack(rack: str | None) -> Counter[str]:
    """The tiles of a rack: letters (upper case) and `?` for blanks, `+`/`-`/spaces dropped.

    Raises `ValueError` with the arbiter's message when a character is neither.
    """
    raw = "" if rack is None else str(rack).strip()
    tiles: Counter[str] = Counter()
    for ch in _base_letters(raw).upper():
        if "A" <= ch <= "Z" or ch == "?":
            tiles[ch] += 1
        elif ch in "+- ":
            continue
        else:
            raise ValueError(f"tirage « {raw} » : « {ch} » n'est ni une lettre, ni ?, ni + ou -")
    return tiles


# ---------------------------------------------------------------------------- scoring


def _word_score(
    board: Board,
    params: ScoringParams,
    squares: Sequence[tuple[int, int]],
    new: set[tuple[int, int]],
) -> int:
    """Value of a word on the board: premiums only under the tiles in `new`."""
    total = 0
    factor = 1
    for r, c in squares:
        value = (
            params.blank_value if board.blanks[r, c] else params.letter_values[board.letters[r, c]]
        )
        if (r, c) in new:
            square = params.squares[r][c]
            value *= square.letter
            factor *= square.word
        total += value
    return total * factor


def _run(board: Board, row: int, col: int, horizontal: bool) -> list[tuple[int, int]]:
    """The squares of the word through (row, col) in one direction (occupied squares)."""
    dr, dc = (0, 1) if horizontal else (1, 0)
    r, c = row, col
    while board.occupied(r - dr, c - dc):
        r, c = r - dr, c - dc
    squares = []
    while board.occupied(r, c):
        squares.append((r, c))
        r, c = r + dr, c + dc
    return squares


def _word_text(board: Board, squares: Sequence[tuple[int, int]]) -> str:
    return "".join(board.tile(r, c) for r, c in squares)


def _rack_problem(rack: str, available: Counter[str], needed: Counter[str]) -> str | None:
    missing = needed - available
    if not missing:
        return None
    items = []
    for letter in sorted(k for k in missing if k != "?"):
        items.append(letter if missing[letter] == 1 else f"{letter} ×{missing[letter]}")
    if missing["?"]:
        items.append("un joker (?)" if missing["?"] == 1 else f"{missing['?']} jokers (?)")
    return f"lettres posées absentes du tirage {rack} : {', '.join(items)}"


# ---------------------------------------------------------------------------- FISF rules


def rack_redrawn(rack: str | None) -> bool:
    """Whether the rack is written as drawn after a rejet (FISF §3.2): `-` in front, every
    letter of the previous rack returned to the bag and seven drawn anew (`-AEINRST`)."""
    return str(rack or "").strip().startswith("-")


def _redraw_problem(rack: str) -> str | None:
    """A rack marked redrawn (`-` in front) that still writes kept letters (`+`)."""
    text = rack.strip()
    if text.startswith("-") and "+" in text:
        return (
            f"tirage {text} : un tirage rejeté (- en tête) ne garde aucune lettre, il ne "
            "peut pas écrire de reliquat avec +"
        )
    return None


def _rack_parts(rack: str) -> tuple[str, str] | None:
    """(kept, drawn) of a rack written `KEPT+DRAWN` (or `KEPT-DRAWN`, today's files); None
    when it writes no reliquat (no separator, or `-` in front: redrawn)."""
    text = rack.strip()
    if text.startswith("-"):
        return None
    for i, ch in enumerate(text):
        if ch in "+-":
            return text[:i], text[i + 1 :]
    return None


def _letters(tiles: Counter[str]) -> str:
    """Tiles as arbiters write them: letters in order, blanks (`?`) last."""
    return "".join(sorted(tiles.elements(), key=lambda t: (t == "?", t)))


def reliquat_problem(rack: str, kept: Counter[str]) -> str | None:
    """The rack of a move against the reliquat `kept` the move before left (its rack minus
    the tiles it placed): the kept letters stay on the rack (FISF §3.1: the arbiter draws
    « le nombre de lettres nécessaires pour compléter le tirage ») unless every letter went
    back to the bag, which the sheet marks with `-` in front (§3.2)."""
    text = rack.strip()
    if rack_redrawn(text):
        return None
    try:
        tiles = parse_rack(text)
        parts = _rack_parts(text)
        written = parse_rack(parts[0]) if parts else None
    except ValueError:
        return None
    if written is not None and written != kept:
        return (
            f"tirage {text} : le reliquat écrit ({_letters(written) or 'aucun'}) n'est pas "
            f"celui que laisse le coup précédent ({_letters(kept) or 'aucun'}) (FISF §3.1)"
        )
    missing = kept - tiles
    if written is None and missing:
        return (
            f"tirage {text} : il n'a pas tout le reliquat du coup précédent "
            f"({_letters(kept)} ; manque {_letters(missing)}) et n'est pas noté rejeté (- en "
            "tête, FISF §3.1, §3.2)"
        )
    return None


def tiles_left(board: Board, params: ScoringParams) -> Counter[str]:
    """The tiles not on the board (the bag and the rack together: the « reliquat » of FISF
    §3.2 and §3.7): the bag of `params.tiles` minus the tiles placed (a blank as `?`)."""
    # the board's squares counted at once (NumPy), not one by one: twice per move
    on_board = board.letters != ""
    placed: Counter[str] = Counter(board.letters[on_board & ~board.blanks].tolist())
    placed["?"] += int(np.count_nonzero(on_board & board.blanks))
    return Counter({k: n - placed[k] for k, n in params.tiles.items() if n > placed[k]})


def _kinds(tiles: Counter[str], rule: DrawRule) -> tuple[int, int, int]:
    """(vowels, consonants, either) among `tiles`."""
    vowels = sum(n for k, n in tiles.items() if k in rule.vowels)
    either = sum(n for k, n in tiles.items() if k in rule.either)
    return vowels, sum(tiles.values()) - vowels - either, either


def _meets(tiles: Counter[str], minimum: int, rule: DrawRule) -> bool:
    """At least `minimum` vowels and `minimum` consonants, each Y or blank counted as the
    kind that helps (FISF §3.2: « à son gré »)."""
    vowels, consonants, either = _kinds(tiles, rule)
    return max(0, minimum - vowels) + max(0, minimum - consonants) <= either


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n > 1 else ''}"


def draw_problem(
    rack: str | None, move: int | None, left: Counter[str], params: ScoringParams
) -> str | None:
    """What breaks the validity of the rack of move `move` (FISF §3.2), given the tiles
    `left` off the board before it; None when the rack is valid or cannot be judged (no
    rack, an unreadable one, no move number).

    The minimum is `early_minimum` vowels and consonants up to move `early_moves`, if the
    letters left allow it, then `minimum`; when the letters left allow not even `minimum`,
    the game should have ended before the move (FISF §3.2, §3.7)."""
    rule = params.draw
    if move is None:
        return None
    if not _meets(left, rule.minimum, rule):
        count = sum(left.values())
        letters = "".join(sorted(left.elements()))
        remain = (
            "il ne reste aucune lettre"
            if count == 0
            else f"il ne reste qu'une lettre ({letters})"
            if count == 1
            else f"les {count} lettres restantes ({letters}) ne permettent plus"
        )
        if count < 2:
            remain += ", pas de quoi faire"
        return (
            f"la partie aurait dû s'arrêter avant ce coup (FISF §3.2, §3.7) : {remain} un "
            f"tirage d'au moins {_plural(rule.minimum, 'voyelle')} et "
            f"{_plural(rule.minimum, 'consonne')}"
        )
    text = str(rack or "").strip()
    if not text:
        return None
    try:
        tiles = parse_rack(text)
    except ValueError:
        return None
    early = move <= rule.early_moves
    minimum = rule.minimum
    if early and _meets(left, rule.early_minimum, rule):
        minimum = rule.early_minimum
    if _meets(tiles, minimum, rule):
        return None
    vowels, consonants, either = _kinds(tiles, rule)
    if not early:
        when = f"à partir du coup {rule.early_moves + 1}"
    elif minimum == rule.early_minimum:
        when = f"jusqu'au coup {rule.early_moves}"
    else:
        when = (
            f"au coup {move}, les lettres restantes ne permettant plus "
            f"{rule.early_minimum} voyelles et {rule.early_minimum} consonnes"
        )
    counted = f"{_plural(vowels, 'voyelle')} et {_plural(consonants, 'consonne')}"
    if either:
        counted += f", plus {either} Y ou joker(s) comptés au choix"
    redrawn = (
        "le tirage est noté rejeté (-), mais le nouveau tirage devait la respecter"
        if rack_redrawn(text)
        else "aucun rejet n'est noté (-) : le juge-arbitre devait rejeter ce tirage"
    )
    return (
        f"tirage {text} non valide (FISF §3.2) : {when}, il faut au moins "
        f"{_plural(minimum, 'voyelle')} et {_plural(minimum, 'consonne')} ; il compte "
        f"{counted} ; {redrawn}"
    )


def first_move_direction_problem(placement: Placement) -> str | None:
    """The first move is placed horizontally (FISF §3.4)."""
    if placement.horizontal:
        return None
    return (
        f"premier coup vertical ({placement.label}) : au premier coup, le mot est "
        "impérativement placé horizontalement (FISF §3.4)"
    )


def replay_move(
    board: Board,
    params: ScoringParams,
    *,
    word: str | None,
    position: str | None,
    rack: str | None = None,
    stated_score: int | None = None,
    move: int | None = None,
) -> MoveReplay:
    """Check and score one move against `board`, and place its new tiles there.

    A move that cannot be placed leaves `board` unchanged (`computed_score` None).
    """
    problems: list[str] = []
    notes: list[str] = []

    def refused(*reasons: str) -> MoveReplay:
        return MoveReplay(move, rack, word, position, stated_score, (), 0, None, reasons)

    try:
        placement = parse_position(position, board.size)
        tiles = parse_word(word)
    except ValueError as err:
        return refused(str(err))
    written = str(word).strip()
    where = placement.label
    squares = placement.squares(len(tiles))
    last_r, last_c = squares[-1]
    beyond = max(last_r, last_c) - (board.size - 1)
    if beyond > 0:
        edge = (
            f"colonne {board.size}"
            if placement.horizontal
            else f"ligne {ROW_LABELS[board.size - 1]}"
        )
        return refused(
            f"le mot {written} ({len(tiles)} lettres) en {where} sort de la grille : "
            f"il dépasse la {edge} de {beyond} case{'s' if beyond > 1 else ''}"
        )

    dr, dc = (0, 1) if placement.horizontal else (1, 0)
    refusals = []
    for r, c in ((placement.row - dr, placement.col - dc), (last_r + dr, last_c + dc)):
        if board.occupied(r, c):
            refusals.append(
                f"la case {square_label(r, c)} porte déjà un {board.letters[r, c]} : le mot "
                "écrit doit être le mot entier, lettres déjà posées comprises"
            )
    new: list[tuple[int, int, str, bool]] = []
    for (r, c), (letter, blank) in zip(squares, tiles, strict=True):
        on_board = str(board.letters[r, c])
        if not on_board:
            new.append((r, c, letter, blank))
        elif on_board != letter:
            refusals.append(
                f"la case {square_label(r, c)} porte un {on_board}, "
                f"le mot {written} y met un {letter}"
            )
    if not refusals and not new:
        refusals.append(f"le mot {written} en {where} ne pose aucune lettre nouvelle")
    if refusals:
        return refused(*refusals)

    if board.is_empty():
        start = params.start
        if start not in squares:
            problems.append(
                f"premier coup : le mot doit passer par la case centrale {square_label(*start)}"
            )
    else:
        touches = len(new) < len(tiles) or any(
            board.occupied(r - dc, c - dr) or board.occupied(r + dc, c + dr) for r, c, _, _ in new
        )
        if not touches:
            problems.append(f"le mot {written} en {where} ne touche aucune lettre déjà posée")

    if rack is None or not str(rack).strip():
        notes.append("tirage non indiqué : les lettres posées n'ont pas été vérifiées")
    else:
        rack_text = str(rack).strip()
        try:
            available = parse_rack(rack_text)
        except ValueError as err:
            problems.append(str(err))
        else:
            count = sum(available.values())
            if count > params.rack_size:
                problems.append(
                    f"le tirage {rack_text} compte {count} lettres, plus que les "
                    f"{params.rack_size} d'un chevalet"
                )
            needed = Counter("?" if blank else letter for _, _, letter, blank in new)
            missing = _rack_problem(rack_text, available, needed)
            if missing:
                problems.append(missing)

    for r, c, letter, blank in new:
        board.put(r, c, letter, blank)
    new_squares = {(r, c) for r, c, _, _ in new}
    words = [
        WordScore(
            _word_text(board, squares), where, _word_score(board, params, squares, new_squares)
        )
    ]
    for r, c, _, _ in new:
        cross = _run(board, r, c, not placement.horizontal)
        if len(cross) >= 2:
            r0, c0 = cross[0]
            words.append(
                WordScore(
                    _word_text(board, cross),
                    position_label(r0, c0, not placement.horizontal),
                    _word_score(board, params, cross, new_squares),
                )
            )
    bonus = params.bonus if len(new) == params.rack_size else 0
    total = sum(w.score for w in words) + bonus
    return MoveReplay(
        move,
        rack,
        word,
        position,
        stated_score,
        tuple(words),
        bonus,
        total,
        tuple(problems),
        tuple(notes),
    )


# ---------------------------------------------------------------------------- games


def _sheet_rows(sheet: pl.DataFrame) -> pl.DataFrame:
    """The sheet's columns of `SHEET_SCHEMA` (`tournament_id`, `rack` and `score` null when
    absent), typed and in game order."""
    missing = [c for c in _REQUIRED_COLUMNS if c not in sheet.columns]
    if missing:
        raise GameSheetError(f"feuille de partie : colonne(s) manquante(s) {', '.join(missing)}")
    frame = sheet.select(
        (pl.col(c) if c in sheet.columns else pl.lit(None)).cast(t).alias(c)
        for c, t in SHEET_SCHEMA.items()
    )
    for column, name in (("game", "manche"), ("move", "coup")):
        if frame[column].null_count():
            raise GameSheetError(f"feuille de partie : une ligne n'a pas de numéro de {name}")
    twice = (
        frame.group_by("tournament_id", "game", "move")
        .len()
        .filter(pl.col("len") > 1)
        .sort("tournament_id", "game", "move", nulls_last=True)
    )
    if twice.height:
        tid, game, move, _ = twice.row(0)
        where = f" du tournoi {tid}" if tid is not None else ""
        raise GameSheetError(
            f"feuille de partie : le coup {move} de la manche {game}{where} figure plusieurs fois"
        )
    return frame.sort("tournament_id", "game", "move", nulls_last=True)


def replay_game(rows: Iterable[Mapping[str, Any]], params: ScoringParams) -> GameReplay:
    """Replay the moves of one game, in the order given, on an empty board.

    Each row has `word`, `position` and optionally `rack`, `score`, `move`,
    `tournament_id`, `game` (the first row's tournament and game name the replay).
    """
    board = Board(params.size)
    moves = []
    tournament_id: str | None = None
    game: int | None = None
    expected = 1  # the move number that should come next
    kept: Counter[str] | None = None  # the reliquat the move before left, when known
    for i, row in enumerate(rows):
        if i == 0:
            tournament_id, game = row.get("tournament_id"), row.get("game")
        first, left = board.is_empty(), tiles_left(board, params)
        if kept is not None and row.get("move") != expected:
            kept = None  # moves missing in between: the reliquat is not known
        replayed = replay_move(
            board,
            params,
            word=row.get("word"),
            position=row.get("position"),
            rack=row.get("rack"),
            stated_score=row.get("score"),
            move=row.get("move"),
        )
        fisf = _fisf_problems(replayed, first, left, params)
        rack = str(replayed.rack or "").strip()
        reliquat = reliquat_problem(rack, kept) if kept is not None and rack else None
        if reliquat:
            fisf.insert(0, reliquat)
        if fisf:
            replayed = replace(replayed, problems=(*replayed.problems, *fisf))
        kept = _kept(rack, left - tiles_left(board, params)) if replayed.placed else None
        number = row.get("move")
        if isinstance(number, int):
            if number > expected:
                replayed = replace(replayed, notes=(_gap_note(expected, number), *replayed.notes))
            expected = number + 1
        moves.append(replayed)
    return GameReplay(tournament_id, game, tuple(moves), board)


def _kept(rack: str, placed: Counter[str]) -> Counter[str] | None:
    """The reliquat a move leaves: its rack minus the tiles it placed; None when its rack is
    not written or cannot be read."""
    try:
        tiles = parse_rack(rack) if rack else None
    except ValueError:
        return None
    return None if tiles is None else tiles - placed


def _fisf_problems(
    replayed: MoveReplay, first: bool, left: Counter[str], params: ScoringParams
) -> list[str]:
    """What a move of a game breaks of the FISF's duplicate rules (docs/rules.md §7): the
    first move placed horizontally (§3.4), the rack's notation and its validity (§3.2)."""
    problems = []
    if first and replayed.placed:
        direction = first_move_direction_problem(parse_position(replayed.position, params.size))
        if direction:
            problems.append(direction)
    rack = str(replayed.rack or "").strip()
    notation = _redraw_problem(rack) if rack else None
    if notation:
        problems.append(notation)
    move = replayed.move if isinstance(replayed.move, int) else None
    drawn = draw_problem(rack, move, left, params)
    if drawn:
        problems.append(drawn)
    return problems


def _gap_note(first: int, following: int) -> str:
    """The note on a move that follows missing move numbers (`first` … `following - 1`)."""
    if following - first == 1:
        return f"le coup {first} manque sur la feuille : la partie est rejouée sans lui"
    return (
        f"les coups {first} à {following - 1} manquent sur la feuille : la partie est "
        "rejouée sans eux"
    )


def replay_games(
    sheet: pl.DataFrame, params: ScoringParams, game: int | None = None
) -> list[GameReplay]:
    """Replay every game of a game sheet (or only game number `game` of each tournament),
    by tournament and game, each on its own board."""
    frame = _sheet_rows(sheet)
    if game is not None:
        frame = frame.filter(pl.col("game") == game)
    rows = frame.iter_rows(named=True)
    return [
        replay_game(group, params)
        for _, group in groupby(rows, key=lambda row: (row["tournament_id"], row["game"]))
    ]


def _total_row(
    tournament_id: str | None,
    games: Sequence[GameReplay],
    top_total: int,
    stated_games: int | None,
) -> dict[str, Any]:
    per_game = [(g.game, g.computed_total) for g in games]
    detail = ", ".join(f"manche {n} : {'non calculée' if t is None else t}" for n, t in per_game)
    row: dict[str, Any] = {
        "tournament_id": tournament_id,
        "game": None,
        "move": None,
        "word": None,
        "position": None,
        "stated_score": top_total,
        "computed_score": None,
    }
    unscored = [
        f"manche {g.game} coup {m.move}" for g in games for m in g.moves if m.computed_score is None
    ]
    if stated_games is not None and stated_games != len(games):
        row["status"] = STATUS_TOP_TOTAL_UNCHECKED
        row["message"] = (
            f"top total non vérifié : la feuille de partie contient {len(games)} manche(s), "
            f"le tournoi en compte {stated_games}"
        )
        return row
    if unscored:
        row["status"] = STATUS_TOP_TOTAL_UNCHECKED
        row["message"] = f"top total non vérifié : coup(s) non calculé(s) ({', '.join(unscored)})"
        return row
    computed = sum(t for _, t in per_game if t is not None)
    row["computed_score"] = computed
    if computed == top_total:
        row["status"] = STATUS_TOP_TOTAL_OK
        row["message"] = f"somme des tops calculés {computed} = top total annoncé ({detail})"
    else:
        row["status"] = STATUS_TOP_TOTAL_DIFFERS
        row["message"] = (
            f"somme des tops calculés {computed} ≠ top total annoncé {top_total} "
            f"(écart {top_total - computed:+d} ; {detail})"
        )
    return row


def audit_game_sheets(
    sheet: pl.DataFrame,
    tournaments: pl.DataFrame | None,
    params: ScoringParams,
    season: str | None = None,
) -> pl.DataFrame:
    """The `game_sheet_audit` table of a game sheet.

    `sheet` holds the game-sheet rows (`tournament_id, game, move, rack, word, position,
    score`); `tournaments` the tournaments' `tournament_id, top_total` and optionally
    `games` (the `tournaments` table will do). One row per move, then one row per
    tournament whose `top_total` is stated; every row carries `season` (the partition the
    sheet's tournaments belong to, when given).
    """
    replays = replay_games(sheet, params)
    rows: list[dict[str, Any]] = []
    for replay in replays:
        for m in replay.moves:
            rows.append(
                {
                    "tournament_id": replay.tournament_id,
                    "game": replay.game,
                    "move": m.move,
                    "word": m.word,
                    "position": m.position,
                    "stated_score": m.stated_score,
                    "computed_score": m.computed_score,
                    "status": m.status,
                    "message": m.message,
                }
            )
    if tournaments is not None and tournaments.height:
        stated = tournaments.select(
            pl.col("tournament_id").cast(pl.String),
            pl.col("top_total").cast(pl.Int64),
            (pl.col("games") if "games" in tournaments.columns else pl.lit(None))
            .cast(pl.Int64)
            .alias("games"),
        ).filter(pl.col("top_total").is_not_null())
        by_tournament: dict[str | None, list[GameReplay]] = {}
        for replay in replays:
            by_tournament.setdefault(replay.tournament_id, []).append(replay)
        for tid, top_total, games in stated.unique("tournament_id", keep="first").iter_rows():
            if tid in by_tournament:
                rows.append(_total_row(tid, by_tournament[tid], top_total, games))
    frame = pl.DataFrame(
        [{"season": season, **row} for row in rows], schema=GAME_SHEET_AUDIT.schema
    )
    return GAME_SHEET_AUDIT.check(
        frame.sort("tournament_id", "game", "move", nulls_last=True, maintain_order=True)
    )


# ---------------------------------------------------------------------------- text


def render_board(board: Board, params: ScoringParams, premiums: bool = True) -> str:
    """The board drawn in text: column numbers on top, row letters on the left, a tile as
    its letter (a blank in lower case), an empty premium square as its token in the
    reference layout (`MT`, `LD`…, the centre star `*`) and any other empty square as `.`.
    """
    size = board.size
    lines = ["  " + "".join(f"{c:>3}" for c in range(1, size + 1))]
    for r in range(size):
        cells = []
        for c in range(size):
            tile = board.tile(r, c)
            if tile:
                cells.append(tile)
                continue
            square = params.squares[r][c]
            mark = square.mark if premiums else ""
            cells.append("*" if premiums and square.start else (mark or "."))
        lines.append(f"{ROW_LABELS[r]} " + "".join(f"{cell:>3}" for cell in cells))
    return "\n".join(lines) + "\n"


def format_move(move: MoveReplay) -> str:
    """One replayed move in text: number, word, position, rack, the words it forms with their
    scores and the total; then one line per problem (`!`) or note (`·`)."""
    number = f"{move.move}." if move.move is not None else "-"
    rack = f", tirage {str(move.rack).strip()}" if move.rack and str(move.rack).strip() else ""
    word = str(move.word).strip() if move.word else "?"
    position = str(move.position).strip() if move.position else "?"
    scored = move.breakdown or "non calculé"
    lines = [f"{number} {word} en {position}{rack} : {scored}"]
    problems = list(move.problems)
    if move.score_problem:
        problems.append(move.score_problem)
    lines += [f"   ! {p}" for p in problems]
    lines += [f"   · {n}" for n in move.notes]
    return "\n".join(lines)


def format_game(replay: GameReplay, params: ScoringParams, premiums: bool = True) -> str:
    """A replayed game in text: a heading, each move (`format_move`), the total of the
    computed tops and the final board (`render_board`)."""
    heading = []
    if replay.tournament_id is not None:
        heading.append(f"Tournoi {replay.tournament_id}")
    if replay.game is not None:
        heading.append(f"manche {replay.game}")
    lines = [" — ".join(heading) or "Partie", ""]
    lines += [format_move(m) for m in replay.moves]
    total = replay.computed_total
    lines += [
        "",
        "Total des tops calculés : "
        + ("non calculé (un coup n'a pas pu être placé)" if total is None else str(total)),
        "",
    ]
    return "\n".join(lines) + "\n" + render_board(replay.board, params, premiums)
