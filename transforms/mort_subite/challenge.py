"""A challenge's seasons from its two exports: every valid round played, the final qualified
when its season's regular rounds are valid (`challenge`), and the exports' errors
(`validate_challenge`); the results of given rounds, refused when a round has an error
(`round_results`).
"""

from __future__ import annotations

import polars as pl

from transforms.calendar import SeasonCalendar
from transforms.mort_subite.params import (
    QUALIFIED,
    RESULTS,
    ROUND_QUALIFIED,
    ChallengeTables,
    MortSubiteError,
    MortSubiteParams,
)
from transforms.mort_subite.rules import (
    _empty,
    _errors_frame,
    _play_rounds,
    _prepared_moves,
    _prepared_players,
    _qualified_from,
    _results_frame,
    _rounds,
    final_host_ranking,
    qualify,
    season_standings,
)
from transforms.mort_subite.validation import (
    _moves_errors,
    _players_errors,
    _round_errors,
    _summary,
)
from transforms.tables import Table


def _run(
    players: pl.DataFrame,
    moves: pl.DataFrame,
    params: MortSubiteParams,
    calendar: SeasonCalendar,
) -> tuple[ChallengeTables, pl.DataFrame]:
    """Everything that can be computed, and the errors of the exports."""
    p = _prepared_players(players)
    m = _prepared_moves(moves)
    errors = _players_errors(p, calendar)
    known = set(p["round_id"].drop_nulls().to_list())
    errors += _moves_errors(m, known)
    bad_rounds = {e["round_id"] for e in errors if e["round_id"] is not None}
    rounds = _rounds(p.filter(pl.col("round_id").is_not_null()), calendar)
    regular_ids = set(rounds.filter(~pl.col("is_final"))["round_id"].to_list()) - bad_rounds
    regular_p = p.filter(pl.col("round_id").is_in(sorted(regular_ids)))
    qualified = _qualified_from(regular_p, params)
    round_rows = rounds.filter(pl.col("round_id").is_in(sorted(regular_ids)))
    found = _round_errors(regular_p, m, qualified, round_rows)
    played, more = _play_rounds(p, qualified, m, params, regular_ids)
    errors += found + more
    regular_results = _results_frame(played)

    bad_seasons = set(
        rounds.filter(pl.col("round_id").is_in(sorted({e["round_id"] for e in errors} - {None})))[
            "season"
        ].to_list()
    )
    final_rounds = rounds.filter(
        pl.col("is_final")
        & ~pl.col("round_id").is_in(sorted(bad_rounds))
        & ~pl.col("season").is_in(sorted(bad_seasons))
    )
    final_ids = set(final_rounds["round_id"].to_list())
    final_p = p.filter(pl.col("round_id").is_in(sorted(final_ids)))
    good_regular = regular_results.join(
        rounds.filter(~pl.col("season").is_in(sorted(bad_seasons))).select("round_id"),
        on="round_id",
        how="semi",
    )
    if final_ids:
        ranking = final_host_ranking(players, good_regular, params, calendar).filter(
            pl.col("round_id").is_in(sorted(final_ids))
        )
        final_qualified = qualify(ranking, params) if ranking.height else _empty(ROUND_QUALIFIED)
    else:
        final_qualified = _empty(ROUND_QUALIFIED)
    errors += _round_errors(final_p, m, final_qualified, final_rounds)
    final_played, more = _play_rounds(p, final_qualified, m, params, final_ids)
    errors += more

    all_qualified = pl.concat([qualified, final_qualified])
    results = _results_frame(played + final_played)
    standings = season_standings(players, results, params, calendar)
    seasons = rounds.select("round_id", "season")
    tables = ChallengeTables(
        QUALIFIED.check(
            _with_season(all_qualified, seasons, QUALIFIED).sort(
                "season", "round_id", "host_rank", "player_id"
            )
        ),
        RESULTS.check(
            _with_season(results, seasons, RESULTS).sort("season", "round_id", "place", "player_id")
        ),
        standings,
    )
    return tables, _errors_frame(errors)


def _with_season(frame: pl.DataFrame, seasons: pl.DataFrame, declared: Table) -> pl.DataFrame:
    """A rounds frame with the `season` of each round, in the table's column order."""
    return frame.join(seasons, on="round_id", how="left").select(declared.column_names)


def validate_challenge(
    players: pl.DataFrame,
    moves: pl.DataFrame,
    params: MortSubiteParams,
    calendar: SeasonCalendar,
) -> pl.DataFrame:
    """The errors of the two exports, one row each: `export` (`mort subite players` or
    `mort subite moves`), `round_id`, `row_index` (0-based position of the offending row in
    that export's frame), `column`, `message` (French). Empty when both are valid."""
    return _run(players, moves, params, calendar)[1]


def challenge(
    players: pl.DataFrame,
    moves: pl.DataFrame,
    params: MortSubiteParams,
    calendar: SeasonCalendar,
) -> ChallengeTables:
    """The three tables of every season of the exports: qualification of the regular rounds
    then their results, the final's qualification and results, the standings. Raises
    MortSubiteError (with the first errors of `validate_challenge`) on invalid exports."""
    tables, errors = _run(players, moves, params, calendar)
    if errors.height:
        raise MortSubiteError(_summary(errors))
    return tables


def round_results(
    players: pl.DataFrame,
    qualified: pl.DataFrame,
    moves: pl.DataFrame,
    params: MortSubiteParams,
) -> pl.DataFrame:
    """`mort_subite_results` without its `season` column, of every round of `qualified`:
    its present qualified players play the moves of `moves` (art. 7–12, 15). Raises
    MortSubiteError on an invalid row."""
    p = _prepared_players(players)
    m = _prepared_moves(moves)
    ids = sorted(qualified["round_id"].unique().to_list())
    rounds = _rounds(p.filter(pl.col("round_id").is_in(ids)), None)
    results, errors = _play_rounds(p, qualified, m, params, ids)
    errors += _round_errors(p.filter(pl.col("round_id").is_in(ids)), m, qualified, rounds)
    if errors:
        raise MortSubiteError(_summary(_errors_frame(errors)))
    return _results_frame(results)
