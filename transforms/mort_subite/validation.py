"""The checks of the two exports (*mort subite players*, *mort subite moves*): one error row
per offending row (`export, round_id, row_index, column, message`, in French), before and
after the qualification of each round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from transforms.calendar import SeasonCalendar
from transforms.mort_subite.params import MOVES_EXPORT, PENALTY, PLAYERS_EXPORT
from transforms.mort_subite.rules import _error, _rounds


def _row_errors(
    frame: pl.DataFrame, export: str, mask: pl.Expr, column: str, message: pl.Expr
) -> list[dict[str, Any]]:
    if frame.is_empty():  # most seasons have no Mort Subite export: no query to run
        return []
    return (
        frame.with_columns(mask.fill_null(False).alias("_bad"), message.alias("_message"))
        .filter(pl.col("_bad"))
        .select(
            pl.lit(export).alias("export"),
            "round_id",
            "row_index",
            pl.lit(column).alias("column"),
            pl.col("_message").alias("message"),
        )
        .to_dicts()
    )


def _missing(frame: pl.DataFrame, export: str, columns: Sequence[str]) -> list[dict[str, Any]]:
    errors: list[dict[str, Any]] = []
    for column in columns:
        errors += _row_errors(
            frame,
            export,
            pl.col(column).is_null(),
            column,
            pl.lit(f"valeur manquante : chaque ligne de l'export {export} indique {column}"),
        )
    return errors


def _players_errors(p: pl.DataFrame, calendar: SeasonCalendar) -> list[dict[str, Any]]:
    """Checks of the players export that need no qualification."""
    errors = _missing(p, PLAYERS_EXPORT, ("round_id", "player_id", "date", "final"))
    errors += _row_errors(
        p,
        PLAYERS_EXPORT,
        pl.col("final").is_not_null() & ~pl.col("final").is_in([0, 1]),
        "final",
        pl.format("final : 0 ou 1 attendu, pas {}", pl.col("final")),
    )
    errors += _row_errors(
        p,
        PLAYERS_EXPORT,
        pl.col("present").is_not_null() & ~pl.col("present").is_in([0, 1]),
        "present",
        pl.format("present : 1 ou vide attendu, pas {}", pl.col("present")),
    )
    errors += _row_errors(
        p,
        PLAYERS_EXPORT,
        ~pl.col("is_final") & pl.col("host_rank").is_null(),
        "host_rank",
        pl.format(
            "valeur manquante : le joueur {} n'a pas de rang dans le tournoi hôte de la manche {}",
            pl.col("player_id"),
            pl.col("round_id"),
        ),
    )
    errors += _row_errors(
        p,
        PLAYERS_EXPORT,
        pl.col("host_rank") < 1,
        "host_rank",
        pl.format("le rang {} doit être un entier à partir de 1", pl.col("host_rank")),
    )
    keyed = pl.col("round_id").is_not_null() & pl.col("player_id").is_not_null()
    errors += _row_errors(
        p,
        PLAYERS_EXPORT,
        keyed & (pl.col("row_index").rank("ordinal").over("round_id", "player_id") > 1),
        "player_id",
        pl.format(
            "le joueur {} figure plus d'une fois dans la manche {}",
            pl.col("player_id"),
            pl.col("round_id"),
        ),
    )
    for column in ("host_tournament_id", "date", "final"):
        first = pl.col(column).sort_by("row_index").first().over("round_id")
        errors += _row_errors(
            p,
            PLAYERS_EXPORT,
            pl.col("round_id").is_not_null() & (pl.col(column).ne_missing(first)),
            column,
            pl.format(
                "la manche {} a une autre valeur de {} sur sa première ligne ({}) : une "
                "manche n'a qu'un tournoi hôte, une date et un type",
                pl.col("round_id"),
                pl.lit(column),
                first.cast(pl.String).fill_null("vide"),
            ),
        )
    rounds = _rounds(p.filter(pl.col("round_id").is_not_null()), calendar).filter(
        pl.col("date").is_not_null()
    )
    finals = rounds.filter(pl.col("is_final")).sort("date", "round_id")
    first_final: dict[str, dict[str, Any]] = {}
    for f in finals.iter_rows(named=True):
        if f["season"] in first_final:
            other = first_final[f["season"]]
            errors.append(
                _error(
                    PLAYERS_EXPORT,
                    f["round_id"],
                    f["first_row"],
                    "final",
                    f"la saison {f['season']} a déjà une finale (manche {other['round_id']}) : "
                    f"la manche {f['round_id']} ne peut pas en être une autre",
                )
            )
        else:
            first_final[f["season"]] = f
    for r in rounds.filter(~pl.col("is_final")).iter_rows(named=True):
        final = first_final.get(r["season"])
        if final is not None and r["date"] > final["date"]:
            errors.append(
                _error(
                    PLAYERS_EXPORT,
                    r["round_id"],
                    r["first_row"],
                    "date",
                    f"la manche {r['round_id']} ({r['date']}) a lieu après la finale "
                    f"{final['round_id']} ({final['date']}) de la saison {r['season']}",
                )
            )
    return errors


def _moves_errors(m: pl.DataFrame, round_ids: set[str]) -> list[dict[str, Any]]:
    """Checks of the moves export that need no qualification nor play."""
    errors = _missing(m, MOVES_EXPORT, ("round_id", "move", "top", "player_id", "score"))
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        pl.col("round_id").is_not_null() & ~pl.col("round_id").is_in(sorted(round_ids)),
        "round_id",
        pl.format(
            "la manche {} n'a aucune ligne dans l'export des joueurs (son fichier de joueurs "
            "manque ou a été refusé)",
            pl.col("round_id"),
        ),
    )
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        pl.col("move") < 1,
        "move",
        pl.format("le coup {} : les coups se numérotent à partir de 1", pl.col("move")),
    )
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        pl.col("warning").is_not_null() & ~pl.col("warning").is_in([0, 1, 2]),
        "warning",
        pl.format(
            "warning : 0, 1 ou 2 avertissements attendus (vide : 0), pas {} — un joueur ne "
            "reçoit qu'un avertissement par coup, plus au besoin un avertissement "
            "disciplinaire (FISF §5.8)",
            pl.col("warning"),
        ),
    )
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        pl.col(PENALTY) < 0,
        PENALTY,
        pl.format(
            "penalty : {} n'est pas un nombre de points retirés au coup (entier à partir de 0, "
            "vide : 0)",
            pl.col(PENALTY),
        ),
    )
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        (pl.col("warning") == 2) & (pl.col(PENALTY) > 0),
        PENALTY,
        pl.format(
            "le joueur {} a 2 avertissements et une pénalité au coup {} : un avertissement "
            "ne se cumule pas avec une pénalité, seul l'avertissement disciplinaire s'y "
            "ajoute (FISF §5.8)",
            pl.col("player_id"),
            pl.col("move"),
        ),
    )
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        pl.col("score") < 0,
        "score",
        pl.format("le score {} est négatif", pl.col("score")),
    )
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        pl.col("score") > pl.col("top"),
        "score",
        pl.format(
            "le score {} dépasse le top {} du coup {}",
            pl.col("score"),
            pl.col("top"),
            pl.col("move"),
        ),
    )
    keyed = pl.col("round_id").is_not_null() & pl.col("move").is_not_null()
    first_top = pl.col("top").sort_by("row_index").first().over("round_id", "move")
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        keyed & pl.col("top").ne_missing(first_top),
        "top",
        pl.format(
            "le top du coup {} de la manche {} vaut {} sur sa première ligne : un coup n'a "
            "qu'un top",
            pl.col("move"),
            pl.col("round_id"),
            first_top.cast(pl.String).fill_null("vide"),
        ),
    )
    errors += _row_errors(
        m,
        MOVES_EXPORT,
        keyed
        & pl.col("player_id").is_not_null()
        & (pl.col("row_index").rank("ordinal").over("round_id", "move", "player_id") > 1),
        "player_id",
        pl.format(
            "le joueur {} a plus d'une ligne pour le coup {} de la manche {}",
            pl.col("player_id"),
            pl.col("move"),
            pl.col("round_id"),
        ),
    )
    return errors


def _round_errors(
    p: pl.DataFrame,
    m: pl.DataFrame,
    qualified: pl.DataFrame,
    rounds: pl.DataFrame,
) -> list[dict[str, Any]]:
    """Checks that need the qualification: presence, participants and moves of each round."""
    entered = p.join(
        qualified.select("round_id", "player_id", "host_rank", pl.lit(True).alias("_q")),
        on=["round_id", "player_id"],
        how="left",
        suffix="_q",
    )
    errors = _row_errors(
        entered,
        PLAYERS_EXPORT,
        pl.col("is_present") & pl.col("_q").is_null(),
        "present",
        pl.format(
            "le joueur {} est marqué présent mais n'est pas qualifié pour la manche {}",
            pl.col("player_id"),
            pl.col("round_id"),
        ),
    )
    participants = (
        entered.filter(pl.col("is_present") & pl.col("_q").is_not_null())
        .group_by("round_id")
        .agg(pl.len().alias("n"))
    )
    with_moves = set(m["round_id"].drop_nulls().to_list())
    counts = dict(participants.iter_rows())
    for r in rounds.iter_rows(named=True):
        n = counts.get(r["round_id"], 0)
        if r["round_id"] not in with_moves:
            errors.append(
                _error(
                    PLAYERS_EXPORT,
                    r["round_id"],
                    r["first_row"],
                    "round_id",
                    f"la manche {r['round_id']} n'a aucun coup dans l'export des coups",
                )
            )
        if n < 2:
            errors.append(
                _error(
                    PLAYERS_EXPORT,
                    r["round_id"],
                    r["first_row"],
                    "present",
                    f"la manche {r['round_id']} a {n} joueur(s) qualifié(s) présent(s) : "
                    "il en faut deux au moins",
                )
            )
    return errors


def _summary(errors: pl.DataFrame, limit: int = 5) -> str:
    lines = [
        f"{e['export']}, ligne de données n° {e['row_index'] + 1}, colonne {e['column']} : "
        f"{e['message']}"
        for e in errors.head(limit).iter_rows(named=True)
    ]
    more = errors.height - limit
    if more > 0:
        lines.append(f"… et {more} autre(s) erreur(s)")
    return "\n".join(lines)
