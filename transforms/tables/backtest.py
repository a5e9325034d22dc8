"""The rating backtest (`classement backtest`, docs/rules.md §10): which rating system
predicts the games best."""

from transforms.tables import FLOAT, INT, STR, Family, Table, columns

FAMILY = Family(
    key="backtest",
    title="Rating backtest (docs/rules.md §10)",
    order=95,
    doc="Written by `classement backtest` into `<out>/backtest.duckdb` (default "
    "`data/backtest/`), never into the build's warehouse, which it only reads. Every game "
    "is predicted by each system from the ratings frozen at its event's start; `system` is "
    "`cote`, `elo_<preset>` (one per preset of `data/reference/elo.yaml`), `glicko2`, "
    "`weng_lin`, `coin` (every game 50 %) or `higher_cote` (the higher cote wins); `subset` "
    "is `all` or `experienced` (both players had at least `--min-games` earlier games).",
)

_INTERVAL = "bound of the 95 % bootstrap interval (events resampled, seeded)"

TABLES = (
    Table(
        "rating_backtest",
        FAMILY,
        "season (or `toutes`: every scored season) × system × subset",
        "Log-loss, Brier score and accuracy of each system's predictions, each with its "
        "bootstrap interval.",
        columns(
            ("season", STR, "a season, or `toutes` for every scored season together"),
            ("system", STR, "`cote`, `elo_<preset>`, `glicko2`, `weng_lin`, `coin`, `higher_cote`"),
            ("subset", STR, "`all` or `experienced`"),
            ("events", INT, "events (tournaments) with a scored game"),
            ("games", INT, "games scored"),
            ("log_loss", FLOAT, "mean of −(y ln p + (1 − y) ln(1 − p)), y = 1, ½, 0"),
            ("log_loss_low", FLOAT, _INTERVAL),
            ("log_loss_high", FLOAT, _INTERVAL),
            ("brier", FLOAT, "mean of (p − y)²"),
            ("brier_low", FLOAT, _INTERVAL),
            ("brier_high", FLOAT, _INTERVAL),
            (
                "accuracy",
                FLOAT,
                "share of games whose winner was predicted (½ for a draw or p = ½)",
            ),
            ("accuracy_low", FLOAT, _INTERVAL),
            ("accuracy_high", FLOAT, _INTERVAL),
        ),
    ),
    Table(
        "rating_backtest_calibration",
        FAMILY,
        "system × subset × decile of predicted probability",
        "Calibration over every scored season: the mean predicted probability and the mean "
        "observed result of the games whose prediction falls in each tenth of [0, 1].",
        columns(
            ("system", STR),
            ("subset", STR, "`all` or `experienced`"),
            ("bin", INT, "0 for [0 ; 0,1), …, 9 for [0,9 ; 1]"),
            ("predicted", FLOAT, "mean predicted probability that the first player wins"),
            ("observed", FLOAT, "mean result of the first player (1, ½, 0)"),
            ("games", INT),
        ),
    ),
)
