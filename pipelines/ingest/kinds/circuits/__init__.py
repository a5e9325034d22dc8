"""The regional circuits' own exports (docs/exports.md « Regional circuits »; docs/rules.md §5).

Three kinds, each rejected whole (with a French message naming file, row and column) when
one of its rows is wrong:

- **circuit calendar** (`circuit_calendar`): every edition of each recurring tournament of
  a circuit — `circuit, event_key, year, date, status` and optionally `announced_on`,
  `tournament_id` (a held edition's tournament);
- **circuit ranking** (`published_circuit_rankings`): a circuit's ranking as published —
  `circuit, as_of, player_id, place` and optionally `points`;
- **matches** (`matches`): the matches of a round-robin final, one row per player per
  match — `tournament_id, round, table, player_id, opponent_id, player_moves,
  opponent_moves` and optionally `player_top_moves`, `player_points_scored`.

Circuit names are read through `data/reference/circuits.csv` (an alias table). The checks
of the results' `circuit` column live here too (in `calendar_checks`, which sees every
accepted kind): a circuit name the table does not know, a tournament of the PACA ranking
that its calendar does not hold, a held edition whose results do not name its circuit,
each reject the results file. The checks read the project's reference data
(`data/reference/`).
"""

from __future__ import annotations

from pipelines.ingest.kinds import KindPlugin
from pipelines.ingest.kinds.circuits.calendar import calendar_checks, calendar_rows
from pipelines.ingest.kinds.circuits.exports import CIRCUIT_CALENDAR, CIRCUIT_RANKING, MATCHES
from pipelines.ingest.kinds.circuits.matches import matches_checks
from pipelines.ingest.kinds.circuits.rankings import ranking_checks

PLUGINS = (
    KindPlugin(
        kind=CIRCUIT_CALENDAR,
        table="circuit_calendar",
        checks=calendar_checks,
        assemble=calendar_rows,
        dated_by="date",
    ),
    KindPlugin(
        kind=CIRCUIT_RANKING,
        table="published_circuit_rankings",
        checks=ranking_checks,
        dated_by="as_of",
    ),
    KindPlugin(kind=MATCHES, table="matches", checks=matches_checks),
)

__all__ = ["CIRCUIT_CALENDAR", "CIRCUIT_RANKING", "MATCHES", "PLUGINS"]
