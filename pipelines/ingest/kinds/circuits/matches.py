"""The checks of the matches of the round-robin finals: each file's matches, then every final
against its results (participants, rounds, withdrawals, the complete round robin) and its
field against the rankings that select it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import polars as pl

from pipelines.ingest.errors import ERROR_SCHEMA, CheckKind, empty_errors, error_rows, errors_at
from pipelines.ingest.kinds.circuits.common import (
    _META,
    _ORDER,
    _Reference,
    _reference,
    _without_files,
)
from pipelines.ingest.kinds.circuits.exports import _INT, MATCHES
from pipelines.ingest.kinds.circuits.tournaments import _tournaments
from pipelines.ingest.validate import tournament_owner_errors, unlisted_player_errors
from pipelines.reference.bundle import Parameters
from transforms.circuits import circuit_codes_expr
from transforms.round_robin.grand_est import championship_year
from transforms.round_robin.matches import MATCH_COLUMNS, matches_errors


def matches_checks(
    typed: pl.DataFrame, accepted: Mapping[str, pl.DataFrame], params: Parameters
) -> pl.DataFrame:
    """The matches of round-robin finals: a final's tournament (its results name the
    Masters Grand Sud or the Grand Est and its category is a final's), its players, each
    match from both sides and agreeing with its mirror (`matches_errors`), a single round
    robin of its participants up to the withdrawals of its results, the moves at the top
    of a Grand Est final, and the ranking each final's participants come from."""
    if typed.height == 0:
        return empty_errors()
    ref = _reference(params)
    results = accepted["results"]
    tournaments = _tournaments(results, ref)
    rows = typed.join(
        tournaments.select("tournament_id", "rules", "participants", "start", _known=pl.lit(True)),
        on="tournament_id",
        how="left",
    ).with_columns(pl.col("_known").fill_null(False))
    errors = [tournament_owner_errors(typed, MATCHES.label), _structure_errors(rows, ref)]
    errors.append(
        error_rows(
            rows,
            (pl.col("player_moves") == 0) & (pl.col("opponent_moves") == 0),
            "player_moves",
            pl.format(
                "le match de la ronde {} entre {} et {} est à 0 coup à 0 : un match joué donne "
                "au moins un coup à l'un des deux joueurs (1 ou plus au total) ; un match non "
                "joué n'a pas de ligne (un abandon s'écrit dans withdrawn_after_round)",
                pl.col("round"),
                pl.col("player_id"),
                pl.col("opponent_id"),
            ),
            kind=CheckKind.VALUE,
        )
    )
    errors.append(
        error_rows(
            rows,
            pl.col("tournament_id").is_not_null() & ~pl.col("_known"),
            "tournament_id",
            pl.format(
                "le tournoi {} n'a pas de résultats (son fichier de résultats manque ou a été "
                "refusé)",
                pl.col("tournament_id"),
            ),
            kind=CheckKind.VALUE,
        )
    )
    first_of_tournament = pl.col("_row") == pl.col("_row").min().over("_file", "tournament_id")
    finals = ", ".join(ref.final_categories)
    errors.append(
        error_rows(
            rows,
            pl.col("_known") & pl.col("rules").is_null() & first_of_tournament,
            "tournament_id",
            pl.format(
                "le tournoi {} n'est pas une finale en toutes rondes : ses résultats doivent "
                "nommer le circuit {} ou {} (colonne circuit) et avoir la catégorie {}",
                pl.col("tournament_id"),
                pl.lit(ref.names.name(ref.masters)),
                pl.lit(ref.names.name(ref.grand_est)),
                pl.lit(finals),
            ),
            kind=CheckKind.VALUE,
        )
    )
    errors += unlisted_player_errors(rows.filter(pl.col("_known")), results)
    finals_rows = _without_files(rows, errors).filter(pl.col("rules").is_not_null())
    errors += [
        _final_errors(finals_rows, results, ref),
        _field_errors(finals_rows, results, tournaments, accepted["circuit_ranking"], ref),
    ]
    return pl.concat(errors, how="vertical_relaxed").cast(pl.Schema(ERROR_SCHEMA))


def _structure_errors(rows: pl.DataFrame, ref: _Reference) -> pl.DataFrame:
    """`matches_errors` of every file (moves at the top bounded in a Grand Est final)."""
    found = []
    for duplicate_match in (False, True):
        part = rows.filter((pl.col("rules") == ref.grand_est).fill_null(False) == duplicate_match)
        if part.height == 0:
            continue
        part = part.select(*MATCH_COLUMNS, *MATCHES.optional, *_META)
        errors = matches_errors(part, duplicate_match=duplicate_match)
        found.append(errors_at(errors, part.with_row_index("row"), "row", CheckKind.ROWS))
    return pl.concat(found) if found else empty_errors()


def _final_errors(rows: pl.DataFrame, results: pl.DataFrame, ref: _Reference) -> pl.DataFrame:
    """A final's participants, rounds, withdrawals, complete round robin and, for a Grand
    Est final, moves at the top."""
    if rows.height == 0:
        return empty_errors()
    players = pl.col("rules").replace_strict(ref.players, return_dtype=_INT)
    first_of_file = pl.col("_row") == pl.col("_row").min().over("_file", "tournament_id")
    rounds = pl.col("participants") - 1 + pl.col("participants") % 2
    errors = [
        error_rows(
            rows,
            (pl.col("participants") != players) & first_of_file,
            "tournament_id",
            pl.format(
                "une finale réunit {} joueurs : les résultats du tournoi {} en comptent {}",
                players,
                pl.col("tournament_id"),
                pl.col("participants"),
            ),
            kind=CheckKind.EVENT,
        ),
        error_rows(
            rows,
            pl.col("round") > rounds,
            "round",
            pl.format(
                "la ronde {} n'existe pas : une finale de {} joueurs compte {} rondes",
                pl.col("round"),
                pl.col("participants"),
                rounds,
            ),
            kind=CheckKind.EVENT,
        ),
        error_rows(
            rows.filter(pl.col("rules") == ref.grand_est),
            pl.col("player_top_moves").is_null(),
            "player_top_moves",
            pl.lit(
                "valeur vide : la finale du Grand Est départage d'abord au nombre de coups joués "
                "au top, à donner sur chaque ligne"
            ),
            kind=CheckKind.EVENT,
        ),
    ]
    withdrawn = results.filter(pl.col("withdrawn_after_round").is_not_null()).select(
        "tournament_id", "player_id", pl.col("withdrawn_after_round").alias("_k")
    )
    for column in ("player_id", "opponent_id"):
        marked = rows.join(
            withdrawn.rename({"player_id": column}), on=["tournament_id", column], how="left"
        )
        errors.append(
            error_rows(
                marked,
                pl.col("round") > pl.col("_k"),
                "round",
                pl.format(
                    "{} a abandonné après la ronde {} (colonne withdrawn_after_round de ses "
                    "résultats) mais joue la ronde {}",
                    pl.col(column),
                    pl.col("_k"),
                    pl.col("round"),
                ),
                kind=CheckKind.EVENT,
            )
        )
    files = rows.filter(first_of_file).select(
        *_META, "tournament_id", "participants", rounds.alias("_rounds")
    )
    late = files.join(withdrawn, on="tournament_id", how="inner")
    errors.append(
        error_rows(
            late,
            (pl.col("_k") < 0) | (pl.col("_k") >= pl.col("_rounds")),
            "tournament_id",
            pl.format(
                "abandon de {} après la ronde {} (résultats du tournoi {}) : une finale de {} "
                "joueurs compte {} rondes, l'abandon suit une ronde de 0 à {}",
                pl.col("player_id"),
                pl.col("_k"),
                pl.col("tournament_id"),
                pl.col("participants"),
                pl.col("_rounds"),
                pl.col("_rounds") - 1,
            ),
            kind=CheckKind.EVENT,
        )
    )
    errors.append(_missing_match_errors(rows, results, withdrawn))
    return pl.concat(errors, how="vertical_relaxed")


def _missing_match_errors(
    rows: pl.DataFrame, results: pl.DataFrame, withdrawn: pl.DataFrame
) -> pl.DataFrame:
    """Every two participants still playing meet once: a missing pair is reported on the
    first row of the better-numbered player (by licence) of the pair."""
    finals = rows.select("_file", "tournament_id").unique()
    staying = (
        results.join(finals.select("tournament_id").unique(), on="tournament_id", how="semi")
        .join(withdrawn, on=["tournament_id", "player_id"], how="anti")
        .select("tournament_id", "player_id")
        .unique()
    )
    pairs = (
        finals.join(staying, on="tournament_id")
        .join(staying.rename({"player_id": "opponent_id"}), on="tournament_id", how="inner")
        .filter(pl.col("player_id") < pl.col("opponent_id"))
    )
    played = rows.select("_file", "tournament_id", "player_id", "opponent_id").drop_nulls()
    missing = pairs.join(
        played, on=["_file", "tournament_id", "player_id", "opponent_id"], how="anti"
    )
    firsts = rows.group_by("_file", "tournament_id", "player_id").agg(
        pl.col("_where").first(), pl.col("_row").min()
    )
    fallback = rows.group_by("_file", "tournament_id").agg(
        pl.col("_where").first().alias("_w"), pl.col("_row").min().alias("_r")
    )
    located = (
        missing.join(firsts, on=["_file", "tournament_id", "player_id"], how="left")
        .join(fallback, on=["_file", "tournament_id"], how="left")
        .with_columns(
            pl.coalesce("_where", "_w").alias("_where"), pl.coalesce("_row", "_r").alias("_row")
        )
    )
    return error_rows(
        located,
        pl.lit(True),
        "opponent_id",
        pl.format(
            "il manque le match entre {} et {} : dans une finale en toutes rondes, chaque "
            "participant rencontre une fois chacun des autres (sauf un joueur qui abandonne)",
            pl.col("player_id"),
            pl.col("opponent_id"),
        ),
        kind=CheckKind.FILES,
    )


def _field_errors(
    rows: pl.DataFrame,
    results: pl.DataFrame,
    tournaments: pl.DataFrame,
    rankings: pl.DataFrame,
    ref: _Reference,
) -> pl.DataFrame:
    """The ranking each final's participants come from: the Masters Grand Sud's annual
    ranking (the latest `circuit ranking` of the circuit dated on or before the final's
    first day) lists them; each Grand Est finalist played a qualifier of the championship
    (`transforms.round_robin.championship_year`)."""
    if rows.height == 0:
        return empty_errors()
    firsts = (
        rows.sort(_ORDER)
        .group_by("_file", "tournament_id", "player_id")
        .agg(pl.col("_where").first(), pl.col("_row").first(), pl.col("rules").first())
    )
    participants = results.join(
        rows.select("tournament_id").unique(), on="tournament_id", how="semi"
    ).select("tournament_id", "player_id")
    errors: list[pl.DataFrame] = []
    starts = dict(tournaments.select("tournament_id", "start").iter_rows())

    masters = firsts.filter(pl.col("rules") == ref.masters)
    annual = rankings.with_columns(_code=circuit_codes_expr("circuit", ref.names)).filter(
        pl.col("_code") == ref.masters
    )
    for tid in sorted(masters["tournament_id"].unique().to_list()):
        start: dt.date | None = starts.get(tid)
        mine = masters.filter(pl.col("tournament_id") == tid)
        dated = annual.filter(pl.col("as_of") <= start) if start is not None else annual.clear()
        if dated.height == 0:
            errors.append(
                error_rows(
                    mine.filter(pl.col("_row") == pl.col("_row").min().over("_file")),
                    pl.lit(True),
                    "tournament_id",
                    pl.format(
                        "aucun classement annuel {} (fichier de classement de circuit) daté au "
                        "plus tard du {} : les participants du Masters en viennent",
                        pl.lit(ref.names.name(ref.masters)),
                        pl.lit(str(start)),
                    ),
                    kind=CheckKind.FILES,
                )
            )
            continue
        latest = dated.filter(pl.col("as_of") == dated["as_of"].max())
        ranked = set(latest["player_id"].to_list())
        errors.append(
            error_rows(
                mine.join(
                    participants.filter(pl.col("tournament_id") == tid),
                    on=["tournament_id", "player_id"],
                    how="semi",
                ),
                ~pl.col("player_id").is_in(sorted(ranked)),
                "player_id",
                pl.format(
                    "le joueur {} joue le Masters sans figurer au classement annuel {} du {}",
                    pl.col("player_id"),
                    pl.lit(ref.names.name(ref.masters)),
                    pl.lit(str(latest["as_of"][0])),
                ),
                kind=CheckKind.FILES,
            )
        )

    grand_est = firsts.filter(pl.col("rules") == ref.grand_est)
    if grand_est.height:
        qualifiers = tournaments.filter(
            pl.col("codes").list.contains(ref.grand_est) & pl.col("rules").is_null()
        )
        played = results.join(qualifiers.select("tournament_id"), on="tournament_id").join(
            qualifiers.select("tournament_id", "end_date"), on="tournament_id"
        )
        ends = qualifiers["end_date"].drop_nulls().to_list()
        for tid in sorted(grand_est["tournament_id"].unique().to_list()):
            start = starts.get(tid)
            if start is None:
                continue
            year = championship_year(start, ends)
            qualified = set(
                played.filter(pl.col("end_date").dt.year() == year)["player_id"].to_list()
            )
            errors.append(
                error_rows(
                    grand_est.filter(pl.col("tournament_id") == tid),
                    ~pl.col("player_id").is_in(sorted(qualified)),
                    "player_id",
                    pl.format(
                        "le joueur {} joue la finale du Grand Est sans avoir joué de tournoi "
                        "qualificatif du championnat {}",
                        pl.col("player_id"),
                        pl.lit(year),
                    ),
                    kind=CheckKind.FILES,
                )
            )
    return pl.concat(errors, how="vertical_relaxed") if errors else empty_errors()
