"""The columns and headers of the simulated files, from the export schema.

`pipelines.ingest.schema` names each kind's columns (`RESULTS`, `GAMES`, `RATING_LIST`),
which of them describe the tournament (`TOURNAMENT_COLUMNS`), and the French headers it
reads, normalised (`ALIASES`). It fixes no order of the columns within a file and keeps
the French headers without their accents and capitals, so this module adds, once:

- the order of the columns in each kind of file: canonical results put the tournament
  first, French ones the player first (`RESULTS_CANONICAL`, `RESULTS_FRENCH`); games and
  rating lists follow the schema's own order, a rating list's columns shared with the
  results in the results' order first (`GAMES_COLUMNS`, `RATING_LIST_COLUMNS`);
- the French headers as organisers spell them (`FRENCH_LABELS`), each of which must be an
  alias of the schema: `FRENCH_HEADERS` groups them by the column the schema reads them as.

A file only holds the columns its data has, in these orders; a column without a French
header keeps its canonical name in a French file. The FFSc ranking's header is the one its
reader expects (`pipelines.ingest.formats.ffsc.HEADER`).
"""

from __future__ import annotations

from collections.abc import Sequence

from pipelines.ingest.formats import ffsc
from pipelines.ingest.schema import (
    ALIASES,
    GAMES,
    KINDS,
    RATING_LIST,
    RESULTS,
    TOURNAMENT_COLUMNS,
    canonical_column,
    normalise_header,
)

FFSC_HEADER = ffsc.HEADER


def columns_led_by(columns: Sequence[str], lead: Sequence[str]) -> tuple[str, ...]:
    """`columns` with `lead` first, in its order, then the others in their order; every
    column of `lead` must be one of `columns`."""
    unknown = [c for c in lead if c not in columns]
    if unknown:
        raise ValueError(f"not columns of the schema: {', '.join(unknown)}")
    return (*lead, *(c for c in columns if c not in lead))


# The results columns about the player and their result, in the schema's order.
_PLAYER_COLUMNS = tuple(c for c in RESULTS.columns if c not in TOURNAMENT_COLUMNS)
_NAME = ("rank", "player_id", "last_name", "first_name")

RESULTS_CANONICAL = TOURNAMENT_COLUMNS + columns_led_by(
    _PLAYER_COLUMNS, (*_NAME, "birth_year", "federation", "club", "series")
)
RESULTS_FRENCH = (
    columns_led_by(_PLAYER_COLUMNS, (*_NAME, "series", "club", "federation", "birth_year"))
    + TOURNAMENT_COLUMNS
)
GAMES_COLUMNS = GAMES.columns
RATING_LIST_COLUMNS = columns_led_by(
    RATING_LIST.columns, [c for c in RESULTS_CANONICAL if c in RATING_LIST.columns]
)

# fmt: off
FRENCH_LABELS = (
    "Code tournoi", "Id tournoi", "Nom du tournoi", "Tournoi", "Discipline",
    "Date de début", "Début", "Date de fin", "Fin", "Ville", "Lieu", "Pays", "Catégorie",
    "Nb parties", "Manches", "Parties", "Coef", "Coefficient", "Top", "Total top",
    "Fédération", "Fédé", "Club", "Série", "Année de naissance", "Naissance", "Score",
    "Points", "Victoires", "Écart", "Rang duplicate", "Place duplicate", "Licence",
    "N° licence", "Nom", "Prénom", "Rang", "Place", "Classement", "Ronde", "Tour",
    "Licence adversaire", "Adversaire", "Score joueur", "Score adversaire",
)
# fmt: on


def french_headers(labels: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The French labels of each canonical column, in the order given; every label must be
    an alias the schema reads as a column of one of its kinds."""
    known = {c for kind in KINDS for c in kind.columns}
    grouped: dict[str, list[str]] = {}
    for label in labels:
        column = canonical_column(label)
        if normalise_header(label) not in ALIASES or column not in known:
            raise ValueError(f"{label!r} is not a French header of the export schema")
        grouped.setdefault(column, []).append(label)
    return {column: tuple(group) for column, group in grouped.items()}


FRENCH_HEADERS = french_headers(FRENCH_LABELS)
