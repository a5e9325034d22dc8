"""The simulated world: cities and clubs (`World`), and the players (`Population`).

Players are parallel NumPy arrays indexed by player number; a player's series is kept as
its *step* (the position in `transforms.series_labels.SERIES_ORDER`: series n is step n)
and written through `series_labels`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np

from simulator.names import (
    CLUB_PATTERNS,
    FEDERATIONS,
    FIRST_NAMES,
    LAST_NAMES,
    SHARED_POOL,
    named,
    pool_range,
)
from transforms.series_labels import NEW_LICENSEE_SERIES, SERIES_ORDER

# The simulated federation's own quotas of series 1..6, cumulative (the shares of docs/rules.md §3:
# N1 1 %, N2 2 %, N3 3 %, N4 12 %, N5 20 %, N6 the rest). They shape the simulated data, and
# the classification the simulator publishes in its FFSc rankings: they are the world the
# pipeline is compared with, not the pipeline's parameters (data/reference/series_quotas.csv).
SERIES_CUMULATIVE = (0.01, 0.03, 0.06, 0.18, 0.38, 1.0)
NEW_LICENSEE_STEP = SERIES_ORDER.index(NEW_LICENSEE_SERIES)
# Licence numbers start above this one; each next licence is 1 to 7 above the previous.
FIRST_LICENCE = 100000
# One player in this many draws each of their names from the shared French pool.
SHARED_NAME_ODDS = 6


def series_labels(steps: np.ndarray) -> list[str]:
    """The written series (`"1"` … `"7"`) of series steps."""
    return np.array(SERIES_ORDER, dtype=object)[steps].tolist()


@dataclass(frozen=True)
class World:
    """Cities and clubs, as arrays indexed by city or club number."""

    city_name: tuple[str, ...]
    city_fed: np.ndarray
    city_region: np.ndarray  # index into `regions`
    city_weight: np.ndarray
    regions: tuple[str, ...]
    fed_cluster: np.ndarray  # cluster number per federation
    club_name: tuple[str, ...]
    club_fed: np.ndarray
    club_city: np.ndarray
    club_weight: np.ndarray

    def city(self, name: str) -> int:
        return self.city_name.index(name)


@dataclass(frozen=True)
class _Clubs:
    name: tuple[str, ...]
    fed: np.ndarray
    city: np.ndarray


def build_world(rng: np.random.Generator, players: int) -> World:
    """The cities of every federation (bigger first, weight 1 / (rank + 3)) and about one
    club per four players (40 to 600), apportioned among the federations by weight."""
    cities = [(f, city, region) for f, fed in enumerate(FEDERATIONS) for city, region in fed.cities]
    names = tuple(city for _, city, _ in cities)
    regions = [region for _, _, region in cities]
    region_codes = tuple(dict.fromkeys(regions))
    city_fed = np.array([f for f, _, _ in cities])
    city_weight = np.array([1.0 / (k + 3) for fed in FEDERATIONS for k in range(len(fed.cities))])
    clusters = list(dict.fromkeys(fed.cluster for fed in FEDERATIONS))
    clubs = _build_clubs(rng, players, names, city_fed, city_weight)
    return World(
        city_name=names,
        city_fed=city_fed,
        city_region=np.array([region_codes.index(r) for r in regions]),
        city_weight=city_weight,
        regions=region_codes,
        fed_cluster=np.array([clusters.index(fed.cluster) for fed in FEDERATIONS]),
        club_name=clubs.name,
        club_fed=clubs.fed,
        club_city=clubs.city,
        club_weight=rng.lognormal(0.0, 0.7, size=len(clubs.name)),
    )


def _build_clubs(
    rng: np.random.Generator,
    players: int,
    city_name: tuple[str, ...],
    city_fed: np.ndarray,
    city_weight: np.ndarray,
) -> _Clubs:
    """Every city of a federation gets a club first, while clubs are left; the others go
    to cities drawn by weight. Clubs of one city take the name patterns in turn."""
    n_clubs = int(np.clip(round(players / 4), 40, 600))
    per_fed = apportion(np.array([fed.weight for fed in FEDERATIONS]), n_clubs, minimum=1)
    names: list[str] = []
    feds: list[int] = []
    club_city: list[int] = []
    for f, count in enumerate(per_fed):
        cities = np.flatnonzero(city_fed == f)
        p = city_weight[cities] / city_weight[cities].sum()
        first = cities[: min(count, cities.size)]
        rest = rng.choice(cities, size=count - first.size, p=p)
        for c in np.sort(np.concatenate([first, rest])):
            names.append(_club_name(city_name[c], club_city.count(int(c))))
            feds.append(f)
            club_city.append(int(c))
    return _Clubs(tuple(names), np.array(feds), np.array(club_city))


def _club_name(city: str, k: int) -> str:
    """The name of the `k`-th club (0-based) of a city, numbered once the patterns run out."""
    name = named(CLUB_PATTERNS[k % len(CLUB_PATTERNS)], city)
    if k >= len(CLUB_PATTERNS):
        name += f" {k // len(CLUB_PATTERNS) + 1}"
    return name


def apportion(weights: np.ndarray, total: int, minimum: int = 0) -> np.ndarray:
    """Split `total` in proportion to `weights` (largest remainders), each at least `minimum`."""
    base = np.full(weights.size, minimum)
    left = total - base.sum()
    exact = weights / weights.sum() * left
    counts = np.floor(exact).astype(int)
    short = left - counts.sum()
    order = np.argsort(-(exact - counts), kind="stable")
    counts[order[:short]] += 1
    return base + counts


@dataclass
class Population:
    """Every player ever licensed, as parallel arrays (index = player number)."""

    licence: np.ndarray
    first: np.ndarray  # index into names.ALL_FIRST
    last: np.ndarray  # index into names.ALL_LAST
    birth_year: np.ndarray
    fed: np.ndarray
    club: np.ndarray
    city: np.ndarray
    skill: np.ndarray  # duplicate
    classic_skill: np.ndarray
    dcdl_skill: np.ndarray
    activity: np.ndarray  # relative taste for duplicate events
    classic_activity: np.ndarray  # 0 = never plays classique
    dcdl_activity: np.ndarray
    series: np.ndarray  # series step: 1..7
    joined: np.ndarray  # season index of the licence, -1 before the first season
    active: np.ndarray

    def __len__(self) -> int:
        return int(self.licence.size)

    def extend(self, other: Population) -> None:
        for f in fields(self):
            setattr(self, f.name, np.concatenate([getattr(self, f.name), getattr(other, f.name)]))


@dataclass(frozen=True)
class _Profile:
    """Age, duplicate skill and duplicate activity of a batch of new players."""

    age: np.ndarray
    skill: np.ndarray
    activity: np.ndarray


def new_players(
    rng: np.random.Generator,
    world: World,
    n: int,
    last_licence: int,
    season: int,
    year: int,
) -> Population:
    """`n` players licensed at the start of `season` (index; -1 = the players who exist
    before the first season, in its first `year`), licences above `last_licence`."""
    existing = season < 0
    fed = _draw_federations(rng, n, existing)
    club = np.empty(n, dtype=np.int64)
    first = np.empty(n, dtype=np.int64)
    last = np.empty(n, dtype=np.int64)
    for f in range(len(FEDERATIONS)):
        mine = np.flatnonzero(fed == f)
        if mine.size:
            _draw_club_and_names(rng, world, f, mine, club, first, last)
    profile = _existing_profile(rng, n) if existing else _newcomer_profile(rng, n)
    age = np.clip(profile.age, 8, 95)
    classic = rng.random(n) < 0.22
    dcdl = rng.random(n) < 0.08
    gaps = rng.integers(1, 8, size=n)
    skill = profile.skill
    return Population(
        licence=last_licence + np.cumsum(gaps),
        first=first,
        last=last,
        birth_year=(year - np.round(age)).astype(np.int64),
        fed=fed,
        club=club,
        city=world.club_city[club],
        skill=skill,
        classic_skill=0.7 * skill + math.sqrt(1 - 0.49) * rng.normal(0.0, 1.0, n),
        dcdl_skill=0.5 * skill + math.sqrt(1 - 0.25) * rng.normal(0.0, 1.0, n),
        activity=profile.activity,
        classic_activity=np.where(classic, rng.lognormal(0.0, 0.7, n), 0.0),
        dcdl_activity=np.where(dcdl, rng.lognormal(0.0, 0.6, n), 0.0),
        series=np.full(n, NEW_LICENSEE_STEP, dtype=np.int64),
        joined=np.full(n, season, dtype=np.int64),
        active=np.ones(n, dtype=bool),
    )


def _draw_federations(rng: np.random.Generator, n: int, existing: bool) -> np.ndarray:
    """The federation of each new player: the existing players are apportioned by weight
    (at least two a federation), newcomers drawn by weight."""
    weights = np.array([fed.weight for fed in FEDERATIONS])
    if existing:
        counts = apportion(weights, n, minimum=2)
        return rng.permutation(np.repeat(np.arange(len(FEDERATIONS)), counts))
    return rng.choice(len(FEDERATIONS), size=n, p=weights / weights.sum())


def _draw_club_and_names(
    rng: np.random.Generator,
    world: World,
    f: int,
    mine: np.ndarray,
    club: np.ndarray,
    first: np.ndarray,
    last: np.ndarray,
) -> None:
    """Fill in the club (by club weight) and names of the players `mine` of federation `f`;
    one in six draws each name from the shared French pool."""
    clubs = np.flatnonzero(world.club_fed == f)
    club[mine] = rng.choice(
        clubs, size=mine.size, p=world.club_weight[clubs] / world.club_weight[clubs].sum()
    )
    for names, target in ((FIRST_NAMES, first), (LAST_NAMES, last)):
        own = pool_range(names, FEDERATIONS[f].names)
        shared = pool_range(names, SHARED_POOL)
        use_shared = rng.random(mine.size) < (1 / SHARED_NAME_ODDS)
        from_shared = rng.integers(*shared, size=mine.size)
        from_own = rng.integers(*own, size=mine.size)
        target[mine] = np.where(use_shared, from_shared, from_own)


def _existing_profile(rng: np.random.Generator, n: int) -> _Profile:
    """The players licensed before the first season: three in four about 66 years old, some
    about 45, one in ten 10 to 20; skills centred on 0."""
    kind = rng.random(n)
    senior = rng.normal(66, 10, n)
    adult = rng.normal(45, 12, n)
    young = rng.uniform(10, 20, n)
    age = np.where(kind < 0.75, senior, np.where(kind < 0.9, adult, young))
    return _Profile(age, rng.normal(0.0, 1.0, n), rng.lognormal(0.0, 0.8, n))


def _newcomer_profile(rng: np.random.Generator, n: int) -> _Profile:
    """The new licensees of a season: a third 9 to 18 years old, the others about 60;
    weaker and less active than the existing players."""
    young = rng.random(n) < 0.35
    age = np.where(young, rng.uniform(9, 18, n), rng.normal(60, 12, n))
    return _Profile(age, rng.normal(-0.9, 0.8, n), rng.lognormal(-0.4, 0.8, n))


def classify(values: np.ndarray) -> np.ndarray:
    """Series steps 1..6 by the quotas `SERIES_CUMULATIVE`, best value first (ties broken by
    position)."""
    n = values.size
    order = np.argsort(-values, kind="stable")
    bounds = np.round(np.array(SERIES_CUMULATIVE) * n).astype(int)
    series = np.empty(n, dtype=np.int64)
    lo = 0
    for s, hi in enumerate(bounds, start=1):
        series[order[lo:hi]] = s
        lo = hi
    return series
