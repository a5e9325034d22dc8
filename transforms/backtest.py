"""The rating backtest (docs/rules.md §10): the games replayed in event order, each rating
system asked before each event who should win each game, and the answers scored.

Pure transforms (Polars, NumPy, the `openskill` package; no I/O). The cote and Elo are
computed by their own transforms (`transforms.cote.cote_history`,
`transforms.elo.elo_history`), whose `*_before` columns are the ratings frozen at each
event's start; Glicko-2 (`transforms.glicko2`) and Weng-Lin (openskill's Plackett-Luce)
are rated here, event by event, vectorised over the event's games.

Decisions taken here:

- **The games**: the classique games with an opponent (byes left out), each once (a game
  given from both sides keeps the first row); the *first-listed player* is the row's
  `player_id`; their result y is `player_result` when the export states it, else 1, ½, 0
  from the scores (a draw is half a win).
- **Frozen ratings**: every game of an event is predicted from the ratings every system
  held at the event's start; the event's games then update them, as the federations rate.
- **Probabilities**: Elo presets, their own expected score (curve, cap); Glicko-2, its E
  with both deviations; Weng-Lin, the Plackett-Luce probability 1/(1 + e^(−(μ₁ − μ₂)/c)),
  c = √(σ₁² + σ₂² + 2β²) (games rated by openskill one after the other); the cote, a
  logistic curve 1/(1 + e^(−d/s)) of the cote difference d whose scale s is fitted
  (maximum likelihood) on the games of the earlier seasons only, `cote_scale` for the
  first season; `coin`, ½; `higher_cote`, 1, ½ or 0 as the first player's cote is above,
  equal to or below the other's.
- **Log-loss** clips p to [`probability_floor`, 1 − `probability_floor`] (else a hard
  prediction that fails scores infinity); Brier and accuracy use p as it is. Accuracy: 1
  when the predicted side (p > ½ or p < ½) won, ½ for p = ½ or a draw, else 0.
- **Experienced**: both players had at least `min_games` games in earlier events.
- **Intervals**: percentile bootstrap over events (a whole event's games are drawn
  together), `bootstrap_samples` draws seeded by `seed` and the season's name, the same
  draws for every system (paired); a scope's score is the mean over its games.
- **Calibration**: every scored game in tenths of predicted probability ([0,9 ; 1]
  closed).
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl
from openskill.models import PlackettLuce

from transforms.cote import CoteParams, cote_history, ordered_tournaments
from transforms.elo import EloParams, elo_history, expected_score
from transforms.glicko2 import Glicko2Params, rate_period, win_probability
from transforms.tables import table

RATING_BACKTEST = table("rating_backtest")
CALIBRATION = table("rating_backtest_calibration")

ALL_SEASONS = "toutes"
SUBSETS = ("all", "experienced")
BASELINES = ("coin", "higher_cote")


class BacktestError(ValueError):
    """Nothing to score; the message (French) says why."""


@dataclass(frozen=True)
class WengLinParams:
    """openskill's Plackett-Luce model: starting μ and σ, β, κ and τ."""

    mu: float
    sigma: float
    beta: float
    kappa: float
    tau: float


@dataclass(frozen=True)
class BacktestParams:
    """Every parameter of the backtest (`data/reference/backtest.yaml`)."""

    min_games: int
    bootstrap_samples: int
    seed: int
    confidence: float
    probability_floor: float
    calibration_bins: int
    cote_scale: float
    glicko2: Glicko2Params
    weng_lin: WengLinParams


def elo_system(preset: str) -> str:
    return f"elo_{preset}"


def system_names(elo_presets: Sequence[str]) -> list[str]:
    """Every system, in the order the tables and the report list them."""
    return ["cote", *(elo_system(p) for p in elo_presets), "glicko2", "weng_lin", *BASELINES]


# --- the games ---------------------------------------------------------------------------


def backtest_games(tournaments: pl.DataFrame, games: pl.DataFrame) -> pl.DataFrame:
    """One row per classique game in event order: `event` (0, 1, … in event order),
    `tournament_id`, `season`, `round`, `a` (first-listed player), `b`, `y` (a's result)."""
    ordered = ordered_tournaments(tournaments, ("classique",)).with_row_index("event")
    played = games.filter(pl.col("opponent_id").is_not_null())
    if "player_result" not in played.columns:
        played = played.with_columns(pl.lit(None, dtype=pl.Float64).alias("player_result"))
    y = (
        pl.when(pl.col("player_result").is_not_null())
        .then(pl.col("player_result").cast(pl.Float64))
        .when(pl.col("player_score") > pl.col("opponent_score"))
        .then(1.0)
        .when(pl.col("player_score") == pl.col("opponent_score"))
        .then(0.5)
        .when(pl.col("player_score") < pl.col("opponent_score"))
        .then(0.0)
    )
    frame = (
        played.with_row_index("_order")
        .select(
            "_order",
            "tournament_id",
            "round",
            pl.col("player_id").alias("a"),
            pl.col("opponent_id").alias("b"),
            y.alias("y"),
            pl.min_horizontal("player_id", "opponent_id").alias("_low"),
            pl.max_horizontal("player_id", "opponent_id").alias("_high"),
        )
        .drop_nulls("y")
        .unique(["tournament_id", "round", "_low", "_high"], keep="first", maintain_order=True)
        .join(
            ordered.select(pl.col("event").cast(pl.Int64), "tournament_id", "season"),
            on="tournament_id",
        )
        .sort("event", "round", "_order", nulls_last=True)
    )
    return frame.select("event", "tournament_id", "season", "round", "a", "b", "y")


def earlier_games(frame: pl.DataFrame) -> pl.DataFrame:
    """`event, player_id, earlier`: each player's games in the events before this one."""
    sides = pl.concat(
        [
            frame.select("event", pl.col("a").alias("player_id")),
            frame.select("event", pl.col("b").alias("player_id")),
        ]
    )
    per_event = sides.group_by("event", "player_id").len().sort("event", "player_id")
    return per_event.select(
        "event",
        "player_id",
        (pl.col("len").cum_sum().over("player_id") - pl.col("len")).cast(pl.Int64).alias("earlier"),
    )


def experienced(frame: pl.DataFrame, min_games: int) -> np.ndarray:
    """Whether both players of each game had `min_games` earlier games."""
    counts = earlier_games(frame)
    joined = (
        frame.select("event", "a", "b")
        .join(counts.rename({"player_id": "a", "earlier": "ea"}), on=["event", "a"], how="left")
        .join(counts.rename({"player_id": "b", "earlier": "eb"}), on=["event", "b"], how="left")
    )
    return ((joined["ea"] >= min_games) & (joined["eb"] >= min_games)).to_numpy()


def _player_index(frame: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, int]:
    """Integer codes of a and b (players numbered in order of first appearance)."""
    ids = pl.concat([frame["a"], frame["b"]]).unique(maintain_order=True)
    codes = pl.DataFrame({"id": ids, "i": np.arange(len(ids), dtype=np.int64)})
    a = frame.select("a").join(codes, left_on="a", right_on="id", how="left")["i"].to_numpy()
    b = frame.select("b").join(codes, left_on="b", right_on="id", how="left")["i"].to_numpy()
    return a, b, len(ids)


def _event_bounds(frame: pl.DataFrame) -> list[tuple[int, int]]:
    """(start, stop) row ranges of each event of `frame` (sorted by event)."""
    events = frame["event"].to_numpy()
    if len(events) == 0:
        return []
    cuts = np.flatnonzero(np.diff(events)) + 1
    starts = np.concatenate([[0], cuts])
    stops = np.concatenate([cuts, [len(events)]])
    return list(zip(starts.tolist(), stops.tolist(), strict=True))


# --- ratings before each event -----------------------------------------------------------


def _before(
    frame: pl.DataFrame, history: pl.DataFrame, column: str, default: float
) -> tuple[np.ndarray, np.ndarray]:
    """`column` of history (tournament_id, player_id) for a and for b of every game."""
    values = history.select("tournament_id", "player_id", pl.col(column).cast(pl.Float64))
    out = []
    for side in ("a", "b"):
        joined = frame.select("tournament_id", side).join(
            values,
            left_on=["tournament_id", side],
            right_on=["tournament_id", "player_id"],
            how="left",
        )
        out.append(joined[column].fill_null(default).to_numpy())
    return out[0], out[1]


def cote_before(
    frame: pl.DataFrame,
    tournaments: pl.DataFrame,
    results: pl.DataFrame,
    rating_lists: pl.DataFrame,
    params: CoteParams,
) -> tuple[np.ndarray, np.ndarray]:
    """The cote of a and of b at each game's event start (`cote_history`'s `cote_before`)."""
    history = cote_history(tournaments, results, rating_lists, params)
    return _before(frame, history, "cote_before", float(params.initial_cote))


def elo_probability(
    frame: pl.DataFrame,
    tournaments: pl.DataFrame,
    games: pl.DataFrame,
    results: pl.DataFrame,
    rating_lists: pl.DataFrame,
    params: EloParams,
) -> np.ndarray:
    """Each game's expected score of a under one Elo preset, from `elo_history`."""
    history = elo_history(tournaments, games, rating_lists, results, params)
    ra, rb = _before(frame, history, "rating_before", params.initial_rating)
    diff = ra - rb
    if params.cap_difference is not None:
        diff = np.clip(diff, -params.cap_difference, params.cap_difference)
    return np.asarray(expected_score(diff, params.curve), dtype=np.float64)


def glicko2_probability(frame: pl.DataFrame, params: Glicko2Params) -> np.ndarray:
    """Each game's Glicko-2 win probability of a, events rated one after the other."""
    a, b, n = _player_index(frame)
    y = frame["y"].to_numpy().astype(np.float64)
    rating = np.full(n, params.initial_rating)
    rd = np.full(n, params.initial_rd)
    sigma = np.full(n, params.initial_volatility)
    out = np.empty(len(y))
    for start, stop in _event_bounds(frame):
        ea, eb, ey = a[start:stop], b[start:stop], y[start:stop]
        out[start:stop] = win_probability(rating[ea], rd[ea], rating[eb], rd[eb])
        players, local = np.unique(np.concatenate([ea, eb]), return_inverse=True)
        la, lb = local[: len(ea)], local[len(ea) :]
        p = np.concatenate([la, lb])
        o = np.concatenate([lb, la])
        s = np.concatenate([ey, 1.0 - ey])
        new = rate_period(rating[players], rd[players], sigma[players], p, o, s, params)
        rating[players], rd[players], sigma[players] = new
    return out


def weng_lin_probability(frame: pl.DataFrame, params: WengLinParams) -> np.ndarray:
    """Each game's Weng-Lin (openskill Plackett-Luce) win probability of a, from the
    ratings frozen at the event's start: the Plackett-Luce probability that a ranks first,
    e^(μa/c) / (e^(μa/c) + e^(μb/c)) with c = √(σa² + σb² + 2β²), the likelihood openskill's
    update maximises (its `predict_win` uses a normal curve instead). The event's games are
    then rated by openskill one after the other, in round order, as the online method it
    is (docs/rules.md §10)."""
    model = PlackettLuce(
        mu=params.mu, sigma=params.sigma, beta=params.beta, kappa=params.kappa, tau=params.tau
    )
    a, b, n = _player_index(frame)
    y = frame["y"].to_numpy().astype(np.float64)
    mu = [params.mu] * n
    sigma = [params.sigma] * n
    two_beta2 = 2.0 * params.beta**2
    out = np.empty(len(y))
    players = [model.rating() for _ in range(n)]  # openskill's ratings, one per player
    for start, stop in _event_bounds(frame):
        ea, eb = a[start:stop], b[start:stop]
        m, s = np.asarray(mu), np.asarray(sigma)
        c = np.sqrt(two_beta2 + s[ea] ** 2 + s[eb] ** 2)
        out[start:stop] = 0.5 * (1.0 + np.tanh(0.5 * (m[ea] - m[eb]) / c))
        for i, j, result in zip(ea.tolist(), eb.tolist(), y[start:stop].tolist(), strict=True):
            if result == 0.5:
                (ri,), (rj,) = model.rate([[players[i]], [players[j]]], ranks=[1, 1])
            elif result == 1.0:  # the teams in the order they finished
                (ri,), (rj,) = model.rate([[players[i]], [players[j]]])
            else:
                (rj,), (ri,) = model.rate([[players[j]], [players[i]]])
            players[i], players[j] = ri, rj
            mu[i], sigma[i], mu[j], sigma[j] = ri.mu, ri.sigma, rj.mu, rj.sigma
    return out


# --- the cote's curve --------------------------------------------------------------------


def _log_likelihood(w: float, d: np.ndarray, y: np.ndarray) -> float:
    """Σ y ln p + (1 − y) ln(1 − p) for p = 1/(1 + e^(−w d)), computed without overflow."""
    z = w * d
    return float(np.sum(y * -np.logaddexp(0.0, -z) + (1.0 - y) * -np.logaddexp(0.0, z)))


def fit_logistic_scale(diff: np.ndarray, y: np.ndarray, start: float) -> float:
    """The scale s maximising the likelihood of y under p = 1/(1 + e^(−d/s)): Newton's
    method on w = 1/s from 1/`start`, each step halved until the likelihood (concave in w)
    rises. `start` when there is nothing to fit; infinity (p = ½ always) when the best w is
    not positive (the differences do not predict the results)."""
    d = np.asarray(diff, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if len(d) == 0 or not np.any(d):
        return start
    w = 1.0 / start
    current = _log_likelihood(w, d, y)
    for _ in range(100):
        p = 0.5 * (1.0 + np.tanh(0.5 * w * d))
        gradient = float(np.sum(d * (y - p)))
        hessian = float(np.sum(d * d * p * (1.0 - p)))
        if hessian <= 0 or gradient == 0:
            break
        step = gradient / hessian
        while True:
            trial = _log_likelihood(w + step, d, y)
            if trial >= current or abs(step) <= 1e-15:
                break
            step /= 2.0
        w, current = w + step, trial
        if abs(step) <= 1e-10 * abs(w):
            break
    return 1.0 / w if w > 0 else float("inf")


def cote_probability(
    frame: pl.DataFrame, diff: np.ndarray, params: BacktestParams
) -> tuple[np.ndarray, dict[str, float]]:
    """Each game's probability from the cote difference, the scale of its season fitted on
    the games of the seasons before it; and the scale of each season."""
    seasons = frame["season"].to_numpy()
    y = frame["y"].to_numpy().astype(np.float64)
    out = np.empty(len(y))
    scales: dict[str, float] = {}
    for season in sorted(set(seasons.tolist())):
        earlier = seasons < season
        scale = fit_logistic_scale(diff[earlier], y[earlier], params.cote_scale)
        scales[season] = scale
        here = seasons == season
        out[here] = 0.5 * (1.0 + np.tanh(0.5 * diff[here] / scale))
    return out, scales


# --- every system ------------------------------------------------------------------------


@dataclass(frozen=True)
class Predictions:
    """Each game (`games`: backtest_games + `experienced`) and each system's probability."""

    games: pl.DataFrame
    probabilities: dict[str, np.ndarray]
    cote_scales: dict[str, float]

    def long(self) -> pl.DataFrame:
        """One row per game × system: event, tournament_id, season, system, p, y,
        experienced."""
        base = self.games.select("event", "tournament_id", "season", "y", "experienced")
        return pl.concat(
            [
                base.with_columns(
                    system=pl.lit(name, dtype=pl.String), p=pl.Series(p, dtype=pl.Float64)
                )
                for name, p in self.probabilities.items()
            ]
        ).select("event", "tournament_id", "season", "system", "p", "y", "experienced")


def predict(
    tournaments: pl.DataFrame,
    results: pl.DataFrame,
    games: pl.DataFrame,
    rating_lists: pl.DataFrame,
    *,
    cote: CoteParams,
    elo_presets: Mapping[str, EloParams],
    params: BacktestParams,
    systems: Sequence[str] | None = None,
) -> Predictions:
    """Every game's probability under each system (all of `system_names` by default)."""
    wanted = list(systems) if systems is not None else system_names(list(elo_presets))
    frame = backtest_games(tournaments, games)
    frame = frame.with_columns(
        experienced=pl.Series(experienced(frame, params.min_games), dtype=pl.Boolean)
    )
    probabilities: dict[str, np.ndarray] = {}
    scales: dict[str, float] = {}
    diff: np.ndarray | None = None
    if {"cote", "higher_cote"} & set(wanted):
        ca, cb = cote_before(frame, tournaments, results, rating_lists, cote)
        diff = ca - cb
    for name in wanted:
        if name == "cote":
            assert diff is not None
            probabilities[name], scales = cote_probability(frame, diff, params)
        elif name == "higher_cote":
            assert diff is not None
            probabilities[name] = np.select([diff > 0, diff < 0], [1.0, 0.0], 0.5)
        elif name == "coin":
            probabilities[name] = np.full(frame.height, 0.5)
        elif name == "glicko2":
            probabilities[name] = glicko2_probability(frame, params.glicko2)
        elif name == "weng_lin":
            probabilities[name] = weng_lin_probability(frame, params.weng_lin)
        elif name.startswith("elo_") and name[4:] in elo_presets:
            probabilities[name] = elo_probability(
                frame, tournaments, games, results, rating_lists, elo_presets[name[4:]]
            )
        else:
            raise ValueError(f"unknown system {name!r}")
    return Predictions(frame, probabilities, scales)


# --- scores ------------------------------------------------------------------------------


def game_scores(p: np.ndarray, y: np.ndarray, floor: float) -> np.ndarray:
    """(n, 3): log-loss, Brier score and accuracy of each game."""
    p = np.asarray(p, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    clipped = np.clip(p, floor, 1.0 - floor)
    log_loss = -(y * np.log(clipped) + (1.0 - y) * np.log(1.0 - clipped))
    brier = np.square(p - y)
    called = np.select([p > 0.5, p < 0.5], [1.0, 0.0], 0.5)
    accuracy = 1.0 - np.abs(called - y)
    return np.column_stack([log_loss, brier, accuracy])


def _seed(params: BacktestParams, scope: str) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([params.seed, zlib.crc32(scope.encode())]))


def resample_counts(events: int, params: BacktestParams, scope: str) -> np.ndarray:
    """(samples, events): how many times each event is drawn in each bootstrap sample."""
    draws = _seed(params, scope).integers(0, events, size=(params.bootstrap_samples, events))
    offsets = np.arange(params.bootstrap_samples)[:, None] * events
    return np.bincount(
        (draws + offsets).ravel(), minlength=params.bootstrap_samples * events
    ).reshape(params.bootstrap_samples, events)


def _event_sums(long: pl.DataFrame, floor: float) -> pl.DataFrame:
    scores = game_scores(long["p"].to_numpy(), long["y"].to_numpy(), floor)
    return (
        long.with_columns(
            ll=pl.Series(scores[:, 0]), br=pl.Series(scores[:, 1]), ac=pl.Series(scores[:, 2])
        )
        .group_by("season", "event", "system")
        .agg(pl.len().alias("n"), pl.col("ll").sum(), pl.col("br").sum(), pl.col("ac").sum())
        .sort("season", "event", "system")
    )


@dataclass(frozen=True)
class ScopeReplicates:
    """The bootstrap replicates of one scope and subset, paired across systems."""

    systems: list[str]
    log_loss: np.ndarray  # (samples, systems)


def _scope_rows(
    sums: pl.DataFrame,
    scope: str,
    subset: str,
    systems: list[str],
    params: BacktestParams,
) -> tuple[list[dict[str, object]], ScopeReplicates]:
    events = sorted(set(sums["event"].to_list()))
    counts = resample_counts(len(events), params, scope)
    position = {e: i for i, e in enumerate(events)}
    rows: list[dict[str, object]] = []
    lows, highs = 100 * (1 - params.confidence) / 2, 100 * (1 + params.confidence) / 2
    replicate_ll = np.empty((params.bootstrap_samples, len(systems)))
    for k, system in enumerate(systems):
        mine = sums.filter(pl.col("system") == system)
        matrix = np.zeros((len(events), 4))
        where = np.array([position[e] for e in mine["event"].to_list()], dtype=np.int64)
        matrix[where] = mine.select("n", "ll", "br", "ac").to_numpy().astype(np.float64)
        total = matrix.sum(axis=0)
        drawn = counts @ matrix
        with np.errstate(invalid="ignore", divide="ignore"):
            means = drawn[:, 1:] / drawn[:, :1]
        replicate_ll[:, k] = means[:, 0]
        low = np.nanpercentile(means, lows, axis=0)
        high = np.nanpercentile(means, highs, axis=0)
        point = total[1:] / total[0]
        rows.append(
            {
                "season": scope,
                "system": system,
                "subset": subset,
                "events": int(np.count_nonzero(matrix[:, 0])),
                "games": int(total[0]),
                "log_loss": float(point[0]),
                "log_loss_low": float(low[0]),
                "log_loss_high": float(high[0]),
                "brier": float(point[1]),
                "brier_low": float(low[1]),
                "brier_high": float(high[1]),
                "accuracy": float(point[2]),
                "accuracy_low": float(low[2]),
                "accuracy_high": float(high[2]),
            }
        )
    return rows, ScopeReplicates(systems, replicate_ll)


@dataclass(frozen=True)
class Scores:
    """The `rating_backtest` table and the overall replicates (for paired comparisons)."""

    table: pl.DataFrame
    overall: dict[str, ScopeReplicates]  # by subset


def score(
    predictions: Predictions, params: BacktestParams, *, from_season: str | None = None
) -> Scores:
    """`rating_backtest`: each system's scores per scored season and over them all, for
    every game and for the experienced players' games. `from_season`: the first season
    scored (the earlier ones only warm the ratings up and fit the cote's curve)."""
    long = predictions.long()
    if from_season is not None:
        long = long.filter(pl.col("season") >= from_season)
    if long.height == 0:
        raise BacktestError(
            "aucune partie à évaluer"
            + (f" à partir de la saison {from_season}" if from_season else "")
            + " : la sélection est vide"
        )
    systems = list(predictions.probabilities)
    rows: list[dict[str, object]] = []
    overall: dict[str, ScopeReplicates] = {}
    for subset in SUBSETS:
        chosen = long if subset == "all" else long.filter(pl.col("experienced"))
        if chosen.height == 0:
            continue
        sums = _event_sums(chosen, params.probability_floor)
        for season in sorted(set(sums["season"].to_list())):
            found, _ = _scope_rows(
                sums.filter(pl.col("season") == season), season, subset, systems, params
            )
            rows.extend(found)
        found, replicates = _scope_rows(sums, ALL_SEASONS, subset, systems, params)
        rows.extend(found)
        overall[subset] = replicates
    frame = pl.DataFrame(rows, schema=RATING_BACKTEST.schema)
    order = {s: i for i, s in enumerate(systems)}
    frame = frame.sort(
        pl.col("season") == ALL_SEASONS,
        "season",
        pl.col("subset").replace_strict(
            {s: i for i, s in enumerate(SUBSETS)}, return_dtype=pl.Int64
        ),
        pl.col("system").replace_strict(order, return_dtype=pl.Int64),
    )
    return Scores(RATING_BACKTEST.check(frame), overall)


def calibration(
    predictions: Predictions, params: BacktestParams, *, from_season: str | None = None
) -> pl.DataFrame:
    """`rating_backtest_calibration`: per system and subset, the games in each tenth of
    predicted probability, their mean prediction and mean result."""
    long = predictions.long()
    if from_season is not None:
        long = long.filter(pl.col("season") >= from_season)
    bins = params.calibration_bins
    binned = long.with_columns(bin=(pl.col("p") * bins).floor().cast(pl.Int64).clip(0, bins - 1))
    frames = []
    for subset in SUBSETS:
        chosen = binned if subset == "all" else binned.filter(pl.col("experienced"))
        frames.append(
            chosen.group_by("system", "bin")
            .agg(
                pl.col("p").mean().alias("predicted"),
                pl.col("y").mean().alias("observed"),
                pl.len().cast(pl.Int64).alias("games"),
            )
            .with_columns(subset=pl.lit(subset, dtype=pl.String))
        )
    order = {s: i for i, s in enumerate(predictions.probabilities)}
    frame = (
        pl.concat(frames)
        .select("system", "subset", "bin", "predicted", "observed", "games")
        .sort(
            pl.col("system").replace_strict(order, return_dtype=pl.Int64),
            pl.col("subset").replace_strict(
                {s: i for i, s in enumerate(SUBSETS)}, return_dtype=pl.Int64
            ),
            "bin",
        )
    )
    return CALIBRATION.check(frame)


@dataclass(frozen=True)
class Verdict:
    """The best system by overall log-loss and its lead over the runner-up, with the
    paired bootstrap interval of the lead."""

    subset: str
    best: str
    runner_up: str
    lead: float  # runner-up's log-loss − best's
    lead_low: float
    lead_high: float
    over_coin: float | None  # coin's log-loss − best's


def verdict(scores: Scores, params: BacktestParams, subset: str = "all") -> Verdict | None:
    """Which system predicts best over every scored season (lowest log-loss)."""
    replicates = scores.overall.get(subset)
    if replicates is None:
        return None
    overall = scores.table.filter((pl.col("season") == ALL_SEASONS) & (pl.col("subset") == subset))
    loss = dict(overall.select("system", "log_loss").iter_rows())
    ranked = sorted(replicates.systems, key=lambda s: (loss[s], s))
    if len(ranked) < 2:
        return None
    best, runner_up = ranked[0], ranked[1]
    i, j = replicates.systems.index(best), replicates.systems.index(runner_up)
    lead = replicates.log_loss[:, j] - replicates.log_loss[:, i]
    lows, highs = 100 * (1 - params.confidence) / 2, 100 * (1 + params.confidence) / 2
    return Verdict(
        subset,
        best,
        runner_up,
        float(loss[runner_up] - loss[best]),
        float(np.nanpercentile(lead, lows)),
        float(np.nanpercentile(lead, highs)),
        float(loss["coin"] - loss[best]) if "coin" in loss else None,
    )
