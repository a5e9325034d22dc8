"""Duplicate series (docs/rules.md §3): %N1–%N4 and PC per event, season standings, super-série,
end-of-season cascade with barres d'accès, sub-series, movements, provisional classification.

Pure Polars transforms; parameters arrive as the dataclasses below (loaded from
`data/reference/` by `pipelines.reference.series`).

Series labels are strings, best to worst: `SS` (super-série, a distinction inside series 1
that counts as series 1 for the zones), `1` … `7`. A player's series in an event is the one
written in that event's results; else the series that applies to the season (`season_series`
input: the project's classification of the previous season, or a rating list); else series 7
(treated as a new licensee) and `series_source` says `default`.

The provisional classification after each event is in `transforms.series_provisional`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import polars as pl

from transforms.calendar import shift_season_expr
from transforms.distinct import per_distinct
from transforms.federations import AliasTable, canonical_expr
from transforms.rounding import round_half_away
from transforms.series_labels import (
    NEW_LICENSEE_SERIES,
    SUPER_SERIE,
    series_level_of,
    series_step,
    zone_series,
)
from transforms.tables import table

PERCENT_SERIES = (1, 2, 3, 4)
CASCADE_SERIES = (1, 2, 3, 4, 5, 6)
# Criterion of each series in the cascade (§3): %N1..%N4 for 1–4, PC for 5–6.
CRITERIA: dict[int, str] = {1: "pct_n1", 2: "pct_n2", 3: "pct_n3", 4: "pct_n4", 5: "pc", 6: "pc"}
SUPER_SERIE_CRITERION = "super_serie_pct"
# Values this close count as tied at a bar (float noise of weighted means), not a rule number.
TIE_TOLERANCE = 1e-9
DEFAULT_FEDERATION = "*"

EVENT_SCORES = table("duplicate_event_scores")
STANDINGS = table("series_standings")
CLASSIFICATION = table("series_classification")
BARS = table("series_bars")
MOVEMENTS = table("series_movements")
PROVISIONAL = table("series_provisional")

_PCT = [f"pct_n{x}" for x in PERCENT_SERIES]
# Rows of the criteria array of the vectorised cascade, and the row of each series' criterion.
_CRITERION_COLUMNS = (*_PCT, "pc")
_CRITERION_ROW: dict[int, int] = {s: _CRITERION_COLUMNS.index(c) for s, c in CRITERIA.items()}


# --------------------------------------------------------------------------- parameters


@dataclass(frozen=True)
class QuotaRow:
    """One row of the quota table: share in percent of N, `None` = the rest."""

    federation: str
    series: int
    subseries: str | None
    share: Fraction | None


@dataclass(frozen=True)
class SeriesQuotas:
    """Quotas of series 1–6 (`*` federation) and sub-series per federation."""

    rows: tuple[QuotaRow, ...]

    def federations(self) -> set[str]:
        return {r.federation for r in self.rows}

    def _rows(self, federation: str, series: int) -> list[QuotaRow]:
        fed = federation if federation in self.federations() else DEFAULT_FEDERATION
        return [r for r in self.rows if r.federation == fed and r.series == series]

    def series_share(self, series: int, federation: str = DEFAULT_FEDERATION) -> Fraction | None:
        """Share of a series in percent of N; `None` when the series is the rest."""
        rows = self._rows(federation, series)
        if not rows:
            raise ValueError(f"no quota for series {series} ({federation})")
        if any(r.share is None for r in rows):
            return None
        return sum((r.share for r in rows if r.share is not None), Fraction(0))

    def nominal_share(self, series: int, federation: str = DEFAULT_FEDERATION) -> Fraction:
        """Share of a series; the rest series gets 100 minus the other series' shares."""
        share = self.series_share(series, federation)
        if share is not None:
            return share
        others = [self.series_share(s, federation) for s in CASCADE_SERIES if s != series]
        return Fraction(100) - sum((s for s in others if s is not None), Fraction(0))

    def subseries(self, federation: str, series: int) -> list[tuple[str, Fraction | None]]:
        """(label, share) of each sub-series of a series for a federation, best first;
        empty when the series is not split."""
        rows = self._rows(federation, series)
        if len(rows) == 1 and rows[0].subseries is None:
            return []
        return [(f"{series}{r.subseries}", r.share) for r in rows]

    def validate(self) -> None:
        """Every federation's series shares equal the `*` ones; one rest at most, last."""
        for fed in self.federations():
            for s in CASCADE_SERIES:
                if self.series_share(s, fed) != self.series_share(s):
                    raise ValueError(f"quota of series {s} for {fed} differs from `*`")
                rows = self._rows(fed, s)
                rest = [i for i, r in enumerate(rows) if r.share is None]
                if rest and rest != [len(rows) - 1]:
                    raise ValueError(f"`rest` must be the last sub-series of {s} ({fed})")
        rest_series = [s for s in CASCADE_SERIES if self.series_share(s) is None]
        if rest_series not in ([], [CASCADE_SERIES[-1]]):
            raise ValueError("only series 6 may be the rest")


@dataclass(frozen=True)
class SeriesParams:
    """Parameters of §3 other than the quotas (see `data/reference/series.yaml`)."""

    minimum_divisor: float = 0.0
    super_serie_size: int = 30
    super_serie_threshold: float = 50.0
    current_weight: float = 0.75
    previous_weight: float = 0.25
    default_coefficient: float = 1.0
    coefficient_by_category: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Classification:
    """End-of-season classification tables."""

    classification: pl.DataFrame
    bars: pl.DataFrame
    movements: pl.DataFrame


# --------------------------------------------------------------------------- helpers


def federation_key_expr(column: str | pl.Expr, federations: AliasTable, known: set[str]) -> pl.Expr:
    """Quota federation code of a written federation: its code in the federations alias
    table (`federations.csv`: codes, ISO codes, acronyms, names; case, accents and
    punctuation ignored) when that code has quotas of its own (`known`, the federations of
    `series_quotas.csv`), else `*` (another federation, an unknown or an empty value)."""
    code = canonical_expr(column, federations)
    own = sorted(k for k in known if k != DEFAULT_FEDERATION)
    return (
        pl.when(code.is_in(own)).then(code).otherwise(pl.lit(DEFAULT_FEDERATION, dtype=pl.String))
    )


def event_coefficients(events: pl.DataFrame, params: SeriesParams) -> pl.DataFrame:
    """`tournament_id, coefficient`: the export's coefficient, else by category, else default."""
    by_category = {k.lower(): float(v) for k, v in params.coefficient_by_category.items()}
    category = (
        pl.col("category").cast(pl.String).str.strip_chars().str.to_lowercase()
        if "category" in events.columns
        else pl.lit(None, dtype=pl.String)
    )
    from_category = category.replace_strict(by_category, default=None, return_dtype=pl.Float64)
    given = (
        pl.col("coefficient").cast(pl.Float64)
        if "coefficient" in events.columns
        else pl.lit(None, dtype=pl.Float64)
    )
    return events.select(
        pl.col("tournament_id"),
        given.fill_null(from_category)
        .fill_null(float(params.default_coefficient))
        .alias("coefficient"),
    )


# --------------------------------------------------------------------------- per event


def pc_points(players: pl.Expr, games: pl.Expr, place: pl.Expr) -> pl.Expr:
    """PC of a place: M − (place − 1) × 5p/4 with M = N × 5p/4, exact (Float64)."""
    step = games.cast(pl.Float64) * 5.0 / 4.0
    return (players.cast(pl.Float64) - place.cast(pl.Float64) + 1.0) * step


def duplicate_event_scores(
    results: pl.DataFrame,
    events: pl.DataFrame,
    held: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Per event and player: series held, place, %N1–%N4 with their zones, and PC.

    `results`: tournament_id, player_id, rank, series (nullable). `events`: tournament_id,
    season, games. `held`: tournament_id, player_id, series, series_source — the series each
    player holds in each event (`transforms.series_population.event_series`: written on the
    row, else last season's classification, else the latest rating list, else 7). Without
    it, the series written on the row, else 7.
    """
    # `_event`: each event's place in (season, tournament_id) order, to sort by integers
    by_event = events.select("tournament_id", "season", "games").sort("season", "tournament_id")
    frame = results.select("tournament_id", "player_id", "rank", "series").join(
        by_event.with_row_index("_event"), on="tournament_id", how="inner"
    )
    if held is None:
        # each written label read once (a handful over the season's rows)
        written = series_level_of(frame, "series")
        frame = frame.with_columns(
            pl.when(written.is_not_null())
            .then(pl.lit("results"))
            .otherwise(pl.lit("default"))
            .alias("series_source"),
            pl.coalesce(written, pl.lit(NEW_LICENSEE_SERIES)).alias("series"),
        )
    else:
        frame = frame.drop("series").join(
            held.select("tournament_id", "player_id", "series", "series_source"),
            on=["tournament_id", "player_id"],
            how="left",
        )
    frame = frame.with_columns(
        zone_series(pl.col("series")).alias("_rank"), pl.col("rank").alias("place")
    )

    # Each event's zones: one aggregation per event, joined back to its rows.
    zone_exprs: list[pl.Expr] = []
    for x in PERCENT_SERIES:
        better = (pl.col("_rank") < x).sum().cast(pl.Int64)
        count = (pl.col("_rank") == x).sum().cast(pl.Int64)
        zone_exprs += [(better + 1).alias(f"zone{x}_a"), (better + count).alias(f"zone{x}_b")]
    zones = frame.group_by("tournament_id").agg(*zone_exprs, pl.len().alias("_players"))
    frame = frame.join(zones, on="tournament_id", how="left", maintain_order="left")

    pct_exprs = []
    for x in PERCENT_SERIES:
        a, b, place = pl.col(f"zone{x}_a"), pl.col(f"zone{x}_b"), pl.col("place")
        pct_exprs.append(
            pl.when(place == 1)
            .then(pl.lit(100.0))
            .when(place < a)
            .then(pl.lit(100.0))
            .when(place > b)
            .then(pl.lit(0.0))
            .otherwise(100.0 * (b - place + 1).cast(pl.Float64) / (b - a + 1).cast(pl.Float64))
            .alias(f"pct_n{x}")
        )
    frame = frame.with_columns(
        *pct_exprs, pc_points(pl.col("_players"), pl.col("games"), pl.col("place")).alias("pc")
    )
    # in (season, tournament_id, place, player_id) order: an event's rows by `_event`
    return EVENT_SCORES.check(
        frame.sort(["_event", "place", "player_id"]).select(EVENT_SCORES.column_names)
    )


# --------------------------------------------------------------------------- per season


def season_standings(
    scores: pl.DataFrame,
    events: pl.DataFrame,
    params: SeriesParams,
    federations: pl.DataFrame | None = None,
    previous: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Per season and player: weighted global %N1–%N4, PC total, super-série percentage.

    Weights are the event coefficients; when their sum is below the minimum divisor D, D
    divides instead. `super_serie_season` is the weighted mean of %N1 without D;
    `super_serie_pct` = current × it + previous × last season's `super_serie_season`
    (`previous`: player_id, super_serie_season; absent = 0). `federations`: player_id,
    federation.
    """
    weights = event_coefficients(events, params)
    frame = scores.join(weights, on="tournament_id", how="left").with_columns(
        pl.col("coefficient").fill_null(float(params.default_coefficient))
    )
    w = pl.col("coefficient")
    weight_sum = w.sum()
    divisor = pl.max_horizontal(weight_sum, pl.lit(float(params.minimum_divisor)))
    standings = frame.group_by(["season", "player_id"]).agg(
        pl.len().cast(pl.Int64).alias("events"),
        weight_sum.alias("weight"),
        *[((w * pl.col(c)).sum() / divisor).alias(c) for c in _PCT],
        pl.col("pc").fill_null(0.0).sum().alias("pc"),
        ((w * pl.col("pct_n1")).sum() / weight_sum).alias("super_serie_season"),
    )
    if federations is not None:
        standings = standings.join(
            federations.select("player_id", "federation").unique("player_id", keep="first"),
            on="player_id",
            how="left",
        )
    else:
        standings = standings.with_columns(pl.lit(None, dtype=pl.String).alias("federation"))
    if previous is not None and previous.height > 0:
        prev = previous.select("player_id", pl.col("super_serie_season").alias("_prev")).unique(
            "player_id", keep="first"
        )
        standings = standings.join(prev, on="player_id", how="left")
    else:
        standings = standings.with_columns(pl.lit(None, dtype=pl.Float64).alias("_prev"))
    standings = standings.with_columns(
        (
            params.current_weight * pl.col("super_serie_season")
            + params.previous_weight * pl.col("_prev").fill_null(0.0)
        ).alias("super_serie_pct"),
        pl.col("_prev").fill_null(0.0).alias("super_serie_previous"),
    )
    return STANDINGS.conform(standings.sort(["season", "player_id"]))


# --------------------------------------------------------------------------- cascade


@functools.lru_cache(maxsize=64)
def _cumulative_shares(quotas: SeriesQuotas) -> tuple[tuple[int, Fraction], ...]:
    """(series, cumulative share in percent) of series 1–6 up to the rest series."""
    shares: list[tuple[int, Fraction]] = []
    cumulative = Fraction(0)
    for s in CASCADE_SERIES:
        share = quotas.series_share(s)
        if share is None:
            break
        cumulative += share
        shares.append((s, cumulative))
    return tuple(shares)


def series_boundaries(quotas: SeriesQuotas, population: int) -> dict[int, int]:
    """Cumulative boundaries round(cumulative share × N) of series 1–5 (6 is the rest)."""
    return {
        s: round_half_away(cumulative * population / 100)
        for s, cumulative in _cumulative_shares(quotas)
    }


def series_boundaries_array(quotas: SeriesQuotas, populations: np.ndarray) -> np.ndarray:
    """`series_boundaries` of many populations at once: an (len(populations), 6) Int64 array
    of the cumulative boundaries of series 1–6, −1 from the rest series on. Exact: with the
    cumulative share a/b percent, round(a/b × N / 100) half away = (2aN + 100b) // 200b."""
    sizes = np.asarray(populations, dtype=np.int64)
    out = np.full((sizes.size, len(CASCADE_SERIES)), -1, dtype=np.int64)
    for s, cumulative in _cumulative_shares(quotas):
        a, b = cumulative.numerator, cumulative.denominator
        out[:, s - 1] = (2 * a * sizes + 100 * b) // (200 * b)
    return out


def _admit_codes(values: np.ndarray, remaining: np.ndarray, wanted: int) -> np.ndarray:
    """Admission mask: the best `wanted` of the `remaining` players by `values`, ties with
    the bar (the `wanted`-th best value) admitted too. A value of 0 or missing (NaN) is never
    admitted (§3: a bar is never 0): with fewer players above 0 than wanted, every one of
    them is admitted and no other."""
    eligible = remaining & (values > 0)  # NaN > 0 is False
    pool = values[eligible]
    if wanted <= 0 or pool.size == 0:
        return np.zeros(values.shape[0], dtype=bool)
    if wanted >= pool.size:
        return eligible
    bar = np.partition(pool, pool.size - wanted)[pool.size - wanted]
    return eligible & (values >= bar - TIE_TOLERANCE)


def _cascade_codes(criteria: np.ndarray, bounds: Mapping[int, int]) -> np.ndarray:
    """Series code (1–6, 0 = left out when the quotas leave no rest) of each column of
    `criteria`, a (5, n) array of %N1–%N4 and PC, by the cascade of §3 with the cumulative
    `bounds` of `series_boundaries`: vectorised, one partial sort per series."""
    n = criteria.shape[1]
    codes = np.zeros(n, dtype=np.int8)
    remaining = np.ones(n, dtype=bool)
    admitted = 0
    for s in CASCADE_SERIES:
        if s in bounds:
            chosen = _admit_codes(criteria[_CRITERION_ROW[s]], remaining, bounds[s] - admitted)
        else:
            chosen = remaining.copy()
        codes[chosen] = s
        admitted += int(np.count_nonzero(chosen))
        remaining &= ~chosen
    return codes


def _criteria_matrix(frame: pl.DataFrame) -> np.ndarray:
    """(5, n) Float64 array of %N1–%N4 and PC (nulls as NaN) for `_cascade_codes`, always a
    writable C-ordered copy: Polars hands over a read-only zero-copy view or a writable copy
    depending on where its columns happen to lie in memory, and Numba compiles one version of
    a compiled loop for each (about 6 CPU seconds more in a process without its cache)."""
    matrix = frame.select(pl.col(c).cast(pl.Float64) for c in _CRITERION_COLUMNS).to_numpy()
    return np.array(matrix.T, dtype=np.float64, order="C", copy=True)


def _cascade(standings: pl.DataFrame, population: int, quotas: SeriesQuotas) -> pl.DataFrame:
    """Series 1–6 for the players with results: `player_id, series, criterion, value`
    (series by series, each in `standings` order)."""
    codes = _cascade_codes(_criteria_matrix(standings), series_boundaries(quotas, population))
    return (
        standings.select("player_id", *_CRITERION_COLUMNS)
        .with_columns(pl.Series("_code", codes))
        .filter(pl.col("_code") > 0)
        .sort("_code", maintain_order=True)
        .select(
            "player_id",
            pl.col("_code").cast(pl.String).alias("series"),
            _code_criterion("_code").alias("criterion"),
            _code_value("_code").alias("value"),
        )
    )


def _code_criterion(code: str) -> pl.Expr:
    """Criterion name of a series code 1–6 (null otherwise)."""
    mapping = {int(s): c for s, c in CRITERIA.items()}
    return pl.col(code).replace_strict(mapping, default=None, return_dtype=pl.String)


def _code_value(code: str) -> pl.Expr:
    """Value of the criterion of a series code 1–6, from the criterion columns (Float64)."""
    expr = pl.lit(None, dtype=pl.Float64)
    for s in reversed(CASCADE_SERIES):
        expr = pl.when(pl.col(code) == s).then(pl.col(CRITERIA[s]).cast(pl.Float64)).otherwise(expr)
    return expr


def _subseries(classified: pl.DataFrame, quotas: SeriesQuotas) -> pl.DataFrame:
    """Add `subseries`: each (federation, series) group split by its sub-quotas, cumulative
    boundaries round(cumulative sub-share / series share × group size), ties at a bar
    admitted together, the last sub-series taking the rest."""
    counts = classified.group_by(["fed_key", "series"]).agg(pl.len().alias("n"))
    bound_rows: list[dict[str, object]] = []
    last_rows: list[dict[str, object]] = []
    for fed, series, n in counts.iter_rows():
        if series == NEW_LICENSEE_SERIES:
            continue
        subs = quotas.subseries(fed, int(series))
        if not subs:
            continue
        nominal = quotas.nominal_share(int(series), fed)
        cumulative = Fraction(0)
        for j, (label, share) in enumerate(subs[:-1]):
            cumulative += share if share is not None else Fraction(0)
            bound_rows.append(
                {
                    "fed_key": fed,
                    "series": series,
                    "_j": j,
                    "_label": label,
                    "_pos": round_half_away(cumulative / nominal * n),
                }
            )
        last_rows.append({"fed_key": fed, "series": series, "_last": subs[-1][0]})
    if not last_rows:
        return classified.with_columns(pl.lit(None, dtype=pl.String).alias("subseries"))

    ranked = classified.sort(
        ["fed_key", "series", "value", "player_id"],
        descending=[False, False, True, False],
        nulls_last=True,
    ).with_columns(pl.int_range(1, pl.len() + 1).over(["fed_key", "series"]).alias("_pos"))
    schema = {
        "fed_key": pl.String,
        "series": pl.String,
        "_j": pl.Int64,
        "_label": pl.String,
        "_pos": pl.Int64,
    }
    bounds = pl.DataFrame(bound_rows, schema=schema).join(
        ranked.select("fed_key", "series", "_pos", pl.col("value").alias("_bar")),
        on=["fed_key", "series", "_pos"],
        how="left",
    )
    first_admitted = (
        ranked.select("player_id", "fed_key", "series", "value")
        .join(bounds, on=["fed_key", "series"], how="inner")
        .filter(
            (pl.col("_pos") > 0)
            & pl.col("_bar").is_not_null()
            & (pl.col("value") > 0)  # a sub-series bar is never 0 either
            & (pl.col("value") >= pl.col("_bar") - TIE_TOLERANCE)
        )
        .sort("_j")
        .group_by("player_id")
        .agg(pl.col("_label").first().alias("_sub"))
    )
    last = pl.DataFrame(
        last_rows, schema={"fed_key": pl.String, "series": pl.String, "_last": pl.String}
    )
    return (
        classified.join(first_admitted, on="player_id", how="left")
        .join(last, on=["fed_key", "series"], how="left")
        .with_columns(pl.coalesce("_sub", "_last").alias("subseries"))
        .drop("_sub", "_last")
    )


def _super_serie(
    standings: pl.DataFrame, series_one: pl.DataFrame, params: SeriesParams
) -> pl.DataFrame:
    """`player_id, super_serie`: among the players the cascade classifies in series 1
    (`series_one`: player_id), the top `size` by value strictly above the threshold, ties at
    the bar admitted too."""
    eligible = standings.join(series_one.select("player_id"), on="player_id", how="semi").filter(
        pl.col(SUPER_SERIE_CRITERION) > params.super_serie_threshold
    )
    values = eligible.get_column(SUPER_SERIE_CRITERION).to_numpy().astype(np.float64)
    chosen = _admit_codes(values, np.ones(values.size, dtype=bool), params.super_serie_size)
    return eligible.filter(pl.Series(chosen)).select("player_id", pl.lit(True).alias("super_serie"))


def classify_season(
    standings: pl.DataFrame,
    new_licensees: pl.DataFrame,
    quotas: SeriesQuotas,
    params: SeriesParams,
    held_series: pl.DataFrame | None = None,
    *,
    federations: AliasTable,
) -> Classification:
    """End-of-season classification (barres d'accès) for the next season.

    `standings`: one season of `season_standings`. `new_licensees`: player_id, federation —
    licensees of the season without result (series 7). `held_series`: player_id, series —
    what each player held during the season, for the movements (absent = new).
    `federations`: the alias table mapping the written federations to the quota codes
    (`federation_key_expr`).
    N = players with results + new licensees; cumulative boundaries of series 1–5; series
    1–4 by %N1–%N4, 5 by PC, 6 the rest with results, 7 the new licensees.
    """
    season = standings.get_column("season")[0] if standings.height else None
    if season is None and "season" in new_licensees.columns and new_licensees.height:
        season = new_licensees.get_column("season")[0]
    known = quotas.federations()
    new = (
        new_licensees.select("player_id", "federation")
        .join(standings.select("player_id"), on="player_id", how="anti")
        .unique("player_id", keep="first")
    )
    population = standings.height + new.height

    cascade = _cascade(standings, population, quotas)
    classified = pl.concat(
        [
            cascade.join(standings.select("player_id", "federation"), on="player_id"),
            new.select(
                "player_id",
                pl.lit(NEW_LICENSEE_SERIES).alias("series"),
                pl.lit(None, dtype=pl.String).alias("criterion"),
                pl.lit(None, dtype=pl.Float64).alias("value"),
                pl.col("federation").cast(pl.String),
            ),
        ],
        how="diagonal",
    )
    fed_key = per_distinct(
        classified, "federation", lambda f: federation_key_expr(f, federations, known), pl.String
    )
    classified = classified.with_columns(fed_key.alias("fed_key"))
    classified = _subseries(classified, quotas)
    ss = _super_serie(standings, cascade.filter(pl.col("series") == "1"), params)
    classified = (
        classified.join(ss, on="player_id", how="left")
        .join(
            standings.select("player_id", pl.col(SUPER_SERIE_CRITERION).alias("super_serie_value")),
            on="player_id",
            how="left",
        )
        .with_columns(pl.col("super_serie").fill_null(False), pl.lit(season).alias("season"))
    )
    table = CLASSIFICATION.conform(
        classified.with_columns(
            pl.col("season").cast(pl.String), pl.col("federation").cast(pl.String)
        )
    ).sort(
        ["series", "subseries", "value", "player_id"],
        descending=[False, False, True, False],
        nulls_last=True,
    )
    bars = _bars(classified, standings, quotas, params, population, season)
    movements = _movements(table, held_series, new.get_column("player_id"), season)
    return Classification(CLASSIFICATION.check(table), BARS.check(bars), MOVEMENTS.check(movements))


def _bars(
    classified: pl.DataFrame,
    standings: pl.DataFrame,
    quotas: SeriesQuotas,
    params: SeriesParams,
    population: int,
    season: str | None,
) -> pl.DataFrame:
    """Barres d'accès: value of the last admitted player of each series and sub-series."""
    bounds = series_boundaries(quotas, population)
    n_new = classified.filter(pl.col("series") == NEW_LICENSEE_SERIES).height
    targets: dict[str, int] = {}
    previous = 0
    for s in CASCADE_SERIES:
        bound = bounds.get(s, population - n_new)
        targets[str(s)] = max(bound - previous, 0)
        previous = bound
    targets[NEW_LICENSEE_SERIES] = n_new

    def aggregate(keys: list[str]) -> pl.DataFrame:
        return classified.group_by(keys).agg(
            pl.col("criterion").first(),
            pl.col("value").min().alias("bar"),
            pl.len().cast(pl.Int64).alias("admitted"),
        )

    series_level = aggregate(["series"]).with_columns(
        pl.lit(None, dtype=pl.String).alias("federation"),
        pl.lit(None, dtype=pl.String).alias("subseries"),
    )
    # Every series gets a row, an empty one with no bar.
    all_series = pl.DataFrame({"series": [*targets]})
    series_level = all_series.join(series_level, on="series", how="left").with_columns(
        pl.col("criterion").fill_null(
            pl.col("series").replace_strict(
                {str(k): v for k, v in CRITERIA.items()}, default=None, return_dtype=pl.String
            )
        ),
        pl.col("admitted").fill_null(0),
        pl.col("series").replace_strict(targets, return_dtype=pl.Int64).alias("target"),
    )
    sub_level = (
        aggregate(["fed_key", "series", "subseries"])
        .filter(pl.col("subseries").is_not_null())
        .rename({"fed_key": "federation"})
        .with_columns(pl.lit(None, dtype=pl.Int64).alias("target"))
    )
    ss = classified.filter(pl.col("super_serie"))
    ss_level = pl.DataFrame(
        {
            "series": [SUPER_SERIE],
            "subseries": [None],
            "federation": [None],
            "criterion": [SUPER_SERIE_CRITERION],
            "bar": [ss.get_column("super_serie_value").min() if ss.height else None],
            "admitted": [ss.height],
            "target": [params.super_serie_size],
        },
        schema={
            "series": pl.String,
            "subseries": pl.String,
            "federation": pl.String,
            "criterion": pl.String,
            "bar": pl.Float64,
            "admitted": pl.Int64,
            "target": pl.Int64,
        },
    )
    cols = ["series", "subseries", "federation", "criterion", "bar", "admitted", "target"]
    out = pl.concat(
        [
            f.select(cols).cast({"bar": pl.Float64, "admitted": pl.Int64, "target": pl.Int64})
            for f in (ss_level, series_level, sub_level)
        ]
    )
    order = {SUPER_SERIE: 0, **{str(i): i for i in range(1, 8)}}
    return (
        out.with_columns(pl.lit(season, dtype=pl.String).alias("season"))
        .with_columns(pl.col("series").replace_strict(order, return_dtype=pl.Int64).alias("_o"))
        .sort(["_o", "federation", "subseries"], nulls_last=False)
        .select("season", *cols)
    )


def _movements(
    table: pl.DataFrame,
    held_series: pl.DataFrame | None,
    new_licensees: pl.Series,
    season: str | None,
) -> pl.DataFrame:
    """promoted / relegated / unchanged / new, comparing held and next series (SS above 1);
    a new licensee, or a player who held no series, is `new`."""
    frame = table.select(
        "player_id",
        pl.when(pl.col("super_serie"))
        .then(pl.lit(SUPER_SERIE))
        .otherwise(pl.col("series"))
        .alias("series"),
    )
    if held_series is not None and held_series.height > 0:
        held = held_series.select(
            "player_id", series_level_of(held_series, "series").alias("previous_series")
        ).unique("player_id", keep="first")
        frame = frame.join(held, on="player_id", how="left")
    else:
        frame = frame.with_columns(pl.lit(None, dtype=pl.String).alias("previous_series"))
    before = series_step(pl.col("previous_series"))
    after = series_step(pl.col("series"))
    is_new = pl.col("previous_series").is_null() | pl.col("player_id").is_in(
        new_licensees.implode()
    )
    return frame.select(
        pl.lit(season, dtype=pl.String).alias("season"),
        "player_id",
        "previous_series",
        "series",
        pl.when(is_new)
        .then(pl.lit("new"))
        .when(after < before)
        .then(pl.lit("promoted"))
        .when(after > before)
        .then(pl.lit("relegated"))
        .otherwise(pl.lit("unchanged"))
        .alias("movement"),
    ).sort("player_id")


def season_series_from_classification(classification: pl.DataFrame) -> pl.DataFrame:
    """`season, player_id, series` valid the season after the classified one (SS kept)."""
    return classification.select(
        shift_season_expr(pl.col("season"), 1).alias("season"),
        "player_id",
        pl.when(pl.col("super_serie"))
        .then(pl.lit(SUPER_SERIE))
        .otherwise(pl.col("series"))
        .alias("series"),
    )


def quota_check(
    classification: pl.DataFrame, quotas: SeriesQuotas, standings: pl.DataFrame
) -> pl.DataFrame:
    """Per series: quota share × N, `target` (what the cascade wanted: its cumulative
    boundary minus the players admitted before it), admitted, and `ok`.

    A series passes when it admits exactly its target; or more, only by players tied at
    its bar; or fewer, only because no player left for the series below it has a value
    above 0 of its criterion (`standings`: every classified player's %N1–%N4 and PC; §3: a
    bar is never 0). Series 6 is the rest and 7 the new licensees.
    """
    population = classification.height
    bounds = series_boundaries(quotas, population)
    sizes = dict(classification.group_by("series").agg(pl.len()).iter_rows())
    n_new = int(sizes.get(NEW_LICENSEE_SERIES, 0))
    n_pool = population - n_new
    criteria = standings.select("player_id", *_CRITERION_COLUMNS).join(
        classification.select("player_id", "series"), on="player_id", how="inner"
    )
    rows: list[dict[str, object]] = []
    before = 0  # players admitted by the series above
    for s in CASCADE_SERIES:
        label = str(s)
        size = int(sizes.get(label, 0))
        members = classification.filter(pl.col("series") == label)
        if s in bounds:
            share = quotas.series_share(s)
            quota = float((share or Fraction(0)) * population / 100)
            wanted = max(min(bounds[s], n_pool) - before, 0)
            tied = 0
            if size:
                bar = members.get_column("value").min()
                tied = members.filter((pl.col("value") - bar).abs() <= TIE_TOLERANCE).height
            below = criteria.filter(
                series_step(pl.col("series")) > s, pl.col(CRITERIA[s]).fill_null(0.0) > 0
            ).height
            ok = (
                size == wanted
                or (size > wanted and size - wanted <= tied - 1)
                or (size < wanted and below == 0)
            )
        else:
            wanted = n_pool - before
            quota = float(wanted)
            ok = size == wanted
        rows.append(
            {
                "series": label,
                "quota": quota,
                "target": wanted,
                "admitted": size,
                "tie_excess": max(size - wanted, 0),
                "shortfall": max(wanted - size, 0),
                "ok": ok,
            }
        )
        before += size
    rows.append(
        {
            "series": NEW_LICENSEE_SERIES,
            "quota": float(n_new),
            "target": n_new,
            "admitted": n_new,
            "tie_excess": 0,
            "shortfall": 0,
            "ok": True,
        }
    )
    return pl.DataFrame(
        rows,
        schema={
            "series": pl.String,
            "quota": pl.Float64,
            "target": pl.Int64,
            "admitted": pl.Int64,
            "tie_excess": pl.Int64,
            "shortfall": pl.Int64,
            "ok": pl.Boolean,
        },
    )
