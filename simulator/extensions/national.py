"""National classifications (docs/rules.md §4): what the simulated sample needs so that
every national rule has players on both sides of its bars.

Each season this extension

- adds the small federations' own duplicate events: a Swiss circuit (`SWISS_CIRCUIT`
  events, on top of the Swiss championship and opens of the base calendar, so that most
  Swiss players reach the 3 Swiss events of the Swiss rule and some stay at 2 or fewer), and
  opens held in Luxembourg and in the United Kingdom. Their fields are the host
  federation's players who played duplicate in the season and are free that day, each
  coming with a probability (`TURNOUT`), with visitors of the neighbouring federations
  (same cluster) up to the usual size of a duplicate field; an event that fewer than
  `MIN_OWN` of the host's players would come to is not held. They are played like every
  duplicate event (scores, total of tops, ranks, the series held in the season) and
  written like them;
- writes, for every event held in Belgium, Switzerland, Luxembourg or the United Kingdom,
  the country and the host federation's players' federation the way that organiser
  writes them (`SPELLINGS`: codes, acronyms, French names — `CH`, `Suisse`, `FSSc`, …),
  as real exports do; the federations alias table (`data/reference/federations.csv`)
  maps them back, the official names included (`Grand-Duché de Luxembourg`, unknown to
  it until issue 26 added the official names of the countries).

Draws come from the extension's own stream (`ctx.rng("national")`): the base simulation
and the other extensions are unchanged by it, and the same seed gives the same files.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

import numpy as np

from simulator.calendar import MIN_SIZE, EventSpec, EventTemplate
from simulator.extensions import SeasonContext
from simulator.names import FEDERATIONS, named
from simulator.season import BOM_FILES, FRENCH_FILES, TID_PREFIX
from simulator.tournament import Edition, Tournament, play_duplicate
from simulator.world import series_labels

ORDER = 10  # early: the events it adds are seen by the extensions after it

# A small federation's own duplicate event: 2 or 3 games, coefficient 1.
LOCAL_EVENT = EventSpec("duplicate", "open", "local", (8, 60), (2, 3), coefficient=1.0)
# The events each federation adds per season: (name pattern, city), in season order.
SWISS_CIRCUIT = (
    ("Circuit suisse, étape {de}{city}", "Lausanne"),
    ("Circuit suisse, étape {de}{city}", "Neuchâtel"),
    ("Circuit suisse, étape {de}{city}", "Fribourg"),
    ("Circuit suisse, étape {de}{city}", "Sion"),
)
ADDED_EVENTS: dict[str, tuple[tuple[str, str], ...]] = {
    "SUI": SWISS_CIRCUIT,
    "LUX": (("Open {de}{city}", "Luxembourg"), ("Tournoi {de}{city}", "Esch-sur-Alzette")),
    "GBR": (("Open francophone {de}{city}", "Londres"), ("Tournoi {de}{city}", "Édimbourg")),
}
# An added event is held when at least this many of the host federation's players come.
MIN_OWN = 6
# Chance that a player of the host federation, free that day, plays its added event.
TURNOUT = {"SUI": 0.5, "LUX": 0.8, "GBR": 0.8}
# How organisers of each country write the country and their own players' federation
# (each event draws one of each), the official name `Grand-Duché de Luxembourg` included.
SPELLINGS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "BEL": (("Belgique", "BE", "Belgium"), ("BEL", "FBS", "Belgique", "BE")),
    "SUI": (("Suisse", "CH", "Schweiz", "SUI"), ("SUI", "FSSc", "Suisse", "CH")),
    "LUX": (("Luxembourg", "LU", "Grand-Duché de Luxembourg"), ("LUX", "FLSc", "Luxembourg")),
    "GBR": (("Royaume-Uni", "UK", "GB"), ("GBR", "ACSF-RU", "Royaume-Uni", "UK")),
}
# Days of the season around which the added events are held (spread over the season).
FIRST_DAY, LAST_DAY = 30, 300


def _column(tour: Tournament, name: str) -> list[Any]:
    """A per-row column of what is written for a tournament."""
    return cast(list[Any], tour.results[name])


def _saturday(start: dt.date, day: int) -> dt.date:
    date = start + dt.timedelta(days=day)
    return date + dt.timedelta(days=(5 - date.weekday()) % 7)


def _busy(tournaments: list[Tournament]) -> dict[str, list[tuple[dt.date, dt.date]]]:
    """Licence → the dates of the events the player plays this season."""
    busy: dict[str, list[tuple[dt.date, dt.date]]] = {}
    for tour in tournaments:
        dates = (tour.edition.start, tour.edition.end)
        for licence in _column(tour, "player_id"):
            busy.setdefault(str(licence), []).append(dates)
    return busy


def _free(
    busy: dict[str, list[tuple[dt.date, dt.date]]], licences: np.ndarray, day: dt.date
) -> np.ndarray:
    """Which of `licences` play no other event on `day`."""
    return np.array(
        [all(not (a <= day <= b) for a, b in busy.get(str(lic), [])) for lic in licences],
        dtype=bool,
    )


def _added_events(ctx: SeasonContext, rng: np.random.Generator) -> list[Tournament]:
    """The small federations' own events of the season (numbered after the base ones):
    the host federation's players who come (`TURNOUT`), at least `MIN_OWN` of them, and
    visitors of the same cluster of federations up to the field size of the duplicate
    events (`MIN_SIZE`) and a few more. Everyone drawn played duplicate in the season."""
    sim, tournaments = ctx.sim, ctx.tournaments
    pop, world = sim.pop, sim.world
    ranking = sim.rankings[-1]  # who played duplicate this season, the series they held
    played = np.sort(ranking.players)
    held = dict(zip(ranking.players.tolist(), series_labels(ranking.held), strict=True))
    year = int(ctx.season[:4])
    start = sim.calendar.bounds(ctx.season)[0]
    prefix = f"{TID_PREFIX['duplicate']}{year}-"
    numbers = [int(t.tid[len(prefix) :]) for t in tournaments if t.tid.startswith(prefix)]
    number = max(numbers, default=0)
    busy = _busy(tournaments)
    codes = np.array([fed.code for fed in FEDERATIONS])
    added: list[Tournament] = []
    for code, events in ADDED_EVENTS.items():
        host = int(np.flatnonzero(codes == code)[0])
        members = played[pop.fed[played] == host]
        cluster = world.fed_cluster[pop.fed[played]] == world.fed_cluster[host]
        guests = played[cluster & (pop.fed[played] != host)]
        days = np.linspace(FIRST_DAY, LAST_DAY, len(events) + 2)[1:-1]
        for (pattern, city), around in zip(events, days, strict=True):
            day = _saturday(start, int(around) + int(rng.integers(-10, 11)))
            comes = rng.random(members.size) < TURNOUT[code]
            own = members[comes & _free(busy, pop.licence[members], day)]
            free_guests = guests[_free(busy, pop.licence[guests], day)]
            wanted = max(MIN_SIZE["duplicate"] - own.size, 0) + int(rng.integers(0, 6))
            visitors = rng.permutation(free_guests)[: min(wanted, free_guests.size)]
            games = int(rng.integers(LOCAL_EVENT.rounds[0], LOCAL_EVENT.rounds[1] + 1))
            field = np.sort(np.concatenate([own, visitors]))
            if own.size < MIN_OWN or field.size < MIN_SIZE["duplicate"]:
                continue  # not held: too few players come
            number += 1
            template = EventTemplate(
                LOCAL_EVENT, named(pattern, city), world.city(city), 1, int(around)
            )
            edition = Edition(template, f"{prefix}{number:03d}", day, day)
            tour, _ = play_duplicate(rng, edition, field, games, pop, world)
            index = dict(zip(pop.licence[field].astype(str).tolist(), field.tolist(), strict=True))
            tour.results["series"] = [held[index[str(lic)]] for lic in _column(tour, "player_id")]
            draw = rng.random()
            tour.flavour = "fr" if draw < FRENCH_FILES else "bom" if draw < BOM_FILES else "utf8"
            for lic in _column(tour, "player_id"):
                busy.setdefault(str(lic), []).append((day, day))
            added.append(tour)
    return added


def _write_spellings(ctx: SeasonContext, rng: np.random.Generator) -> None:
    """Each event held in a country of `SPELLINGS`: the country and the host federation's
    players' federation as its organiser writes them."""
    world = ctx.sim.world
    for tour in ctx.tournaments:
        if tour.discipline != "duplicate":
            continue
        host = FEDERATIONS[int(world.city_fed[tour.edition.template.city])].code
        if host not in SPELLINGS:
            continue
        countries, federations = SPELLINGS[host]
        country = countries[int(rng.integers(len(countries)))]
        federation = federations[int(rng.integers(len(federations)))]
        tour.results["country"] = country
        tour.results["federation"] = [
            federation if f == host else f for f in _column(tour, "federation")
        ]


def extend(ctx: SeasonContext) -> None:
    rng = ctx.rng("national")
    ctx.tournaments.extend(_added_events(ctx, rng))
    _write_spellings(ctx, rng)
