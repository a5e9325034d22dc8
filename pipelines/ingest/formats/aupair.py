"""AUPAIR `.tou` files: the results of classic (one-to-one) events, as WESPA archives them.

Layout::

    *M06.11.2006 6th Trans-Tasman Challenge          <- *M (or *N: no real scores), date, name
    *MASTERS                                         <- a division
                                          0          <- optional lone number
    Alistair Kane       SONDELIS        154          <- optional high word: name, word, score
    Alistair Kane        2476   7  414 +12 ...       <- a player: name, then per round
    ...                                                 `score opponent`
    *** END OF FILE ***

A score of 2000 + s is a win with s points (written `2-10` when s is negative), 1000 + s a
draw, a plain s a loss. The opponent is the 1-based row of the division, `+` when the
player went first; a player paired with themself or with 0 had a bye. The published WESPA
results count a bye as nothing, whatever its score code (`2001`, `1350`, `0000`, `2` all
occur): no win, no spread; so do we. The games frame keeps the bye as the file writes it.

Each division becomes one classique tournament, `tournament_id` = file stem (+ `-` and the
division name when the file has several), ranked by wins then spread (ties share the best
place; wins only in `*N` events, whose scores are placeholders and are left null).
WESPA has no licence numbers: `player_id` is `WESPA:` + the name in upper case, accents
stripped, single spaces (`WESPA:ALISTAIR KANE`). The first word of the name is the first
name, the rest the last name (`Last, First` when the name has a comma).

The games frame has one row per game, from the side of the player of the lower row
(`_row` is that player's line), plus two extra string columns: `first_player_id` (who
went first, when the file says so) and `player_result` (`1`, `0.5`, `0` for the player,
from their own score code: the only result information of a `*N` event). Each row's own
code decides its wins, as in the published results, even in the rare game whose two rows
disagree (2008/BHR/GST815L round 14: both rows record a loss).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import PurePath

import polars as pl

from pipelines.ingest.errors import ExportError, of, quantity
from pipelines.ingest.formats import (
    ENGLISH_LANGUAGE_CATEGORY,
    decode_text,
    number_text,
    player_key,
    split_lines,
    split_name,
    string_frame,
)
from pipelines.ingest.schema import GAMES, RATING_LIST, RESULTS
from transforms.ranking import competition_ranks

END_LINE = "*** END OF FILE ***"
ID_PREFIX = "WESPA:"

_HEADER = re.compile(r"^\*([MN])(\d{1,2})\.(\d{1,2})\.(\d{4})\s*(.*?)\s*$")
_SCORE = re.compile(r"^(?:([12])(-\d+)|(-?\d+))$")
_OPPONENT = re.compile(r"^(\+?)(\d+)$")
_LONE_NUMBER = re.compile(r"^\s*-?\d+\s*$")
_HIGH_WORD = re.compile(r"^\s*(\S.*?)\s+([^\s\d+-]\S*)\s+(\d+)\s*$")
_NOT_A_SCORE = (
    "n'est pas un score (2000 + le score pour une victoire, 1000 + le score pour un nul, "
    "le score seul pour une défaite)"
)


@dataclass(frozen=True)
class Round:
    """One round of one player, as the row says."""

    result: float  # 1, 0.5 or 0 for this player
    score: int
    opponent: int  # 1-based row in the division; 0 or the player's own row for a bye
    first: bool


@dataclass
class Player:
    """One player row."""

    name: str
    line: int
    rounds: list[Round] = field(default_factory=list)


@dataclass
class Division:
    """One `*<division>` block."""

    name: str
    line: int
    players: list[Player] = field(default_factory=list)


@dataclass
class Event:
    """A whole `.tou` file."""

    name: str
    date: str  # ISO
    has_scores: bool
    divisions: list[Division]


def detect(data: bytes, name: str) -> bool:
    """A `.tou` file, or text starting with `*M`/`*N` and a dd.mm.yyyy date."""
    if PurePath(name).suffix.lower() == ".tou":
        return True
    head = data[:64].lstrip(b"\xef\xbb\xbf")
    return re.match(rb"\*[MN]\d{1,2}\.\d{1,2}\.\d{4}", head) is not None


def parse(data: bytes, name: str) -> dict[str, pl.DataFrame]:
    """Results, games and (empty) rating-list frames of a `.tou` file."""
    event = read_event(data, name)
    stem = PurePath(name).stem
    several = len(event.divisions) > 1
    results: list[dict[str, str | None]] = []
    result_lines: list[int] = []
    games: list[dict[str, str | None]] = []
    game_lines: list[int] = []
    for division in event.divisions:
        tournament_id = f"{stem}-{division.name}" if several else stem
        title = f"{event.name} – Division {division.name}" if several else event.name
        ids = [ID_PREFIX + player_key(p.name) for p in division.players]
        rows, lines = _division_results(event, division, ids)
        for row in rows:
            row.update(tournament_id=tournament_id, tournament_name=title)
        results.extend(rows)
        result_lines.extend(lines)
        rows, lines = _division_games(event, division, ids)
        for row in rows:
            row["tournament_id"] = tournament_id
        games.extend(rows)
        game_lines.extend(lines)
    return {
        "results": string_frame(results, RESULTS.columns, result_lines),
        "games": string_frame(games, GAMES.columns, game_lines),
        "rating_list": string_frame([], RATING_LIST.columns, []),
    }


def read_event(data: bytes, name: str) -> Event:
    """The checked content of a `.tou` file; `ExportError` when it is malformed."""
    lines = split_lines(decode_text(data, name))
    if not lines or not lines[0].strip():
        raise ExportError(name, "le fichier est vide", row=1)
    head = _HEADER.match(lines[0].lstrip("\ufeff"))
    if head is None:
        raise ExportError(
            name,
            "la première ligne doit contenir « *M » (ou « *N » si aucun score n'a été "
            "noté), la date au format jj.mm.aaaa et le nom du tournoi, par exemple "
            f"« *M06.11.2006 Trans-Tasman Challenge » ; trouvé : « {lines[0].strip()} »",
            row=1,
        )
    kind, day, month, year, title = head.groups()
    date = _iso_date(int(year), int(month), int(day), name)
    end = _end_line(lines, name)
    divisions: list[Division] = []
    for number, line in enumerate(lines[1:end], start=2):
        if not line.strip():
            continue
        if line.startswith("*"):
            label = line[1:].strip()
            if not label:
                raise ExportError(
                    name, "une ligne de division doit porter un nom après « * »", row=number
                )
            divisions.append(Division(label, number))
            continue
        if not divisions:
            raise ExportError(
                name,
                "une ligne de joueur arrive avant toute ligne de division (une ligne comme « *A »)",
                row=number,
            )
        division = divisions[-1]
        if not division.players and (_LONE_NUMBER.match(line) or _HIGH_WORD.match(line)):
            continue  # optional lone number / high-word line of the division
        division.players.append(_player(line, number, name))
    if not divisions:
        raise ExportError(
            name, "le fichier n'a aucune division (une ligne comme « *A »)", row=end + 1
        )
    for division in divisions:
        _check_division(division, name)
    return Event(title, date, kind == "M", divisions)


def _iso_date(year: int, month: int, day: int, name: str) -> str:
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        raise ExportError(
            name,
            f"la date {day:02d}.{month:02d}.{year} de la première ligne n'existe pas",
            row=1,
        ) from None


def _end_line(lines: list[str], name: str) -> int:
    """Index of the `*** END OF FILE ***` line; anything after it must be blank."""
    for index, line in enumerate(lines):
        if line.strip() == END_LINE:
            for after, rest in enumerate(lines[index + 1 :], start=index + 2):
                if rest.strip():
                    raise ExportError(
                        name,
                        f"du texte après la ligne « {END_LINE} » : « {rest.strip()} » "
                        "(supprimez-le)",
                        row=after,
                    )
            return index
    raise ExportError(
        name,
        f"le fichier s'arrête sans la ligne « {END_LINE} » : il est incomplet (coupé "
        "lors d'une copie ou d'un enregistrement ?) ; exportez-le de nouveau depuis AUPAIR",
        row=len(lines),
    )


def _player(line: str, number: int, name: str) -> Player:
    tokens = line.split()
    start = next((i for i, t in enumerate(tokens) if _SCORE.match(t)), len(tokens))
    if start == 0:
        raise ExportError(
            name, "une ligne de joueur doit commencer par le nom du joueur", row=number
        )
    player = Player(" ".join(tokens[:start]), number)
    values = tokens[start:]
    if len(values) % 2:
        raise ExportError(
            name,
            f"la ligne {of(player.name)} se termine par un score sans adversaire : chaque "
            "ronde demande un score et un numéro d'adversaire",
            row=number,
            column=f"ronde {len(values) // 2 + 1}",
        )
    for index in range(0, len(values), 2):
        round_number = index // 2 + 1
        score_text, opponent_text = values[index], values[index + 1]
        score = _SCORE.match(score_text)
        if score is None:
            raise ExportError(
                name,
                f"« {score_text} » {_NOT_A_SCORE}",
                row=number,
                column=f"ronde {round_number}",
            )
        opponent = _OPPONENT.match(opponent_text)
        if opponent is None:
            raise ExportError(
                name,
                f"« {opponent_text} » n'est pas un numéro d'adversaire (la ligne de "
                "l'adversaire dans la division, précédée de « + » si le joueur a joué en "
                "premier)",
                row=number,
                column=f"ronde {round_number}",
            )
        if score.group(1):
            result = 1.0 if score.group(1) == "2" else 0.5
            points = int(score.group(2))
        else:
            value = int(score.group(3))
            if value >= 3000:
                raise ExportError(
                    name,
                    f"« {score_text} » {_NOT_A_SCORE}",
                    row=number,
                    column=f"ronde {round_number}",
                )
            result = 1.0 if value >= 2000 else 0.5 if value >= 1000 else 0.0
            points = value - 2000 if value >= 2000 else value - 1000 if value >= 1000 else value
        player.rounds.append(
            Round(result, points, int(opponent.group(2)), opponent.group(1) == "+")
        )
    return player


def _check_division(division: Division, name: str) -> None:
    """Opponents exist and the two rows of each game agree."""
    size = len(division.players)
    if not size:
        raise ExportError(name, f"la division {division.name} n'a aucun joueur", row=division.line)
    seen: dict[str, Player] = {}
    for player in division.players:
        key = player_key(player.name)
        if key in seen:
            raise ExportError(
                name,
                f"deux joueurs s'appellent {player.name} dans la division {division.name} "
                f"(lignes {seen[key].line} et {player.line}) : impossible de les distinguer",
                row=player.line,
            )
        seen[key] = player
    rounds = max(len(p.rounds) for p in division.players)
    for player in division.players:
        if len(player.rounds) != rounds:
            raise ExportError(
                name,
                f"la ligne {of(player.name)} a {quantity(len(player.rounds), 'ronde')} mais "
                f"la division {division.name} en a {rounds} : il manque une ronde dans la "
                "ligne",
                row=player.line,
            )
    for row, player in enumerate(division.players, start=1):
        for number, game in enumerate(player.rounds, start=1):
            where = f"ronde {number}"
            if game.opponent > size:
                raise ExportError(
                    name,
                    f"l'adversaire {game.opponent} {of(player.name)} n'existe pas : la "
                    f"division {division.name} a {quantity(size, 'joueur')} (les "
                    f"adversaires sont numérotés par leur ligne dans la division, de 1 à "
                    f"{size})",
                    row=player.line,
                    column=where,
                )
            if game.opponent in (0, row):
                continue
            other = division.players[game.opponent - 1]
            if number > len(other.rounds) or other.rounds[number - 1].opponent != row:
                found = (
                    f"indique l'adversaire {other.rounds[number - 1].opponent} à cette ronde"
                    if number <= len(other.rounds)
                    else "n'a pas cette ronde"
                )
                raise ExportError(
                    name,
                    f"{player.name} (joueur n° {row}) rencontre {other.name} (joueur "
                    f"n° {game.opponent}) à la ronde {number}, mais la ligne {of(other.name)} "
                    f"{found}",
                    row=player.line,
                    column=where,
                )


def _is_bye(game: Round, row: int) -> bool:
    return game.opponent in (0, row)


def _division_results(
    event: Event, division: Division, ids: list[str]
) -> tuple[list[dict[str, str | None]], list[int]]:
    wins: list[float] = []
    spreads: list[int] = []
    for row, player in enumerate(division.players, start=1):
        wins.append(sum(g.result for g in player.rounds if not _is_bye(g, row)))
        spread = 0
        for number, game in enumerate(player.rounds, start=1):
            if not _is_bye(game, row):
                other = division.players[game.opponent - 1].rounds[number - 1]
                spread += game.score - other.score
        spreads.append(spread)
    ranks = competition_ranks(wins, spreads) if event.has_scores else competition_ranks(wins)
    rounds = max(len(p.rounds) for p in division.players)
    rows: list[dict[str, str | None]] = []
    for index, player in enumerate(division.players):
        first, last = split_name(player.name)
        rows.append(
            {
                "discipline": "classique",
                "category": ENGLISH_LANGUAGE_CATEGORY,
                "end_date": event.date,
                "player_id": ids[index],
                "last_name": last,
                "first_name": first,
                "rank": str(ranks[index]),
                "games": str(rounds),
                "wins": number_text(wins[index]),
                "spread": str(spreads[index]) if event.has_scores else None,
            }
        )
    return rows, [p.line for p in division.players]


def _division_games(
    event: Event, division: Division, ids: list[str]
) -> tuple[list[dict[str, str | None]], list[int]]:
    rows: list[dict[str, str | None]] = []
    lines: list[int] = []
    for row, player in enumerate(division.players, start=1):
        for number, game in enumerate(player.rounds, start=1):
            bye = _is_bye(game, row)
            if not bye and game.opponent < row:
                continue  # written from the lower row's side
            other = None if bye else division.players[game.opponent - 1].rounds[number - 1]
            first: str | None = None
            if bye:
                pass
            elif game.first:
                first = ids[row - 1]
            elif other is not None and other.first:
                first = ids[game.opponent - 1]
            rows.append(
                {
                    "round": str(number),
                    "player_id": ids[row - 1],
                    "opponent_id": None if bye else ids[game.opponent - 1],
                    "player_score": str(game.score) if event.has_scores else None,
                    "opponent_score": (
                        str(other.score) if event.has_scores and other is not None else None
                    ),
                    "first_player_id": first,
                    "player_result": number_text(game.result),
                }
            )
            lines.append(player.line)
    return rows, lines
