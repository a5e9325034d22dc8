"""Data-quality notes of a season (`data_quality_notes`): what the season's exports write
that the reference data does not know, once per season, for the report's annex.

Pure function: frames in, frame out. The notes of this module are the federations and
countries the alias table (`data/reference/federations.csv`, `transforms.federations`)
does not know; the table's `notice` column is a generic code, so other kinds of notice can
join the same table.

Decisions taken here:

- **Unknown federation** (`unknown_federation`): a value of the season's results'
  `federation` (every discipline) or of the `players` table's `federation` for a player with
  a result in the season (the latest federation written by organisers, the one the series
  and the national classifications use) that the alias table does not know. One note per
  value as written (surrounding spaces trimmed; two spellings are two notes, each names
  what the organisers wrote); `rows` counts the season's result rows writing it plus the
  players whose latest federation it is.
- **Unknown country** (`unknown_country`): a value of the season's tournaments' `country`
  the alias table does not know; `rows` counts the tournaments.
- Empty values are no value: never a note.
"""

from __future__ import annotations

import polars as pl

from transforms.federations import AliasTable, known_expr
from transforms.tables import table

NOTES = table("data_quality_notes")

UNKNOWN_FEDERATION = "unknown_federation"
UNKNOWN_COUNTRY = "unknown_country"
# Where the alias table is, as the notes tell the reader.
ALIAS_FILE = "data/reference/federations.csv"


def _plural(n: int, singular: str, plural: str) -> str:
    return f"{n} {singular if n == 1 else plural}"


def _unknown(frame: pl.DataFrame, ids: str, column: str, federations: AliasTable) -> pl.DataFrame:
    """`value, rows, ids` of the values of `column` the table does not know: how many rows
    write each, and how many distinct `ids` (players, tournaments) write it."""
    return (
        frame.select(
            pl.col(ids).cast(pl.String).alias("_id"),
            pl.col(column).cast(pl.String).str.strip_chars().alias("value"),
            known_expr(column, federations).alias("_known"),
        )
        .filter(pl.col("_known").not_())
        .group_by("value")
        .agg(pl.len().cast(pl.Int64).alias("rows"), pl.col("_id").n_unique().alias("ids"))
    )


def _federation_detail(value: str, results: int, players: int, listed: int) -> str:
    where = []
    if results:
        where.append(
            f"écrite dans {_plural(results, 'ligne', 'lignes')} de résultats de la saison "
            f"({_plural(players, 'joueur', 'joueurs')})"
        )
    if listed:
        where.append(
            f"fédération la plus récente de {_plural(listed, 'joueur', 'joueurs')} de la "
            "saison (fiche joueur)"
        )
    return (
        f"Fédération « {value} » inconnue de la table des fédérations et pays ({ALIAS_FILE}) : "
        f"{' ; '.join(where)}. Elle est gardée telle qu'écrite : ces joueurs relèvent des "
        "quotas généraux (« * ») et n'ont pas de classement national."
    )


def _country_detail(value: str, tournaments: int) -> str:
    return (
        f"Pays « {value} » inconnu de la table des fédérations et pays ({ALIAS_FILE}) : écrit "
        f"pour {_plural(tournaments, 'tournoi', 'tournois')} de la saison. Il est gardé tel "
        "qu'écrit : ces tournois ne comptent comme joués dans aucun pays (par exemple pour "
        "la règle suisse des tournois joués en Suisse)."
    )


def unknown_federations_and_countries(
    season: str,
    results: pl.DataFrame,
    players: pl.DataFrame,
    tournaments: pl.DataFrame,
    federations: AliasTable,
) -> pl.DataFrame:
    """The `data_quality_notes` rows of one season for the federations and countries the
    alias table does not know.

    `results`: the season's results (`player_id, federation`, every discipline);
    `players`: `player_id, federation` of the `players` table for the players with a
    result in the season; `tournaments`: the season's tournaments (`tournament_id,
    country`). Sorted by notice, then subject."""
    written = _unknown(results, "player_id", "federation", federations)
    listed = _unknown(players, "player_id", "federation", federations)
    federation = written.join(listed, on="value", how="full", coalesce=True, suffix="_listed")
    rows: list[dict[str, object]] = []
    for r in federation.iter_rows(named=True):
        in_results = int(r["rows"] or 0)
        in_players = int(r["rows_listed"] or 0)
        rows.append(
            {
                "notice": UNKNOWN_FEDERATION,
                "subject": r["value"],
                "detail": _federation_detail(
                    r["value"], in_results, int(r["ids"] or 0), in_players
                ),
                "rows": in_results + in_players,
            }
        )
    country = _unknown(tournaments, "tournament_id", "country", federations)
    for r in country.iter_rows(named=True):
        rows.append(
            {
                "notice": UNKNOWN_COUNTRY,
                "subject": r["value"],
                "detail": _country_detail(r["value"], int(r["rows"])),
                "rows": int(r["rows"]),
            }
        )
    frame = pl.DataFrame(
        rows,
        schema={"notice": pl.String, "subject": pl.String, "detail": pl.String, "rows": pl.Int64},
    )
    return NOTES.check(
        frame.select(pl.lit(season, dtype=pl.String).alias("season"), pl.all()).sort(
            "notice", "subject"
        )
    )
