"""The rating backtest (docs/rules.md §10): Glickman's worked example, an Elo backtest of
three hand-made events computed by hand, no look-ahead, the seeded bootstrap, the cote's
fitted curve, openskill's ratings, bad input and the empty selection, and the command on
the bundled WESPA tournaments (every system, every table) and on a built warehouse."""

from __future__ import annotations

import math
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from openskill.models import PlackettLuce

from pipelines.backtest.params import load_backtest_params
from pipelines.backtest.run import DATABASE, Outputs, from_raw, from_warehouse, run_backtest
from pipelines.warehouse import Warehouse
from tests.support import FIXTURES, PARAMETERS, games_csv, ingested, results_csv
from transforms import backtest
from transforms.backtest import ALL_SEASONS, BacktestError, Predictions
from transforms.glicko2 import SCALE, Glicko2Params, rate_period

WESPA = FIXTURES / "wespa"
PARAMS = load_backtest_params(PARAMETERS.folder)
ELO = PARAMETERS.elo_presets
# A few small real tournaments over four seasons (2009-2010 to 2012-2013), and a broken one.
SMALL = [
    "2010/CAN/toront210.tou",
    "2010/USA/portland2.tou",
    "2010/CAN/vict10.tou",
    "2010/USA/akron10.tou",
    "2011/USA/oldgreen.tou",
    "2012/USA/eastco12.tou",
    "2013/USA/poughk.tou",
]
BROKEN = "2016/USA/atlant16.tou"


def _predict(tables: dict[str, pl.DataFrame], systems: list[str] | None = None) -> Predictions:
    return backtest.predict(
        tables["tournaments"],
        tables["results"],
        tables["games"],
        tables["rating_lists"],
        cote=PARAMETERS.cote,
        elo_presets=ELO,
        params=PARAMS,
        systems=systems,
    )


def _copy(files: list[str], folder: Path) -> Path:
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(WESPA / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def small_tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pl.DataFrame]:
    folder = _copy(SMALL, tmp_path_factory.mktemp("small-wespa"))
    return ingested(folder).tables


# --- Glicko-2 ----------------------------------------------------------------------------


def test_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30 (won),
    1550/100 (lost) and 1700/300 (lost), τ = 0.5 → r' = 1464.06, RD' = 151.52, σ' = 0.05999.
    The paper rounds each step to four decimals (μ' = −0.2069, φ' = 0.8722) before going
    back to the Glicko scale; the exact arithmetic gives r' = 1464.0507, which is the
    paper's 1464.06 once μ' is rounded as it prints it."""
    params = Glicko2Params(
        tau=0.5, initial_rating=1500, initial_rd=350, initial_volatility=0.06, epsilon=1e-6
    )
    rating, rd, sigma = rate_period(
        np.array([1500.0, 1400.0, 1550.0, 1700.0]),
        np.array([200.0, 30.0, 100.0, 300.0]),
        np.full(4, 0.06),
        p=np.array([0, 0, 0]),
        o=np.array([1, 2, 3]),
        s=np.array([1.0, 0.0, 0.0]),
        params=params,
    )
    mu, phi = (rating[0] - 1500) / SCALE, rd[0] / SCALE
    assert round(mu, 4) == -0.2069
    assert round(phi, 4) == 0.8722
    assert round(SCALE * round(mu, 4) + 1500, 2) == 1464.06
    assert round(SCALE * round(phi, 4), 2) == 151.52
    assert round(rd[0], 2) == 151.52
    # σ' = 0.0599960…, which the paper writes with five decimals cut (not rounded).
    assert math.floor(sigma[0] * 1e5) / 1e5 == 0.05999
    assert abs(sigma[0] - 0.05999) < 1e-5
    assert abs(rating[0] - 1464.06) < 0.01
    # The opponents played no game in this period for the example: they are left as they are.
    assert rating[1:].tolist() == [1400.0, 1550.0, 1700.0]


# --- Elo on three hand-made events -------------------------------------------------------


def _three_events(folder: Path) -> Path:
    """A beats B (E1); C beats A and draws with B (E2); C beats A (E3)."""
    players = {
        "A": ("100", "Alpha", "Ann"),
        "B": ("101", "Bravo", "Bob"),
        "C": ("102", "Charlie", "Cy"),
    }

    def write(name: str, date: str, ranks: dict[str, int], games: list[tuple]) -> None:
        rows = [(players[p][0], players[p][1], players[p][2], r) for p, r in ranks.items()]
        (folder / f"{name}.csv").write_text(
            results_csv(name, rows, date=date, games=len(games)), encoding="utf-8"
        )
        (folder / f"{name}-parties.csv").write_text(
            games_csv(name, [(r, players[a][0], players[b][0], x, y) for r, a, b, x, y in games]),
            encoding="utf-8",
        )

    write("E1", "2020-10-04", {"A": 1, "B": 2}, [(1, "A", "B", 400, 300)])
    write(
        "E2",
        "2020-11-08",
        {"C": 1, "B": 2, "A": 3},
        [(1, "A", "C", 350, 420), (2, "B", "C", 380, 380)],
    )
    write("E3", "2020-12-06", {"C": 1, "A": 2}, [(1, "C", "A", 450, 390)])
    return folder


def test_an_elo_backtest_computed_by_hand(tmp_path: Path) -> None:
    """Preset `default` (base 10 over 400, start 1500, K = 40 for a new player).
    E1: 1500 v 1500 → p = 0.5; A 1520, B 1480.
    E2: A (1520) v C (1500): p = 1/(1 + 10^(−20/400)) = 0.528750…; B (1480) v C: p =
    0.471249…; then A 1520 + 40(0 − 0.528750…) = 1498.850…, B 1480 + 40(0.5 − 0.471249…) =
    1481.150…, C 1500 + 40((1 − 0.471249…) + (0.5 − 0.528750…)) = 1520.
    E3: C (1520) v A (1498.850…) → p = 1/(1 + 10^(−21.150…/400)) = 0.530399…"""
    tables = ingested(_three_events(tmp_path)).tables
    predictions = _predict(tables, ["elo_default"])
    games = predictions.games
    assert games.select("tournament_id", "a", "b", "y").rows() == [
        ("E1", "100", "101", 1.0),
        ("E2", "100", "102", 0.0),
        ("E2", "101", "102", 0.5),
        ("E3", "102", "100", 1.0),
    ]
    p = predictions.probabilities["elo_default"]
    e2 = 1 / (1 + 10 ** (-20 / 400))
    a_after, c_after = 1520 + 40 * (0 - e2), 1500 + 40 * ((1 - (1 - e2)) + (0.5 - e2))
    assert c_after == pytest.approx(1520, abs=1e-12)
    e3 = 1 / (1 + 10 ** (-(c_after - a_after) / 400))
    assert p.tolist() == pytest.approx([0.5, e2, 1 - e2, e3], abs=1e-12)
    assert p.tolist() == pytest.approx([0.5, 0.5287506, 0.4712494, 0.5303998], abs=1e-7)
    # Log-loss, Brier, accuracy of the four games, by hand.
    y = [1.0, 0.0, 0.5, 1.0]
    log_loss = (
        -math.log(0.5)
        - math.log(1 - e2)
        - (0.5 * math.log(1 - e2) + 0.5 * math.log(e2))
        - math.log(e3)
    ) / 4
    brier = (0.25 + e2**2 + (1 - e2 - 0.5) ** 2 + (1 - e3) ** 2) / 4
    accuracy = (0.5 + 0.0 + 0.5 + 1.0) / 4  # p = ½ and the draw count half
    assert log_loss == pytest.approx(0.69361, abs=1e-5)
    assert brier == pytest.approx(0.18773, abs=1e-5)
    scores = backtest.score(predictions, PARAMS).table
    overall = scores.filter((pl.col("season") == ALL_SEASONS) & (pl.col("subset") == "all"))
    row = overall.row(0, named=True)
    assert (row["system"], row["games"], row["events"]) == ("elo_default", 4, 3)
    assert row["log_loss"] == pytest.approx(log_loss, abs=1e-12)
    assert row["brier"] == pytest.approx(brier, abs=1e-12)
    assert row["accuracy"] == accuracy
    assert row["log_loss_low"] <= row["log_loss"] <= row["log_loss_high"]
    assert y == predictions.games["y"].to_list()


# --- no look-ahead, determinism ----------------------------------------------------------


def test_a_prediction_does_not_change_when_later_events_are_removed(
    small_tables: dict[str, pl.DataFrame],
) -> None:
    full = _predict(small_tables)
    events = full.games.select("event", "tournament_id", "season").unique().sort("event")
    assert events["season"].n_unique() >= 3
    cut = events.height // 2
    kept = events["tournament_id"].head(cut).to_list()
    earlier = {
        name: frame.filter(pl.col("tournament_id").is_in(kept))
        if "tournament_id" in frame.columns
        else frame
        for name, frame in small_tables.items()
    }
    truncated = _predict(earlier)
    rows = truncated.games.height
    assert 0 < rows < full.games.height
    assert truncated.games.drop("experienced").equals(full.games.head(rows).drop("experienced"))
    assert set(truncated.probabilities) == set(backtest.system_names(list(ELO)))
    for system, p in truncated.probabilities.items():
        assert p.tolist() == full.probabilities[system][:rows].tolist(), system


def test_the_bootstrap_is_seeded_and_deterministic(small_tables: dict[str, pl.DataFrame]) -> None:
    predictions = _predict(small_tables, ["elo_wespa", "coin"])
    first = backtest.score(predictions, PARAMS).table
    again = backtest.score(predictions, PARAMS).table
    assert first.equals(again)
    counts = backtest.resample_counts(7, PARAMS, "2010-2011")
    assert counts.shape == (PARAMS.bootstrap_samples, 7)
    assert (counts.sum(axis=1) == 7).all()
    assert np.array_equal(counts, backtest.resample_counts(7, PARAMS, "2010-2011"))
    other = backtest.score(predictions, replace(PARAMS, seed=PARAMS.seed + 1)).table
    assert other["log_loss"].equals(first["log_loss"])  # the point values do not move
    assert not other["log_loss_low"].equals(first["log_loss_low"])  # the intervals do
    coin = first.filter(pl.col("system") == "coin")
    assert np.allclose(coin["log_loss_low"].to_numpy(), math.log(2), rtol=0, atol=1e-12)


# --- the systems' curves -----------------------------------------------------------------


def test_the_cote_scale_is_fitted_by_maximum_likelihood() -> None:
    """Results equal to the curve's own probabilities: the likelihood is highest at the
    scale that made them."""
    d = np.array([-400.0, -150.0, -20.0, 0.0, 35.0, 120.0, 300.0, 600.0])
    y = 1 / (1 + np.exp(-d / 180.0))
    assert backtest.fit_logistic_scale(d, y, start=250.0) == pytest.approx(180.0, rel=1e-9)
    assert backtest.fit_logistic_scale(d[:0], y[:0], start=250.0) == 250.0
    # Differences that predict the opposite of the results: p = ½ everywhere.
    assert backtest.fit_logistic_scale(d, 1 - y, start=250.0) == math.inf


def test_the_cote_curve_looks_only_at_earlier_seasons(
    small_tables: dict[str, pl.DataFrame],
) -> None:
    predictions = _predict(small_tables, ["cote"])
    seasons = sorted(predictions.cote_scales)
    assert predictions.cote_scales[seasons[0]] == PARAMS.cote_scale  # nothing earlier
    games = predictions.games
    ca, cb = backtest.cote_before(
        games,
        small_tables["tournaments"],
        small_tables["results"],
        small_tables["rating_lists"],
        PARAMETERS.cote,
    )
    y = games["y"].to_numpy()
    for season in seasons[1:]:
        earlier = (games["season"] < season).to_numpy()
        expected = backtest.fit_logistic_scale((ca - cb)[earlier], y[earlier], PARAMS.cote_scale)
        assert predictions.cote_scales[season] == expected


def test_weng_lin_rates_through_openskill(tmp_path: Path) -> None:
    """E1's game is rated by openskill's Plackett-Luce; E2's prediction is the
    Plackett-Luce probability of the ratings it left."""
    tables = ingested(_three_events(tmp_path)).tables
    p = _predict(tables, ["weng_lin"]).probabilities["weng_lin"]
    w = PARAMS.weng_lin
    model = PlackettLuce(mu=w.mu, sigma=w.sigma, beta=w.beta, kappa=w.kappa, tau=w.tau)
    (a,), _ = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    c = model.rating()
    spread = math.sqrt(a.sigma**2 + c.sigma**2 + 2 * w.beta**2)
    assert p[0] == 0.5
    assert p[1] == pytest.approx(1 / (1 + math.exp(-(a.mu - c.mu) / spread)), abs=1e-12)
    assert p[1] > 0.5  # A won E1


# --- bad input, empty selection ----------------------------------------------------------


def test_a_broken_export_is_named_and_the_rest_is_scored(tmp_path: Path) -> None:
    raw = _copy([*SMALL[:3], BROKEN], tmp_path / "raw")
    inputs = from_raw(raw, PARAMETERS)
    assert [r.path for r in inputs.rejected] == [BROKEN]
    assert "ligne 20" in inputs.rejected[0].message
    assert "il manque une ronde" in inputs.rejected[0].message
    out = run_backtest(
        inputs, PARAMETERS, out_dir=tmp_path / "out", systems=["elo_wespa", "coin"], pdf=False
    )
    assert set(out.predictions.games["tournament_id"]) == {"toront210", "portland2", "vict10"}
    html = out.html.read_text(encoding="utf-8")
    assert "1 export refusé" in html and "atlant16.tou" in html


def test_an_empty_selection_says_so_in_french(
    tmp_path: Path, small_tables: dict[str, pl.DataFrame]
) -> None:
    predictions = _predict(small_tables, ["coin"])
    with pytest.raises(
        BacktestError, match="aucune partie à évaluer à partir de la saison 2099-2100"
    ):
        backtest.score(predictions, PARAMS, from_season="2099-2100")
    (tmp_path / "raw").mkdir()
    with pytest.raises(
        BacktestError, match=r"aucune partie à évaluer : .* ne contient aucune partie"
    ):
        run_backtest(
            from_raw(tmp_path / "raw", PARAMETERS), PARAMETERS, out_dir=tmp_path / "out", pdf=False
        )
    with pytest.raises(BacktestError, match="système inconnu : elo_usa"):
        run_backtest(
            from_raw(tmp_path / "raw", PARAMETERS), PARAMETERS, systems=["elo_usa"], pdf=False
        )
    with pytest.raises(BacktestError, match="entrepôt introuvable"):
        from_warehouse(tmp_path / "absent.duckdb")


# --- the command on the bundled WESPA tournaments, and on a warehouse ---------------------


@pytest.fixture(scope="module")
def wespa_run(tmp_path_factory: pytest.TempPathFactory) -> Outputs:
    """The 30 bundled WESPA tournaments (tests/fixtures/wespa/, copies of files of the
    archive), every system, without the PDF (the browser test prints it)."""
    return run_backtest(
        from_raw(WESPA, PARAMETERS),
        PARAMETERS,
        out_dir=tmp_path_factory.mktemp("bt") / "out",
        pdf=False,
    )


def test_every_system_has_its_scores_and_calibration(wespa_run: Outputs) -> None:
    systems = backtest.system_names(list(ELO))
    assert systems == [
        "cote",
        "elo_default",
        "elo_fide",
        "elo_wespa",
        "glicko2",
        "weng_lin",
        "coin",
        "higher_cote",
    ]
    tables = Warehouse(wespa_run.database)
    scores = tables.table("rating_backtest")
    assert scores.equals(wespa_run.scores.table)
    overall = scores.filter(pl.col("season") == ALL_SEASONS)
    assert overall.filter(pl.col("subset") == "all")["system"].to_list() == systems
    assert set(overall["subset"]) == {"all", "experienced"}
    seasons = set(scores["season"]) - {ALL_SEASONS}
    assert len(seasons) >= 8
    for row in scores.iter_rows(named=True):
        for metric in ("log_loss", "brier", "accuracy"):
            assert row[f"{metric}_low"] <= row[metric] + 1e-12 <= row[f"{metric}_high"] + 2e-12, row
    calibration = tables.table("rating_backtest_calibration")
    assert set(calibration["system"]) == set(systems)
    games = overall.filter(pl.col("subset") == "all")["games"][0]
    per_system = (
        calibration.filter(pl.col("subset") == "all").group_by("system").agg(pl.col("games").sum())
    )
    assert set(per_system["games"]) == {games}
    # The two exports the ingest refuses (a missing round, a negative score), named.
    assert [r.path for r in wespa_run.rejected] == ["2013/MLT/eurch131.tou", BROKEN]
    assert all(r.message.startswith(r.path) for r in wespa_run.rejected)
    assert wespa_run.verdict is not None and wespa_run.verdict.best in systems


def test_the_warehouse_is_only_read(sample_site: Path, tmp_path: Path) -> None:
    """`--warehouse`: the sample's build scored from its base tables; the build's
    warehouse is not written (no backtest table appears in it)."""
    warehouse = sample_site / "w.duckdb"
    before = warehouse.stat().st_mtime_ns
    out = run_backtest(
        from_warehouse(warehouse),
        PARAMETERS,
        out_dir=tmp_path,
        systems=["cote", "elo_default", "coin"],
        pdf=False,
    )
    assert warehouse.stat().st_mtime_ns == before
    assert "rating_backtest" not in Warehouse(warehouse).tables()
    assert (tmp_path / DATABASE).exists()
    assert out.predictions.games.height > 1000


def test_the_notebook_explores_the_tables(
    wespa_run: Outputs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """notebooks/backtest.py run through marimo on the tables the command wrote."""
    import importlib.util

    from pipelines.paths import PROJECT_ROOT

    monkeypatch.setenv("CLASSEMENT_BACKTEST", str(wespa_run.database))
    spec = importlib.util.spec_from_file_location(
        "notebook_backtest", PROJECT_ROOT / "notebooks" / "backtest.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _, defs = module.app.run()
    overall = defs["overall"]
    assert overall.height == len(backtest.system_names(list(ELO))) - 1  # all but higher_cote
    assert overall["log_loss"].is_sorted()
    assert len(defs["curves"].data) == overall.height + 1  # and the diagonal


def test_the_command_exit_status_and_same_bytes_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """1 when an export is refused (named on stderr, the rest scored), 2 when nothing can
    be scored, in French; the same inputs give the same report, byte for byte."""
    from classement.cli import main

    raw = _copy([*SMALL[:3], BROKEN], tmp_path / "raw")
    argv = ["backtest", "--raw", str(raw), "--systems", "elo_wespa", "coin", "--no-pdf"]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 1
    out, err = capsys.readouterr()
    assert err.startswith(f"Export refusé : {BROKEN}, ligne 20 : ")
    assert "Toutes les saisons notées (89 parties)" in out and "Meilleur : " in out
    assert main([*argv, "--out", str(tmp_path / "b")]) == 1
    first, second = (tmp_path / d / "index.html" for d in ("a", "b"))
    assert first.read_bytes() == second.read_bytes()
    tables = [Warehouse(tmp_path / d / DATABASE).table("rating_backtest") for d in ("a", "b")]
    assert tables[0].equals(tables[1])
    capsys.readouterr()
    (tmp_path / "empty").mkdir()
    assert main(["backtest", "--raw", str(tmp_path / "empty"), "--out", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Rétro-évaluation impossible : aucune partie à évaluer"), err
    assert main(["backtest", "--raw", str(raw), "--warehouse", str(tmp_path / "w.duckdb")]) == 2
    assert "--raw et --warehouse s'excluent" in capsys.readouterr().err


def test_the_dagster_asset_reads_the_warehouse(sample_site: Path, tmp_path: Path) -> None:
    """The multi-asset `rating_backtest` (job `backtest`) on the sample's build: both tables
    materialised into its own folder, the warehouse only read."""
    import dagster as dg

    from pipelines.defs.backtest.assets import rating_backtest
    from pipelines.resources import WarehouseResource

    warehouse = sample_site / "w.duckdb"
    result = dg.materialize(
        [rating_backtest],
        resources={"warehouse": WarehouseResource(warehouse_path=str(warehouse))},
        run_config={
            "ops": {
                "rating_backtest": {
                    "config": {
                        "systems": ["elo_default", "coin"],
                        "out_dir": str(tmp_path),
                        "pdf": False,
                    }
                }
            }
        },
    )
    assert result.success
    keys = {
        e.asset_key.to_user_string()
        for e in result.get_asset_materialization_events()
        if e.asset_key is not None
    }
    assert keys == {"rating_backtest", "rating_backtest_calibration"}
    scores = Warehouse(tmp_path / DATABASE).table("rating_backtest")
    assert set(scores["system"]) == {"elo_default", "coin"}
    assert "rating_backtest" not in Warehouse(warehouse).tables()


def test_from_scores_only_the_later_seasons(small_tables: dict[str, pl.DataFrame]) -> None:
    """`--from`: the earlier seasons warm the ratings up and are not scored."""
    predictions = _predict(small_tables, ["elo_wespa", "coin"])
    seasons = sorted(set(predictions.games["season"]))
    later = backtest.score(predictions, PARAMS, from_season=seasons[1]).table
    assert sorted(set(later["season"]) - {ALL_SEASONS}) == seasons[1:]
    scored = predictions.games.filter(pl.col("season") >= seasons[1]).height
    overall = later.filter((pl.col("season") == ALL_SEASONS) & (pl.col("subset") == "all"))
    assert overall["games"].to_list() == [scored, scored]
    calibration = backtest.calibration(predictions, PARAMS, from_season=seasons[1])
    assert calibration.filter(pl.col("subset") == "all")["games"].sum() == 2 * scored
