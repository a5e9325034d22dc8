"""Loader of the move-scoring parameters (docs/rules.md §7): `scoring.yaml`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipelines.reference.files import ReferenceDataError, read_yaml, require
from transforms.scoring import ROW_LABELS, DrawRule, ScoringParams, Square

SCORING_FILE = "scoring.yaml"
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _whole(value: Any, what: str, path: Path, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ReferenceDataError(f"{path}: {what} must be a whole number >= {minimum}")
    return value


def _letter_values(raw: Any, path: Path) -> dict[str, int]:
    if not isinstance(raw, dict):
        raise ReferenceDataError(f"{path}: letter_values must map points to letters")
    values: dict[str, int] = {}
    for points, letters in raw.items():
        value = _whole(points, f"letter_values key {points!r}", path)
        for letter in str(letters).replace(" ", "").upper():
            if letter not in _LETTERS:
                raise ReferenceDataError(f"{path}: letter_values: {letter!r} is not a letter")
            if letter in values:
                raise ReferenceDataError(f"{path}: letter_values: {letter} is listed twice")
            values[letter] = value
    missing = sorted(_LETTERS - values.keys())
    if missing:
        raise ReferenceDataError(f"{path}: letter_values: no value for {', '.join(missing)}")
    return dict(sorted(values.items()))


def _legend(raw: Any, path: Path) -> dict[str, Square]:
    if not isinstance(raw, dict) or not raw:
        raise ReferenceDataError(f"{path}: premium_legend must map tokens to premiums")
    legend: dict[str, Square] = {}
    for token, spec in raw.items():
        spec = spec or {}
        unknown = set(spec) - {"letter", "word", "start"}
        if unknown:
            raise ReferenceDataError(
                f"{path}: premium_legend {token!r}: unknown key(s) {', '.join(sorted(unknown))}"
            )
        letter = _whole(spec.get("letter", 1), f"premium_legend {token!r} letter", path, 1)
        word = _whole(spec.get("word", 1), f"premium_legend {token!r} word", path, 1)
        start = bool(spec.get("start", False))
        plain = letter == 1 and word == 1 and not start
        legend[str(token)] = Square(letter, word, start, "" if plain else str(token))
    return legend


def _squares(raw: Any, legend: dict[str, Square], path: Path) -> tuple[tuple[Square, ...], ...]:
    lines = [line.split() for line in str(raw).splitlines() if line.strip()]
    size = len(lines)
    if not 2 <= size <= len(ROW_LABELS):
        raise ReferenceDataError(f"{path}: premium_squares must have 2 to 26 rows, not {size}")
    rows = []
    for i, tokens in enumerate(lines):
        if len(tokens) != size:
            raise ReferenceDataError(
                f"{path}: premium_squares row {ROW_LABELS[i]} has {len(tokens)} squares, "
                f"expected {size} (the board is square)"
            )
        unknown = sorted({t for t in tokens if t not in legend})
        if unknown:
            raise ReferenceDataError(
                f"{path}: premium_squares row {ROW_LABELS[i]}: token(s) {', '.join(unknown)} "
                "not in premium_legend"
            )
        rows.append(tuple(legend[t] for t in tokens))
    starts = sum(square.start for row in rows for square in row)
    if starts != 1:
        raise ReferenceDataError(
            f"{path}: premium_squares must have exactly one start square, not {starts}"
        )
    return tuple(rows)


def _tiles(raw: Any, path: Path) -> dict[str, int]:
    """The bag: every letter A-Z and the blank `?` with its number of tiles."""
    if not isinstance(raw, dict):
        raise ReferenceDataError(f"{path}: tiles must map each letter (and ?) to its count")
    tiles = {str(k).upper(): _whole(v, f"tiles {k!r}", path) for k, v in raw.items()}
    expected = _LETTERS | {"?"}
    unknown = sorted(set(tiles) - expected)
    if unknown:
        raise ReferenceDataError(f"{path}: tiles: {', '.join(unknown)} is not a letter nor ?")
    missing = sorted(expected - set(tiles))
    if missing:
        raise ReferenceDataError(f"{path}: tiles: no count for {', '.join(missing)}")
    return dict(sorted(tiles.items()))


def _draw_rule(raw: Any, path: Path) -> DrawRule:
    """The validity of a rack (FISF §3.2)."""
    if not isinstance(raw, dict):
        raise ReferenceDataError(f"{path}: draw_rule must be a mapping")
    vowels = frozenset(str(require(raw, "vowels", path)).upper())
    either = frozenset(str(require(raw, "either", path)).upper())
    if not vowels <= _LETTERS or not either <= _LETTERS | {"?"} or vowels & either:
        raise ReferenceDataError(
            f"{path}: draw_rule: vowels must be letters, either letters or ?, and no letter in both"
        )
    return DrawRule(
        vowels=vowels,
        either=either,
        early_moves=_whole(require(raw, "early_moves", path), "draw_rule.early_moves", path),
        early_minimum=_whole(require(raw, "early_minimum", path), "draw_rule.early_minimum", path),
        minimum=_whole(require(raw, "minimum", path), "draw_rule.minimum", path),
    )


def _sizes(raw: Any, path: Path) -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise ReferenceDataError(f"{path}: variant_rack_sizes must be a list of whole numbers")
    return tuple(sorted(_whole(v, "variant_rack_sizes", path, 1) for v in raw))


def load_scoring_params(reference_dir: Path) -> ScoringParams:
    """Every parameter of docs/rules.md §7 (scoring.yaml), validated."""
    path = Path(reference_dir) / SCORING_FILE
    data = read_yaml(path)
    return ScoringParams(
        letter_values=_letter_values(require(data, "letter_values", path), path),
        blank_value=_whole(require(data, "blank_value", path), "blank_value", path),
        squares=_squares(
            require(data, "premium_squares", path),
            _legend(require(data, "premium_legend", path), path),
            path,
        ),
        bonus=_whole(require(data, "bonus", path), "bonus", path),
        rack_size=_whole(require(data, "rack_size", path), "rack_size", path, 1),
        tiles=_tiles(require(data, "tiles", path), path),
        draw=_draw_rule(require(data, "draw_rule", path), path),
        variant_rack_sizes=_sizes(require(data, "variant_rack_sizes", path), path),
        source=str(Path("data/reference") / SCORING_FILE),
    )
