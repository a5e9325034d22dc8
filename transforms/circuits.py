"""The PACA regional ranking of the Des chiffres et des lettres clubs (docs/rules.md §5, first part;
source [001] chapters 1–3), for players and for clubs, in calendar years.

Pure transforms: Polars frames in, the tables of `transforms/tables/circuits.py` out; every
number docs/rules.md §5 marks as a parameter arrives through `CircuitParams` (loaded from
`data/reference/circuits.yaml` and the four tables of `data/reference/circuits/` by
`pipelines.reference.circuits`).

In each circuit tournament a player scores: table 1 by duplicate place and number of seeds
present, table 2 for each win over a seed (by the seed's number), table 3 for each draw
with a seed, table 4 by final place and number of seeds present; the total is the sum of
the four. A club scores the sum of its three best player totals. After every tournament a
ranking is published (players and clubs): the tournaments of its *window* (docs/rules.md §5), each
one's 5 best totals kept. Its top 16 are the seeds of the next tournament; the top 16 of the
year's last ranking are invited to the Masters PACA.

Points stay exact: each value of the four tables is a `Fraction`; the computation runs on
whole numbers of `1/unit` (unit = the least common denominator of the tables' values, 2
with the defaults), so sums, best-5 totals and ties are exact; the tables hold the points as
DOUBLE (exact for halves).

Decisions taken here, where docs/rules.md §5 and [001] are silent:

- **Which tournaments**: those whose results' `circuit` column (one or more names joined
  by `;`, compared trimmed and case-insensitively) names the circuit. Each must be a held
  (`held`) edition of the circuit calendar, and each held edition of the calendar that has
  results must name the circuit in them; either mismatch is an error (in French, naming the
  tournament). The edition's year is the calendar's `year`; its date is the tournament's
  end date (the calendar's `date` for a held edition without results).
- **Seeds**: the players placed 1..16 in the last ranking published before the tournament,
  their seed number being that place (tied players share it). A player without points is
  never a seed. The first tournament's seeds come from the latest `circuit ranking` export
  of the circuit whose `as_of` is strictly before that tournament's end date (none: no
  seeds); every later tournament's come from our own ranking after the previous tournament.
  Ties at the 16th place can make more than 16 seeds: tables 1 and 4 then read their
  16-seed column.
- **Seeds present** = seeds listed in the tournament's results, whatever group they played
  in ([001] §2.1).
- **Places**: the duplicate place is `duplicate_rank` (a player without one scores no
  table-1 points), the final place is `rank`; tied players score their shared place's
  points (docs/rules.md §0). [001]: « Les 32 premiers joueurs d'un tournoi marquent des
  points » and « Tous les joueurs classés dans les 32 premiers d'un tournoi marquent des
  points »: a player whose final place (`rank`) is beyond the 32nd (`places_scored`) scores
  0 in all four tables, a win or a draw over a seed included; within it, a duplicate place
  beyond the 32nd scores no table-1 points.
- **Games**: each game counts, so two wins over the same seed score twice. The result is
  `player_result` where stated, else the comparison of the two scores; a game with neither
  is an error. A game may be listed from one side or from both (`transforms.elo.both_sides`).
  Byes score nothing.
- **Clubs**: a player's club is the `club` written on their results row that day
  (trimmed; empty = no club, no club points). Every club scores, in or out of PACA. Among
  equal player totals the smaller player id is listed as counted (the sum is the same).
- **Window** of the ranking published after tournament T (held in year Y, on date d), in
  event order (docs/rules.md §0):
  - the held editions of year Y up to T;
  - plus, unless it is the year's last ranking, each held edition of year Y − 1 whose event
    has no held edition of year Y up to T (a new edition replaces it), and which is not
    dropped: it is dropped from every ranking dated strictly after its *anniversary* (the
    same day and month in year Y; 29 February → 28 February) when, on that anniversary,
    the event's year-Y edition was neither held nor announced — i.e. the calendar has no
    held or announced year-Y edition of the event whose `announced_on` is on or before the
    anniversary. So the decision is taken once, at the anniversary: a later announcement
    does not bring the points back (docs/rules.md §5's Orange case: announced before 11 April
    2011, kept until Orange 2011 replaces them; otherwise dropped at Arles 2011).
  - A held or announced edition without `announced_on` counts as announced all along; a
    cancelled edition is never announced.
  - The year's last ranking is the one after which the calendar holds no edition of year Y
    still to come: no held edition later in event order and no announced edition dated on
    or after d. Its window holds year Y's tournaments only.
  - Windows name every held edition, results or not; a held edition without results (before
    the data starts) counts for nothing. The imported ranking is not broken down by
    tournament, so the first rankings of the data count only the tournaments we have.
- **Best 5**: the 5 best totals of the window; among equal totals the earlier tournament (in
  event order) is counted. `total` sums every tournament of the window, `played` counts
  them. A ranking lists every player (club) who played (scored in) a tournament of its
  window, even with 0 points; ties share the best place (docs/rules.md §0), ordered by player id.
- **Movement** = previous place − place (positive: places gained), against the previous
  ranking of the circuit, whatever its year; the first ranking of the data compares with
  the imported ranking that gave the first seeds (clubs: no movement); null for a player
  absent from the previous ranking.
- **Masters invitees**: the players placed 1..16 with points in the year's last ranking,
  all of those tied at the 16th place included; a year whose last ranking is not in the
  data (an edition still announced or held without results) has no invitees yet.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from itertools import chain
from math import lcm

import numpy as np
import polars as pl

from transforms.elo import GAME_SIDE_SCHEMA, both_sides, game_score_expr
from transforms.federations import AliasTable, canonical_expr, known_expr
from transforms.ranking import competition_rank_expr, competition_ranks
from transforms.tables import table

POINTS = table("circuit_points")
CLUB_POINTS = table("circuit_club_points")
RANKINGS = table("circuit_rankings")
CLUB_RANKINGS = table("circuit_club_rankings")
WINDOWS = table("circuit_ranking_windows")
MASTERS = table("circuit_masters_invitees")

HELD, ANNOUNCED, CANCELLED = "held", "announced", "cancelled"
STATUSES = (HELD, ANNOUNCED, CANCELLED)
LIST_SEPARATOR = ";"
# The columns of the circuit calendar export, declared by its table.
CALENDAR_COLUMNS = tuple(table("circuit_calendar").export_schema)


class CircuitError(ValueError):
    """Circuit inputs that cannot be ranked; the message (in French) names what is wrong."""


# --------------------------------------------------------------------------- parameters


@dataclass(frozen=True)
class CircuitParams:
    """Every parameter of docs/rules.md §5 (PACA): sizes and the four points tables."""

    circuit: str
    seeds: int  # 16
    places_scored: int  # 32
    best_results: int  # 5
    club_best_players: int  # 3
    masters_invitees: int  # 16
    duplicate_points: tuple[tuple[Fraction, ...], ...]  # table 1: [place − 1][seeds present]
    win_points: tuple[Fraction, ...]  # table 2: [seed − 1]
    draw_points: tuple[Fraction, ...]  # table 3: [seed − 1]
    final_points: tuple[tuple[Fraction, ...], ...]  # table 4: [place − 1][seeds present]

    def __post_init__(self) -> None:
        for name in ("seeds", "places_scored", "best_results", "club_best_players"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        if self.masters_invitees < 0:
            raise ValueError("masters_invitees must not be negative")
        for name in ("duplicate_points", "final_points"):
            grid = getattr(self, name)
            if len(grid) != self.places_scored or any(len(r) != self.seeds + 1 for r in grid):
                raise ValueError(
                    f"{name} must have {self.places_scored} places × {self.seeds + 1} columns "
                    f"(0..{self.seeds} seeds present)"
                )
        for name in ("win_points", "draw_points"):
            if len(getattr(self, name)) != self.seeds:
                raise ValueError(f"{name} must have one value per seed 1..{self.seeds}")

    @property
    def unit(self) -> int:
        """The least common denominator of the tables' values: points run on 1/unit."""
        values = chain(
            chain.from_iterable(self.duplicate_points),
            self.win_points,
            self.draw_points,
            chain.from_iterable(self.final_points),
        )
        return lcm(*(Fraction(v).denominator for v in values))


@dataclass(frozen=True)
class _Units:
    """The four tables in whole numbers of 1/unit (NumPy Int64)."""

    unit: int
    duplicate: np.ndarray  # [place − 1, seeds present]
    win: np.ndarray  # [seed − 1]
    draw: np.ndarray
    final: np.ndarray


@cache  # the parameters are frozen; every year of a build scores with the same tables
def _units(params: CircuitParams) -> _Units:
    unit = params.unit

    def scaled(values: tuple[Fraction, ...]) -> list[int]:
        return [int(Fraction(v) * unit) for v in values]  # exact: unit divides every value

    def frozen(values: list[int] | list[list[int]]) -> np.ndarray:
        array = np.array(values, dtype=np.int64)
        array.setflags(write=False)  # shared by every call (cached)
        return array

    return _Units(
        unit=unit,
        duplicate=frozen([scaled(r) for r in params.duplicate_points]),
        win=frozen(scaled(params.win_points)),
        draw=frozen(scaled(params.draw_points)),
        final=frozen([scaled(r) for r in params.final_points]),
    )


@dataclass(frozen=True)
class CircuitTables:
    """Everything `circuit_tables` computes, one frame per declared table."""

    points: pl.DataFrame
    club_points: pl.DataFrame
    rankings: pl.DataFrame
    club_rankings: pl.DataFrame
    windows: pl.DataFrame
    masters: pl.DataFrame


# --------------------------------------------------------------------------- inputs


def _norm(expr: pl.Expr) -> pl.Expr:
    return expr.cast(pl.String).str.strip_chars().str.to_lowercase()


def in_circuit(circuit_column: pl.Expr, circuit: str) -> pl.Expr:
    """Whether a `circuit` cell (names joined by `;`) names `circuit` (trimmed, any case)."""
    names = circuit_column.cast(pl.String).str.split(LIST_SEPARATOR)
    return (
        names.list.eval(pl.element().str.strip_chars().str.to_lowercase())
        .list.contains(circuit.strip().lower())
        .fill_null(False)
    )


def _names(circuit_column: pl.Expr | str) -> pl.Expr:
    column = pl.col(circuit_column) if isinstance(circuit_column, str) else circuit_column
    return column.cast(pl.String).str.split(LIST_SEPARATOR)


def circuit_codes_expr(circuit_column: pl.Expr | str, names: AliasTable) -> pl.Expr:
    """A `circuit` cell (names joined by `;`) as the `;`-joined codes of its circuits
    (`data/reference/circuits.csv`): each name through the alias table (`Région PACA` →
    `PACA`), a name not in it kept as written (trimmed); null when the cell names none."""
    joined = (
        _names(circuit_column)
        .list.eval(canonical_expr(pl.element(), names))
        .list.drop_nulls()
        .list.join(LIST_SEPARATOR)
    )
    return pl.when(joined != "").then(joined)


def unknown_circuits_expr(circuit_column: pl.Expr | str, names: AliasTable) -> pl.Expr:
    """The names of a `circuit` cell missing from the alias table, `, `-joined (trimmed, in
    the cell's order); null when every name is known or the cell is empty."""
    unknown = (
        _names(circuit_column)
        .list.eval(
            pl.element().str.strip_chars().filter(~known_expr(pl.element(), names).fill_null(True))
        )
        .list.join(", ")
    )
    return pl.when(unknown != "").then(unknown)


def with_circuit_codes(
    frame: pl.DataFrame, names: AliasTable, column: str = "circuit"
) -> pl.DataFrame:
    """`frame` with its `circuit` column (written names, `;`-joined) as circuit codes."""
    if column not in frame.columns:
        return frame
    return frame.with_columns(circuit_codes_expr(column, names).alias(column))


def _as_date(frame: pl.DataFrame, column: str) -> pl.Expr:
    dtype = frame.schema[column]
    if dtype == pl.String:
        return pl.col(column).str.strip_chars().replace("", None).str.to_date("%Y-%m-%d")
    if isinstance(dtype, pl.Datetime):
        return pl.col(column).dt.date()
    return pl.col(column).cast(pl.Date)


def _blank_to_null(column: str) -> pl.Expr:
    return pl.col(column).cast(pl.String).str.strip_chars().replace("", None)


@dataclass(frozen=True)
class _Edition:
    """One edition of a recurring circuit tournament (a row of the circuit calendar)."""

    event_key: str
    year: int
    status: str
    date: dt.date
    start: dt.date
    announced_on: dt.date | None
    tournament_id: str | None

    @property
    def key(self) -> tuple[dt.date, dt.date, str]:
        """Event order (docs/rules.md §0): end date, start date, tournament id."""
        return (self.date, self.start, self.tournament_id or "")


def _calendar_editions(calendar: pl.DataFrame, circuit: str) -> list[_Edition]:
    """The circuit's editions, one per (event, year), validated, with dates and statuses
    normalised: the rows of one edition merged (`_merged`)."""
    missing = [c for c in CALENDAR_COLUMNS if c not in calendar.columns]
    if missing:
        raise CircuitError(
            f"calendrier des circuits : colonne(s) manquante(s) : {', '.join(missing)}"
        )
    rows = calendar.filter(_norm(pl.col("circuit")) == circuit.strip().lower()).select(
        _blank_to_null("event_key").alias("event_key"),
        pl.col("year").cast(pl.Int64, strict=False).alias("year"),
        _as_date(calendar, "date").alias("date"),
        _as_date(calendar, "announced_on").alias("announced_on"),
        _norm(pl.col("status")).alias("status"),
        _blank_to_null("tournament_id").alias("tournament_id"),
    )
    where = f"calendrier du circuit {circuit}"
    found: dict[tuple[str, int], list[_Edition]] = {}
    for r in rows.iter_rows(named=True):
        label = f"l'édition {r['year']} de {r['event_key']}"
        if r["event_key"] is None or r["year"] is None:
            raise CircuitError(f"{where} : une ligne n'a pas de event_key ou d'année (year)")
        if r["status"] not in STATUSES:
            raise CircuitError(
                f"{where} : {label} a le statut « {r['status']} » ; attendu : {', '.join(STATUSES)}"
            )
        if r["status"] == HELD and r["tournament_id"] is None:
            raise CircuitError(f"{where} : {label} est jouée (held) mais n'a pas de tournament_id")
        if r["date"] is None and r["status"] != CANCELLED:
            raise CircuitError(f"{where} : {label} n'a pas de date")
        found.setdefault((r["event_key"], r["year"]), []).append(
            _Edition(
                event_key=r["event_key"],
                year=r["year"],
                status=r["status"],
                date=r["date"],
                start=r["date"],
                announced_on=r["announced_on"],
                tournament_id=r["tournament_id"],
            )
        )
    editions = [_merged(versions, where) for versions in found.values()]
    ids: set[str] = set()
    for e in editions:
        if e.tournament_id is not None:
            if e.tournament_id in ids:
                raise CircuitError(f"{where} : le tournoi {e.tournament_id} y figure deux fois")
            ids.add(e.tournament_id)
    return editions


def _merged(versions: list[_Edition], where: str) -> _Edition:
    """One edition from its calendar rows: an edition announced in one row may be held or
    cancelled in another. Its status and date are those of its held (else cancelled, else
    announced) row; its announcement date is the earliest `announced_on` of its rows. Two
    rows of one status, or a held and a cancelled row, are an error."""
    first = versions[0]
    label = f"l'édition {first.year} de {first.event_key}"
    by_status: dict[str, _Edition] = {}
    for v in versions:
        if v.status in by_status:
            raise CircuitError(f"{where} : {label} figure deux fois avec le statut {v.status}")
        by_status[v.status] = v
    if HELD in by_status and CANCELLED in by_status:
        raise CircuitError(f"{where} : {label} est à la fois jouée (held) et annulée (cancelled)")
    decisive = by_status.get(HELD) or by_status.get(CANCELLED) or by_status[ANNOUNCED]
    announced = [v.announced_on for v in versions if v.announced_on is not None]
    return replace(decisive, announced_on=min(announced) if announced else None)


def calendar_editions(calendar: pl.DataFrame, circuit: str) -> pl.DataFrame:
    """The circuit's editions as the rankings read them, one row per event and year (an
    edition's rows merged: its held, else cancelled, else announced row, announced on the
    earliest `announced_on`): `event_key, year, date, announced_on, status,
    tournament_id`, by date, event and year."""
    schema = {
        "event_key": pl.String,
        "year": pl.Int64,
        "date": pl.Date,
        "announced_on": pl.Date,
        "status": pl.String,
        "tournament_id": pl.String,
    }
    editions = _calendar_editions(calendar, circuit)
    rows = [
        (e.event_key, e.year, e.date, e.announced_on, e.status, e.tournament_id) for e in editions
    ]
    return pl.DataFrame(rows, schema=schema, orient="row").sort(
        "date", "event_key", "year", nulls_last=True
    )


def _anniversary(date: dt.date, year: int) -> dt.date:
    """The same day and month in `year` (29 February → 28 February)."""
    try:
        return date.replace(year=year)
    except ValueError:
        return dt.date(year, 2, 28)


def _announced_by(edition: _Edition | None, day: dt.date) -> bool:
    """Whether `edition` (held or announced) was announced on or before `day`."""
    if edition is None or edition.status == CANCELLED:
        return False
    return edition.announced_on is None or edition.announced_on <= day


def _tournament_dates(tournaments: pl.DataFrame) -> dict[str, tuple[dt.date, dt.date]]:
    """Each tournament's (end date, start date), from a frame with `tournament_id`,
    `end_date` and optionally `start_date`."""
    start = (
        pl.coalesce(_as_date(tournaments, "start_date"), _as_date(tournaments, "end_date"))
        if "start_date" in tournaments.columns
        else _as_date(tournaments, "end_date")
    )
    frame = tournaments.select(
        pl.col("tournament_id").cast(pl.String),
        _as_date(tournaments, "end_date").alias("end_date"),
        start.alias("start_date"),
    ).unique("tournament_id", keep="first", maintain_order=True)
    undated = frame.filter(pl.col("end_date").is_null())
    if undated.height:
        raise CircuitError(f"tournoi {undated['tournament_id'][0]} : pas de date de fin (end_date)")
    return {t: (e, s) for t, e, s in frame.iter_rows()}


# --------------------------------------------------------------------------- the window


def ranking_windows(
    calendar: pl.DataFrame, tournaments: pl.DataFrame, circuit: str
) -> pl.DataFrame:
    """The window of the ranking published after each tournament (docs/rules.md §5).

    `calendar` is the circuit calendar export (`circuit, event_key, year, date, announced_on,
    status, tournament_id`); `tournaments` the circuit's tournaments that have results
    (`tournament_id, end_date`, optionally `start_date`): one ranking follows each of them.
    Returns a `circuit_ranking_windows` frame, rankings in event order, each one's
    tournaments in event order.
    """
    dates = _tournament_dates(tournaments)
    editions = []
    for e in _calendar_editions(calendar, circuit):
        if e.status == HELD and e.tournament_id in dates:
            end, start = dates[e.tournament_id]
            e = replace(e, date=end, start=start)  # the results date the held edition
        editions.append(e)
    held = {e.tournament_id: e for e in editions if e.status == HELD}
    unknown = sorted(t for t in dates if t not in held)
    if unknown:
        raise CircuitError(
            f"le tournoi {unknown[0]} est rattaché au circuit {circuit} par ses résultats mais "
            f"n'est pas une édition jouée (held) du calendrier du circuit"
        )
    active = [e for e in editions if e.status != CANCELLED]
    by_event_year = {(e.event_key, e.year): e for e in active}
    held_by_year: dict[int, list[_Edition]] = {}
    for e in sorted(held.values(), key=lambda e: e.key):
        held_by_year.setdefault(e.year, []).append(e)

    rows: list[tuple[object, ...]] = []
    for t in sorted((held[tid] for tid in dates), key=lambda e: e.key):
        year, day = t.year, t.date
        last = not any(
            (e.status == HELD and e.key > t.key) or (e.status == ANNOUNCED and e.date >= day)
            for e in active
            if e.year == year and e is not t
        )
        counted = [e for e in held_by_year.get(year, []) if e.key <= t.key]
        if not last:
            for e in held_by_year.get(year - 1, []):
                new = by_event_year.get((e.event_key, year))
                if new is not None and new.status == HELD and new.key <= t.key:
                    continue  # held again: the new edition replaces it
                anniversary = _anniversary(e.date, year)
                if day > anniversary and not _announced_by(new, anniversary):
                    continue  # neither held again nor announced at its anniversary
                counted.append(e)
        counted.sort(key=lambda e: e.key)
        rows.extend(
            (circuit, year, t.tournament_id, day, last, e.tournament_id, e.event_key, e.year)
            for e in counted
        )
    return WINDOWS.check(pl.DataFrame(rows, schema=WINDOWS.schema, orient="row"))


# --------------------------------------------------------------------------- points


def seeds_from_ranking(ranking: pl.DataFrame, params: CircuitParams) -> pl.DataFrame:
    """The seeds a ranking gives (`player_id`, `seed`): places 1..16 with points.

    `ranking` has `player_id`, `place` and a points column, `best5_total` (our rankings) or
    `points` (a `circuit ranking` export; a missing value there counts as points).
    """
    points = "best5_total" if "best5_total" in ranking.columns else "points"
    scored = (
        pl.col(points).is_null() | (pl.col(points) > 0)
        if points in ranking.columns
        else pl.lit(True)
    )
    return (
        ranking.filter(pl.col("place").is_not_null() & (pl.col("place") <= params.seeds) & scored)
        .select(pl.col("player_id").cast(pl.String), pl.col("place").cast(pl.Int64).alias("seed"))
        .unique("player_id", keep="first", maintain_order=True)
        .sort("seed", "player_id")
    )


def _sides_of(games: pl.DataFrame) -> pl.DataFrame:
    """`both_sides` of games whose export may lack the scores (results only): licences as
    text, a missing score column as nulls."""
    for column in ("player_score", "opponent_score"):
        if column not in games.columns:
            games = games.with_columns(pl.lit(None, dtype=pl.Int64).alias(column))
    return both_sides(
        games.with_columns(
            pl.col("player_id").cast(pl.String), pl.col("opponent_id").cast(pl.String)
        )
    )


def _game_sides(games: pl.DataFrame | None, tournament_id: str) -> pl.DataFrame:
    """Each game of the tournament from each player's side, with the result `s` (1/0.5/0)."""
    empty = pl.DataFrame(schema={"player_id": pl.String, "opponent_id": pl.String, "s": pl.Float64})
    if games is None or games.height == 0:
        return empty
    sides = _sides_of(games)
    unknown = sides.filter(
        pl.col("player_result").is_null()
        & (pl.col("player_score").is_null() | pl.col("opponent_score").is_null())
    )
    if unknown.height:
        r = unknown.row(0, named=True)
        raise CircuitError(
            f"tournoi {tournament_id}, ronde {r['round']} : la partie de {r['player_id']} "
            f"contre {r['opponent_id']} n'a ni scores ni résultat (player_result)"
        )
    return sides.select(
        "player_id",
        "opponent_id",
        s=game_score_expr(),
    )


def _place_units(places: np.ndarray, grid: np.ndarray, column: int) -> np.ndarray:
    """Points (in units) of each place (0 = none) in one column of table 1 or 4."""
    scored = (places >= 1) & (places <= grid.shape[0])
    return np.where(scored, grid[np.clip(places, 1, grid.shape[0]) - 1, column], 0)


def _player_columns(results: pl.DataFrame) -> list[pl.Expr]:
    """A tournament's results as the points read them: licence, rank, duplicate rank and
    club (the last two null when the export has no such column; a blank club is null)."""
    return [
        pl.col("player_id").cast(pl.String),
        pl.col("rank").cast(pl.Int64),
        (
            pl.col("duplicate_rank").cast(pl.Int64)
            if "duplicate_rank" in results.columns
            else pl.lit(None, dtype=pl.Int64)
        ).alias("duplicate_rank"),
        (
            _blank_to_null("club") if "club" in results.columns else pl.lit(None, dtype=pl.String)
        ).alias("club"),
    ]


def _tournament_units(
    results: pl.DataFrame,
    games: pl.DataFrame | None,
    seeds: pl.DataFrame,
    units: _Units,
    params: CircuitParams,
    tournament_id: str,
) -> pl.DataFrame:
    """The four components of every player of one tournament, in units (vectorised)."""
    players = results.select(_player_columns(results))
    twice = players.filter(pl.col("player_id").is_duplicated())
    if twice.height:
        raise CircuitError(
            f"tournoi {tournament_id} : le joueur {twice['player_id'][0]} figure plusieurs fois "
            f"dans les résultats"
        )
    unranked = players.filter(pl.col("rank").is_null() | (pl.col("rank") < 1))
    if unranked.height:
        raise CircuitError(
            f"tournoi {tournament_id} : le joueur {unranked['player_id'][0]} n'a pas de place "
            f"(rank) valide"
        )
    players = players.join(seeds, on="player_id", how="left")
    present = int(players["seed"].is_not_null().sum())
    column = min(present, params.seeds)

    sides = _game_sides(games, tournament_id).join(
        seeds.rename({"player_id": "opponent_id", "seed": "opponent_seed"}),
        on="opponent_id",
        how="inner",
    )
    opponent = sides["opponent_seed"].to_numpy() - 1
    s = sides["s"].to_numpy()
    bonus = sides.select("player_id").with_columns(
        win_u=pl.Series(np.where(s == 1.0, units.win[opponent], 0), dtype=pl.Int64),
        draw_u=pl.Series(np.where(s == 0.5, units.draw[opponent], 0), dtype=pl.Int64),
    )
    bonus = bonus.group_by("player_id").agg(pl.col("win_u").sum(), pl.col("draw_u").sum())

    dup = players["duplicate_rank"].fill_null(0).to_numpy()
    final = players["rank"].to_numpy()
    # [001]: only the players placed in the first 32 of the tournament score, in every table
    placed = pl.col("rank") <= params.places_scored
    components = ("dup_u", "win_u", "draw_u", "final_u")
    return (
        players.with_columns(
            seeds_present=pl.lit(present, dtype=pl.Int64),
            dup_u=pl.Series(_place_units(dup, units.duplicate, column), dtype=pl.Int64),
            final_u=pl.Series(_place_units(final, units.final, column), dtype=pl.Int64),
        )
        .join(bonus, on="player_id", how="left")
        .with_columns(pl.col("win_u").fill_null(0), pl.col("draw_u").fill_null(0))
        .with_columns(
            pl.when(placed).then(pl.col(c)).otherwise(pl.lit(0, dtype=pl.Int64)).alias(c)
            for c in components
        )
        .with_columns(
            total_u=pl.col("dup_u") + pl.col("win_u") + pl.col("draw_u") + pl.col("final_u")
        )
        .sort("rank", "player_id")
    )


def _points_frame(units: pl.DataFrame, unit: int, circuit: str) -> pl.DataFrame:
    """Unit rows (`year`, `tournament_id` and the components) as a `circuit_points` frame."""
    return POINTS.check(
        units.select(
            pl.lit(circuit, dtype=pl.String).alias("circuit"),
            pl.col("year").cast(pl.Int64),
            "tournament_id",
            "player_id",
            "seeds_present",
            "seed",
            *(
                (pl.col(u) / unit).alias(name)
                for u, name in (
                    ("dup_u", "duplicate_points"),
                    ("win_u", "win_points"),
                    ("draw_u", "draw_points"),
                    ("final_u", "final_points"),
                    ("total_u", "total"),
                )
            ),
        )
    )


def tournament_points(
    results: pl.DataFrame,
    games: pl.DataFrame | None,
    seeds: pl.DataFrame,
    params: CircuitParams,
    *,
    tournament_id: str,
    year: int,
) -> pl.DataFrame:
    """One tournament's `circuit_points` rows, given its seeds.

    `results` has the tournament's `player_id`, `rank` and (optionally) `duplicate_rank`;
    `games` its games (`round, player_id, opponent_id, player_score, opponent_score`,
    optionally `player_result`); `seeds` has `player_id` and `seed` (see
    `seeds_from_ranking`). Rows by final place, then player id.
    """
    units = _units(params)
    rows = _tournament_units(
        results, games, seeds.select("player_id", "seed"), units, params, tournament_id
    )
    return _points_frame(
        rows.with_columns(tournament_id=pl.lit(tournament_id), year=pl.lit(year)),
        units.unit,
        params.circuit,
    )


# --------------------------------------------------------------------------- rankings


def _club_units(points: pl.DataFrame, best: int) -> pl.DataFrame:
    """Each club's points per tournament: the sum of its `best` best player totals."""
    return (
        points.filter(pl.col("club").is_not_null())
        .sort(["pos", "club", "total_u", "player_id"], descending=[False, False, True, False])
        .with_columns(k=pl.int_range(pl.len()).over("pos", "club"))
        .filter(pl.col("k") < best)
        .group_by("pos", "tournament_id", "year", "club", maintain_order=True)
        .agg(
            pl.col("total_u").sum(),
            pl.col("player_id").str.join(LIST_SEPARATOR).alias("counted_players"),
        )
        .sort(["pos", "total_u", "club"], descending=[False, True, False])
    )


def _standings(points: pl.DataFrame, windows: pl.DataFrame, key: str, best: int) -> pl.DataFrame:
    """Rankings by best-`best` total: `points` (`tournament_id`, key, `total_u`) counted over
    `windows` (`index` of the ranking, `tournament_id`, `pos` = event order)."""
    rows = (
        windows.select("index", "tournament_id", "pos")
        .join(points.select("tournament_id", key, "total_u"), on="tournament_id", how="inner")
        .sort(["index", key, "total_u", "pos"], descending=[False, False, True, False])
        .with_columns(counted=pl.int_range(pl.len()).over("index", key) < best)
    )
    counted = (
        rows.filter(pl.col("counted"))
        .sort("index", key, "pos")
        .group_by("index", key, maintain_order=True)
        .agg(pl.col("tournament_id").str.join(LIST_SEPARATOR).alias("counted_tournaments"))
    )
    return (
        rows.group_by("index", key)
        .agg(
            pl.col("total_u").filter(pl.col("counted")).sum().alias("best_u"),
            pl.col("total_u").sum(),
            pl.len().cast(pl.Int64).alias("played"),
        )
        .join(counted, on=["index", key], how="left")
        .with_columns(place=competition_rank_expr(pl.col("best_u")).over("index"))
        .sort("index", "place", key)
    )


def _with_movement(standings: pl.DataFrame, key: str, initial: pl.DataFrame | None) -> pl.DataFrame:
    """`movement` = place in the previous ranking (index − 1; `initial`, a frame of `key`
    and `place`, before the first) − place; null when absent from it."""
    previous = [
        standings.select(
            (pl.col("index") + 1).cast(pl.Int64).alias("index"),
            key,
            pl.col("place").alias("previous_place"),
        )
    ]
    if initial is not None:
        previous.append(
            initial.select(
                pl.lit(0, dtype=pl.Int64).alias("index"),
                pl.col(key).cast(pl.String),
                pl.col("place").cast(pl.Int64).alias("previous_place"),
            ).unique(key, keep="first", maintain_order=True)
        )
    return standings.join(pl.concat(previous), on=["index", key], how="left").with_columns(
        movement=(pl.col("previous_place") - pl.col("place")).cast(pl.Int64)
    )


def _ranking_frame(
    standings: pl.DataFrame, order: pl.DataFrame, key: str, unit: int, circuit: str
) -> pl.DataFrame:
    """Standings (with `index`) as a `circuit_rankings` / `circuit_club_rankings` frame."""
    target = RANKINGS if key == "player_id" else CLUB_RANKINGS
    return target.check(
        standings.join(order, on="index", how="inner")
        .sort("index", "place", key)
        .select(
            pl.lit(circuit, dtype=pl.String).alias("circuit"),
            pl.col("year").cast(pl.Int64),
            "after_tournament_id",
            "as_of",
            key,
            "place",
            (pl.col("best_u") / unit).alias("best5_total"),
            (pl.col("total_u") / unit).alias("total"),
            "played",
            "counted_tournaments",
            "movement",
        )
    )


def masters_invitees(
    rankings: pl.DataFrame, windows: pl.DataFrame, params: CircuitParams
) -> pl.DataFrame:
    """The players invited to the Masters: places 1..16 with points in each year's last
    ranking (`circuit_rankings` and `circuit_ranking_windows` frames)."""
    last = windows.filter(pl.col("last_of_year")).select("circuit", "after_tournament_id").unique()
    return MASTERS.check(
        rankings.join(last, on=["circuit", "after_tournament_id"], how="semi")
        .filter((pl.col("place") <= params.masters_invitees) & (pl.col("best5_total") > 0))
        .sort("circuit", "year", "as_of", "after_tournament_id", "place", "player_id")
        .select(MASTERS.column_names)
    )


def _published_before(
    published: pl.DataFrame | None, circuit: str, day: dt.date
) -> pl.DataFrame | None:
    """The latest `circuit ranking` rows of the circuit dated strictly before `day`."""
    if published is None or published.height == 0:
        return None
    rows = published.filter(_norm(pl.col("circuit")) == circuit.strip().lower()).with_columns(
        _as_date(published, "as_of").alias("as_of")
    )
    rows = rows.filter(pl.col("as_of") < day)
    if rows.height == 0:
        return None
    latest = rows["as_of"].max()
    return rows.filter(pl.col("as_of") == latest).select(
        pl.col("player_id").cast(pl.String),
        pl.col("place").cast(pl.Int64),
        (
            pl.col("points").cast(pl.Float64)
            if "points" in rows.columns
            else pl.lit(None, dtype=pl.Float64)
        ).alias("points"),
    )


def _empty_tables() -> CircuitTables:
    return CircuitTables(
        points=POINTS.empty(),
        club_points=CLUB_POINTS.empty(),
        rankings=RANKINGS.empty(),
        club_rankings=CLUB_RANKINGS.empty(),
        windows=WINDOWS.empty(),
        masters=MASTERS.empty(),
    )


def _raise_first_invalid(
    players: pl.DataFrame,
    sides: pl.DataFrame,
    flagged: pl.DataFrame,
    games: pl.DataFrame | None,
    order: pl.DataFrame,
    units: _Units,
    params: CircuitParams,
) -> None:
    """Raise the error of the first tournament (in event order) whose results or games
    cannot be scored: its own checks (`_tournament_units`) name what is wrong, as they
    would when the tournaments are scored one by one."""
    bad = set(
        pl.concat(
            [
                players.filter(
                    pl.struct("tournament_id", "player_id").is_duplicated()
                    | pl.col("rank").is_null()
                    | (pl.col("rank") < 1)
                ).select("tournament_id"),
                sides.filter(
                    pl.col("player_result").is_null()
                    & (pl.col("player_score").is_null() | pl.col("opponent_score").is_null())
                ).select("tournament_id"),
            ]
        )["tournament_id"].to_list()
    )
    if not bad:
        return
    no_seeds = pl.DataFrame(schema={"player_id": pl.String, "seed": pl.Int64})
    for tid in order["after_tournament_id"].to_list():
        if tid in bad:
            mine = None if games is None else games.filter(pl.col("tournament_id") == tid)
            results = flagged.filter(pl.col("tournament_id") == tid)
            _tournament_units(results, mine, no_seeds, units, params, tid)


def _scored_units(
    flagged: pl.DataFrame,
    games: pl.DataFrame | None,
    order: pl.DataFrame,
    windows: pl.DataFrame,
    seeds: pl.DataFrame,
    units: _Units,
    params: CircuitParams,
) -> pl.DataFrame:
    """Every circuit tournament's four components in units (`_tournament_units` rows with
    `tournament_id`, `year` and its event order `pos`), by `pos`, final place and player.

    Sequential by nature — a tournament's seeds are the places 1..16 with points of the
    ranking after the previous one (`seeds`: those of the first) — so the tournaments are
    scored in event order, but on NumPy arrays prepared once for all of them: each
    tournament's players and game sides are a slice, a player an integer code, the seeds a
    code-indexed array; each ranking's best-`best_results` totals and places (`windows`:
    `index`, `pos` of the tournaments it counts) are computed on the slices of its window.
    The same numbers as `_tournament_units`, `_standings` and `seeds_from_ranking` one
    tournament at a time."""
    positions = order.select(
        pl.col("after_tournament_id").alias("tournament_id"),
        pl.col("index").alias("pos"),
        pl.col("year").cast(pl.Int64),
    )
    players = flagged.select("tournament_id", *_player_columns(flagged)).join(
        positions, on="tournament_id", how="inner"
    )
    circuit_games: pl.DataFrame | None = None
    sides: pl.DataFrame | None = None
    if games is not None and games.height:
        circuit_games = games.with_columns(pl.col("tournament_id").cast(pl.String)).join(
            positions.select("tournament_id"), on="tournament_id", how="semi"
        )
        sides = _sides_of(circuit_games)
    if sides is None:
        sides = pl.DataFrame(schema=GAME_SIDE_SCHEMA)
    _raise_first_invalid(players, sides, flagged, circuit_games, order, units, params)

    players = players.sort("pos", "rank", "player_id")
    codes = (
        pl.concat(
            [players["player_id"], sides["player_id"], sides["opponent_id"], seeds["player_id"]]
        )
        .drop_nulls()
        .unique()
        .sort()
        .to_frame("player_id")
        .with_row_index("code")
        .with_columns(pl.col("code").cast(pl.Int64))
    )
    players = players.join(codes, on="player_id", how="left", maintain_order="left")
    # each side with the row of its player (a player missing from the results scores
    # nothing) and its opponent's code
    sides = (
        sides.select(
            "tournament_id",
            "player_id",
            "opponent_id",
            s=game_score_expr(),
        )
        .join(
            players.select("tournament_id", "player_id", "pos").with_row_index("row"),
            on=["tournament_id", "player_id"],
            how="inner",
        )
        .join(
            codes.rename({"player_id": "opponent_id", "code": "opponent"}),
            on="opponent_id",
            how="inner",
        )
        .sort("pos", "row")
    )

    count = order.height
    p_pos = players["pos"].to_numpy()
    p_code = players["code"].fill_null(-1).to_numpy()
    final = players["rank"].to_numpy()
    dup = players["duplicate_rank"].fill_null(0).to_numpy()
    placed = final <= params.places_scored
    p_bounds = np.searchsorted(p_pos, np.arange(count + 1))
    s_pos = sides["pos"].to_numpy()
    s_row = sides["row"].to_numpy().astype(np.int64)
    s_opponent = sides["opponent"].to_numpy()
    s_value = sides["s"].to_numpy()
    s_bounds = np.searchsorted(s_pos, np.arange(count + 1))
    window_index = windows["index"].to_numpy()
    window_tours = windows["pos"].to_numpy()
    w_bounds = np.searchsorted(window_index, np.arange(count + 1))

    rows = players.height
    seed_col = np.zeros(rows, dtype=np.int64)
    present_col = np.zeros(rows, dtype=np.int64)
    dup_u = np.zeros(rows, dtype=np.int64)
    final_u = np.zeros(rows, dtype=np.int64)
    win_u = np.zeros(rows, dtype=np.int64)
    draw_u = np.zeros(rows, dtype=np.int64)
    total_u = np.zeros(rows, dtype=np.int64)
    # seed number by player code (0: not a seed); code −1 (no player id) is never a seed
    seed_of = np.zeros(codes.height + 1, dtype=np.int64)
    first = seeds.join(codes, on="player_id", how="inner")
    seed_of[first["code"].to_numpy()] = first["seed"].to_numpy()

    for index in range(count):
        a, b = p_bounds[index], p_bounds[index + 1]
        mine = seed_of[p_code[a:b]]
        seed_col[a:b] = mine
        present = int(np.count_nonzero(mine))
        column = min(present, params.seeds)
        present_col[a:b] = present
        keep = placed[a:b]
        dup_u[a:b] = np.where(keep, _place_units(dup[a:b], units.duplicate, column), 0)
        final_u[a:b] = np.where(keep, _place_units(final[a:b], units.final, column), 0)
        c, d = s_bounds[index], s_bounds[index + 1]
        against = seed_of[s_opponent[c:d]]
        hit = against > 0
        if hit.any():
            seed = against[hit] - 1
            value = s_value[c:d][hit]
            row = s_row[c:d][hit]
            scores = placed[row]
            np.add.at(win_u, row, np.where((value == 1.0) & scores, units.win[seed], 0))
            np.add.at(draw_u, row, np.where((value == 0.5) & scores, units.draw[seed], 0))
        total_u[a:b] = dup_u[a:b] + win_u[a:b] + draw_u[a:b] + final_u[a:b]

        # the ranking after this tournament: its seeds are the next tournament's
        tours = window_tours[w_bounds[index] : w_bounds[index + 1]]
        seed_of[:] = 0
        if tours.size == 0:
            continue
        taken = np.concatenate([np.arange(p_bounds[t], p_bounds[t + 1]) for t in tours])
        who, totals = p_code[taken], total_u[taken]
        by = np.lexsort((-totals, who))
        who, totals = who[by], totals[by]
        starts = np.flatnonzero(np.r_[True, who[1:] != who[:-1]])
        nth = np.arange(who.size) - np.repeat(starts, np.diff(np.r_[starts, who.size]))
        best = np.add.reduceat(np.where(nth < params.best_results, totals, 0), starts)
        place = competition_ranks(best)
        chosen = (place <= params.seeds) & (best > 0) & (who[starts] >= 0)
        seed_of[who[starts][chosen]] = place[chosen]

    return players.drop("code").with_columns(
        seed=pl.when(pl.Series(seed_col) > 0).then(pl.Series(seed_col)),
        seeds_present=pl.Series(present_col),
        dup_u=pl.Series(dup_u),
        final_u=pl.Series(final_u),
        win_u=pl.Series(win_u),
        draw_u=pl.Series(draw_u),
        total_u=pl.Series(total_u),
    )


def circuit_tables(
    results: pl.DataFrame,
    games: pl.DataFrame | None,
    calendar: pl.DataFrame,
    published: pl.DataFrame | None,
    params: CircuitParams,
) -> CircuitTables:
    """The whole circuit, tournament by tournament in event order: points, club points,
    the window, player and club rankings after every tournament, and the Masters invitees.

    - `results`: `tournament_id, player_id, rank, end_date, circuit` and optionally
      `duplicate_rank, club, start_date` (any tournaments: those naming the circuit count);
    - `games`: `tournament_id, round, player_id, opponent_id, player_score,
      opponent_score` and optionally `player_result`;
    - `calendar`: the circuit calendar (`circuit, event_key, year, date, announced_on,
      status, tournament_id`);
    - `published`: the `circuit ranking` export (`circuit, as_of, player_id, place,
      points`), or None.

    Sequential by nature: a tournament's seeds come from the ranking after the previous one.
    """
    circuit = params.circuit
    if "circuit" in results.columns:
        flagged = results.filter(in_circuit(pl.col("circuit"), circuit))
    else:
        flagged = results.clear()
    flagged = flagged.with_columns(pl.col("tournament_id").cast(pl.String))
    editions = _calendar_editions(calendar, circuit)
    flagged_ids = set(flagged["tournament_id"].unique().to_list())
    with_results = set(results["tournament_id"].cast(pl.String).unique().to_list())
    unflagged = sorted(
        e.tournament_id
        for e in editions
        if e.status == HELD
        and e.tournament_id is not None
        and e.tournament_id in with_results - flagged_ids
    )
    if unflagged:
        raise CircuitError(
            f"le calendrier du circuit {circuit} donne le tournoi {unflagged[0]} comme joué, "
            f"mais ses résultats ne le rattachent pas au circuit (colonne circuit)"
        )
    if flagged.height == 0:
        return _empty_tables()

    tournament_cols = [
        c for c in ("tournament_id", "end_date", "start_date") if c in flagged.columns
    ]
    tournaments = flagged.select(tournament_cols).unique("tournament_id", keep="first")
    windows = ranking_windows(calendar, tournaments, circuit)
    order = (
        windows.select("after_tournament_id", "year", "as_of")
        .unique("after_tournament_id", keep="first", maintain_order=True)
        .with_row_index("index")
        .with_columns(pl.col("index").cast(pl.Int64))
    )
    # Each ranking's tournaments that have results, with their event order `pos` (editions
    # without results score nothing, so they never reach the standings).
    window_pos = (
        windows.join(order.select("index", "after_tournament_id"), on="after_tournament_id")
        .join(
            order.select(
                pl.col("index").alias("pos"), pl.col("after_tournament_id").alias("tournament_id")
            ),
            on="tournament_id",
            how="inner",
        )
        .sort("index", "pos")
    )

    units = _units(params)
    first_day = order["as_of"][0]
    initial = _published_before(published, circuit, first_day)
    seeds = (
        seeds_from_ranking(initial, params)
        if initial is not None
        else pl.DataFrame(schema={"player_id": pl.String, "seed": pl.Int64})
    )
    # the tournaments of each ranking already scored when it is published
    scored_pos = window_pos.filter(pl.col("pos") <= pl.col("index"))
    all_units = _scored_units(flagged, games, order, scored_pos, seeds, units, params)
    points = _points_frame(all_units, units.unit, circuit)
    players = _with_movement(
        _standings(all_units, scored_pos, "player_id", params.best_results),
        "player_id",
        initial.select("player_id", "place") if initial is not None else None,
    )
    rankings = _ranking_frame(players, order, "player_id", units.unit, circuit)

    clubs = _club_units(all_units, params.club_best_players)
    club_points = CLUB_POINTS.check(
        clubs.select(
            pl.lit(circuit, dtype=pl.String).alias("circuit"),
            pl.col("year").cast(pl.Int64),
            "tournament_id",
            "club",
            (pl.col("total_u") / units.unit).alias("total"),
            "counted_players",
        )
    )
    club_standings = _with_movement(
        _standings(clubs, window_pos, "club", params.best_results), "club", None
    )
    club_rankings = _ranking_frame(club_standings, order, "club", units.unit, circuit)
    return CircuitTables(
        points=points,
        club_points=club_points,
        rankings=rankings,
        club_rankings=club_rankings,
        windows=windows,
        masters=masters_invitees(rankings, windows, params),
    )


def ranking_inconsistencies(points: pl.DataFrame, rankings: pl.DataFrame) -> pl.DataFrame:
    """Rows of `circuit_rankings` whose best-5 total is not the sum of the totals
    (`circuit_points`) of the tournaments they say they count, or that count more
    tournaments than they played: `circuit, after_tournament_id, player_id, best5_total,
    recomputed, played, counted` (empty when every ranking adds up)."""
    counted = (
        rankings.select(
            "circuit",
            "after_tournament_id",
            "player_id",
            "best5_total",
            "played",
            pl.col("counted_tournaments").str.split(LIST_SEPARATOR).alias("tournament_id"),
        )
        .explode("tournament_id")
        .filter(pl.col("tournament_id").is_not_null() & (pl.col("tournament_id") != ""))
        .join(
            points.select("circuit", "tournament_id", "player_id", "total"),
            on=["circuit", "tournament_id", "player_id"],
            how="left",
        )
        .group_by("circuit", "after_tournament_id", "player_id", maintain_order=True)
        .agg(
            pl.col("best5_total").first(),
            pl.col("total").sum().alias("recomputed"),
            pl.col("played").first(),
            pl.len().cast(pl.Int64).alias("counted"),
        )
    )
    every = rankings.select("circuit", "after_tournament_id", "player_id", "best5_total", "played")
    return (
        every.join(
            counted.drop("best5_total", "played"),
            on=["circuit", "after_tournament_id", "player_id"],
            how="left",
        )
        .with_columns(pl.col("recomputed").fill_null(0.0), pl.col("counted").fill_null(0))
        .filter(
            ((pl.col("recomputed") - pl.col("best5_total")).abs() > 1e-9)
            | (pl.col("counted") > pl.col("played"))
        )
        .sort("circuit", "after_tournament_id", "player_id")
    )
