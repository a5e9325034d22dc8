"""Regional circuits: the PACA ranking (docs/rules.md §5), partitioned by calendar year.

Every table has a `year` column, the partition: the edition's year for points, the year
of the tournament after which the ranking is published for rankings. Points are exact
sums of the reference tables' values (halves with the defaults), stored as DOUBLE.
Lists of ids (`counted_tournaments`, `counted_players`) are `;`-joined strings, in event
order and in decreasing points respectively. `circuit` is the circuit's code
(`data/reference/circuits.csv`).

The two exports the PACA ranking reads besides the results and games — the circuit
calendar and the published circuit rankings — are base tables (family `ingest`, written by
the ingest).
"""

from transforms.tables import BOOL, DATE, FLOAT, INT, STR, Family, Table, columns
from transforms.tables.ingest import FAMILY as INGEST

FAMILY = Family(
    key="circuits",
    title="Regional circuits (docs/rules.md §5)",
    order=50,
    partition="year",
    doc="Partitioned by calendar year.",
)

_RANKING_HEAD = (
    ("circuit", STR),
    ("year", INT, "calendar year of the tournament after which the ranking is published"),
    ("after_tournament_id", STR, "the ranking is the one published after this tournament"),
    ("as_of", DATE, "that tournament's end date"),
)
_RANKING_TAIL = (
    ("place", INT, "by best-5 total; ties share the best place (1, 2, 2, 4)"),
    ("best5_total", FLOAT, "sum of the 5 best tournament totals of the window"),
    ("total", FLOAT, "sum of every tournament total of the window"),
    ("played", INT, "tournaments of the window played"),
    (
        "counted_tournaments",
        STR,
        "`;`-joined ids of the tournaments making the best-5 total, in event order",
    ),
    (
        "movement",
        INT,
        "places gained (+) or lost (−) since the previous ranking; null when absent from it",
    ),
)

TABLES = (
    Table(
        "circuit_points",
        FAMILY,
        "player × circuit tournament",
        "Each participant's four components (table 1 by duplicate place and seeds present, "
        "table 2 per win over a seed, table 3 per draw with a seed, table 4 by final place "
        "and seeds present) and their total.",
        columns(
            ("circuit", STR),
            ("year", INT, "the edition's year (circuit calendar)"),
            ("tournament_id", STR),
            ("player_id", STR),
            (
                "seeds_present",
                INT,
                "seeds playing the tournament (the tables' column is at most 16)",
            ),
            ("seed", INT, "the player's seed number (place in the last ranking); null if none"),
            ("duplicate_points", FLOAT, "table 1"),
            ("win_points", FLOAT, "table 2, summed over the wins over seeds"),
            ("draw_points", FLOAT, "table 3, summed over the draws with seeds"),
            ("final_points", FLOAT, "table 4"),
            ("total", FLOAT, "sum of the four"),
        ),
    ),
    Table(
        "circuit_club_points",
        FAMILY,
        "club × circuit tournament",
        "A club's points in a tournament: the sum of its three best player totals.",
        columns(
            ("circuit", STR),
            ("year", INT, "the edition's year"),
            ("tournament_id", STR),
            ("club", STR, "as written on the results, trimmed"),
            ("total", FLOAT),
            ("counted_players", STR, "`;`-joined ids of the players counted, best first"),
        ),
    ),
    Table(
        "circuit_rankings",
        FAMILY,
        "player × ranking (one ranking after each circuit tournament)",
        "The player ranking published after each tournament: the window's tournaments, "
        "best 5 kept. Per-tournament points: join `circuit_ranking_windows` and "
        "`circuit_points`.",
        columns(*_RANKING_HEAD, ("player_id", STR), *_RANKING_TAIL),
    ),
    Table(
        "circuit_club_rankings",
        FAMILY,
        "club × ranking (one ranking after each circuit tournament)",
        "The club ranking published after each tournament, by the same window and best 5. "
        "Per-tournament points: join `circuit_ranking_windows` and `circuit_club_points`.",
        columns(*_RANKING_HEAD, ("club", STR), *_RANKING_TAIL),
    ),
    Table(
        "circuit_ranking_windows",
        FAMILY,
        "ranking × tournament it counts",
        "The window of each ranking: the year's tournaments held so far and last year's "
        "not yet held again, replaced or dropped at the anniversary as docs/rules.md §5 says; the "
        "year's last ranking counts the year's tournaments only.",
        columns(
            *_RANKING_HEAD,
            ("last_of_year", BOOL, "no edition of the year is held or announced after it"),
            ("tournament_id", STR, "a tournament the ranking counts"),
            ("event_key", STR, "the recurring tournament (circuit calendar)"),
            ("edition_year", INT, "the year of that edition: `year` or `year − 1`"),
        ),
    ),
    Table(
        "circuit_masters_invitees",
        FAMILY,
        "player invited to the year's Masters",
        "The 16 best of the year's last ranking (players tied at the 16th place are all "
        "listed; a player without points is not invited).",
        columns(
            *_RANKING_HEAD,
            ("player_id", STR),
            ("place", INT),
            ("best5_total", FLOAT),
        ),
    ),
    Table(
        "circuit_calendar",
        INGEST,
        "edition of a recurring circuit tournament, per calendar export row",
        "The `circuit calendar` exports: every edition of each recurring tournament of a "
        "circuit, with the day it was announced and whether it was held, announced or "
        "cancelled. An edition may be announced in one row and held (or cancelled) in "
        "another.",
        columns(
            ("circuit", STR, "as written (the circuit names of data/reference/circuits.csv)"),
            ("event_key", STR, "the recurring tournament, e.g. `Orange`"),
            ("year", INT, "the edition's calendar year"),
            ("date", DATE, "the edition's date (planned, for an announced or cancelled one)"),
            ("announced_on", DATE, "when the edition was announced; null: not stated"),
            ("status", STR, "`held`, `announced` or `cancelled`"),
            ("tournament_id", STR, "the held edition's tournament"),
            ("source_file", STR),
        ),
        feeds=FAMILY,
    ),
    Table(
        "published_circuit_rankings",
        INGEST,
        "player × published circuit ranking",
        "The `circuit ranking` exports: a circuit's official rankings as published (the last "
        "one before the data starts gives the first seeds; the Masters Grand Sud's annual "
        "ranking selects its 16).",
        columns(
            ("circuit", STR, "as written (the circuit names of data/reference/circuits.csv)"),
            ("as_of", DATE, "date of the ranking"),
            ("player_id", STR),
            ("place", INT, "ties share the best place"),
            ("points", FLOAT, "null when the export does not give them"),
            ("source_file", STR),
        ),
        feeds=FAMILY,
    ),
)
