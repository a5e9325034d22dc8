"""Places in a ranking (docs/rules.md §0): tied players share the best place and the next
place is skipped (1, 2, 2, 4) — *competition ranking*, the one rule every federation uses.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl


def competition_ranks(*keys: Sequence[float] | np.ndarray) -> np.ndarray:
    """Places of players by `keys` compared in order, larger better (Int64 array)."""
    columns = [np.asarray(k) for k in keys]
    n = columns[0].size if columns else 0
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort(tuple(-k for k in reversed(columns)))
    new = np.zeros(n, dtype=bool)
    new[0] = True
    for k in columns:
        s = k[order]
        new[1:] |= s[1:] != s[:-1]
    ranks = np.empty(n, dtype=np.int64)
    ranks[order] = np.maximum.accumulate(np.where(new, np.arange(n), 0)) + 1
    return ranks


def competition_rank_expr(value: pl.Expr, *, descending: bool = True) -> pl.Expr:
    """Places by one column (largest first unless `descending=False`), ties sharing."""
    return value.rank("min", descending=descending).cast(pl.Int64)


def competition_places_expr(rank: pl.Expr) -> pl.Expr:
    """The competition place each published rank stands for: 1 + the number of players ranked
    strictly better (1, 1, 2 → 1, 1, 3). Ranks that are already competition places are
    unchanged; use it `.over(...)` each tournament."""
    return rank.rank("min").cast(pl.Int64)


def dense_ranks_expr(rank: pl.Expr) -> pl.Expr:
    """True when the ranks are numbered densely (1, 1, 2: the distinct ranks are 1 … k with
    ties), the numbering docs/rules.md §0 renumbers; use it `.over(...)` each tournament."""
    return (rank.min() == 1) & (rank.max() == rank.n_unique())
