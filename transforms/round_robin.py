"""Round-robin finals of the regional circuits (docs/rules.md §5b, source [001]): the Masters Grand
Sud and the Grand Est championship (its qualifying ranking and its final).

Pure transforms: Polars frames in, frames out; every number RULES marks as a parameter comes
in through `MastersParams` / `GrandEstParams` (loaded from `data/reference/round_robin.yaml`
and `data/reference/round_robin/` by `pipelines.reference.round_robin`).

Inputs use the export columns: the **matches** export (one row per player per match:
`tournament_id, round, table, player_id, opponent_id, player_moves, opponent_moves`,
optional `player_top_moves`, `player_points_scored`), a final's results with the optional
`withdrawn_after_round`, the Masters' annual ranking (`player_id, place`, one `as_of`) and
the Grand Est qualifying tournaments (`tournament_id, end_date`) with their results
(`tournament_id, player_id, rank`, optional `duplicate_rank`). Outputs are the tables
`round_robin_standings` and `grand_est_qualifying` (`transforms.tables.round_robin`).

Decisions taken here, where docs/rules.md §5b and [001] are silent:

- **Match result**: a match is won by the side with more moves (`player_moves` against
  `opponent_moves`), drawn when they are equal. A match's two rows (a row and its mirror)
  must agree on the table and on both move counts; `matches_errors` reports a match given
  from one side only, a contradiction, a player twice in a round, a pair meeting twice and
  two matches at one table, with French messages naming the row.
- **Seeds**: the participants of a final are numbered 1..16 in the order of the ranking
  that selected them (annual ranking, qualifying ranking), after the absentees are
  replaced: the 17th who replaces an absentee becomes number 16 of the pairing table.
  Players sharing a place are numbered by `player_id` (the only order the data gives); a
  shared place that straddles the last seat is an error (the ranking must settle who is
  invited).
- **Pairing table**: `pairing_errors` reports a played match that the table does not
  schedule in that round or at that table; the standings do not depend on it (a match
  played at the wrong table still counts).
- **Head-to-head**: the mini-table counts the win / draw / loss points of the tied
  players' games with each other only (not their moves). When it separates only some of
  them, the mini-table is computed again among those still level (for two players: their
  match), and only when it separates nobody does the next criterion apply.
- **Tie-break codes** (`tiebreak_used`): the criterion at which the player's place was
  separated from the last player they were level with; null when points alone decide.
  `play_off`: Masters players level for first after head-to-head — they share place 1
  with `play_off_needed` (never broken by the annual place); `ex_aequo`: level on every
  criterion, sharing the place (competition ranking, docs/rules.md §0).
- **Grand Est "points marqués dans les matchs"**: [001] defines them as "le nombre total
  de coups où ils ont marqué", i.e. the moves won (`player_moves`, a shared move counting
  for both); "le plus petit total de points marqués par leurs adversaires" is the moves
  the opponents won against the player (`moves_conceded`). `player_points_scored`, when
  exported, is validated (not negative) but is no criterion. Moves at the top are
  required for a Grand Est final; in duplicate-match a move at the top is a scored move,
  so `player_top_moves` may not exceed `player_moves` there.
- **Withdrawal**: docs/rules.md §5b writes the rule for the Grand Est; [001] is silent for the
  Masters, and the project applies the same rule (with the Masters' own R and D) to both
  finals. A withdrawn player is not ranked (place null, `withdrawn`); their counters are
  those of the games they played. A withdrawal is *late* when at most R rounds are left
  after it (a final of n players has n − 1 rounds) and every player still able to catch
  the leader at that moment has already played the withdrawn player. At that moment,
  "able to catch" counts the points of the games played up to that round (the games
  against other withdrawn players left out), the leader is the best of them, and a player
  can catch them when their points plus a win for each match they still had to play (the
  later matches of the export) reach the leader's points. For a late withdrawal, places
  1..D are decided with that player's games kept (players whose place with the games kept
  is at most D; ties at D all included), and the other players are ranked among
  themselves, after them, with the games annulled. Every other withdrawal annuls the
  player's games for everyone. `annulled_games` lists, per player, the opponents whose
  games do not count for that player's place.
- **Grand Est qualifying**: a qualifying tournament counts for the calendar year of its
  end date. A shared place scores that place's points (docs/rules.md §0); a place beyond the
  table scores 0. `places_histogram` counts the final places 1..32; the duplicate places
  (`duplicate_rank`) break the ties left and are not stored. Players level on points and
  both histograms share the place.
- **Grand Est final's 16**: the first 16 of the qualifying ranking, those who declined
  replaced by the next qualified; then each last-minute absentee replaced by the
  best-ranked player present in the room who was not invited and has a qualifying place
  (a player with no qualifying place cannot be called).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import polars as pl

from transforms.calendar import ordered_events
from transforms.ranking import competition_ranks
from transforms.tables import table

STANDINGS = table("round_robin_standings")
QUALIFYING = table("grand_est_qualifying")

MATCH_COLUMNS = (
    "tournament_id",
    "round",
    "table",
    "player_id",
    "opponent_id",
    "player_moves",
    "opponent_moves",
)
OPTIONAL_MATCH_COLUMNS = ("player_top_moves", "player_points_scored")
WITHDRAWAL_COLUMN = "withdrawn_after_round"
ERROR_SCHEMA = pl.Schema({"row": pl.Int64(), "column": pl.String(), "message": pl.String()})

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

# Entry of a participant in a final's field.
QUALIFIED = "qualified"  # within the first 16 of the ranking
NEXT_QUALIFIED = "next_qualified"  # the 17th, 18th … invited in place of one who declined
SUBSTITUTE = "substitute"  # Grand Est: a non-qualified player present, for a late absentee


class RoundRobinError(ValueError):
    """Data a round-robin final cannot be ranked from; the message (in French) says why."""


@dataclass(frozen=True)
class MatchPoints:
    """Standings points of a match: win 2, draw 1, loss 0 by default."""

    win: int
    draw: int
    loss: int


@dataclass(frozen=True)
class WithdrawalRule:
    """R: at most this many rounds left makes a withdrawal late; D: places decided with
    the late-withdrawn player's games kept."""

    rounds_left: int
    decided_places: int


@dataclass(frozen=True)
class Pairing:
    """One line of a pairing table: at match `match`, table `table`, the players numbered
    `player_a` and `player_b` (positions in the annual ranking) meet."""

    match: int
    table: int
    player_a: int
    player_b: int


@dataclass(frozen=True)
class MastersParams:
    circuit: str  # the circuit code these rules rank (data/reference/circuits.csv)
    players: int
    points: MatchPoints
    pairings: tuple[Pairing, ...]
    withdrawal: WithdrawalRule


@dataclass(frozen=True)
class GrandEstParams:
    circuit: str  # the circuit code these rules rank (data/reference/circuits.csv)
    players: int
    points: MatchPoints
    withdrawal: WithdrawalRule
    qualifying_points: tuple[Fraction, ...]  # points of places 1, 2, … (beyond: 0)
    counted_places: int  # places counted by the tie-break histograms (32)


# --- pairing table -------------------------------------------------------------------


def default_pairings(players: int = 16) -> tuple[Pairing, ...]:
    """The default pairing table of docs/rules.md §5b for an even number of players: in match r,
    players i and j of 1..n−1 meet when i + j ≡ 3 − r (mod n − 1), the one paired with
    themself meets player n, and tables are numbered by the better-ranked player of each
    pair (match 3, table 2: the 2nd meets the 13th for n = 16)."""
    if players < 2 or players % 2:
        raise ValueError(f"a pairing table needs an even number of players, got {players}")
    m = players - 1
    rows: list[Pairing] = []
    for r in range(1, m + 1):
        pairs: list[tuple[int, int]] = []
        for i in range(1, m + 1):
            j = (3 - r - i) % m or m
            if j == i:
                pairs.append((i, players))
            elif i < j:
                pairs.append((i, j))
        pairs.sort()
        rows.extend(Pairing(r, t, a, b) for t, (a, b) in enumerate(pairs, start=1))
    return tuple(rows)


def pairing_problems(pairings: Sequence[Pairing], players: int) -> list[str]:
    """What makes `pairings` other than a single round robin of `players` (French messages;
    empty when it is one): n − 1 matches of n/2 tables, each player once per match, each
    pair once."""
    problems: list[str] = []
    matches = players - 1
    tables = players // 2
    seen_pairs: dict[frozenset[int], int] = {}
    by_match: dict[int, list[Pairing]] = {}
    for p in pairings:
        by_match.setdefault(p.match, []).append(p)
        for seat in (p.player_a, p.player_b):
            if not 1 <= seat <= players:
                problems.append(
                    f"match {p.match}, table {p.table} : le joueur n°{seat} n'existe pas "
                    f"(1 à {players})"
                )
        if p.player_a == p.player_b:
            problems.append(f"match {p.match}, table {p.table} : un joueur contre lui-même")
            continue
        pair = frozenset((p.player_a, p.player_b))
        if pair in seen_pairs:
            problems.append(
                f"match {p.match} : les joueurs n°{min(pair)} et n°{max(pair)} se sont déjà "
                f"rencontrés au match {seen_pairs[pair]}"
            )
        seen_pairs.setdefault(pair, p.match)
    if sorted(by_match) != list(range(1, matches + 1)):
        problems.append(
            f"la table doit compter les matchs 1 à {matches}, elle a "
            f"{', '.join(str(m) for m in sorted(by_match))}"
        )
    for match, rows in sorted(by_match.items()):
        if sorted(p.table for p in rows) != list(range(1, tables + 1)):
            problems.append(f"match {match} : il faut les tables 1 à {tables}, une fois chacune")
        seats = sorted(s for p in rows for s in (p.player_a, p.player_b))
        if seats != list(range(1, players + 1)):
            problems.append(f"match {match} : chaque joueur doit jouer une fois et une seule")
    return problems


def _ordinal(column: str) -> pl.Expr:
    """1 → « 1er », 13 → « 13e »."""
    value = pl.col(column)
    return pl.when(value == 1).then(pl.lit("1er")).otherwise(pl.format("{}e", value))


def pairing_errors(
    matches: pl.DataFrame, field: pl.DataFrame, pairings: Sequence[Pairing]
) -> pl.DataFrame:
    """Rows of a Masters matches export that do not follow the pairing table.

    `field` gives each participant's `seed` (`masters_field`). Returns error rows `row`
    (0-based position in `matches`), `column`, `message` (French), sorted by row."""
    seeds = field.select(pl.col("player_id").cast(pl.String), pl.col("seed").cast(pl.Int64))
    schedule = pl.DataFrame(
        [(p.match, p.table, p.player_a, p.player_b) for p in pairings]
        + [(p.match, p.table, p.player_b, p.player_a) for p in pairings],
        schema={"_m": pl.Int64, "_t": pl.Int64, "_sp": pl.Int64, "_so": pl.Int64},
        orient="row",
    )
    frame = (
        matches.with_row_index("row")
        .with_columns(
            pl.col("row").cast(pl.Int64),
            pl.col("player_id").cast(pl.String),
            pl.col("opponent_id").cast(pl.String),
        )
        .join(seeds.rename({"seed": "_sp"}), on="player_id", how="left")
        .join(
            seeds.rename({"player_id": "opponent_id", "seed": "_so"}), on="opponent_id", how="left"
        )
        .join(
            schedule.rename({"_m": "round", "_t": "_expected_table"}),
            on=["round", "_sp", "_so"],
            how="left",
        )
        .join(schedule.rename({"_t": "_other_table"}), on=["_sp", "_so"], how="left")
    )
    who = pl.format("le {} et le {} du classement annuel", _ordinal("_sp"), _ordinal("_so"))
    errors = [
        frame.filter(pl.col(c).is_not_null() & pl.col(s).is_null()).select(
            "row",
            pl.lit(c).alias("column"),
            pl.format("le joueur {} n'est pas parmi les participants du Masters", pl.col(c)).alias(
                "message"
            ),
        )
        for c, s in (("player_id", "_sp"), ("opponent_id", "_so"))
    ]
    known = frame.filter(pl.col("_sp").is_not_null() & pl.col("_so").is_not_null())
    errors.append(
        known.filter(pl.col("_expected_table").is_null() & pl.col("_m").is_not_null()).select(
            "row",
            pl.lit("opponent_id").alias("column"),
            pl.format(
                "au match {}, {} ne se rencontrent pas : la table des matchs les oppose au "
                "match {}",
                pl.col("round"),
                who,
                pl.col("_m"),
            ).alias("message"),
        )
    )
    errors.append(
        known.filter(
            pl.col("_expected_table").is_not_null() & (pl.col("_expected_table") != pl.col("table"))
        ).select(
            "row",
            pl.lit("table").alias("column"),
            pl.format(
                "au match {}, {} jouent en table {} d'après la table des matchs, pas en table {}",
                pl.col("round"),
                who,
                pl.col("_expected_table"),
                pl.col("table"),
            ).alias("message"),
        )
    )
    return pl.concat(errors).cast(ERROR_SCHEMA).sort("row", "column")


# --- the matches export ----------------------------------------------------------------


def _label(frame: pl.DataFrame) -> pl.Expr:
    """The row number an organiser sees: `_row` when the ingest gives it, else position + 1."""
    return pl.col("_row") if "_row" in frame.columns else pl.col("row") + 1


def matches_errors(matches: pl.DataFrame, *, duplicate_match: bool = False) -> pl.DataFrame:
    """Checks of a typed matches export (any number of tournaments; grouped by `_file` too
    when the ingest gives it): error rows `row` (0-based position in `matches`; null for a
    missing column), `column`, `message` (French, naming the row as `_row` or, without it,
    as position + 1), sorted by row then column. Empty when the export is consistent.

    `duplicate_match`: moves at the top may not exceed the moves scored (Grand Est)."""
    missing = [c for c in MATCH_COLUMNS if c not in matches.columns]
    if missing:
        return pl.DataFrame(
            {
                "row": [None] * len(missing),
                "column": missing,
                "message": [f"colonne obligatoire « {c} » absente des matchs" for c in missing],
            },
            schema=ERROR_SCHEMA,
        )
    scope = ["_file"] if "_file" in matches.columns else []
    frame = matches.with_row_index("row").with_columns(
        pl.col("row").cast(pl.Int64),
        pl.col("player_id").cast(pl.String),
        pl.col("opponent_id").cast(pl.String),
        pl.col("tournament_id").cast(pl.String),
    )
    frame = frame.with_columns(_label=_label(frame))
    errors: list[pl.DataFrame] = []

    def add(sub: pl.DataFrame, mask: pl.Expr, column: str, message: pl.Expr) -> None:
        errors.append(
            sub.with_columns(_mask=mask.fill_null(False), _message=message.cast(pl.String))
            .filter(pl.col("_mask"))
            .select("row", pl.lit(column).alias("column"), pl.col("_message").alias("message"))
        )

    for c in MATCH_COLUMNS:
        add(
            frame,
            pl.col(c).is_null(),
            c,
            pl.format("valeur manquante : « {} » est obligatoire", pl.lit(c)),
        )
    floors = {"round": 1, "table": 1, "player_moves": 0, "opponent_moves": 0}
    floors.update({c: 0 for c in OPTIONAL_MATCH_COLUMNS if c in frame.columns})
    for c, floor in floors.items():
        what = "un numéro (1 ou plus)" if floor else "un nombre de coups (0 ou plus)"
        add(frame, pl.col(c) < floor, c, pl.format("{} n'est pas {}", pl.col(c), pl.lit(what)))
    add(
        frame,
        pl.col("player_id") == pl.col("opponent_id"),
        "opponent_id",
        pl.format("le joueur {} ne peut pas jouer contre lui-même", pl.col("player_id")),
    )
    if duplicate_match and "player_top_moves" in frame.columns:
        add(
            frame,
            pl.col("player_top_moves") > pl.col("player_moves"),
            "player_top_moves",
            pl.format(
                "{} coups au top pour {} coups marqués : en duplicate-match, un coup joué au "
                "top est un coup marqué",
                pl.col("player_top_moves"),
                pl.col("player_moves"),
            ),
        )

    keyed = frame.drop_nulls(["tournament_id", "round", "player_id", "opponent_id"]).filter(
        pl.col("player_id") != pl.col("opponent_id")
    )
    seat = [*scope, "tournament_id", "round", "player_id"]
    first = pl.col("_label").sort_by("row").first()
    add(
        keyed,
        pl.col("row") > pl.col("row").min().over(seat),
        "player_id",
        pl.format(
            "le joueur {} a déjà un match à la ronde {} du tournoi {} (ligne {})",
            pl.col("player_id"),
            pl.col("round"),
            pl.col("tournament_id"),
            first.over(seat),
        ),
    )
    pair = [*scope, "tournament_id", "player_id", "opponent_id"]
    first_round = pl.col("round").sort_by("row").first().over(pair)
    add(
        keyed,
        pl.col("round") != first_round,
        "round",
        pl.format(
            "{} et {} se sont déjà rencontrés à la ronde {} (ligne {}) : un tournoi toutes "
            "rondes ne les oppose qu'une fois",
            pl.col("player_id"),
            pl.col("opponent_id"),
            first_round,
            first.over(pair),
        ),
    )
    at_table = [*scope, "tournament_id", "round", "table"]
    lo = pl.min_horizontal("player_id", "opponent_id")
    hi = pl.max_horizontal("player_id", "opponent_id")
    tabled = keyed.drop_nulls("table").with_columns(_pair=pl.concat_str([lo, hi], separator="–"))
    first_pair = pl.col("_pair").sort_by("row").first().over(at_table)
    add(
        tabled,
        pl.col("_pair") != first_pair,
        "table",
        pl.format(
            "la table {} de la ronde {} accueille déjà le match {} (ligne {})",
            pl.col("table"),
            pl.col("round"),
            first_pair,
            first.over(at_table),
        ),
    )

    mirror_keys = [*scope, "tournament_id", "round", "player_id", "opponent_id"]
    mirrors = (
        keyed.sort("row")
        .unique(mirror_keys, keep="first", maintain_order=True)
        .select(
            *scope,
            "tournament_id",
            "round",
            pl.col("opponent_id").alias("player_id"),
            pl.col("player_id").alias("opponent_id"),
            pl.col("row").alias("_m_row"),
            pl.col("_label").alias("_m_label"),
            pl.col("table").alias("_m_table"),
            pl.col("player_moves").alias("_m_player_moves"),
            pl.col("opponent_moves").alias("_m_opponent_moves"),
        )
    )
    paired = keyed.join(mirrors, on=mirror_keys, how="left")
    add(
        paired,
        pl.col("_m_row").is_null(),
        "opponent_id",
        pl.format(
            "le match de la ronde {} entre {} et {} n'est donné que du côté de {} : il manque "
            "la ligne de {} contre {}",
            pl.col("round"),
            pl.col("player_id"),
            pl.col("opponent_id"),
            pl.col("player_id"),
            pl.col("opponent_id"),
            pl.col("player_id"),
        ),
    )
    later = paired.filter(pl.col("_m_row").is_not_null() & (pl.col("row") > pl.col("_m_row")))
    same_match = pl.format(
        "la ligne {} ({} contre {}, ronde {})",
        pl.col("_m_label"),
        pl.col("opponent_id"),
        pl.col("player_id"),
        pl.col("round"),
    )
    add(
        later,
        pl.col("table") != pl.col("_m_table"),
        "table",
        pl.format(
            "table {} ici, mais table {} pour le même match à {}",
            pl.col("table"),
            pl.col("_m_table"),
            same_match,
        ),
    )
    for column, mirrored, whose in (
        ("player_moves", "_m_opponent_moves", "player_id"),
        ("opponent_moves", "_m_player_moves", "opponent_id"),
    ):
        add(
            later,
            pl.col(column) != pl.col(mirrored),
            column,
            pl.format(
                "{} gagne {} coups ici, mais {} d'après {}",
                pl.col(whose),
                pl.col(column),
                pl.col(mirrored),
                same_match,
            ),
        )
    return pl.concat(errors).cast(ERROR_SCHEMA).sort("row", "column", nulls_last=True)


# --- the participants -------------------------------------------------------------------


def _ranked(ranking: pl.DataFrame, what: str) -> pl.DataFrame:
    if "as_of" in ranking.columns and ranking["as_of"].n_unique() > 1:
        raise RoundRobinError(f"{what} : un seul classement à la fois (plusieurs dates « as_of »)")
    frame = ranking.select(pl.col("player_id").cast(pl.String), pl.col("place").cast(pl.Int64))
    if frame["player_id"].null_count() or frame["place"].null_count():
        raise RoundRobinError(f"{what} : chaque joueur doit avoir une licence et une place")
    doubled = frame.filter(pl.col("player_id").is_duplicated())["player_id"].unique().sort()
    if doubled.len():
        raise RoundRobinError(f"{what} : le joueur {doubled[0]} y figure deux fois")
    return frame.sort("place", "player_id").with_row_index("_position")


def _take(candidates: pl.DataFrame, seats: int, what: str) -> pl.DataFrame:
    """The first `seats` candidates (already in ranking order); a shared place across the
    last seat is an error."""
    if seats <= 0:
        return candidates.head(0)
    if candidates.height < seats:
        raise RoundRobinError(
            f"{what} : {seats} place(s) à pourvoir mais seulement {candidates.height} "
            "joueur(s) disponible(s)"
        )
    if candidates.height > seats and candidates["place"][seats - 1] == candidates["place"][seats]:
        tied = candidates.filter(pl.col("place") == candidates["place"][seats - 1])
        raise RoundRobinError(
            f"{what} : {', '.join(tied['player_id'].to_list())} sont ex aequo à la "
            f"{candidates['place'][seats - 1]}e place pour la dernière place à pourvoir ; le "
            "classement doit les départager"
        )
    return candidates.head(seats)


def _field_frame(chosen: pl.DataFrame, entries: pl.Expr) -> pl.DataFrame:
    return (
        chosen.sort("place", "player_id")
        .with_columns(entry=entries)
        .select(
            "player_id",
            pl.int_range(1, pl.len() + 1, dtype=pl.Int64).alias("seed"),
            "place",
            "entry",
        )
    )


def masters_field(
    ranking: pl.DataFrame, params: MastersParams, *, absent: Collection[str] = ()
) -> pl.DataFrame:
    """The Masters Grand Sud's participants: the first `players` of the annual ranking
    (`player_id, place`, one `as_of`), each absentee replaced by the 17th, 18th, …

    `absent` may list any player who did not come (e.g. every ranked player missing from
    the final's matches). Returns `player_id, seed` (1..16, the pairing table's numbers),
    `place` (annual), `entry` (`qualified`, `next_qualified`), in seed order."""
    what = "Masters Grand Sud, classement annuel"
    ranked = _ranked(ranking, what)
    away = {str(a) for a in absent}
    chosen = _take(ranked.filter(~pl.col("player_id").is_in(list(away))), params.players, what)
    entries = (
        pl.when(pl.col("_position") < params.players)
        .then(pl.lit(QUALIFIED))
        .otherwise(pl.lit(NEXT_QUALIFIED))
    )
    return _field_frame(chosen, entries)


def grand_est_field(
    qualifying: pl.DataFrame,
    params: GrandEstParams,
    *,
    declined: Collection[str] = (),
    absent: Collection[str] = (),
    present: Collection[str] = (),
) -> pl.DataFrame:
    """The Grand Est final's 16 from the qualifying ranking (`grand_est_qualifying` of one
    year, or any `player_id, place`): the first 16, those who `declined` replaced by the
    next qualified; then each last-minute `absent` invited player replaced by the
    best-ranked player `present` in the room who was not invited.

    Returns `player_id, seed, place` (qualifying), `entry` (`qualified`, `next_qualified`,
    `substitute`), in seed order."""
    what = "finale du Grand Est, classement qualificatif"
    ranked = _ranked(qualifying.select("player_id", "place"), what)
    out = {str(p) for p in declined}
    invited = _take(ranked.filter(~pl.col("player_id").is_in(list(out))), params.players, what)
    gone = sorted({str(a) for a in absent})
    stray = [a for a in gone if a not in set(invited["player_id"].to_list())]
    if stray:
        raise RoundRobinError(
            f"{what} : {', '.join(stray)} déclaré(s) absent(s) sans avoir été invité(s)"
        )
    in_room = {str(p) for p in present}
    callable_ = ranked.filter(
        pl.col("player_id").is_in(sorted(in_room))
        & ~pl.col("player_id").is_in(invited["player_id"].to_list())
        & ~pl.col("player_id").is_in(sorted(out))
    )
    called = _take(callable_, len(gone), f"{what}, remplaçants présents dans la salle")
    chosen = pl.concat(
        [
            invited.filter(~pl.col("player_id").is_in(gone)).with_columns(_sub=pl.lit(False)),
            called.with_columns(_sub=pl.lit(True)),
        ]
    )
    entries = (
        pl.when(pl.col("_sub"))
        .then(pl.lit(SUBSTITUTE))
        .when(pl.col("_position") < params.players)
        .then(pl.lit(QUALIFIED))
        .otherwise(pl.lit(NEXT_QUALIFIED))
    )
    return _field_frame(chosen, entries)


# --- Grand Est qualifying ranking ------------------------------------------------------


def championship_year(final_start: dt.date, qualifier_ends: Iterable[dt.date]) -> int:
    """The championship a Grand Est final closes, whose qualifying ranking selects its 16:
    the year of the final when one of that year's qualifiers ended before the final's first
    day; else the year before when it had qualifiers (a final « à une date à déterminer »
    held early the next year, [001]); else the final's year."""
    ends = list(qualifier_ends)
    year = final_start.year
    if any(d.year == year and d < final_start for d in ends):
        return year
    if any(d.year == year - 1 for d in ends):
        return year - 1
    return year


def grand_est_qualifying(
    tournaments: pl.DataFrame, results: pl.DataFrame, params: GrandEstParams
) -> pl.DataFrame:
    """The Grand Est qualifying ranking of every calendar year: `tournaments` are the
    qualifying tournaments (`tournament_id, end_date`; the final excluded), `results` their
    places (`tournament_id, player_id, rank`, optional `duplicate_rank`).

    Every tournament scores the same table by place; all points are kept; ties are broken
    by the counts of 1st, 2nd, … 32nd places, then of duplicate places."""
    places = params.counted_places
    scale = math.lcm(*(p.denominator for p in params.qualifying_points)) or 1
    scaled = {i + 1: int(p * scale) for i, p in enumerate(params.qualifying_points)}
    dup = (
        pl.col("duplicate_rank").cast(pl.Int64)
        if "duplicate_rank" in results.columns
        else pl.lit(None, dtype=pl.Int64)
    )
    rows = results.select(
        pl.col("tournament_id").cast(pl.String),
        pl.col("player_id").cast(pl.String),
        pl.col("rank").cast(pl.Int64),
        dup.alias("duplicate_rank"),
    ).join(
        tournaments.select(
            pl.col("tournament_id").cast(pl.String),
            pl.col("end_date").dt.year().cast(pl.Int64).alias("year"),
        ),
        on="tournament_id",
        how="inner",
    )
    if rows.height == 0:
        return QUALIFYING.empty()
    twice = rows.filter(pl.struct("tournament_id", "player_id").is_duplicated())
    if twice.height:
        r = twice.sort("tournament_id", "player_id").row(0, named=True)
        raise RoundRobinError(
            f"Grand Est : le joueur {r['player_id']} a deux places au tournoi {r['tournament_id']}"
        )
    unplaced = rows.filter(pl.col("rank").is_null() | (pl.col("rank") < 1))
    if unplaced.height:
        r = unplaced.sort("tournament_id", "player_id").row(0, named=True)
        raise RoundRobinError(
            f"Grand Est : le joueur {r['player_id']} n'a pas de place au tournoi "
            f"{r['tournament_id']}"
        )
    hist = [f"_h{k}" for k in range(1, places + 1)]
    dups = [f"_d{k}" for k in range(1, places + 1)]
    totals = (
        rows.with_columns(
            _points=pl.col("rank").replace_strict(scaled, default=0, return_dtype=pl.Int64)
        )
        .group_by("year", "player_id")
        .agg(
            pl.col("_points").sum(),
            pl.col("tournament_id").n_unique().cast(pl.Int64).alias("tournaments"),
            *((pl.col("rank") == k).sum().cast(pl.Int64).alias(h) for k, h in enumerate(hist, 1)),
            *(
                (pl.col("duplicate_rank") == k).sum().cast(pl.Int64).alias(d)
                for k, d in enumerate(dups, 1)
            ),
        )
        .sort("year", "player_id")
    )
    frames = []
    for block in totals.partition_by("year", maintain_order=True):
        keys = [block[c].to_numpy() for c in ("_points", *hist, *dups)]
        frames.append(block.with_columns(place=pl.Series(competition_ranks(*keys), dtype=pl.Int64)))
    out = (
        pl.concat(frames)
        .select(
            "year",
            "player_id",
            "place",
            (pl.col("_points") / scale).cast(pl.Float64).alias("points"),
            "tournaments",
            pl.concat_list(hist).alias("places_histogram"),
        )
        .sort("year", "place", "player_id")
    )
    return QUALIFYING.check(out)


# --- standings of a final -------------------------------------------------------------


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


# --- a calendar year of finals ----------------------------------------------------------

PAIRING_ISSUES_SCHEMA = pl.Schema(
    {
        "tournament_id": pl.String(),
        "round": pl.Int64(),
        "table": pl.Int64(),
        "player_id": pl.String(),
        "opponent_id": pl.String(),
        "column": pl.String(),
        "message": pl.String(),
    }
)


@dataclass(frozen=True)
class RoundRobinTables:
    """A calendar year of round-robin finals: the standings of its finals, the Grand Est
    qualifying ranking of the year, and the Masters matches that do not follow the pairing
    table (`PAIRING_ISSUES_SCHEMA`; they still count)."""

    standings: pl.DataFrame
    qualifying: pl.DataFrame
    pairing_issues: pl.DataFrame


def _codes(column: str) -> pl.Expr:
    return pl.col(column).cast(pl.String).str.split(";").fill_null(pl.lit([], pl.List(pl.String)))


def is_final_expr(
    masters: MastersParams, grand_est: GrandEstParams, categories: Collection[str]
) -> pl.Expr:
    """Whether a tournament (`circuit` as `;`-joined circuit codes, `category`) is a
    round-robin final: it names the Masters Grand Sud or the Grand Est and its category is
    a final's (`round_robin.yaml` `final_categories`, compared in lower case)."""
    codes = _codes("circuit")
    named = codes.list.contains(masters.circuit) | codes.list.contains(grand_est.circuit)
    category = pl.col("category").cast(pl.String).str.strip_chars().str.to_lowercase()
    return (named & category.is_in(list(categories))).fill_null(False)


def round_robin_tables(
    tournaments: pl.DataFrame,
    results: pl.DataFrame,
    matches: pl.DataFrame,
    published: pl.DataFrame,
    masters: MastersParams,
    grand_est: GrandEstParams,
    categories: Collection[str],
    year: int,
) -> RoundRobinTables:
    """The round-robin finals of calendar year `year` and its Grand Est qualifying ranking.

    - `tournaments`: `tournament_id, end_date, start_date, category, circuit` (the circuit
      codes, `;`-joined) of the finals of `year` and of the Grand Est tournaments of
      `year − 1` and `year` at least;
    - `results`: their `tournament_id, player_id, rank`, optional `duplicate_rank`,
      `withdrawn_after_round`;
    - `matches`: the `matches` export of the finals of `year`;
    - `published`: the `circuit ranking` export (`circuit` as codes, `as_of, player_id,
      place`): a Masters' participants come from the latest ranking of its circuit dated on
      or before its first day (`masters_field`, the ranked players missing from its results
      being absent);
    - a Grand Est final's from the qualifying ranking of its championship
      (`championship_year`; `grand_est_field`, the qualified players missing from its
      results having declined).

    A final without matches is not ranked (its matches are not exported yet). The final's
    year is the year of its end date; the qualifiers are the Grand Est tournaments that are
    not finals, counted in the year of their end date.
    """
    final = is_final_expr(masters, grand_est, categories)
    dated = tournaments.with_columns(
        pl.col("tournament_id").cast(pl.String), _final=final, _codes=_codes("circuit")
    )
    qualifiers = dated.filter(~pl.col("_final") & pl.col("_codes").list.contains(grand_est.circuit))
    qualifying_all = grand_est_qualifying(qualifiers, results, grand_est)
    ends = qualifiers["end_date"].drop_nulls().to_list()
    finals = ordered_events(dated.filter(pl.col("_final") & (pl.col("end_date").dt.year() == year)))
    standings: list[pl.DataFrame] = []
    issues: list[pl.DataFrame] = []
    for row in finals.iter_rows(named=True):
        tid = row["tournament_id"]
        played = matches.filter(pl.col("tournament_id").cast(pl.String) == tid)
        if played.height == 0:
            continue
        entrants = results.filter(pl.col("tournament_id").cast(pl.String) == tid)
        present = set(entrants["player_id"].cast(pl.String).to_list())
        start = row["start_date"] or row["end_date"]
        if grand_est.circuit in row["_codes"]:
            season = championship_year(start, ends)
            ranking = qualifying_all.filter(pl.col("year") == season)
            field = grand_est_field(
                ranking,
                grand_est,
                declined=[p for p in ranking["player_id"].to_list() if p not in present],
            )
            standings.append(
                grand_est_final_standings(played, field, grand_est, entrants, year=year)
            )
            continue
        annual = _latest_ranking(published, masters.circuit, start, tid)
        field = masters_field(
            annual,
            masters,
            absent=[p for p in annual["player_id"].to_list() if p not in present],
        )
        standings.append(masters_standings(played, field, masters, entrants, year=year))
        issues.append(_pairing_issues(played, field, masters.pairings))
    out_standings = pl.concat(standings) if standings else STANDINGS.empty()
    return RoundRobinTables(
        standings=STANDINGS.check(out_standings),
        qualifying=QUALIFYING.check(qualifying_all.filter(pl.col("year") == year)),
        pairing_issues=(
            pl.concat(issues) if issues else pl.DataFrame(schema=PAIRING_ISSUES_SCHEMA)
        ),
    )


def _latest_ranking(
    published: pl.DataFrame, circuit: str, day: dt.date, tournament_id: str
) -> pl.DataFrame:
    rows = published.filter(
        (pl.col("circuit").cast(pl.String) == circuit) & (pl.col("as_of") <= day)
    )
    if rows.height == 0:
        raise RoundRobinError(
            f"tournoi {tournament_id} : aucun classement annuel du circuit {circuit} daté au "
            f"plus tard du {day}"
        )
    latest = rows["as_of"].max()
    return rows.filter(pl.col("as_of") == latest).select("player_id", "place", "as_of")


def _pairing_issues(
    matches: pl.DataFrame, field: pl.DataFrame, pairings: Sequence[Pairing]
) -> pl.DataFrame:
    """The matches of one Masters that do not follow the pairing table, once per match."""
    errors = pairing_errors(matches, field, pairings)
    located = matches.with_row_index("row").with_columns(pl.col("row").cast(pl.Int64))
    return (
        errors.join(located, on="row", how="inner")
        .filter(pl.col("player_id").cast(pl.String) < pl.col("opponent_id").cast(pl.String))
        .select(
            pl.col("tournament_id").cast(pl.String),
            pl.col("round").cast(pl.Int64),
            pl.col("table").cast(pl.Int64),
            pl.col("player_id").cast(pl.String),
            pl.col("opponent_id").cast(pl.String),
            "column",
            "message",
        )
        .sort("round", "table", "player_id")
    )
