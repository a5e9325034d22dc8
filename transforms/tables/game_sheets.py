"""Game-sheet audit: every duplicate master game re-scored (docs/rules.md §7)."""

from transforms.tables import INT, STR, Family, Table, columns

FAMILY = Family(
    key="game_sheets",
    title="Game-sheet audit (docs/rules.md §7)",
    order=70,
    partition="season",
    doc="Partitioned by season.",
)

TABLES = (
    Table(
        "game_sheet_audit",
        FAMILY,
        "move of a game sheet, then one total per tournament stating a `top_total`",
        "Each move of a duplicate master game replayed on its board: stated and computed "
        "score, status and the arbiter's message (French). A tournament's total row (null "
        "`game` and `move`) compares the sum of the computed tops with its `top_total`.",
        columns(
            ("tournament_id", STR),
            ("game", INT, "manche; null on a tournament's total row"),
            ("move", INT, "coup; null on a tournament's total row"),
            ("word", STR, "as written on the sheet (lower case = blank)"),
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
            ("message", STR, "what is wrong, then the words formed and their scores"),
        ),
    ),
)
