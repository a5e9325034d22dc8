"""The game sheet (feuille de partie): one row per move of a duplicate master game.

Columns `tournament_id, game, move, rack, word, position, score` (docs/exports.md, «
game sheet »); the accepted rows go to the base table `game_sheets`, which the audit
(`transforms.scoring`, asset `game_sheet_audit`) replays.

What rejects a file and what is left to the audit: a file is rejected when it cannot be
read as the master games of one of our duplicate tournaments — a required cell left empty,
a number that is not a whole number (both from the typing), a game or move number below 1,
a move listed twice, a game whose sheet is already in another file, a tournament without
accepted results or not duplicate, a game number above the tournament's `games`. What a
move *says* — an unreadable or off-board position, a word that is not letters, a rack with
other characters, a placement the rules forbid, a stated score that differs from the
computed one, tops that do not add up to `top_total`, a missing move number — is a finding
of the audit, which the committee must see: the sheet loads and the audit reports it.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from pipelines.ingest.errors import CheckKind, empty_errors, error_rows
from pipelines.ingest.kinds import KindPlugin
from pipelines.ingest.schema import Kind
from pipelines.paths import REFERENCE_DIR
from pipelines.reference.bundle import Parameters
from pipelines.reference.scoring import load_scoring_params
from transforms.scoring import ScoringParams

GAME_SHEET = Kind(
    name="game_sheet",
    label="feuilles de partie",
    required=("tournament_id", "game", "move", "word", "position"),
    optional=("rack", "score"),
    dtypes={
        "tournament_id": pl.String(),
        "game": pl.Int64(),
        "move": pl.Int64(),
        "rack": pl.String(),
        "word": pl.String(),
        "position": pl.String(),
        "score": pl.Int64(),
    },
    signature=frozenset({"game", "move", "rack", "word", "position"}),
    # The arbiters' French headers, normalised (`pipelines.ingest.schema.normalise_header`);
    # the canonical names are read as themselves.
    aliases={
        "id_tournoi": "tournament_id",
        "tournoi_id": "tournament_id",
        "code_tournoi": "tournament_id",
        "manche": "game",
        "no_manche": "game",
        "partie": "game",
        "no_partie": "game",
        "coup": "move",
        "no_coup": "move",
        "tirage": "rack",
        "mot": "word",
        "solution": "word",
        "ref": "position",
        "reference": "position",
        "coordonnees": "position",
        "points": "score",
    },
)

TABLE = "game_sheets"
# The columns of a sheet in the order of the issue and of docs/exports.md.
SHEET_COLUMNS = ("tournament_id", "game", "move", "rack", "word", "position", "score")
_GAME = ["tournament_id", "game"]


def variant_errors(typed: pl.DataFrame, scoring: ScoringParams) -> pl.DataFrame:
    """A rack of 8 or 9 tiles (`scoring.variant_rack_sizes`) is a variant game of FISF
    §3.8.2 (« 7 sur 8 », « 7 et 8 », « 7, 8 et 9 »), whose bonuses are not those of
    docs/rules.md §7: the sheet is refused rather than scored with the wrong bonus."""
    if "rack" not in typed.columns or not scoring.variant_rack_sizes:
        return empty_errors()
    tiles = pl.col("rack").str.count_matches(r"[\p{L}?]")
    return error_rows(
        typed,
        tiles.is_in(list(scoring.variant_rack_sizes)),
        "rack",
        pl.format(
            "le tirage {} compte {} lettres : c'est une partie à {} lettres, formule originale "
            "de la FISF (« 7 sur 8 », « 7 et 8 », « 7, 8 et 9 », règlement du duplicate §3.8.2) "
            "dont les primes diffèrent ; ces parties ne sont pas prises en charge, la feuille "
            "est refusée plutôt que calculée avec une mauvaise prime",
            pl.col("rack").str.strip_chars(),
            tiles,
            tiles,
        ),
        kind=CheckKind.VALUE,
    )


def sheet_errors(typed: pl.DataFrame, scoring: ScoringParams | None = None) -> pl.DataFrame:
    """The checks a sheet passes on its own (`classement score` runs these too): game and
    move numbers from 1, each move of a game once, no rack of a variant game (FISF §3.8.2;
    `scoring` the parameters of the build, those of `data/reference/` when not given)."""
    if scoring is None:
        scoring = load_scoring_params(REFERENCE_DIR)
    keyed = typed.filter(
        pl.col("tournament_id").is_not_null()
        & pl.col("game").is_not_null()
        & pl.col("move").is_not_null()
    )
    first = pl.col("_row").min().over(["_file", *_GAME, "move"])
    return pl.concat(
        [
            error_rows(
                typed,
                pl.col("game") < 1,
                "game",
                pl.format("la manche {} n'est pas un numéro de manche (1 ou plus)", pl.col("game")),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                typed,
                pl.col("move") < 1,
                "move",
                pl.format("le coup {} n'est pas un numéro de coup (1 ou plus)", pl.col("move")),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                keyed,
                pl.col("_row") > first,
                "move",
                pl.format(
                    "le coup {} de la manche {} du tournoi {} figure déjà à la ligne {} : "
                    "chaque coup d'une manche ne doit figurer qu'une fois",
                    pl.col("move"),
                    pl.col("game"),
                    pl.col("tournament_id"),
                    first,
                ),
                kind=CheckKind.ROWS,
            ),
            variant_errors(typed, scoring),
        ]
    )


def owner_errors(typed: pl.DataFrame) -> pl.DataFrame:
    """A game of a tournament must come from one file: every later file (by path) is
    rejected, naming the first (a tournament's games may come in several files)."""
    keyed = typed.filter(pl.col("tournament_id").is_not_null() & pl.col("game").is_not_null())
    return error_rows(
        keyed.with_columns(
            _owner=pl.col("_file").min().over(_GAME),
            _owner_where=pl.col("_where").sort_by("_file").first().over(_GAME),
        ),
        (pl.col("_file") != pl.col("_owner"))
        & (pl.col("_row") == pl.col("_row").min().over(["_file", *_GAME])),
        "game",
        pl.format(
            "la manche {} du tournoi {} a déjà sa feuille de partie dans {} : une manche "
            "doit figurer dans un seul fichier (pour la corriger, remplacez ce fichier)",
            pl.col("game"),
            pl.col("tournament_id"),
            pl.col("_owner_where"),
        ),
        kind=CheckKind.FILES,
    )


def results_errors(typed: pl.DataFrame, results: pl.DataFrame) -> pl.DataFrame:
    """Checks against the accepted results: the tournament has results, is a duplicate
    one, and holds the game (`games`, when stated)."""
    events = (
        results.filter(pl.col("tournament_id").is_not_null())
        .group_by("tournament_id")
        .agg(
            pl.col("discipline").drop_nulls().first().alias("_discipline"),
            pl.col("games").drop_nulls().first().alias("_games"),
            pl.lit(True).alias("_known"),
        )
    )
    joined = typed.join(events, on="tournament_id", how="left")
    known = pl.col("_known").fill_null(False)
    return pl.concat(
        [
            error_rows(
                joined,
                pl.col("tournament_id").is_not_null() & ~known,
                "tournament_id",
                pl.format(
                    "le tournoi {} n'a pas de résultats (son fichier de résultats manque ou a "
                    "été refusé)",
                    pl.col("tournament_id"),
                ),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                joined,
                known & (pl.col("_discipline") != "duplicate"),
                "tournament_id",
                pl.format(
                    "le tournoi {} est un tournoi de {}, pas de duplicate : une feuille de "
                    "partie est la partie maîtresse d'une manche de duplicate",
                    pl.col("tournament_id"),
                    pl.col("_discipline"),
                ),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                joined,
                known & (pl.col("game") > pl.col("_games")),
                "game",
                pl.format(
                    "la manche {} n'existe pas : le tournoi {} compte {} manche(s) selon ses "
                    "résultats (colonne « games »)",
                    pl.col("game"),
                    pl.col("tournament_id"),
                    pl.col("_games"),
                ),
                kind=CheckKind.VALUE,
            ),
        ]
    )


def checks(
    typed: pl.DataFrame, accepted: Mapping[str, pl.DataFrame], params: Parameters
) -> pl.DataFrame:
    """Every check of the game sheets beyond their types (`KindPlugin.checks`)."""
    if typed.height == 0:
        return empty_errors()
    return pl.concat(
        [
            sheet_errors(typed, params.scoring),
            owner_errors(typed),
            results_errors(typed, accepted["results"]),
        ]
    )


def assemble(typed: pl.DataFrame) -> pl.DataFrame:
    """The `game_sheets` rows: by tournament, game and move, the file they came from."""
    return typed.sort("tournament_id", "game", "move", "_file", "_row").select(
        *SHEET_COLUMNS, pl.col("_file").alias("source_file")
    )


PLUGINS = (KindPlugin(kind=GAME_SHEET, table=TABLE, checks=checks, assemble=assemble),)
