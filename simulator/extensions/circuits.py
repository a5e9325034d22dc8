"""The regional circuits of the simulated clubs Des chiffres et des lettres (docs/rules.md §5).

Every season, for the calendar years it spans, this extension writes (files of a tournament
in the season folder of its date):

- the **PACA circuit**: its recurring tournaments (`PACA_EVENTS`, one edition a year about
  the same day), played by players of the region's clubs only (so that its club ranking
  holds PACA clubs) as DCDL tournaments with an opening duplicate (`duplicate_rank`),
  Swiss rounds and their games, flagged `circuit` = `PACA` (`<tid>.csv`, `<tid>_games.csv`);
  a `circuit calendar` export per season (`calendrier_PACA_<season>.csv`): the season's
  editions, held or cancelled, each with the day it was announced, and the editions of the
  next months already announced; the first season's file also lists the editions held
  before the data starts (without results), and the first season writes the ranking
  published before it (`circuit_PACA_<as_of>.csv`, a `circuit ranking` export) that gives
  the first seeds;
- the **Masters Grand Sud**: the season's Masters (the simulated calendar's DCDL round
  robin of 16) is flagged `circuit` = `Masters Grand Sud`; its annual ranking is written as a
  `circuit ranking` export (`circuit_masters-grand-sud_<as_of>.csv`: its 16 players in the
  order of their round-robin numbers, with one invited player who did not come, so that the
  16th comes from the 17th place) and its matches as a `matches` export
  (`<tid>_matches.csv`: moves won by each side, consistent with the games' results);
- the **Grand Est championship** of the data's second calendar year (`first_season + 1`):
  six qualifying DCDL tournaments flagged `Grand Est`, then in November a duplicate-match
  final of 16 (`category` `finale`, no games export but a `matches` export with the moves
  at the top): the 16 best of the qualifiers by a points table of the simulated world (one
  of them absent, replaced by the 17th), one of whom withdraws after round 12.

Scenario (docs/rules.md §5 cases): in the data's second calendar year the PACA edition of
Menton is announced late (after its previous edition's anniversary) and held seven weeks
later than usual, after Sisteron — the ranking after Sisteron drops Menton's previous
points, Menton's new edition brings its own; in the third, Arles is cancelled (its previous
points drop after their anniversary); the Sept–Dec editions of the year the last season
ends in stay announced.

Randomness: a calendar year's plan (dates, statuses, announcement days) is drawn from a
stream of its own, `(seed, 3, year, "circuits")`, so that the two seasons a calendar year
spans draw the same plan; what is played in a season draws from `ctx.rng("circuits")`. The
Grand Est qualifiers played in one season are remembered for the final played in the next
(`_STATE`, keyed by the simulation). Same seed, same files; the first seasons do not depend
on the number of seasons.
"""

from __future__ import annotations

import csv
import datetime as dt
import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simulator.calendar import DCDL_OPEN, MASTERS, MASTERS_NAME, EventSpec, EventTemplate
from simulator.extensions import SeasonContext
from simulator.names import named
from simulator.season import Simulator
from simulator.tournament import (
    Edition,
    Tournament,
    _ordered,
    _player_columns,
    _tournament_columns,
    play_match_event,
)
from transforms.circuits import CALENDAR_COLUMNS
from transforms.ranking import competition_ranks
from transforms.round_robin.matches import MATCH_COLUMNS
from transforms.round_robin.pairings import default_pairings
from transforms.tables import table

ORDER = 50
KEY = "circuits"

PACA = "PACA"
MASTERS_CIRCUIT = "Masters Grand Sud"
GRAND_EST = "Grand Est"
# How organisers write the PACA circuit in their results (all read through circuits.csv).
PACA_WRITTEN = ("PACA", "PACA", "PACA", "Région PACA")

# The recurring PACA tournaments: event key, city (of the simulated world), usual day.
PACA_EVENTS: tuple[tuple[str, str, tuple[int, int]], ...] = (
    ("Saint-Tropez", "Saint-Tropez", (1, 14)),
    ("Avignon", "Avignon", (3, 10)),
    ("Orange", "Orange", (4, 14)),
    ("Arles", "Arles", (6, 12)),
    ("Aix-en-Provence", "Aix-en-Provence", (9, 22)),
    ("Menton", "Menton", (10, 6)),
    ("Sisteron", "Sisteron", (11, 17)),
    ("Nice", "Nice", (12, 8)),
)
CANCELLED_EVENT, LATE_EVENT = "Arles", "Menton"
LATE_DELAY = 49  # days the late-announced edition is held after its usual day
# Grand Est: the qualifiers (city, usual day) and the final.
GRAND_EST_QUALIFIERS: tuple[tuple[str, tuple[int, int]], ...] = (
    ("Reims", (3, 6)),
    ("Dijon", (4, 10)),
    ("Metz", (5, 22)),
    ("Nancy", (6, 5)),
    ("Troyes", (9, 4)),
    ("Épinal", (9, 18)),
)
GRAND_EST_FINAL = ("Nancy", (11, 20))
GRAND_EST_FINAL_NAME = "Finale des Pointures du Grand Est"
FINAL_PLAYERS = 16
FINAL_MOVES = 10  # duplicate-match moves of a Grand Est final's match
WITHDRAWAL_AFTER = 12
FINAL_DATES = 4  # Sundays the final may be held on, from its usual one
# The simulated world's qualifying points by place (the organisers' barème: 40, 35, 32, 30,
# then one point less per place down to 2 for the 32nd; nothing beyond).
QUALIFYING_TOP, QUALIFYING_BASE, QUALIFYING_LAST = (40, 35, 32, 30), 34, 32
# Field weights: by relation to the circuit's region, and for non-DCDL players.
REGION_WEIGHT = {"home": 1.0, "france": 0.25, "abroad": 0.03}
NON_DCDL_WEIGHT = 0.03

# The files' headers: the exports' columns as their tables declare them.
CALENDAR_HEADER = CALENDAR_COLUMNS
RANKING_HEADER = tuple(table("published_circuit_rankings").export_schema)
MATCHES_HEADER = MATCH_COLUMNS
GE_MATCHES_HEADER = (*MATCHES_HEADER, "player_top_moves")


_CalendarRow = tuple[str, str, int, dt.date, dt.date, str, str | None]


@dataclass(frozen=True)
class _Planned:
    """One edition of a recurring circuit tournament in a year's plan."""

    event: str
    city: str
    index: int  # position of the event in its circuit (tournament ids)
    date: dt.date
    status: str  # held, cancelled
    announced_on: dt.date


@dataclass
class _State:
    """What a season leaves for the next: the Grand Est qualifiers played (population
    indices in place order, and their places)."""

    qualifiers: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)


_STATE: weakref.WeakKeyDictionary[Simulator, _State] = weakref.WeakKeyDictionary()


def _plan_rng(seed: int, year: int, key: str) -> np.random.Generator:
    return np.random.default_rng([seed, 3, year, *(ord(c) for c in key)])


def _sunday(day: dt.date) -> dt.date:
    return day + dt.timedelta(days=(6 - day.weekday()) % 7)


def paca_plan(seed: int, year: int, first_year: int) -> list[_Planned]:
    """The PACA editions of `year`, in date order (`first_year`: the data's first season's
    first year; the scenario's editions are those of `first_year + 1` and `+ 2`)."""
    rng = _plan_rng(seed, year, KEY)
    plan = []
    for k, (event, city, (month, day)) in enumerate(PACA_EVENTS, start=1):
        jitter = int(rng.integers(-6, 7))
        lead = int(rng.integers(90, 220))
        cancelled = rng.random() < 0.04
        date = _sunday(dt.date(year, month, day) + dt.timedelta(days=jitter))
        if date.year != year:
            date = _sunday(dt.date(year, month, day) - dt.timedelta(days=7))
        announced = date - dt.timedelta(days=lead)
        status = "cancelled" if cancelled else "held"
        if year == first_year + 2 and event == CANCELLED_EVENT:
            status = "cancelled"
        if year == first_year + 1 and event == LATE_EVENT:
            date = _sunday(date + dt.timedelta(days=LATE_DELAY))
            announced = date - dt.timedelta(days=10)
            status = "held"
        plan.append(_Planned(event, city, k, date, status, announced))
    return sorted(plan, key=lambda p: (p.date, p.event))


def _season_first_year(day: dt.date, start: tuple[int, int]) -> int:
    """The first year of the season holding `day` (seasons start on month/day `start`)."""
    return day.year if (day.month, day.day) >= start else day.year - 1


def _paca_tid(edition: _Planned, start: tuple[int, int]) -> str:
    return f"L{_season_first_year(edition.date, start)}-P{edition.index:02d}"


# ---------------------------------------------------------------------------- fields


def _weights(ctx: SeasonContext, region: tuple[str, ...], *, visitors: bool = True) -> np.ndarray:
    """Each player's weight for a field of a circuit of `region` (active players only);
    without `visitors`, the players of the region's clubs only."""
    pop, world = ctx.sim.pop, ctx.sim.world
    regions = np.array(world.regions)[world.city_region[pop.city]]
    home = np.isin(regions, list(region))
    france = pop.fed == 0
    away = np.where(france, REGION_WEIGHT["france"], REGION_WEIGHT["abroad"]) if visitors else 0.0
    place = np.where(home, REGION_WEIGHT["home"], away)
    taste = np.where(pop.dcdl_activity > 0, pop.dcdl_activity, NON_DCDL_WEIGHT)
    return np.where(pop.active, place * taste, 0.0)


def _busy(ctx: SeasonContext, day: dt.date) -> np.ndarray:
    """Players (population indices) of the season's tournaments held on `day`."""
    pop = ctx.sim.pop
    index = {str(lic): i for i, lic in enumerate(pop.licence.tolist())}
    busy: set[int] = set()
    for tour in ctx.tournaments:
        if tour.edition.start <= day <= tour.edition.end:
            busy.update(index[str(p)] for p in _column(tour.results, "player_id"))
    return np.array(sorted(busy), dtype=np.int64)


def _field(
    ctx: SeasonContext, rng: np.random.Generator, weights: np.ndarray, day: dt.date, size: int
) -> np.ndarray:
    """`size` players drawn by weight among those free on `day`, sorted."""
    w = weights.copy()
    w[_busy(ctx, day)] = 0.0
    candidates = np.flatnonzero(w > 0)
    size = min(size, candidates.size)
    keys = rng.exponential(size=candidates.size) / w[candidates]
    chosen = candidates[np.argsort(keys, kind="stable")[:size]]
    return np.sort(chosen)


def _swiss(
    ctx: SeasonContext,
    rng: np.random.Generator,
    tid: str,
    name: str,
    city: str,
    day: dt.date,
    players: np.ndarray,
    circuit: str,
) -> Tournament:
    """A one-day DCDL tournament of the circuit: an opening duplicate, then Swiss rounds."""
    world = ctx.sim.world
    template = EventTemplate(DCDL_OPEN, name, world.city(city), 1, 0, None, duplicate_rank=True)
    rounds = int(rng.integers(5, 8))
    tour = play_match_event(
        rng, Edition(template, tid, day, day), players, rounds, ctx.sim.pop, world
    )
    tour.results["circuit"] = circuit
    draw = rng.random()
    tour.flavour = "fr" if draw < 0.2 else "bom" if draw < 0.25 else "utf8"
    return tour


def _column(data: dict[str, object], name: str) -> list[Any]:
    """A per-row column of a tournament's results or games."""
    value = data[name]
    if not isinstance(value, list):
        raise TypeError(f"{name} is not a per-row column")
    return value


def _write_csv(
    ctx: SeasonContext, name: str, header: tuple[str, ...], rows: list[list[object]]
) -> None:
    path = ctx.folder / name
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(["" if v is None else v for v in r] for r in rows)
    ctx.wrote(path, len(rows))


# ---------------------------------------------------------------------------- PACA


def _paca(ctx: SeasonContext) -> None:
    sim = ctx.sim
    first_year = sim.config.first_season
    start, end = sim.calendar.bounds(ctx.season)
    season_start = (start.month, start.day)
    rng = ctx.rng(KEY)
    # the regional circuit of the PACA clubs: its tournaments are played by their players
    # (its club ranking holds PACA clubs only)
    weights = _weights(ctx, ("PACA",), visitors=False)
    rows: list[_CalendarRow] = []

    def row(e: _Planned, status: str, tid: str | None) -> _CalendarRow:
        return (PACA, e.event, e.date.year, e.date, e.announced_on, status, tid)

    if ctx.index == 0:  # the editions held before the data starts, without results
        for year in (start.year - 1, start.year):
            for e in paca_plan(ctx.seed, year, first_year):
                if e.date < start:
                    held = e.status == "held"
                    rows.append(row(e, e.status, _paca_tid(e, season_start) if held else None))
        _initial_ranking(ctx, rng, weights, start - dt.timedelta(days=1))
    for year in sorted({start.year, end.year}):
        for e in paca_plan(ctx.seed, year, first_year):
            if not start <= e.date <= end:
                continue
            if e.status != "held":
                rows.append(row(e, e.status, None))
                continue
            tid = _paca_tid(e, season_start)
            players = _field(ctx, rng, weights, e.date, int(rng.integers(10, 23)))
            if players.size < 8:
                rows.append(row(e, "cancelled", None))
                continue
            name = named("Tournoi DCDL {de}{city}", e.city)
            written = PACA_WRITTEN[int(rng.integers(len(PACA_WRITTEN)))]
            ctx.tournaments.append(_swiss(ctx, rng, tid, name, e.city, e.date, players, written))
            rows.append(row(e, "held", tid))
    # the editions of the next months already announced at the season's end
    for e in paca_plan(ctx.seed, end.year, first_year):
        if e.date > end and e.announced_on <= end and e.status == "held":
            rows.append(row(e, "announced", None))
    rows.sort(key=lambda r: (r[3], r[1], r[5]))
    _write_csv(ctx, f"calendrier_PACA_{ctx.season}.csv", CALENDAR_HEADER, [list(r) for r in rows])


def _initial_ranking(
    ctx: SeasonContext, rng: np.random.Generator, weights: np.ndarray, as_of: dt.date
) -> None:
    """The PACA ranking published the day before the data starts: the best of about 30
    players of the region's taste, with decreasing best-5 totals."""
    pop = ctx.sim.pop
    candidates = np.flatnonzero(weights > 0)
    keys = rng.exponential(size=candidates.size) / weights[candidates]
    chosen = candidates[np.argsort(keys, kind="stable")[: min(30, candidates.size)]]
    strength = pop.dcdl_skill[chosen] + rng.normal(0.0, 0.5, chosen.size)
    order = chosen[np.argsort(-strength, kind="stable")]
    totals = np.round(np.sort(rng.uniform(250, 3200, order.size))[::-1] * 2) / 2
    place = competition_ranks(totals)
    rows = [
        [PACA, as_of, str(pop.licence[i]), int(p), float(t)]
        for i, p, t in zip(order.tolist(), place.tolist(), totals.tolist(), strict=True)
    ]
    _write_csv(ctx, f"circuit_PACA_{as_of.isoformat()}.csv", RANKING_HEADER, rows)


# ---------------------------------------------------------------------------- Masters


def _masters_seeds(tour: Tournament) -> dict[str, int] | None:
    """The round-robin numbers (1..16) of the Masters' players, read back from its games:
    number 1 plays the first table of every round and meets number 17 − r in round r
    (`default_pairings`). None when the games do not follow the default table."""
    games = tour.games
    if games is None:
        return None
    rounds, players, opponents = (_column(games, c) for c in ("round", "player_id", "opponent_id"))
    first = players[0]
    seeds = {first: 1}
    for r, p, o in zip(rounds, players, opponents, strict=True):
        if p == first:
            seeds[o] = FINAL_PLAYERS + 1 - r
    if sorted(seeds.values()) != list(range(1, FINAL_PLAYERS + 1)):
        return None
    expected = {
        (pr.match, frozenset((pr.player_a, pr.player_b))) for pr in default_pairings(FINAL_PLAYERS)
    }
    played = {
        (r, frozenset((seeds[p], seeds[o])))
        for r, p, o in zip(rounds, players, opponents, strict=True)
    }
    return seeds if played == expected else None


def _masters(ctx: SeasonContext) -> None:
    rng = ctx.rng(KEY + "-masters")
    pop = ctx.sim.pop
    for tour in ctx.tournaments:
        template = tour.edition.template
        if template.name != MASTERS_NAME or template.spec is not MASTERS:
            continue
        seeds = _masters_seeds(tour)
        if seeds is None:
            continue
        tour.results["circuit"] = MASTERS_CIRCUIT
        by_seed = sorted(seeds, key=seeds.__getitem__)
        # the annual ranking: one invited player did not come (the 4th), so the 16th
        # player of the round robin was the 17th of the ranking; then a few more
        present = set(by_seed)
        others = [
            str(pop.licence[i])
            for i in np.flatnonzero(pop.active & (pop.dcdl_activity > 0)).tolist()
            if str(pop.licence[i]) not in present
        ]
        extra = [others[i] for i in rng.permutation(len(others))[:4].tolist()]
        ranked = [*by_seed[:3], *extra[:1], *by_seed[3:], *extra[1:]]
        as_of = tour.edition.start - dt.timedelta(days=14)
        totals = np.sort(rng.uniform(400, 2600, len(ranked)))[::-1].round()
        _write_csv(
            ctx,
            f"circuit_masters-grand-sud_{as_of.isoformat()}.csv",
            RANKING_HEADER,
            [
                [MASTERS_CIRCUIT, as_of, pid, k, float(t)]
                for k, (pid, t) in enumerate(zip(ranked, totals.tolist(), strict=True), start=1)
            ],
        )
        tables = {
            (pr.match, pr.player_a, pr.player_b): pr.table for pr in default_pairings(FINAL_PLAYERS)
        }
        games = tour.games or {}
        rows: list[list[object]] = []
        for r, p, o, ps, os_ in zip(
            *(
                _column(games, c)
                for c in ("round", "player_id", "opponent_id", "player_score", "opponent_score")
            ),
            strict=True,
        ):
            a, b = sorted((seeds[p], seeds[o]))
            if ps == os_:
                pm = om = int(rng.integers(4, 7))
            else:
                win = int(rng.integers(6, 11))
                lose = int(rng.integers(max(0, win - 6), win))
                pm, om = (win, lose) if ps > os_ else (lose, win)
            table = tables[(r, a, b)]
            rows.append([tour.tid, r, table, p, o, pm, om])
            rows.append([tour.tid, r, table, o, p, om, pm])
        rows.sort(key=lambda x: (x[1], x[2], seeds[str(x[3])]))
        _write_csv(ctx, f"{tour.tid}_matches.csv", MATCHES_HEADER, rows)


# ---------------------------------------------------------------------------- Grand Est


def _grand_est(ctx: SeasonContext) -> None:
    sim = ctx.sim
    year = sim.config.first_season + 1
    start, end = sim.calendar.bounds(ctx.season)
    season_start = (start.month, start.day)
    state = _STATE.setdefault(sim, _State())
    rng = ctx.rng(KEY + "-grand-est")
    plan = _plan_rng(ctx.seed, year, KEY + "-grand-est")
    weights = _weights(ctx, ("GES", "BFC"))
    dates = [
        _sunday(dt.date(year, month, mday) + dt.timedelta(days=int(plan.integers(-5, 6))))
        for _, (month, mday) in GRAND_EST_QUALIFIERS
    ]
    for k, ((city, _), day) in enumerate(zip(GRAND_EST_QUALIFIERS, dates, strict=True), start=1):
        if not start <= day <= end:
            continue
        players = _field(ctx, rng, weights, day, int(rng.integers(12, 25)))
        if players.size < 8:
            continue
        tid = f"L{_season_first_year(day, season_start)}-G{k:02d}"
        name = named("Qualification du Grand Est {de}{city}", city)
        tour = _swiss(ctx, rng, tid, name, city, day, players, GRAND_EST)
        ctx.tournaments.append(tour)
        index = {str(lic): i for i, lic in enumerate(sim.pop.licence.tolist())}
        ids, ranks = _column(tour.results, "player_id"), _column(tour.results, "rank")
        state.qualifiers.append((np.array([index[p] for p in ids]), np.array(ranks)))
    city, (month, mday) = GRAND_EST_FINAL
    final_day = _sunday(dt.date(year, month, mday))
    if start <= final_day and final_day + dt.timedelta(weeks=FINAL_DATES - 1) <= end:
        _grand_est_final(ctx, rng, state, final_day, city, season_start)


def _grand_est_final(
    ctx: SeasonContext,
    rng: np.random.Generator,
    state: _State,
    day: dt.date,
    city: str,
    season_start: tuple[int, int],
) -> None:
    """The final: the 16 best of the qualifiers still active and free that day (one
    absent, replaced by the 17th), a round robin of duplicate-match games, one withdrawal
    after round 12."""
    pop, world = ctx.sim.pop, ctx.sim.world
    points: dict[int, int] = {}
    for players, ranks in state.qualifiers:
        for i, r in zip(players.tolist(), ranks.tolist(), strict=True):
            if r <= len(QUALIFYING_TOP):
                won = QUALIFYING_TOP[r - 1]
            else:
                won = QUALIFYING_BASE - r if r <= QUALIFYING_LAST else 0
            points[i] = points.get(i, 0) + won
    qualified = sorted(
        (i for i in points if pop.active[i]), key=lambda i: (-points[i], int(pop.licence[i]))
    )
    # the final is held on the Sunday (of the usual one and the next three) when the fewest
    # of the first qualified play another tournament; those who do cannot come
    options = [day + dt.timedelta(weeks=k) for k in range(FINAL_DATES)]
    busy_on = {d: set(_busy(ctx, d).tolist()) for d in options}
    day = min(options, key=lambda d: len(busy_on[d] & set(qualified[: FINAL_PLAYERS + 1])))
    ranked = [i for i in qualified if i not in busy_on[day]]
    if len(ranked) < FINAL_PLAYERS + 1:
        return
    absent = ranked[4]  # the 5th qualified does not come: the 17th plays
    seeds = [i for i in ranked[: FINAL_PLAYERS + 1] if i != absent]
    tid = f"L{_season_first_year(day, season_start)}-GEF"
    skill = pop.dcdl_skill[np.array(seeds)]
    score_p = np.clip(0.55 + 0.12 * skill, 0.2, 0.9)
    top_p = np.clip(0.55 + 0.1 * skill, 0.1, 0.9)
    gone = int(rng.integers(4, FINAL_PLAYERS))  # a seed index 5..16 withdraws
    rows: list[list[object]] = []
    tally = np.zeros((FINAL_PLAYERS, 4), dtype=np.int64)  # points, top, moves, conceded
    for pr in default_pairings(FINAL_PLAYERS):
        a, b = pr.player_a - 1, pr.player_b - 1
        if gone in (a, b) and pr.match > WITHDRAWAL_AFTER:
            continue
        scored_a = rng.random(FINAL_MOVES) < score_p[a]
        scored_b = rng.random(FINAL_MOVES) < score_p[b]
        am, bm = int(scored_a.sum()), int(scored_b.sum())
        if am == bm == 0:  # a match gives a move to one side at least (the ingest's rule)
            am = 1
        at = int((rng.random(am) < top_p[a]).sum())
        bt = int((rng.random(bm) < top_p[b]).sum())
        la, lb = str(pop.licence[seeds[a]]), str(pop.licence[seeds[b]])
        rows.append([tid, pr.match, pr.table, la, lb, am, bm, at])
        rows.append([tid, pr.match, pr.table, lb, la, bm, am, bt])
        for x, xm, ym, xt in ((a, am, bm, at), (b, bm, am, bt)):
            tally[x] += (2 if xm > ym else 1 if xm == ym else 0, xt, xm, ym)
    staying = [k for k in range(FINAL_PLAYERS) if k != gone]
    place = competition_ranks(tally[staying, 0], tally[staying, 1], tally[staying, 2])
    ranks = np.empty(FINAL_PLAYERS, dtype=np.int64)
    ranks[staying] = place
    ranks[gone] = FINAL_PLAYERS
    template = EventTemplate(
        EventSpec("dcdl", "finale", "regional", (16, 16), (15, 15), round_robin=True),
        GRAND_EST_FINAL_NAME,
        world.city(city),
        1,
        0,
    )
    edition = Edition(template, tid, day, day)
    players = np.array(seeds)
    columns = _tournament_columns(edition, world, FINAL_PLAYERS - 1)
    columns.update(_player_columns(pop, world, players))
    columns.update(
        rank=ranks.tolist(),
        wins=[float(t) / 2 for t in tally[:, 0].tolist()],
        circuit=GRAND_EST,
        withdrawn_after_round=[
            WITHDRAWAL_AFTER if k == gone else None for k in range(FINAL_PLAYERS)
        ],
    )
    order = np.lexsort((pop.licence[players], ranks))
    ctx.tournaments.append(Tournament(edition, _ordered(columns, order), None, FINAL_PLAYERS, 0))
    _write_csv(ctx, f"{tid}_matches.csv", GE_MATCHES_HEADER, rows)


def extend(ctx: SeasonContext) -> None:
    """Write the season's circuit exports (module docstring)."""
    _paca(ctx)
    _masters(ctx)
    _grand_est(ctx)


__all__ = ["ORDER", "extend", "paca_plan"]
