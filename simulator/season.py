"""The simulation, season after season: the initial population and rating list, then for
each season its new licensees, its schedule, its tournaments and its end (classification,
skill drift, players who stop).

Seasons start on the day of the project's season calendar (`SeasonCalendar`, from
`data/reference/seasons.yaml`). Every random draw comes from one generator seeded by the
configuration, in a fixed order; a season draws only from what the seasons before it left,
so the first k seasons do not depend on the number of seasons asked for.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from pipelines.ingest.schema import DISCIPLINES
from simulator.calendar import EventTemplate, build_calendar
from simulator.entrants import Pool, draw_field, season_pool
from simulator.names import ALL_FIRST, ALL_LAST, FEDERATIONS
from simulator.tournament import (
    Edition,
    Performance,
    Tournament,
    play_duplicate,
    play_match_event,
)
from simulator.world import (
    FIRST_LICENCE,
    Population,
    World,
    build_world,
    classify,
    new_players,
    series_labels,
)
from transforms.calendar import SeasonCalendar, season_label

# The first letter of a tournament id (`D2023-001`), by discipline.
TID_PREFIX = {"duplicate": "D", "classique": "C", "dcdl": "L"}
# Each season, new licensees are this share of the active players.
NEW_LICENSEES = 0.08
# A recurring event that is not held every season is held with this probability.
HELD_ODDS = 0.92
# The files of a tournament: French (Windows-1252, `;`) below the first bound, UTF-8 with a
# BOM below the second, else plain UTF-8.
FRENCH_FILES, BOM_FILES = 0.2, 0.25


@dataclass(frozen=True)
class GenerateConfig:
    """What to simulate: seed, number of seasons and players, the first season's year."""

    seed: int = 2026
    seasons: int = 3
    players: int = 1000
    first_season: int = 2023

    @property
    def last_day(self) -> dt.date:
        """No date the simulation writes is later (but the planned date of a circuit edition
        still announced): 31 December of the year its last season ends. A build of the
        generated exports takes it as its reference date (`classement build --as-of`)."""
        return dt.date(self.first_season + self.seasons, 12, 31)


@dataclass
class SeasonState:
    """Each player's duplicate season so far (arrays indexed by player number)."""

    perf_sum: np.ndarray  # sum of coefficient x score / top over the duplicate events
    perf_weight: np.ndarray  # sum of the coefficients
    best: np.ndarray = field(init=False)  # best score / top of an event (0 = none)
    worst: np.ndarray = field(init=False)  # worst score / top of an event (1 = none)

    def __post_init__(self) -> None:
        self.best = np.zeros(self.perf_sum.size)
        self.worst = np.ones(self.perf_sum.size)

    def add(self, players: np.ndarray, coefficient: float, performance: Performance) -> None:
        """The duplicate event of coefficient `coefficient` that `players` played."""
        score, top_total = performance.score, performance.top_total
        self.perf_sum[players] += coefficient * score / top_total
        self.perf_weight[players] += coefficient
        self.best[players] = np.maximum(self.best[players], score / top_total)
        self.worst[players] = np.minimum(self.worst[players], score / top_total)


@dataclass(frozen=True)
class SeasonRanking:
    """What the simulator knows at the end of a season about the players who played
    duplicate in it (parallel arrays, index = position in `players`): the material of the
    FFSc ranking export. Nothing here is drawn at random."""

    season: str
    as_of: dt.date  # the season's last day
    players: np.ndarray  # population indices
    held: np.ndarray  # series step held during the season
    potential: np.ndarray  # series step the simulator assigns for next season (`classify`)
    perf: np.ndarray  # weighted mean score / top of the season (the classification value)
    points: np.ndarray  # sum of coefficient x score / top
    best: np.ndarray  # best score / top of an event
    worst: np.ndarray  # worst score / top of an event
    percentile: np.ndarray  # share (0-1) of the season's players with a lower perf


@dataclass(frozen=True)
class RatingList:
    """The rating list on the day before the first season (columns keyed by the schema's
    names, one row per player)."""

    as_of: dt.date
    columns: dict[str, object]
    rows: int


class Simulator:
    """Runs the seasons one after the other; `seasons()` yields each season's tournaments."""

    def __init__(self, config: GenerateConfig, calendar: SeasonCalendar) -> None:
        if config.players < 100:
            raise ValueError("at least 100 players are needed to fill a tournament")
        if config.seasons < 1:
            raise ValueError("at least one season")
        self.config = config
        self.calendar = calendar
        self.rng = np.random.default_rng(config.seed)
        self.world: World = build_world(self.rng, config.players)
        self.pop: Population = new_players(
            self.rng, self.world, config.players, FIRST_LICENCE, -1, config.first_season
        )
        noisy = self.pop.skill + self.rng.normal(0.0, 0.3, len(self.pop))
        self.pop.series = classify(noisy)
        self.events: list[EventTemplate] = build_calendar(self.rng, self.world, self.pop)
        self.rating_list = self._rating_list()
        self.rankings: list[SeasonRanking] = []  # one per simulated season, in order

    def _rating_list(self) -> RatingList:
        """Series of every player; cote, Elo and Elo games of most classique and DCDL
        players."""
        rng, pop = self.rng, self.pop
        n = len(pop)
        first_day, _ = self.calendar.bounds(season_label(self.config.first_season))
        as_of = first_day - dt.timedelta(days=1)
        plays = (pop.classic_activity > 0) | (pop.dcdl_activity > 0)
        rated = plays & (rng.random(n) < 0.85)
        cote = np.clip(
            np.round(1850 + 300 * pop.classic_skill + rng.normal(0, 80, n)), 1200, 2600
        ).astype(np.int64)
        elo = np.clip(1700 + 200 * pop.classic_skill + rng.normal(0, 60, n), 1200, 2200)
        elo_games = np.clip(np.round(np.exp(rng.normal(4.0, 1.0, n))), 5, 800).astype(np.int64)
        order = np.argsort(pop.licence, kind="stable")
        rated = rated[order]
        columns: dict[str, object] = {
            "player_id": pop.licence[order].astype(str).tolist(),
            # federations' lists name their players (docs/exports.md, rating list)
            "last_name": np.array(ALL_LAST, dtype=object)[pop.last[order]].tolist(),
            "first_name": np.array(ALL_FIRST, dtype=object)[pop.first[order]].tolist(),
            # and say their federation and club (docs/exports.md, rating list)
            "federation": np.array([f.code for f in FEDERATIONS], dtype=object)[
                pop.fed[order]
            ].tolist(),
            "club": np.array(self.world.club_name, dtype=object)[pop.club[order]].tolist(),
            "as_of": as_of,
            "cote": [int(c) if r else None for c, r in zip(cote[order], rated, strict=True)],
            "elo": [
                round(float(e), 1) if r else None for e, r in zip(elo[order], rated, strict=True)
            ],
            "elo_games": [
                int(g) if r else None for g, r in zip(elo_games[order], rated, strict=True)
            ],
            "series": series_labels(pop.series[order]),
        }
        return RatingList(as_of, columns, n)

    def seasons(self) -> Iterator[tuple[str, list[Tournament]]]:
        """Each season's label and held tournaments, in order."""
        for s in range(self.config.seasons):
            yield self._season(s)

    def _season(self, s: int) -> tuple[str, list[Tournament]]:
        year = self.config.first_season + s
        label = season_label(year)
        self._license_newcomers(s, year)
        n = len(self.pop)
        state = SeasonState(np.zeros(n), np.zeros(n))
        editions = self._schedule(year, self.calendar.bounds(label)[0])
        pool = season_pool(self.pop, self.world)
        busy = np.full(pool.players.size, -1, dtype=np.int64)  # last busy day (ordinal)
        tournaments: list[Tournament] = []
        for edition in editions:
            flavour_draw = self.rng.random()
            tournament = self._hold(edition, pool, busy, state)
            if tournament is not None:
                tournament.flavour = _flavour(flavour_draw)
                tournaments.append(tournament)
        _choose_workbooks(tournaments, s)
        self._end_season(s, label, state)
        return label, tournaments

    def _license_newcomers(self, s: int, year: int) -> None:
        """The season's new licensees, in series 7."""
        n_new = round(NEW_LICENSEES * int(self.pop.active.sum()))
        last_licence = int(self.pop.licence.max())
        self.pop.extend(new_players(self.rng, self.world, n_new, last_licence, s, year))

    def _schedule(self, year: int, season_start: dt.date) -> list[Edition]:
        """The season's editions of the calendar's events, in order of start, end and
        calendar position, numbered per discipline (`D2023-001`)."""
        held: list[tuple[dt.date, dt.date, int, EventTemplate]] = []
        for k, t in enumerate(self.events):
            dates = self._dates(t, season_start)
            if dates is not None:
                held.append((*dates, k, t))
        held.sort(key=lambda h: (h[0], h[1], h[2]))
        totals = {d: sum(1 for h in held if h[3].discipline == d) for d in DISCIPLINES}
        counters = dict.fromkeys(DISCIPLINES, 0)
        editions = []
        for start, end, _, t in held:
            counters[t.discipline] += 1
            width = max(3, len(str(totals[t.discipline])))
            tid = f"{TID_PREFIX[t.discipline]}{year}-{counters[t.discipline]:0{width}d}"
            editions.append(Edition(t, tid, start, end))
        return editions

    def _dates(self, t: EventTemplate, season_start: dt.date) -> tuple[dt.date, dt.date] | None:
        """The dates of this season's edition of `t` (None when it is not held): about its
        usual day (± 10), moved to the next Saturday (or Sunday for some one-day events)
        unless it is held on weekdays."""
        rng = self.rng
        happens = t.spec.every_season or rng.random() < HELD_ODDS
        day = t.day + int(rng.integers(-10, 11))
        sunday = rng.random() < 0.3
        if not happens:
            return None
        day = int(np.clip(day, 0, 364 - t.days - 7))
        start = season_start + dt.timedelta(days=day)
        if t.spec.weekend:
            start += dt.timedelta(days=(5 - start.weekday()) % 7)
            if t.days == 1 and sunday:
                start += dt.timedelta(days=1)
        return start, start + dt.timedelta(days=t.days - 1)

    def _hold(
        self, edition: Edition, pool: Pool, busy: np.ndarray, state: SeasonState
    ) -> Tournament | None:
        """Play an edition, if enough players come."""
        rng, t = self.rng, edition.template
        players = draw_field(rng, pool, self.world, t, (edition.start, edition.end), busy)
        if players is None:
            return None
        rounds = int(rng.integers(t.spec.rounds[0], t.spec.rounds[1] + 1))
        if t.discipline != "duplicate":
            return play_match_event(rng, edition, players, rounds, self.pop, self.world)
        tournament, performance = play_duplicate(
            rng, edition, players, rounds, self.pop, self.world
        )
        state.add(players, float(t.spec.coefficient or 1.0), performance)
        return tournament

    def _end_season(self, s: int, label: str, state: SeasonState) -> None:
        """Next season's series from this season's results; skill drift; players who stop."""
        rng, pop = self.rng, self.pop
        n = len(pop)
        played = np.flatnonzero(state.perf_weight > 0)
        perf = state.perf_sum[played] / state.perf_weight[played]
        held = pop.series[played].copy()
        pop.series[played] = classify(perf)
        sorted_perf = np.sort(perf)
        self.rankings.append(
            SeasonRanking(
                season=label,
                as_of=self.calendar.end(label),
                players=played,
                held=held,
                potential=pop.series[played].copy(),
                perf=perf,
                points=state.perf_sum[played],
                best=state.best[played],
                worst=state.worst[played],
                percentile=np.searchsorted(sorted_perf, perf, side="left") / max(1, perf.size),
            )
        )
        age = self.config.first_season + s - pop.birth_year
        young = (age < 20) | ((pop.joined >= 0) & (s - pop.joined < 3))
        drift = rng.normal(0.0, 0.12, n) + 0.12 * young - 0.04 * (age > 75)
        pop.skill += drift
        pop.classic_skill += drift + rng.normal(0.0, 0.05, n)
        pop.dcdl_skill += rng.normal(0.0, 0.1, n)
        p_stop = 0.045 + 0.05 * (pop.activity < 0.5) + 0.1 * (age > 82)
        pop.active &= rng.random(n) >= p_stop


def _flavour(draw: float) -> str:
    """The file flavour of a tournament from a uniform draw."""
    if draw < FRENCH_FILES:
        return "fr"
    return "bom" if draw < BOM_FILES else "utf8"


def _choose_workbooks(tournaments: list[Tournament], s: int) -> None:
    """One or two workbooks a season: a classique one (with its games), and a duplicate one
    every other season."""
    classic = [t for t in tournaments if t.discipline == "classique"]
    dup = [t for t in tournaments if t.discipline == "duplicate"]
    if classic:
        classic[len(classic) // 2].flavour = "xlsx"
    if dup and s % 2 == 0:
        dup[len(dup) // 3].flavour = "xlsx"
