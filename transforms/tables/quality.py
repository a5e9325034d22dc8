"""Data quality: what the exports of a season say that the project could not place,
partitioned by season (the season report's data-quality annex)."""

from transforms.tables import INT, STR, Family, Table, columns

FAMILY = Family(
    key="quality",
    title="Data quality",
    order=80,
    partition="season",
    doc="Partitioned by season: one row per notice of the season.",
)

TABLES = (
    Table(
        "data_quality_notes",
        FAMILY,
        "season × notice × subject",
        "What the season's exports hold that the reference data does not know or that "
        "looks wrong, listed once per season: a federation or a country that "
        "`data/reference/federations.csv` does not know, a mis-encoded name, a licence "
        "written under several names (each kept as written), with how many rows write it "
        "and a French sentence for the report's annex.",
        columns(
            ("season", STR),
            (
                "notice",
                STR,
                "code of the kind of notice: `unknown_federation` (results' or players' "
                "`federation`), `unknown_country` (tournaments' `country`), `mojibake_name` "
                "(a results name that reads as UTF-8 decoded as Latin-1: `RÃ©gis`), "
                "`licence_spellings` (a licence whose results rows write several names)",
            ),
            (
                "subject",
                STR,
                "what the notice is about, as written (the unknown value, the mis-encoded "
                "« NOM Prénom », the licence)",
            ),
            ("detail", STR, "French sentence for the report: where it is and what follows"),
            ("rows", INT, "how many rows of the season's data carry it"),
        ),
    ),
)
