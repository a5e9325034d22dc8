"""Duplicate series labels (docs/rules.md §3), their order and their French names.

From best to worst: super-série (`SS`, a distinction inside series 1 that counts as
series 1 in the zones), `1` … `7`; series 7 is the new licensees. A written label is read
leniently: upper case, accents, spaces, dots, hyphens and underscores dropped, a leading
`SERIE` dropped (`Série 5 A` → `5A`), `SUPERSERIE`/`SUPER` → `SS`. What is left must be
`SS`, a digit 1–7, or such a digit and one letter (a sub-series, `5A`); anything else is no
series (null).
"""

from __future__ import annotations

import polars as pl

from transforms.distinct import per_distinct

SUPER_SERIE = "SS"
NEW_LICENSEE_SERIES = "7"
# Best first: the *step* of a series is its position (SS 0, series n = n).
SERIES_ORDER = (SUPER_SERIE, "1", "2", "3", "4", "5", "6", "7")
_LABEL = r"^(SS|[1-7])([A-Z])?$"
_ACCENTS = {"É": "E", "È": "E", "Ê": "E", "Ë": "E"}


def _clean(expr: pl.Expr) -> pl.Expr:
    text = expr.cast(pl.String).str.strip_chars().str.to_uppercase()
    for accented, plain in _ACCENTS.items():
        text = text.str.replace_all(accented, plain, literal=True)
    text = text.str.replace_all(r"[\s._\-]", "").str.replace(r"^SERIE", "")
    return pl.when(text.is_in(["SUPERSERIE", "SUPER"])).then(pl.lit(SUPER_SERIE)).otherwise(text)


def series_level(expr: pl.Expr) -> pl.Expr:
    """The series of a written label (`SS`, `1` … `7`), null when it is none."""
    return _clean(expr).str.extract(_LABEL, 1)


def series_level_of(frame: pl.DataFrame, column: str) -> pl.Expr:
    """`series_level` of `frame`'s `column`, each distinct label read once
    (`transforms.distinct.per_distinct`)."""
    return per_distinct(frame, column, series_level, pl.String)


def series_sub(expr: pl.Expr) -> pl.Expr:
    """The sub-series letter of a written label (`5A` → `A`), null when it has none."""
    clean = _clean(expr)
    return pl.when(clean.str.extract(_LABEL, 1) != SUPER_SERIE).then(clean.str.extract(_LABEL, 2))


def normalised_label(expr: pl.Expr) -> pl.Expr:
    """A written label normalised (`Série 5 A` → `5A`), else the stripped text as given."""
    level, sub = series_level(expr), series_sub(expr)
    return (
        pl.when(level.is_not_null())
        .then(pl.concat_str([level, sub.fill_null("")]))
        .otherwise(expr.cast(pl.String).str.strip_chars())
    )


def series_step(expr: pl.Expr) -> pl.Expr:
    """Position of a series (`SS` 0, `1` 1 … `7` 7), null for anything else."""
    steps = {s: i for i, s in enumerate(SERIES_ORDER)}
    return expr.replace_strict(steps, default=None, return_dtype=pl.Int64)


def zone_series(expr: pl.Expr) -> pl.Expr:
    """The series number used by the zones of §3: `SS` counts as 1."""
    return (
        pl.when(expr == SUPER_SERIE)
        .then(pl.lit(1))
        .otherwise(expr.cast(pl.Int64, strict=False))
        .cast(pl.Int64)
    )


def series_sort_key(series: str | None) -> int:
    """Display order of a series label (unknown labels last)."""
    return SERIES_ORDER.index(series) if series in SERIES_ORDER else len(SERIES_ORDER)


def french_series(series: str | None) -> str:
    """« Super-série », « Série 3 », « — » for no series."""
    if series is None:
        return "—"
    return "Super-série" if series == SUPER_SERIE else f"Série {series}"
