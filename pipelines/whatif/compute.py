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

Each season is computed by the season plan (`pipelines.plan.season.compute_season`, the
function the assets compute with), from the same reads of the base tables, with the
earlier seasons' recomputed tables given in place of the stored ones; nothing is written.
The tables of the families not recomputed are the stored
ones, so "after" always holds every table of the season.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from pipelines.plan import season as plan
from pipelines.plan.season import (
    Frames,
    SeasonInputs,
    compute_season,
    history_through,
    in_event_order,
    season_rows,
)
from pipelines.reference.bundle import load_parameters
from pipelines.warehouse import Warehouse

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
        cote_history=history_through(wh, "cote_history", season, inclusive=True),
        cote_ranking=season_rows(wh, "cote_ranking", season).sort("rank", "player_id"),
        classique_bars=season_rows(wh, "classique_series_bars", season),
        elo_history=history_through(wh, "elo_history", season, inclusive=True),
        elo_ranking=season_rows(wh, "elo_ranking", season).sort("rank", "player_id"),
    )


def _families(families: Families, last: bool) -> list[str]:
    """The season plan's families a what-if runs for a season (`last`: the season asked;
    the earlier ones only feed it)."""
    names: list[str] = []
    if families.series:
        names += plan.SERIES
    if families.cote:
        names.append("cote")
    if families.elo:
        names.append("elo")
    if last:
        if families.national:
            names.append("national")
        if families.cote:
            names.append("cote_ranking")
        if families.elo or families.elo_ranking:
            names.append("elo_ranking")
    return names


def recompute(
    wh: Warehouse, season: str, reference: Path, families: Families, before: SeasonTables
) -> SeasonTables:
    """The season's tables with the parameters of `reference`: the `families` recomputed
    by the season plan season after season up to `season` (each from the previous one's
    recomputed tables), the others as stored (`before`)."""
    if not families.any:
        return before
    params = load_parameters(reference)
    seasons = seasons_up_to(wh, season)
    tournaments = wh.table("tournaments")
    histories = {"cote_history": wh.empty("cote_history"), "elo_history": wh.empty("elo_history")}
    previous: Frames = {}
    out: Frames = {}
    for current in seasons:
        given: Frames = {}
        if families.series and previous:
            given["previous_classification"] = previous["series_classification"]
            given["previous_standings"] = previous["series_standings"]
        for name, recomputed in (("cote_history", families.cote), ("elo_history", families.elo)):
            if recomputed:
                given[f"prior_{name}"] = histories[name]
        given["all_tournaments"] = tournaments
        out = compute_season(
            SeasonInputs(wh, current, params, given), _families(families, current == season)
        )
        for name in histories:
            if name in out:
                histories[name] = in_event_order(
                    pl.concat([histories[name], out[name]]), tournaments
                )
        previous = out
    after = before
    if families.series:
        after = replace(
            after,
            scores=out["duplicate_event_scores"],
            standings=out["series_standings"],
            classification=out["series_classification"],
            bars=out["series_bars"],
            movements=out["series_movements"],
        )
    if families.national:
        after = replace(
            after, national=out["national_classification"], national_bars=out["national_bars"]
        )
    if families.cote:
        after = replace(
            after,
            cote_history=histories["cote_history"],
            cote_ranking=out["cote_ranking"],
            classique_bars=out["classique_series_bars"],
        )
    if families.elo:
        after = replace(after, elo_history=histories["elo_history"])
    if families.elo or families.elo_ranking:
        after = replace(after, elo_ranking=out["elo_ranking"])
    return after
