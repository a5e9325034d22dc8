"""Loaders of the duplicate-series parameters (docs/rules.md §3): quotas and series.yaml."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import polars as pl
import yaml

from pipelines.reference.files import ReferenceDataError
from transforms.series import QuotaRow, SeriesParams, SeriesQuotas

QUOTAS_FILE = "series_quotas.csv"
PARAMS_FILE = "series.yaml"
REST = "rest"


def load_series_quotas(reference_dir: Path) -> SeriesQuotas:
    """Quota rows (share in percent, `rest` = the remainder), validated."""
    frame = pl.read_csv(
        reference_dir / QUOTAS_FILE,
        comment_prefix="#",
        schema={
            "federation": pl.String,
            "series": pl.Int64,
            "subseries": pl.String,
            "share": pl.String,
        },
    )
    rows: list[QuotaRow] = []
    for federation, series, subseries, share in frame.iter_rows():
        text = (share or "").strip()
        rows.append(
            QuotaRow(
                federation=federation.strip(),
                series=int(series),
                subseries=(subseries or "").strip() or None,
                share=None if text.lower() == REST else Fraction(text),
            )
        )
    quotas = SeriesQuotas(tuple(rows))
    quotas.validate()
    return quotas


def load_series_params(reference_dir: Path) -> SeriesParams:
    """Minimum divisor, super-série and default coefficients. (Federations map to the quota
    codes through `federations.csv`, `pipelines.reference.federations`.)"""
    data = yaml.safe_load((reference_dir / PARAMS_FILE).read_text(encoding="utf-8")) or {}
    ss = data.get("super_serie") or {}
    divisor = float(data["min_divisor"])
    if divisor < 0:
        raise ReferenceDataError(
            f"{reference_dir / PARAMS_FILE}: min_divisor = {divisor:g} est négatif "
            "(0 = sans diviseur minimal, sinon un poids positif)"
        )
    return SeriesParams(
        minimum_divisor=divisor,
        super_serie_size=int(ss["size"]),
        super_serie_threshold=float(ss["threshold"]),
        current_weight=float(ss["current_weight"]),
        previous_weight=float(ss["previous_weight"]),
        default_coefficient=float(data["default_coefficient"]),
        coefficient_by_category={
            str(k): float(v) for k, v in (data.get("coefficient_by_category") or {}).items()
        },
    )
