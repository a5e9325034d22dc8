"""The Belgian Mort Subite challenge, partitioned by duplicate season (docs/rules.md §6),
and the raw tables of its two exports (written by the ingest)."""

from transforms.tables import DATE, FLOAT, INT, STR, Family, Table, columns
from transforms.tables.ingest import FAMILY as INGEST

FAMILY = Family(
    key="mort_subite",
    title="Belgian Mort Subite challenge (docs/rules.md §6)",
    order=60,
    partition="season",
    doc="Partitioned by duplicate season (September–August).",
)

SEASON_DOC = "duplicate season of the round's date (September–August)"

TABLES = (
    Table(
        "mort_subite_players",
        INGEST,
        "player of a round's host tournament (file order)",
        "The accepted rows of the *mort subite players* exports (docs/exports.md): one row "
        "per player of the host tournament of a round, with their rank after its "
        "penultimate game; for the final, one row per player of the season's challenge.",
        columns(
            ("round_id", STR),
            ("host_tournament_id", STR, "the tournament the round is played after"),
            ("date", DATE, "the round's day: decides its season"),
            ("final", INT, "`1` for the season's final, else `0`"),
            ("player_id", STR),
            (
                "host_rank",
                INT,
                "place after the host tournament's penultimate game, ties shared (not read "
                "for the final)",
            ),
            ("series", STR, "as written (empty: filled from docs/rules.md §3 by the assets)"),
            ("present", INT, "`1` when the player takes part, else null"),
            ("source_file", STR),
        ),
        feeds=FAMILY,
    ),
    Table(
        "mort_subite_moves",
        INGEST,
        "participant still in the game × move (file order)",
        "The accepted rows of the *mort subite moves* exports (docs/exports.md): the "
        "computer's top of each move and what each participant still in the game played.",
        columns(
            ("round_id", STR),
            ("move", INT, "1, 2, 3… within the round"),
            ("top", INT, "the computer's top of the move"),
            ("player_id", STR),
            ("score", INT, "points played on the move, without any bonus"),
            (
                "warning",
                INT,
                "warnings the player got on the move: `1`, `2` (a disciplinary warning on top "
                "of another, FISF §5.8), else `0` or null",
            ),
            (
                "penalty",
                INT,
                "points the arbiter took off the move (FISF §5.6: 5 for a wrong position), "
                "else `0` or null",
            ),
            ("source_file", STR),
        ),
        feeds=FAMILY,
    ),
    Table(
        "mort_subite_qualified",
        FAMILY,
        "qualified player × round",
        "The players qualified for each round (art. 4, 14): the top 10 of the host "
        "tournament's ranking after its penultimate game plus the top 3 of each series, ties "
        "at each last qualifying place included. For the final, the host ranking is the "
        "challenge classification on the x − 1 best regular rounds.",
        columns(
            ("season", STR, SEASON_DOC),
            ("round_id", STR),
            ("player_id", STR),
            (
                "host_rank",
                INT,
                "place in the host ranking (for the final: in the challenge classification)",
            ),
            ("series", STR, "`SS`, `1` … `7` (a missing series counts as `7`)"),
            ("reason", STR, "`top 10`, `top 3 of series` or `both`"),
        ),
    ),
    Table(
        "mort_subite_results",
        FAMILY,
        "participant × round",
        "Place and points of every participant of a round, from the elimination move by "
        "move (art. 7–12; the final scores double, art. 15). Players still in at the end "
        "share place 1 and each take the maximum; those out on the same move are ordered "
        "by their score on it, then host rank, and still tied share the mean of the points "
        "of the places they cover.",
        columns(
            ("season", STR, SEASON_DOC),
            ("round_id", STR),
            ("player_id", STR),
            ("place", INT, "ties share the best place"),
            ("eliminated_at_move", INT, "null for a player still in at the end"),
            (
                "score_on_move",
                INT,
                "score counted on the move of elimination (after the warnings' and the "
                "arbiter's penalties, never below 0); null for a player still in at the end",
            ),
            ("points", FLOAT, "exact: a shared value is a mean (29.5)"),
            (
                "shared_with",
                INT,
                "players whose points are averaged together, the player included (1 = not "
                "shared; each player still in at the end takes the maximum, so 1)",
            ),
        ),
    ),
    Table(
        "mort_subite_standings",
        FAMILY,
        "player × season",
        "Season classification (art. 14–16): the x − 1 best of the x regular rounds plus "
        "the final; ties broken by the final's place, rounds counted, then the number of "
        "1st, 2nd, … places. Trophies go to the best finalist of each category, cups to the "
        "best of each series.",
        columns(
            ("season", STR),
            ("player_id", STR),
            (
                "series",
                STR,
                "the player's series of the season: the latest of their rounds' (`SS`, `1` … `7`)",
            ),
            ("rounds_played", INT, "regular rounds played"),
            ("rounds_counted", INT, "regular rounds counted: at most x − 1"),
            ("total", FLOAT, "points of the counted rounds plus the final's, exact"),
            ("final_points", FLOAT, "null when the player did not play the final"),
            ("place", INT, "ties share the best place"),
            ("trophy", STR, "the category won (`series 1-3`, `series 4+`), else null"),
            ("cup", STR, "the series whose cup the player wins (`1` … `7`), else null"),
        ),
    ),
)
