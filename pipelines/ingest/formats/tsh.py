"""Tournament Shell (TSH) `.t` division files, with the event's `config.tsh`.

One line per player, the player's id being the position of the line among the player
lines (blank lines and `#` comments do not count)::

    # division A
    Dupont, Jean         1650 2 3 0; 412 388 50; p12 1 2 0
    Martin, Élise        1580 1 0 3; 371 50 402; p12 2 0 1

that is the name (`Last, First`, or `First Last`), the rating (0 when unrated), the
opponent ids round by round (0 = bye), `;`, the player's scores round by round, and
optional `;`-separated tags (`p12`: 1 went first, 2 went second, 0 bye, 3 undecided; the
others are kept out). Files are ISO-8859-1 unless they are valid UTF-8.

Each `.t` file is one division, i.e. one classique tournament. The event name and date
come from the sibling `config.tsh` (`config event_name = '...'`, `config event_date =
'...'`, dates as `2024-03-17`, `March 16-17, 2024` or `16-17 mars 2024`: the last day is
the end date), which `parse_tsh` takes as its `config` argument; the `division <name>
<file>` lines of the config name the division. `tournament_id` is the name of the folder
holding the file, + `-` + the division name unless the config lists a single division.

As in TSH's standings, a game is won by the higher score, drawn on equal scores; a bye
counts by its score (positive: a win worth that spread, zero: a draw, negative: a
forfeit loss). Ranked by wins then spread, ties sharing the best place. `player_id` is
`TSH:` + the name as `FIRST LAST` in upper case without accents. The TSH rating is the
seeding rating of another federation: it is not returned (`rating_list` is empty).

Games: one row per game from the lower id's side, byes with a null opponent, and the
extra columns `first_player_id` (from `p12`) and `player_result` (`1`, `0.5`, `0`).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
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

ID_PREFIX = "TSH:"

_PLAYER = re.compile(r"^(?P<name>.*?\S)\s+(?P<rating>-?\d+)(?P<opponents>(?:\s+\d+)*)\s*$")
_CONFIG = re.compile(r"^\s*config\s+(\w+)\s*=\s*(.*?)\s*;?\s*$")
_DIVISION = re.compile(r"^\s*division\s+(\S+)\s+(\S+)")
_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan", "janvier", "janv"),
            ("february", "feb", "fevrier", "fev", "fevr"),
            ("march", "mar", "mars"),
            ("april", "apr", "avril", "avr"),
            ("may", "mai"),
            ("june", "jun", "juin"),
            ("july", "jul", "juillet", "juil"),
            ("august", "aug", "aout"),
            ("september", "sep", "sept", "septembre"),
            ("october", "oct", "octobre"),
            ("november", "nov", "novembre"),
            ("december", "dec", "decembre"),
        ],
        start=1,
    )
    for name in names
}


@dataclass(frozen=True)
class Config:
    """What the parser uses from `config.tsh`."""

    event_name: str | None
    start_date: str | None  # ISO
    end_date: str | None  # ISO
    divisions: dict[str, str]  # file name (lower case) -> division name


@dataclass
class Player:
    """One player line."""

    name: str
    line: int
    opponents: list[int]
    scores: list[int]
    p12: list[int] | None


def detect(data: bytes, name: str) -> bool:
    """A `.t` file (TSH names division files `<division>.t`)."""
    return PurePath(name).suffix.lower() == ".t"


def parse(data: bytes, name: str, config: bytes | None = None) -> dict[str, pl.DataFrame]:
    """Results, games and (empty) rating-list frames of a `.t` file; see `parse_tsh`."""
    return parse_tsh(data, name, config)


def parse_tsh(data: bytes, name: str, config: bytes | None) -> dict[str, pl.DataFrame]:
    """Frames of one division file, `config` being the bytes of the sibling config.tsh."""
    settings = read_config(config, name) if config is not None else None
    if settings is None or settings.event_name is None or settings.end_date is None:
        missing = (
            "le fichier config.tsh"
            if settings is None
            else "la ligne « config event_name » dans config.tsh"
            if settings.event_name is None
            else "la ligne « config event_date » dans config.tsh"
        )
        raise ExportError(
            name,
            "le nom et la date du tournoi sont lus dans config.tsh, à côté du fichier .t : "
            f"il manque {missing}",
        )
    players = read_players(data, name)
    path = PurePath(name)
    division = settings.divisions.get(path.name.lower(), path.stem)
    folder = path.parent.name
    base = folder or path.stem
    several = len(settings.divisions) != 1
    tournament_id = f"{base}-{division}" if several and folder else base
    title = settings.event_name + (f" – Division {division}" if several else "")
    ids = [ID_PREFIX + player_key(" ".join(split_name(p.name))) for p in players]

    wins: list[float] = []
    spreads: list[int] = []
    for index, player in enumerate(players):
        won = 0.0
        spread = 0
        for number, opponent in enumerate(player.opponents):
            margin = _margin(players, index, number, opponent)
            won += _result(margin)
            spread += margin
        wins.append(won)
        spreads.append(spread)
    ranks = competition_ranks(wins, spreads)
    rounds = max(len(p.opponents) for p in players)
    results = []
    for index, player in enumerate(players):
        first, last = split_name(player.name)
        results.append(
            {
                "tournament_id": tournament_id,
                "tournament_name": title,
                "discipline": "classique",
                "category": ENGLISH_LANGUAGE_CATEGORY,
                "start_date": settings.start_date,
                "end_date": settings.end_date,
                "player_id": ids[index],
                "last_name": last,
                "first_name": first,
                "rank": str(ranks[index]),
                "games": str(rounds),
                "wins": number_text(wins[index]),
                "spread": str(spreads[index]),
            }
        )
    games: list[dict[str, str | None]] = []
    game_lines: list[int] = []
    for index, player in enumerate(players):
        for number, opponent in enumerate(player.opponents):
            if opponent and opponent - 1 < index:
                continue
            other = players[opponent - 1] if opponent else None
            first_id = None
            if other is not None and player.p12 is not None and number < len(player.p12):
                first_id = {1: ids[index], 2: ids[opponent - 1]}.get(player.p12[number])
            games.append(
                {
                    "tournament_id": tournament_id,
                    "round": str(number + 1),
                    "player_id": ids[index],
                    "opponent_id": ids[opponent - 1] if other is not None else None,
                    "player_score": str(player.scores[number]),
                    "opponent_score": str(other.scores[number]) if other is not None else None,
                    "first_player_id": first_id,
                    "player_result": number_text(
                        _result(_margin(players, index, number, opponent))
                    ),
                }
            )
            game_lines.append(player.line)
    return {
        "results": string_frame(results, RESULTS.columns, [p.line for p in players]),
        "games": string_frame(games, GAMES.columns, game_lines),
        "rating_list": string_frame([], RATING_LIST.columns, []),
    }


def _margin(players: list[Player], index: int, number: int, opponent: int) -> int:
    own = players[index].scores[number]
    return own if opponent == 0 else own - players[opponent - 1].scores[number]


def _result(margin: int) -> float:
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


def read_players(data: bytes, name: str) -> list[Player]:
    """The checked player lines of a `.t` file; `ExportError` when one is malformed."""
    players: list[Player] = []
    for number, raw in enumerate(split_lines(decode_text(data, name, "latin-1")), start=1):
        line = raw.split("#", 1)[0]
        if not line.strip():
            continue
        players.append(_player(line, number, name))
    if not players:
        raise ExportError(name, "le fichier n'a aucune ligne de joueur", row=1)
    _check_pairings(players, name)
    return players


def _player(line: str, number: int, name: str) -> Player:
    fields = line.split(";")
    head = _PLAYER.match(fields[0])
    if head is None or not re.search(r"[^\W\d_]", head.group("name")):
        raise ExportError(
            name,
            "une ligne de joueur doit contenir : le nom, le classement, l'adversaire de "
            "chaque ronde (0 pour une exemption), « ; », le score de chaque ronde ; "
            f"trouvé : « {line.strip()} »",
            row=number,
        )
    player_name = " ".join(head.group("name").split())
    opponents = [int(t) for t in head.group("opponents").split()]
    score_text = fields[1].split() if len(fields) > 1 else []
    scores: list[int] = []
    for position, text in enumerate(score_text, start=1):
        if not re.fullmatch(r"-?\d+", text):
            raise ExportError(
                name,
                f"« {text} » n'est pas un score (nombre entier) pour {player_name}",
                row=number,
                column=f"ronde {position}",
            )
        scores.append(int(text))
    if len(scores) != len(opponents):
        raise ExportError(
            name,
            f"{player_name} a {quantity(len(opponents), 'adversaire')} mais "
            f"{quantity(len(scores), 'score')} : chaque ronde demande un adversaire et un "
            "score",
            row=number,
        )
    p12: list[int] | None = None
    for tag in fields[2:]:
        words = tag.split()
        if words and words[0] == "p12" and all(w.isdigit() for w in words[1:]):
            p12 = [int(w) for w in words[1:]]
    return Player(player_name, number, opponents, scores, p12)


def _check_pairings(players: list[Player], name: str) -> None:
    size = len(players)
    rounds = max(len(p.opponents) for p in players)
    for index, player in enumerate(players, start=1):
        if len(player.opponents) != rounds:
            raise ExportError(
                name,
                f"{player.name} a {quantity(len(player.opponents), 'ronde')} mais la "
                f"division en a {rounds} : il manque une ronde dans la ligne",
                row=player.line,
            )
        for number, opponent in enumerate(player.opponents, start=1):
            where = f"ronde {number}"
            if opponent > size:
                raise ExportError(
                    name,
                    f"l'adversaire {opponent} {of(player.name)} n'existe pas : la division a "
                    f"{quantity(size, 'joueur')} (numéros 1 à {size}, 0 pour une exemption)",
                    row=player.line,
                    column=where,
                )
            if opponent == index:
                raise ExportError(
                    name,
                    f"{player.name} est son propre adversaire à la ronde {number} (une "
                    "exemption s'écrit 0)",
                    row=player.line,
                    column=where,
                )
            if opponent and players[opponent - 1].opponents[number - 1] != index:
                other = players[opponent - 1]
                raise ExportError(
                    name,
                    f"{player.name} (n° {index}) rencontre {other.name} (n° {opponent}) à la "
                    f"ronde {number}, mais {other.name} a l'adversaire "
                    f"{other.opponents[number - 1]} à cette ronde",
                    row=player.line,
                    column=where,
                )


def read_config(config: bytes, name: str) -> Config:
    """Event name, dates and division names of a `config.tsh`."""
    values: dict[str, str] = {}
    divisions: dict[str, str] = {}
    date_line = 0
    for number, raw in enumerate(split_lines(decode_text(config, name, "latin-1")), start=1):
        line = raw.split("#", 1)[0]
        setting = _CONFIG.match(line)
        if setting:
            key, value = setting.group(1).lower(), setting.group(2)
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]
            values[key] = value.strip()
            if key == "event_date":
                date_line = number
            continue
        division = _DIVISION.match(line)
        if division:
            divisions[PurePath(division.group(2)).name.lower()] = division.group(1)
    start = end = None
    if values.get("event_date"):
        parsed = parse_event_date(values["event_date"])
        if parsed is None:
            raise ExportError(
                f"{name} (config.tsh)",
                f"impossible de lire la date du tournoi « {values['event_date']} » : "
                "écrivez-la sous la forme 2024-03-17, 16-17 mars 2024 ou March 16-17, 2024",
                row=date_line,
                column="event_date",
            )
        start, end = (d.isoformat() for d in parsed)
    return Config(values.get("event_name") or None, start, end, divisions)


def parse_event_date(text: str) -> tuple[dt.date, dt.date] | None:
    """(first day, last day) of `2024-03-17`, `March 16-17, 2024`, `16-17 mars 2024`..."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c)).lower()
    plain = re.sub(r"\b(and|et|to|au)\b|&|–|—", "-", plain)
    iso = re.findall(r"\d{4}-\d{2}-\d{2}", plain)
    try:
        if iso:
            dates = [dt.date.fromisoformat(d) for d in iso]
            return min(dates), max(dates)
        words = re.findall(r"[a-z]+|\d+", plain)
        numbers = [int(w) for w in words if w.isdigit()]
        months = [_MONTHS[w] for w in words if w in _MONTHS]
        years = [n for n in numbers if n >= 1900]
        days = [n for n in numbers if 1 <= n <= 31]
        if not months or len(years) != 1 or not days:
            return None
        year = years[0]
        first = dt.date(year, months[0], days[0])
        last = dt.date(year, months[-1], days[-1])
    except ValueError:
        return None
    return (first, last) if first <= last else None
