"""The standings of a final (table `round_robin_standings`): points, the tie-break cascades of
the Masters and of the Grand Est, withdrawals, and the `tiebreak_used` codes with their French
labels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import polars as pl

from transforms.round_robin.matches import WITHDRAWAL_COLUMN, matches_errors
from transforms.round_robin.params import (
    GrandEstParams,
    MastersParams,
    MatchPoints,
    RoundRobinError,
    WithdrawalRule,
)
from transforms.tables import table

STANDINGS = table("round_robin_standings")

# Codes of `tiebreak_used` and their French labels (for the report).
PLAY_OFF = "play_off"
EX_AEQUO = "ex_aequo"
WITHDRAWN = "withdrawn"
TIEBREAK_LABELS: Mapping[str, str] = {
    "defense": "défense (coups concédés)",
    "attack": "attaque (coups pris)",
    "head_to_head": "match(s) particulier(s)",
    "annual_place": "place au classement annuel",
    "top_moves": "coups joués au top",
    "moves_scored": "coups marqués dans les matchs",
    "opponents_scored": "total marqué par les adversaires",
    "qualifying_place": "classement de la phase qualificative",
    PLAY_OFF: "barrage à jouer",
    EX_AEQUO: "ex aequo",
    WITHDRAWN: "abandon",
}


@dataclass(frozen=True)
class _Criterion:
    code: str | None  # None: points (no tie-break)
    column: str | None  # a totals column or `place`; None for head-to-head
    larger_better: bool = True
    head_to_head: bool = False
    play_off_for_first: bool = False  # a tie for first reaching it goes to a play-off


_MASTERS_CRITERIA = (
    _Criterion(None, "points"),
    _Criterion("defense", "moves_conceded", larger_better=False),
    _Criterion("attack", "moves_won"),
    _Criterion("head_to_head", None, head_to_head=True),
    _Criterion("annual_place", "place", larger_better=False, play_off_for_first=True),
)
_GRAND_EST_CRITERIA = (
    _Criterion(None, "points"),
    _Criterion("top_moves", "top_moves"),
    _Criterion("moves_scored", "moves_won"),
    _Criterion("head_to_head", None, head_to_head=True),
    _Criterion("opponents_scored", "moves_conceded", larger_better=False),
    _Criterion("qualifying_place", "place", larger_better=False),
)
_COUNTERS = ("points", "wins", "draws", "losses", "moves_won", "moves_conceded", "top_moves")


@dataclass(frozen=True)
class _Placed:
    place: int
    code: str | None
    play_off: bool


class _Cascade:
    """The tie-break cascade over one set of counted games."""

    def __init__(
        self,
        criteria: Sequence[_Criterion],
        totals: Mapping[str, Mapping[str, int | None]],
        places: Mapping[str, int | None],
        results: Mapping[tuple[str, str], int],
    ) -> None:
        self.criteria = criteria
        self.totals = totals
        self.places = places
        self.results = results

    def _value(self, c: _Criterion, player: str, group: Sequence[str]) -> float:
        if c.head_to_head:
            return float(sum(self.results.get((player, o), 0) for o in group if o != player))
        raw = self.places[player] if c.column == "place" else self.totals[player][c.column or ""]
        if raw is None:
            return -math.inf
        return float(raw) if c.larger_better else -float(raw)

    def rank(self, players: Sequence[str], first_place: int) -> dict[str, _Placed]:
        placed: dict[str, _Placed] = {}
        self._resolve(sorted(players), 0, first_place, placed)
        return placed

    def _resolve(self, group: list[str], level: int, place: int, out: dict[str, _Placed]) -> None:
        if not group:
            return
        if len(group) == 1:
            out[group[0]] = _Placed(place, None, False)
            return
        for i in range(level, len(self.criteria)):
            c = self.criteria[i]
            if c.play_off_for_first and place == 1:
                out.update({p: _Placed(1, PLAY_OFF, True) for p in group})
                return
            values = {p: self._value(c, p, group) for p in group}
            distinct = sorted(set(values.values()), reverse=True)
            if len(distinct) == 1:
                continue
            for v in distinct:
                block = [p for p in group if values[p] == v]
                if len(block) == 1:
                    out[block[0]] = _Placed(place, c.code, False)
                else:
                    self._resolve(block, i if c.head_to_head else i + 1, place, out)
                place += len(block)
            return
        out.update({p: _Placed(place, EX_AEQUO, False) for p in group})


def _games(matches: pl.DataFrame, points: MatchPoints) -> pl.DataFrame:
    top = (
        pl.col("player_top_moves").cast(pl.Int64)
        if "player_top_moves" in matches.columns
        else pl.lit(None, dtype=pl.Int64)
    )
    won, conceded = pl.col("player_moves").cast(pl.Int64), pl.col("opponent_moves").cast(pl.Int64)
    return matches.select(
        pl.col("tournament_id").cast(pl.String),
        pl.col("round").cast(pl.Int64),
        pl.col("player_id").cast(pl.String),
        pl.col("opponent_id").cast(pl.String),
        won.alias("won"),
        conceded.alias("conceded"),
        top.alias("top"),
        pl.when(won > conceded)
        .then(pl.lit("W"))
        .when(won == conceded)
        .then(pl.lit("D"))
        .otherwise(pl.lit("L"))
        .alias("outcome"),
    ).with_columns(
        result=pl.col("outcome").replace_strict(
            {"W": points.win, "D": points.draw, "L": points.loss}, return_dtype=pl.Int64
        )
    )


def _totals(games: pl.DataFrame, players: Iterable[str], has_top: bool) -> dict[str, dict]:
    """Counters of each player over their rows of `games` (zeros for a player without)."""
    agg = games.group_by("player_id").agg(
        pl.col("result").sum().alias("points"),
        (pl.col("outcome") == "W").sum().cast(pl.Int64).alias("wins"),
        (pl.col("outcome") == "D").sum().cast(pl.Int64).alias("draws"),
        (pl.col("outcome") == "L").sum().cast(pl.Int64).alias("losses"),
        pl.col("won").sum().alias("moves_won"),
        pl.col("conceded").sum().alias("moves_conceded"),
        pl.col("top").sum().alias("top_moves"),
    )
    found = {r["player_id"]: r for r in agg.iter_rows(named=True)}
    zero = dict.fromkeys(_COUNTERS, 0)
    out: dict[str, dict] = {}
    for p in players:
        row: dict[str, int | None] = {
            k: int(v) for k, v in found.get(p, zero).items() if k in _COUNTERS
        }
        if not has_top:
            row["top_moves"] = None
        out[p] = row
    return out


def _withdrawals(withdrawals: pl.DataFrame | None, tournament_id: str) -> dict[str, int]:
    if withdrawals is None or WITHDRAWAL_COLUMN not in withdrawals.columns:
        return {}
    rows = withdrawals
    if "tournament_id" in rows.columns:
        rows = rows.filter(pl.col("tournament_id").cast(pl.String) == tournament_id)
    rows = rows.filter(pl.col(WITHDRAWAL_COLUMN).is_not_null())
    return {
        str(p): int(k)
        for p, k in zip(
            rows["player_id"].cast(pl.String).to_list(),
            rows[WITHDRAWAL_COLUMN].cast(pl.Int64).to_list(),
            strict=True,
        )
    }


def _check_final(
    games: pl.DataFrame,
    tid: str,
    players: Sequence[str],
    withdrawn: Mapping[str, int],
    total_rounds: int,
) -> None:
    """The played matches make a single round robin of `players` (French errors)."""
    roster = set(players)
    strangers = sorted(set(games["player_id"].to_list()) - roster)
    if strangers:
        raise RoundRobinError(
            f"tournoi {tid} : le joueur {strangers[0]} a des matchs sans faire partie des "
            "participants"
        )
    for p, k in sorted(withdrawn.items()):
        if p not in roster:
            raise RoundRobinError(
                f"tournoi {tid} : {p} abandonne sans faire partie des participants"
            )
        if not 0 <= k < total_rounds:
            raise RoundRobinError(
                f"tournoi {tid} : abandon de {p} après la ronde {k} ; il faut une ronde de 0 à "
                f"{total_rounds - 1} (le tournoi en compte {total_rounds})"
            )
        late = games.filter((pl.col("player_id") == p) & (pl.col("round") > k))
        if late.height:
            raise RoundRobinError(
                f"tournoi {tid} : {p} a abandonné après la ronde {k} mais joue encore à la "
                f"ronde {min(late['round'].to_list())}"
            )
    played = set(zip(games["player_id"].to_list(), games["opponent_id"].to_list(), strict=True))
    active = sorted(roster - set(withdrawn))
    for i, a in enumerate(active):
        for b in active[i + 1 :]:
            if (a, b) not in played:
                raise RoundRobinError(
                    f"tournoi {tid} : il manque le match entre {a} et {b} (chaque participant "
                    "rencontre tous les autres une fois)"
                )


def _late_withdrawals(
    games: pl.DataFrame,
    players: Sequence[str],
    withdrawn: Mapping[str, int],
    total_rounds: int,
    rule: WithdrawalRule,
    points: MatchPoints,
) -> set[str]:
    """The withdrawn players whose games stay counted for places 1..D (docs/rules.md §5b)."""
    late: set[str] = set()
    for w, k in sorted(withdrawn.items()):
        if total_rounds - k > rule.rounds_left:
            continue
        others = [o for o in withdrawn if o != w]
        contenders = [p for p in players if p not in withdrawn]
        rows = games.filter(
            pl.col("player_id").is_in(contenders) & ~pl.col("opponent_id").is_in(others)
        )
        so_far = rows.filter(pl.col("round") <= k)
        score = dict(so_far.group_by("player_id").agg(pl.col("result").sum()).iter_rows())
        left = dict(rows.filter(pl.col("round") > k).group_by("player_id").len().iter_rows())
        met = set(so_far.filter(pl.col("opponent_id") == w)["player_id"].to_list())
        leader = max((score.get(p, 0) for p in contenders), default=0)
        catchers = [
            p for p in contenders if score.get(p, 0) + points.win * left.get(p, 0) >= leader
        ]
        if all(p in met for p in catchers):
            late.add(w)
    return late


def _final_standings(
    matches: pl.DataFrame,
    field: pl.DataFrame,
    points: MatchPoints,
    rule: WithdrawalRule,
    criteria: Sequence[_Criterion],
    withdrawals: pl.DataFrame | None,
    *,
    need_top: bool,
    circuit: str,
    year: int | None,
) -> pl.DataFrame:
    errors = matches_errors(matches, duplicate_match=need_top)
    if errors.height:
        first = errors.row(0, named=True)
        row = first["row"]
        shown = (
            None
            if row is None
            else (matches["_row"][row] if "_row" in matches.columns else row + 1)
        )
        where = "" if shown is None else f"ligne {shown}, "
        raise RoundRobinError(f"matchs : {where}colonne « {first['column']} » : {first['message']}")
    ids = matches["tournament_id"].cast(pl.String).unique().sort().to_list()
    if len(ids) != 1:
        raise RoundRobinError(
            f"les matchs d'un seul tournoi à la fois (reçu : {', '.join(ids) or 'aucun'})"
        )
    tid = ids[0]
    has_top = (
        "player_top_moves" in matches.columns and matches["player_top_moves"].null_count() == 0
    )
    if need_top and not has_top:
        raise RoundRobinError(
            f"tournoi {tid} : il manque des coups joués au top (« player_top_moves ») ; la finale "
            "du Grand Est départage d'abord au nombre de coups joués au top"
        )
    places = dict(
        zip(
            field["player_id"].cast(pl.String).to_list(),
            field["place"].cast(pl.Int64).to_list(),
            strict=True,
        )
    )
    players = sorted(places)
    if len(players) != field.height:
        raise RoundRobinError(f"tournoi {tid} : un participant est donné deux fois")
    total_rounds = len(players) - 1 if len(players) % 2 == 0 else len(players)
    games = _games(matches, points)
    withdrawn = _withdrawals(withdrawals, tid)
    _check_final(games, tid, players, withdrawn, total_rounds)

    ranked = [p for p in players if p not in withdrawn]
    late = _late_withdrawals(games, players, withdrawn, total_rounds, rule, points)

    def counted(kept: set[str]) -> pl.DataFrame:
        annulled = [w for w in withdrawn if w not in kept]
        return games.filter(
            pl.col("player_id").is_in(ranked) & ~pl.col("opponent_id").is_in(annulled)
        )

    def ranking(rows: pl.DataFrame, who: Sequence[str], first: int) -> tuple[dict, dict]:
        totals = _totals(rows, who, has_top)
        results = {
            (p, o): r for p, o, r in rows.select("player_id", "opponent_id", "result").iter_rows()
        }
        return _Cascade(criteria, totals, places, results).rank(who, first), totals

    opponents: dict[str, list[str]] = {}
    for p, o in games.select("player_id", "opponent_id").iter_rows():
        opponents.setdefault(p, []).append(o)

    seeds = (
        dict(zip(field["player_id"].cast(pl.String), field["seed"].cast(pl.Int64), strict=True))
        if "seed" in field.columns
        else {}
    )
    rows_out: list[dict] = []

    def emit(p: str, placed: _Placed | None, totals: Mapping, annulled: Iterable[str]) -> None:
        rows_out.append(
            {
                "year": year,
                "circuit": circuit,
                "tournament_id": tid,
                "player_id": p,
                "seed": seeds.get(p),
                "ranking_place": places[p],
                "place": None if placed is None else placed.place,
                **{k: totals[k] for k in _COUNTERS},
                "tiebreak_used": WITHDRAWN if placed is None else placed.code,
                "play_off_needed": False if placed is None else placed.play_off,
                "annulled_games": sorted(annulled),
            }
        )

    kept_games = counted(late)
    top: set[str] = set()
    if late:
        top_placed, top_totals = ranking(kept_games, ranked, 1)
        top = {p for p, placed in top_placed.items() if placed.place <= rule.decided_places}
        for p in sorted(top):
            emit(
                p,
                top_placed[p],
                top_totals[p],
                [o for o in opponents.get(p, []) if o in withdrawn and o not in late],
            )
    rest = [p for p in ranked if p not in top]
    rest_placed, rest_totals = ranking(
        counted(set()).filter(pl.col("player_id").is_in(rest)), rest, len(top) + 1
    )
    for p in rest:
        emit(p, rest_placed[p], rest_totals[p], [o for o in opponents.get(p, []) if o in withdrawn])
    own = _totals(games.filter(pl.col("player_id").is_in(list(withdrawn))), withdrawn, has_top)
    for w in sorted(withdrawn):
        emit(w, None, own[w], opponents.get(w, []))

    frame = pl.DataFrame(rows_out, schema=STANDINGS.schema, orient="row")
    return STANDINGS.check(frame.sort("place", "player_id", nulls_last=True))


def masters_standings(
    matches: pl.DataFrame,
    field: pl.DataFrame,
    params: MastersParams,
    withdrawals: pl.DataFrame | None = None,
    *,
    year: int | None = None,
) -> pl.DataFrame:
    """Standings of a Masters Grand Sud (one tournament's matches export; `field` from
    `masters_field`, or any `player_id, place` with the annual places): win 2 / draw 1 /
    loss 0, then défense, attaque, head-to-head (mini-table for three or more), annual
    place; a tie for first level after head-to-head shares place 1 with `play_off_needed`.
    `withdrawals`: the final's results with `withdrawn_after_round` (optional); `year`: the
    calendar year the standings are filed in (the final's end date; null in what-ifs)."""
    return _final_standings(
        matches,
        field,
        params.points,
        params.withdrawal,
        _MASTERS_CRITERIA,
        withdrawals,
        need_top=False,
        circuit=params.circuit,
        year=year,
    )


def grand_est_final_standings(
    matches: pl.DataFrame,
    field: pl.DataFrame,
    params: GrandEstParams,
    withdrawals: pl.DataFrame | None = None,
    *,
    year: int | None = None,
) -> pl.DataFrame:
    """Standings of the Grand Est final (duplicate-match; `field` from `grand_est_field`,
    or any `player_id, place` with the qualifying places): win 2 / draw 1 / loss 0, then
    moves at the top, moves scored, head-to-head, smallest total scored by the opponents,
    qualifying place; the withdrawal rule of docs/rules.md §5b with R and D of `params`; `year` as
    for `masters_standings`."""
    return _final_standings(
        matches,
        field,
        params.points,
        params.withdrawal,
        _GRAND_EST_CRITERIA,
        withdrawals,
        need_top=True,
        circuit=params.circuit,
        year=year,
    )
