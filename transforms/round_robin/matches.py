"""The matches export (one row per player per match): its columns and `matches_errors`, the
French messages of a match given from one side only, a contradiction, a player twice in a
round, a pair meeting twice or two matches at one table.
"""

from __future__ import annotations

import polars as pl

from transforms.round_robin.params import ERROR_SCHEMA
from transforms.tables import table

# The columns of the matches export, declared by its table: the optional ones, the others.
OPTIONAL_MATCH_COLUMNS = ("player_top_moves", "player_points_scored")
MATCH_COLUMNS = tuple(c for c in table("matches").export_schema if c not in OPTIONAL_MATCH_COLUMNS)
WITHDRAWAL_COLUMN = "withdrawn_after_round"


def _label(frame: pl.DataFrame) -> pl.Expr:
    """The row number an organiser sees: `_row` when the ingest gives it, else position + 1."""
    return pl.col("_row") if "_row" in frame.columns else pl.col("row") + 1


def matches_errors(matches: pl.DataFrame, *, duplicate_match: bool = False) -> pl.DataFrame:
    """Checks of a typed matches export (any number of tournaments; grouped by `_file` too
    when the ingest gives it): error rows `row` (0-based position in `matches`; null for a
    missing column), `column`, `message` (French, naming the row as `_row` or, without it,
    as position + 1), sorted by row then column. Empty when the export is consistent.

    `duplicate_match`: moves at the top may not exceed the moves scored (Grand Est)."""
    missing = [c for c in MATCH_COLUMNS if c not in matches.columns]
    if missing:
        return pl.DataFrame(
            {
                "row": [None] * len(missing),
                "column": missing,
                "message": [f"colonne obligatoire « {c} » absente des matchs" for c in missing],
            },
            schema=ERROR_SCHEMA,
        )
    scope = ["_file"] if "_file" in matches.columns else []
    frame = matches.with_row_index("row").with_columns(
        pl.col("row").cast(pl.Int64),
        pl.col("player_id").cast(pl.String),
        pl.col("opponent_id").cast(pl.String),
        pl.col("tournament_id").cast(pl.String),
    )
    frame = frame.with_columns(_label=_label(frame))
    errors: list[pl.DataFrame] = []

    def add(sub: pl.DataFrame, mask: pl.Expr, column: str, message: pl.Expr) -> None:
        errors.append(
            sub.with_columns(_mask=mask.fill_null(False), _message=message.cast(pl.String))
            .filter(pl.col("_mask"))
            .select("row", pl.lit(column).alias("column"), pl.col("_message").alias("message"))
        )

    for c in MATCH_COLUMNS:
        add(
            frame,
            pl.col(c).is_null(),
            c,
            pl.format("valeur manquante : « {} » est obligatoire", pl.lit(c)),
        )
    floors = {"round": 1, "table": 1, "player_moves": 0, "opponent_moves": 0}
    floors.update({c: 0 for c in OPTIONAL_MATCH_COLUMNS if c in frame.columns})
    for c, floor in floors.items():
        what = "un numéro (1 ou plus)" if floor else "un nombre de coups (0 ou plus)"
        add(frame, pl.col(c) < floor, c, pl.format("{} n'est pas {}", pl.col(c), pl.lit(what)))
    add(
        frame,
        pl.col("player_id") == pl.col("opponent_id"),
        "opponent_id",
        pl.format("le joueur {} ne peut pas jouer contre lui-même", pl.col("player_id")),
    )
    if duplicate_match and "player_top_moves" in frame.columns:
        add(
            frame,
            pl.col("player_top_moves") > pl.col("player_moves"),
            "player_top_moves",
            pl.format(
                "{} coups au top pour {} coups marqués : en duplicate-match, un coup joué au "
                "top est un coup marqué",
                pl.col("player_top_moves"),
                pl.col("player_moves"),
            ),
        )

    keyed = frame.drop_nulls(["tournament_id", "round", "player_id", "opponent_id"]).filter(
        pl.col("player_id") != pl.col("opponent_id")
    )
    seat = [*scope, "tournament_id", "round", "player_id"]
    first = pl.col("_label").sort_by("row").first()
    add(
        keyed,
        pl.col("row") > pl.col("row").min().over(seat),
        "player_id",
        pl.format(
            "le joueur {} a déjà un match à la ronde {} du tournoi {} (ligne {})",
            pl.col("player_id"),
            pl.col("round"),
            pl.col("tournament_id"),
            first.over(seat),
        ),
    )
    pair = [*scope, "tournament_id", "player_id", "opponent_id"]
    first_round = pl.col("round").sort_by("row").first().over(pair)
    add(
        keyed,
        pl.col("round") != first_round,
        "round",
        pl.format(
            "{} et {} se sont déjà rencontrés à la ronde {} (ligne {}) : un tournoi toutes "
            "rondes ne les oppose qu'une fois",
            pl.col("player_id"),
            pl.col("opponent_id"),
            first_round,
            first.over(pair),
        ),
    )
    at_table = [*scope, "tournament_id", "round", "table"]
    lo = pl.min_horizontal("player_id", "opponent_id")
    hi = pl.max_horizontal("player_id", "opponent_id")
    tabled = keyed.drop_nulls("table").with_columns(_pair=pl.concat_str([lo, hi], separator="–"))
    first_pair = pl.col("_pair").sort_by("row").first().over(at_table)
    add(
        tabled,
        pl.col("_pair") != first_pair,
        "table",
        pl.format(
            "la table {} de la ronde {} accueille déjà le match {} (ligne {})",
            pl.col("table"),
            pl.col("round"),
            first_pair,
            first.over(at_table),
        ),
    )

    mirror_keys = [*scope, "tournament_id", "round", "player_id", "opponent_id"]
    mirrors = (
        keyed.sort("row")
        .unique(mirror_keys, keep="first", maintain_order=True)
        .select(
            *scope,
            "tournament_id",
            "round",
            pl.col("opponent_id").alias("player_id"),
            pl.col("player_id").alias("opponent_id"),
            pl.col("row").alias("_m_row"),
            pl.col("_label").alias("_m_label"),
            pl.col("table").alias("_m_table"),
            pl.col("player_moves").alias("_m_player_moves"),
            pl.col("opponent_moves").alias("_m_opponent_moves"),
        )
    )
    paired = keyed.join(mirrors, on=mirror_keys, how="left")
    add(
        paired,
        pl.col("_m_row").is_null(),
        "opponent_id",
        pl.format(
            "le match de la ronde {} entre {} et {} n'est donné que du côté de {} : il manque "
            "la ligne de {} contre {}",
            pl.col("round"),
            pl.col("player_id"),
            pl.col("opponent_id"),
            pl.col("player_id"),
            pl.col("opponent_id"),
            pl.col("player_id"),
        ),
    )
    later = paired.filter(pl.col("_m_row").is_not_null() & (pl.col("row") > pl.col("_m_row")))
    same_match = pl.format(
        "la ligne {} ({} contre {}, ronde {})",
        pl.col("_m_label"),
        pl.col("opponent_id"),
        pl.col("player_id"),
        pl.col("round"),
    )
    add(
        later,
        pl.col("table") != pl.col("_m_table"),
        "table",
        pl.format(
            "table {} ici, mais table {} pour le même match à {}",
            pl.col("table"),
            pl.col("_m_table"),
            same_match,
        ),
    )
    for column, mirrored, whose in (
        ("player_moves", "_m_opponent_moves", "player_id"),
        ("opponent_moves", "_m_player_moves", "opponent_id"),
    ):
        add(
            later,
            pl.col(column) != pl.col(mirrored),
            column,
            pl.format(
                "{} gagne {} coups ici, mais {} d'après {}",
                pl.col(whose),
                pl.col(column),
                pl.col(mirrored),
                same_match,
            ),
        )
    return pl.concat(errors).cast(ERROR_SCHEMA).sort("row", "column", nulls_last=True)
