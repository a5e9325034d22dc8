"""`classement score SHEET [--game N]` (or `--sheet SHEET`): replay a game sheet and print
every move.

The file is read like an export of the raw folder (CSV or XLSX, the `game_sheet` kind of
docs/exports.md) and checked like one, so that a file the build would reject stops here
with the same message (the checks against the tournament's results aside: the command
needs none). Each game is then replayed with the scorer of docs/rules.md §7: each move with its
words and computed score, its problems, the total of the computed tops and the board.

Exit status: 0 when every move scores as stated (a move without a stated score counts as
such: there is nothing to contradict), 1 when a stated score differs from the computed one
or a move is irregular, 2 when the file cannot be read as a game sheet (or holds no game
number `--game`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

from pipelines.ingest.errors import ExportError
from pipelines.ingest.kinds.game_sheets import GAME_SHEET, sheet_errors
from pipelines.ingest.read import RawTable, read_export
from pipelines.ingest.validate import first_error_per_file, type_frame
from pipelines.paths import REFERENCE_DIR
from pipelines.reference.scoring import load_scoring_params
from transforms.scoring import (
    STATUS_ILLEGAL,
    STATUS_OK,
    STATUS_SCORE_DIFFERS,
    STATUS_SCORE_MISSING,
    GameReplay,
    format_game,
    replay_games,
)

UNREADABLE = 2


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score",
        help="rejouer une feuille de partie duplicate et vérifier le score de chaque coup",
        description="Rejoue coup par coup la ou les parties d'une feuille de partie (CSV ou "
        "XLSX, colonnes tournament_id, game, move, rack, word, position, score : "
        "docs/exports.md) : chaque coup avec ses mots et son score calculé, puis la grille "
        "(docs/rules.md §7). Code de sortie 0 quand chaque coup vaut le score écrit, 1 quand "
        "certains diffèrent ou sont irréguliers, 2 quand le fichier ne peut pas être lu.",
    )
    parser.add_argument(
        "sheet", type=Path, nargs="?", default=None, help="la feuille de partie (CSV, XLSX)"
    )
    parser.add_argument(
        "--sheet",
        type=Path,
        dest="sheet_option",
        default=None,
        metavar="FEUILLE",
        help="la feuille de partie, donnée en option (comme FEUILLE ci-dessus)",
    )
    parser.add_argument(
        "--game", type=int, default=None, help="ne rejouer que cette partie (manche)"
    )
    parser.set_defaults(func=run, parser=parser)


def sheet_argument(args: argparse.Namespace) -> Path:
    """The sheet named positionally or by --sheet; a usage error (exit 2) when neither or
    two different ones are given."""
    given = [p for p in (args.sheet, args.sheet_option) if p is not None]
    if not given:
        args.parser.error("indiquez la feuille de partie : classement score FEUILLE")
    if len(given) == 2 and given[0] != given[1]:
        args.parser.error(f"deux feuilles indiquées ({given[0]} et {given[1]}) : une seule")
    return given[0]


class SheetError(Exception):
    """A file that cannot be replayed; the message is the one printed."""


def _frame(table: RawTable, name: str) -> pl.DataFrame:
    """The sheet's rows as the ingest stacks them: strings of the kind's columns and the
    file, the name used in messages and the row numbers."""
    n = len(table)
    data = {c: table.columns.get(c, [None] * n) for c in GAME_SHEET.columns}
    schema = {c: pl.String for c in GAME_SHEET.columns} | {
        "_row": pl.Int64,
        "_file": pl.String,
        "_where": pl.String,
    }
    return pl.DataFrame(
        {**data, "_row": table.rows, "_file": [name] * n, "_where": [table.where or name] * n},
        schema=schema,
    )


def read_sheet(path: Path) -> pl.DataFrame:
    """The typed rows of the game sheet at `path`, checked as the ingest checks a sheet on
    its own; SheetError with the ingest's French message when it cannot be."""
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise SheetError(f"{name} : fichier illisible ({err.strerror or err})") from None
    try:
        tables = read_export(data, name)
    except ExportError as err:
        raise SheetError(str(err)) from None
    table = tables.get(GAME_SHEET.name)
    if table is None:
        raise SheetError(
            f"{name} : ce fichier n'est pas une feuille de partie (il faut les colonnes "
            "tournament_id, game, move, word, position, et rack, score s'il y a lieu : voir "
            "docs/exports.md)"
        )
    typed, type_errors = type_frame(_frame(table, name), GAME_SHEET)
    first = first_error_per_file([type_errors, sheet_errors(typed)])
    if first.height:
        row = first.row(0, named=True)
        column = row["column"]
        raise SheetError(
            str(
                ExportError(
                    row["_where"],
                    row["message"],
                    row=row["_row"],
                    column=column,
                    header=table.headers.get(column) if column else None,
                )
            )
        )
    return typed


def _summary(replays: list[GameReplay]) -> tuple[str, bool]:
    """The closing line, and whether every move scored as stated."""
    statuses = [m.status for r in replays for m in r.moves]
    counts = {s: statuses.count(s) for s in (STATUS_OK, STATUS_SCORE_MISSING)}
    differ = statuses.count(STATUS_SCORE_DIFFERS)
    illegal = statuses.count(STATUS_ILLEGAL)
    parts = [
        f"{len(replays)} manche(s), {len(statuses)} coup(s) rejoué(s)",
        f"{counts[STATUS_OK]} conforme(s)",
        f"{differ} score(s) différent(s)",
        f"{illegal} coup(s) irrégulier(s)",
    ]
    if counts[STATUS_SCORE_MISSING]:
        parts.append(f"{counts[STATUS_SCORE_MISSING]} sans score indiqué")
    return " ; ".join(parts), differ == 0 and illegal == 0


def run(args: argparse.Namespace) -> int:
    args.sheet = sheet_argument(args)
    try:
        typed = read_sheet(args.sheet)
    except SheetError as err:
        print(f"erreur : {err}", file=sys.stderr)
        return UNREADABLE
    params = load_scoring_params(REFERENCE_DIR)
    replays = replay_games(typed, params, game=args.game)
    if not replays:
        found = ", ".join(str(g) for g in sorted(set(typed["game"].to_list())))
        print(
            f"erreur : {args.sheet} : aucune manche {args.game} sur cette feuille "
            f"(manches : {found})",
            file=sys.stderr,
        )
        return UNREADABLE
    print("\n".join(format_game(r, params) for r in replays))
    line, as_stated = _summary(replays)
    print(line)
    return 0 if as_stated else 1
