"""Who plays a tournament: the season's active players (`Pool`) weighted by their taste for
the discipline and their distance to the venue, a field size drawn for the event, and the
players drawn (a player busy in an overlapping event stays home when enough others can
come).
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

import numpy as np

from simulator.calendar import MAX_SIZE, MIN_SIZE, REACH, EventTemplate
from simulator.world import Population, World

# Events whose field leans to the strong players (besides the "big" reach).
STRONG_FIELD_CATEGORIES = ("championnat", "mondial", "masters")


@dataclass(frozen=True)
class Pool:
    """The season's active players, in which tournaments draw their fields (arrays indexed
    by position in `players`)."""

    players: np.ndarray  # population indices
    city: np.ndarray
    region: np.ndarray
    fed: np.ndarray
    cluster: np.ndarray
    taste: dict[str, np.ndarray]  # by discipline: how often they play it (0 = never)
    strength: dict[str, np.ndarray]  # by discipline: the pull of strong fields


def season_pool(pop: Population, world: World) -> Pool:
    """The active players of the population, as they are at the start of the season."""
    act = np.flatnonzero(pop.active)
    return Pool(
        players=act,
        city=pop.city[act],
        region=world.city_region[pop.city[act]],
        fed=pop.fed[act],
        cluster=world.fed_cluster[pop.fed[act]],
        taste={
            "duplicate": pop.activity[act],
            "classique": pop.classic_activity[act],
            "dcdl": pop.dcdl_activity[act],
        },
        strength={
            "duplicate": np.exp(0.6 * pop.skill[act]),
            "classique": np.exp(0.6 * pop.classic_skill[act]),
            "dcdl": np.exp(0.6 * pop.dcdl_skill[act]),
        },
    )


def field_weights(
    pool: Pool, world: World, t: EventTemplate, start: dt.date, busy: np.ndarray
) -> tuple[np.ndarray, int]:
    """Weight of each pool player for the field of `t` (0: cannot play), and how many
    players are near enough (reach factor at least 0.01) to size the field."""
    venue_fed = world.city_fed[t.city]
    relation = np.select(
        [
            pool.city == t.city,
            pool.region == world.city_region[t.city],
            pool.fed == venue_fed,
            pool.cluster == world.fed_cluster[venue_fed],
        ],
        [0, 1, 2, 3],
        default=4,
    )
    reach = np.array(REACH[t.spec.reach])[relation]
    w = pool.taste[t.discipline] * reach
    if t.spec.fed_only:
        w = w * (pool.fed == venue_fed)
    near = int(np.count_nonzero((reach >= 0.01) & (w > 0)))
    if t.spec.category in STRONG_FIELD_CATEGORIES or t.spec.reach == "big":
        w = w * pool.strength[t.discipline]
    free = busy < start.toordinal()
    if np.count_nonzero(w * free) >= MIN_SIZE[t.discipline]:
        w = w * free
    return w, near


def field_size(rng: np.random.Generator, t: EventTemplate, available: int) -> int:
    """The size of the field: drawn in the spec's range (or low + a log-normal draw for a
    heavy tail), capped by the discipline's maximum and a share of the players near."""
    lo, hi = t.spec.size
    if lo == hi:  # a fixed field (the round robin of the Masters)
        return lo
    if t.spec.heavy_tail:
        size = lo + int(rng.lognormal(math.log(28), 0.75))
    else:
        size = int(rng.integers(lo, hi + 1))
    share = 0.4 if t.discipline == "duplicate" else 0.6
    cap = min(MAX_SIZE[t.discipline], max(MIN_SIZE[t.discipline], int(share * available)))
    return int(np.clip(size, MIN_SIZE[t.discipline], min(cap, hi)))


def pick(rng: np.random.Generator, weights: np.ndarray, k: int) -> np.ndarray:
    """`k` distinct indices drawn with probability growing with `weights` (sorted)."""
    nz = np.flatnonzero(weights > 0)
    k = min(k, nz.size)
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    keys = rng.exponential(size=nz.size) / weights[nz]
    if k < nz.size:
        nz = nz[np.argpartition(keys, k - 1)[:k]]
    return np.sort(nz)


def draw_field(
    rng: np.random.Generator,
    pool: Pool,
    world: World,
    t: EventTemplate,
    dates: tuple[dt.date, dt.date],
    busy: np.ndarray,
) -> np.ndarray | None:
    """The players (population indices, sorted) of `t` held from `dates[0]` to `dates[1]`,
    marked busy until its end; None when too few can come (the event is not held)."""
    start, end = dates
    weights, near = field_weights(pool, world, t, start, busy)
    picked = pick(rng, weights, field_size(rng, t, near))
    if picked.size < MIN_SIZE[t.discipline] or (
        t.spec.round_robin and picked.size < t.spec.size[0]
    ):
        return None
    busy[picked] = end.toordinal()
    return pool.players[picked]
