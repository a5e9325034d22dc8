"""The rule families a what-if recomputes, from the warehouse's inputs (read-only), with
the parameters of a reference folder read by the ordinary loaders (docs/rules.md §9).

Which families, for which changed file:
- `series.yaml`, `series_quotas.csv` → the duplicate series of every season up to the one
  asked (a season reads the previous one's classification and standings), then the
  national classifications of that season (they read its series) and the cote of every
  season up to it (a player's starting cote is the equivalence of the series held);
- `national.yaml` → the national classifications of the season;
- `cote.yaml`, `cote_categories.csv` → the cote of every season up to the one asked (a
  cascade), its ranking and classique series bars, and the Elo ranking (it shows the
  classique series);
- `elo.yaml` → the Elo of every season up to the one asked and its ranking.

Each season is computed as its asset computes it (`pipelines/defs/*/assets.py`), from the
same reads of the base tables, with the earlier seasons' recomputed tables in place of the
stored ones; nothing is written. The tables of the families not recomputed are the stored
ones, so "after" always holds every table of the season.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from pipelines.reference.classique import load_cote_params, load_elo_params, load_ranking_params
from pipelines.reference.federations import load_federations
from pipelines.reference.national import load_national_params
from pipelines.reference.seasons import load_calendar
from pipelines.reference.series import load_series_params, load_series_quotas
from pipelines.season_inputs import season_results, season_rows, season_tournaments
from pipelines.warehouse import Warehouse
from transforms import classique_series, cote, elo
from transforms.calendar import ordered_events, previous_season
from transforms.national import classify_national
from transforms.series import classify_season, duplicate_event_scores, season_standings
from transforms.series_population import (
    event_series,
    new_licensees,
    player_federations,
    season_series,
    series_held,
)

SERIES, NATIONAL, COTE, ELO = "series", "national", "cote", "elo"
FILE_FAMILIES = {
    "series.yaml": SERIES,
    "series_quotas.csv": SERIES,
    "national.yaml": NATIONAL,
    "cote.yaml": COTE,
    "cote_categories.csv": COTE,
    "elo.yaml": ELO,
}
# A family recomputed makes these recomputed too (they read its tables).
FOLLOWERS = {SERIES: (NATIONAL, COTE), COTE: ("elo_ranking",), ELO: ("elo_ranking",)}


class SeasonNotFoundError(LookupError):
    """A season the warehouse does not hold (French message)."""


@dataclass(frozen=True)
class Families:
    """What a what-if recomputes (`elo_ranking` alone: the Elo ranking, for the classique
    series it shows, when only the cote changed)."""

    series: bool = False
    national: bool = False
    cote: bool = False
    elo: bool = False
    elo_ranking: bool = False

    @property
    def any(self) -> bool:
        return self.series or self.national or self.cote or self.elo or self.elo_ranking


def families_for(files: Iterable[str]) -> Families:
    """The families recomputed when these reference files changed (and what reads them)."""
    chosen: set[str] = set()
    pending = [FILE_FAMILIES[f] for f in files if f in FILE_FAMILIES]
    while pending:
        family = pending.pop()
        if family not in chosen:
            chosen.add(family)
            pending.extend(FOLLOWERS.get(family, ()))
    return Families(
        series=SERIES in chosen,
        national=NATIONAL in chosen,
        cote=COTE in chosen,
        elo=ELO in chosen,
        elo_ranking="elo_ranking" in chosen,
    )


@dataclass(frozen=True)
class SeasonTables:
    """Every table of one season a what-if compares (histories: every season up to it)."""

    season: str
    scores: pl.DataFrame  # duplicate_event_scores
    standings: pl.DataFrame  # series_standings
    classification: pl.DataFrame  # series_classification
    bars: pl.DataFrame  # series_bars
    movements: pl.DataFrame  # series_movements
    national: pl.DataFrame  # national_classification
    national_bars: pl.DataFrame
    cote_history: pl.DataFrame  # every season up to this one, in event order
    cote_ranking: pl.DataFrame
    classique_bars: pl.DataFrame  # classique_series_bars
    elo_history: pl.DataFrame  # every season up to this one, in event order
    elo_ranking: pl.DataFrame


def seasons_up_to(wh: Warehouse, season: str) -> list[str]:
    """The warehouse's seasons (those the build computes) up to `season`, in order; an
    error naming the seasons it holds when `season` is not one of them."""
    tables = set(wh.tables())
    if "season_fingerprints" in tables:
        seasons = wh.read("SELECT DISTINCT season FROM season_fingerprints")["season"]
    elif "tournaments" in tables:
        seasons = wh.read("SELECT DISTINCT season FROM tournaments")["season"]
    else:
        seasons = pl.Series([], dtype=pl.String)
    known = sorted(s for s in seasons.to_list() if s)
    if season not in known:
        held = ", ".join(known) or "aucune"
        raise SeasonNotFoundError(
            f"saison inconnue : {season} ; saisons de l'entrepôt {wh.path} : {held}"
        )
    return [s for s in known if s <= season]


def _history(wh: Warehouse, name: str, season: str) -> pl.DataFrame:
    """`cote_history` or `elo_history` of every season up to `season`, in event order (as
    the classique assets read it)."""
    if name not in wh.tables():
        return wh.empty(name)
    rows = wh.read(
        f'SELECT h.*, t.end_date, t.start_date FROM "{name}" h '
        "JOIN tournaments t USING (tournament_id) WHERE h.season <= ?",
        [season],
    )
    return ordered_events(rows).drop("end_date", "start_date")


def _in_event_order(history: pl.DataFrame, tournaments: pl.DataFrame) -> pl.DataFrame:
    dated = history.join(
        tournaments.select("tournament_id", "end_date", "start_date"), on="tournament_id"
    )
    return ordered_events(dated).drop("end_date", "start_date")


def stored(wh: Warehouse, season: str) -> SeasonTables:
    """The season's tables as the warehouse holds them."""
    return SeasonTables(
        season=season,
        scores=season_rows(wh, "duplicate_event_scores", season),
        standings=season_rows(wh, "series_standings", season),
        classification=season_rows(wh, "series_classification", season),
        bars=season_rows(wh, "series_bars", season),
        movements=season_rows(wh, "series_movements", season),
        national=season_rows(wh, "national_classification", season),
        national_bars=season_rows(wh, "national_bars", season),
        cote_history=_history(wh, "cote_history", season),
        cote_ranking=season_rows(wh, "cote_ranking", season).sort("rank", "player_id"),
        classique_bars=season_rows(wh, "classique_series_bars", season),
        elo_history=_history(wh, "elo_history", season),
        elo_ranking=season_rows(wh, "elo_ranking", season).sort("rank", "player_id"),
    )


@dataclass(frozen=True)
class _Series:
    scores: pl.DataFrame
    standings: pl.DataFrame
    classification: pl.DataFrame
    bars: pl.DataFrame
    movements: pl.DataFrame


def _entries(results: pl.DataFrame, season: str) -> pl.DataFrame:
    return results.select(
        "tournament_id", "player_id", "series", pl.lit(season).alias("season"), "start"
    )


def _series_seasons(
    wh: Warehouse, seasons: list[str], reference: Path, base: dict[str, pl.DataFrame]
) -> dict[str, _Series]:
    """The duplicate series of each season, in order, as `pipelines/defs/series/assets.py`
    computes them, each season from the previous one recomputed here."""
    params = load_series_params(reference)
    quotas = load_series_quotas(reference)
    federations = load_federations(reference)
    calendar = load_calendar(reference)
    players, lists = base["players"], base["rating_lists"]
    done: dict[str, _Series] = {}
    empty_cls, empty_st = wh.empty("series_classification"), wh.empty("series_standings")
    for season in seasons:
        before = done.get(previous_season(season))
        previous_cls = before.classification if before else empty_cls
        previous_st = before.standings if before else empty_st
        events = season_tournaments(wh, season, "duplicate")
        results = season_results(wh, season, "duplicate")
        held = event_series(_entries(results, season), previous_cls, lists)
        scores = duplicate_event_scores(results, events, held)
        standings = season_standings(
            scores,
            events,
            params,
            federations=player_federations(players, results),
            previous=previous_st,
        )
        start, end = calendar.bounds(season)
        new = new_licensees(players, results, lists, start, end)
        held_season = series_held(scores, events, season_series(season, previous_cls, lists, end))
        result = classify_season(
            standings,
            new.with_columns(pl.lit(season).alias("season")),
            quotas,
            params,
            held_season,
            federations=federations,
        )
        done[season] = _Series(
            scores=scores,
            standings=standings,
            classification=result.classification.with_columns(pl.lit(season).alias("season")),
            bars=result.bars.with_columns(pl.lit(season).alias("season")),
            movements=result.movements.with_columns(pl.lit(season).alias("season")),
        )
    return done


def _classifications(
    wh: Warehouse, seasons: list[str], series: dict[str, _Series] | None
) -> dict[str, pl.DataFrame]:
    """Each season's series classification: recomputed when the series were, else stored."""
    if series is not None:
        return {s: v.classification for s, v in series.items()}
    return {s: season_rows(wh, "series_classification", s) for s in seasons}


def _cote_seasons(
    wh: Warehouse,
    seasons: list[str],
    reference: Path,
    base: dict[str, pl.DataFrame],
    classifications: dict[str, pl.DataFrame],
) -> pl.DataFrame:
    """`cote_history` of every season, in order, as `cote_history` the asset computes it."""
    params = load_cote_params(reference)
    lists, tournaments = base["rating_lists"], base["tournaments"]
    empty = wh.empty("series_classification")
    parts: list[pl.DataFrame] = []
    history = wh.empty("cote_history")
    for season in seasons:
        results = season_results(wh, season)
        held = event_series(
            _entries(results, season), classifications.get(previous_season(season), empty), lists
        )
        frame = cote.cote_history(
            season_tournaments(wh, season),
            results,
            lists,
            params,
            series=held,
            prior=cote.last_cotes(history),
        )
        parts.append(frame)
        history = _in_event_order(pl.concat(parts), tournaments)
    return history


def _elo_seasons(
    wh: Warehouse, seasons: list[str], reference: Path, base: dict[str, pl.DataFrame]
) -> pl.DataFrame:
    """`elo_history` of every season, in order, as `elo_history` the asset computes it."""
    params = load_elo_params(reference)
    tournaments = base["tournaments"]
    parts: list[pl.DataFrame] = []
    history = wh.empty("elo_history")
    for season in seasons:
        games = wh.read(
            "SELECT g.* FROM games g JOIN tournaments t USING (tournament_id) WHERE t.season = ?",
            [season],
        )
        frame = elo.elo_history(
            season_tournaments(wh, season),
            games,
            base["rating_lists"],
            base["results"],
            params,
            prior=elo.last_elo(history, params),
        )
        parts.append(frame)
        history = _in_event_order(pl.concat(parts), tournaments)
    return history


def recompute(
    wh: Warehouse, season: str, reference: Path, families: Families, before: SeasonTables
) -> SeasonTables:
    """The season's tables with the parameters of `reference`: the `families` recomputed,
    the others as stored (`before`)."""
    if not families.any:
        return before
    seasons = seasons_up_to(wh, season)
    base = {name: wh.table(name) for name in ("tournaments", "players", "rating_lists", "results")}
    after = before
    series = _series_seasons(wh, seasons, reference, base) if families.series else None
    if series is not None:
        mine = series[season]
        after = replace(
            after,
            scores=mine.scores,
            standings=mine.standings,
            classification=mine.classification,
            bars=mine.bars,
            movements=mine.movements,
        )
    if families.national:
        result = classify_national(
            after.classification,
            after.scores,
            after.standings,
            season_tournaments(wh, season, "duplicate"),
            season_results(wh, season, "duplicate"),
            load_national_params(reference),
            load_series_quotas(reference),
            load_series_params(reference),
            load_federations(reference),
        )
        after = replace(after, national=result.classification, national_bars=result.bars)
    ranking = load_ranking_params(reference)
    end = load_calendar(reference).end(season)
    if families.cote:
        history = _cote_seasons(wh, seasons, reference, base, _classifications(wh, seasons, series))
        ranked, bars = classique_series.cote_ranking(history, base["tournaments"], end, ranking)
        after = replace(
            after,
            cote_history=history,
            cote_ranking=ranked.sort("rank", "player_id"),
            classique_bars=classique_series.bars_frame(season, bars, ranking),
        )
    if families.elo:
        after = replace(after, elo_history=_elo_seasons(wh, seasons, reference, base))
    if families.elo or families.elo_ranking:
        elo_ranked = classique_series.elo_ranking(
            after.elo_history, base["tournaments"], end, ranking, after.cote_ranking
        )
        after = replace(after, elo_ranking=elo_ranked.sort("rank", "player_id"))
    return after
