"""The bounds of what an export may hold beyond its types: a value no tournament can produce
is refused with its file, row, column and the bound it breaks (docs/exports.md « Impossible
values »), never loaded in silence.

- a results `score` lies between 0 and the tournament's `top_total` (when stated), and a
  `top_total` is never negative (`score_errors`, each file alone);
- a game's `player_score` and `opponent_score` are never negative (`game_score_errors`,
  each file alone; a bye's score is a bookkeeping code of the tournament software, kept
  as written);
- a rating list's `cote` lies within the bounds of `cote.yaml` (`cote_errors`, under the
  rule parameters);
- no date of an export is later than the build's reference date (`late_date_errors`:
  `--as-of`, today by default), but a calendar's planned date of an edition still
  announced or cancelled.

The last two depend on the build (its parameters, its date): they run with the checks
across files (`batch.assemble`) on every build, never kept in the ingest's cache.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import polars as pl

from pipelines.ingest.errors import CheckKind, empty_errors, error_rows
from pipelines.ingest.schema import Kind
from pipelines.reference.classique import CoteBounds

# The words of a refusal for a date after the reference date (the no-change fast path of
# `pipelines.build` looks for them: a later reference date may accept such a file).
LATE_DATE = "postérieure à la date de référence"


def score_errors(results: pl.DataFrame) -> pl.DataFrame:
    """A results score below 0 or above its tournament's total of tops; a negative total."""
    score, top = pl.col("score"), pl.col("top_total")
    return pl.concat(
        [
            error_rows(
                results,
                top < 0,
                "top_total",
                pl.format(
                    "le total des tops {} est négatif : c'est la somme des tops des parties "
                    "du tournoi (0 ou plus)",
                    top,
                ),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                results,
                (score < 0) & top.is_not_null() & (top >= 0),
                "score",
                pl.format(
                    "le score {} est hors des bornes : un score va de 0 au total des tops du "
                    "tournoi ({})",
                    score,
                    top,
                ),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                results,
                (score < 0) & top.is_null(),
                "score",
                pl.format("le score {} est négatif : un score vaut 0 ou plus", score),
                kind=CheckKind.VALUE,
            ),
            error_rows(
                results,
                (score > top) & (top >= 0),
                "score",
                pl.format(
                    "le score {} dépasse le total des tops du tournoi ({}) : un score va de 0 "
                    "au total des tops",
                    score,
                    top,
                ),
                kind=CheckKind.VALUE,
            ),
        ]
    )


def game_score_errors(games: pl.DataFrame) -> pl.DataFrame:
    """A game's score below 0 (a bye, without opponent, is left as written)."""
    played = pl.col("opponent_id").is_not_null()
    return pl.concat(
        [
            error_rows(
                games,
                played & (pl.col(column) < 0),
                column,
                pl.format(
                    "le score {} est négatif : un score de partie vaut 0 ou plus",
                    pl.col(column),
                ),
                kind=CheckKind.VALUE,
            )
            for column in ("player_score", "opponent_score")
        ]
    )


def cote_errors(ratings: pl.DataFrame, bounds: CoteBounds) -> pl.DataFrame:
    """A rating list's cote outside `bounds` (`cote.yaml`, `bounds`)."""
    cote = pl.col("cote")
    return error_rows(
        ratings,
        (cote < bounds.low) | (cote > bounds.high),
        "cote",
        pl.format(
            f"la cote {{}} est hors des bornes : une cote va de {bounds.low} à {bounds.high} "
            "(data/reference/cote.yaml, bounds)",
            cote,
        ),
        kind=CheckKind.VALUE,
    )


# Date columns a later date may fill: the planned date of an edition not held (yet).
_PLANNED = {("circuit_calendar", "date"): pl.col("status").str.to_lowercase() == "held"}


def late_date_errors(
    frames: Mapping[str, pl.DataFrame], kinds: Mapping[str, Kind], as_of: dt.date
) -> pl.DataFrame:
    """Every date of every kind later than `as_of` (but a calendar's planned dates)."""
    errors = [empty_errors()]
    for name, frame in frames.items():
        kind = kinds.get(name)
        if kind is None or frame.height == 0:
            continue
        for column, dtype in kind.dtypes.items():
            if dtype != pl.Date or column not in frame.columns:
                continue
            late = pl.col(column) > pl.lit(as_of)
            held = _PLANNED.get((name, column))
            errors.append(
                error_rows(
                    frame,
                    late if held is None else late & held,
                    column,
                    pl.format(
                        "la date {} est " + LATE_DATE + " de la construction "
                        f"({as_of.isoformat()}) : "
                        + (
                            "une édition jouée (held) a déjà eu lieu ; une édition à venir "
                            "est annoncée (announced)"
                            if held is not None
                            else "un export ne donne que des faits passés"
                        )
                        + " (date de référence : --as-of, aujourd'hui par défaut)",
                        pl.col(column),
                    ),
                    kind=CheckKind.VALUE,
                )
            )
    return pl.concat(errors)
