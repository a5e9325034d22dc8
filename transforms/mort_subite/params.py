"""What the Mort Subite challenge's transforms share: its three tables, the two exports'
names and columns, the parameters of docs/rules.md §6 (`MortSubiteParams`, loaded by
`pipelines.reference.mort_subite`) and the error of exports that cannot be computed.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from transforms.tables import table

QUALIFIED = table("mort_subite_qualified")
RESULTS = table("mort_subite_results")
STANDINGS = table("mort_subite_standings")


def _without_season(schema: pl.Schema) -> pl.Schema:
    return pl.Schema({name: dtype for name, dtype in schema.items() if name != "season"})


# The frames of one round or of rounds without their season (`qualify`, `round_results`):
# the tables' columns but `season`, which `challenge` adds from each round's date.
ROUND_QUALIFIED = _without_season(QUALIFIED.schema)
ROUND_RESULTS = _without_season(RESULTS.schema)

PLAYERS_EXPORT = "mort subite players"
MOVES_EXPORT = "mort subite moves"
PLAYERS_COLUMNS = (
    "round_id",
    "host_tournament_id",
    "date",
    "final",
    "player_id",
    "host_rank",
    "series",
    "present",
)
MOVES_COLUMNS = ("round_id", "move", "top", "player_id", "score", "warning")
# Optional in the moves export (files written before it stay valid): the points the arbiter
# took off the move (FISF §5.6, §5.9), whole, at least 0; absent or empty = 0.
PENALTY = "penalty"
ERRORS_SCHEMA = {
    "export": pl.String,
    "round_id": pl.String,
    "row_index": pl.Int64,
    "column": pl.String,
    "message": pl.String,
}
DEFAULT_SERIES = "7"
_FIRST_SERIES = "1"


class MortSubiteError(ValueError):
    """Exports that cannot be computed; the message gives their first errors."""


@dataclass(frozen=True)
class TrophyCategory:
    """A trophy of art. 16: its label (the standings' `trophy`) and the series it gathers."""

    label: str
    series: tuple[str, ...]


@dataclass(frozen=True)
class MortSubiteParams:
    """Every parameter of docs/rules.md §6."""

    top_overall: int  # art. 4: the first 10 of the host ranking
    top_per_series: int  # art. 4: the first 3 of each series
    points_by_place: tuple[int, ...]  # art. 12: places 1..25
    points_after_table: int  # art. 9: every place beyond the table
    final_factor: int  # art. 15: the final doubles
    penalised_from_warning: int  # art. 11: the 6th warning (and later ones)
    warning_penalty: int  # art. 11: 5 points off the move's score
    solo_margin: int  # art. 11: a solo 5 above the second-best score
    dropped_rounds: int  # art. 14: the x − 1 best regular rounds count
    trophies: tuple[TrophyCategory, ...]  # art. 16

    @property
    def reason_overall(self) -> str:
        return f"top {self.top_overall}"

    @property
    def reason_series(self) -> str:
        return f"top {self.top_per_series} of series"


@dataclass(frozen=True)
class ChallengeTables:
    """The three tables of a challenge's seasons."""

    qualified: pl.DataFrame
    results: pl.DataFrame
    standings: pl.DataFrame
