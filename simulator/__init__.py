"""A seeded, deterministic simulator of the exports of the francophone Scrabble federations.

`generate(out, GenerateConfig(...))` simulates a population of licensed players over a
number of seasons and writes, in the format of `pipelines.ingest.schema`:

- `<out>/rating_list_<as_of>.csv`: the rating list on the day before the first season
  (series of every existing player; cote, Elo and Elo games of classique players);
- `<out>/<season>/<tournament_id>.csv`: one results file per tournament, and
  `<tournament_id>_games.csv` with one row per game for classique and DCDL tournaments;
  one or two tournaments per season are a workbook `<tournament_id>.xlsx` instead, with a
  `results` sheet and, for a classique one, a `games` sheet;
- `<out>/<season>/classement_<season end>.csv`: the French federation's (FFSc) national
  ranking at the end of the season, for the French players who played duplicate in it
  (`write.write_ffsc_ranking` describes its columns).

Most files are UTF-8 comma-separated with canonical headers; a few have a UTF-8 BOM; about
one in five is a semicolon-separated Windows-1252 file with CRLF line ends and French
headers (aliases of the schema). Same seed and arguments give byte-identical files; the
first k seasons do not depend on the number of seasons asked for. The rule families add
their own files (and may adjust what is written for a season's tournaments) through
`simulator/extensions/`, each from a random stream of its own.

The package is not part of the code location: the season fingerprint
(`pipelines.build.SEASON_CODE`) does not cover it, so editing it rebuilds nothing.
Modules: `names` (name pools, places), `world` (clubs, players), `calendar` (recurring
events), `entrants` (who plays), `play` (scores, pairings), `tournament` (a tournament's
results and games), `season` (the season loop), `columns` (column orders and French
headers from the export schema), `write` (CSV, XLSX and FFSc writers).

Decisions taken here (conventions of the simulated data):

- Seasons start on the day `data/reference/seasons.yaml` sets (`SeasonCalendar`); season
  folders and the FFSc rankings' dates follow it, so the pipeline files each tournament
  in the season it was simulated in.
- Ranks are competition ranks, shared by tied players (1, 2, 2, 4), as docs/rules.md §0 says.
- A bye is a game row with no opponent and no scores, counted in the results as a win with
  a spread of +50 in classique and +0 in DCDL.
- The `series` column (duplicate series, "1".."7") is written on duplicate results only;
  the simulated federation classifies its players with its own quotas (`world.
  SERIES_CUMULATIVE`), which are the world the pipeline is compared with, not the
  pipeline's parameters.
- Column orders and French headers come from the export schema (`columns`); headers and
  other writing choices draw from their own random stream (seed, 1), so that the
  simulation does not depend on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pipelines.ingest.schema import DISCIPLINES
from pipelines.paths import REFERENCE_DIR
from pipelines.reference.seasons import load_calendar
from simulator.columns import RATING_LIST_COLUMNS
from simulator.extensions import SeasonContext, extensions
from simulator.season import GenerateConfig, Simulator
from simulator.write import Table, write_csv, write_ffsc_ranking, write_tournament
from transforms.calendar import SeasonCalendar

__all__ = ["GenerateConfig", "GenerateSummary", "default_calendar", "generate"]


@dataclass
class GenerateSummary:
    """What `generate` wrote."""

    out: Path
    files: int = 0
    tournaments: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DISCIPLINES, 0))
    result_rows: int = 0
    game_rows: int = 0
    rating_rows: int = 0
    ranking_rows: int = 0  # rows of the FFSc rankings, one file a season
    players: int = 0
    bytes: int = 0
    extra_rows: dict[str, int] = field(default_factory=dict)  # files of the extensions


def default_calendar() -> SeasonCalendar:
    """The project's season calendar (`data/reference/seasons.yaml`)."""
    return load_calendar(REFERENCE_DIR)


def generate(
    out: Path, config: GenerateConfig | None = None, calendar: SeasonCalendar | None = None
) -> GenerateSummary:
    """Simulate and write the exports under `out` (created if needed); seasons start on
    the day of `calendar` (by default the project's, `default_calendar`)."""
    config = config or GenerateConfig()
    out.mkdir(parents=True, exist_ok=True)
    sim = Simulator(config, calendar or default_calendar())
    summary = GenerateSummary(out=out)
    # headers and other writing choices draw from their own stream, so that the
    # simulation does not depend on them
    write_rng = np.random.default_rng([config.seed, 1])
    ratings = sim.rating_list
    rating_table = Table(ratings.columns, RATING_LIST_COLUMNS, ratings.rows)
    path = out / f"rating_list_{ratings.as_of.isoformat()}.csv"
    summary.bytes += write_csv(path, rating_table, "utf8", write_rng)
    summary.files += 1
    summary.rating_rows = ratings.rows
    for index, (label, tournaments) in enumerate(sim.seasons()):
        folder = out / label
        folder.mkdir(exist_ok=True)
        context = SeasonContext(sim, label, index, folder, tournaments, summary, config.seed)
        for extend in extensions():
            extend(context)
        for tour in tournaments:
            sizes = write_tournament(folder, tour, write_rng)
            summary.files += len(sizes)
            summary.bytes += sum(sizes)
            summary.tournaments[tour.discipline] += 1
            summary.result_rows += tour.n_rows
            summary.game_rows += tour.n_games
        size, rows = write_ffsc_ranking(folder, sim.rankings[-1], sim.pop, sim.world)
        summary.files += 1
        summary.bytes += size
        summary.ranking_rows += rows
    summary.players = len(sim.pop)
    return summary
