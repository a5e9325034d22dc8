"""National classifications of series 5–7 (docs/rules.md §4, source [000]).

[000]: "les séries 5 à 7 sont des séries nationales, et chaque pays membre de la FISF peut
établir son propre classement pour les joueurs qui ne figurent pas dans les quatre premières
séries". Each federation with a national rule (`data/reference/national.yaml`) classifies
its licensees who are not in the international series:

- **France** (`france`): 5A by a minimum global %N4 *or* by the season PC within 5A's
  quota; then 5B … 6C by PC bars set from the federation's sub-quotas, 6D the rest.
- **Belgium** (`belgium`): PP5, PP6, PP7 by the zone method of §3 for X = 5, 6, 7; series 5
  by PP5 (quotas, and a minimum PP5), series 6 by PP6, series 7 by PP7.
- **Switzerland** (`switzerland`): PC of the player's best events — their 3 best events held
  in Switzerland plus the 5 best of all their other events — then the sub-quotas.
- **Luxembourg, United Kingdom** (`median`): per event score / total of tops × 100; the
  season value is the median; the *clé de répartition*, built from the same season's
  reference federation (France), maps it to a series.

Pure transforms (Polars and NumPy in, frames out). Inputs are the warehouse's frames:
`series_classification` (the population, the cascade's series and each player's
federation), `duplicate_event_scores`, `series_standings`, `tournaments` and `results`.
Parameters come as `NationalParams` (`national.yaml`), the quotas as `SeriesQuotas`
(`series_quotas.csv`) and the federations as an `AliasTable` (`federations.csv`).

Decisions taken here, where [000] and docs/rules.md §4 are silent:

- **Who is classified.** The population of a season is the cascade's
  (`series_classification`: every player with a duplicate result in the season plus the
  season's new licensees), each with their federation mapped through `federations.csv`.
  Every licensee of a federation with a rule gets exactly one row: the international
  series (SS, 1–4, with the cascade's sub-series and criterion value, rule
  `international`) as the cascade gives it;
  series 7 for a new licensee without result (`new_licensee`); for everyone else — the
  players the cascade puts in series 5 or 6 — the federation's rule, which replaces the
  cascade's series 5/6 for them. A player whose federation is unknown or has no rule gets
  no row here.
- **Quotas of a national rule** are those of `series_quotas.csv` for the federation, in
  percent of N = the federation's licensees in the population (international players and
  new licensees included), with cumulative boundaries round(cumulative share × N) as in
  §3: the number admitted to a step is its boundary minus everyone of the federation
  already classified above it (the international players first). A step that has already
  been overtaken (ties, or more players above than the quotas give) admits nobody. Ties
  with the last admitted player are admitted; a criterion value of 0 or none never admits
  (the bar is never 0); a `rest` step takes everyone left.
- **France** (docs/rules.md §4, a decision of the committee: « des barres d'accès sont
  établies pour accéder aux séries 5 et 6 et éventuellement à leurs subdivisions »): the
  pool is the French players of series 5–6 of the cascade. 5A first takes every one of
  them whose global %N4 reaches `min_pct_n4`, whatever their PC (rule `france_pct_n4`,
  value %N4); they count inside 5A's quota. Then every PC bar, 5A's included, is set from
  the FRA sub-quotas like any quota step: 5A (4 % of N) admits by PC its cumulative
  boundary minus everyone above and the %N4 route's players (never a negative number;
  rule `france_pc`, value PC), then 5B, 5C, 5D, 6A, 6B, 6C; 6D is the rest. The published
  bars (`national_bars`) are the %N4 minimum (`kind` = `minimum`) and the PC of the last
  admitted player of each quota step, 5A's included.
- **Belgium**: PP5, PP6, PP7 reuse §3's zone method as it is (`duplicate_event_scores` and
  `season_standings`), by shifting the series held that day by X − 4 so that series X takes
  the place of series 4 (better series fold into 1): PP_X is the %N4 of the shifted field,
  weighted by the event coefficients with the minimum divisor like %N4. Series 5 admits by
  PP5 within the BEL quotas and only from the minimum PP5 (`min_pp5`); series 6 admits by
  PP6 (6A by quota, 6B every remaining player with PP6 above 0); the remaining players
  (PP6 = 0: they finished below every player of series 1–6 of their events) are series 7
  with their PP7 as value.
- **Switzerland**: the events are the season's duplicate events; an event is *held in
  Switzerland* when its `country` maps to the federation's own code (SUI) through
  `federations.csv`. The counted events are the player's `home_events` (3) best home events
  by PC plus the `counted_events − home_events` (5) best of all their other events (other
  home events included). A player with fewer home events is not classified by the rule:
  no series, no value, and the reason in French. The others are ranked by that PC with the
  SUI sub-quotas (N counts the unclassified too).
- **Median rule**: an event counts when the player's `score` and the event's `top_total`
  (above 0) are known; a player with no such event is not classified (reason). The clé's
  reference players are the reference federation's players of the population with at
  least one such event; each counts in the series they *held during the season* — the
  series written for (or applying to) them at their last event of the season in event
  order (`duplicate_event_scores.series`; SS counts as 1). The clé covers the series of
  `median.series` (5, 6, 7 by default: the national series, since the international ones
  come from the cascade). A series with no reference player gets a row with 0 players and
  no median or bounds, and nobody is mapped to it; the bounds are the midpoints between
  the adjacent series that have players. A value goes to the best series whose lower bound
  it reaches (a value equal to a bound goes to the better series); the lowest series has no
  lower bound. When no series has a reference player, nobody is classified (reason).
- Values count as equal within `transforms.series.TIE_TOLERANCE` (float noise of weighted
  means and medians), at bars as at minimums.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import polars as pl

from transforms.calendar import ordered_events
from transforms.federations import AliasTable, canonical_expr
from transforms.rounding import round_half_away
from transforms.series import (
    PERCENT_SERIES,
    TIE_TOLERANCE,
    SeriesParams,
    SeriesQuotas,
    duplicate_event_scores,
    season_standings,
)
from transforms.series_labels import (
    NEW_LICENSEE_SERIES,
    SERIES_ORDER,
    SUPER_SERIE,
    series_step,
    zone_series,
)
from transforms.tables import table

NATIONAL_CLASSIFICATION = table("national_classification")
NATIONAL_BARS = table("national_bars")
CLE_DE_REPARTITION = table("cle_de_repartition")

# Rules a federation may use (`rules` of national.yaml).
FRANCE, BELGIUM, SWITZERLAND, MEDIAN = "france", "belgium", "switzerland", "median"
RULES = (FRANCE, BELGIUM, SWITZERLAND, MEDIAN)

# Values of the `rule` column.
INTERNATIONAL = "international"
NEW_LICENSEE = "new_licensee"
FRANCE_PCT_N4 = "france_pct_n4"
FRANCE_PC = "france_pc"
BELGIUM_PP = {5: "belgium_pp5", 6: "belgium_pp6", 7: "belgium_pp7"}
SWITZERLAND_PC = "switzerland_pc"
MEDIAN_CLE = "median_cle"

# Values of `national_bars.kind`, in display order within a series.
MINIMUM, QUOTA, REST = "minimum", "quota", "rest"
BAR_KINDS = (MINIMUM, QUOTA, REST)

INTERNATIONAL_SERIES = (SUPER_SERIE, "1", "2", "3", "4")
NATIONAL_LEVELS = (5, 6)  # the series a national rule fills from the quotas (7 aside)


# --------------------------------------------------------------------------- parameters


@dataclass(frozen=True)
class FranceParams:
    """5A is reached by a global %N4 of at least `min_pct_n4`, or by the season PC within
    5A's quota (a bar set each season, not a parameter)."""

    min_pct_n4: float


@dataclass(frozen=True)
class BelgiumParams:
    """Series 5 needs a season PP5 of at least `min_pp5` (percent)."""

    min_pp5: float


@dataclass(frozen=True)
class SwitzerlandParams:
    """PC of the best `counted_events` events, `home_events` of them held at home."""

    counted_events: int
    home_events: int

    def __post_init__(self) -> None:
        if not 0 < self.home_events <= self.counted_events:
            raise ValueError("switzerland: need 0 < home_events <= counted_events")


@dataclass(frozen=True)
class MedianParams:
    """The clé's reference federation (a code of federations.csv) and its series, best
    first."""

    reference_federation: str
    series: tuple[str, ...]

    def __post_init__(self) -> None:
        unknown = [s for s in self.series if s not in SERIES_ORDER]
        if unknown or not self.series:
            raise ValueError(f"median: series must be among {', '.join(SERIES_ORDER)}")
        if len(set(self.series)) != len(self.series):
            raise ValueError("median: a series is listed twice")


@dataclass(frozen=True)
class NationalParams:
    """Every parameter of §4: the rule of each federation (by code) and each rule's numbers."""

    rules: Mapping[str, str]
    france: FranceParams
    belgium: BelgiumParams
    switzerland: SwitzerlandParams
    median: MedianParams

    def __post_init__(self) -> None:
        unknown = sorted({r for r in self.rules.values() if r not in RULES})
        if unknown:
            raise ValueError(f"unknown national rule(s) {', '.join(unknown)}")


@dataclass(frozen=True)
class National:
    """The season tables of §4."""

    classification: pl.DataFrame
    bars: pl.DataFrame
    cle: pl.DataFrame


# --------------------------------------------------------------------------- Belgium: PP


def pp_standings(
    scores: pl.DataFrame,
    events: pl.DataFrame,
    series_params: SeriesParams,
    levels: Sequence[int] = (5, 6, 7),
    *,
    players: pl.Series | None = None,
) -> pl.DataFrame:
    """`season, player_id, pp5, pp6, pp7`: the season's global PP_X for X in `levels`.

    §3's zone method as `duplicate_event_scores` and `season_standings` compute %N4, on the
    series held that day shifted by X − 4 (series X becomes 4, better ones fold into 1), so
    PP_X is the shifted %N4. `scores`: `duplicate_event_scores` rows; `events`: their
    `tournaments` rows (season, games, coefficient, category). With `players`, only the
    events they played are scored, every player of them (an event's zones count its whole
    field): their PP are the same, other players' are left out or partial.
    """
    if players is not None:
        played = scores.filter(pl.col("player_id").is_in(players.implode()))
        scores = scores.filter(pl.col("tournament_id").is_in(played["tournament_id"].implode()))
    top = PERCENT_SERIES[-1]
    keys = ["season", "player_id"]
    out: pl.DataFrame | None = None
    for x in levels:
        if x <= top:
            raise ValueError(f"PP{x}: the national percentages start at series {top + 1}")
        shifted = scores.select(
            "tournament_id",
            "player_id",
            pl.col("place").alias("rank"),
            (zone_series(pl.col("series")) - (x - top))
            .clip(lower_bound=1)
            .cast(pl.String)
            .alias("series"),
        )
        percent = duplicate_event_scores(shifted, events)
        part = season_standings(percent, events, series_params).select(
            *keys, pl.col(f"pct_n{top}").alias(f"pp{x}")
        )
        out = part if out is None else out.join(part, on=keys, how="full", coalesce=True)
    if out is None:
        return pl.DataFrame(schema={"season": pl.String, "player_id": pl.String})
    return out.sort(keys)


# --------------------------------------------------------------------------- Switzerland


def best_events_pc(
    scores: pl.DataFrame,
    events: pl.DataFrame,
    players: pl.DataFrame,
    federations: AliasTable,
    params: SwitzerlandParams,
) -> pl.DataFrame:
    """`season, player_id, events, home_events, pc_best` of each player of `players`
    (`player_id, federation` as a code): PC summed over their `home_events` best events
    held in their federation's country plus the best of all their other events, up to
    `counted_events` in all. `home_events` counts every home event of the season."""
    frame = (
        scores.select("season", "tournament_id", "player_id", pl.col("pc").fill_null(0.0))
        .join(players.select("player_id", "federation"), on="player_id", how="inner")
        .join(
            events.select(
                "tournament_id", canonical_expr("country", federations).alias("_country")
            ),
            on="tournament_id",
            how="left",
        )
        .with_columns((pl.col("_country") == pl.col("federation")).fill_null(False).alias("_home"))
        .sort(
            ["season", "player_id", "pc", "tournament_id"], descending=[False, False, True, False]
        )
    )
    keys = ["season", "player_id"]
    home_rank = pl.col("_home").cum_sum().over(keys)
    frame = frame.with_columns((pl.col("_home") & (home_rank <= params.home_events)).alias("_best"))
    other_rank = (~pl.col("_best")).cum_sum().over(keys)
    others = params.counted_events - params.home_events
    frame = frame.with_columns(
        (pl.col("_best") | (~pl.col("_best") & (other_rank <= others))).alias("_counted")
    )
    return (
        frame.group_by(keys)
        .agg(
            pl.len().cast(pl.Int64).alias("events"),
            pl.col("_home").sum().cast(pl.Int64).alias("home_events"),
            pl.col("pc").filter(pl.col("_counted")).sum().alias("pc_best"),
        )
        .sort(keys)
    )


# --------------------------------------------------------------------------- median rule


def event_percentages(
    scores: pl.DataFrame, results: pl.DataFrame, events: pl.DataFrame
) -> pl.DataFrame:
    """`season, tournament_id, player_id, percentage` = score / total of tops × 100, for
    every duplicate result whose score and event `top_total` (above 0) are known."""
    return (
        scores.select("season", "tournament_id", "player_id")
        .join(
            results.select("tournament_id", "player_id", "score"),
            on=["tournament_id", "player_id"],
            how="inner",
        )
        .join(events.select("tournament_id", "top_total"), on="tournament_id", how="inner")
        .filter(pl.col("score").is_not_null() & (pl.col("top_total") > 0))
        .select(
            "season",
            "tournament_id",
            "player_id",
            (pl.col("score").cast(pl.Float64) * 100.0 / pl.col("top_total").cast(pl.Float64)).alias(
                "percentage"
            ),
        )
        .sort(["season", "player_id", "tournament_id"])
    )


def season_medians(percentages: pl.DataFrame) -> pl.DataFrame:
    """`season, player_id, events, median`: the median of each player's event percentages
    (an even count gives the mean of the two middle values)."""
    return (
        percentages.group_by(["season", "player_id"])
        .agg(
            pl.len().cast(pl.Int64).alias("events"),
            pl.col("percentage").median().alias("median"),
        )
        .sort(["season", "player_id"])
    )


def season_held_series(scores: pl.DataFrame, events: pl.DataFrame) -> pl.DataFrame:
    """`season, player_id, series`: the series of each player at their last event of the
    season in event order (SS counts as 1)."""
    order = (
        ordered_events(events.select("tournament_id", "start_date", "end_date"))
        .select("tournament_id")
        .with_row_index("_order")
    )
    return (
        scores.select("season", "tournament_id", "player_id", "series")
        .join(order, on="tournament_id", how="inner")
        .sort("_order")
        .group_by(["season", "player_id"], maintain_order=True)
        .agg(pl.col("series").last())
        .with_columns(
            pl.when(pl.col("series") == SUPER_SERIE)
            .then(pl.lit("1"))
            .otherwise(pl.col("series"))
            .alias("series")
        )
        .sort(["season", "player_id"])
    )


def cle_de_repartition(
    season: str,
    medians: pl.DataFrame,
    held: pl.DataFrame,
    players: pl.DataFrame,
    params: MedianParams,
) -> pl.DataFrame:
    """The clé of one season: for each series of `params.series`, the median over the
    reference federation's players who held it of their season median, and the bounds
    (midpoints between adjacent series with players).

    `medians`: `season_medians`; `held`: `season_held_series`; `players`: `player_id,
    federation` (codes) of the season's population."""
    order = sorted(params.series, key=SERIES_ORDER.index)
    reference = (
        medians.filter(pl.col("season") == season)
        .join(
            players.filter(pl.col("federation") == params.reference_federation).select("player_id"),
            on="player_id",
            how="semi",
        )
        .join(held.filter(pl.col("season") == season), on=["season", "player_id"], how="inner")
        .group_by("series")
        .agg(
            pl.col("median").median().alias("reference_median"),
            pl.len().cast(pl.Int64).alias("players"),
        )
    )
    grid = pl.DataFrame(
        {"series": order, "_o": list(range(len(order)))},
        schema={"series": pl.String, "_o": pl.Int64},
    )
    cle = grid.join(reference, on="series", how="left").with_columns(pl.col("players").fill_null(0))
    present = cle.filter(pl.col("players") > 0).sort("_o")
    median = pl.col("reference_median")
    present = present.select(
        "series",
        ((median + median.shift(-1)) / 2.0).alias("lower_bound"),
        ((median + median.shift(1)) / 2.0).alias("upper_bound"),
    )
    return CLE_DE_REPARTITION.check(
        cle.join(present, on="series", how="left")
        .sort("_o")
        .select(
            pl.lit(season, dtype=pl.String).alias("season"),
            pl.lit(params.reference_federation, dtype=pl.String).alias("reference_federation"),
            "series",
            pl.col("reference_median").cast(pl.Float64),
            pl.col("lower_bound").cast(pl.Float64),
            pl.col("upper_bound").cast(pl.Float64),
            "players",
        )
    )


def cle_series_expr(value: pl.Expr, cle: pl.DataFrame) -> pl.Expr:
    """The series a value maps to through one season's clé: the best series with
    reference players whose lower bound it reaches (null when the clé has no player)."""
    present = cle.filter(pl.col("players") > 0).sort(series_step(pl.col("series")), nulls_last=True)
    expr = pl.lit(None, dtype=pl.String)
    for series, lower in reversed(present.select("series", "lower_bound").rows()):
        reached = pl.lit(True) if lower is None else value >= lower - TIE_TOLERANCE
        expr = pl.when(value.is_not_null() & reached).then(pl.lit(series)).otherwise(expr)
    return expr


# --------------------------------------------------------------------------- quota ladders


@dataclass(frozen=True)
class _Step:
    """One step of a national ladder: who it admits, by which criterion, up to where."""

    series: str
    subseries: str | None
    rule: str
    column: str
    cumulative: Fraction | None  # cumulative share in percent of N; None = the rest
    minimum: float | None = None
    positive: bool = True  # a value of 0 (or none) never admits


def _quota_steps(
    quotas: SeriesQuotas, federation: str
) -> list[tuple[str, str | None, Fraction | None]]:
    """(series, sub-series, cumulative share or None for a rest) of series 5 and 6 for a
    federation, sub-series first when the series is split; series 1–4 open the sum."""
    cumulative = sum(
        (quotas.series_share(s, federation) or Fraction(0) for s in PERCENT_SERIES),
        Fraction(0),
    )
    steps: list[tuple[str, str | None, Fraction | None]] = []
    for s in NATIONAL_LEVELS:
        subs: list[tuple[str | None, Fraction | None]] = list(quotas.subseries(federation, s))
        if not subs:
            subs = [(None, quotas.series_share(s, federation))]
        for label, share in subs:
            if share is None:
                steps.append((str(s), label, None))
            else:
                cumulative += share
                steps.append((str(s), label, cumulative))
    return steps


def _best(values: np.ndarray, eligible: np.ndarray, wanted: int) -> np.ndarray:
    """The best `wanted` eligible players by value, with every player tied with the last."""
    pool = values[eligible]
    if wanted <= 0 or pool.size == 0:
        return np.zeros(values.shape[0], dtype=bool)
    if wanted >= pool.size:
        return eligible.copy()
    bar = np.partition(pool, pool.size - wanted)[pool.size - wanted]
    return eligible & (values >= bar - TIE_TOLERANCE)


def _ladder(
    pool: pl.DataFrame, steps: Sequence[_Step], population: int, above: int
) -> tuple[pl.DataFrame, list[dict[str, object]]]:
    """Run the steps over `pool` (player_id and the criterion columns): `player_id, series,
    subseries, rule, value` of the admitted (in pool order), and one bar row per step."""
    n = pool.height
    step_of = np.full(n, -1, dtype=np.int64)
    value_of = np.full(n, np.nan)
    remaining = np.ones(n, dtype=bool)
    admitted = above
    bars: list[dict[str, object]] = []
    for k, step in enumerate(steps):
        values = pool.get_column(step.column).cast(pl.Float64).fill_null(np.nan).to_numpy()
        eligible = remaining & ~np.isnan(values)
        if step.positive:
            eligible &= values > 0
        if step.minimum is not None:
            eligible &= values >= step.minimum - TIE_TOLERANCE
        if step.cumulative is None:
            target = None
            chosen = eligible
        else:
            boundary = round_half_away(step.cumulative * population / 100)
            target = max(boundary - admitted, 0)
            chosen = _best(values, eligible, target)
        count = int(chosen.sum())
        step_of[chosen] = k
        value_of[chosen] = values[chosen]
        remaining &= ~chosen
        admitted += count
        bars.append(
            {
                "series": step.series,
                "subseries": step.subseries,
                "rule": step.rule,
                "bar": float(values[chosen].min()) if count else None,
                "admitted": count,
                "target": target,
                "kind": REST if step.cumulative is None else QUOTA,
            }
        )
    labels = pl.DataFrame(
        {
            "_step": list(range(len(steps))),
            "series": [s.series for s in steps],
            "subseries": [s.subseries for s in steps],
            "rule": [s.rule for s in steps],
        },
        schema={"_step": pl.Int64, "series": pl.String, "subseries": pl.String, "rule": pl.String},
    )
    chosen_rows = (
        pool.select("player_id")
        .with_columns(pl.Series("_step", step_of), pl.Series("value", value_of))
        .filter(pl.col("_step") >= 0)
        .join(labels, on="_step", how="left", maintain_order="left")
        .select("player_id", "series", "subseries", "rule", "value")
    )
    return chosen_rows, bars


# --------------------------------------------------------------------------- the rules


_ROW_SCHEMA = {
    "player_id": pl.String,
    "rule": pl.String,
    "value": pl.Float64,
    "series": pl.String,
    "subseries": pl.String,
    "reason": pl.String,
}


def _rows(frame: pl.DataFrame) -> pl.DataFrame:
    """Rows of the classification (`player_id, rule, value, series, subseries, reason`)."""
    missing = [c for c in _ROW_SCHEMA if c not in frame.columns]
    return frame.with_columns(pl.lit(None).alias(c) for c in missing).select(
        pl.col(c).cast(t) for c, t in _ROW_SCHEMA.items()
    )


def _unclassified(players: pl.DataFrame, rule: str, reason: str) -> pl.DataFrame:
    """Left over after every step (only when the quotas have no rest)."""
    return _rows(
        players.select(
            "player_id",
            pl.lit(rule).alias("rule"),
            pl.lit(reason).alias("reason"),
        )
    )


@dataclass(frozen=True)
class _Federation:
    """One federation's share of a season: its pool, its size and those above the pool."""

    code: str
    name: str
    pool: pl.DataFrame  # player_id of the players its rule classifies
    population: int
    above: int


def _france(
    fed: _Federation, standings: pl.DataFrame, quotas: SeriesQuotas, params: FranceParams
) -> tuple[pl.DataFrame, list[dict[str, object]]]:
    pool = fed.pool.join(
        standings.select("player_id", "pct_n4", "pc"), on="player_id", how="left"
    ).with_columns(pl.col("pc").fill_null(0.0), pl.col("pct_n4").fill_null(0.0))
    by_n4 = (pl.col("pct_n4") > 0) & (pl.col("pct_n4") >= params.min_pct_n4 - TIE_TOLERANCE)
    pool = pool.with_columns(by_n4.alias("_by_n4"))
    steps = _quota_steps(quotas, fed.code)
    first_series, first_sub, _ = steps[0]
    # 5A by %N4: whatever their PC, inside 5A's quota (the PC route admits the rest of it)
    top = pool.filter(pl.col("_by_n4"))
    top_rows = _rows(
        top.select(
            "player_id",
            pl.lit(FRANCE_PCT_N4).alias("rule"),
            pl.col("pct_n4").alias("value"),
            pl.lit(first_series).alias("series"),
            pl.lit(first_sub).alias("subseries"),
        )
    )
    minimum: dict[str, object] = {
        "series": first_series,
        "subseries": first_sub,
        "rule": FRANCE_PCT_N4,
        "bar": float(params.min_pct_n4),
        "admitted": top.height,
        "target": None,
        "kind": MINIMUM,
    }
    # every PC bar, 5A's included, from the cumulative FRA sub-quotas
    ladder = [
        _Step(series, sub, FRANCE_PC, "pc", cumulative, positive=cumulative is not None)
        for series, sub, cumulative in steps
    ]
    rest = pool.filter(~pl.col("_by_n4"))
    chosen, ladder_bars = _ladder(rest, ladder, fed.population, fed.above + top.height)
    left = rest.join(chosen, on="player_id", how="anti")
    frames = [top_rows, _rows(chosen)]
    if left.height:
        frames.append(_unclassified(left, FRANCE_PC, "aucune série ne l'admet par les PC"))
    return pl.concat(frames), [minimum, *ladder_bars]


def _belgium(
    fed: _Federation,
    pp: pl.DataFrame,
    quotas: SeriesQuotas,
    params: BelgiumParams,
) -> tuple[pl.DataFrame, list[dict[str, object]]]:
    pool = fed.pool.join(pp.select("player_id", "pp5", "pp6", "pp7"), on="player_id", how="left")
    ladder: list[_Step] = []
    for series, sub, cumulative in _quota_steps(quotas, fed.code):
        level = int(series)
        ladder.append(
            _Step(
                series,
                sub,
                BELGIUM_PP[level],
                f"pp{level}",
                cumulative,
                minimum=params.min_pp5 if level == 5 else None,
            )
        )
    ladder.append(_Step(NEW_LICENSEE_SERIES, None, BELGIUM_PP[7], "pp7", None, positive=False))
    chosen, bars = _ladder(pool, ladder, fed.population, fed.above)
    pp5 = pool.get_column("pp5").cast(pl.Float64).fill_null(0.0)
    minimum: dict[str, object] = {
        "series": str(NATIONAL_LEVELS[0]),
        "subseries": None,
        "rule": BELGIUM_PP[5],
        "bar": float(params.min_pp5),
        "admitted": int(((pp5 > 0) & (pp5 >= params.min_pp5 - TIE_TOLERANCE)).sum()),
        "target": None,
        "kind": MINIMUM,
    }
    left = pool.join(chosen, on="player_id", how="anti")
    frames = [_rows(chosen)]
    if left.height:
        frames.append(_unclassified(left, BELGIUM_PP[7], "aucun PP7 calculé pour la saison"))
    return pl.concat(frames), [minimum, *bars]


def _switzerland(
    fed: _Federation,
    best: pl.DataFrame,
    quotas: SeriesQuotas,
    params: SwitzerlandParams,
) -> tuple[pl.DataFrame, list[dict[str, object]]]:
    pool = fed.pool.join(
        best.select("player_id", "home_events", "pc_best"), on="player_id", how="left"
    ).with_columns(pl.col("home_events").fill_null(0))
    eligible = pool.filter(pl.col("home_events") >= params.home_events)
    ladder = [
        _Step(series, sub, SWITZERLAND_PC, "pc_best", cumulative, positive=cumulative is not None)
        for series, sub, cumulative in _quota_steps(quotas, fed.code)
    ]
    chosen, bars = _ladder(eligible, ladder, fed.population, fed.above)
    home = pl.col("home_events")
    played = (
        pl.when(home == 0)
        .then(pl.lit(f"aucun tournoi joué en {fed.name}"))
        .when(home == 1)
        .then(pl.lit(f"seulement 1 tournoi joué en {fed.name}"))
        .otherwise(pl.format("seulement {} tournois joués en {}", home, pl.lit(fed.name)))
    )
    reason = pl.format(
        "{} dans la saison, {} exigés : non classé par la règle suisse (PC des {} "
        "meilleures performances, dont les {} meilleures en {})",
        played,
        pl.lit(params.home_events),
        pl.lit(params.counted_events),
        pl.lit(params.home_events),
        pl.lit(fed.name),
    )
    short = _rows(
        pool.filter(home < params.home_events).select(
            "player_id", pl.lit(SWITZERLAND_PC).alias("rule"), reason.alias("reason")
        )
    )
    left = eligible.join(chosen, on="player_id", how="anti")
    frames = [_rows(chosen), short]
    if left.height:
        frames.append(_unclassified(left, SWITZERLAND_PC, "aucune série ne l'admet par les PC"))
    return pl.concat(frames), bars


def _median(fed: _Federation, medians: pl.DataFrame, cle: pl.DataFrame) -> pl.DataFrame:
    pool = fed.pool.join(medians.select("player_id", "median"), on="player_id", how="left")
    reference = cle.get_column("reference_federation")[0] if cle.height else "?"
    series_list = ", ".join(cle.get_column("series").to_list())
    empty_cle = cle.filter(pl.col("players") > 0).height == 0
    reason = (
        pl.when(pl.col("median").is_null())
        .then(
            pl.lit(
                "aucun résultat de la saison avec un score et un total des tops : "
                "pas de pourcentage médian"
            )
        )
        .when(pl.lit(empty_cle))
        .then(
            pl.lit(
                f"clé de répartition vide : aucun joueur de la fédération de référence "
                f"({reference}) des séries {series_list} n'a de pourcentage cette saison"
            )
        )
    )
    return _rows(
        pool.select(
            "player_id",
            pl.lit(MEDIAN_CLE).alias("rule"),
            pl.col("median").alias("value"),
            cle_series_expr(pl.col("median"), cle).alias("series"),
            reason.alias("reason"),
        )
    )


# --------------------------------------------------------------------------- the season


def _population(
    classification: pl.DataFrame, params: NationalParams, federations: AliasTable
) -> pl.DataFrame:
    """`player_id, federation` (code), the federation's `rule`, and the cascade's `series`
    (SS for a super-série player), `subseries` and `value`."""
    return classification.select(
        "player_id",
        canonical_expr("federation", federations).alias("federation"),
        pl.when(pl.col("super_serie").fill_null(False))
        .then(pl.lit(SUPER_SERIE))
        .otherwise(pl.col("series"))
        .alias("series"),
        "subseries",
        pl.col("value").cast(pl.Float64),
    ).with_columns(
        pl.col("federation")
        .replace_strict(dict(params.rules), default=None, return_dtype=pl.String)
        .alias("_rule")
    )


def _season(
    season: str,
    classification: pl.DataFrame,
    scores: pl.DataFrame,
    standings: pl.DataFrame,
    events: pl.DataFrame,
    results: pl.DataFrame,
    params: NationalParams,
    quotas: SeriesQuotas,
    series_params: SeriesParams,
    federations: AliasTable,
) -> National:
    population = _population(classification, params, federations)
    ruled = population.filter(pl.col("_rule").is_not_null())
    international = pl.col("series").is_in(list(INTERNATIONAL_SERIES))
    new = pl.col("series") == NEW_LICENSEE_SERIES
    pools = ruled.filter(~international & ~new)
    used = set(params.rules.values())
    # Each rule's season values, for every player at once (vectorised), when it is used.
    # The clé is built whenever a federation uses the median rule, from the whole
    # population (the reference federation needs no rule of its own).
    # the PP of the players of the federations the Belgian rule classifies (their pools)
    belgian = pools.filter(pl.col("_rule") == BELGIUM)["player_id"]
    pp = pp_standings(scores, events, series_params, players=belgian) if BELGIUM in used else None
    best = (
        best_events_pc(
            scores,
            events,
            pools.select("player_id", "federation"),
            federations,
            params.switzerland,
        )
        if SWITZERLAND in used
        else None
    )
    medians = season_medians(event_percentages(scores, results, events)) if MEDIAN in used else None
    cle = (
        cle_de_repartition(
            season,
            medians,
            season_held_series(scores, events),
            population.select("player_id", "federation"),
            params.median,
        )
        if medians is not None
        else CLE_DE_REPARTITION.empty()
    )
    frames: list[pl.DataFrame] = []
    bar_rows: list[dict[str, object]] = []
    for code in sorted(ruled.get_column("federation").unique().to_list()):
        members = ruled.filter(pl.col("federation") == code)
        fed = _Federation(
            code=code,
            name=federations.name(code),
            pool=members.filter(~international & ~new).select("player_id"),
            population=members.height,
            above=members.filter(international).height,
        )
        parts = [
            _rows(
                members.filter(international).select(
                    "player_id",
                    pl.lit(INTERNATIONAL).alias("rule"),
                    "value",
                    "series",
                    "subseries",
                )
            ),
            _rows(
                members.filter(new).select(
                    "player_id", pl.lit(NEW_LICENSEE).alias("rule"), "series"
                )
            ),
        ]
        bars: list[dict[str, object]] = []
        rule = params.rules[code]
        if rule == FRANCE:
            rows, bars = _france(fed, standings, quotas, params.france)
        elif rule == BELGIUM and pp is not None:
            rows, bars = _belgium(fed, pp, quotas, params.belgium)
        elif rule == SWITZERLAND and best is not None:
            rows, bars = _switzerland(fed, best, quotas, params.switzerland)
        elif rule == MEDIAN and medians is not None:
            rows = _median(fed, medians, cle)
        else:  # unreachable: every rule's values are computed when the rule is used
            raise ValueError(f"national rule {rule!r} of {code} has no values")
        frames.append(
            pl.concat([*parts, rows]).select(
                pl.lit(code, dtype=pl.String).alias("federation"), pl.all()
            )
        )
        bar_rows.extend({"federation": code, **b} for b in bars)

    columns = [c for c in NATIONAL_CLASSIFICATION.column_names if c != "season"]
    national = (
        pl.concat(frames).select(columns)
        if frames
        else NATIONAL_CLASSIFICATION.empty().select(columns)
    ).select(pl.lit(season, dtype=pl.String).alias("season"), pl.all())
    bar_table = pl.DataFrame(
        bar_rows,
        schema={
            "federation": pl.String,
            "series": pl.String,
            "subseries": pl.String,
            "rule": pl.String,
            "bar": pl.Float64,
            "admitted": pl.Int64,
            "target": pl.Int64,
            "kind": pl.String,
        },
    ).select(pl.lit(season, dtype=pl.String).alias("season"), pl.all())
    return National(national, bar_table.select(NATIONAL_BARS.column_names), cle)


def classify_national(
    classification: pl.DataFrame,
    scores: pl.DataFrame,
    standings: pl.DataFrame,
    tournaments: pl.DataFrame,
    results: pl.DataFrame,
    params: NationalParams,
    quotas: SeriesQuotas,
    series_params: SeriesParams,
    federations: AliasTable,
) -> National:
    """The national classifications of every season of `classification`.

    `classification`: `series_classification` rows (the population and its federations);
    `scores`: `duplicate_event_scores`; `standings`: `series_standings`; `tournaments`: the
    duplicate events (`tournament_id, season, start_date, end_date, country, games,
    coefficient, category, top_total`); `results`: `tournament_id, player_id, score`.
    """
    parts: list[National] = []
    seasons = sorted(classification.get_column("season").drop_nulls().unique().to_list())
    for season in seasons:
        events = tournaments.filter(pl.col("season") == season)
        parts.append(
            _season(
                season,
                classification.filter(pl.col("season") == season),
                scores.filter(pl.col("season") == season),
                standings.filter(pl.col("season") == season),
                events,
                results.join(events.select("tournament_id"), on="tournament_id", how="semi"),
                params,
                quotas,
                series_params,
                federations,
            )
        )
    step = series_step(pl.col("series"))
    national = (
        pl.concat([p.classification for p in parts]) if parts else NATIONAL_CLASSIFICATION.empty()
    )
    national = national.select(NATIONAL_CLASSIFICATION.column_names).sort(
        [
            pl.col("season"),
            pl.col("federation"),
            step,
            pl.col("subseries"),
            pl.col("value"),
            pl.col("player_id"),
        ],
        descending=[False, False, False, False, True, False],
        nulls_last=True,
    )
    bars = pl.concat([p.bars for p in parts]) if parts else NATIONAL_BARS.empty()
    kind = pl.col("kind").replace_strict(
        {k: i for i, k in enumerate(BAR_KINDS)}, default=None, return_dtype=pl.Int64
    )
    bars = bars.sort(
        [pl.col("season"), pl.col("federation"), step, kind, pl.col("subseries"), pl.col("rule")],
        nulls_last=True,
    )
    cle = pl.concat([p.cle for p in parts]) if parts else CLE_DE_REPARTITION.empty()
    cle = cle.sort([pl.col("season"), series_step(pl.col("series"))])
    return National(
        NATIONAL_CLASSIFICATION.check(national),
        NATIONAL_BARS.check(bars),
        CLE_DE_REPARTITION.check(cle),
    )


def licensee_rows_check(
    classification: pl.DataFrame,
    national: pl.DataFrame,
    params: NationalParams,
    federations: AliasTable,
) -> pl.DataFrame:
    """What breaks "exactly one row per licensee of each federation with a national rule,
    with a series or a reason": `season, player_id, federation, rows, problem` (the problem
    in French; empty when nothing breaks it). `classification`: the seasons'
    `series_classification` rows (the licensees); `national`: the same seasons'
    `national_classification` rows."""
    keys = ["season", "player_id"]
    licensees = (
        classification.select(
            "season", "player_id", canonical_expr("federation", federations).alias("federation")
        )
        .filter(pl.col("federation").is_in(list(params.rules)))
        .with_columns(pl.lit(True).alias("_licensee"))
    )
    counted = national.group_by(keys).agg(
        pl.len().cast(pl.Int64).alias("rows"),
        pl.col("federation").first().alias("_written"),
        (pl.col("series").is_null() & pl.col("reason").is_null()).any().alias("_empty"),
    )
    both = licensees.join(counted, on=keys, how="full", coalesce=True)
    problem = (
        pl.when(pl.col("_licensee").is_null())
        .then(
            pl.lit(
                "ligne d'un joueur qui n'est licencié d'aucune fédération ayant une règle nationale"
            )
        )
        .when(pl.col("rows").is_null())
        .then(pl.lit("licencié sans ligne"))
        .when(pl.col("rows") > 1)
        .then(pl.lit("licencié avec plusieurs lignes"))
        .when(pl.col("_written") != pl.col("federation"))
        .then(pl.lit("ligne sous une autre fédération"))
        .when(pl.col("_empty"))
        .then(pl.lit("ligne sans série ni raison"))
    )
    return (
        both.with_columns(problem.alias("problem"))
        .filter(pl.col("problem").is_not_null())
        .select(
            "season",
            "player_id",
            pl.coalesce("federation", "_written").alias("federation"),
            pl.col("rows").fill_null(0),
            "problem",
        )
        .sort(keys)
    )
