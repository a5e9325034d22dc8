"""What the circuit pages share: circuit names and slugs, labels, the year's tournaments,
and what several sections of a year's pages read (`shared`: built once per report data)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Mapping
from typing import Any, Generic, TypeVar
from weakref import WeakKeyDictionary, ref

import polars as pl

from pipelines.reports.data import ReportData
from pipelines.reports.html import Html, fmt_number, player_link
from transforms.circuits import LIST_SEPARATOR
from transforms.federations import AliasTable

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")
D = TypeVar("D")

# From a page of `circuits/<year>/` to the player pages.
PLAYERS_PREFIX = "../../joueurs/"


def circuit_names(data: ReportData) -> AliasTable:
    """The circuits' alias table (`data/reference/circuits.csv`) of the report's reference."""
    return data.params.circuit_names


def slug(code: str) -> str:
    """The page name of a circuit: its code in lower case with dashes (`grand-est`)."""
    return code.lower().replace("_", "-")


def points(value: float | None) -> str:
    """Circuit points, exact: whole numbers without decimals, halves with one (27,5)."""
    if value is None:
        return "—"
    return fmt_number(value, 0 if float(value).is_integer() else 1)


def movement(value: int | None) -> str:
    """Places gained (+3) or lost (−2) since the previous ranking; « nouveau » when absent
    from it, « = » when unchanged."""
    if value is None:
        return "nouveau"
    if value == 0:
        return "="
    return f"+{value}" if value > 0 else f"−{-value}"


class Lookup(Generic[K, V]):
    """A read-only mapping read through `get`: the entries of `first` (the few a page
    shows, looked up cheaply), else those of `whole()` (the whole table's, built on the
    first key `first` lacks) — the same answers as `whole()` alone."""

    def __init__(self, first: Mapping[K, V], whole: Callable[[], Mapping[K, V]]) -> None:
        self._first = first
        self._whole = whole
        self._all: Mapping[K, V] | None = None

    def get(self, key: K, default: D) -> V | D:
        if key in self._first:
            return self._first[key]
        if self._all is None:
            self._all = self._whole()
        return self._all.get(key, default)


# The tables whose players a circuit page names (any year, any circuit), and their columns
# holding player ids or lists of them.
_NAMED = (
    ("circuit_points", "player_id"),
    ("circuit_rankings", "player_id"),
    ("circuit_masters_invitees", "player_id"),
    ("round_robin_standings", "player_id"),
    ("round_robin_standings", "annulled_games"),
    ("grand_est_qualifying", "player_id"),
    ("matches", "player_id"),
    ("matches", "opponent_id"),
)


def page_names(data: ReportData) -> Lookup[str, str]:
    """`player_id` → name (`ReportData.names`), for the circuit pages: the players of the
    circuit tables looked up first, among a few hundred rather than every licensee."""

    def build() -> Lookup[str, str]:
        ids = [data.table(name)[column] for name, column in _NAMED]
        ids.append(data.table("circuit_club_points")["counted_players"].str.split(LIST_SEPARATOR))
        flat = pl.concat([i.explode() if i.dtype == pl.List(pl.String) else i for i in ids])
        players = data.player_names().filter(pl.col("player_id").is_in(flat.implode()))
        first = dict(zip(players["player_id"].to_list(), players["name"].to_list(), strict=True))
        return Lookup(first, _names_of(ref(data)))

    return shared(data, "page_names", build)


def _names_of(held: ref[ReportData]) -> Callable[[], Mapping[str, str]]:
    """`ReportData.names` of the report data `held` refers to, without holding it: a value
    of `_SHARED` that held its own key would keep it alive for ever (see `_SHARED`)."""

    def whole() -> Mapping[str, str]:
        data = held()
        if data is None:  # a lookup outliving its report data: nothing to build from
            raise ReferenceError("les données du rapport n'existent plus")
        return data.names()

    return whole


def who(pid: str, names: Lookup[str, str] | Mapping[str, str]) -> Html:
    """A player's name linking to their page (from a circuit page)."""
    return player_link(pid, names.get(pid, pid), prefix=PLAYERS_PREFIX)


# What the sections of a year's pages share, by report data (a report data reads each table
# once and keeps it, so what is built from its tables holds as long as it lives). A value
# must never refer to its report data (a bound method, a closure over it): the weak key
# would then never go, and every year's report data — its whole tables — stayed in memory
# until the process ended (20 seasons: about 30 MiB a year, 0,6 GiB carried into the
# player pages; issue 25).
_SHARED: WeakKeyDictionary[ReportData, dict[Any, Any]] = WeakKeyDictionary()


def shared(data: ReportData, key: object, build: Callable[[], T]) -> T:
    """`build()`, once per report data and `key`: what several sections (or pages) read."""
    store = _SHARED.setdefault(data, {})
    if key not in store:
        store[key] = build()
    return store[key]


Label = tuple[str, dt.date | None]


def _labels(events: pl.DataFrame) -> dict[str, Label]:
    return {
        tid: (name or tid, end)
        for tid, name, end in events.select(
            "tournament_id", "tournament_name", "end_date"
        ).iter_rows()
    }


def tournament_labels(data: ReportData) -> Lookup[str, Label]:
    """Each tournament's (name, end date): those of a circuit (what the pages show) looked
    up first, among a few hundred rather than every tournament."""

    def build() -> Lookup[str, Label]:
        events = data.table("tournaments")
        first = _labels(events.filter(pl.col("circuit").is_not_null()))
        return Lookup(first, lambda: _labels(events))

    return shared(data, "tournament_labels", build)


def event_order(data: ReportData) -> list[str]:
    """The tournaments' ids in event order (docs/rules.md §0)."""
    return shared(data, "event_order", lambda: data.tournaments()["tournament_id"].to_list())


def results_of(data: ReportData, ids: Collection[str]) -> pl.DataFrame:
    """The `results` rows of the tournaments `ids`, in the table's order
    (`ReportData.tournament_results`): not the whole table — a year's circuit page shows a
    few tournaments of a warehouse of many seasons."""
    return data.tournament_results(list(ids))


def for_year(frame: pl.DataFrame, year: str) -> pl.DataFrame:
    return frame.filter(pl.col("year") == int(year))
