"""The three kinds of the regional circuits' exports: their columns (their tables'), which a
file may leave out, how a header row announces them and the French headers they read.
"""

from __future__ import annotations

import polars as pl

from pipelines.ingest.schema import Kind
from transforms.circuits import CALENDAR_COLUMNS
from transforms.round_robin.matches import MATCH_COLUMNS, OPTIONAL_MATCH_COLUMNS
from transforms.tables import table

_STR = pl.String()
_INT = pl.Int64()
_DATE = pl.Date()

# Each kind's columns and types are its table's (`transforms.tables`); the kind says which
# of them a file may leave out.
_CALENDAR_OPTIONAL = ("announced_on", "tournament_id")
_RANKING_OPTIONAL = ("points",)
_RANKING_COLUMNS = table("published_circuit_rankings").export_schema

CIRCUIT_CALENDAR = Kind(
    name="circuit_calendar",
    label="calendrier de circuit",
    required=tuple(c for c in CALENDAR_COLUMNS if c not in _CALENDAR_OPTIONAL),
    optional=_CALENDAR_OPTIONAL,
    dtypes=table("circuit_calendar").export_schema,
    signature=frozenset({"circuit", "event_key", "year", "announced_on", "status"}),
    aliases={
        "tournoi_recurrent": "event_key",
        "evenement": "event_key",
        "annee": "year",
        "date_edition": "date",
        "annonce_le": "announced_on",
        "date_annonce": "announced_on",
        "statut": "status",
        "id_tournoi": "tournament_id",
        "code_tournoi": "tournament_id",
    },
)

CIRCUIT_RANKING = Kind(
    name="circuit_ranking",
    label="classement de circuit",
    required=tuple(c for c in _RANKING_COLUMNS if c not in _RANKING_OPTIONAL),
    optional=_RANKING_OPTIONAL,
    dtypes=_RANKING_COLUMNS,
    signature=frozenset({"circuit", "place", "points"}),
    aliases={
        "date_classement": "as_of",
        "au": "as_of",
        "licence": "player_id",
        "no_licence": "player_id",
        "numero_licence": "player_id",
        "rang": "place",
        "classement": "place",
    },
)

MATCHES = Kind(
    name="matches",
    label="matchs",
    required=MATCH_COLUMNS,
    optional=OPTIONAL_MATCH_COLUMNS,
    dtypes=table("matches").export_schema,
    signature=frozenset({"round", "table", "opponent_id", "player_moves", "opponent_moves"}),
    aliases={
        "id_tournoi": "tournament_id",
        "code_tournoi": "tournament_id",
        "ronde": "round",
        "match": "round",
        "licence": "player_id",
        "adversaire": "opponent_id",
        "licence_adversaire": "opponent_id",
        "coups_joueur": "player_moves",
        "coups_adversaire": "opponent_moves",
        "coups_au_top": "player_top_moves",
        "points_marques": "player_points_scored",
    },
)
