"""Duplicate series, partitioned by season (docs/rules.md §3)."""

from transforms.tables import BOOL, DATE, FLOAT, INT, STR, Family, Table, columns

FAMILY = Family(
    key="series",
    title="Duplicate series (docs/rules.md §3)",
    order=30,
    partition="season",
    doc="Partitioned by season: each asset replaces its season's rows.",
)
_PCT = tuple((f"pct_n{x}", FLOAT) for x in (1, 2, 3, 4))
_ZONES = tuple((f"zone{x}_{e}", INT) for x in (1, 2, 3, 4) for e in ("a", "b"))

TABLES = (
    Table(
        "duplicate_event_scores",
        FAMILY,
        "player × duplicate event",
        "Series held that day, published place, %N1–%N4 by the zone method with the zone "
        "bounds used, and classification points (PC).",
        columns(
            ("season", STR),
            ("tournament_id", STR),
            ("player_id", STR),
            ("series", STR),
            ("place", INT),
            *_PCT,
            ("pc", FLOAT),
            *_ZONES,
            ("series_source", STR, "`results`, `season` or `default`"),
        ),
    ),
    Table(
        "series_standings",
        FAMILY,
        "player × season",
        "Weighted global %N1–%N4, season PC, super-série percentage (¾ this season + ¼ the "
        "previous one).",
        columns(
            ("season", STR),
            ("player_id", STR),
            ("federation", STR),
            ("events", INT),
            *_PCT,
            ("pc", FLOAT),
            ("super_serie_pct", FLOAT),
            ("super_serie_season", FLOAT),
            ("super_serie_previous", FLOAT),
            ("weight", FLOAT),
        ),
    ),
    Table(
        "series_classification",
        FAMILY,
        "player × season",
        "End-of-season series for the next season (barres d'accès cascade), sub-series and "
        "super-série.",
        columns(
            ("season", STR),
            ("player_id", STR),
            ("series", STR),
            ("subseries", STR),
            ("super_serie", BOOL),
            ("criterion", STR),
            ("value", FLOAT),
            ("federation", STR),
            ("super_serie_value", FLOAT),
        ),
    ),
    Table(
        "series_bars",
        FAMILY,
        "season × (sub-)series",
        "Barres d'accès: value of the last admitted player per series and sub-series, with "
        "admitted counts and targets.",
        columns(
            ("season", STR),
            ("series", STR),
            ("subseries", STR),
            ("federation", STR),
            ("criterion", STR),
            ("bar", FLOAT),
            ("admitted", INT),
            ("target", INT),
        ),
    ),
    Table(
        "series_movements",
        FAMILY,
        "player × season",
        "Promoted, relegated, unchanged or new, per player.",
        columns(
            ("season", STR),
            ("player_id", STR),
            ("previous_series", STR),
            ("series", STR),
            ("movement", STR, "`promoted`, `relegated`, `unchanged` or `new`"),
        ),
    ),
    Table(
        "series_provisional",
        FAMILY,
        "change of a player's provisional series or criterion value after an event (and "
        "each first appearance)",
        "Provisional series after each event of the season, stored as changes (a null "
        "series = left the classification). The full classification after event E is each "
        "player's latest row up to E in event order: "
        "`transforms.series_provisional.provisional_as_of(changes, after_tournament_id, events)`.",
        columns(
            ("season", STR),
            ("after_tournament_id", STR),
            ("player_id", STR),
            ("series", STR),
            ("criterion", STR),
            ("value", FLOAT),
        ),
    ),
    Table(
        "series_comparison",
        FAMILY,
        "player × published FFSc ranking of the season (French players of either side)",
        "Our series against the FFSc's published one: `computed_series` is `SS` for a "
        "super-série player, with the sub-series only when the published label has one; "
        "`agrees` = same series (and sub-series when both state one), false when a side is "
        "missing; `difference` = computed − published in series steps (SS = 0; positive = "
        "we classify lower).",
        columns(
            ("season", STR, "the season holding the list's date"),
            ("as_of", DATE),
            ("player_id", STR),
            ("last_name", STR),
            ("first_name", STR),
            ("place", INT, "published"),
            ("published_series", STR, "série held"),
            ("published_potential_series", STR, "série potentielle"),
            ("computed_series", STR),
            ("agrees", BOOL),
            ("difference", INT),
        ),
    ),
)
