"""Game sheets (docs/rules.md §7): the master games of some duplicate tournaments of each season.

For `SHEETS_PER_SEASON` duplicate tournaments of a season (drawn at random), each of its
games is played on a board from a French bag of tiles: the rack is refilled from the bag
after every move, as in duplicate (`kept+drawn`), and each move is a legal placement —
whole word, letters in place respected, the first move on the star, later ones touching
the tiles in place, tiles from the rack — of random letters (dictionary validity is not
checked, and not claimed), chosen among `CANDIDATES` placements tried so that the game's
tops reach its share of the tournament's simulated `top_total`. Every move is scored by
the project's scorer (`transforms.scoring`). The sum of the computed tops becomes the
tournament's `top_total` (the extension runs before the tournaments are written), and its
players' scores are scaled by the same ratio (their places do not change), so that every
score stays below the top. The sheet is written beside the results as
`<season>/<tournament_id>_game_sheet.csv` (UTF-8, canonical header).

The first sheet of the first season has a deliberate misstatement, so that the audit has
something to show: on one move of its first game, the score written on the sheet has its
two digits swapped (74 written 47), as an arbiter copying the sheet might; the
results' `top_total` is still the sum of the computed tops, so the audit reports the move
(`score_differs`) and the tournament's total as conforming.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
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
CANDIDATES = 30  # placements tried per move
PLANNED_MOVES = (18, 23)  # moves a game is planned to last, low and high inclusive
SCRABBLE_TRIES = 0.35  # share of the tries that place the whole rack
# The French bag: 102 tiles, `?` for the two blanks.
BAG = (
    "A" * 9 + "B" * 2 + "C" * 2 + "D" * 3 + "E" * 15 + "F" * 2 + "G" * 2 + "H" * 2 + "I" * 8
    + "J" + "K" + "L" * 5 + "M" * 3 + "N" * 6 + "O" * 6 + "P" * 2 + "Q" + "R" * 6 + "S" * 6
    + "T" * 6 + "U" * 6 + "V" * 2 + "W" + "X" + "Y" + "Z" + "?" * 2
)  # fmt: skip
LETTERS = "".join(sorted(set(BAG) - {"?"}))


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


def _new_squares(
    board: Board, anchor: tuple[int, int], horizontal: bool, before: int, after: int
) -> list[tuple[int, int]] | None:
    """The empty squares of a placement through `anchor`: `before` empty squares before it
    and `after` after it along the line (occupied squares skipped); None when it runs off
    the board."""
    dr, dc = _step(horizontal)
    squares = [anchor]
    for sign, count in ((-1, before), (1, after)):
        r, c = anchor
        for _ in range(count):
            r, c = r + sign * dr, c + sign * dc
            while board.occupied(r, c):
                r, c = r + sign * dr, c + sign * dc
            if not (0 <= r < board.size and 0 <= c < board.size):
                return None
            squares.append((r, c))
    return sorted(squares)


def _word_run(
    board: Board, squares: list[tuple[int, int]], horizontal: bool
) -> list[tuple[int, int]]:
    """Every square of the word the new squares make: from the first new square back over
    the tiles in place before it, to the last forward over those after it."""
    dr, dc = _step(horizontal)
    r, c = squares[0]
    while board.occupied(r - dr, c - dc):
        r, c = r - dr, c - dc
    run = []
    last = squares[-1]
    while (r, c) <= last or board.occupied(r, c):
        run.append((r, c))
        r, c = r + dr, c + dc
    return run


def _anchors(board: Board) -> list[tuple[int, int]]:
    """The empty squares next to a tile (the squares a later move must use one of)."""
    out = []
    for r in range(board.size):
        for c in range(board.size):
            if board.occupied(r, c):
                continue
            if any(board.occupied(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))):
                out.append((r, c))
    return out


def _candidate(
    rng: np.random.Generator,
    board: Board,
    rack: list[str],
    anchors: list[tuple[int, int]],
    params: ScoringParams,
) -> tuple[str, str, tuple[int, ...]] | None:
    """One random placement of tiles of `rack`: (word, position, rack indices), or None."""
    horizontal = bool(rng.integers(2))
    whole = rng.random() < SCRABBLE_TRIES
    count = len(rack) if whole else int(rng.integers(1, len(rack) + 1))
    anchor = params.start if board.is_empty() else anchors[int(rng.integers(len(anchors)))]
    before = int(rng.integers(count))
    tiles = tuple(int(i) for i in rng.permutation(len(rack))[:count])
    blanks = rng.integers(len(LETTERS), size=count)
    squares = _new_squares(board, anchor, horizontal, before, count - 1 - before)
    if squares is None:
        return None
    run = _word_run(board, squares, horizontal)
    if len(run) < 2:
        return None
    placed = {
        square: (LETTERS[int(blank)].lower() if rack[i] == "?" else rack[i])
        for square, i, blank in zip(squares, tiles, blanks, strict=True)
    }
    word = "".join(placed.get(square) or board.tile(*square) for square in run)
    return word, position_label(*run[0], horizontal), tiles


def _choose(
    rng: np.random.Generator,
    board: Board,
    rack: list[str],
    rack_text: str,
    params: ScoringParams,
    wanted: float,
) -> tuple[str, str, tuple[int, ...], int] | None:
    """Among `CANDIDATES` random placements, the legal one scoring closest to `wanted`."""
    anchors = _anchors(board)
    best: tuple[float, tuple[str, str, tuple[int, ...], int]] | None = None
    for _ in range(CANDIDATES):
        found = _candidate(rng, board, rack, anchors, params)
        if found is None:
            continue
        word, position, tiles = found
        tried = replay_move(board.copy(), params, word=word, position=position, rack=rack_text)
        if tried.status != STATUS_SCORE_MISSING or tried.computed_score is None:
            continue
        gap = abs(tried.computed_score - wanted)
        if best is None or gap < best[0]:
            best = (gap, (word, position, tiles, tried.computed_score))
    return None if best is None else best[1]


def play_game(
    rng: np.random.Generator, params: ScoringParams, target: int, planned: int
) -> list[SheetMove]:
    """A master game whose tops reach `target` (unless the tiles or the placements run
    out first) in about `planned` moves."""
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
        wanted = (target - total) / max(1, planned - len(moves))
        chosen = _choose(rng, board, rack, rack_text, params, wanted)
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
            planned = int(rng.integers(PLANNED_MOVES[0], PLANNED_MOVES[1] + 1))
            moves = play_game(rng, params, max(share, 1), planned)
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
