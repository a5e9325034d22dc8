"""The rule parameters of the round-robin finals (`MastersParams`, `GrandEstParams`, loaded by
`pipelines.reference.round_robin`) and the error a final that cannot be ranked raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import polars as pl

ERROR_SCHEMA = pl.Schema({"row": pl.Int64(), "column": pl.String(), "message": pl.String()})


class RoundRobinError(ValueError):
    """Data a round-robin final cannot be ranked from; the message (in French) says why."""


@dataclass(frozen=True)
class MatchPoints:
    """Standings points of a match: win 2, draw 1, loss 0 by default."""

    win: int
    draw: int
    loss: int


@dataclass(frozen=True)
class WithdrawalRule:
    """R: at most this many rounds left makes a withdrawal late; D: places decided with
    the late-withdrawn player's games kept."""

    rounds_left: int
    decided_places: int


@dataclass(frozen=True)
class Pairing:
    """One line of a pairing table: at match `match`, table `table`, the players numbered
    `player_a` and `player_b` (positions in the annual ranking) meet."""

    match: int
    table: int
    player_a: int
    player_b: int


@dataclass(frozen=True)
class MastersParams:
    circuit: str  # the circuit code these rules rank (data/reference/circuits.csv)
    players: int
    points: MatchPoints
    pairings: tuple[Pairing, ...]
    withdrawal: WithdrawalRule


@dataclass(frozen=True)
class GrandEstParams:
    circuit: str  # the circuit code these rules rank (data/reference/circuits.csv)
    players: int
    points: MatchPoints
    withdrawal: WithdrawalRule
    qualifying_points: tuple[Fraction, ...]  # points of places 1, 2, … (beyond: 0)
    counted_places: int  # places counted by the tie-break histograms (32)
