"""A calendar year of finals: every Masters and Grand Est final of the year ranked
(`round_robin_tables`), with the played matches the pairing table does not schedule.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import polars as pl

from transforms.calendar import ordered_events
from transforms.round_robin.grand_est import QUALIFYING, championship_year, grand_est_qualifying
from transforms.round_robin.pairings import pairing_errors
from transforms.round_robin.params import GrandEstParams, MastersParams, Pairing, RoundRobinError
from transforms.round_robin.participants import grand_est_field, masters_field
from transforms.round_robin.standings import STANDINGS, grand_est_final_standings, masters_standings

PAIRING_ISSUES_SCHEMA = pl.Schema(
    {
        "tournament_id": pl.String(),
        "round": pl.Int64(),
        "table": pl.Int64(),
        "player_id": pl.String(),
        "opponent_id": pl.String(),
        "column": pl.String(),
        "message": pl.String(),
    }
)


@dataclass(frozen=True)
class RoundRobinTables:
    """A calendar year of round-robin finals: the standings of its finals, the Grand Est
    qualifying ranking of the year, and the Masters matches that do not follow the pairing
    table (`PAIRING_ISSUES_SCHEMA`; they still count)."""

    standings: pl.DataFrame
    qualifying: pl.DataFrame
    pairing_issues: pl.DataFrame


def _codes(column: str) -> pl.Expr:
    return pl.col(column).cast(pl.String).str.split(";").fill_null(pl.lit([], pl.List(pl.String)))


def is_final_expr(
    masters: MastersParams, grand_est: GrandEstParams, categories: Collection[str]
) -> pl.Expr:
    """Whether a tournament (`circuit` as `;`-joined circuit codes, `category`) is a
    round-robin final: it names the Masters Grand Sud or the Grand Est and its category is
    a final's (`round_robin.yaml` `final_categories`, compared in lower case)."""
    codes = _codes("circuit")
    named = codes.list.contains(masters.circuit) | codes.list.contains(grand_est.circuit)
    category = pl.col("category").cast(pl.String).str.strip_chars().str.to_lowercase()
    return (named & category.is_in(list(categories))).fill_null(False)


def round_robin_tables(
    tournaments: pl.DataFrame,
    results: pl.DataFrame,
    matches: pl.DataFrame,
    published: pl.DataFrame,
    masters: MastersParams,
    grand_est: GrandEstParams,
    categories: Collection[str],
    year: int,
) -> RoundRobinTables:
    """The round-robin finals of calendar year `year` and its Grand Est qualifying ranking.

    - `tournaments`: `tournament_id, end_date, start_date, category, circuit` (the circuit
      codes, `;`-joined) of the finals of `year` and of the Grand Est tournaments of
      `year − 1` and `year` at least;
    - `results`: their `tournament_id, player_id, rank`, optional `duplicate_rank`,
      `withdrawn_after_round`;
    - `matches`: the `matches` export of the finals of `year`;
    - `published`: the `circuit ranking` export (`circuit` as codes, `as_of, player_id,
      place`): a Masters' participants come from the latest ranking of its circuit dated on
      or before its first day (`masters_field`, the ranked players missing from its results
      being absent);
    - a Grand Est final's from the qualifying ranking of its championship
      (`championship_year`; `grand_est_field`, the qualified players missing from its
      results having declined).

    A final without matches is not ranked (its matches are not exported yet). The final's
    year is the year of its end date; the qualifiers are the Grand Est tournaments that are
    not finals, counted in the year of their end date.
    """
    final = is_final_expr(masters, grand_est, categories)
    dated = tournaments.with_columns(
        pl.col("tournament_id").cast(pl.String), _final=final, _codes=_codes("circuit")
    )
    qualifiers = dated.filter(~pl.col("_final") & pl.col("_codes").list.contains(grand_est.circuit))
    qualifying_all = grand_est_qualifying(qualifiers, results, grand_est)
    ends = qualifiers["end_date"].drop_nulls().to_list()
    finals = ordered_events(dated.filter(pl.col("_final") & (pl.col("end_date").dt.year() == year)))
    standings: list[pl.DataFrame] = []
    issues: list[pl.DataFrame] = []
    for row in finals.iter_rows(named=True):
        tid = row["tournament_id"]
        played = matches.filter(pl.col("tournament_id").cast(pl.String) == tid)
        if played.height == 0:
            continue
        entrants = results.filter(pl.col("tournament_id").cast(pl.String) == tid)
        present = set(entrants["player_id"].cast(pl.String).to_list())
        start = row["start_date"] or row["end_date"]
        if grand_est.circuit in row["_codes"]:
            season = championship_year(start, ends)
            ranking = qualifying_all.filter(pl.col("year") == season)
            field = grand_est_field(
                ranking,
                grand_est,
                declined=[p for p in ranking["player_id"].to_list() if p not in present],
            )
            standings.append(
                grand_est_final_standings(played, field, grand_est, entrants, year=year)
            )
            continue
        annual = _latest_ranking(published, masters.circuit, start, tid)
        field = masters_field(
            annual,
            masters,
            absent=[p for p in annual["player_id"].to_list() if p not in present],
        )
        standings.append(masters_standings(played, field, masters, entrants, year=year))
        issues.append(_pairing_issues(played, field, masters.pairings))
    out_standings = pl.concat(standings) if standings else STANDINGS.empty()
    return RoundRobinTables(
        standings=STANDINGS.check(out_standings),
        qualifying=QUALIFYING.check(qualifying_all.filter(pl.col("year") == year)),
        pairing_issues=(
            pl.concat(issues) if issues else pl.DataFrame(schema=PAIRING_ISSUES_SCHEMA)
        ),
    )


def _latest_ranking(
    published: pl.DataFrame, circuit: str, day: dt.date, tournament_id: str
) -> pl.DataFrame:
    rows = published.filter(
        (pl.col("circuit").cast(pl.String) == circuit) & (pl.col("as_of") <= day)
    )
    if rows.height == 0:
        raise RoundRobinError(
            f"tournoi {tournament_id} : aucun classement annuel du circuit {circuit} daté au "
            f"plus tard du {day}"
        )
    latest = rows["as_of"].max()
    return rows.filter(pl.col("as_of") == latest).select("player_id", "place", "as_of")


def _pairing_issues(
    matches: pl.DataFrame, field: pl.DataFrame, pairings: Sequence[Pairing]
) -> pl.DataFrame:
    """The matches of one Masters that do not follow the pairing table, once per match."""
    errors = pairing_errors(matches, field, pairings)
    located = matches.with_row_index("row").with_columns(pl.col("row").cast(pl.Int64))
    return (
        errors.join(located, on="row", how="inner")
        .filter(pl.col("player_id").cast(pl.String) < pl.col("opponent_id").cast(pl.String))
        .select(
            pl.col("tournament_id").cast(pl.String),
            pl.col("round").cast(pl.Int64),
            pl.col("table").cast(pl.Int64),
            pl.col("player_id").cast(pl.String),
            pl.col("opponent_id").cast(pl.String),
            "column",
            "message",
        )
        .sort("round", "table", "player_id")
    )
