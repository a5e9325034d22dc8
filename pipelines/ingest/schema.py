"""The canonical export format: every kind of file, its columns and their types.

`docs/exports.md` documents this for tournament organisers; this module is the one place
the pipeline reads it from. The three base kinds (results, games, rating list) are here;
a rule family that reads a kind of its own declares it in a module of
`pipelines/ingest/kinds/` (its columns, the checks of its rows and the warehouse table
its rows go to), found by `pipelines.ingest.kinds.export_kinds()`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import polars as pl

DISCIPLINES = ("duplicate", "classique", "dcdl")


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one object a kind
class Kind:
    """One kind of export file: its name, its columns and their types."""

    name: str
    label: str  # how an organiser calls it, in messages (French: « fichier de {label} »)
    required: tuple[str, ...]
    optional: tuple[str, ...]
    dtypes: dict[str, pl.DataType]
    # Columns whose presence in a header row announces this kind (its best match wins).
    signature: frozenset[str] = frozenset()
    # Normalised header → canonical column; None: the organisers' French headers of the
    # base kinds (`ALIASES`). A kind of its own takes its own (often none: exact names).
    aliases: Mapping[str, str] | None = None

    @property
    def columns(self) -> tuple[str, ...]:
        return self.required + self.optional

    def canonical(self, header: str) -> str:
        """The column a header cell stands for in a file of this kind."""
        key = normalise_header(header)
        table = ALIASES if self.aliases is None else self.aliases
        return table.get(key, key)


_STR = pl.String()
_INT = pl.Int64()
_FLOAT = pl.Float64()
_DATE = pl.Date()

RESULTS = Kind(
    name="results",
    label="résultats",
    required=(
        "tournament_id",
        "tournament_name",
        "discipline",
        "end_date",
        "player_id",
        "last_name",
        "first_name",
        "rank",
    ),
    optional=(
        "start_date",
        "city",
        "country",
        "category",
        "games",
        "coefficient",
        "top_total",
        "federation",
        "club",
        "series",
        "birth_year",
        "score",
        "wins",
        "spread",
        "duplicate_rank",
        "bonus_m",
        "pj_min",
        "pj_max",
        "circuit",
        "withdrawn_after_round",
    ),
    signature=frozenset(
        {"rank", "tournament_name", "discipline", "last_name", "first_name", "end_date"}
    ),
    dtypes={
        "tournament_id": _STR,
        "tournament_name": _STR,
        "discipline": _STR,
        "end_date": _DATE,
        "player_id": _STR,
        "last_name": _STR,
        "first_name": _STR,
        "rank": _INT,
        "start_date": _DATE,
        "city": _STR,
        "country": _STR,
        "category": _STR,
        "games": _INT,
        "coefficient": _FLOAT,
        "top_total": _INT,
        "federation": _STR,
        "club": _STR,
        "series": _STR,
        "birth_year": _INT,
        "score": _INT,
        "wins": _FLOAT,
        "spread": _INT,
        "duplicate_rank": _INT,
        "bonus_m": _INT,
        "pj_min": _INT,
        "pj_max": _INT,
        "circuit": _STR,
        "withdrawn_after_round": _INT,
    },
)

GAMES = Kind(
    name="games",
    label="parties",
    required=(
        "tournament_id",
        "round",
        "player_id",
        "opponent_id",
        "player_score",
        "opponent_score",
    ),
    # Optional: who went first, and the player's result (1, 0.5, 0) where the export
    # states it (events recorded without scores state only that).
    optional=("first_player_id", "player_result"),
    signature=frozenset({"round", "opponent_id", "player_score", "opponent_score"}),
    dtypes={
        "tournament_id": _STR,
        "round": _INT,
        "player_id": _STR,
        "opponent_id": _STR,
        "player_score": _INT,
        "opponent_score": _INT,
        "first_player_id": _STR,
        "player_result": _FLOAT,
    },
)

RATING_LIST = Kind(
    name="rating_list",
    label="liste de classement",
    required=("player_id", "as_of"),
    # last_name, first_name, federation, club: a list may name its players and say their
    # federation and club (shown for those known only from it).
    optional=(
        "cote",
        "elo",
        "elo_games",
        "series",
        "last_name",
        "first_name",
        "federation",
        "club",
    ),
    signature=frozenset({"as_of", "cote", "elo", "elo_games"}),
    dtypes={
        "player_id": _STR,
        "as_of": _DATE,
        "cote": _INT,
        "elo": _FLOAT,
        "elo_games": _INT,
        "series": _STR,
        "last_name": _STR,
        "first_name": _STR,
        "federation": _STR,
        "club": _STR,
    },
)

KINDS: tuple[Kind, ...] = (RESULTS, GAMES, RATING_LIST)


# The series a federation published with its ranking (the FFSc export): not a kind an
# organiser writes, but loaded so our classification can be compared with the official one.
PUBLISHED_SERIES = Kind(
    name="published_series",
    label="classement publié",
    required=("player_id",),
    optional=(
        "last_name",
        "first_name",
        "place",
        "category",
        "series",
        "club",
        "points",
        "ps1",
        "ps2",
        "ps3",
        "pp4",
        "potential_series",
    ),
    dtypes={
        "player_id": _STR,
        "last_name": _STR,
        "first_name": _STR,
        "place": _INT,
        "category": _STR,
        "series": _STR,
        "club": _STR,
        "points": _FLOAT,
        "ps1": _FLOAT,
        "ps2": _FLOAT,
        "ps3": _FLOAT,
        "pp4": _FLOAT,
        "potential_series": _STR,
    },
)

# Columns that describe the tournament, repeated on each results row: they must agree
# within a tournament and go to the `tournaments` table.
TOURNAMENT_COLUMNS = (
    "tournament_id",
    "tournament_name",
    "discipline",
    "start_date",
    "end_date",
    "city",
    "country",
    "category",
    "games",
    "coefficient",
    "top_total",
    "bonus_m",
    "pj_min",
    "pj_max",
    "circuit",
)

# French headers used by organisers, normalised (lower case, no accents, spaces and
# dashes as underscores), mapped to the canonical column.
ALIASES: dict[str, str] = {
    "id_tournoi": "tournament_id",
    "tournoi_id": "tournament_id",
    "code_tournoi": "tournament_id",
    "tournoi": "tournament_name",
    "nom_tournoi": "tournament_name",
    "nom_du_tournoi": "tournament_name",
    "discipline": "discipline",
    "date_debut": "start_date",
    "debut": "start_date",
    "date_fin": "end_date",
    "fin": "end_date",
    "date": "end_date",
    "ville": "city",
    "lieu": "city",
    "pays": "country",
    "categorie": "category",
    "parties": "games",
    "nb_parties": "games",
    "manches": "games",
    "coef": "coefficient",
    "coefficient": "coefficient",
    "top": "top_total",
    "total_top": "top_total",
    "top_total": "top_total",
    "federation": "federation",
    "fede": "federation",
    "club": "club",
    "serie": "series",
    "annee_naissance": "birth_year",
    "naissance": "birth_year",
    "score": "score",
    "points": "score",
    "victoires": "wins",
    "ecart": "spread",
    "rang_duplicate": "duplicate_rank",
    "place_duplicate": "duplicate_rank",
    "licence": "player_id",
    "numero_licence": "player_id",
    "no_licence": "player_id",
    "joueur_id": "player_id",
    "nom": "last_name",
    "prenom": "first_name",
    "rang": "rank",
    "place": "rank",
    "classement": "rank",
    "ronde": "round",
    "tour": "round",
    "partie": "round",
    "adversaire": "opponent_id",
    "licence_adversaire": "opponent_id",
    "score_joueur": "player_score",
    "score_adversaire": "opponent_score",
    "date_liste": "as_of",
    "au": "as_of",
    "cote": "cote",
    "elo": "elo",
    "parties_elo": "elo_games",
}


@lru_cache(maxsize=65536)
def normalise_header(name: str) -> str:
    """`Prénom ` → `prenom`, `Date de fin` → `date_de_fin` (then aliases apply)."""
    text = unicodedata.normalize("NFKD", name.strip().lstrip("\ufeff"))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    out = []
    for c in text:
        out.append(c if c.isalnum() else "_")
    collapsed = "_".join(part for part in "".join(out).split("_") if part)
    collapsed = collapsed.replace("_de_", "_").replace("_du_", "_")
    if collapsed.startswith("n_") or collapsed.startswith("no_"):
        collapsed = "no_" + collapsed.split("_", 1)[1]
    return collapsed


@lru_cache(maxsize=4096)
def canonical_column(name: str) -> str:
    """The canonical column a header cell stands for (itself if it is not an alias)."""
    key = normalise_header(name)
    return ALIASES.get(key, key)
