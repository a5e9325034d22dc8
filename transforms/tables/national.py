"""National classifications, partitioned by season (docs/rules.md §4)."""

from transforms.tables import FLOAT, INT, STR, Family, Table, columns

FAMILY = Family(
    key="national",
    title="National classifications (docs/rules.md §4)",
    order=40,
    partition="season",
    doc="Partitioned by season.",
)

_RULES = (
    "`international` (series 1–4 or SS from the cascade, value = its criterion), "
    "`new_licensee` (series 7, no value), `france_pct_n4` / `france_pc` (5A by the minimum "
    "global %N4 / by PC within 5A's quota; PC bars below), `belgium_pp5` / `belgium_pp6` / "
    "`belgium_pp7`, `switzerland_pc` (PC of the best events, 3 of them at home), "
    "`median_cle` (median percentage through the clé de répartition)"
)

TABLES = (
    Table(
        "national_classification",
        FAMILY,
        "licensee of a federation with a national rule × season",
        "Each licensee's national series for the next season: the international series "
        "(1–4, SS) as the cascade gives it, series 7 for a new licensee without result, "
        "else the series the federation's rule gives; a player the rule cannot classify "
        "has no series and the reason in French.",
        columns(
            ("season", STR),
            ("federation", STR, "canonical code (`data/reference/federations.csv`)"),
            ("player_id", STR),
            ("rule", STR, _RULES),
            ("value", FLOAT, "the rule's criterion: %N4, PC, PP5–PP7 or median percentage"),
            ("series", STR, "`SS`, `1`…`7`; null when not classified"),
            ("subseries", STR, "e.g. `5B`; null when the series is not split"),
            ("reason", STR, "why the rule does not classify the player (French); else null"),
        ),
    ),
    Table(
        "national_bars",
        FAMILY,
        "season × federation × step of a national rule",
        "The bars of the quota and threshold rules (France, Belgium, Switzerland), published "
        "each season: for a quota step the value of its last admitted player; the minimums "
        "of `national.yaml` (France's 5A by %N4, Belgium's PP5 for series 5); for "
        "a rest step the lowest value it admits; admitted counts and quota targets.",
        columns(
            ("season", STR),
            ("federation", STR),
            ("series", STR),
            ("subseries", STR),
            ("rule", STR),
            ("bar", FLOAT, "null when nobody is admitted"),
            ("admitted", INT, "players the step admits; for a minimum, the players reaching it"),
            ("target", INT, "quota step: cumulative quota boundary minus those above; else null"),
            (
                "kind",
                STR,
                "`quota` (value of the last admitted), `minimum` (a parameter that must be "
                "reached; null sub-series = the whole series), `rest` (everyone left)",
            ),
        ),
    ),
    Table(
        "cle_de_repartition",
        FAMILY,
        "season × series of the clé",
        "The clé de répartition of the median rule (Luxembourg, United Kingdom): for each "
        "series the median, over the reference federation's players who held it in the "
        "season, of their season median percentage; the bounds are the midpoints between "
        "adjacent series. A value equal to a bound goes to the better series.",
        columns(
            ("season", STR),
            ("reference_federation", STR),
            ("series", STR),
            ("reference_median", FLOAT, "null when no reference player held the series"),
            ("lower_bound", FLOAT, "inclusive; null for the lowest series (no limit)"),
            ("upper_bound", FLOAT, "exclusive; null for the highest series (no limit)"),
            ("players", INT, "reference players of the series"),
        ),
    ),
)
