"""The season plan: every table of one season computed from its inputs and the rule
parameters, in one place, Dagster-free.

`compute_season(inputs, families)` runs the season's rule families in their order — the
duplicate series (event scores, standings, the classification with its bars, movements
and provisional classification), the cote, Elo, their rankings, the national
classifications, the comparison with the FFSc's published series, the Mort Subite
challenge, the game-sheet audit and the data-quality notes — and returns their tables by
name. Its three callers compute a season the same way:

- each season asset of the code location asks for its own family (`pipelines/defs/`): the
  tables of the families it follows are read from the warehouse, written by the assets
  upstream;
- the what-if (`pipelines.whatif.compute`) asks for the families a changed parameter
  touches, season after season, the earlier seasons' recomputed tables given in place of
  the stored ones;
- the benchmark (`benchmarks.season`) reads every input first (untimed), then times the
  ratings' and series' families.

`SeasonInputs` reads each input once, when a family first asks for it, from a warehouse;
frames given to it (`given`) or computed earlier in the same plan take precedence over
the warehouse. Every rule is a transform (`transforms/`); only reading happens here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import polars as pl

from pipelines.reference.bundle import Parameters
from pipelines.warehouse import Warehouse
from transforms import classique_series, cote, elo
from transforms.calendar import ordered_events, previous_season
from transforms.federations import AliasTable
from transforms.mort_subite.challenge import challenge
from transforms.mort_subite.rules import with_host_series
from transforms.national import classify_national
from transforms.quality import name_notes, unknown_federations_and_countries
from transforms.scoring import audit_game_sheets
from transforms.series import (
    SeriesParams,
    SeriesQuotas,
    classify_season,
    duplicate_event_scores,
    season_standings,
)
from transforms.series_comparison import compare_series
from transforms.series_population import (
    event_series,
    new_licensees,
    player_federations,
    season_series,
    series_held,
)
from transforms.series_provisional import provisional_changes
from transforms.tables import table

Frames = dict[str, pl.DataFrame]

# ---------------------------------------------------------------------------- reading


def season_rows(wh: Warehouse, name: str, season: str) -> pl.DataFrame:
    """A season-partitioned table's rows of `season` (none before its first build)."""
    return wh.read_if(name, f'SELECT * FROM "{name}" WHERE season = ?', [season])


def season_tournaments(wh: Warehouse, season: str, discipline: str | None = None) -> pl.DataFrame:
    """The season's tournaments (of one discipline when given)."""
    if discipline is None:
        return wh.read("SELECT * FROM tournaments WHERE season = ?", [season])
    return wh.read(
        "SELECT * FROM tournaments WHERE season = ? AND discipline = ?", [season, discipline]
    )


def season_results(wh: Warehouse, season: str, discipline: str | None = None) -> pl.DataFrame:
    """The season's results rows (of one discipline when given), with each tournament's
    dates: `results` columns plus `end_date` and `start` (the start date, else the end)."""
    where = "t.season = ?" + ("" if discipline is None else " AND t.discipline = ?")
    params: list[object] = [season] if discipline is None else [season, discipline]
    return wh.read(
        "SELECT r.*, t.end_date, coalesce(t.start_date, t.end_date) AS start "
        f"FROM results r JOIN tournaments t USING (tournament_id) WHERE {where}",
        params,
    )


def history_through(wh: Warehouse, name: str, season: str, *, inclusive: bool) -> pl.DataFrame:
    """The rows of `cote_history` or `elo_history` of the seasons before `season` (and of
    `season` itself when `inclusive`), in event order."""
    if name not in wh.tables():
        return wh.empty(name)
    op = "<=" if inclusive else "<"
    rows = wh.read(
        f'SELECT h.*, t.end_date, t.start_date FROM "{name}" h '
        f"JOIN tournaments t USING (tournament_id) WHERE h.season {op} ?",
        [season],
    )
    return ordered_events(rows).drop("end_date", "start_date")


def in_event_order(history: pl.DataFrame, tournaments: pl.DataFrame) -> pl.DataFrame:
    """History rows sorted as `history_through` sorts them (their tournaments' dates)."""
    dated = history.join(
        tournaments.select("tournament_id", "end_date", "start_date"), on="tournament_id"
    )
    return ordered_events(dated).drop("end_date", "start_date")


def mort_subite_exports(
    wh: Warehouse, start: dt.date, end: dt.date
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The Mort Subite players rows of the rounds dated from `start` to `end` and their
    moves."""
    if "mort_subite_players" not in wh.tables():
        return wh.empty("mort_subite_players"), wh.empty("mort_subite_moves")
    players = wh.read(
        "SELECT * FROM mort_subite_players WHERE date BETWEEN ? AND ? "
        "ORDER BY source_file, date, round_id, player_id",
        [start, end],
    )
    moves = wh.read(
        "SELECT m.* FROM mort_subite_moves m WHERE m.round_id IN "
        "(SELECT round_id FROM mort_subite_players WHERE date BETWEEN ? AND ?) "
        "ORDER BY m.round_id, m.move, m.player_id",
        [start, end],
    )
    return players, moves


def _host_results(wh: Warehouse, start: dt.date, end: dt.date) -> pl.DataFrame:
    """`tournament_id, player_id, series`: the results rows of the host tournaments of the
    Mort Subite rounds dated from `start` to `end`."""
    return wh.read(
        "SELECT r.tournament_id, r.player_id, r.series FROM results r WHERE r.tournament_id IN "
        "(SELECT host_tournament_id FROM mort_subite_players WHERE date BETWEEN ? AND ?) "
        "ORDER BY r.tournament_id, r.player_id",
        [start, end],
    )


def _published_series(wh: Warehouse, start: dt.date, end: dt.date) -> pl.DataFrame:
    return wh.read_if(
        "published_series",
        "SELECT * FROM published_series WHERE as_of BETWEEN ? AND ?",
        [start, end],
    )


def _season_sheets(wh: Warehouse, season: str) -> pl.DataFrame:
    """The game-sheet rows of the season's tournaments."""
    return wh.read_if(
        "game_sheets",
        "SELECT g.* FROM game_sheets g JOIN tournaments t USING (tournament_id) "
        "WHERE t.season = ? ORDER BY g.tournament_id, g.game, g.move",
        [season],
    )


class SeasonInputs:
    """What one season's families read: the season's base rows, the earlier seasons'
    tables and, for a family that follows another, the season's tables computed before it.

    Each input is read once, when first asked for (`frame`), from the warehouse; a frame
    `given` (or computed by an earlier family of the same plan, `give`) takes precedence.
    The attributes of the ratings' and series' inputs (`tournaments`, `results`, …) are
    those the benchmark's per-row implementation reads."""

    def __init__(
        self,
        warehouse: Warehouse | None,
        season: str,
        params: Parameters,
        given: Mapping[str, pl.DataFrame] | None = None,
    ) -> None:
        self.warehouse = warehouse
        self.season = season
        self.params = params
        self.season_start, self.season_end = params.calendar.bounds(season)
        self._frames: Frames = dict(given or {})

    def frame(self, name: str) -> pl.DataFrame:
        """The input `name` (`READERS`), read once."""
        if name not in self._frames:
            reader = READERS.get(name)
            if reader is None:
                raise KeyError(f"no input named {name!r} in a season plan")
            self._frames[name] = reader(self)
        return self._frames[name]

    def give(self, frames: Mapping[str, pl.DataFrame]) -> None:
        """Frames computed for this season: later families read them instead of the
        warehouse (and the earlier seasons' `*_through` histories follow)."""
        self._frames.update(frames)
        for name in ("cote_history", "elo_history"):
            if name in frames:
                self._frames.pop(f"{name}_through", None)

    def load(self, names: Iterable[str]) -> SeasonInputs:
        """Read the inputs `names` now (the benchmark times the rules apart from I/O)."""
        for name in names:
            self.frame(name)
        return self

    def has(self, name: str) -> bool:
        return name in self._frames

    @property
    def wh(self) -> Warehouse:
        if self.warehouse is None:
            raise LookupError(f"{self.season}: an input is neither given nor in a warehouse")
        return self.warehouse

    # The inputs of the ratings and the series by name (benchmarks/naive.py reads these).
    @property
    def cote_params(self) -> cote.CoteParams:
        return self.params.cote

    @property
    def elo_params(self) -> elo.EloParams:
        return self.params.elo

    @property
    def series_params(self) -> SeriesParams:
        return self.params.series

    @property
    def quotas(self) -> SeriesQuotas:
        return self.params.quotas

    @property
    def federations(self) -> AliasTable:
        return self.params.federations

    @property
    def tournaments(self) -> pl.DataFrame:
        return self.frame("tournaments")

    @property
    def results(self) -> pl.DataFrame:
        return self.frame("results")

    @property
    def games(self) -> pl.DataFrame:
        return self.frame("games")

    @property
    def duplicate_events(self) -> pl.DataFrame:
        return self.frame("duplicate_events")

    @property
    def duplicate_results(self) -> pl.DataFrame:
        return self.frame("duplicate_results")

    @property
    def rating_lists(self) -> pl.DataFrame:
        return self.frame("rating_lists")

    @property
    def birth_years(self) -> pl.DataFrame:
        return self.frame("birth_years")

    @property
    def players(self) -> pl.DataFrame:
        return self.frame("players")

    @property
    def previous_classification(self) -> pl.DataFrame:
        return self.frame("previous_classification")

    @property
    def previous_standings(self) -> pl.DataFrame:
        return self.frame("previous_standings")

    @property
    def prior_cote_history(self) -> pl.DataFrame:
        return self.frame("prior_cote_history")

    @property
    def prior_elo_history(self) -> pl.DataFrame:
        return self.frame("prior_elo_history")


def _this_season(name: str) -> Callable[[SeasonInputs], pl.DataFrame]:
    return lambda i: season_rows(i.wh, name, i.season)


def _through(name: str) -> Callable[[SeasonInputs], pl.DataFrame]:
    """Every season's history up to this one: this season's computed rows after the earlier
    seasons' when a family computed them, else the warehouse's."""

    def read(i: SeasonInputs) -> pl.DataFrame:
        if not i.has(name):
            return history_through(i.wh, name, i.season, inclusive=True)
        prior = i.frame(f"prior_{name}")
        return in_event_order(pl.concat([prior, i.frame(name)]), i.frame("all_tournaments"))

    return read


def _mort_subite_players(i: SeasonInputs) -> pl.DataFrame:
    players, moves = mort_subite_exports(i.wh, i.season_start, i.season_end)
    i.give({"mort_subite_moves": moves})
    hosts = _host_results(i.wh, i.season_start, i.season_end)
    return with_host_series(players, hosts)


def _mort_subite_moves(i: SeasonInputs) -> pl.DataFrame:
    i.frame("mort_subite_players")
    return i.frame("mort_subite_moves")


def _names(i: SeasonInputs) -> pl.DataFrame | None:
    if "players" not in i.wh.tables():
        return None
    return i.wh.read("SELECT player_id, last_name, first_name FROM players")


def _season_players(i: SeasonInputs) -> pl.DataFrame:
    """`player_id, federation, last_name, first_name` (`players`) of the players with a
    result in the season."""
    return i.wh.read(
        "SELECT p.player_id, p.federation, p.last_name, p.first_name FROM players p "
        "WHERE p.player_id IN "
        "(SELECT r.player_id FROM results r JOIN tournaments t USING (tournament_id) "
        "WHERE t.season = ?)",
        [i.season],
    )


def _season_held_series(i: SeasonInputs) -> pl.DataFrame:
    """`held_series` of every result of the season, computed once for the duplicate
    series and the cote (each row depends on its own player and event only)."""
    return held_series(i, i.frame("results"))


READERS: dict[str, Callable[[SeasonInputs], pl.DataFrame]] = {
    "tournaments": lambda i: season_tournaments(i.wh, i.season),
    "results": lambda i: season_results(i.wh, i.season),
    "games": lambda i: i.wh.read(
        "SELECT g.* FROM games g JOIN tournaments t USING (tournament_id) WHERE t.season = ?",
        [i.season],
    ),
    "duplicate_events": lambda i: season_tournaments(i.wh, i.season, "duplicate"),
    "duplicate_results": lambda i: season_results(i.wh, i.season, "duplicate"),
    # the columns the rules read (not the names, clubs and files: the table grows with every
    # season's lists, and every season reads it whole)
    "rating_lists": lambda i: i.wh.read(
        "SELECT player_id, as_of, cote, elo, elo_games, series FROM rating_lists"
    ),
    # `player_id, birth_year`: the largest written on a player's results (the Elo's juniors),
    # not every result of every season; only of the players of the season's games (either
    # side: the Elo looks up no one else), not of every player of every season (the last
    # season of the issue 25 bench: 4,338 players instead of 53,394, the query 0.15 -> 0.10
    # CPU-s, 1.5 -> 0.5 s on a busy machine)
    "birth_years": lambda i: i.wh.read(
        "SELECT player_id, max(birth_year) AS birth_year FROM results "
        "WHERE birth_year IS NOT NULL AND player_id IN ("
        "SELECT g.player_id FROM games g JOIN tournaments t USING (tournament_id) "
        "WHERE t.season = ? UNION "
        "SELECT g.opponent_id FROM games g JOIN tournaments t USING (tournament_id) "
        "WHERE t.season = ?) "
        "GROUP BY player_id ORDER BY player_id",
        [i.season, i.season],
    ),
    "all_tournaments": lambda i: i.wh.table("tournaments"),
    "players": lambda i: i.wh.table("players"),
    "season_players": _season_players,
    "player_names": _names,  # type: ignore[dict-item]
    "previous_classification": lambda i: season_rows(
        i.wh, "series_classification", previous_season(i.season)
    ),
    "previous_standings": lambda i: season_rows(
        i.wh, "series_standings", previous_season(i.season)
    ),
    "prior_cote_history": lambda i: history_through(
        i.wh, "cote_history", i.season, inclusive=False
    ),
    "prior_elo_history": lambda i: history_through(i.wh, "elo_history", i.season, inclusive=False),
    "cote_history_through": _through("cote_history"),
    "elo_history_through": _through("elo_history"),
    "duplicate_event_scores": _this_season("duplicate_event_scores"),
    "series_standings": _this_season("series_standings"),
    "series_classification": _this_season("series_classification"),
    "cote_ranking": _this_season("cote_ranking"),
    "published_series": lambda i: _published_series(i.wh, i.season_start, i.season_end),
    "mort_subite_players": _mort_subite_players,
    "mort_subite_moves": _mort_subite_moves,
    "game_sheets": lambda i: _season_sheets(i.wh, i.season),
    "season_held_series": _season_held_series,
}

# The inputs the ratings' and series' families read (the benchmark reads them untimed).
RATING_INPUTS = (
    "tournaments",
    "results",
    "games",
    "duplicate_events",
    "duplicate_results",
    "rating_lists",
    "birth_years",
    "players",
    "previous_classification",
    "previous_standings",
    "prior_cote_history",
    "prior_elo_history",
)

# ---------------------------------------------------------------------------- families


def held_series(i: SeasonInputs, results: pl.DataFrame) -> pl.DataFrame:
    """The series each player holds in each event of `results` (rows of `season_results`):
    docs/rules.md §3's order — the row, last season's classification, the rating lists, 7."""
    entries = results.select(
        "tournament_id", "player_id", "series", pl.lit(i.season).alias("season"), "start"
    )
    return event_series(entries, i.frame("previous_classification"), i.frame("rating_lists"))


def _event_scores(i: SeasonInputs) -> Frames:
    # the series held in every event of the season: the duplicate rows take theirs
    scores = duplicate_event_scores(
        i.frame("duplicate_results"), i.frame("duplicate_events"), i.frame("season_held_series")
    )
    return {"duplicate_event_scores": scores}


def _standings(i: SeasonInputs) -> Frames:
    standings = season_standings(
        i.frame("duplicate_event_scores"),
        i.frame("duplicate_events"),
        i.params.series,
        federations=player_federations(i.frame("players"), i.frame("duplicate_results")),
        previous=i.frame("previous_standings"),
    )
    return {"series_standings": standings}


def _classification(i: SeasonInputs) -> Frames:
    p = i.params
    scores, events = i.frame("duplicate_event_scores"), i.frame("duplicate_events")
    new = new_licensees(
        i.frame("players"),
        i.frame("duplicate_results"),
        i.frame("rating_lists"),
        i.season_start,
        i.season_end,
    )
    held = series_held(
        scores,
        events,
        season_series(
            i.season, i.frame("previous_classification"), i.frame("rating_lists"), i.season_end
        ),
    )
    season = pl.lit(i.season).alias("season")
    result = classify_season(
        i.frame("series_standings"),
        new.with_columns(season),
        p.quotas,
        p.series,
        held,
        federations=p.federations,
    )
    return {
        "series_classification": result.classification.with_columns(season),
        "series_bars": result.bars.with_columns(season),
        "series_movements": result.movements.with_columns(season),
        "series_provisional": provisional_changes(scores, events, p.quotas, p.series, new),
    }


def _cote(i: SeasonInputs) -> Frames:
    results = i.frame("results")
    history = cote.cote_history(
        i.frame("tournaments"),
        results,
        i.frame("rating_lists"),
        i.params.cote,
        series=i.frame("season_held_series"),
        prior=cote.last_cotes(i.frame("prior_cote_history")),
    )
    return {"cote_history": history}


def _elo(i: SeasonInputs) -> Frames:
    history = elo.elo_history(
        i.frame("tournaments"),
        i.frame("games"),
        i.frame("rating_lists"),
        i.frame("birth_years"),
        i.params.elo,
        prior=elo.last_elo(i.frame("prior_elo_history"), i.params.elo),
    )
    return {"elo_history": history}


def _cote_ranking(i: SeasonInputs) -> Frames:
    ranking_params = i.params.ranking
    ranking, bars = classique_series.cote_ranking(
        i.frame("cote_history_through"), i.frame("all_tournaments"), i.season_end, ranking_params
    )
    return {
        "cote_ranking": ranking.sort("rank", "player_id"),
        "classique_series_bars": classique_series.bars_frame(i.season, bars, ranking_params),
    }


def _elo_ranking(i: SeasonInputs) -> Frames:
    ranking = classique_series.elo_ranking(
        i.frame("elo_history_through"),
        i.frame("all_tournaments"),
        i.season_end,
        i.params.ranking,
        i.frame("cote_ranking"),
    )
    return {"elo_ranking": ranking.sort("rank", "player_id")}


def _national(i: SeasonInputs) -> Frames:
    p = i.params
    result = classify_national(
        i.frame("series_classification"),
        i.frame("duplicate_event_scores"),
        i.frame("series_standings"),
        i.frame("duplicate_events"),
        i.frame("duplicate_results"),
        p.national,
        p.quotas,
        p.series,
        p.federations,
    )
    return {
        "national_classification": result.classification,
        "national_bars": result.bars,
        "cle_de_repartition": result.cle,
    }


def _comparison(i: SeasonInputs) -> Frames:
    published = i.frame("published_series")
    if published.height == 0:  # nothing to compare: the season's earlier rows go
        return {"series_comparison": table("series_comparison").empty()}
    frame = compare_series(
        published,
        i.frame("series_classification"),
        i.params.federations,
        i.params.quotas.federations(),
        calendar=i.params.calendar,
        names=i.frame("player_names"),
    )
    return {"series_comparison": frame}


def _mort_subite(i: SeasonInputs) -> Frames:
    tables = challenge(
        i.frame("mort_subite_players"),
        i.frame("mort_subite_moves"),
        i.params.mort_subite,
        i.params.calendar,
    )
    return {
        "mort_subite_qualified": tables.qualified,
        "mort_subite_results": tables.results,
        "mort_subite_standings": tables.standings,
    }


def _game_sheets(i: SeasonInputs) -> Frames:
    audit = audit_game_sheets(
        i.frame("game_sheets"), i.frame("duplicate_events"), i.params.scoring, season=i.season
    )
    return {"game_sheet_audit": audit}


def _quality(i: SeasonInputs) -> Frames:
    notes = unknown_federations_and_countries(
        i.season,
        i.frame("results"),
        i.frame("season_players"),
        i.frame("tournaments"),
        i.params.federations,
    )
    names = name_notes(i.season, i.frame("results"), i.frame("season_players"))
    return {"data_quality_notes": pl.concat([notes, names]).sort("notice", "subject")}


@dataclass(frozen=True)
class Family:
    """A step of the season plan: its name, the tables it computes, how."""

    name: str
    tables: tuple[str, ...]
    compute: Callable[[SeasonInputs], Frames]


# In the order a season computes them: a family reads only the tables of those before it.
FAMILIES: tuple[Family, ...] = (
    Family("event_scores", ("duplicate_event_scores",), _event_scores),
    Family("standings", ("series_standings",), _standings),
    Family(
        "classification",
        ("series_classification", "series_bars", "series_movements", "series_provisional"),
        _classification,
    ),
    Family("cote", ("cote_history",), _cote),
    Family("elo", ("elo_history",), _elo),
    Family("cote_ranking", ("cote_ranking", "classique_series_bars"), _cote_ranking),
    Family("elo_ranking", ("elo_ranking",), _elo_ranking),
    Family(
        "national",
        ("national_classification", "national_bars", "cle_de_repartition"),
        _national,
    ),
    Family("comparison", ("series_comparison",), _comparison),
    Family(
        "mort_subite",
        ("mort_subite_qualified", "mort_subite_results", "mort_subite_standings"),
        _mort_subite,
    ),
    Family("game_sheets", ("game_sheet_audit",), _game_sheets),
    Family("quality", ("data_quality_notes",), _quality),
)
FAMILY_NAMES = tuple(f.name for f in FAMILIES)
# The families that read the ingest's tables only, and their own earlier seasons' (the
# Elo, its prior ratings): no table of another family, this season's or an earlier one's.
# A build computes them apart from the season's chain, beside it (`pipelines.build`);
# `tests/test_build_beside.py` checks it.
APART = ("elo", "mort_subite", "game_sheets", "quality")
# The families of the chain that read a table of those apart (the Elo ranking: the Elo
# history): computed beside the chain, they wait for them (as do the season's report and
# its record, which read every table of the season).
AFTER_APART = ("elo_ranking",)


def family_tables(names: Iterable[str]) -> tuple[str, ...]:
    """The tables the families `names` compute, in the plan's order."""
    wanted = set(names)
    return tuple(t for f in FAMILIES if f.name in wanted for t in f.tables)


# The duplicate series of docs/rules.md §3, and the ratings and series a benchmark times.
SERIES = ("event_scores", "standings", "classification")
RATINGS_AND_SERIES = (*SERIES, "cote", "elo")


def compute_season(inputs: SeasonInputs, families: Iterable[str] = FAMILY_NAMES) -> Frames:
    """The tables of the `families` of one season (every family by default), computed in
    the plan's order; each family reads the tables of the families before it from this
    run when it computed them, else from `inputs` (given, or the warehouse)."""
    wanted = set(families)
    unknown = wanted - set(FAMILY_NAMES)
    if unknown:
        raise ValueError(f"unknown season families: {', '.join(sorted(unknown))}")
    out: Frames = {}
    for family in FAMILIES:
        if family.name in wanted:
            tables = family.compute(inputs)
            inputs.give(tables)
            out.update(tables)
    return out
