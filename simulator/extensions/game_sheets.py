"""Game sheets (docs/rules.md §7): the master games of some duplicate tournaments of each season.

For `SHEETS_PER_SEASON` duplicate tournaments of a season (drawn at random), each of its
games is played on a board from a French bag of tiles: the rack is refilled from the bag
after every move, as in duplicate (`kept+drawn`), and each move is a legal placement —
whole word, letters in place respected, the first move on the star, later ones touching
the tiles in place, tiles from the rack — of a word of the simulator's French word list
(`simulator/data/mots_fr.txt`, MIT licence, its source and derivation in
`mots_fr.LICENCE.txt`), every cross word it makes a word of the list too. The move played
is the best-scoring of the legal moves a random search finds (`_placements`: the top, as
far as it saw); a rack that makes no word goes back to the bag for a new one. Every move
is scored by the project's scorer (`transforms.scoring`). A game ends when its tops reach
its share of the tournament's simulated `top_total` or its tiles run out. The sum of the
computed tops becomes the tournament's `top_total` (the extension runs before the
tournaments are written), and its players' scores are scaled by the same ratio (their
places do not change), so that every score stays below the top. The sheet is written
beside the results as `<season>/<tournament_id>_game_sheet.csv` (UTF-8, canonical header).

The first sheet of the first season has a deliberate misstatement, so that the audit has
something to show: on one move of its first game, the score written on the sheet has its
two digits swapped (74 written 47), as an arbiter copying the sheet might; the
results' `top_total` is still the sum of the computed tops, so the audit reports the move
(`score_differs`) and the tournament's total as conforming.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from pipelines.ingest.kinds.game_sheets import SHEET_COLUMNS
from pipelines.reference.scoring import load_scoring_params
from simulator.extensions import SeasonContext
from simulator.tournament import Tournament
from transforms.ranking import competition_ranks
from transforms.scoring import (
    STATUS_OK,
    STATUS_SCORE_MISSING,
    Board,
    ScoringParams,
    position_label,
    replay_move,
)

ORDER = 70
REFERENCE_DIR = Path(__file__).resolve().parents[2] / "data" / "reference"

SHEETS_PER_SEASON = 2
REDRAWS = 5  # new racks drawn, at most, when a rack makes no word of the list
# The French bag: 102 tiles, `?` for the two blanks.
BAG = (
    "A" * 9 + "B" * 2 + "C" * 2 + "D" * 3 + "E" * 15 + "F" * 2 + "G" * 2 + "H" * 2 + "I" * 8
    + "J" + "K" + "L" * 5 + "M" * 3 + "N" * 6 + "O" * 6 + "P" * 2 + "Q" + "R" * 6 + "S" * 6
    + "T" * 6 + "U" * 6 + "V" * 2 + "W" + "X" + "Y" + "Z" + "?" * 2
)  # fmt: skip


@dataclass(frozen=True)
class SheetMove:
    """One move of a master game, as the sheet writes it."""

    move: int
    rack: str
    word: str
    position: str
    score: int  # computed by the scorer
    tiles: tuple[int, ...]  # indices of the rack's tiles it places


def _step(horizontal: bool) -> tuple[int, int]:
    return (0, 1) if horizontal else (1, 0)


# ---------------------------------------------------------------------------- words

WORDS = Path(__file__).resolve().parents[1] / "data" / "mots_fr.txt"
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
PLACEMENTS = 60  # legal moves gathered per move, the best of which is played
ANCHORS = 24  # tiles in place a move is searched through, at most
WORDS_PER_ANCHOR = 30  # words tried through each


@dataclass(frozen=True)
class Lexicon:
    """The word list: its words, the set for look-ups, each word's letter counts (one
    contiguous row per letter A–Z, one column per word: what a rack is compared with, letter
    by letter, in `lacking`) and each word's number of letters."""

    words: tuple[str, ...]
    known: frozenset[str]
    columns: np.ndarray
    lengths: np.ndarray

    def lacking(self, have: np.ndarray) -> np.ndarray:
        """Per word, how many of its letters a rack holding `have` (count per letter)
        lacks, each letter counted as often as the word writes it: its length less, for
        each letter of the rack, what the rack gives of it (the other letters are all
        lacking)."""
        given = np.zeros(len(self.words), dtype=np.int64)
        for column in np.flatnonzero(have).tolist():
            given += np.minimum(self.columns[column], have[column])
        return self.lengths - given


@cache
def lexicon(path: Path = WORDS) -> Lexicon:
    """The simulator's French word list (`simulator/data/mots_fr.txt`, its licence beside
    it), read once."""
    words = tuple(w for w in path.read_text(encoding="ascii").split() if w)
    columns = np.zeros((len(ALPHABET), len(words)), dtype=np.int16)
    for k, word in enumerate(words):
        for letter in word:
            columns[ord(letter) - ord("A"), k] += 1
    return Lexicon(words, frozenset(words), columns, columns.sum(axis=0))


class _Grid:
    """A move's view of the board: its letters as lists (fast to read), its size, the
    start square."""

    def __init__(self, board: Board, params: ScoringParams) -> None:
        self.board = board
        self.rows: list[list[str]] = board.letters.tolist()
        self.size = board.size
        self.start = params.start
        self.empty = board.is_empty()

    def at(self, row: int, col: int) -> str:
        """The letter on a square (upper case), `""` when empty or off the board."""
        if 0 <= row < self.size and 0 <= col < self.size:
            return self.rows[row][col]
        return ""

    def cross_word(self, row: int, col: int, letter: str, horizontal: bool) -> str | None:
        """The word a new tile on (row, col) makes across the move's direction, or None
        when it touches no tile that way."""
        dr, dc = _step(not horizontal)
        before: list[str] = []
        r, c = row - dr, col - dc
        while self.at(r, c):
            before.append(self.at(r, c))
            r, c = r - dr, c - dc
        after: list[str] = []
        r, c = row + dr, col + dc
        while self.at(r, c):
            after.append(self.at(r, c))
            r, c = r + dr, c + dc
        if not before and not after:
            return None
        return "".join(reversed(before)) + letter + "".join(after)


def _placement(
    grid: _Grid,
    words: Lexicon,
    rack: list[str],
    word: str,
    start: tuple[int, int],
    horizontal: bool,
) -> tuple[str, str, tuple[int, ...]] | None:
    """`word` written from `start`: (the word as the sheet writes it, its position, the
    rack indices of the tiles it places) when it is a legal move whose every cross word is
    in the list; else None."""
    dr, dc = _step(horizontal)
    row, col = start
    end_r, end_c = row + (len(word) - 1) * dr, col + (len(word) - 1) * dc
    if row < 0 or col < 0 or end_r >= grid.size or end_c >= grid.size:
        return None
    if grid.at(row - dr, col - dc) or grid.at(end_r + dr, end_c + dc):
        return None
    free = list(range(len(rack)))
    written: list[str] = []
    tiles: list[int] = []
    touches = covers_start = False
    for k, letter in enumerate(word):
        r, c = row + k * dr, col + k * dc
        covers_start = covers_start or (r, c) == grid.start
        here = grid.rows[r][c]
        if here:
            if here != letter:
                return None
            written.append(grid.board.tile(r, c))
            touches = True
            continue
        index = next((i for i in free if rack[i] == letter), None)
        if index is None:
            index = next((i for i in free if rack[i] == "?"), None)
        if index is None:
            return None
        free.remove(index)
        tiles.append(index)
        written.append(letter if rack[index] != "?" else letter.lower())
        cross = grid.cross_word(r, c, letter, horizontal)
        if cross is not None:
            if cross not in words.known:
                return None
            touches = True
    if not tiles or not (covers_start if grid.empty else touches):
        return None
    return "".join(written), position_label(row, col, horizontal), tuple(tiles)


def _placements(
    rng: np.random.Generator,
    board: Board,
    rack: list[str],
    words: Lexicon,
    params: ScoringParams,
) -> list[tuple[str, str, tuple[int, ...]]]:
    """Up to `PLACEMENTS` legal moves with words of the list. The first move: words the
    rack makes, through the start square. Later: for up to `ANCHORS` tiles in place drawn
    at random, up to `WORDS_PER_ANCHOR` words the rack makes with that tile's letter, each
    written through it (across or down)."""
    grid = _Grid(board, params)
    have = np.zeros(len(ALPHABET), dtype=np.int16)
    for letter in rack:
        if letter != "?":
            have[ord(letter) - ord("A")] += 1
    blanks = rack.count("?")
    found: list[tuple[str, str, tuple[int, ...]]] = []
    # per word, the letters the rack lacks (each letter of the word counted as often as
    # it is written), which blanks or a tile in place must give
    missing = words.lacking(have)
    if grid.empty:
        candidates = np.flatnonzero(missing <= blanks)
        row, col = grid.start
        for k in rng.permutation(candidates.size)[: ANCHORS * WORDS_PER_ANCHOR].tolist():
            word = words.words[int(candidates[k])]
            across = bool(rng.integers(2))
            for i in rng.permutation(len(word)).tolist():
                start = (row, col - i) if across else (row - i, col)
                move = _placement(grid, words, rack, word, start, across)
                if move is not None:
                    found.append(move)
                    break
            if len(found) >= PLACEMENTS:
                break
        return found
    tiles = [(r, c, x) for r, line in enumerate(grid.rows) for c, x in enumerate(line) if x]
    # a tile in place gives one letter at most: only the words lacking at most one letter
    # more than the blanks can be written through one (in the list's order)
    near = np.flatnonzero(missing <= blanks + 1)
    near_missing = missing[near]
    for s in rng.permutation(len(tiles))[:ANCHORS].tolist():
        row, col, letter = tiles[s]
        column = ord(letter) - ord("A")
        # with the tile's letter: one letter fewer lacking when the rack lacked it (the
        # word writes it more often than the rack holds it)
        written = words.columns[column][near]
        with_tile = near_missing - (written > have[column])
        candidates = near[(with_tile <= blanks) & (written > 0)]
        for k in rng.permutation(candidates.size)[:WORDS_PER_ANCHOR].tolist():
            word = words.words[int(candidates[k])]
            across = bool(rng.integers(2))
            move = None
            for i in (i for i, x in enumerate(word) if x == letter):
                for way in (across, not across):
                    start = (row, col - i) if way else (row - i, col)
                    move = _placement(grid, words, rack, word, start, way)
                    if move is not None:
                        break
                if move is not None:
                    break
            if move is not None:
                found.append(move)
                if len(found) >= PLACEMENTS:
                    return found
    return found


def _top(
    rng: np.random.Generator, board: Board, rack: list[str], rack_text: str, params: ScoringParams
) -> tuple[str, str, tuple[int, ...], int] | None:
    """The best-scoring of the legal moves found with words of the list (`_placements`):
    the move the master game plays (the top, as far as the search saw)."""
    best: tuple[str, str, tuple[int, ...], int] | None = None
    for word, position, tiles in _placements(rng, board, rack, lexicon(), params):
        tried = replay_move(board.copy(), params, word=word, position=position, rack=rack_text)
        if tried.status != STATUS_SCORE_MISSING or tried.computed_score is None:
            continue
        if best is None or tried.computed_score > best[3]:
            best = (word, position, tiles, tried.computed_score)
    return best


def play_game(rng: np.random.Generator, params: ScoringParams, target: int) -> list[SheetMove]:
    """A master game, the top of each move played, until its tops reach `target` or the
    tiles run out. A rack that makes no word of the list goes back to the bag and a new
    one is drawn (`REDRAWS` times at most), written `-` in front as a rack drawn after a
    rejet."""
    board = Board(params.size)
    bag = [BAG[int(i)] for i in rng.permutation(len(BAG))]
    rack: list[str] = []
    moves: list[SheetMove] = []
    total = 0
    while total < target:
        kept = rack
        drawn, bag = bag[: params.rack_size - len(kept)], bag[params.rack_size - len(kept) :]
        rack = kept + drawn
        if not rack:
            break
        rack_text = "+".join(part for part in ("".join(kept), "".join(drawn)) if part)
        chosen = _top(rng, board, rack, rack_text, params)
        for _ in range(REDRAWS):
            if chosen is not None or not bag:
                break
            bag = [*bag, *rack]
            bag = [bag[int(i)] for i in rng.permutation(len(bag))]
            kept, rack, bag = [], bag[: params.rack_size], bag[params.rack_size :]
            rack_text = "-" + "".join(rack)  # drawn after a rejet (FISF §3.2 notation)
            chosen = _top(rng, board, rack, rack_text, params)
        if chosen is None:
            break
        word, position, tiles, score = chosen
        number = len(moves) + 1
        played = replay_move(
            board, params, word=word, position=position, rack=rack_text, stated_score=score
        )
        if played.status != STATUS_OK:  # the scorer and this generator disagree
            raise AssertionError(f"{word} en {position}: {played.message}")
        moves.append(SheetMove(number, rack_text, word, position, score, tiles))
        rack = [t for i, t in enumerate(rack) if i not in tiles]
        total += score
    return moves


def _rescale(tour: Tournament, old_top: int, new_top: int) -> None:
    """The tournament's `top_total` set to `new_top` and its scores scaled by the same
    ratio, each kept between 1 and the top minus 1; places recomputed (and rows reordered)
    should the rounding change them."""
    results = tour.results
    scores = np.asarray(results["score"], dtype=np.float64)
    scaled = np.clip(np.round(scores * new_top / old_top), 1, new_top - 1).astype(np.int64)
    results["top_total"] = new_top
    results["score"] = scaled.tolist()
    rank = competition_ranks(scaled)
    if rank.tolist() == results["rank"]:
        return
    results["rank"] = rank.tolist()
    licences = np.asarray([int(str(p)) for p in _values(results["player_id"])])
    order = np.lexsort((licences, rank))
    for key, value in results.items():
        if isinstance(value, list):
            results[key] = [value[i] for i in order]


def _write(path: Path, rows: list[tuple[object, ...]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(SHEET_COLUMNS)
        writer.writerows(rows)


def _whole(value: object) -> int:
    """A whole-number scalar of a tournament's results."""
    if not isinstance(value, int):
        raise TypeError(f"expected a whole number, not {value!r}")
    return value


def _values(value: object) -> list[object]:
    """A per-row column of a tournament's results."""
    if not isinstance(value, list):
        raise TypeError(f"expected a column of values, not {value!r}")
    return value


def misstated(score: int) -> int | None:
    """The score an arbiter copying it wrongly writes: its last two digits swapped (74 →
    47); None when that gives the score itself or it has one digit."""
    if score < 10:
        return None
    tens, units = divmod(score % 100, 10)
    other = score - score % 100 + 10 * units + tens
    return None if other == score else other


def extend(ctx: SeasonContext) -> None:
    rng = ctx.rng("game_sheets")
    params = load_scoring_params(REFERENCE_DIR)
    duplicate = sorted(
        (t for t in ctx.tournaments if t.discipline == "duplicate"), key=lambda t: t.tid
    )
    if not duplicate:
        return
    count = min(SHEETS_PER_SEASON, len(duplicate))
    chosen = sorted(int(i) for i in rng.choice(len(duplicate), size=count, replace=False))
    for k, index in enumerate(chosen):
        tour = duplicate[index]
        games = _whole(tour.results["games"])
        old_top = _whole(tour.results["top_total"])
        rows: list[tuple[object, ...]] = []
        total = 0
        for game in range(1, games + 1):
            share = -(-(old_top - total) // (games - game + 1))  # ceiling
            moves = play_game(rng, params, max(share, 1))
            stated = [m.score for m in moves]
            if ctx.index == 0 and k == 0 and game == 1:
                wrong = [(i, w) for i, m in enumerate(moves) if (w := misstated(m.score))]
                if wrong:
                    i, written = wrong[int(rng.integers(len(wrong)))]
                    stated[i] = written
            rows += [
                (tour.tid, game, m.move, m.rack, m.word, m.position, s)
                for m, s in zip(moves, stated, strict=True)
            ]
            total += sum(m.score for m in moves)
        _rescale(tour, old_top, total)
        path = ctx.folder / f"{tour.tid}_game_sheet.csv"
        _write(path, rows)
        ctx.wrote(path, len(rows))
