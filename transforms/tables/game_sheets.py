"""Game sheets: the master games of duplicate rounds as sent (a base table of the ingest),
and their audit, every move re-scored (docs/rules.md §7)."""

from transforms.tables import INT, STR, Family, Table, columns
from transforms.tables.ingest import FAMILY as INGEST

FAMILY = Family(
    key="game_sheets",
    title="Game-sheet audit (docs/rules.md §7)",
    order=70,
    partition="season",
    doc="Partitioned by season: a season's game sheets are those of its tournaments.",
)

TABLES = (
    Table(
        "game_sheets",
        INGEST,
        "move of a game sheet (tournament, game, move order)",
        "The game sheets of duplicate tournaments as sent (export kind `game_sheet`): one "
        "row per move of the master game, the top played on it. Only files whose "
        "tournament has duplicate results load; what a move says is judged by the audit "
        "(`game_sheet_audit`), not here.",
        columns(
            ("tournament_id", STR),
            ("game", INT, "manche, 1 or more"),
            ("move", INT, "coup, 1 or more; once per game"),
            (
                "rack",
                STR,
                "tirage as written (`?` blank, `+` kept letters / new draw, `-` in front: "
                "drawn after a rejet)",
            ),
            ("word", STR, "the whole word as written (lower case or `(H)` = blank)"),
            ("position", STR, "as written: `H8` horizontal, `8H` vertical"),
            ("score", INT, "the top stated on the sheet; null when not written"),
            ("source_file", STR),
        ),
        feeds=FAMILY,
    ),
    Table(
        "game_sheet_audit",
        FAMILY,
        "move of a game sheet, then one total per tournament stating a `top_total`",
        "Each move of a duplicate master game replayed on its board: stated and computed "
        "score, status and the arbiter's message (French). A tournament's total row (null "
        "`game` and `move`) compares the sum of the computed tops with its `top_total`.",
        columns(
            ("season", STR),
            ("tournament_id", STR),
            ("game", INT, "manche; null on a tournament's total row"),
            ("move", INT, "coup; null on a tournament's total row"),
            ("word", STR, "as written on the sheet (lower case or `(H)` = blank)"),
            ("position", STR, "as written: `H8` horizontal, `8H` vertical"),
            ("stated_score", INT, "the sheet's score; the `top_total` on a total row"),
            (
                "computed_score",
                INT,
                "null when the move could not be placed (or the total not computed)",
            ),
            (
                "status",
                STR,
                "`ok`, `score_differs`, `score_missing`, `illegal`; total rows "
                "`top_total_ok`, `top_total_differs`, `top_total_unchecked`",
            ),
            (
                "message",
                STR,
                "what is wrong (a breach of the FISF rules cites its section), then the "
                "words formed and their scores",
            ),
        ),
    ),
)
