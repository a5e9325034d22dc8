"""What each partition of the build was last built from (the incremental build's memory)."""

from transforms.tables import STR, Family, Table, columns

FAMILY = Family(
    key="builds",
    title="Build records",
    order=90,
    doc="Written at the end of each partition's build; a partition is rebuilt when its "
    "inputs' fingerprint (`season_fingerprints`, `year_fingerprints`), the code or the rule "
    "parameters differ from what it was built from, or one of its reports is missing.",
)

TABLES = (
    Table(
        "season_builds",
        FAMILY,
        "season",
        "The season fingerprint and code version the season was last built from.",
        columns(("season", STR), ("fingerprint", STR, "hash of inputs, code and parameters")),
    ),
    Table(
        "year_builds",
        FAMILY,
        "calendar year",
        "The year fingerprint and code version the year's circuits were last built from.",
        columns(("year", STR), ("fingerprint", STR, "hash of inputs, code and parameters")),
    ),
)
