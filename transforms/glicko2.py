"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), one rating period at a
time, vectorised over the players of the period (docs/rules.md §10).

Pure NumPy: the parameters (τ, the starting rating, RD and volatility, the convergence
tolerance) come in through `Glicko2Params`, loaded from `data/reference/backtest.yaml`.

Decisions taken here:

- **A tournament is a rating period.** Every game of an event is rated against the
  ratings frozen at the event's start (as Glickman's step 3 to 7 do with a period's games).
- **A player who does not play in an event is left as they are**: their RD is not widened
  by the events of others (step 6 for absent players is not applied), since events are not
  regular periods; it widens once per event the player plays (φ* of step 6).
- **Draws** count s = 0.5, as in the paper.
- **Volatility**: the Illinois iteration of step 5.4, run on every player of the period at
  once until all have converged to `epsilon`.
- **Prediction** of a game: E = 1 / (1 + exp(−g(√(φ₁² + φ₂²)) (μ₁ − μ₂))), the paper's E
  with the two deviations combined.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SCALE = 173.7178  # the paper's conversion factor between Glicko and Glicko-2 scales


@dataclass(frozen=True)
class Glicko2Params:
    """τ, the starting state of a new player (Glicko scale) and the tolerance of step 5."""

    tau: float
    initial_rating: float
    initial_rd: float
    initial_volatility: float
    epsilon: float


def to_internal(
    rating: np.ndarray, rd: np.ndarray, initial: float
) -> tuple[np.ndarray, np.ndarray]:
    """Step 2: μ and φ on the Glicko-2 scale."""
    return (np.asarray(rating) - initial) / SCALE, np.asarray(rd) / SCALE


def g(phi: np.ndarray) -> np.ndarray:
    """g(φ) = 1 / √(1 + 3φ²/π²)."""
    return 1.0 / np.sqrt(1.0 + 3.0 * np.square(phi) / np.pi**2)


def win_probability(
    rating: np.ndarray, rd: np.ndarray, opp_rating: np.ndarray, opp_rd: np.ndarray
) -> np.ndarray:
    """Probability that the first player wins (Glicko scale inputs, see the docstring)."""
    mu = (np.asarray(rating) - np.asarray(opp_rating)) / SCALE
    phi = np.sqrt(np.square(rd) + np.square(opp_rd)) / SCALE
    return 1.0 / (1.0 + np.exp(-g(phi) * mu))


def _f(
    x: np.ndarray, a: np.ndarray, phi2: np.ndarray, v: np.ndarray, delta2: np.ndarray, tau2: float
) -> np.ndarray:
    """Step 5.1's f(x)."""
    ex = np.exp(x)
    return ex * (delta2 - phi2 - v - ex) / (2.0 * np.square(phi2 + v + ex)) - (x - a) / tau2


def _new_volatility(
    sigma: np.ndarray, phi: np.ndarray, v: np.ndarray, delta: np.ndarray, params: Glicko2Params
) -> np.ndarray:
    """Step 5 for every player at once (the Illinois algorithm)."""
    tau, tau2 = params.tau, params.tau**2
    a = np.log(np.square(sigma))
    phi2, delta2 = np.square(phi), np.square(delta)
    lower = a.copy()
    upper = np.empty_like(a)
    above = delta2 > phi2 + v
    upper[above] = np.log(delta2[above] - phi2[above] - v[above])
    below = ~above
    if below.any():
        k = np.ones(int(below.sum()))
        args = (a[below], phi2[below], v[below], delta2[below], tau2)
        while True:
            negative = _f(a[below] - k * tau, *args) < 0
            if not negative.any():
                break
            k[negative] += 1
        upper[below] = a[below] - k * tau
    f_lower = _f(lower, a, phi2, v, delta2, tau2)
    f_upper = _f(upper, a, phi2, v, delta2, tau2)
    active = np.abs(upper - lower) > params.epsilon
    while active.any():
        c = lower + (lower - upper) * f_lower / (f_upper - f_lower)
        f_c = _f(c, a, phi2, v, delta2, tau2)
        swap = f_c * f_upper <= 0
        lower = np.where(active & swap, upper, lower)
        f_lower = np.where(active, np.where(swap, f_upper, f_lower / 2.0), f_lower)
        upper = np.where(active, c, upper)
        f_upper = np.where(active, f_c, f_upper)
        active = np.abs(upper - lower) > params.epsilon
    return np.exp(lower / 2.0)


def rate_period(
    rating: np.ndarray,
    rd: np.ndarray,
    volatility: np.ndarray,
    p: np.ndarray,
    o: np.ndarray,
    s: np.ndarray,
    params: Glicko2Params,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Steps 2 to 8 for one rating period.

    `rating`, `rd`, `volatility`: the players' states at the period's start (Glicko
    scale); `p`, `o`, `s`: one row per side of each game (player index, opponent index,
    the player's score 1/0.5/0). Returns the new (rating, RD, volatility); a player with no
    game keeps their state."""
    rating = np.asarray(rating, dtype=np.float64)
    rd = np.asarray(rd, dtype=np.float64)
    volatility = np.asarray(volatility, dtype=np.float64)
    mu, phi = to_internal(rating, rd, params.initial_rating)
    n = len(rating)
    g_o = g(phi[o])
    e = 1.0 / (1.0 + np.exp(-g_o * (mu[p] - mu[o])))
    played = np.bincount(p, minlength=n) > 0
    inv_v = np.bincount(p, weights=g_o**2 * e * (1.0 - e), minlength=n)
    total = np.bincount(p, weights=g_o * (np.asarray(s, dtype=np.float64) - e), minlength=n)
    new_rating, new_rd, new_sigma = rating.copy(), rd.copy(), volatility.copy()
    if not played.any():
        return new_rating, new_rd, new_sigma
    v = 1.0 / inv_v[played]
    delta = v * total[played]
    sigma = _new_volatility(volatility[played], phi[played], v, delta, params)
    phi_star = np.sqrt(np.square(phi[played]) + np.square(sigma))
    phi_new = 1.0 / np.sqrt(1.0 / np.square(phi_star) + 1.0 / v)
    mu_new = mu[played] + np.square(phi_new) * total[played]
    new_rating[played] = SCALE * mu_new + params.initial_rating
    new_rd[played] = SCALE * phi_new
    new_sigma[played] = sigma
    return new_rating, new_rd, new_sigma
