"""The rules of the challenge (docs/rules.md §6): points by place, the qualification of a
round, a round played move by move, the final's host ranking and the season standings.
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
from transforms.mort_subite.params import (
    _FIRST_SERIES,
    DEFAULT_SERIES,
    ERRORS_SCHEMA,
    MOVES_COLUMNS,
    MOVES_EXPORT,
    PENALTY,
    PLAYERS_COLUMNS,
    PLAYERS_EXPORT,
    QUALIFIED,
    RESULTS,
    ROUND_QUALIFIED,
    ROUND_RESULTS,
    STANDINGS,
    MortSubiteError,
    MortSubiteParams,
)
from transforms.ranking import competition_ranks
from transforms.series_labels import SUPER_SERIE, series_level


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
    penalty = (
        pl.col(PENALTY).cast(pl.Int64, strict=False)
        if PENALTY in moves.columns
        else pl.lit(None, dtype=pl.Int64)
    )
    return moves.with_row_index("row_index").select(
        pl.col("row_index").cast(pl.Int64),
        pl.col("round_id").cast(pl.String),
        pl.col("move").cast(pl.Int64, strict=False),
        pl.col("top").cast(pl.Int64, strict=False),
        pl.col("player_id").cast(pl.String),
        pl.col("score").cast(pl.Int64, strict=False),
        pl.col("warning").cast(pl.Int64, strict=False),
        penalty.alias(PENALTY),
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
    warned: Collection[str] | Mapping[str, int],
    warnings: dict[str, int],
    params: MortSubiteParams,
    penalties: Mapping[str, int] | None = None,
) -> tuple[set[str], dict[str, int]]:
    """Who is still in after one move (art. 7, 11; FISF §5.9), and each player's counted
    score.

    `scores`: the score each participant still in played on the move, before any penalty;
    `warned`: the players warned on it (one warning each), or each player's number of
    warnings on it (0, 1 or 2: a disciplinary warning may come on top of another, FISF
    §5.8); `warnings`: each player's warnings of the round before the move, updated with
    this move's (pass the same dict move after move); `penalties`: the points the arbiter
    took off each player's move (FISF §5.6), none by default.

    The counted score is the score played less `warning_penalty` for each of the move's
    warnings from the `penalised_from_warning`-th of the round on, less the penalty, never
    below 0 (FISF §5.6: « pas de score négatif »). Elimination compares counted scores
    (FISF §5.9: « toute pénalité est appliquée sur le coup concerné »); a solo is judged on
    the scores played, before any penalty (FISF §3.5, art. 11)."""
    played = {pid: int(score) for pid, score in scores.items()}
    counts = warned if isinstance(warned, Mapping) else dict.fromkeys(warned, 1)
    deducted = {pid: int(points or 0) for pid, points in (penalties or {}).items()}
    for pid in sorted(counts):
        before = warnings.get(pid, 0)
        warnings[pid] = before + int(counts[pid] or 0)
        charged = sum(
            1
            for number in range(before + 1, warnings[pid] + 1)
            if number >= params.penalised_from_warning
        )
        deducted[pid] = deducted.get(pid, 0) + charged * params.warning_penalty
    penalised = {pid for pid, points in deducted.items() if points > 0 and pid in played}
    counted = {pid: max(s - deducted.get(pid, 0), 0) for pid, s in played.items()}
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
        {r["player_id"]: int(r["warning"]) for r in rows if r["warning"]},
        warnings,
        params,
        {r["player_id"]: int(r[PENALTY]) for r in rows if r[PENALTY]},
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
