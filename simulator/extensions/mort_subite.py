"""The Belgian Mort Subite challenge (docs/rules.md §6) in the simulated seasons.

Every season, the duplicate tournaments held in Belgium host the challenge: a round after
each of them, the last one hosting the season's final instead. When fewer than
`MIN_HOSTS` are held in Belgium, the duplicate tournaments with the largest share of
Belgian players are taken as hosts too (in a small sample, a season may have few Belgian
events). Per round the generator writes the two exports of `docs/exports.md`:

- `<season>/<round>_joueurs.csv` (*mort subite players*): every player of the host
  tournament with their rank after its penultimate game — the final ranking with the last
  game taken off (each player's last game is their mean game, ± `LAST_GAME_SPREAD`), so
  places change a little — and a tie at the 10th place now and then; the series of the
  results, a few left empty (the pipeline takes them from the host's results); `present` = 1
  for most qualified players (`PRESENT_ODDS`);
- `<season>/<round>_coups.csv` (*mort subite moves*): the moves played until one player
  is left or the game ends (`GAME_MOVES`). Each move has a computer top — a bingo
  (`BINGO_ODDS`, 60–120 points) or an ordinary move (14–51); each player finds it with a
  probability falling with their duplicate skill, lower on the hard moves (`HARD_ODDS`),
  where nobody may find it; a player who misses plays one of three lower scores of the
  move, so that several players often go out with the same score. A few players are
  prone to warnings (`PRONE_ODDS`), enough for some to reach a 6th one.
- the final is one workbook `<season>/<round>.xlsx` with a players sheet (every player of
  the season's regular rounds, ranked by the challenge classification) and a moves sheet.

Who goes out on a move is decided by the rules themselves
(`transforms.mort_subite.move_survivors`) and who is qualified by `qualify` and
`final_host_ranking`: the federation's arbiter applies the regulation, and the files are
what the arbiter writes down. Headers and CSV flavours draw from a stream of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from pipelines.paths import REFERENCE_DIR
from pipelines.reference.mort_subite import load_mort_subite_params
from simulator.extensions import SeasonContext
from simulator.tournament import Tournament
from simulator.write import Table, write_csv, write_xlsx
from transforms.calendar import SeasonCalendar
from transforms.mort_subite.challenge import challenge
from transforms.mort_subite.params import MOVES_COLUMNS, PLAYERS_COLUMNS, MortSubiteParams
from transforms.mort_subite.rules import final_host_ranking, move_survivors, qualify
from transforms.ranking import competition_ranks

ORDER = 60
KEY = "mort_subite"
HOST_COUNTRY = "Belgique"
HOST_FEDERATION = "BEL"
MIN_HOSTS = 4  # three regular rounds and the final
LAST_GAME_SPREAD = 0.06
TIE_AT_TENTH_ODDS = 0.25
SERIES_MISSING_ODDS = 0.04
PRESENT_ODDS = 0.9
FINAL_PRESENT_ODDS = 0.85
GAME_MOVES = (16, 24)
BINGO_ODDS = 0.35
HARD_ODDS = 0.08
# A hard move (a rare word): each player misses its top this many times as often, at
# least with the probability HARD_MISS[0] and at most HARD_MISS[1].
HARD_FACTOR = 3
HARD_MISS = (0.5, 0.9)
# A player misses the top with probability exp(a + b × skill), clipped to [low, high].
MISS = (-1.5, -0.6, 0.03, 0.6)
PRONE_ODDS = 0.12
WARNING_ODDS = (0.015, 0.45)  # per move: most players, then the warning-prone ones
FRENCH_ODDS = 0.25


@dataclass(frozen=True)
class _Round:
    round_id: str
    host: Tournament
    final: bool


def _hosts(tournaments: Sequence[Tournament]) -> list[Tournament]:
    """The season's host tournaments in date order: those held in Belgium, completed up to
    `MIN_HOSTS` by the duplicate tournaments with the largest share of Belgian players."""
    duplicate = [t for t in tournaments if t.discipline == "duplicate" and t.n_rows >= 2]
    hosts = [t for t in duplicate if t.results.get("country") == HOST_COUNTRY]
    if len(hosts) < MIN_HOSTS:

        def share(t: Tournament) -> float:
            feds = t.results.get("federation")
            codes = feds if isinstance(feds, list) else [feds] * t.n_rows
            return sum(1 for c in codes if c == HOST_FEDERATION) / t.n_rows

        others = sorted(
            (t for t in duplicate if t not in hosts and share(t) > 0),
            key=lambda t: (-share(t), t.tid),
        )
        hosts += others[: MIN_HOSTS - len(hosts)]
    return sorted(hosts, key=lambda t: (t.edition.end, t.tid))


def _rounds(hosts: list[Tournament], year: int) -> list[_Round]:
    """A regular round after each host, the last host's being the final (with two hosts
    or more)."""
    rounds = [_Round(f"MS{year}-{k:02d}", host, False) for k, host in enumerate(hosts, start=1)]
    if len(rounds) >= 2:
        last = rounds[-1]
        rounds[-1] = _Round(f"MS{year}-F", last.host, True)
    return rounds


def _column(t: Tournament, name: str) -> list[object]:
    value = t.results[name]
    return list(value) if isinstance(value, list) else [value] * t.n_rows


def _host_ranking(rng: np.random.Generator, t: Tournament) -> np.ndarray:
    """The ranks after the penultimate game: each player's total less a last game drawn
    around their mean game, with now and then a tie at the 10th place."""
    score = np.array(_column(t, "score"), dtype=np.float64)
    written = t.results.get("games")
    games = max(written if isinstance(written, int) else 1, 2)
    last = np.round(score / games * rng.normal(1.0, LAST_GAME_SPREAD, score.size))
    before = score - last
    tie = rng.random() < TIE_AT_TENTH_ODDS
    order = np.argsort(-before, kind="stable")
    if tie and order.size > 10:
        before[order[10]] = before[order[9]]
    return competition_ranks(before)


def _players_rows(r: _Round, ranks: np.ndarray) -> dict[str, list[object]]:
    """The players rows of a regular round, with the series of the host's results."""
    t = r.host
    series = _column(t, "series")
    order = np.lexsort((np.array(_column(t, "player_id"), dtype=object), ranks))
    ids = _column(t, "player_id")
    return {
        "round_id": [r.round_id] * t.n_rows,
        "host_tournament_id": [t.tid] * t.n_rows,
        "date": [t.edition.end] * t.n_rows,
        "final": [0] * t.n_rows,
        "player_id": [ids[i] for i in order],
        "host_rank": [int(ranks[i]) for i in order],
        "series": [series[i] for i in order],
        "present": [None] * t.n_rows,
    }


def _written(rng: np.random.Generator, rows: dict[str, list[object]]) -> dict[str, list[object]]:
    """The rows as written: a few series left empty (the pipeline takes them from the
    host tournament's results, where the arbiter found them)."""
    series = [None if rng.random() < SERIES_MISSING_ODDS else s for s in rows["series"]]
    return {**rows, "series": series}


def _frame(rows: dict[str, list[object]], columns: Sequence[str]) -> pl.DataFrame:
    schema = {
        "date": pl.Date,
        "final": pl.Int64,
        "host_rank": pl.Int64,
        "present": pl.Int64,
        "move": pl.Int64,
        "top": pl.Int64,
        "score": pl.Int64,
        "warning": pl.Int64,
    }
    return pl.DataFrame(
        {c: rows[c] for c in columns}, schema={c: schema.get(c, pl.String) for c in columns}
    )


def _mark_present(
    rng: np.random.Generator, rows: dict[str, list[object]], qualified: set[str], odds: float
) -> list[str]:
    """`present` = 1 for most qualified players (two at least); the participants, best
    host rank first."""
    ids = rows["player_id"]
    present = [pid in qualified and rng.random() < odds for pid in ids]
    if sum(present) < 2:
        present = [pid in qualified for pid in ids]
    rows["present"] = [1 if p else None for p in present]
    return [str(pid) for pid, p in zip(ids, present, strict=True) if p]


def _move_top(rng: np.random.Generator) -> int:
    if rng.random() < BINGO_ODDS:
        return int(rng.integers(60, 121))
    return int(rng.integers(14, 52))


def _alternatives(rng: np.random.Generator, top: int) -> list[int]:
    """Three scores below the top that a player who misses it plays, best first."""
    if top >= 60:  # a missed bingo: an ordinary word
        scores = rng.integers(12, 46, size=3)
    else:
        scores = top - rng.integers(1, max(2, top // 2) + 1, size=3)
    return sorted({int(s) for s in np.clip(scores, 0, top - 1)}, reverse=True)


def _play(
    rng: np.random.Generator,
    round_id: str,
    participants: list[str],
    skill: dict[str, float],
    params: MortSubiteParams,
) -> dict[str, list[object]]:
    """The moves of a round, played until one player is left or the game ends."""
    rows: dict[str, list[object]] = {c: [] for c in MOVES_COLUMNS}
    prone = {pid for pid in participants if rng.random() < PRONE_ODDS}
    warnings: dict[str, int] = {}
    alive = list(participants)
    moves = int(rng.integers(GAME_MOVES[0], GAME_MOVES[1] + 1))
    for move in range(1, moves + 1):
        top = _move_top(rng)
        hard = rng.random() < HARD_ODDS
        options = _alternatives(rng, top)
        weights = np.array([0.55, 0.3, 0.15][: len(options)])
        scores: dict[str, int] = {}
        warned: list[str] = []
        for pid in alive:
            miss = float(np.clip(np.exp(MISS[0] + MISS[1] * skill[pid]), MISS[2], MISS[3]))
            if hard:
                miss = min(HARD_MISS[1], max(HARD_MISS[0], miss * HARD_FACTOR))
            if rng.random() < miss:
                scores[pid] = options[int(rng.choice(len(options), p=weights / weights.sum()))]
            else:
                scores[pid] = top
            if rng.random() < WARNING_ODDS[pid in prone]:
                warned.append(pid)
        for pid in alive:
            rows["round_id"].append(round_id)
            rows["move"].append(move)
            rows["top"].append(top)
            rows["player_id"].append(pid)
            rows["score"].append(scores[pid])
            rows["warning"].append(1 if pid in warned else None)
        stay, _ = move_survivors(top, scores, warned, warnings, params)
        alive = [pid for pid in alive if pid in stay]
        if len(alive) <= 1:
            break
    return rows


def _final_rows(
    r: _Round,
    players: pl.DataFrame,
    moves: pl.DataFrame,
    params: MortSubiteParams,
    calendar: SeasonCalendar,
) -> dict[str, list[object]]:
    """The final's players rows: every player of the season's regular rounds, in the order
    of the challenge classification, with their place as host rank and their series."""
    results = challenge(players, moves, params, calendar).results
    candidates = sorted(set(results["player_id"].to_list()))
    stub: dict[str, list[object]] = {
        "round_id": [r.round_id] * len(candidates),
        "host_tournament_id": [r.host.tid] * len(candidates),
        "date": [r.host.edition.end] * len(candidates),
        "final": [1] * len(candidates),
        "player_id": list(candidates),
        "host_rank": [None] * len(candidates),
        "series": [None] * len(candidates),
        "present": [1] * len(candidates),
    }
    with_final = pl.concat([players, _frame(stub, PLAYERS_COLUMNS)])
    ranking = final_host_ranking(with_final, results, params, calendar)
    return {c: ranking[c].to_list() for c in PLAYERS_COLUMNS}


def _write(
    ctx: SeasonContext,
    rng: np.random.Generator,
    r: _Round,
    players: dict[str, list[object]],
    moves: dict[str, list[object]],
) -> None:
    n_players, n_moves = len(players["player_id"]), len(moves["player_id"])
    players_table = Table(dict[str, object](players), PLAYERS_COLUMNS, n_players)
    moves_table = Table(dict[str, object](moves), MOVES_COLUMNS, n_moves)
    if r.final:
        workbook = ctx.folder / f"{r.round_id}.xlsx"
        write_xlsx(workbook, [("joueurs", players_table), ("coups", moves_table)], rng)
        ctx.wrote(workbook, n_players + n_moves)
        return
    flavour = "fr" if rng.random() < FRENCH_ODDS else "utf8"
    for suffix, table in (("joueurs", players_table), ("coups", moves_table)):
        path = ctx.folder / f"{r.round_id}_{suffix}.csv"
        write_csv(path, table, flavour, rng)
        ctx.wrote(path, table.rows)


def extend(ctx: SeasonContext) -> None:
    """Write the season's Mort Subite rounds and final."""
    rng = ctx.rng(KEY)
    write_rng = ctx.rng(KEY + "/write")
    params = load_mort_subite_params(REFERENCE_DIR)
    calendar = ctx.sim.calendar
    pop = ctx.sim.pop
    skill = {str(licence): float(s) for licence, s in zip(pop.licence, pop.skill, strict=True)}
    year = int(ctx.season[:4])
    regular_players: list[pl.DataFrame] = []
    regular_moves: list[pl.DataFrame] = []
    for r in _rounds(_hosts(ctx.tournaments), year):
        if r.final:
            if not regular_players:
                continue
            season_players = pl.concat(regular_players)
            season_moves = pl.concat(regular_moves)
            rows = _final_rows(r, season_players, season_moves, params, calendar)
            ranking = _frame(rows, PLAYERS_COLUMNS)
            qualified = set(qualify(ranking, params)["player_id"].to_list())
            participants = _mark_present(rng, rows, qualified, FINAL_PRESENT_ODDS)
        else:
            rows = _players_rows(r, _host_ranking(rng, r.host))
            qualified = set(qualify(_frame(rows, PLAYERS_COLUMNS), params)["player_id"].to_list())
            participants = _mark_present(rng, rows, qualified, PRESENT_ODDS)
        moves = _play(rng, r.round_id, participants, skill, params)
        if not r.final:
            regular_players.append(_frame(rows, PLAYERS_COLUMNS))
            regular_moves.append(_frame(moves, MOVES_COLUMNS))
        _write(ctx, write_rng, r, rows if r.final else _written(rng, rows), moves)
