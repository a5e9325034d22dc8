"""Loaders of the classique rating parameters: `cote.yaml`, `cote_categories.csv`,
`elo.yaml` (and the season start of `seasons.yaml` for the rankings)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import polars as pl

from pipelines.reference.files import ReferenceDataError, read_yaml, require
from pipelines.reference.seasons import load_calendar
from transforms.classique_series import RankingParams
from transforms.cote import CategoryParams, CoteParams
from transforms.elo import EloCurve, EloParams, KRules


def load_cote_categories(reference_dir: Path) -> tuple[CategoryParams, ...]:
    path = Path(reference_dir) / "cote_categories.csv"
    if not path.exists():
        raise ReferenceDataError(f"{path}: file not found")
    frame = pl.read_csv(
        path,
        comment_prefix="#",
        schema_overrides={"category": pl.String},
    )
    needed = ["category", "min_games", "bonus_m", "pj_min", "pj_max"]
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise ReferenceDataError(f"{path}: missing columns {missing}")
    rows = []
    for r in frame.select(needed).iter_rows(named=True):
        if any(r[c] is None for c in needed):
            raise ReferenceDataError(f"{path}: empty value in row {r}")
        if r["pj_min"] > 0 or r["pj_max"] < 0:
            raise ReferenceDataError(f"{path}: PJmin must be <= 0 and PJmax >= 0 in row {r}")
        rows.append(
            CategoryParams(
                category=str(r["category"]),
                min_games=int(r["min_games"]),
                bonus_m=int(r["bonus_m"]),
                pj_min=int(r["pj_min"]),
                pj_max=int(r["pj_max"]),
            )
        )
    return tuple(rows)


@dataclass(frozen=True)
class CoteBounds:
    """The cotes a rating list may give, bounds included (cote.yaml `bounds`)."""

    low: int
    high: int


def load_cote_bounds(reference_dir: Path) -> CoteBounds:
    """cote.yaml's `bounds` (`low` ≤ `high`)."""
    path = Path(reference_dir) / "cote.yaml"
    bounds = require(read_yaml(path), "bounds", path)
    low, high = int(require(bounds, "low", path)), int(require(bounds, "high", path))
    if low > high:
        raise ReferenceDataError(f"{path}: bounds.low ({low}) est supérieur à bounds.high ({high})")
    return CoteBounds(low, high)


def load_cote_params(reference_dir: Path) -> CoteParams:
    """Every parameter of docs/rules.md §1 (cote.yaml and cote_categories.csv). The starting
    cotes (`initial_cote`, `series_equivalence`) lie within the cote's `bounds`."""
    path = Path(reference_dir) / "cote.yaml"
    data = read_yaml(path)
    divisors = tuple(int(d) for d in require(data, "bonus_divisors", path))
    if any(d <= 0 for d in divisors):
        raise ReferenceDataError(f"{path}: bonus_divisors must be positive")
    equivalence = {str(k): int(v) for k, v in require(data, "series_equivalence", path).items()}
    initial = int(require(data, "initial_cote", path))
    bounds = load_cote_bounds(reference_dir)
    starts = {"initial_cote": initial} | {
        f"series_equivalence.{k}": v for k, v in equivalence.items()
    }
    for key, value in starts.items():
        if not bounds.low <= value <= bounds.high:
            raise ReferenceDataError(
                f"{path}: {key} = {value} est hors des bornes de la cote "
                f"(bounds : de {bounds.low} à {bounds.high})"
            )
    return CoteParams(
        initial_cote=initial,
        series_equivalence=equivalence,
        bonus_divisors=divisors,
        pj_gain=Fraction(str(require(data, "pj_gain", path))),
        pj_loss=Fraction(str(require(data, "pj_loss", path))),
        categories=load_cote_categories(reference_dir),
        disciplines=tuple(data.get("disciplines", ["classique"])),
        categories_source=str(Path("data/reference") / "cote_categories.csv"),
    )


def load_ranking_params(reference_dir: Path) -> RankingParams:
    """Activity window and classique series parameters (cote.yaml `ranking`)."""
    path = Path(reference_dir) / "cote.yaml"
    ranking = require(read_yaml(path), "ranking", path)
    shares = tuple(
        (str(name), float(share)) for name, share in require(ranking, "series_shares", path)
    )
    if len(shares) < 2:
        raise ReferenceDataError(f"{path}: ranking.series_shares needs at least two series")
    return RankingParams(
        activity_years=int(require(ranking, "activity_years", path)),
        series_shares=shares,
        bar_step=int(require(ranking, "bar_step", path)),
        calendar=load_calendar(Path(reference_dir)),
    )


def _elo_preset(raw: dict[str, Any], name: str, path: Path) -> EloParams:
    curve = require(raw, "curve", path)
    kind = str(require(curve, "kind", path))
    if kind not in ("base10", "logistic"):
        raise ReferenceDataError(f"{path}: preset {name!r}: unknown curve kind {kind!r}")
    k = require(raw, "k", path)
    cap = raw.get("cap_difference")
    return EloParams(
        curve=EloCurve(kind=kind, scale=float(require(curve, "scale", path))),  # type: ignore[arg-type]
        k=KRules(
            k_new=float(require(k, "k_new", path)),
            new_games=int(require(k, "new_games", path)),
            k_junior=float(require(k, "k_junior", path)),
            junior_age=int(require(k, "junior_age", path)),
            junior_below=float(require(k, "junior_below", path)),
            k_default=float(require(k, "k_default", path)),
            k_high=float(require(k, "k_high", path)),
            high_threshold=float(require(k, "high_threshold", path)),
        ),
        initial_rating=float(require(raw, "initial_rating", path)),
        cap_difference=None if cap is None else float(cap),
        round_change=bool(raw.get("round_change", False)),
        disciplines=tuple(raw.get("disciplines", ["classique"])),
    )


def load_elo_presets(reference_dir: Path) -> dict[str, EloParams]:
    """Every preset of elo.yaml, by name, in file order."""
    path = Path(reference_dir) / "elo.yaml"
    presets = require(read_yaml(path), "presets", path)
    return {str(name): _elo_preset(raw, str(name), path) for name, raw in presets.items()}


def load_elo_params(reference_dir: Path, preset: str | None = None) -> EloParams:
    """One preset of elo.yaml: `preset`, else the file's `preset` key."""
    path = Path(reference_dir) / "elo.yaml"
    name = preset or str(require(read_yaml(path), "preset", path))
    presets = load_elo_presets(reference_dir)
    if name not in presets:
        raise ReferenceDataError(f"{path}: no preset {name!r} (known: {', '.join(presets)})")
    return presets[name]
