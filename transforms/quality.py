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
- **Mis-encoded name** (`mojibake_name`): a name of the season's results rows (« NOM
  Prénom » as written on the row) that reads as UTF-8 text decoded as Latin-1 or
  Windows-1252 (`RÃ©gis` for `Régis`, `Lâ€™Hermite` for `L’Hermite`): it holds `Ã`, `Â`
  or `â`, and encoding it back to Windows-1252 (or Latin-1) gives valid UTF-8 that differs
  (twice for a name garbled twice). One note per spelling as written, naming its licences,
  the likely name and the name kept (`players`); `rows` counts the season's rows writing
  it. The name is kept as written: the organiser corrects the export.
- **One licence, several names** (`licence_spellings`): a licence whose season's results
  rows write names that differ once case and runs of spaces are ignored (`Dupont Jean` and
  `DUPONT  Jean` are one name; `Dupont Jean` and `Dupond Jean`, or `Hélène` and `Helene`,
  are two: an accent is part of a spelling). One note per licence listing every spelling
  exactly as written with its rows, and the name kept (`players`: the latest written);
  `rows` counts the licence's rows in the season.
"""

from __future__ import annotations

import re

import polars as pl

from transforms.federations import AliasTable, known_expr
from transforms.tables import table

NOTES = table("data_quality_notes")

UNKNOWN_FEDERATION = "unknown_federation"
UNKNOWN_COUNTRY = "unknown_country"
MOJIBAKE_NAME = "mojibake_name"
LICENCE_SPELLINGS = "licence_spellings"
# How the notes name the alias table (`data/reference/federations.csv`): a committee reads
# the federation's words, never the repository's paths (issue 27, item 4).
ALIAS_TABLE = "la table des fédérations et pays du classement"


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
        f"Fédération « {value} » inconnue de {ALIAS_TABLE} : "
        f"{' ; '.join(where)}. Elle est gardée telle qu'écrite : ces joueurs relèvent des "
        "quotas généraux (« * ») et n'ont pas de classement national."
    )


def _country_detail(value: str, tournaments: int) -> str:
    return (
        f"Pays « {value} » inconnu de {ALIAS_TABLE} : écrit "
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


# ---------------------------------------------------------------------------- names

# What UTF-8 letters read as Latin-1 or Windows-1252 begin with: `Ã` (é, è, à, ç, É…),
# `Â` (a no-break space, °, «), `â` (’, “, –, €).
_MOJIBAKE_START = "[ÃÂâ]"


def _written_name(last: str | None, first: str | None) -> str:
    """« NOM Prénom » as written (either may be missing)."""
    return " ".join(part for part in (last, first) if part)


def _repaired_word(word: str) -> str:
    text = word
    for _ in range(3):
        for legacy in ("cp1252", "latin-1"):
            try:
                decoded = text.encode(legacy).decode("utf-8")
            except UnicodeError:
                continue
            if decoded != text:
                text = decoded
                break
        else:
            break
    return text


def repaired_name(name: str) -> str | None:
    """The name a mis-encoded `name` stood for (`RÃ©gis` → `Régis`), else None: a word of
    it encoded back to Windows-1252 (or Latin-1) is valid UTF-8 and differs; repeated while
    it does (a name garbled twice). Word by word: `Lefèvre RÃ©gis` is `Lefèvre Régis`."""
    if not re.search(_MOJIBAKE_START, name):
        return None
    repaired = re.sub(r"[^ ]+", lambda m: _repaired_word(m.group()), name)
    return repaired if repaired != name else None


def _kept_names(players: pl.DataFrame, ids: set[str]) -> dict[str, str]:
    """« NOM Prénom » kept (`players`) of the players `ids` (those a note names)."""
    wanted = players.filter(pl.col("player_id").is_in(sorted(ids)))
    return {
        pid: _written_name(last, first)
        for pid, last, first in wanted.select("player_id", "last_name", "first_name").iter_rows()
    }


def _licences(ids: list[str]) -> str:
    shown = ", ".join(ids[:10]) + (f" et {len(ids) - 10} autres" if len(ids) > 10 else "")
    return f"{'la licence' if len(ids) == 1 else 'les licences'} {shown}"


def _mojibake_detail(
    name: str, repaired: str, rows: int, ids: list[str], kept: dict[str, str]
) -> str:
    kept_names = sorted({kept.get(pid, "") for pid in ids} - {""})
    if kept_names == [name]:
        keeps = "C'est le nom gardé (fiche joueur)"
    elif kept_names:
        keeps = "Le nom gardé (fiche joueur) est " + " ; ".join(f"« {k} »" for k in kept_names)
    else:
        keeps = "Aucun nom n'est gardé (fiche joueur)"
    return (
        f"Nom mal encodé « {name} », écrit dans {_plural(rows, 'ligne', 'lignes')} de "
        f"résultats de la saison pour {_licences(ids)} : un texte UTF-8 lu comme du Latin-1, "
        f"probablement « {repaired} ». {keeps}. Le nom est gardé tel qu'écrit : corrigez "
        "l'export (enregistré en UTF-8) puis reconstruisez."
    )


def _spellings_detail(pid: str, spellings: list[tuple[str, int]], kept: str | None) -> str:
    listed = " ; ".join(f"« {name} » ({_plural(n, 'ligne', 'lignes')})" for name, n in spellings)
    keeps = (
        f"Le nom gardé (fiche joueur, le dernier écrit) est « {kept} »."
        if kept
        else "Aucun nom n'est gardé (fiche joueur)."
    )
    return (
        f"La licence {pid} porte des noms différents dans les résultats de la saison : "
        f"{listed}. {keeps} S'il s'agit de deux personnes, une licence est erronée dans un "
        "export."
    )


def name_notes(season: str, results: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """The `data_quality_notes` rows of one season for the players' names: mis-encoded
    names (`mojibake_name`) and licences written under several names (`licence_spellings`).

    `results`: the season's results rows (`player_id, last_name, first_name` as written);
    `players`: `player_id, last_name, first_name` of the `players` table (the names kept)
    for the players with a result in the season. Sorted by notice, then subject."""
    written = (
        results.select(
            pl.col("player_id").cast(pl.String),
            pl.concat_str(
                [pl.col("last_name").fill_null(""), pl.col("first_name").fill_null("")],
                separator=" ",
            )
            .str.strip_chars()
            .alias("name"),
        )
        .filter(pl.col("name") != "")
        .group_by("player_id", "name")
        .agg(pl.len().cast(pl.Int64).alias("rows"))
        .sort("player_id", "name")
    )
    rows: list[dict[str, object]] = []
    suspects = written.filter(pl.col("name").str.contains(_MOJIBAKE_START))
    garbled: dict[str, tuple[str, int, list[str]]] = {}
    for pid, name, n in suspects.iter_rows():
        repaired = repaired_name(name)
        if repaired is not None:
            _, total, ids = garbled.get(name, (repaired, 0, []))
            garbled[name] = (repaired, total + n, [*ids, pid])
    keyed = written.with_columns(
        pl.col("name").str.to_lowercase().str.replace_all(r"\s+", " ").alias("_key")
    )
    several = keyed.filter(pl.col("_key").n_unique().over("player_id") > 1)
    named = {pid for _, _, ids in garbled.values() for pid in ids}
    kept = _kept_names(players, named | set(several["player_id"].to_list()))
    for name, (repaired, n, ids) in garbled.items():
        rows.append(
            {
                "notice": MOJIBAKE_NAME,
                "subject": name,
                "detail": _mojibake_detail(name, repaired, n, ids, kept),
                "rows": n,
            }
        )
    for (pid,), spellings in several.group_by("player_id", maintain_order=True):
        listed = [(str(name), int(n)) for name, n in spellings.select("name", "rows").iter_rows()]
        rows.append(
            {
                "notice": LICENCE_SPELLINGS,
                "subject": pid,
                "detail": _spellings_detail(str(pid), listed, kept.get(str(pid)) or None),
                "rows": sum(n for _, n in listed),
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
