"""The Belgian "Mort Subite" challenge (docs/rules.md §6, source [004]: the FBS regulation).

A round is played after a host tournament by the players qualified from its ranking after
the penultimate game (art. 4); it is an elimination game played move by move (art. 7–11);
the participants score by their final place (art. 9, 12); the final round scores double
(art. 15); the season classification adds each player's x − 1 best regular rounds and the
final (art. 14–15); trophies and cups reward categories and series (art. 16).

Pure transforms: Polars frames in, frames out; every number the rules mark as a parameter
comes in through `MortSubiteParams` (loaded from `data/reference/mort_subite.yaml` by
`pipelines.reference.mort_subite`). The inputs are the two exports, with their columns:

- *mort subite players*, one row per player of the host tournament:
  `round_id, host_tournament_id, date, final, player_id, host_rank, series, present`;
- *mort subite moves*, one row per participant still in the game per move:
  `round_id, move, top, player_id, score, warning`.

The functions, in the order a season is computed (`challenge` runs them all):
`qualify` (regular rounds) → `round_results` → `final_host_ranking` + `qualify` (the final)
→ `round_results` → `season_standings`; `validate_challenge` returns the errors of the
exports as rows (`export, round_id, row_index, column, message`, in French).
`with_host_series` fills a regular round's empty series from the host tournament's
results; `move_survivors` plays one move (the simulator's arbiter uses it too). The
tables of `challenge` carry each round's `season` (of its date); `qualify` and
`round_results` give a round's rows without it.

Decisions taken here, where docs/rules.md §6 and [004] are silent:

- **Series**: a row's series is read as a series level (`4B` → `4`, `Série 2` → `2`);
  super-série (`SS`) counts as series 1 for "each series", the trophy categories and the
  cups; a missing series counts as `7` (the last default of docs/rules.md §3). The pipeline first
  takes a regular round's missing series from the player's row in the host tournament's
  results (`with_host_series`), the series they held that day; not from the rest of the
  §3 chain (last season's classification, rating lists), which the ingest — checking the
  qualification file by file — cannot know. A player's **season series** is
  the one on their latest row with a series among the season's rounds (by date, regular
  rounds before the final, then round id).
- **Qualification cut**: the last qualifying place of a group (10 overall, 3 within a
  series) is the host rank of its 10th (3rd) player in host-rank order; every player at or
  above it qualifies, so ties at it are included whatever the numbering of ties. A player
  in both groups appears once, with reason `both`.
- **The final's host ranking** (art. 14) is the challenge classification of the season's
  regular rounds, counting each player's x − 1 best, with the tie-breaks of the season
  classification except the final's. Its place is the final's `host_rank`, for the
  qualification and for ordering players out on the same move; the `host_rank` written on
  the final's export rows is not read (they give `present`). A player listed in the final's
  rows but without a regular result is not a candidate.
- **Participants** of a round are its qualified players marked `present` = 1. A round
  needs two participants and at least one move.
- **Counted score** of a move: the score played, minus the penalty (5) when the move's
  warning is the player's 6th or a later one *in the round* (warnings are counted per
  round). The **reference** is the top when a participant's counted score equals it, else
  the best counted score; a player whose counted score is below the reference is out. So a
  penalised top does not count as found, and a penalty can eliminate (art. 11).
- **Solo** (art. 11): the warned player's score played is strictly above every other
  participant's. The export's `score` is the points of the move without any solo bonus
  (the challenge awards none), so every such solo is one "non attributif d'une prime de 10
  points". The second-best score is the best score played by the others. More than the
  margin (5) above it: the warned player alone continues, every other player is out and
  the round is won. Exactly the margin: the reference is the second-best score; the warned
  player and every player whose counted score reaches it continue. Less: the general rule.
- **End of a round**: after its last move, or as soon as one player is left (a move row
  after that is an error). Players still in at the end share place 1 and each take the
  maximum (art. 8); the players out before them take the places after them, the latest out
  first. `score_on_move` is the counted score of the move a player went out on.
- **Points** by place: place p scores the p-th value of the art. 12 table, so fewer than
  25 participants count down from 70; a place beyond the table scores 7; the final
  multiplies by 2. Players out on the same move with the same counted score and host rank
  share the places they cover and each score their exact mean (`shared_with` = how many);
  `points` is stored as a float, and the season sums recover the exact value from it (its
  denominator divides `shared_with`).
- **Season classification**: x = the season's regular rounds with results; each player
  counts their max(x − 1, 1) best regular rounds (a season of one round counts it) plus the
  final. `rounds_played` counts regular rounds; `rounds_counted` = min(rounds_played,
  max(x − 1, 1)). Ties: the final's **place** (not its points: every place beyond 25
  scores alike), finalists before non-finalists; then `rounds_counted`; then the number of
  1st places, of 2nd places, … over every round of the season (the final included); still
  tied, the players share the place.
- **Winning** requires the final (art. 16): the classification is not altered (a
  non-finalist with the most points keeps place 1) but each category's trophy goes to its
  best-placed finalist(s). A cup goes to the best-placed player(s) of each series, finalist
  or not: the remark of art. 16 names winning the challenge, which is the trophies.
- **Validation**: a round with an error in either export is not played; the final of a
  season is qualified only when every regular round of that season is valid; a season
  holds at most one final, and no regular round dated after it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl

from transforms.calendar import SeasonCalendar
from transforms.ranking import competition_ranks
from transforms.series_labels import SUPER_SERIE, series_level
from transforms.tables import Table, table

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


# ---------------------------------------------------------------------------- points


def place_points(place: int, params: MortSubiteParams, *, final: bool = False) -> int:
    """Points of one final place (art. 9, 12, 15): the table's value, else the value of a
    place beyond the table; doubled in the final."""
    if place < 1:
        raise ValueError(f"a place starts at 1, got {place}")
    table_ = params.points_by_place
    base = table_[place - 1] if place <= len(table_) else params.points_after_table
    return base * (params.final_factor if final else 1)


def places_points(participants: int, params: MortSubiteParams, *, final: bool = False) -> list[int]:
    """Points of places 1..participants, best first (24 players: the last, 24th, scores 9)."""
    return [place_points(p, params, final=final) for p in range(1, participants + 1)]


def shared_points(
    first_place: int, count: int, params: MortSubiteParams, *, final: bool = False
) -> Fraction:
    """Exact mean of the points of places first_place .. first_place + count − 1 (art. 10)."""
    total = sum(place_points(first_place + i, params, final=final) for i in range(count))
    return Fraction(total, count)


# ---------------------------------------------------------------------------- inputs


def _date(frame: pl.DataFrame, column: str) -> pl.Expr:
    if frame.schema[column] == pl.String:
        return pl.col(column).str.strip_chars().str.to_date("%Y-%m-%d", strict=False)
    return pl.col(column).cast(pl.Date)


def _series_group(label: pl.Expr) -> pl.Expr:
    """The series counted by the rules: `SS` as 1, a missing series as 7."""
    return pl.when(label == SUPER_SERIE).then(pl.lit(_FIRST_SERIES)).otherwise(label)


def _prepared_players(players: pl.DataFrame) -> pl.DataFrame:
    """The players export typed, with `row_index`, `is_final`, `is_present`, `series`
    (level, missing = 7) and `series_group` (SS = 1)."""
    missing = [c for c in PLAYERS_COLUMNS if c not in players.columns]
    if missing:
        raise MortSubiteError(f"{PLAYERS_EXPORT}: missing column(s) {', '.join(missing)}")
    level = series_level(pl.col("series").cast(pl.String))
    return (
        players.with_row_index("row_index")
        .select(
            pl.col("row_index").cast(pl.Int64),
            pl.col("round_id").cast(pl.String),
            pl.col("host_tournament_id").cast(pl.String),
            _date(players, "date").alias("date"),
            pl.col("final").cast(pl.Int64, strict=False),
            pl.col("player_id").cast(pl.String),
            pl.col("host_rank").cast(pl.Int64, strict=False),
            pl.col("series").cast(pl.String).alias("series_written"),
            pl.col("present").cast(pl.Int64, strict=False),
            level.fill_null(pl.lit(DEFAULT_SERIES)).alias("series"),
        )
        .with_columns(
            (pl.col("final") == 1).fill_null(False).alias("is_final"),
            (pl.col("present") == 1).fill_null(False).alias("is_present"),
            _series_group(pl.col("series")).alias("series_group"),
        )
    )


def _prepared_moves(moves: pl.DataFrame) -> pl.DataFrame:
    missing = [c for c in MOVES_COLUMNS if c not in moves.columns]
    if missing:
        raise MortSubiteError(f"{MOVES_EXPORT}: missing column(s) {', '.join(missing)}")
    return moves.with_row_index("row_index").select(
        pl.col("row_index").cast(pl.Int64),
        pl.col("round_id").cast(pl.String),
        pl.col("move").cast(pl.Int64, strict=False),
        pl.col("top").cast(pl.Int64, strict=False),
        pl.col("player_id").cast(pl.String),
        pl.col("score").cast(pl.Int64, strict=False),
        pl.col("warning").cast(pl.Int64, strict=False),
    )


def _rounds(p: pl.DataFrame, calendar: SeasonCalendar | None) -> pl.DataFrame:
    """One row per round: `round_id, date, is_final, first_row` (and `season` with a
    calendar)."""
    rounds = (
        p.sort("row_index")
        .group_by("round_id", maintain_order=True)
        .agg(
            pl.col("date").first(),
            pl.col("is_final").first(),
            pl.col("row_index").first().alias("first_row"),
        )
    )
    if calendar is None:
        return rounds
    return rounds.with_columns(calendar.season_expr(pl.col("date")).alias("season"))


def _season_series(p: pl.DataFrame, calendar: SeasonCalendar) -> pl.DataFrame:
    """`season, player_id, series, series_group`: each player's series of the season, from
    their latest row with a written series (else 7)."""
    ordered = p.with_columns(calendar.season_expr(pl.col("date")).alias("season")).sort(
        "date", "is_final", "round_id", "row_index", nulls_last=True
    )
    written = series_level(pl.col("series_written"))
    return (
        ordered.group_by("season", "player_id", maintain_order=True)
        .agg(written.drop_nulls().last().alias("series"))
        .with_columns(pl.col("series").fill_null(pl.lit(DEFAULT_SERIES)))
        .with_columns(_series_group(pl.col("series")).alias("series_group"))
        .sort("season", "player_id")
    )


def with_host_series(players: pl.DataFrame, host_results: pl.DataFrame) -> pl.DataFrame:
    """The players export with each regular round's empty (or unreadable) `series` taken
    from the player's row in the host tournament's results (`host_results`:
    `tournament_id, player_id, series`, results rows); a series found in neither stays
    empty and counts as 7. The final's rows are left as they are: a finalist's series is
    the one of their latest regular round (see `_season_series`). Rows keep their order.

    Not the whole chain of docs/rules.md §3: the ingest checks the qualification with the
    same series as the season's computation, and it cannot know last season's
    classification (computed after the ingest)."""
    known = (
        host_results.select(
            pl.col("tournament_id").cast(pl.String).alias("host_tournament_id"),
            pl.col("player_id").cast(pl.String),
            pl.col("series").cast(pl.String).alias("_host_series"),
        )
        .filter(series_level(pl.col("_host_series")).is_not_null())
        .unique(["host_tournament_id", "player_id"], keep="first", maintain_order=True)
    )
    regular = (pl.col("final") != 1).fill_null(True)
    return (
        players.join(
            known, on=["host_tournament_id", "player_id"], how="left", maintain_order="left"
        )
        .with_columns(
            pl.when(regular & series_level(pl.col("series")).is_null())
            .then(pl.col("_host_series"))
            .otherwise(pl.col("series"))
            .alias("series")
        )
        .drop("_host_series")
    )


# ---------------------------------------------------------------------------- qualification


def _qualified_from(p: pl.DataFrame, params: MortSubiteParams) -> pl.DataFrame:
    def cut(k: int, *group: str) -> pl.Expr:
        position = pl.col("host_rank").rank("ordinal").over(list(group))
        return pl.when(position <= k).then(pl.col("host_rank")).max().over(list(group))

    overall = pl.col("host_rank") <= cut(params.top_overall, "round_id")
    in_series = pl.col("host_rank") <= cut(params.top_per_series, "round_id", "series_group")
    frame = (
        p.with_columns(overall.alias("_overall"), in_series.alias("_series"))
        .filter(pl.col("_overall") | pl.col("_series"))
        .select(
            "round_id",
            "player_id",
            "host_rank",
            "series",
            pl.when(pl.col("_overall") & pl.col("_series"))
            .then(pl.lit("both"))
            .when(pl.col("_overall"))
            .then(pl.lit(params.reason_overall))
            .otherwise(pl.lit(params.reason_series))
            .alias("reason"),
        )
        .sort("round_id", "host_rank", "player_id")
    )
    return _checked(frame, ROUND_QUALIFIED, QUALIFIED.name)


def _checked(frame: pl.DataFrame, schema: pl.Schema, name: str) -> pl.DataFrame:
    """`frame` when its columns and types are `schema`'s, in order; else an error."""
    if frame.schema != schema:
        raise MortSubiteError(f"{name}: columns {dict(frame.schema)} instead of {dict(schema)}")
    return frame


def _empty(schema: pl.Schema) -> pl.DataFrame:
    return pl.DataFrame(schema=schema)


def qualify(players: pl.DataFrame, params: MortSubiteParams) -> pl.DataFrame:
    """`mort_subite_qualified` of every round of `players` (art. 4), from its `host_rank`,
    without its `season` column:
    the top 10 plus the top 3 of each series, ties at each last qualifying place included.

    For a final, pass the rows of `final_host_ranking` (art. 14), not the export's."""
    p = _prepared_players(players)
    bad = p.filter(pl.col("host_rank").is_null() | (pl.col("host_rank") < 1))
    if bad.height:
        row = bad.row(0, named=True)
        raise MortSubiteError(
            f"round {row['round_id']}: player {row['player_id']} has no host rank >= 1"
        )
    twice = p.filter(pl.struct("round_id", "player_id").is_duplicated())
    if twice.height:
        row = twice.row(0, named=True)
        raise MortSubiteError(
            f"round {row['round_id']}: player {row['player_id']} is listed more than once"
        )
    return _qualified_from(p, params)


# ---------------------------------------------------------------------------- one round


@dataclass(frozen=True)
class _Out:
    player_id: str
    move: int | None  # None: still in at the end
    score: int | None
    host_rank: int


def _error(
    export: str, round_id: str | None, row_index: int | None, column: str | None, message: str
) -> dict[str, Any]:
    return {
        "export": export,
        "round_id": round_id,
        "row_index": row_index,
        "column": column,
        "message": message,
    }


def move_survivors(
    top: int,
    scores: Mapping[str, int],
    warned: Collection[str],
    warnings: dict[str, int],
    params: MortSubiteParams,
) -> tuple[set[str], dict[str, int]]:
    """Who is still in after one move (art. 7, 11), and each player's counted score.

    `scores`: the score each participant still in played on the move; `warned`: the
    players warned on it; `warnings`: each player's warnings of the round before the move,
    updated with this move's (pass the same dict move after move)."""
    played = {pid: int(score) for pid, score in scores.items()}
    penalised: set[str] = set()
    for pid in sorted(warned):
        warnings[pid] = warnings.get(pid, 0) + 1
        if warnings[pid] >= params.penalised_from_warning:
            penalised.add(pid)
    counted = {
        pid: s - params.warning_penalty if pid in penalised else s for pid, s in played.items()
    }
    best = max(played.values())
    leaders = [pid for pid, s in played.items() if s == best]
    if len(leaders) == 1 and leaders[0] in penalised and len(played) > 1:
        soloist = leaders[0]
        second = max(s for pid, s in played.items() if pid != soloist)
        gap = best - second
        if gap > params.solo_margin:
            return {soloist}, counted
        if gap == params.solo_margin:
            return {soloist} | {pid for pid, s in counted.items() if s >= second}, counted
    reference = top if top in counted.values() else max(counted.values())
    return {pid for pid, s in counted.items() if s >= reference}, counted


def _move_survivors(
    rows: Sequence[Mapping[str, Any]],
    warnings: dict[str, int],
    params: MortSubiteParams,
) -> tuple[set[str], dict[str, int]]:
    """`move_survivors` of one move's export rows."""
    return move_survivors(
        int(rows[0]["top"]),
        {r["player_id"]: int(r["score"]) for r in rows},
        [r["player_id"] for r in rows if r["warning"] == 1],
        warnings,
        params,
    )


def _moves_by_number(
    round_id: str,
    participants: Mapping[str, int],
    absent: Iterable[str],
    moves: Sequence[Mapping[str, Any]],
) -> tuple[dict[int, list[Mapping[str, Any]]], list[dict[str, Any]]]:
    """The moves of a round grouped by number, with the errors of its rows that do not
    need the game to be played (players, numbering)."""
    errors: list[dict[str, Any]] = []
    absent_set = set(absent)
    by_move: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for r in moves:
        pid = r["player_id"]
        if pid not in participants:
            if pid in absent_set:
                message = (
                    f"le joueur {pid} est qualifié pour la manche {round_id} mais n'y est "
                    "pas marqué présent (colonne present de l'export des joueurs)"
                )
            else:
                message = f"le joueur {pid} n'est pas qualifié pour la manche {round_id}"
            errors.append(_error(MOVES_EXPORT, round_id, r["row_index"], "player_id", message))
            continue
        by_move[r["move"]].append(r)
    return by_move, errors


def _simulate(
    round_id: str,
    participants: Mapping[str, int],
    by_move: Mapping[int, Sequence[Mapping[str, Any]]],
    params: MortSubiteParams,
) -> tuple[list[_Out], list[dict[str, Any]]]:
    """Play a round move by move (art. 7, 8, 11); the outcomes, or the errors of its rows."""
    alive = set(participants)
    warnings: dict[str, int] = defaultdict(int)
    out: dict[str, tuple[int, int]] = {}
    over_at: int | None = None
    errors: list[dict[str, Any]] = []
    for expected, move in enumerate(sorted(by_move), start=1):
        rows = sorted(by_move[move], key=lambda r: r["row_index"])
        if move != expected:
            errors.append(
                _error(
                    MOVES_EXPORT,
                    round_id,
                    rows[0]["row_index"],
                    "move",
                    f"la manche {round_id} passe au coup {move} sans coup {expected} : "
                    "les coups se numérotent 1, 2, 3… sans trou",
                )
            )
            break
        if over_at is not None:
            (left,) = alive
            errors.extend(
                _error(
                    MOVES_EXPORT,
                    round_id,
                    r["row_index"],
                    "move",
                    f"la manche {round_id} est finie depuis le coup {over_at} (il ne restait "
                    f"que le joueur {left}) : pas de coup {move}",
                )
                for r in rows
            )
            break
        for r in rows:
            if r["player_id"] in out:
                gone = out[r["player_id"]][0]
                errors.append(
                    _error(
                        MOVES_EXPORT,
                        round_id,
                        r["row_index"],
                        "move",
                        f"le joueur {r['player_id']} a été éliminé au coup {gone} de la "
                        f"manche {round_id} : il ne joue plus au coup {move}",
                    )
                )
        listed = {r["player_id"] for r in rows}
        errors.extend(
            _error(
                MOVES_EXPORT,
                round_id,
                rows[0]["row_index"],
                "player_id",
                f"le joueur {pid} est encore en jeu au coup {move} de la manche {round_id} "
                "mais n'a pas de ligne pour ce coup",
            )
            for pid in sorted(alive - listed, key=lambda p: (participants[p], p))
        )
        if errors:
            break
        stay, counted = _move_survivors(rows, warnings, params)
        for pid in alive - stay:
            out[pid] = (move, counted[pid])
        alive = stay
        if len(alive) <= 1:
            over_at = move
    if errors:
        return [], errors
    outcomes = [_Out(pid, None, None, participants[pid]) for pid in alive]
    outcomes += [_Out(pid, m, s, participants[pid]) for pid, (m, s) in out.items()]
    return outcomes, []


def _placed(
    round_id: str, outcomes: Sequence[_Out], params: MortSubiteParams, *, final: bool
) -> list[dict[str, Any]]:
    """Places and points of a played round (art. 8–10, 12, 15)."""
    rows: list[dict[str, Any]] = []
    survivors = sorted((o for o in outcomes if o.move is None), key=lambda o: o.player_id)
    top_points = float(place_points(1, params, final=final))
    for o in survivors:
        rows.append(
            {
                "round_id": round_id,
                "player_id": o.player_id,
                "place": 1,
                "eliminated_at_move": None,
                "score_on_move": None,
                "points": top_points,
                "shared_with": 1,
            }
        )
    place = len(survivors) + 1
    by_move: dict[int, list[_Out]] = defaultdict(list)
    for o in outcomes:
        if o.move is not None:
            by_move[o.move].append(o)
    for move in sorted(by_move, reverse=True):
        groups: dict[tuple[int, int], list[_Out]] = defaultdict(list)
        for o in by_move[move]:
            groups[(-(o.score or 0), o.host_rank)].append(o)
        for key in sorted(groups):
            tied = sorted(groups[key], key=lambda o: o.player_id)
            points = float(shared_points(place, len(tied), params, final=final))
            for o in tied:
                rows.append(
                    {
                        "round_id": round_id,
                        "player_id": o.player_id,
                        "place": place,
                        "eliminated_at_move": move,
                        "score_on_move": o.score,
                        "points": points,
                        "shared_with": len(tied),
                    }
                )
            place += len(tied)
    return rows


def _results_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    if not rows:
        return _empty(ROUND_RESULTS)
    frame = pl.DataFrame(rows, schema=ROUND_RESULTS).sort("round_id", "place", "player_id")
    return _checked(frame, ROUND_RESULTS, RESULTS.name)


def _errors_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    frame = pl.DataFrame(rows, schema=ERRORS_SCHEMA) if rows else pl.DataFrame(schema=ERRORS_SCHEMA)
    return frame.unique(maintain_order=True).sort(
        "export", "row_index", "column", "message", nulls_last=True
    )


def _play_rounds(
    p: pl.DataFrame,
    qualified: pl.DataFrame,
    m: pl.DataFrame,
    params: MortSubiteParams,
    round_ids: Iterable[str],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Results rows and errors of the given rounds (their rows checked beforehand)."""
    finals = dict(p.group_by("round_id").agg(pl.col("is_final").first()).iter_rows())
    present = p.filter(pl.col("is_present")).select("round_id", "player_id")
    entries = qualified.select("round_id", "player_id", "host_rank").join(
        present, on=["round_id", "player_id"], how="inner"
    )
    by_round = {
        key[0]: dict(zip(part["player_id"].to_list(), part["host_rank"].to_list(), strict=True))
        for key, part in entries.partition_by("round_id", as_dict=True).items()
    }
    qualified_by_round = {
        key[0]: set(part["player_id"].to_list())
        for key, part in qualified.partition_by("round_id", as_dict=True).items()
    }
    moves_by_round = {
        key[0]: part.sort("row_index").to_dicts()
        for key, part in m.partition_by("round_id", as_dict=True).items()
    }
    results: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    for round_id in sorted(set(round_ids)):
        participants = by_round.get(round_id, {})
        absent = qualified_by_round.get(round_id, set()) - set(participants)
        by_move, found = _moves_by_number(
            round_id, participants, absent, moves_by_round.get(round_id, [])
        )
        if found:
            errors += found
            continue
        if not by_move or len(participants) < 2:
            continue  # reported by the round checks
        outcomes, found = _simulate(round_id, participants, by_move, params)
        errors += found
        if not found:
            results += _placed(round_id, outcomes, params, final=bool(finals.get(round_id)))
    return results, errors


def round_results(
    players: pl.DataFrame,
    qualified: pl.DataFrame,
    moves: pl.DataFrame,
    params: MortSubiteParams,
) -> pl.DataFrame:
    """`mort_subite_results` without its `season` column, of every round of `qualified`:
    its present qualified players play the moves of `moves` (art. 7–12, 15). Raises
    MortSubiteError on an invalid row."""
    p = _prepared_players(players)
    m = _prepared_moves(moves)
    ids = sorted(qualified["round_id"].unique().to_list())
    rounds = _rounds(p.filter(pl.col("round_id").is_in(ids)), None)
    results, errors = _play_rounds(p, qualified, m, params, ids)
    errors += _round_errors(p.filter(pl.col("round_id").is_in(ids)), m, qualified, rounds)
    if errors:
        raise MortSubiteError(_summary(_errors_frame(errors)))
    return _results_frame(results)


# ---------------------------------------------------------------------------- the season


def _scaled_points(results: pl.DataFrame) -> tuple[pl.DataFrame, int]:
    """`results` with `scaled` = points × L as exact integers, L the lcm of `shared_with`."""
    shares = [int(s) for s in results["shared_with"].unique().drop_nulls().to_list()]
    scale = math.lcm(*shares) if shares else 1
    raw = results["points"].to_numpy() * scale
    scaled = np.rint(raw)
    if np.any(np.abs(raw - scaled) > 1e-6):
        raise MortSubiteError("points are not a mean of whole numbers over shared_with players")
    return results.with_columns(pl.Series("scaled", scaled.astype(np.int64))), scale


def _unscaled(values: pl.Series, scale: int) -> pl.Series:
    """Exact integers over `scale`, each the nearest float (NumPy's true division; Polars
    divides through a reciprocal, which can miss the nearest float by one unit)."""
    exact = values.fill_null(0).to_numpy().astype(np.int64)
    return pl.Series(np.true_divide(exact, scale), dtype=pl.Float64).scatter(
        values.is_null().arg_true(), None
    )


def _classify(rounds: pl.DataFrame, params: MortSubiteParams) -> pl.DataFrame:
    """One season's classification. `rounds`: `round_id, is_final, player_id, place,
    scaled`. Returns `player_id, rounds_played, rounds_counted, total, final_scaled,
    final_place, place`, sorted by place then player."""
    regular = rounds.filter(~pl.col("is_final"))
    x = regular["round_id"].n_unique()
    best = max(x - params.dropped_rounds, 1)
    counted = (
        regular.with_columns(
            pl.col("scaled").rank("ordinal", descending=True).over("player_id").alias("_order")
        )
        .group_by("player_id")
        .agg(
            pl.len().cast(pl.Int64).alias("rounds_played"),
            pl.col("scaled").filter(pl.col("_order") <= best).sum().alias("regular"),
        )
    )
    final = rounds.filter(pl.col("is_final")).select(
        "player_id", pl.col("scaled").alias("final_scaled"), pl.col("place").alias("final_place")
    )
    players = (
        rounds.select("player_id")
        .unique()
        .join(counted, on="player_id", how="left")
        .join(final, on="player_id", how="left")
        .with_columns(
            pl.col("rounds_played").fill_null(0),
            pl.min_horizontal(pl.col("rounds_played").fill_null(0), pl.lit(best))
            .cast(pl.Int64)
            .alias("rounds_counted"),
            (pl.col("regular").fill_null(0) + pl.col("final_scaled").fill_null(0)).alias("total"),
        )
        .sort("player_id")
    )
    ids = players["player_id"].to_list()
    index = {pid: i for i, pid in enumerate(ids)}
    max_place = int(rounds["place"].to_numpy().max(initial=0))
    counts = np.zeros((len(ids), max_place), dtype=np.int64)
    np.add.at(
        counts,
        (
            np.array([index[pid] for pid in rounds["player_id"].to_list()], dtype=np.int64),
            rounds["place"].to_numpy().astype(np.int64) - 1,
        ),
        1,
    )
    final_place = players["final_place"].fill_null(max_place + 1).to_numpy()
    places = competition_ranks(
        players["total"].to_numpy(),
        -final_place,
        players["rounds_counted"].to_numpy(),
        *(counts[:, k] for k in range(max_place)),
    )
    return players.with_columns(pl.Series("place", places, dtype=pl.Int64)).sort(
        "place", "player_id"
    )


def _round_places(
    p: pl.DataFrame, results: pl.DataFrame, calendar: SeasonCalendar
) -> tuple[pl.DataFrame, int]:
    """Results joined to their rounds' season and final flag, with exact scaled points
    (a `season` column of `results` is not read: the rounds' dates give it)."""
    scaled, scale = _scaled_points(results.drop("season", strict=False))
    rounds = _rounds(p, calendar).select("round_id", "season", "is_final")
    unknown = sorted(set(results["round_id"].to_list()) - set(rounds["round_id"].to_list()))
    if unknown:
        raise MortSubiteError(f"round(s) {', '.join(unknown)} of the results have no players rows")
    return (
        scaled.join(rounds, on="round_id", how="inner").select(
            "season", "round_id", "is_final", "player_id", "place", "scaled"
        ),
        scale,
    )


def final_host_ranking(
    players: pl.DataFrame,
    regular_results: pl.DataFrame,
    params: MortSubiteParams,
    calendar: SeasonCalendar,
) -> pl.DataFrame:
    """The host ranking of each final of `players` (art. 14), as rows of the players export:
    every player with a regular result in the final's season, `host_rank` = their place in
    the challenge classification on the x − 1 best regular rounds, `series` = their season
    series, `present` from the final's own rows. Feed it to `qualify`."""
    p = _prepared_players(players)
    rounds = _rounds(p, calendar)
    finals = rounds.filter(pl.col("is_final"))
    out_schema = {
        "round_id": pl.String,
        "host_tournament_id": pl.String,
        "date": pl.Date,
        "final": pl.Int64,
        "player_id": pl.String,
        "host_rank": pl.Int64,
        "series": pl.String,
        "present": pl.Int64,
    }
    if finals.height == 0 or regular_results.height == 0:
        return pl.DataFrame(schema=out_schema)
    places, _ = _round_places(p, regular_results, calendar)
    places = places.filter(~pl.col("is_final"))
    series = _season_series(p, calendar)
    frames = []
    for final in finals.sort("date", "round_id").iter_rows(named=True):
        season_rounds = places.filter(pl.col("season") == final["season"])
        if season_rounds.height == 0:
            continue
        ranking = _classify(season_rounds, params).select("player_id", "place")
        final_rows = p.filter(pl.col("round_id") == final["round_id"])
        host = final_rows.row(0, named=True)
        frames.append(
            ranking.join(
                series.filter(pl.col("season") == final["season"]),
                on="player_id",
                how="left",
            )
            .join(
                final_rows.select("player_id", "present").unique("player_id", keep="first"),
                on="player_id",
                how="left",
            )
            .select(
                pl.lit(final["round_id"], dtype=pl.String).alias("round_id"),
                pl.lit(host["host_tournament_id"], dtype=pl.String).alias("host_tournament_id"),
                pl.lit(final["date"], dtype=pl.Date).alias("date"),
                pl.lit(1, dtype=pl.Int64).alias("final"),
                "player_id",
                pl.col("place").alias("host_rank"),
                pl.col("series").fill_null(pl.lit(DEFAULT_SERIES)),
                pl.when(pl.col("present") == 1).then(pl.lit(1, dtype=pl.Int64)).alias("present"),
            )
        )
    if not frames:
        return pl.DataFrame(schema=out_schema)
    return pl.concat(frames).sort("round_id", "host_rank", "player_id")


def season_standings(
    players: pl.DataFrame,
    results: pl.DataFrame,
    params: MortSubiteParams,
    calendar: SeasonCalendar,
) -> pl.DataFrame:
    """`mort_subite_standings` of every season of `results` (art. 14–16)."""
    if results.height == 0:
        return STANDINGS.empty()
    p = _prepared_players(players)
    places, scale = _round_places(p, results, calendar)
    series = _season_series(p, calendar)
    frames = []
    for (season,), rounds in sorted(places.partition_by("season", as_dict=True).items()):
        classified = _classify(rounds, params).join(
            series.filter(pl.col("season") == season).select("player_id", "series", "series_group"),
            on="player_id",
            how="left",
        )
        group = pl.col("series_group").fill_null(pl.lit(DEFAULT_SERIES))
        finalist = pl.col("final_place").is_not_null()
        trophy = pl.lit(None, dtype=pl.String)
        for category in reversed(params.trophies):
            member = finalist & group.is_in(list(category.series))
            best = pl.when(member).then(pl.col("place")).min()
            trophy = (
                pl.when(member & (pl.col("place") == best))
                .then(pl.lit(category.label))
                .otherwise(trophy)
            )
        cup = pl.when(pl.col("place") == pl.col("place").min().over(group)).then(group)
        frames.append(
            classified.select(
                pl.lit(season, dtype=pl.String).alias("season"),
                "player_id",
                pl.col("series").fill_null(pl.lit(DEFAULT_SERIES)),
                "rounds_played",
                "rounds_counted",
                _unscaled(classified["total"], scale).alias("total"),
                _unscaled(classified["final_scaled"], scale).alias("final_points"),
                "place",
                trophy.alias("trophy"),
                cup.cast(pl.String).alias("cup"),
            )
        )
    frame = pl.concat(frames).sort("season", "place", "player_id")
    return STANDINGS.check(frame)


# ---------------------------------------------------------------------------- validation


def _row_errors(
    frame: pl.DataFrame, export: str, mask: pl.Expr, column: str, message: pl.Expr
) -> list[dict[str, Any]]:
    return (
        frame.with_columns(mask.fill_null(False).alias("_bad"), message.alias("_message"))
        .filter(pl.col("_bad"))
        .select(
            pl.lit(export).alias("export"),
            "round_id",
            "row_index",
            pl.lit(column).alias("column"),
            pl.col("_message").alias("message"),
        )
        .to_dicts()
    )


def _missing(frame: pl.DataFrame, export: str, columns: Sequence[str]) -> list[dict[str, Any]]:
    errors: list[dict[str, Any]] = []
    for column in columns:
        errors += _row_errors(
            frame,
            export,
            pl.col(column).is_null(),
            column,
            pl.lit(f"valeur manquante : chaque ligne de l'export {export} indique {column}"),
        )
    return errors


def _players_errors(p: pl.DataFrame, calendar: SeasonCalendar) -> list[dict[str, Any]]:
    """Checks of the players export that need no qualification."""
    errors = _missing(p, PLAYERS_EXPORT, ("round_id", "player_id", "date", "final"))
    errors += _row_errors(
        p,
        PLAYERS_EXPORT,
        pl.col("final").is_not_null() & ~pl.col("final").is_in([0, 1]),
        "final",
        pl.format("final : 0 ou 1 attendu, pas {}", pl.col("final")),
    )
    errors += _row_errors(
        p,
        PLAYERS_EXPORT,
        pl.col("present").is_not_null() & ~pl.col("present").is_in([0, 1]),
        "present",
        pl.format("present : 1 ou vide attendu, pas {}", pl.col("present")),
    )
    errors += _row_errors(
        p,
        PLAYERS_EXPORT,
        ~pl.col("is_final") & pl.col("host_rank").is_null(),
        "host_rank",
        pl.format(
            "valeur manquante : le joueur {} n'a pas de rang dans le tournoi hôte de la manche {}",
            pl.col("player_id"),
            pl.col("round_id"),
        ),
    )
    errors += _row_errors(
        p,
        PLAYERS_EXPORT,
        pl.col("host_rank") < 1,
        "host_rank",
        pl.format("le rang {} doit être un entier à partir de 1", pl.col("host_rank")),
    )
    keyed = pl.col("round_id").is_not_null() & pl.col("player_id").is_not_null()
    errors += _row_errors(
        p,
        PLAYERS_EXPORT,
        keyed & (pl.col("row_index").rank("ordinal").over("round_id", "player_id") > 1),
        "player_id",
        pl.format(
            "le joueur {} figure plus d'une fois dans la manche {}",
            pl.col("player_id"),
            pl.col("round_id"),
        ),
    )
    for column in ("host_tournament_id", "date", "final"):
        first = pl.col(column).sort_by("row_index").first().over("round_id")
        errors += _row_errors(
            p,
            PLAYERS_EXPORT,
            pl.col("round_id").is_not_null() & (pl.col(column).ne_missing(first)),
            column,
            pl.format(
                "la manche {} a une autre valeur de {} sur sa première ligne ({}) : une "
                "manche n'a qu'un tournoi hôte, une date et un type",
                pl.col("round_id"),
                pl.lit(column),
                first.cast(pl.String).fill_null("vide"),
            ),
        )
    rounds = _rounds(p.filter(pl.col("round_id").is_not_null()), calendar).filter(
        pl.col("date").is_not_null()
    )
    finals = rounds.filter(pl.col("is_final")).sort("date", "round_id")
    first_final: dict[str, dict[str, Any]] = {}
    for f in finals.iter_rows(named=True):
        if f["season"] in first_final:
            other = first_final[f["season"]]
            errors.append(
                _error(
                    PLAYERS_EXPORT,
                    f["round_id"],
                    f["first_row"],
                    "final",
                    f"la saison {f['season']} a déjà une finale (manche {other['round_id']}) : "
                    f"la manche {f['round_id']} ne peut pas en être une autre",
                )
            )
        else:
            first_final[f["season"]] = f
    for r in rounds.filter(~pl.col("is_final")).iter_rows(named=True):
        final = first_final.get(r["season"])
        if final is not None and r["date"] > final["date"]:
            errors.append(
                _error(
                    PLAYERS_EXPORT,
                    r["round_id"],
                    r["first_row"],
                    "date",
                    f"la manche {r['round_id']} ({r['date']}) a lieu après la finale "
                    f"{final['round_id']} ({final['date']}) de la saison {r['season']}",
                )
            )
    return errors


def _moves_errors(m: pl.DataFrame, round_ids: set[str]) -> list[dict[str, Any]]:
    """Checks of the moves export that need no qualification nor play."""
    errors = _missing(m, MOVES_EXPORT, ("round_id", "move", "top", "player_id", "score"))
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        pl.col("round_id").is_not_null() & ~pl.col("round_id").is_in(sorted(round_ids)),
        "round_id",
        pl.format(
            "la manche {} n'a aucune ligne dans l'export des joueurs (son fichier de joueurs "
            "manque ou a été refusé)",
            pl.col("round_id"),
        ),
    )
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        pl.col("move") < 1,
        "move",
        pl.format("le coup {} : les coups se numérotent à partir de 1", pl.col("move")),
    )
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        pl.col("warning").is_not_null() & ~pl.col("warning").is_in([0, 1]),
        "warning",
        pl.format("warning : 1 ou vide attendu, pas {}", pl.col("warning")),
    )
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        pl.col("score") < 0,
        "score",
        pl.format("le score {} est négatif", pl.col("score")),
    )
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        pl.col("score") > pl.col("top"),
        "score",
        pl.format(
            "le score {} dépasse le top {} du coup {}",
            pl.col("score"),
            pl.col("top"),
            pl.col("move"),
        ),
    )
    keyed = pl.col("round_id").is_not_null() & pl.col("move").is_not_null()
    first_top = pl.col("top").sort_by("row_index").first().over("round_id", "move")
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        keyed & pl.col("top").ne_missing(first_top),
        "top",
        pl.format(
            "le top du coup {} de la manche {} vaut {} sur sa première ligne : un coup n'a "
            "qu'un top",
            pl.col("move"),
            pl.col("round_id"),
            first_top.cast(pl.String).fill_null("vide"),
        ),
    )
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        keyed
        & pl.col("player_id").is_not_null()
        & (pl.col("row_index").rank("ordinal").over("round_id", "move", "player_id") > 1),
        "player_id",
        pl.format(
            "le joueur {} a plus d'une ligne pour le coup {} de la manche {}",
            pl.col("player_id"),
            pl.col("move"),
            pl.col("round_id"),
        ),
    )
    return errors


def _round_errors(
    p: pl.DataFrame,
    m: pl.DataFrame,
    qualified: pl.DataFrame,
    rounds: pl.DataFrame,
) -> list[dict[str, Any]]:
    """Checks that need the qualification: presence, participants and moves of each round."""
    entered = p.join(
        qualified.select("round_id", "player_id", "host_rank", pl.lit(True).alias("_q")),
        on=["round_id", "player_id"],
        how="left",
        suffix="_q",
    )
    errors = _row_errors(
        entered,
        PLAYERS_EXPORT,
        pl.col("is_present") & pl.col("_q").is_null(),
        "present",
        pl.format(
            "le joueur {} est marqué présent mais n'est pas qualifié pour la manche {}",
            pl.col("player_id"),
            pl.col("round_id"),
        ),
    )
    participants = (
        entered.filter(pl.col("is_present") & pl.col("_q").is_not_null())
        .group_by("round_id")
        .agg(pl.len().alias("n"))
    )
    with_moves = set(m["round_id"].drop_nulls().to_list())
    counts = dict(participants.iter_rows())
    for r in rounds.iter_rows(named=True):
        n = counts.get(r["round_id"], 0)
        if r["round_id"] not in with_moves:
            errors.append(
                _error(
                    PLAYERS_EXPORT,
                    r["round_id"],
                    r["first_row"],
                    "round_id",
                    f"la manche {r['round_id']} n'a aucun coup dans l'export des coups",
                )
            )
        if n < 2:
            errors.append(
                _error(
                    PLAYERS_EXPORT,
                    r["round_id"],
                    r["first_row"],
                    "present",
                    f"la manche {r['round_id']} a {n} joueur(s) qualifié(s) présent(s) : "
                    "il en faut deux au moins",
                )
            )
    return errors


def _run(
    players: pl.DataFrame,
    moves: pl.DataFrame,
    params: MortSubiteParams,
    calendar: SeasonCalendar,
) -> tuple[ChallengeTables, pl.DataFrame]:
    """Everything that can be computed, and the errors of the exports."""
    p = _prepared_players(players)
    m = _prepared_moves(moves)
    errors = _players_errors(p, calendar)
    known = set(p["round_id"].drop_nulls().to_list())
    errors += _moves_errors(m, known)
    bad_rounds = {e["round_id"] for e in errors if e["round_id"] is not None}
    rounds = _rounds(p.filter(pl.col("round_id").is_not_null()), calendar)
    regular_ids = set(rounds.filter(~pl.col("is_final"))["round_id"].to_list()) - bad_rounds
    regular_p = p.filter(pl.col("round_id").is_in(sorted(regular_ids)))
    qualified = _qualified_from(regular_p, params)
    round_rows = rounds.filter(pl.col("round_id").is_in(sorted(regular_ids)))
    found = _round_errors(regular_p, m, qualified, round_rows)
    played, more = _play_rounds(p, qualified, m, params, regular_ids)
    errors += found + more
    regular_results = _results_frame(played)

    bad_seasons = set(
        rounds.filter(pl.col("round_id").is_in(sorted({e["round_id"] for e in errors} - {None})))[
            "season"
        ].to_list()
    )
    final_rounds = rounds.filter(
        pl.col("is_final")
        & ~pl.col("round_id").is_in(sorted(bad_rounds))
        & ~pl.col("season").is_in(sorted(bad_seasons))
    )
    final_ids = set(final_rounds["round_id"].to_list())
    final_p = p.filter(pl.col("round_id").is_in(sorted(final_ids)))
    good_regular = regular_results.join(
        rounds.filter(~pl.col("season").is_in(sorted(bad_seasons))).select("round_id"),
        on="round_id",
        how="semi",
    )
    if final_ids:
        ranking = final_host_ranking(players, good_regular, params, calendar).filter(
            pl.col("round_id").is_in(sorted(final_ids))
        )
        final_qualified = qualify(ranking, params) if ranking.height else _empty(ROUND_QUALIFIED)
    else:
        final_qualified = _empty(ROUND_QUALIFIED)
    errors += _round_errors(final_p, m, final_qualified, final_rounds)
    final_played, more = _play_rounds(p, final_qualified, m, params, final_ids)
    errors += more

    all_qualified = pl.concat([qualified, final_qualified])
    results = _results_frame(played + final_played)
    standings = season_standings(players, results, params, calendar)
    seasons = rounds.select("round_id", "season")
    tables = ChallengeTables(
        QUALIFIED.check(
            _with_season(all_qualified, seasons, QUALIFIED).sort(
                "season", "round_id", "host_rank", "player_id"
            )
        ),
        RESULTS.check(
            _with_season(results, seasons, RESULTS).sort("season", "round_id", "place", "player_id")
        ),
        standings,
    )
    return tables, _errors_frame(errors)


def _with_season(frame: pl.DataFrame, seasons: pl.DataFrame, declared: Table) -> pl.DataFrame:
    """A rounds frame with the `season` of each round, in the table's column order."""
    return frame.join(seasons, on="round_id", how="left").select(declared.column_names)


def validate_challenge(
    players: pl.DataFrame,
    moves: pl.DataFrame,
    params: MortSubiteParams,
    calendar: SeasonCalendar,
) -> pl.DataFrame:
    """The errors of the two exports, one row each: `export` (`mort subite players` or
    `mort subite moves`), `round_id`, `row_index` (0-based position of the offending row in
    that export's frame), `column`, `message` (French). Empty when both are valid."""
    return _run(players, moves, params, calendar)[1]


def _summary(errors: pl.DataFrame, limit: int = 5) -> str:
    lines = [
        f"{e['export']}, ligne de données n° {e['row_index'] + 1}, colonne {e['column']} : "
        f"{e['message']}"
        for e in errors.head(limit).iter_rows(named=True)
    ]
    more = errors.height - limit
    if more > 0:
        lines.append(f"… et {more} autre(s) erreur(s)")
    return "\n".join(lines)


def challenge(
    players: pl.DataFrame,
    moves: pl.DataFrame,
    params: MortSubiteParams,
    calendar: SeasonCalendar,
) -> ChallengeTables:
    """The three tables of every season of the exports: qualification of the regular rounds
    then their results, the final's qualification and results, the standings. Raises
    MortSubiteError (with the first errors of `validate_challenge`) on invalid exports."""
    tables, errors = _run(players, moves, params, calendar)
    if errors.height:
        raise MortSubiteError(_summary(errors))
    return tables
