"""Data quality: what a season's exports write that the reference data does not know
(unknown federations and countries), for the season report's annex."""
