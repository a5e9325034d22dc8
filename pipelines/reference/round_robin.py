"""Loaders of the round-robin finals' parameters (docs/rules.md §5b): `round_robin.yaml`
and the tables of `data/reference/round_robin/` (the Masters pairing table, the Grand Est
qualifying points)."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from pathlib import Path
from typing import Any

import polars as pl

from pipelines.reference.files import ReferenceDataError, read_yaml, require
from transforms.round_robin.pairings import pairing_problems
from transforms.round_robin.params import (
    GrandEstParams,
    MastersParams,
    MatchPoints,
    Pairing,
    WithdrawalRule,
)

PARAMS_FILE = "round_robin.yaml"


def _whole(value: Any, what: str, path: Path, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ReferenceDataError(
            f"{path}: {what} must be a whole number >= {minimum}, got {value!r}"
        )
    return value


def _points(section: dict[str, Any], path: Path) -> MatchPoints:
    raw = require(section, "points", path)
    win, draw, loss = (
        _whole(require(raw, k, path), f"points.{k}", path) for k in ("win", "draw", "loss")
    )
    if not win > draw > loss:
        raise ReferenceDataError(
            f"{path}: points must give win > draw > loss, got {win}/{draw}/{loss}"
        )
    return MatchPoints(win=win, draw=draw, loss=loss)


def _withdrawal(section: dict[str, Any], path: Path) -> WithdrawalRule:
    raw = require(section, "withdrawal", path)
    return WithdrawalRule(
        rounds_left=_whole(require(raw, "rounds_left", path), "withdrawal.rounds_left", path),
        decided_places=_whole(
            require(raw, "decided_places", path), "withdrawal.decided_places", path, minimum=1
        ),
    )


def _circuit(section: dict[str, Any], path: Path) -> str:
    value = require(section, "circuit", path)
    if not isinstance(value, str) or not value.strip():
        raise ReferenceDataError(f"{path}: circuit must name a code of circuits.csv")
    return value.strip()


def load_final_categories(reference_dir: Path) -> tuple[str, ...]:
    """The results `category` values that make a tournament of a round-robin circuit its
    final (`round_robin.yaml` `final_categories`), lower case."""
    path = Path(reference_dir) / PARAMS_FILE
    value = require(read_yaml(path), "final_categories", path)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ReferenceDataError(f"{path}: final_categories must be a list of categories")
    return tuple(v.strip().lower() for v in value)


def _csv(path: Path, columns: dict[str, pl.DataType] | pl.Schema) -> pl.DataFrame:
    if not path.exists():
        raise ReferenceDataError(f"{path}: file not found")
    try:
        frame = pl.read_csv(path, comment_prefix="#", schema_overrides=columns)
    except (pl.exceptions.ComputeError, pl.exceptions.InvalidOperationError) as err:
        raise ReferenceDataError(f"{path}: unreadable ({err})") from None
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ReferenceDataError(f"{path}: missing columns {missing}")
    if frame.select(list(columns)).null_count().sum_horizontal().item():
        raise ReferenceDataError(f"{path}: empty value in a row")
    return frame


def load_pairings(path: Path, players: int) -> tuple[Pairing, ...]:
    """The Masters pairing table (`match, table, player_a, player_b`), checked to be a single
    round robin of `players`."""
    frame = _csv(
        path, pl.Schema({c: pl.Int64() for c in ("match", "table", "player_a", "player_b")})
    )
    pairings = tuple(
        Pairing(*row) for row in frame.select("match", "table", "player_a", "player_b").iter_rows()
    )
    problems = pairing_problems(pairings, players)
    if problems:
        raise ReferenceDataError(f"{path}: {'; '.join(problems)}")
    return pairings


def load_qualifying_points(path: Path) -> tuple[Fraction, ...]:
    """Points of places 1, 2, … (`place, points`): places 1..n each once, points exact,
    never negative and never more for a worse place."""
    frame = _csv(path, pl.Schema({"place": pl.Int64(), "points": pl.String()})).sort("place")
    places = frame["place"].to_list()
    if places != list(range(1, len(places) + 1)):
        raise ReferenceDataError(f"{path}: places must be 1, 2, … {len(places)} once each")
    try:
        points = tuple(Fraction(str(p).strip()) for p in frame["points"].to_list())
    except (ValueError, ZeroDivisionError):
        raise ReferenceDataError(f"{path}: points must be numbers") from None
    if any(p < 0 for p in points) or any(b > a for a, b in pairwise(points)):
        raise ReferenceDataError(f"{path}: points must be >= 0 and never rise with the place")
    return points


def load_masters_params(reference_dir: Path) -> MastersParams:
    """Masters Grand Sud parameters (`round_robin.yaml` `masters_grand_sud`)."""
    path = Path(reference_dir) / PARAMS_FILE
    section = require(read_yaml(path), "masters_grand_sud", path)
    players = _whole(require(section, "players", path), "players", path, minimum=2)
    if players % 2:
        raise ReferenceDataError(f"{path}: masters_grand_sud.players must be even, got {players}")
    return MastersParams(
        circuit=_circuit(section, path),
        players=players,
        points=_points(section, path),
        pairings=load_pairings(
            Path(reference_dir) / require(section, "pairings_file", path), players
        ),
        withdrawal=_withdrawal(section, path),
    )


def load_grand_est_params(reference_dir: Path) -> GrandEstParams:
    """Grand Est championship parameters (`round_robin.yaml` `grand_est`)."""
    path = Path(reference_dir) / PARAMS_FILE
    section = require(read_yaml(path), "grand_est", path)
    return GrandEstParams(
        circuit=_circuit(section, path),
        players=_whole(require(section, "players", path), "players", path, minimum=2),
        points=_points(section, path),
        withdrawal=_withdrawal(section, path),
        qualifying_points=load_qualifying_points(
            Path(reference_dir) / require(section, "qualifying_points_file", path)
        ),
        counted_places=_whole(require(section, "counted_places", path), "counted_places", path, 1),
    )
