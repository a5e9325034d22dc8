"""The two exports of the Belgian Mort Subite challenge (docs/exports.md, docs/rules.md §6).

- *mort subite players* (`mort_subite_players`): one row per player of a round's host
  tournament — or, for the season's final, per player of the season's challenge;
- *mort subite moves* (`mort_subite_moves`): one row per participant still in the game per
  move.

A round's players rows come from one file, its moves rows from one file (the same
workbook, one sheet each, or two CSV files; several rounds may share a file). The rows are
checked by the rule engine itself (`transforms.mort_subite.validate_challenge`, with the
parameters of `data/reference/mort_subite.yaml`) on every file not rejected so far: a
player who is not qualified, a move after a player's elimination, a round with no moves…
reject the file, with its row and column. A regular round's host tournament must have its
results loaded, and list the round's players; a player's empty series is taken from
those results (`with_host_series`), as the season's computation does.

The players rows are dated by the round's `date` (the season fingerprints); the moves rows
carry no date and the plugin API gives them no access to their round's: they are undated,
so a change in a moves file rebuilds every season.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping

import polars as pl

from pipelines.ingest.errors import CheckKind, empty_errors, error_rows, errors_at
from pipelines.ingest.kinds import KindPlugin
from pipelines.ingest.schema import Kind
from pipelines.reference.bundle import Parameters
from transforms.mort_subite.challenge import validate_challenge
from transforms.mort_subite.params import MOVES_EXPORT, PLAYERS_EXPORT
from transforms.mort_subite.rules import with_host_series

_STR = pl.String()
_INT = pl.Int64()
_DATE = pl.Date()

# French headers, normalised (`schema.normalise_header`), of either kind.
_COMMON_ALIASES = {
    "manche": "round_id",
    "id_manche": "round_id",
    "code_manche": "round_id",
    "licence": "player_id",
    "no_licence": "player_id",
    "numero_licence": "player_id",
    "joueur_id": "player_id",
}

PLAYERS = Kind(
    name="mort_subite_players",
    label="joueurs Mort Subite",
    required=("round_id", "date", "final", "player_id"),
    optional=("host_tournament_id", "host_rank", "series", "present"),
    dtypes={
        "round_id": _STR,
        "host_tournament_id": _STR,
        "date": _DATE,
        "final": _INT,
        "player_id": _STR,
        "host_rank": _INT,
        "series": _STR,
        "present": _INT,
    },
    signature=frozenset({"round_id", "host_tournament_id", "final", "host_rank", "present"}),
    aliases={
        **_COMMON_ALIASES,
        "tournoi_hote": "host_tournament_id",
        "id_tournoi_hote": "host_tournament_id",
        "code_tournoi_hote": "host_tournament_id",
        "date_manche": "date",
        "finale": "final",
        "rang_hote": "host_rank",
        "rang_tournoi": "host_rank",
        "rang_avant_derniere_manche": "host_rank",
        "serie": "series",
        "presence": "present",
    },
)

MOVES = Kind(
    name="mort_subite_moves",
    label="coups Mort Subite",
    required=("round_id", "move", "top", "player_id", "score"),
    optional=("warning", "penalty"),
    dtypes={
        "round_id": _STR,
        "move": _INT,
        "top": _INT,
        "player_id": _STR,
        "score": _INT,
        "warning": _INT,
        "penalty": _INT,
    },
    signature=frozenset({"round_id", "move", "top", "score", "warning"}),
    aliases={
        **_COMMON_ALIASES,
        "coup": "move",
        "no_coup": "move",
        "numero_coup": "move",
        "points": "score",
        "avertissement": "warning",
        "avertissements": "warning",
        "penalite": "penalty",
        "penalites": "penalty",
    },
)


def _owner_errors(typed: pl.DataFrame, what: str) -> pl.DataFrame:
    """A round's rows of one kind come from one file: every later file (by path) is
    rejected, naming the first."""
    keyed = typed.filter(pl.col("round_id").is_not_null())
    owner = pl.col("_file").min().over("round_id")
    return error_rows(
        keyed.with_columns(
            _owner=owner, _owner_where=pl.col("_where").sort_by("_file").first().over("round_id")
        ),
        (pl.col("_file") != pl.col("_owner"))
        & (pl.col("_row") == pl.col("_row").min().over(["_file", "round_id"])),
        "round_id",
        pl.format(
            "la manche {} a déjà ses {} dans {} : une manche doit figurer dans un seul fichier "
            "de {} (pour la corriger, remplacez ce fichier)",
            pl.col("round_id"),
            pl.lit(what),
            pl.col("_owner_where"),
            pl.lit(what),
        ),
        kind=CheckKind.FILES,
    )


def _host_errors(players: pl.DataFrame, results: pl.DataFrame) -> pl.DataFrame:
    """A regular round names its host tournament, whose results are loaded and list the
    round's players; no round is played before its host tournament ends."""
    regular = (pl.col("final") != 1).fill_null(True)
    hosts = results.group_by("tournament_id").agg(pl.col("end_date").max().alias("_end"))
    members = results.select("tournament_id", "player_id").unique().with_columns(_in=pl.lit(True))
    frame = players.join(
        hosts.rename({"tournament_id": "host_tournament_id"}), on="host_tournament_id", how="left"
    ).join(
        members.rename({"tournament_id": "host_tournament_id"}),
        on=["host_tournament_id", "player_id"],
        how="left",
    )
    known = pl.col("_end").is_not_null()
    return pl.concat(
        [
            error_rows(
                frame,
                regular & pl.col("host_tournament_id").is_null(),
                "host_tournament_id",
                pl.format(
                    "valeur vide : une manche ordinaire (final = 0) indique son tournoi hôte, "
                    "la manche {} n'en a pas",
                    pl.col("round_id"),
                ),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                frame,
                regular & pl.col("host_tournament_id").is_not_null() & ~known,
                "host_tournament_id",
                pl.format(
                    "le tournoi hôte {} de la manche {} n'a pas de résultats (son fichier de "
                    "résultats manque ou a été refusé)",
                    pl.col("host_tournament_id"),
                    pl.col("round_id"),
                ),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                frame,
                regular & known & pl.col("_in").is_null(),
                "player_id",
                pl.format(
                    "le joueur {} ne figure pas dans les résultats du tournoi hôte {} de la "
                    "manche {}",
                    pl.col("player_id"),
                    pl.col("host_tournament_id"),
                    pl.col("round_id"),
                ),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                frame,
                known & (pl.col("date") < pl.col("_end")),
                "date",
                pl.format(
                    "la manche {} ({}) a lieu avant la fin de son tournoi hôte {} ({})",
                    pl.col("round_id"),
                    pl.col("date"),
                    pl.col("host_tournament_id"),
                    pl.col("_end"),
                ),
                kind=CheckKind.VALUE,
            ),
        ]
    )


def _file_errors(accepted: Mapping[str, pl.DataFrame]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The errors of the players and of the moves files that need no rule engine."""
    players = accepted[PLAYERS.name]
    moves = accepted[MOVES.name]
    return (
        pl.concat(
            [
                _owner_errors(players, "joueurs"),
                _host_errors(players, accepted["results"]),
            ]
        ),
        _owner_errors(moves, "coups"),
    )


def _engine_errors(
    accepted: Mapping[str, pl.DataFrame],
    file_errors: tuple[pl.DataFrame, pl.DataFrame],
    params: Parameters,
) -> pl.DataFrame:
    """The rule engine's errors of the files without an error of their own, by file row:
    `export` (the engine's name of the kind) and the error columns."""
    players_bad, moves_bad = (set(e["_file"].to_list()) for e in file_errors)
    players = (
        accepted[PLAYERS.name]
        .filter(~pl.col("_file").is_in(sorted(players_bad)))
        .sort("_file", "_row")
    )
    moves = (
        accepted[MOVES.name].filter(~pl.col("_file").is_in(sorted(moves_bad))).sort("_file", "_row")
    )
    results = accepted["results"]
    hosts = players.get_column("host_tournament_id").drop_nulls().unique()
    # only the host tournaments' rows can match: the join is the same on far fewer rows
    series = with_host_series(
        players, results.filter(pl.col("tournament_id").is_in(hosts.implode()))
    )
    found = validate_challenge(series, moves, params.mort_subite, params.calendar)
    frames = []
    for export, rows in ((PLAYERS_EXPORT, players), (MOVES_EXPORT, moves)):
        located = rows.with_row_index("row_index")
        mine = found.filter(pl.col("export") == export)
        frames.append(
            errors_at(mine, located, "row_index", CheckKind.EVENT).select(
                pl.lit(export).alias("export"), pl.all()
            )
        )
    return pl.concat(frames)


# The last frames checked and their errors: the players' and the moves' checks of one
# pass of the ingest look at the same frames, and the rule engine runs once for both.
_last: list[tuple[tuple[weakref.ref[pl.DataFrame], ...], str, dict[str, pl.DataFrame]]] = []


def _all_errors(
    accepted: Mapping[str, pl.DataFrame], params: Parameters
) -> dict[str, pl.DataFrame]:
    """The errors of the players and of the moves files, by export name."""
    frames = (accepted[PLAYERS.name], accepted[MOVES.name], accepted["results"])
    if (
        _last
        and _last[0][1] == params.digest
        and all(ref() is frame for ref, frame in zip(_last[0][0], frames, strict=True))
    ):
        return _last[0][2]
    file_errors = _file_errors(accepted)
    engine = _engine_errors(accepted, file_errors, params)
    found = {}
    for export, own in ((PLAYERS_EXPORT, file_errors[0]), (MOVES_EXPORT, file_errors[1])):
        mine = engine.filter(pl.col("export") == export).drop("export")
        found[export] = pl.concat([empty_errors(), own, mine]).sort(
            "_file", "_row", "_check", "column", "message", nulls_last=True
        )
    _last[:] = [(tuple(weakref.ref(f) for f in frames), params.digest, found)]
    return found


def _errors_of(
    export: str, accepted: Mapping[str, pl.DataFrame], params: Parameters
) -> pl.DataFrame:
    return _all_errors(accepted, params)[export]


def players_checks(
    typed: pl.DataFrame, accepted: Mapping[str, pl.DataFrame], params: Parameters
) -> pl.DataFrame:
    """The errors of the players files (`typed` is `accepted`'s players rows)."""
    return _errors_of(PLAYERS_EXPORT, {**accepted, PLAYERS.name: typed}, params)


def moves_checks(
    typed: pl.DataFrame, accepted: Mapping[str, pl.DataFrame], params: Parameters
) -> pl.DataFrame:
    """The errors of the moves files (`typed` is `accepted`'s moves rows)."""
    return _errors_of(MOVES_EXPORT, {**accepted, MOVES.name: typed}, params)


PLUGINS = (
    KindPlugin(kind=PLAYERS, table="mort_subite_players", checks=players_checks, dated_by="date"),
    KindPlugin(
        kind=MOVES,
        table="mort_subite_moves",
        checks=moves_checks,
        dated_via=("round_id", "mort_subite_players"),
    ),
)
