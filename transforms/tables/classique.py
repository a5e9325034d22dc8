"""Classique ratings: the cote and Elo, their rankings and series (docs/rules.md §1–2)."""

from transforms.tables import DATE, FLOAT, INT, STR, Family, Table, columns

FAMILY = Family(
    key="classique",
    title="Classique ratings (docs/rules.md §1–2)",
    order=20,
    partition="season",
    doc="Partitioned by season: a season's tournaments are rated from the cotes and Elo "
    "ratings the earlier seasons ended with, and its rankings are those of its last day.",
)

TABLES = (
    Table(
        "cote_history",
        FAMILY,
        "player × classique tournament",
        "Cote before, initial place, published rank, PE, bonus, PJ (raw and clamped) and "
        "cote after, in event order: `cote_after = cote_before + pe + bonus + pj`.",
        columns(
            ("season", STR),
            ("tournament_id", STR),
            ("player_id", STR),
            ("cote_before", INT),
            ("initial_place", INT),
            ("rank", INT),
            ("pe", INT),
            ("bonus", INT),
            ("pj_raw", INT),
            ("pj", INT),
            ("cote_after", INT),
        ),
    ),
    Table(
        "elo_history",
        FAMILY,
        "player × rated tournament",
        "Elo before, K, games, score, expected score, change and Elo after.",
        columns(
            ("season", STR),
            ("tournament_id", STR),
            ("player_id", STR),
            ("rating_before", FLOAT),
            ("games_before", INT, "rated games before the tournament (for K)"),
            ("k", FLOAT),
            ("games", INT),
            ("score", FLOAT),
            ("expected", FLOAT),
            ("delta", FLOAT),
            ("rating_after", FLOAT),
        ),
    ),
    Table(
        "cote_ranking",
        FAMILY,
        "active player × season end",
        "End-of-season cote ranking of active players, with their classique series and "
        "number of tournaments.",
        columns(
            ("season", STR),
            ("as_of", DATE),
            ("player_id", STR),
            ("rank", INT),
            ("value", INT),
            ("classique_series", STR, "Joker/A/B/C"),
            ("tournaments", INT),
        ),
    ),
    Table(
        "elo_ranking",
        FAMILY,
        "active player × season end",
        "End-of-season Elo ranking of active players, with their classique series (from the "
        "cote ranking) and number of rated games.",
        columns(
            ("season", STR),
            ("as_of", DATE),
            ("player_id", STR),
            ("rank", INT),
            ("value", FLOAT),
            ("classique_series", STR),
            ("games", INT),
        ),
    ),
    Table(
        "classique_series_bars",
        FAMILY,
        "season × series",
        "The classique series bars set on each 1 September from the end-of-season cote ranking.",
        columns(
            ("season", STR),
            ("set_on", DATE, "the day they apply from"),
            ("series", STR),
            ("bar", INT),
        ),
    ),
)
