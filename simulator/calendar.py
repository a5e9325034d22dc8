"""The recurring events of the simulated federations, held (almost) every season at about
the same date: championships, festivals, regional, open and club events in duplicate;
an international cup and national, open and homologue tournaments in classique; the
Masters Grand Sud and opens in DCDL. Their number grows with the number of players.

A kind of event is an `EventSpec` (its discipline, category, field and length); an event of
the calendar is an `EventTemplate`: a spec with a name, a city, a duration and a day.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from simulator.names import (
    CLUB_EVENT_PATTERNS,
    FEDERATIONS,
    FESTIVAL_CITIES,
    FRANCE,
    OPEN_PATTERNS,
    REGIONS,
    de,
    named,
)
from simulator.world import Population, World, apportion

# Weight of a player by relation to the venue: same city, same region, same federation,
# same cluster of federations, elsewhere.
REACH: dict[str, tuple[float, ...]] = {
    "club": (1.0, 0.15, 0.01, 0.001, 1e-4),
    "local": (1.0, 0.6, 0.12, 0.01, 0.001),
    "regional": (1.0, 1.0, 0.05, 0.005, 5e-4),
    "national": (1.0, 1.0, 1.0, 0.0, 0.0),
    "big": (1.0, 1.0, 0.8, 0.3, 0.05),
    "classique": (1.0, 0.8, 0.3, 0.05, 0.01),
    "international": (1.0, 1.0, 0.8, 0.4, 0.1),
}
MIN_SIZE = {"duplicate": 20, "classique": 10, "dcdl": 8}
MAX_SIZE = {"duplicate": 500, "classique": 80, "dcdl": 32}


@dataclass(frozen=True)
class EventSpec:
    """A kind of recurring event: what it is and who comes."""

    discipline: str
    category: str
    reach: str  # key of REACH
    size: tuple[int, int]  # low, high (before capping)
    rounds: tuple[int, int]  # games (duplicate) or rounds, low and high inclusive
    coefficient: float | None = None
    round_robin: bool = False
    heavy_tail: bool = False  # the field's size: low + a log-normal draw
    fed_only: bool = False  # players of the venue's federation only
    weekend: bool = True  # starts on a Saturday (a one-day event: or a Sunday)
    every_season: bool = False


@dataclass(frozen=True)
class EventTemplate:
    """A recurring tournament of the calendar."""

    spec: EventSpec
    name: str
    city: int
    days: int  # duration in days (1 = a single day)
    day: int  # day of the season around which it is held
    bonus: tuple[int, int, int] | None = None  # bonus_m, pj_min, pj_max stated by the export
    duplicate_rank: bool = False  # a classique event that also ranks an opening duplicate

    @property
    def discipline(self) -> str:
        return self.spec.discipline


# fmt: off
FRENCH_CHAMPIONSHIP = EventSpec(
    "duplicate", "championnat", "national", (150, 500), (5, 7),
    coefficient=2.0, fed_only=True, every_season=True,
)
CHAMPIONSHIP = replace(FRENCH_CHAMPIONSHIP, size=(20, 80), rounds=(3, 5))
FESTIVAL = EventSpec("duplicate", "open", "big", (150, 500), (5, 7), coefficient=2.0, weekend=False)
REGIONAL = EventSpec("duplicate", "regional", "regional", (30, 150), (3, 4), coefficient=1.0)
CLUB_EVENT = EventSpec("duplicate", "club", "club", (20, 40), (2, 2), coefficient=0.5)
ONE_DAY_OPEN = EventSpec(
    "duplicate", "open", "local", (20, 500), (2, 3), coefficient=1.0, heavy_tail=True
)
LONGER_OPEN = replace(ONE_DAY_OPEN, rounds=(3, 5))
CLASSIQUE_CUP = EventSpec(
    "classique", "mondial", "international", (40, 80), (9, 11), every_season=True
)
# classique categories are those of data/reference/cote_categories.csv
CLASSIQUE: dict[str, EventSpec] = {
    "national": EventSpec("classique", "national", "classique", (20, 60), (7, 9)),
    "open": EventSpec("classique", "open", "classique", (14, 40), (6, 8)),
    "homologue": EventSpec("classique", "homologue", "classique", (10, 24), (5, 7)),
}
MASTERS = EventSpec(
    "dcdl", "masters", "international", (16, 16), (15, 15), round_robin=True, every_season=True
)
DCDL_OPEN = EventSpec("dcdl", "open", "classique", (8, 32), (5, 9))
# fmt: on

CLASSIQUE_CUP_NAME = "Coupe internationale de Scrabble classique"
CLASSIQUE_CUP_BONUS = (250, -200, 400)
# The bonus and PJ bounds a classique export states (one event in three does).
STATED_BONUS = {
    "national": (150, -150, 300),
    "open": (100, -130, 260),
    "homologue": (50, -103, 210),
}
CLASSIQUE_CATEGORY_ODDS = {"national": 0.3, "open": 0.4, "homologue": 0.3}
CLASSIQUE_PATTERNS = (
    "Tournoi classique {de}{city}",
    "Open classique {de}{city}",
    "Classique {de}{city}",
    "Coupe classique {de}{city}",
)
MASTERS_NAME = "Masters Grand Sud"
MASTERS_CITY = "Marseille"
DCDL_PATTERNS = ("Tournoi DCDL {de}{city}", "Open des chiffres et des lettres {de}{city}")
# The region of the circuit of docs/rules.md §5 whose classique events also rank a duplicate.
CIRCUIT_REGION = "PACA"


def season_day(rng: np.random.Generator, days: int) -> int:
    """A day of the season (0 = its first day) for an event of `days` days: mostly in its
    first ten months (September to June), some in the last two (the summer)."""
    if rng.random() < 0.85:
        return int(rng.integers(7, 300))
    return int(rng.integers(300, 358 - days))


@dataclass
class _Drafting:
    """What drafting the calendar draws from and keeps track of: the world, the players of
    each federation, the event names already given."""

    rng: np.random.Generator
    world: World
    scale: float  # players / 1000
    fed_counts: np.ndarray
    used: set[str] = field(default_factory=set)

    def claim(self, name: str) -> str:
        self.used.add(name)
        return name

    def name_for(self, patterns: Sequence[str], city: int) -> str:
        """The first unused name among the patterns, from a random one; numbered if all are."""
        first = int(self.rng.integers(len(patterns)))
        candidates = [
            named(patterns[(first + k) % len(patterns)], self.world.city_name[city])
            for k in range(len(patterns))
        ]
        name = next((c for c in candidates if c not in self.used), "")
        k = 2
        while not name:
            name = next((f"{c} {k}" for c in candidates if f"{c} {k}" not in self.used), "")
            k += 1
        return self.claim(name)

    def city_in(self, f: int, region: str | None = None) -> int:
        """A city of federation `f` (of `region`), drawn by city weight."""
        world = self.world
        mask = world.city_fed == f
        if region is not None:
            mask &= world.city_region == world.regions.index(region)
        cities = np.flatnonzero(mask)
        p = world.city_weight[cities] / world.city_weight[cities].sum()
        return int(self.rng.choice(cities, p=p))

    def hosts(self, counts: np.ndarray, minimum: int, total: int) -> list[int]:
        """`total` host federations, apportioned among those with `minimum` players."""
        weights = np.where(counts >= minimum, counts, 0).astype(float)
        if weights.sum() == 0:
            weights[0] = 1.0
        per_fed = apportion(weights, total)
        return [int(f) for f in self.rng.permutation(np.repeat(np.arange(len(counts)), per_fed))]

    def event(
        self,
        spec: EventSpec,
        name: str,
        city: int,
        days: int,
        bonus: tuple[int, int, int] | None = None,
        duplicate_rank: bool = False,
        dated_as: int | None = None,
    ) -> EventTemplate:
        """The event, on a day drawn for an event of `dated_as` days (by default `days`)."""
        day = season_day(self.rng, days if dated_as is None else dated_as)
        return EventTemplate(spec, name, city, days, day, bonus, duplicate_rank)


def build_calendar(rng: np.random.Generator, world: World, pop: Population) -> list[EventTemplate]:
    """The recurring events, in this order: duplicate (championships, festivals, French
    regional championships, opens and club events), classique, DCDL."""
    n_feds = len(FEDERATIONS)
    drafting = _Drafting(rng, world, len(pop) / 1000, np.bincount(pop.fed, minlength=n_feds))
    events = _championships(drafting) + _festivals(drafting) + _regional_championships(drafting)
    events += _opens_and_club_events(drafting, max(0, round(48 * drafting.scale) - len(events)))
    classic_counts = np.bincount(pop.fed[pop.classic_activity > 0], minlength=n_feds)
    events += _classique_events(drafting, classic_counts)
    dcdl_counts = np.bincount(pop.fed[pop.dcdl_activity > 0], minlength=n_feds)
    events += _dcdl_events(drafting, dcdl_counts)
    return events


def _championships(drafting: _Drafting) -> list[EventTemplate]:
    """The national championship of each federation with at least 30 players: France's (3
    days) in a city drawn by weight, the others' (2 days) in their biggest city; all are
    dated as 3-day events."""
    events = []
    for f, fed in enumerate(FEDERATIONS):
        if drafting.fed_counts[f] < 30:
            continue
        name = drafting.claim(fed.championship)
        if f == FRANCE:
            spec, city, days = FRENCH_CHAMPIONSHIP, drafting.city_in(f), 3
        else:
            spec, city, days = CHAMPIONSHIP, drafting.world.city(fed.cities[0][0]), 2
        events.append(drafting.event(spec, name, city, days, dated_as=3))
    return events


def _festivals(drafting: _Drafting) -> list[EventTemplate]:
    """The big festivals, 3 to 6 days long, in the festival cities (4 for 1,000 players,
    growing with the square root of the number)."""
    events = []
    for city in FESTIVAL_CITIES[: max(2, round(4 * math.sqrt(drafting.scale)))]:
        days = int(drafting.rng.integers(3, 7))
        name = drafting.claim(f"Festival {de(city)}")
        events.append(drafting.event(FESTIVAL, name, drafting.world.city(city), days))
    return events


def _regional_championships(drafting: _Drafting) -> list[EventTemplate]:
    """The championships of the first French regions (4 for 1,000 players)."""
    events = []
    for region in list(REGIONS)[: min(len(REGIONS), max(1, round(4 * drafting.scale)))]:
        name = drafting.claim(f"Championnat régional {REGIONS[region]}")
        city = drafting.city_in(FRANCE, region)
        events.append(drafting.event(REGIONAL, name, city, days=2))
    return events


def _opens_and_club_events(drafting: _Drafting, total: int) -> list[EventTemplate]:
    """`total` opens and club events, hosted in proportion to the players of each
    federation (with 20 players at least); 15 % of them are club events."""
    events = []
    for f in drafting.hosts(drafting.fed_counts, 20, total):
        city = drafting.city_in(f)
        if drafting.rng.random() < 0.15:
            name = drafting.name_for(CLUB_EVENT_PATTERNS, city)
            events.append(drafting.event(CLUB_EVENT, name, city, days=1))
        else:
            days = int(drafting.rng.integers(1, 3))
            spec = ONE_DAY_OPEN if days == 1 else LONGER_OPEN
            name = drafting.name_for(OPEN_PATTERNS, city)
            events.append(drafting.event(spec, name, city, days))
    return events


def _classique_events(drafting: _Drafting, classic_counts: np.ndarray) -> list[EventTemplate]:
    """The international cup, then national, open and homologue tournaments hosted by the
    federations with 15 classique players at least. A third of them state their bonus
    and PJ bounds; the first French one is in the circuit region, then one in three, and
    those rank an opening duplicate too."""
    world = drafting.world
    cup_city = world.city(FESTIVAL_CITIES[0])
    events = [
        drafting.event(
            CLASSIQUE_CUP, CLASSIQUE_CUP_NAME, cup_city, days=3, bonus=CLASSIQUE_CUP_BONUS
        )
    ]
    n_classic = max(3, round(11 * drafting.scale))
    in_circuit = 0
    for k, f in enumerate(drafting.hosts(classic_counts, 15, n_classic - 1), start=1):
        circuit = f == FRANCE and (in_circuit == 0 or drafting.rng.random() < 0.33)
        in_circuit += circuit
        city = drafting.city_in(FRANCE, CIRCUIT_REGION) if circuit else drafting.city_in(f)
        category = str(
            drafting.rng.choice(
                list(CLASSIQUE_CATEGORY_ODDS), p=list(CLASSIQUE_CATEGORY_ODDS.values())
            )
        )
        events.append(
            drafting.event(
                CLASSIQUE[category],
                drafting.name_for(CLASSIQUE_PATTERNS, city),
                city,
                days=2,
                bonus=STATED_BONUS[category] if k % 3 == 1 else None,
                duplicate_rank=world.regions[world.city_region[city]] == CIRCUIT_REGION,
            )
        )
    return events


def _dcdl_events(drafting: _Drafting, dcdl_counts: np.ndarray) -> list[EventTemplate]:
    """The Masters Grand Sud (a round robin of 16), then one-day opens hosted by the
    federations with 12 DCDL players at least."""
    masters_city = drafting.world.city(MASTERS_CITY)
    events = [drafting.event(MASTERS, MASTERS_NAME, masters_city, days=2)]
    for f in drafting.hosts(dcdl_counts, 12, max(2, round(6 * drafting.scale)) - 1):
        city = drafting.city_in(f)
        name = drafting.name_for(DCDL_PATTERNS, city)
        events.append(drafting.event(DCDL_OPEN, name, city, days=1))
    return events
