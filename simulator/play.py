"""Playing a tournament: duplicate scores, match scores, Swiss pairings and round robins.

Every draw comes from the generator passed in, in a fixed order, so that a seed gives the
same games.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# A duplicate game's top: 880 to 1120 points.
TOP_LOW, TOP_HIGH = 880, 1120
# A bye counts as a win with this spread.
BYE_SPREAD = {"classique": 50, "dcdl": 0}
# Match scores: mean at strength 0, slope per unit of strength, spread, bounds.
MATCH_SCORE = {
    "classique": (400.0, 30.0, 50.0, 250, 650),
    "dcdl": (80.0, 12.0, 14.0, 30, 140),
}


def draw_tops(rng: np.random.Generator, games: int) -> np.ndarray:
    """The tops of `games` duplicate games."""
    return rng.integers(TOP_LOW, TOP_HIGH + 1, size=games)


def duplicate_scores(rng: np.random.Generator, skill: np.ndarray, tops: np.ndarray) -> np.ndarray:
    """Scores of each player in each game (players x games), at most the game's top: a
    player misses a share of the top that falls with skill and the day's form."""
    n, g = skill.size, tops.size
    form = rng.normal(0.0, 0.15, size=(n, 1))
    deficit = np.exp(-1.9 - 0.7 * (skill[:, None] + form) + rng.normal(0.0, 0.35, size=(n, g)))
    deficit = np.clip(deficit, 0.0, 0.7)
    return tops[None, :] - np.round(tops[None, :] * deficit).astype(np.int64)


def match_scores(rng: np.random.Generator, discipline: str, strength: np.ndarray) -> np.ndarray:
    """One score per player of a classique or DCDL game, growing with strength."""
    mean, slope, sd, lo, hi = MATCH_SCORE[discipline]
    return np.clip(np.round(rng.normal(mean + slope * strength, sd)), lo, hi).astype(np.int64)


def round_robin_pairs(n: int, r: int) -> tuple[list[tuple[int, int]], int | None]:
    """Pairs of round `r` (1-based) of a round robin of players 0..n-1 (docs/rules.md §5 tables).

    With m = n - 1 (n even), players i and j of 1..m meet when i + j = 3 - r (mod m); the one
    paired with themself meets player n. An odd n gets a bye instead of player n.
    """
    even = n + (n % 2)
    m = even - 1
    target = (3 - r) % m
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for i in range(1, m + 1):
        j = (target - i) % m or m
        if j == i:
            if n % 2:
                bye = i - 1
            else:
                pairs.append((i - 1, even - 1))
        elif i < j:
            pairs.append((i - 1, j - 1))
    return sorted(pairs), bye


@dataclass
class Matches:
    """The games of a classique or DCDL tournament (one entry per game; a bye has no
    opponent and no scores) and each player's wins and spread. Players are 0..n-1."""

    wins: np.ndarray
    spread: np.ndarray
    round: list[int] = field(default_factory=list)
    player: list[int] = field(default_factory=list)
    opponent: list[int | None] = field(default_factory=list)
    player_score: list[int | None] = field(default_factory=list)
    opponent_score: list[int | None] = field(default_factory=list)
    played: list[set[int]] = field(init=False)  # who met whom
    had_bye: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.played = [set() for _ in range(self.wins.size)]
        self.had_bye = np.zeros(self.wins.size, dtype=bool)

    def record(self, r: int, a: np.ndarray, b: np.ndarray, sa: np.ndarray, sb: np.ndarray) -> None:
        """The games of round `r`: players `a` against `b`, scoring `sa` and `sb`."""
        np.add.at(self.wins, a, np.where(sa > sb, 1.0, np.where(sa == sb, 0.5, 0.0)))
        np.add.at(self.wins, b, np.where(sb > sa, 1.0, np.where(sa == sb, 0.5, 0.0)))
        np.add.at(self.spread, a, sa - sb)
        np.add.at(self.spread, b, sb - sa)
        for x, y in zip(a.tolist(), b.tolist(), strict=True):
            self.played[x].add(y)
            self.played[y].add(x)
        self.round.extend([r] * a.size)
        self.player.extend(a.tolist())
        self.opponent.extend(b.tolist())
        self.player_score.extend(sa.tolist())
        self.opponent_score.extend(sb.tolist())

    def record_bye(self, r: int, bye: int, spread: int) -> None:
        """Player `bye` sits out round `r`: a win with `spread`."""
        self.had_bye[bye] = True
        self.wins[bye] += 1
        self.spread[bye] += spread
        self.round.append(r)
        self.player.append(bye)
        self.opponent.append(None)
        self.player_score.append(None)
        self.opponent_score.append(None)


def swiss_pairs(
    matches: Matches, seed_rank: np.ndarray
) -> tuple[list[tuple[int, int]], int | None]:
    """The next Swiss round: players by wins, spread, then seed; with an odd number, the
    lowest who has not had a bye sits out (else the lowest); each player in turn meets the
    next one they have not met (else the next one)."""
    order = [int(i) for i in np.lexsort((seed_rank, -matches.spread, -matches.wins))]
    bye: int | None = None
    if len(order) % 2:
        bye = next((i for i in reversed(order) if not matches.had_bye[i]), order[-1])
        order.remove(bye)
    pairs = []
    while order:
        a = order.pop(0)
        pick = next((k for k, b in enumerate(order) if b not in matches.played[a]), 0)
        pairs.append((a, order.pop(pick)))
    return pairs, bye


def play_matches(
    rng: np.random.Generator,
    discipline: str,
    strength: np.ndarray,
    seeding: np.ndarray,
    rounds: int,
    round_robin: bool,
) -> Matches:
    """Play `rounds` rounds, Swiss or round robin (players numbered by `seeding`, best
    first), each game's scores drawn from the players' strength."""
    n = strength.size
    matches = Matches(wins=np.zeros(n), spread=np.zeros(n, dtype=np.int64))
    seed_rank = np.argsort(np.argsort(-seeding, kind="stable"), kind="stable")
    by_seed = np.argsort(seed_rank)
    for r in range(1, rounds + 1):
        if round_robin:
            local, local_bye = round_robin_pairs(n, r)
            pairs = [(int(by_seed[i]), int(by_seed[j])) for i, j in local]
            bye = None if local_bye is None else int(by_seed[local_bye])
        else:
            pairs, bye = swiss_pairs(matches, seed_rank)
        a = np.array([p[0] for p in pairs], dtype=np.int64)
        b = np.array([p[1] for p in pairs], dtype=np.int64)
        sa = match_scores(rng, discipline, strength[a])
        sb = match_scores(rng, discipline, strength[b])
        matches.record(r, a, b, sa, sb)
        if bye is not None:
            matches.record_bye(r, bye, BYE_SPREAD[discipline])
    return matches
