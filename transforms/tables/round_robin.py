"""Regional circuits: the round-robin finals of docs/rules.md §5b — Masters Grand Sud and
the Grand Est championship (`transforms.round_robin`), partitioned by calendar year; and
the `matches` export the finals are ranked from (a base table, written by the ingest)."""

import polars as pl

from transforms.tables import BOOL, FLOAT, INT, STR, Family, Table, columns
from transforms.tables.ingest import FAMILY as INGEST

FAMILY = Family(
    key="circuits",
    title="Regional circuits (docs/rules.md §5)",
    order=50,
    partition="year",
    doc="Partitioned by calendar year.",
)

TABLES = (
    Table(
        "round_robin_standings",
        FAMILY,
        "player × round-robin final (Masters Grand Sud, Grand Est final)",
        "Final standings of a single round robin: win / draw / loss points, moves won and "
        "conceded, the tie-break that decided each place, the play-off flag of a tie for "
        "first the Masters leaves to a play-off, and the games a withdrawal annulled. "
        "Counters are those the player's place was decided with (games of a withdrawn "
        "player annulled, or kept for places 1..D under the late-withdrawal rule).",
        columns(
            ("year", INT, "calendar year of the final's end date"),
            ("circuit", STR, "the rules applied: `MASTERS_GRAND_SUD` or `GRAND_EST`"),
            ("tournament_id", STR),
            ("player_id", STR),
            ("seed", INT, "number in the pairing table: position in the ranking that selected"),
            (
                "ranking_place",
                INT,
                "place in that ranking (annual for the Masters, qualifying for the Grand Est)",
            ),
            ("place", INT, "ties share the best place; null for a withdrawn player"),
            ("points", INT, "win 2, draw 1, loss 0 (data/reference/round_robin.yaml)"),
            ("wins", INT),
            ("draws", INT),
            ("losses", INT),
            ("moves_won", INT, "attaque (Masters), moves scored in matches (Grand Est)"),
            ("moves_conceded", INT, "défense (Masters), total scored by the opponents (Grand Est)"),
            ("top_moves", INT, "moves played at the top; null when the export does not give them"),
            (
                "tiebreak_used",
                STR,
                "code of the criterion that decided the place: null = points alone; `defense`, "
                "`attack`, `head_to_head`, `annual_place` (Masters); `top_moves`, "
                "`moves_scored`, `head_to_head`, `opponents_scored`, `qualifying_place` (Grand "
                "Est); `play_off` (tie for first left to a play-off), `ex_aequo` (level on "
                "every criterion, shared place), `withdrawn`",
            ),
            (
                "play_off_needed",
                BOOL,
                "tie for first of the Masters still level after head-to-head",
            ),
            (
                "annulled_games",
                pl.List(pl.String()),
                "opponents (player_id) of this player's games that do not count for their place",
            ),
        ),
    ),
    Table(
        "grand_est_qualifying",
        FAMILY,
        "player × calendar year",
        "Qualifying ranking of the Grand Est championship: the place points of every "
        "qualifying tournament of the year, all kept; ties broken by the counts of 1st, 2nd, "
        "… 32nd places, then the same on duplicate places.",
        columns(
            ("year", INT),
            ("player_id", STR),
            ("place", INT, "ties share the best place"),
            ("points", FLOAT, "exact sum of the table's points (data/reference/round_robin/)"),
            ("tournaments", INT, "qualifying tournaments played"),
            (
                "places_histogram",
                pl.List(pl.Int64()),
                "counts of 1st, 2nd, … 32nd final places (index 0 = 1st places)",
            ),
        ),
    ),
    Table(
        "matches",
        INGEST,
        "player × match of a round-robin final (each match twice: a row and its mirror)",
        "The `matches` exports of the round-robin finals (Masters Grand Sud, Grand Est final): "
        "moves won by each side of each match; in duplicate-match a shared move counts for "
        "both.",
        columns(
            ("tournament_id", STR),
            ("round", INT),
            ("table", INT),
            ("player_id", STR),
            ("opponent_id", STR),
            ("player_moves", INT, "moves won by the player (attaque)"),
            ("opponent_moves", INT, "moves won by the opponent (the player's défense)"),
            ("player_top_moves", INT, "moves the player played at the top; null if not given"),
            ("player_points_scored", INT, "points scored by the player; null if not given"),
            ("source_file", STR),
        ),
        feeds=FAMILY,
    ),
)
