"""The rules of docs/rules.md §1–§3 written the plain way: the benchmark's reference.

What it is for: issue 18 ("Federation scale") asks the fast, vectorised transforms
(`transforms.cote`, `transforms.elo`, `transforms.series`, `transforms.series_population`)
to be at least 50× faster than a straightforward per-row Python implementation of the same
rules, *checked to give the same numbers*. This module is that implementation. It is never
used by the pipeline: only `classement bench` and `tests/test_bench_naive.py` call it.

It is deliberately per-row: every input frame is turned into Python dicts (`.to_dicts()`)
at the start, the rules are loops over those rows with `sorted`, `dict` accumulators,
`math` and `fractions` (where the rules ask for exact arithmetic), and each output frame is
built once at the end with `pl.DataFrame(rows, schema=…)`. No Polars expression and no
NumPy take part in the computation. It was written from docs/rules.md, not translated from
the vectorised code; where the doc leaves a detail open, it follows what the fast code does
and a comment says so ("fast code:").

Each `naive_*` function has the signature of the fast function it mirrors and returns the
same frame (columns, dtypes, row order).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import polars as pl

from transforms.cote import CoteError, CoteParams, UnknownCategoryError
from transforms.elo import EloError, EloParams
from transforms.federations import AliasTable, normalise_key
from transforms.series import Classification, SeriesParams, SeriesQuotas, series_boundaries
from transforms.tables import table

if TYPE_CHECKING:
    from benchmarks.season import SeasonInputs

Row = dict[str, Any]

# ----------------------------------------------------------------------------- §0 helpers

SUPER_SERIE = "SS"
NEW_LICENSEE = "7"
SERIES_STEPS = {"SS": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7}
# The cascade of §3: series 1–4 by %N1–%N4, 5 and 6 by PC (6 is the rest in the quotas).
CASCADE = (1, 2, 3, 4, 5, 6)
CRITERION = {1: "pct_n1", 2: "pct_n2", 3: "pct_n3", 4: "pct_n4", 5: "pc", 6: "pc"}
SUPER_SERIE_CRITERION = "super_serie_pct"
# fast code: values this close count as tied at a bar (float noise of weighted means).
TIE = 1e-9
_LABEL = re.compile(r"^(SS|[1-7])([A-Z])?$")


def _rows(frame: pl.DataFrame | None) -> list[Row]:
    return [] if frame is None else frame.to_dicts()


def _frame(name: str, rows: list[Row]) -> pl.DataFrame:
    schema = table(name).schema
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


def round_half_away(value: Fraction | int) -> int:
    """§0: to an integer, half away from zero, exactly."""
    value = Fraction(value)
    magnitude = math.floor(abs(value) + Fraction(1, 2))
    return -magnitude if value < 0 else magnitude


def _nulls_last(value: Any) -> tuple[bool, Any]:
    return (value is None, value)


def _start(row: Row) -> dt.date | None:
    return row.get("start_date") or row.get("end_date")


def event_order_key(row: Row) -> tuple[Any, ...]:
    """§0: by end date, then start date (the end date when none), then id; missing last."""
    return (
        _nulls_last(row.get("end_date")),
        _nulls_last(_start(row)),
        _nulls_last(row.get("tournament_id")),
    )


def ordered(events: Iterable[Row]) -> list[Row]:
    return sorted(events, key=event_order_key)


def series_label(written: Any) -> str | None:
    """§0: a written series read leniently (`Série 5 A` → `5`); None when it is none."""
    if written is None:
        return None
    text = str(written).strip().upper()
    for accented in "ÉÈÊË":
        text = text.replace(accented, "E")
    text = re.sub(r"[\s._\-]", "", text)
    if text.startswith("SERIE"):
        text = text[len("SERIE") :]
    if text in ("SUPERSERIE", "SUPER"):
        text = SUPER_SERIE
    match = _LABEL.match(text)
    return match.group(1) if match else None


def _float(value: Any) -> float | None:
    if value is None:
        return None
    number = float(value)
    return None if math.isnan(number) else number


# ----------------------------------------------------------------------------- §1 cote


def _tournament_params(tournament: Row, params: CoteParams) -> tuple[int, int, int]:
    """(M, PJmin, PJmax): each value stated by the export wins over the category table."""
    stated = [tournament.get(k) for k in ("bonus_m", "pj_min", "pj_max")]
    bonus_m, pj_min, pj_max = stated
    if bonus_m is not None and pj_min is not None and pj_max is not None:
        return int(bonus_m), int(pj_min), int(pj_max)
    category = str(tournament.get("category") or "").strip().lower()
    rows = [c for c in params.categories if c.category.strip().lower() == category and category]
    if not rows:
        raise UnknownCategoryError(
            f"tournament {tournament.get('tournament_id')}: category "
            f"{tournament.get('category')!r} is unknown and no parameter is stated"
        )
    # fast code: the row with the largest min_games not above the games played, else the
    # category's first row (the doc says only "by category and number of games").
    rows.sort(key=lambda c: c.min_games)
    chosen = rows[0]
    games = tournament.get("games")
    for row in rows:
        if games is not None and row.min_games <= int(games):
            chosen = row
    table_values = (chosen.bonus_m, chosen.pj_min, chosen.pj_max)
    bonus_m, pj_min, pj_max = (
        int(s) if s is not None else t for s, t in zip(stated, table_values, strict=True)
    )
    return bonus_m, pj_min, pj_max


def _equivalence(series: Any, params: CoteParams) -> int | None:
    """§1: the starting cote of a duplicate series; a sub-series counts as its series."""
    if series is None:
        return None
    table_ = {str(k).strip().upper(): int(v) for k, v in params.series_equivalence.items()}
    text = str(series).strip().upper()
    if text in table_:
        return table_[text]
    return table_.get(text[:1])


def _latest_list(
    lists: Mapping[str, list[Row]], player: str, before: dt.date, column: str
) -> Row | None:
    """The player's latest rating list giving `column`, dated strictly before `before`."""
    found: Row | None = None
    for row in lists.get(player, []):
        if row[column] is None or row["as_of"] is None or row["as_of"] >= before:
            continue
        if found is None or row["as_of"] >= found["as_of"]:
            found = row
    return found


def _lists_by_player(rating_lists: pl.DataFrame) -> dict[str, list[Row]]:
    lists: dict[str, list[Row]] = defaultdict(list)
    for row in _rows(rating_lists):
        lists[str(row["player_id"])].append(row)
    return lists


def naive_cote_history(
    tournaments: pl.DataFrame,
    results: pl.DataFrame,
    rating_lists: pl.DataFrame,
    params: CoteParams,
    *,
    series: pl.DataFrame | None = None,
    prior: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """§1 tournament by tournament, player by player (see `transforms.cote.cote_history`)."""
    events = ordered(t for t in _rows(tournaments) if t["discipline"] in params.disciplines)
    entries: dict[str, list[Row]] = defaultdict(list)
    for row in _rows(results):
        entries[row["tournament_id"]].append(row)
    held: dict[tuple[str, str], Any] = {}
    if series is not None:
        for row in _rows(series):
            held.setdefault((row["tournament_id"], row["player_id"]), row["series"])
    lists = _lists_by_player(rating_lists)
    cote: dict[str, int] = {}
    for row in _rows(prior):
        cote[row["player_id"]] = int(row["cote"])

    out: list[Row] = []
    for tournament in events:
        tid = tournament["tournament_id"]
        players = entries.get(tid, [])
        if not players:
            continue
        start = _start(tournament)
        bonus_m, pj_min, pj_max = _tournament_params(tournament, params)
        n = len(players)
        if len({p["player_id"] for p in players}) != n:
            raise CoteError(f"tournament {tid}: a player is listed more than once")
        before: dict[str, int] = {}
        for p in players:
            pid = p["player_id"]
            if pid in cote:
                before[pid] = cote[pid]
                continue
            # First rated tournament: the latest list's cote strictly before the start,
            # else the equivalence of the series held, else the beginner's cote.
            listed = _latest_list(lists, pid, start, "cote") if start is not None else None
            written = held.get((tid, pid)) if series is not None else p.get("series")
            if listed is not None:
                before[pid] = int(listed["cote"])
            elif (value := _equivalence(written, params)) is not None:
                before[pid] = value
            else:
                before[pid] = params.initial_cote
        by_cote = sorted(before.values(), reverse=True)  # reference cote of place k
        # Initial place: tied cotes share the best place (fast code; only the reference
        # cote of a place enters the rules, and it does not depend on this choice).
        first_place: dict[int, int] = {}
        for place, value in enumerate(by_cote, start=1):
            first_place.setdefault(value, place)
        rated: list[Row] = []
        for p in players:
            pid, rank = p["player_id"], p["rank"]
            if rank is None or not 1 <= rank <= n:
                raise CoteError(f"tournament {tid}: ranks must lie in 1..{n}")
            mine = before[pid]
            initial_place = first_place[mine]
            pe = n - rank + 1
            bonus = 0
            if rank <= len(params.bonus_divisors):
                bonus = round_half_away(Fraction(bonus_m, params.bonus_divisors[rank - 1]))
            d = by_cote[rank - 1] - mine
            factor = params.pj_gain if d >= 0 else params.pj_loss
            pj_raw = round_half_away(d * Fraction(factor))
            pj = min(max(pj_raw, pj_min), pj_max)
            rated.append(
                {
                    "season": tournament.get("season"),
                    "tournament_id": tid,
                    "player_id": pid,
                    "cote_before": mine,
                    "initial_place": initial_place,
                    "rank": rank,
                    "pe": pe,
                    "bonus": bonus,
                    "pj_raw": pj_raw,
                    "pj": pj,
                    "cote_after": mine + pe + bonus + pj,
                }
            )
        rated.sort(key=lambda r: (r["rank"], r["player_id"]))
        for r in rated:
            cote[r["player_id"]] = r["cote_after"]
        out.extend(rated)
    return _frame("cote_history", out)


def naive_last_cotes(history: pl.DataFrame) -> pl.DataFrame:
    """`player_id, cote` after each player's last tournament of `history` (event order)."""
    last: dict[str, int] = {}
    for row in _rows(history):
        last[row["player_id"]] = row["cote_after"]
    return pl.DataFrame(
        list(last.items()), schema={"player_id": pl.String, "cote": pl.Int64}, orient="row"
    )


# ----------------------------------------------------------------------------- §2 Elo


def _expected(diff: float, params: EloParams) -> float:
    """E of a player rated `diff` above the opponent."""
    if params.cap_difference is not None:
        diff = max(-params.cap_difference, min(params.cap_difference, diff))
    if params.curve.kind == "base10":
        return 1.0 / (1.0 + 10.0 ** (-diff / params.curve.scale))
    return 1.0 / (1.0 + math.exp(-diff / params.curve.scale))


def naive_elo_history(
    tournaments: pl.DataFrame,
    games: pl.DataFrame,
    rating_lists: pl.DataFrame,
    results: pl.DataFrame,
    params: EloParams,
    *,
    prior: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """§2 game by game (see `transforms.elo.elo_history`)."""
    rules = params.k
    events = ordered(t for t in _rows(tournaments) if t["discipline"] in params.disciplines)
    rated_ids = {t["tournament_id"] for t in events}

    # A game given once or from both sides: each side once (the row as given first).
    sides: dict[str, dict[tuple[Any, str, str], Row]] = defaultdict(dict)
    given = [g for g in _rows(games) if g.get("opponent_id") is not None]  # a bye is no game
    mirrored = [
        {
            "tournament_id": g["tournament_id"],
            "round": g["round"],
            "player_id": g["opponent_id"],
            "opponent_id": g["player_id"],
            "player_score": g["opponent_score"],
            "opponent_score": g["player_score"],
            "player_result": None
            if g.get("player_result") is None
            else 1.0 - float(g["player_result"]),
        }
        for g in given
    ]
    for g in given + mirrored:
        if g["tournament_id"] not in rated_ids:
            continue
        key = (g["round"], g["player_id"], g["opponent_id"])
        sides[g["tournament_id"]].setdefault(key, g)
    for tid, by_key in sides.items():
        for g in by_key.values():
            if g.get("player_result") is None and (
                g["player_score"] is None or g["opponent_score"] is None
            ):
                raise EloError(f"tournament {tid}, round {g['round']}: a game has no score")

    lists = _lists_by_player(rating_lists)
    births: dict[str, int] = {}
    for row in _rows(results):
        year = row.get("birth_year")
        if year is not None:
            births[row["player_id"]] = max(births.get(row["player_id"], year), year)
    first_high: dict[str, dt.date] = {}
    for pid, rows in lists.items():
        for row in rows:
            high = row.get("elo") is not None and row["elo"] >= rules.high_threshold
            if high and (pid not in first_high or row["as_of"] < first_high[pid]):
                first_high[pid] = row["as_of"]

    rating: dict[str, float] = {}
    played: dict[str, int] = {}
    reached: set[str] = set()
    for row in _rows(prior):
        rating[row["player_id"]] = float(row["rating"])
        played[row["player_id"]] = int(row["games"])
        if row["reached"]:
            reached.add(row["player_id"])

    out: list[Row] = []
    for tournament in events:
        tid = tournament["tournament_id"]
        t_sides = list(sides.get(tid, {}).values())
        if not t_sides:
            continue
        start = _start(tournament)
        if start is None:
            raise EloError(f"tournament {tid} has no date")
        ids = sorted({g["player_id"] for g in t_sides} | {g["opponent_id"] for g in t_sides})
        before: dict[str, float] = {}
        games_before: dict[str, int] = {}
        k: dict[str, float] = {}
        for pid in ids:
            if pid in rating:
                before[pid], games_before[pid] = rating[pid], played[pid]
            else:
                listed = _latest_list(lists, pid, start, "elo")
                before[pid] = params.initial_rating if listed is None else float(listed["elo"])
                count = None if listed is None else listed.get("elo_games")
                games_before[pid] = 0 if count is None else int(count)
                if before[pid] >= rules.high_threshold:
                    reached.add(pid)
            if pid in first_high and first_high[pid] < start:
                reached.add(pid)
            # §2 K: 10 once 2400 was reached (wins over all), 40 for the first 30 games and
            # for a junior below 2300, else 20. A junior until 31 December of the year of
            # their 18th birthday.
            junior = pid in births and tournament["end_date"].year - births[pid] <= (
                rules.junior_age
            )
            if pid in reached or before[pid] >= rules.high_threshold:
                k[pid] = float(rules.k_high)
            elif games_before[pid] < rules.new_games:
                k[pid] = float(rules.k_new)
            elif junior and before[pid] < rules.junior_below:
                k[pid] = float(rules.k_junior)
            else:
                k[pid] = float(rules.k_default)
        n_games = dict.fromkeys(ids, 0)
        score = dict.fromkeys(ids, 0.0)
        expected = dict.fromkeys(ids, 0.0)
        for g in t_sides:
            pid, opp = g["player_id"], g["opponent_id"]
            if g.get("player_result") is not None:
                s = float(g["player_result"])
            elif g["player_score"] > g["opponent_score"]:
                s = 1.0
            elif g["player_score"] == g["opponent_score"]:
                s = 0.5
            else:
                s = 0.0
            n_games[pid] += 1
            score[pid] += s
            expected[pid] += _expected(before[pid] - before[opp], params)
        for pid in ids:
            delta = k[pid] * (score[pid] - expected[pid])
            if params.round_change:
                delta = float(math.copysign(math.floor(abs(delta) + 0.5), delta))
            after = before[pid] + delta
            rating[pid] = after
            played[pid] = games_before[pid] + n_games[pid]
            if after >= rules.high_threshold:
                reached.add(pid)
            out.append(
                {
                    "season": tournament.get("season"),
                    "tournament_id": tid,
                    "player_id": pid,
                    "rating_before": before[pid],
                    "games_before": games_before[pid],
                    "k": k[pid],
                    "games": n_games[pid],
                    "score": score[pid],
                    "expected": expected[pid],
                    "delta": delta,
                    "rating_after": after,
                }
            )
    return _frame("elo_history", out)


def naive_last_elo(history: pl.DataFrame, params: EloParams) -> pl.DataFrame:
    """`player_id, rating, games, reached` after each player's last tournament."""
    state: dict[str, list[Any]] = {}
    for row in _rows(history):
        high = max(row["rating_before"], row["rating_after"]) >= params.k.high_threshold
        was = state.get(row["player_id"], [0.0, 0, False])[2]
        state[row["player_id"]] = [
            row["rating_after"],
            row["games_before"] + row["games"],
            was or high,
        ]
    return pl.DataFrame(
        [(pid, *values) for pid, values in state.items()],
        schema={
            "player_id": pl.String,
            "rating": pl.Float64,
            "games": pl.Int64,
            "reached": pl.Boolean,
        },
        orient="row",
    )


# ----------------------------------------------------------------------------- §3 series


def _classified_next(classification: Iterable[Row]) -> dict[tuple[str, str], str]:
    """(season, player) → the series a classification gives the season after it."""
    held: dict[tuple[str, str], str] = {}
    for row in classification:
        first = int(row["season"][:4]) + 1
        key = (f"{first}-{first + 1}", row["player_id"])
        held.setdefault(key, SUPER_SERIE if row["super_serie"] else row["series"])
    return held


def naive_event_series(
    entries: pl.DataFrame, classifications: pl.DataFrame, rating_lists: pl.DataFrame
) -> pl.DataFrame:
    """§3 "the series a player holds": the row, last season's classification, the latest
    rating list dated on or before the event's start, else 7 (with the source)."""
    classified = _classified_next(_rows(classifications))
    listed: dict[str, list[tuple[dt.date, str]]] = defaultdict(list)
    for row in _rows(rating_lists):
        label = series_label(row["series"])
        if label is not None and row["as_of"] is not None:
            listed[row["player_id"]].append((row["as_of"], label))
    out: list[Row] = []
    for row in _rows(entries):
        pid, start = row["player_id"], row["start"]
        written = series_label(row.get("series"))
        from_list = None
        latest: dt.date | None = None
        for as_of, label in listed.get(pid, []):
            if start is not None and as_of <= start and (latest is None or as_of >= latest):
                latest, from_list = as_of, label
        if written is not None:
            series, source = written, "results"
        elif (row["season"], pid) in classified:
            series, source = classified[(row["season"], pid)], "classification"
        elif from_list is not None:
            series, source = from_list, "rating_list"
        else:
            series, source = NEW_LICENSEE, "default"
        out.append(
            {
                "tournament_id": row["tournament_id"],
                "player_id": pid,
                "series": series,
                "series_source": source,
            }
        )
    schema = {n: pl.String for n in ("tournament_id", "player_id", "series", "series_source")}
    return pl.DataFrame(out, schema=schema, orient="row")


def naive_season_series(
    season: str,
    previous_classification: pl.DataFrame,
    rating_lists: pl.DataFrame,
    season_end: dt.date,
) -> pl.DataFrame:
    """`season, player_id, series` held during a season when no event says more."""
    held: dict[tuple[str, str], str] = dict(_classified_next(_rows(previous_classification)))
    latest: dict[str, tuple[dt.date, str]] = {}
    for row in _rows(rating_lists):
        if row["series"] is None or row["as_of"] is None or row["as_of"] > season_end:
            continue
        pid = row["player_id"]
        if pid not in latest or row["as_of"] >= latest[pid][0]:
            latest[pid] = (row["as_of"], str(row["series"]))
    for pid, (_, series) in latest.items():
        held.setdefault((season, pid), series)
    return pl.DataFrame(
        [(s, p, v) for (s, p), v in held.items()],
        schema={"season": pl.String, "player_id": pl.String, "series": pl.String},
        orient="row",
    )


def naive_series_held(
    scores: pl.DataFrame, events: pl.DataFrame, held_by_season: pl.DataFrame
) -> pl.DataFrame:
    """`player_id, series` held in the season: the series of the last event that did not
    default it, else `held_by_season`."""
    position = {e["tournament_id"]: i for i, e in enumerate(ordered(_rows(events)))}
    last: dict[str, tuple[int, str]] = {}
    for row in _rows(scores):
        if row["series_source"] == "default" or row["tournament_id"] not in position:
            continue
        at = position[row["tournament_id"]]
        if row["player_id"] not in last or at >= last[row["player_id"]][0]:
            last[row["player_id"]] = (at, row["series"])
    held = {pid: series for pid, (_, series) in last.items()}
    for row in _rows(held_by_season):
        held.setdefault(row["player_id"], row["series"])
    return pl.DataFrame(
        list(held.items()), schema={"player_id": pl.String, "series": pl.String}, orient="row"
    )


def naive_new_licensees(
    players: pl.DataFrame,
    duplicate_results: pl.DataFrame,
    rating_lists: pl.DataFrame,
    season_start: dt.date,
    season_end: dt.date,
) -> pl.DataFrame:
    """§3: listed with series 7 for the first time on a list dated in the season, no
    tournament before it, no duplicate result in it. ("before it": the doc does not say
    before the list or before the season; fast code: before the season, from
    `players.first_tournament_date`.)"""
    listed_new: set[str] = set()
    listed_before: set[str] = set()
    for row in _rows(rating_lists):
        as_of = row["as_of"]
        if as_of is None:
            continue
        if season_start <= as_of <= season_end and series_label(row["series"]) == NEW_LICENSEE:
            listed_new.add(row["player_id"])
        if as_of < season_start:
            listed_before.add(row["player_id"])
    played = {r["player_id"] for r in _rows(duplicate_results)}
    federation: dict[str, list[Any]] = defaultdict(list)
    played_before: set[str] = set()
    for row in _rows(players):
        federation[row["player_id"]].append(row["federation"])
        first = row.get("first_tournament_date")
        if first is not None and first < season_start:
            played_before.add(row["player_id"])
    out: list[tuple[str, Any]] = []
    for pid in sorted(listed_new - listed_before - played_before - played):
        out.extend((pid, fed) for fed in federation.get(pid) or [None])
    return pl.DataFrame(out, schema={"player_id": pl.String, "federation": pl.String}, orient="row")


def naive_player_federations(
    players: pl.DataFrame, duplicate_results: pl.DataFrame
) -> pl.DataFrame:
    """`player_id, federation`: the players table's, else the latest result's that states
    one (by end date)."""
    listed: dict[str, Any] = {}
    for row in _rows(players):
        listed[row["player_id"]] = row["federation"]
    latest: dict[str, Any] = {}
    for row in sorted(_rows(duplicate_results), key=lambda r: _nulls_last(r["end_date"])):
        latest.setdefault(row["player_id"], None)
        if row["federation"] is not None:
            latest[row["player_id"]] = row["federation"]
    out = [(pid, listed.get(pid) or fed) for pid, fed in latest.items()]
    return pl.DataFrame(out, schema={"player_id": pl.String, "federation": pl.String}, orient="row")


def naive_duplicate_event_scores(
    results: pl.DataFrame,
    events: pl.DataFrame,
    held: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """§3 per event: the zones of series 1–4, %N1–%N4 and the classification points."""
    event_of = {e["tournament_id"]: e for e in _rows(events)}
    series_of: dict[tuple[str, str], tuple[Any, Any]] = {}
    for row in _rows(held):
        series_of.setdefault(
            (row["tournament_id"], row["player_id"]), (row["series"], row["series_source"])
        )
    by_event: dict[str, list[Row]] = defaultdict(list)
    for row in _rows(results):
        event = event_of.get(row["tournament_id"])
        if event is None:
            continue
        if held is None:
            written = series_label(row["series"])
            series, source = (written, "results") if written else (NEW_LICENSEE, "default")
        else:
            series, source = series_of.get((row["tournament_id"], row["player_id"]), (None, None))
        by_event[row["tournament_id"]].append(
            {
                "season": event["season"],
                "tournament_id": row["tournament_id"],
                "player_id": row["player_id"],
                "series": series,
                "place": row["rank"],
                "series_source": source,
                "_games": event["games"],
            }
        )
    out: list[Row] = []
    for rows in by_event.values():
        n = len(rows)
        # The zones: the super-série counts as series 1.
        zone_series = []
        for r in rows:
            s = r["series"]
            zone_series.append(1 if s == SUPER_SERIE else (int(s) if s and s.isdigit() else None))
        count = {x: sum(1 for z in zone_series if z == x) for x in (1, 2, 3, 4)}
        better = {x: sum(count[y] for y in (1, 2, 3, 4) if y < x) for x in (1, 2, 3, 4)}
        for r in rows:
            place = r["place"]
            for x in (1, 2, 3, 4):
                # zone of X: a = 1 + participants of a better series, b = a − 1 + those of X
                a, b = better[x] + 1, better[x] + count[x]
                r[f"zone{x}_a"], r[f"zone{x}_b"] = a, b
                if place == 1 or place < a:  # the winner gets 100 for every X
                    pct = 100.0
                elif place > b:
                    pct = 0.0
                else:
                    # the top of the zone gets 100, its bottom 100 / n (one float division
                    # of exact integers: the correctly rounded value of the fraction)
                    pct = 100 * (b - place + 1) / (b - a + 1)
                r[f"pct_n{x}"] = pct
            games = r.pop("_games")
            # PC: M − (k − 1) × 5p/4 with M = N × 5p/4 = (N − k + 1) × 5p / 4, exact (a
            # multiple of 1/4: exact in a float).
            r["pc"] = None if games is None else (n - place + 1) * 5 * games / 4
            out.append(r)
    out.sort(key=lambda r: (r["season"], r["tournament_id"], r["place"], r["player_id"]))
    return _frame("duplicate_event_scores", out)


def _coefficients(events: Iterable[Row], params: SeriesParams) -> dict[str, float]:
    """Event weights: the export's coefficient, else by category, else the default."""
    by_category = {k.lower(): float(v) for k, v in params.coefficient_by_category.items()}
    weights = {}
    for e in events:
        weight = e.get("coefficient")
        if weight is None and e.get("category") is not None:
            weight = by_category.get(str(e["category"]).strip().lower())
        weights[e["tournament_id"]] = float(
            params.default_coefficient if weight is None else weight
        )
    return weights


def naive_season_standings(
    scores: pl.DataFrame,
    events: pl.DataFrame,
    params: SeriesParams,
    federations: pl.DataFrame | None = None,
    previous: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """§3 per season: weighted global %N1–%N4 (minimum divisor), PC, super-série value."""
    weights = _coefficients(_rows(events), params)
    sums: dict[tuple[str, str], dict[str, float]] = {}
    for row in _rows(scores):
        acc = sums.setdefault(
            (row["season"], row["player_id"]),
            {"events": 0, "weight": 0.0, "pc": 0.0, **{f"pct_n{x}": 0.0 for x in (1, 2, 3, 4)}},
        )
        w = weights.get(row["tournament_id"], float(params.default_coefficient))
        acc["events"] += 1
        acc["weight"] += w
        acc["pc"] += row["pc"] or 0.0
        for x in (1, 2, 3, 4):
            acc[f"pct_n{x}"] += w * row[f"pct_n{x}"]
    federation: dict[str, Any] = {}
    for row in _rows(federations):
        federation.setdefault(row["player_id"], row["federation"])
    before: dict[str, Any] = {}
    for row in _rows(previous):
        before.setdefault(row["player_id"], row["super_serie_season"])
    out = []
    for (season, pid), acc in sorted(sums.items()):
        divisor = max(acc["weight"], float(params.minimum_divisor))
        ss_season = acc["pct_n1"] / acc["weight"]  # PP1 scored / PP1 possible: no divisor
        last = before.get(pid) or 0.0
        out.append(
            {
                "season": season,
                "player_id": pid,
                "federation": federation.get(pid),
                "events": acc["events"],
                **{f"pct_n{x}": acc[f"pct_n{x}"] / divisor for x in (1, 2, 3, 4)},
                "pc": acc["pc"],
                "super_serie_pct": params.current_weight * ss_season
                + params.previous_weight * last,
                "super_serie_season": ss_season,
                "super_serie_previous": last,
                "weight": acc["weight"],
            }
        )
    return _frame("series_standings", out)


def admit(candidates: Sequence[tuple[str, float | None]], wanted: int) -> list[str]:
    """The best `wanted` candidates (id, value), players tied with the last admitted too;
    a value of 0 or none is never admitted (§3: a bar is never 0)."""
    eligible = [(pid, v) for pid, v in candidates if v is not None and v > 0]
    if wanted <= 0 or not eligible:
        return []
    if wanted >= len(eligible):
        return [pid for pid, _ in eligible]
    bar = sorted((v for _, v in eligible), reverse=True)[wanted - 1]
    return [pid for pid, v in eligible if v >= bar - TIE]


def cascade(
    values: Mapping[str, Mapping[str, float | None]], population: int, quotas: SeriesQuotas
) -> dict[str, int]:
    """§3 end-of-season cascade over the players with results (`values`: player → their
    %N1–%N4 and PC): series 1–4 by %N1–%N4, 5 by PC, 6 the rest."""
    bounds = series_boundaries(quotas, population)
    series: dict[str, int] = {}
    admitted = 0
    for s in CASCADE:
        remaining = [(pid, v[CRITERION[s]]) for pid, v in values.items() if pid not in series]
        if s in bounds:
            chosen = admit(remaining, bounds[s] - admitted)
        else:
            chosen = [pid for pid, _ in remaining]
        for pid in chosen:
            series[pid] = s
        admitted += len(chosen)
    return series


def _fed_key(written: Any, federations: AliasTable, known: set[str]) -> str:
    """The quota federation of a written federation: its code when it has quotas, else *."""
    if written is None or not normalise_key(str(written)):
        return "*"
    code = federations.lookup.get(normalise_key(str(written)), str(written).strip())
    return code if code in known and code != "*" else "*"


def naive_classify_season(
    standings: pl.DataFrame,
    new_licensees: pl.DataFrame,
    quotas: SeriesQuotas,
    params: SeriesParams,
    held_series: pl.DataFrame | None = None,
    *,
    federations: AliasTable,
) -> Classification:
    """§3 end of season: cascade, bars, sub-series, super-série and movements."""
    rows = _rows(standings)
    by_player = {r["player_id"]: r for r in rows}
    season = rows[0]["season"] if rows else None
    new_rows = _rows(new_licensees)
    if season is None and new_rows and "season" in new_rows[0]:
        season = new_rows[0]["season"]
    new: dict[str, Any] = {}
    for r in new_rows:
        if r["player_id"] not in by_player:
            new.setdefault(r["player_id"], r["federation"])
    population = len(rows) + len(new)
    known = quotas.federations()

    series = cascade(by_player, population, quotas)
    classified: list[Row] = []
    for r in rows:
        if r["player_id"] not in series:
            continue
        s = series[r["player_id"]]
        classified.append(
            {
                "player_id": r["player_id"],
                "series": str(s),
                "criterion": CRITERION[s],
                "value": _float(r[CRITERION[s]]),
                "federation": r["federation"],
            }
        )
    for pid, fed in new.items():
        classified.append(
            {
                "player_id": pid,
                "series": NEW_LICENSEE,
                "criterion": None,
                "value": None,
                "federation": fed,
            }
        )
    for r in classified:
        r["fed_key"] = _fed_key(r["federation"], federations, known)
        r["subseries"] = None

    # Sub-series: each (federation, series) split "in the same way" as the cascade. The doc
    # leaves the base of the sub-quotas open; fast code: round(cumulative sub-share / the
    # series' share × the group's size).
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in classified:
        if r["series"] != NEW_LICENSEE:
            groups[(r["fed_key"], r["series"])].append(r)
    for (fed, label_of_series), members in groups.items():
        subs = quotas.subseries(fed, int(label_of_series))
        if not subs:
            continue
        nominal = quotas.nominal_share(int(label_of_series), fed)
        n = len(members)
        left = {m["player_id"]: m for m in members}
        cumulative, admitted = Fraction(0), 0
        for label, share in subs[:-1]:
            cumulative += share or Fraction(0)
            wanted = round_half_away(cumulative / nominal * n) - admitted
            chosen = admit([(pid, m["value"]) for pid, m in left.items()], wanted)
            for pid in chosen:
                left.pop(pid)["subseries"] = label
            admitted += len(chosen)
        for m in left.values():
            m["subseries"] = subs[-1][0]

    # Super-série: among series 1, the top 30 by ranking value strictly above 50 %.
    candidates = [
        (r["player_id"], _float(by_player[r["player_id"]][SUPER_SERIE_CRITERION]))
        for r in classified
        if r["series"] == "1"
    ]
    above = [
        (pid, v) for pid, v in candidates if v is not None and v > params.super_serie_threshold
    ]
    super_serie = set(admit(above, params.super_serie_size))

    table_rows = []
    for r in classified:
        standing = by_player.get(r["player_id"])
        table_rows.append(
            {
                "season": season,
                "player_id": r["player_id"],
                "series": r["series"],
                "subseries": r["subseries"],
                "super_serie": r["player_id"] in super_serie,
                "criterion": r["criterion"],
                "value": r["value"],
                "federation": r["federation"],
                "super_serie_value": None
                if standing is None
                else _float(standing[SUPER_SERIE_CRITERION]),
            }
        )
    table_rows.sort(
        key=lambda r: (
            _nulls_last(r["series"]),
            _nulls_last(r["subseries"]),
            r["value"] is None,
            -(r["value"] or 0.0),
            r["player_id"],
        )
    )
    for r in classified:
        r["super_serie"] = r["player_id"] in super_serie
    bars = _naive_bars(classified, by_player, quotas, params, population, season)
    movements = _naive_movements(table_rows, held_series, set(new), season)
    return Classification(
        _frame("series_classification", table_rows),
        _frame("series_bars", bars),
        _frame("series_movements", movements),
    )


def _naive_bars(
    classified: list[Row],
    standings: Mapping[str, Row],
    quotas: SeriesQuotas,
    params: SeriesParams,
    population: int,
    season: str | None,
) -> list[Row]:
    """§3: the bar of each series is the value of its last admitted player (the lowest)."""
    bounds = series_boundaries(quotas, population)
    n_new = sum(1 for r in classified if r["series"] == NEW_LICENSEE)
    # fast code: the target of a series is its cumulative boundary minus the one above
    # (the rest series: the players with results), of series 7 the new licensees.
    targets: dict[str, int] = {}
    previous = 0
    for s in CASCADE:
        bound = bounds.get(s, population - n_new)
        targets[str(s)] = max(bound - previous, 0)
        previous = bound
    targets[NEW_LICENSEE] = n_new

    def bar(members: list[Row], column: str = "value") -> float | None:
        values = [m[column] for m in members if m[column] is not None]
        return min(values) if values else None

    ss = [
        {"value": _float(standings[r["player_id"]][SUPER_SERIE_CRITERION])}
        for r in classified
        if r["super_serie"]
    ]
    out = [
        {
            "season": season,
            "series": SUPER_SERIE,
            "subseries": None,
            "federation": None,
            "criterion": SUPER_SERIE_CRITERION,
            "bar": bar(ss),
            "admitted": len(ss),
            "target": params.super_serie_size,
        }
    ]
    for label, target in targets.items():
        members = [r for r in classified if r["series"] == label]
        code = int(label)
        out.append(
            {
                "season": season,
                "series": label,
                "subseries": None,
                "federation": None,
                "criterion": members[0]["criterion"] if members else CRITERION.get(code),
                "bar": bar(members),
                "admitted": len(members),
                "target": target,
            }
        )
        subs: dict[tuple[str, str], list[Row]] = defaultdict(list)
        for r in members:
            if r["subseries"] is not None:
                subs[(r["fed_key"], r["subseries"])].append(r)
        for (fed, sub), group in sorted(subs.items()):
            out.append(
                {
                    "season": season,
                    "series": label,
                    "subseries": sub,
                    "federation": fed,
                    "criterion": group[0]["criterion"],
                    "bar": bar(group),
                    "admitted": len(group),
                    "target": None,
                }
            )
    return out


def _naive_movements(
    table_rows: list[Row],
    held_series: pl.DataFrame | None,
    new: set[str],
    season: str | None,
) -> list[Row]:
    """§3 movements against the series held during the season (SS above series 1)."""
    held: dict[str, str | None] = {}
    for r in _rows(held_series):
        held.setdefault(r["player_id"], series_label(r["series"]))
    out = []
    for r in table_rows:
        now = SUPER_SERIE if r["super_serie"] else r["series"]
        before = held.get(r["player_id"])
        if before is None or r["player_id"] in new:
            movement = "new"
        elif SERIES_STEPS[now] < SERIES_STEPS[before]:
            movement = "promoted"
        elif SERIES_STEPS[now] > SERIES_STEPS[before]:
            movement = "relegated"
        else:
            movement = "unchanged"
        out.append(
            {
                "season": season,
                "player_id": r["player_id"],
                "previous_series": before,
                "series": now,
                "movement": movement,
            }
        )
    out.sort(key=lambda r: r["player_id"])
    return out


def naive_provisional_changes(
    scores: pl.DataFrame,
    events: pl.DataFrame,
    quotas: SeriesQuotas,
    params: SeriesParams,
    new_licensees: pl.DataFrame,
) -> pl.DataFrame:
    """§3 provisional classification: after each event, the cascade over the events so far
    (population: players with a result so far + the season's new licensees), stored as the
    rows that changed since the previous event (a null series: left the classification)."""
    score_rows = _rows(scores)
    played = {r["tournament_id"] for r in score_rows}
    sequence = [e for e in ordered(_rows(events)) if e["tournament_id"] in played]
    if not sequence:
        return _frame("series_provisional", [])
    season = score_rows[0]["season"]
    weights = _coefficients(_rows(events), params)
    per_event: dict[str, list[Row]] = defaultdict(list)
    for r in score_rows:
        per_event[r["tournament_id"]].append(r)
    new_ids = {str(r["player_id"]) for r in _rows(new_licensees)}

    sums: dict[str, dict[str, float]] = {}
    last_seen: dict[str, tuple[int, float | None]] = {}  # player → (series, value) last row
    out: list[Row] = []
    for event in sequence:
        tid = event["tournament_id"]
        for r in per_event[tid]:
            acc = sums.setdefault(
                r["player_id"], {"w": 0.0, "pc": 0.0, **{f"pct_n{x}": 0.0 for x in (1, 2, 3, 4)}}
            )
            w = weights.get(tid, float(params.default_coefficient))
            acc["w"] += w
            acc["pc"] += r["pc"] or 0.0
            for x in (1, 2, 3, 4):
                acc[f"pct_n{x}"] += w * r[f"pct_n{x}"]
        values: dict[str, dict[str, float | None]] = {}
        for pid, acc in sums.items():
            divisor = max(acc["w"], float(params.minimum_divisor))
            values[pid] = {f"pct_n{x}": acc[f"pct_n{x}"] / divisor for x in (1, 2, 3, 4)}
            values[pid]["pc"] = acc["pc"]
        waiting = new_ids - set(sums)  # new licensees without a result yet: series 7
        series = cascade(values, len(sums) + len(waiting), quotas)
        rows_now: list[Row] = []
        for pid in sorted(set(sums) | waiting | set(last_seen)):
            code = 7 if pid in waiting else series.get(pid, 0)
            value = values[pid][CRITERION[code]] if code in CRITERION else None
            if (code, value) == last_seen.get(pid, (0, None)):
                continue
            last_seen[pid] = (code, value)
            rows_now.append(
                {
                    "season": season,
                    "after_tournament_id": tid,
                    "player_id": pid,
                    "series": str(code) if code else None,
                    "criterion": CRITERION.get(code),
                    "value": value,
                }
            )
        rows_now.sort(
            key=lambda r: (
                _nulls_last(r["series"]),
                r["value"] is None,
                -(r["value"] or 0.0),
                r["player_id"],
            )
        )
        out.extend(rows_now)
    return _frame("series_provisional", out)


# ----------------------------------------------------------------------------- one season


def run_season(inputs: SeasonInputs) -> dict[str, pl.DataFrame]:
    """The season's tables by the naive functions, wired as `benchmarks.season.fast_season`
    wires the fast ones (as the assets do)."""
    i = inputs

    def entries(results: pl.DataFrame) -> pl.DataFrame:
        columns = ("tournament_id", "player_id", "series", "start")
        rows = [{**{c: r[c] for c in columns}, "season": i.season} for r in _rows(results)]
        schema: dict[str, pl.DataType] = {c: results.schema[c] for c in columns}
        schema["season"] = pl.String()
        return pl.DataFrame(rows, schema=schema)

    held_all = naive_event_series(entries(i.results), i.previous_classification, i.rating_lists)
    cote_history = naive_cote_history(
        i.tournaments,
        i.results,
        i.rating_lists,
        i.cote_params,
        series=held_all,
        prior=naive_last_cotes(i.prior_cote_history),
    )
    elo_history = naive_elo_history(
        i.tournaments,
        i.games,
        i.rating_lists,
        i.birth_years,
        i.elo_params,
        prior=naive_last_elo(i.prior_elo_history, i.elo_params),
    )
    held = naive_event_series(
        entries(i.duplicate_results), i.previous_classification, i.rating_lists
    )
    scores = naive_duplicate_event_scores(i.duplicate_results, i.duplicate_events, held)
    standings = naive_season_standings(
        scores,
        i.duplicate_events,
        i.series_params,
        federations=naive_player_federations(i.players, i.duplicate_results),
        previous=i.previous_standings,
    )
    new = naive_new_licensees(
        i.players, i.duplicate_results, i.rating_lists, i.season_start, i.season_end
    )
    held_in_season = naive_series_held(
        scores,
        i.duplicate_events,
        naive_season_series(i.season, i.previous_classification, i.rating_lists, i.season_end),
    )
    result = naive_classify_season(
        standings,
        pl.DataFrame(
            [{**r, "season": i.season} for r in new.to_dicts()],
            schema={"player_id": pl.String, "federation": pl.String, "season": pl.String},
        ),
        i.quotas,
        i.series_params,
        held_in_season,
        federations=i.federations,
    )
    return {
        "cote_history": cote_history,
        "elo_history": elo_history,
        "duplicate_event_scores": scores,
        "series_standings": standings,
        "series_classification": result.classification,
        "series_bars": result.bars,
        "series_movements": result.movements,
        "series_provisional": naive_provisional_changes(
            scores, i.duplicate_events, i.quotas, i.series_params, new
        ),
    }
