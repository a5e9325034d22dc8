"""The backtest's parameters, from `backtest.yaml` of the reference folder."""

from __future__ import annotations

from pathlib import Path

from pipelines.reference.files import read_yaml, require
from transforms.backtest import BacktestParams, WengLinParams
from transforms.glicko2 import Glicko2Params

FILE = "backtest.yaml"


def load_backtest_params(reference_dir: Path) -> BacktestParams:
    """`BacktestParams` of `<reference_dir>/backtest.yaml` (errors name the file and key)."""
    path = reference_dir / FILE
    data = read_yaml(path)
    boot = require(data, "bootstrap", path)
    glicko = require(data, "glicko2", path)
    weng = require(data, "weng_lin", path)
    return BacktestParams(
        min_games=int(require(data, "min_games", path)),
        bootstrap_samples=int(require(boot, "samples", path)),
        seed=int(require(boot, "seed", path)),
        confidence=float(require(boot, "confidence", path)),
        probability_floor=float(require(data, "probability_floor", path)),
        calibration_bins=int(require(data, "calibration_bins", path)),
        cote_scale=float(require(data, "cote_scale", path)),
        glicko2=Glicko2Params(
            tau=float(require(glicko, "tau", path)),
            initial_rating=float(require(glicko, "initial_rating", path)),
            initial_rd=float(require(glicko, "initial_rd", path)),
            initial_volatility=float(require(glicko, "initial_volatility", path)),
            epsilon=float(require(glicko, "epsilon", path)),
        ),
        weng_lin=WengLinParams(
            mu=float(require(weng, "mu", path)),
            sigma=float(require(weng, "sigma", path)),
            beta=float(require(weng, "beta", path)),
            kappa=float(require(weng, "kappa", path)),
            tau=float(require(weng, "tau", path)),
        ),
    )
