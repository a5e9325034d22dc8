"""The 16 participants of a final: the Masters' from the annual ranking (`masters_field`), the
Grand Est's from the qualifying ranking with its substitutes (`grand_est_field`).
"""

from __future__ import annotations

from collections.abc import Collection

import polars as pl

from transforms.round_robin.params import GrandEstParams, MastersParams, RoundRobinError

# Entry of a participant in a final's field.
QUALIFIED = "qualified"  # within the first 16 of the ranking
NEXT_QUALIFIED = "next_qualified"  # the 17th, 18th … invited in place of one who declined
SUBSTITUTE = "substitute"  # Grand Est: a non-qualified player present, for a late absentee


def _ranked(ranking: pl.DataFrame, what: str) -> pl.DataFrame:
    if "as_of" in ranking.columns and ranking["as_of"].n_unique() > 1:
        raise RoundRobinError(f"{what} : un seul classement à la fois (plusieurs dates « as_of »)")
    frame = ranking.select(pl.col("player_id").cast(pl.String), pl.col("place").cast(pl.Int64))
    if frame["player_id"].null_count() or frame["place"].null_count():
        raise RoundRobinError(f"{what} : chaque joueur doit avoir une licence et une place")
    doubled = frame.filter(pl.col("player_id").is_duplicated())["player_id"].unique().sort()
    if doubled.len():
        raise RoundRobinError(f"{what} : le joueur {doubled[0]} y figure deux fois")
    return frame.sort("place", "player_id").with_row_index("_position")


def _take(candidates: pl.DataFrame, seats: int, what: str) -> pl.DataFrame:
    """The first `seats` candidates (already in ranking order); a shared place across the
    last seat is an error."""
    if seats <= 0:
        return candidates.head(0)
    if candidates.height < seats:
        raise RoundRobinError(
            f"{what} : {seats} place(s) à pourvoir mais seulement {candidates.height} "
            "joueur(s) disponible(s)"
        )
    if candidates.height > seats and candidates["place"][seats - 1] == candidates["place"][seats]:
        tied = candidates.filter(pl.col("place") == candidates["place"][seats - 1])
        raise RoundRobinError(
            f"{what} : {', '.join(tied['player_id'].to_list())} sont ex aequo à la "
            f"{candidates['place'][seats - 1]}e place pour la dernière place à pourvoir ; le "
            "classement doit les départager"
        )
    return candidates.head(seats)


def _field_frame(chosen: pl.DataFrame, entries: pl.Expr) -> pl.DataFrame:
    return (
        chosen.sort("place", "player_id")
        .with_columns(entry=entries)
        .select(
            "player_id",
            pl.int_range(1, pl.len() + 1, dtype=pl.Int64).alias("seed"),
            "place",
            "entry",
        )
    )


def masters_field(
    ranking: pl.DataFrame, params: MastersParams, *, absent: Collection[str] = ()
) -> pl.DataFrame:
    """The Masters Grand Sud's participants: the first `players` of the annual ranking
    (`player_id, place`, one `as_of`), each absentee replaced by the 17th, 18th, …

    `absent` may list any player who did not come (e.g. every ranked player missing from
    the final's matches). Returns `player_id, seed` (1..16, the pairing table's numbers),
    `place` (annual), `entry` (`qualified`, `next_qualified`), in seed order."""
    what = "Masters Grand Sud, classement annuel"
    ranked = _ranked(ranking, what)
    away = {str(a) for a in absent}
    chosen = _take(ranked.filter(~pl.col("player_id").is_in(list(away))), params.players, what)
    entries = (
        pl.when(pl.col("_position") < params.players)
        .then(pl.lit(QUALIFIED))
        .otherwise(pl.lit(NEXT_QUALIFIED))
    )
    return _field_frame(chosen, entries)


def grand_est_field(
    qualifying: pl.DataFrame,
    params: GrandEstParams,
    *,
    declined: Collection[str] = (),
    absent: Collection[str] = (),
    present: Collection[str] = (),
) -> pl.DataFrame:
    """The Grand Est final's 16 from the qualifying ranking (`grand_est_qualifying` of one
    year, or any `player_id, place`): the first 16, those who `declined` replaced by the
    next qualified; then each last-minute `absent` invited player replaced by the
    best-ranked player `present` in the room who was not invited.

    Returns `player_id, seed, place` (qualifying), `entry` (`qualified`, `next_qualified`,
    `substitute`), in seed order."""
    what = "finale du Grand Est, classement qualificatif"
    ranked = _ranked(qualifying.select("player_id", "place"), what)
    out = {str(p) for p in declined}
    invited = _take(ranked.filter(~pl.col("player_id").is_in(list(out))), params.players, what)
    gone = sorted({str(a) for a in absent})
    stray = [a for a in gone if a not in set(invited["player_id"].to_list())]
    if stray:
        raise RoundRobinError(
            f"{what} : {', '.join(stray)} déclaré(s) absent(s) sans avoir été invité(s)"
        )
    in_room = {str(p) for p in present}
    callable_ = ranked.filter(
        pl.col("player_id").is_in(sorted(in_room))
        & ~pl.col("player_id").is_in(invited["player_id"].to_list())
        & ~pl.col("player_id").is_in(sorted(out))
    )
    called = _take(callable_, len(gone), f"{what}, remplaçants présents dans la salle")
    chosen = pl.concat(
        [
            invited.filter(~pl.col("player_id").is_in(gone)).with_columns(_sub=pl.lit(False)),
            called.with_columns(_sub=pl.lit(True)),
        ]
    )
    entries = (
        pl.when(pl.col("_sub"))
        .then(pl.lit(SUBSTITUTE))
        .when(pl.col("_position") < params.players)
        .then(pl.lit(QUALIFIED))
        .otherwise(pl.lit(NEXT_QUALIFIED))
    )
    return _field_frame(chosen, entries)
