"""A held tournament and what is written for it: its results (and games) as columns keyed
by the canonical column names of the export schema, rows in place order (then licence).

Places are competition ranks (`transforms.ranking`): tied players share the best place.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np

from simulator.calendar import EventTemplate
from simulator.names import ALL_FIRST, ALL_LAST, FEDERATIONS
from simulator.play import Matches, draw_tops, duplicate_scores, play_matches
from simulator.world import Population, World, series_labels
from transforms.ranking import competition_ranks

# Noise of the seeding of a classique or DCDL tournament around the players' strength.
SEEDING_NOISE = 0.4


@dataclass(frozen=True)
class Edition:
    """One season's edition of a recurring event: its tournament id and dates."""

    template: EventTemplate
    tid: str
    start: dt.date
    end: dt.date


@dataclass(frozen=True)
class Performance:
    """The scores of the players of a duplicate tournament (in the order they were given)
    and its total of tops."""

    score: np.ndarray
    top_total: int


@dataclass
class Tournament:
    """A held tournament: what is written for it."""

    edition: Edition
    results: dict[str, object]  # canonical column -> scalar or per-row list
    games: dict[str, object] | None
    n_rows: int
    n_games: int
    flavour: str = "utf8"  # utf8, bom, fr, xlsx

    @property
    def tid(self) -> str:
        return self.edition.tid

    @property
    def discipline(self) -> str:
        return self.edition.template.discipline


def play_duplicate(
    rng: np.random.Generator,
    edition: Edition,
    players: np.ndarray,
    games: int,
    pop: Population,
    world: World,
) -> tuple[Tournament, Performance]:
    """A duplicate tournament of `games` games among `players` (population indices), and
    their scores, which the season's classification adds up."""
    tops = draw_tops(rng, games)
    top_total = int(tops.sum())
    scores = duplicate_scores(rng, pop.skill[players], tops).sum(axis=1)
    score = np.minimum(scores, top_total - 1)
    rank = competition_ranks(score)
    columns = _tournament_columns(edition, world, games)
    columns["top_total"] = top_total
    columns.update(_player_columns(pop, world, players))
    columns.update(
        rank=rank.tolist(),
        series=series_labels(pop.series[players]),
        score=score.tolist(),
    )
    order = np.lexsort((pop.licence[players], rank))
    tournament = Tournament(edition, _ordered(columns, order), None, players.size, 0)
    return tournament, Performance(score, top_total)


def play_match_event(
    rng: np.random.Generator,
    edition: Edition,
    players: np.ndarray,
    rounds: int,
    pop: Population,
    world: World,
) -> Tournament:
    """A classique or DCDL tournament among `players`: `rounds` Swiss rounds (at most one
    fewer than the players), or a full round robin; ranked by wins, then spread. A
    classique event of the circuit region also ranks an opening duplicate game."""
    t = edition.template
    if t.spec.round_robin:
        rounds = players.size - 1 + players.size % 2
    else:
        rounds = min(rounds, players.size - 1)
    strength = (
        pop.classic_skill[players] if t.discipline == "classique" else pop.dcdl_skill[players]
    )
    seeding = strength + rng.normal(0.0, SEEDING_NOISE, players.size)
    matches = play_matches(rng, t.discipline, strength, seeding, rounds, t.spec.round_robin)
    rank = competition_ranks(matches.wins, matches.spread)
    columns = _tournament_columns(edition, world, rounds)
    columns.update(_player_columns(pop, world, players))
    columns.update(rank=rank.tolist(), wins=matches.wins.tolist(), spread=matches.spread.tolist())
    if t.duplicate_rank:
        opening = duplicate_scores(rng, pop.skill[players], draw_tops(rng, 1))[:, 0]
        columns["duplicate_rank"] = competition_ranks(opening).tolist()
    if t.bonus is not None:
        columns.update(bonus_m=t.bonus[0], pj_min=t.bonus[1], pj_max=t.bonus[2])
    games = _games_columns(edition, matches, pop.licence[players].astype(str).tolist())
    order = np.lexsort((pop.licence[players], rank))
    return Tournament(edition, _ordered(columns, order), games, players.size, len(matches.round))


def _games_columns(edition: Edition, matches: Matches, licences: list[str]) -> dict[str, object]:
    """The games, one row per game (a bye without opponent and scores), by licence."""
    return {
        "tournament_id": edition.tid,
        "round": matches.round,
        "player_id": [licences[i] for i in matches.player],
        "opponent_id": [None if i is None else licences[i] for i in matches.opponent],
        "player_score": matches.player_score,
        "opponent_score": matches.opponent_score,
    }


def _player_columns(pop: Population, world: World, players: np.ndarray) -> dict[str, object]:
    first = np.array(ALL_FIRST, dtype=object)
    last = np.array(ALL_LAST, dtype=object)
    feds = np.array([fed.code for fed in FEDERATIONS], dtype=object)
    clubs = np.array(world.club_name, dtype=object)
    return {
        "player_id": pop.licence[players].astype(str).tolist(),
        "last_name": last[pop.last[players]].tolist(),
        "first_name": first[pop.first[players]].tolist(),
        "birth_year": pop.birth_year[players].tolist(),
        "federation": feds[pop.fed[players]].tolist(),
        "club": clubs[pop.club[players]].tolist(),
    }


def _tournament_columns(edition: Edition, world: World, games: int) -> dict[str, object]:
    t = edition.template
    columns: dict[str, object] = {
        "tournament_id": edition.tid,
        "tournament_name": t.name,
        "discipline": t.discipline,
        "start_date": edition.start,
        "end_date": edition.end,
        "city": world.city_name[t.city],
        "country": FEDERATIONS[int(world.city_fed[t.city])].country,
        "category": t.spec.category,
        "games": games,
    }
    if t.spec.coefficient is not None:
        columns["coefficient"] = t.spec.coefficient
    return columns


def _ordered(columns: dict[str, object], order: np.ndarray) -> dict[str, object]:
    """The per-row columns taken in `order`; scalars as they are."""
    return {
        key: [value[i] for i in order] if isinstance(value, list) else value
        for key, value in columns.items()
    }
